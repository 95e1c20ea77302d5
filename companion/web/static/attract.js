// The kiosk between games (attract mode): while no game runs on the table (none, or the last one is over), the
// screen shows the evening in turn, about ten seconds each: tonight's games (winner, players, duration), who was
// lucky, and whether the dice are fair. From /api/stats (remember.js draws); no controls. Loaded on the kiosk only
// (table.html), after table.js's state S; the game-over panel with its buttons stays beside it, uncovered.
"use strict";

const ATTRACT = { slide: 0, data: null, timer: null, node: null };  // slide: the one shown (a new language redraws it)
const ATTRACT_SECONDS = 10;
const ATTRACT_GAMES = 6;

const attractIdle = () => Boolean(S.state) && (!S.state.game || S.state.game.over);

function attractTonight(data) {
  const numbers = new Set(data.luck.games);
  return data.games.filter((g) => numbers.has(g.number));
}

// Each slide: its heading and its body, or null when the evening has nothing for it yet.
const ATTRACT_SLIDES = [
  (data) => {
    const games = attractTonight(data).slice(0, ATTRACT_GAMES);
    return [T("attract_results"), games.length ? el("ol", { class: "attract-games" }, games.map((g) =>
      el("li", { "data-game": g.number },
        el("strong", {}, g.title), " ",
        el("span", { class: "winner" }, g.over ? T("attract_won", { winner: g.winners.join(", ") || "—" })
          : T("stats_unfinished")),
        el("br"),
        el("span", { class: "detail" }, `${g.players.join(", ")} · ${T("stats_minutes",
          { minutes: Math.round(g.duration / 60) })}`))))
      : el("p", {}, T("attract_no_games"))];
  },
  (data) => (data.luck.players.length ? [T("luck_evening"), luckList(data.luck.players)] : null),
  (data) => {
    const kinds = data.dice.flatMap((set) => set.kinds.filter((kind) => kind.verdict.rolls)
      .map((kind) => ({ set, kind })));
    if (!kinds.length) return null;
    return [T("stats_dice_title"), el("ul", { class: "attract-dice" }, kinds.map(({ set, kind }) =>
      el("li", { class: `verdict-${kind.verdict.code}`, "data-kind": kind.kind },
        el("strong", {}, set.kinds.length > 1 ? `${set.titles.join(" · ")}: ${faceName(kind.kind)}`
          : set.titles.join(" · ")), el("br"), verdictText(kind.verdict))))];
  },
];

// The slide ``ATTRACT.slide`` or, when it has nothing to show, the next one that has (the results always do).
function attractDraw() {
  if (!ATTRACT.node || !ATTRACT.data) return;
  for (let tries = 0; tries < ATTRACT_SLIDES.length; tries++) {
    const shown = ATTRACT_SLIDES[ATTRACT.slide](ATTRACT.data);
    if (shown) {
      ATTRACT.node.dataset.slide = String(ATTRACT.slide);
      ATTRACT.node.replaceChildren(el("h2", {}, shown[0]), ...[shown[1]].flat());
      return;
    }
    ATTRACT.slide = (ATTRACT.slide + 1) % ATTRACT_SLIDES.length;
  }
}

async function attractShow(slide) {
  try {
    ATTRACT.data = await (await fetch("/api/stats")).json();
  } catch (_) { /* the last answer stays up */ }
  ATTRACT.slide = slide % ATTRACT_SLIDES.length;
  attractDraw();
}

// Checked every second: the table's state comes by its stream (table.js), attract mode follows it.
function attractWatch() {
  const idle = attractIdle();
  document.body.classList.toggle("attract", idle);
  if (idle && !ATTRACT.node) {
    ATTRACT.node = el("section", { id: "attract", class: "panel attract", "aria-live": "polite" });
    document.querySelector("main.table-grid").prepend(ATTRACT.node);
    attractShow(0);
    ATTRACT.timer = setInterval(() => attractShow(ATTRACT.slide + 1), ATTRACT_SECONDS * 1000);
  } else if (!idle && ATTRACT.node) {
    clearInterval(ATTRACT.timer);
    ATTRACT.node.remove();
    ATTRACT.node = null;
  }
}

onLanguageChange.push(attractDraw);
setInterval(attractWatch, 1000);
