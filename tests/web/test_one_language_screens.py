"""One language per screen, as Chromium shows it: every game played by bots into several phases (the first
prompts, the log, the boards, the game's end where the bots get there) in German, Dutch and English, and every
visible text, button label, title and aria-label checked for words of another language's catalogue, and for words
broken mid-word on a tablet. Text an element marks with another ``lang`` (the language switch's "Deutsch") is that
language's on purpose; the games' titles are product names, the same on every screen."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games import GAMES, get_game
from companion.games.bots import GreedyBot, RandomBot, roll
from tests.languages import foreign_in
from tests.web.test_one_language import options_of

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

LOCALES = {"de": "de-DE", "nl": "nl-NL", "en": "en-GB"}
TABLET = (1024, 768)
"""Where long German words broke mid-word."""
CHECKPOINTS = (0, 3, 12, 40, 400)
"""Actions random bots play before each look: set-up, the first choices, later rounds (Chariot Race, Hexen Rennen
and Dice Race may end before)."""
THE_END = 10_000
"""The last look: greedy bots play on until the game is over, its game-over screen."""

SCREEN_TEXTS = """(lang) => {
  document.querySelectorAll('details').forEach((d) => { d.open = true; });
  const own = (node) => { const marked = node.closest('[lang]'); return !marked || marked.lang === lang; };
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || parent.closest('script, style, template') || !own(parent) || !n.textContent.trim()) continue;
    if (parent.closest('svg') || parent.offsetParent !== null || getComputedStyle(parent).position === 'fixed')
      texts.push(n.textContent.trim());
  }
  for (const node of document.querySelectorAll('[title], [aria-label], [placeholder]'))
    if (own(node)) for (const a of ['title', 'aria-label', 'placeholder'])
      if (node.getAttribute(a)) texts.push(node.getAttribute(a));
  for (const b of document.querySelectorAll('button, [role=button]')) if (own(b)) texts.push(b.textContent.trim());
  return texts;
}"""
"""Every text a player can read: the visible text nodes (the track's drawing too), open details, button labels,
titles, aria-labels and placeholders."""


def play(session, steps: int, rng: random.Random, bot: Any = None) -> None:
    bot = bot or RandomBot()
    for _ in range(steps):
        prompt = session.prompt()
        if prompt is None or not prompt.options or session.snapshot()["game"]["over"]:
            return
        state = session.state
        session.act(roll(session.game, bot.choose(session.game, state, prompt, rng), rng, state),
                    actor=prompt.actor or "table")


BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || parent.closest('svg, script, style') || parent.offsetParent === null) continue;
    for (const m of n.textContent.matchAll(/[\\p{L}]{4,}/gu)) {
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""
"""The words split over two lines: a word that breaks mid-word ("Bestätige/n") rather than move to the next line."""


def screen_texts(page: Any, lang: str) -> list[str]:
    return page.evaluate(SCREEN_TEXTS, lang)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_screen_of_a_game_speaks_one_language(served, open_page, game_id):
    session = served.session
    options = options_of(game_id)
    session.new_game(game_id, options, seed=11)
    rng = random.Random(11)
    # the players' names and the games' own (product names, one form in every language) are no language's words
    players = [p["name"] for p in options["players"]] + [get_game(g).title for g in GAMES]
    url = f"http://127.0.0.1:{served.port}/"
    pages = {lang: open_page(url, control=True, locale=locale, viewport=TABLET)
             for lang, locale in LOCALES.items()}
    found: dict[str, dict[str, str]] = {lang: {} for lang in LOCALES}
    broken: dict[str, set[str]] = {lang: set() for lang in LOCALES}
    done = 0
    for checkpoint in (*CHECKPOINTS, THE_END):
        for page in pages.values():  # away while the bots play: a screen would draw every state on the way
            page.goto("about:blank")
        # to the end as greedy bots play it: random ones take thousands of actions to finish a Cubitos race
        play(session, checkpoint - done, rng, GreedyBot() if checkpoint == THE_END else None)
        done = checkpoint
        for lang, page in pages.items():
            page.goto(url)
            expect(page.locator("#connection")).to_have_class("badge live")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            page.wait_for_timeout(300)  # the log and the layout arrive after the state
            for word, text in foreign_in(lang, screen_texts(page, lang), allowed=players).items():
                found[lang].setdefault(word, f"{text[:80]} (after {done} actions)")
            broken[lang] |= set(page.evaluate(BROKEN_WORDS))
        if session.snapshot()["game"]["over"]:
            break
    assert session.snapshot()["game"]["over"], "the game-over screen was read too"
    assert found == {lang: {} for lang in LOCALES}
    assert broken == {lang: set() for lang in LOCALES}


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_new_game_page_speaks_one_language(served, open_page, lang):
    page = open_page(f"http://127.0.0.1:{served.port}/new", control=True, locale=LOCALES[lang], viewport=TABLET)
    titles = [get_game(g).title for g in GAMES]
    found: dict[str, str] = {}
    for game_id in sorted(GAMES):
        page.locator(f"input[name=game][value='{game_id}']").check()
        page.wait_for_timeout(200)
        for word, text in foreign_in(lang, screen_texts(page, lang), allowed=titles).items():
            found.setdefault(word, f"{game_id}: {text[:80]}")
    assert found == {}
