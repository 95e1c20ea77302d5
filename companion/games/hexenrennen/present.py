"""How Hexen Rennen looks on a screen, from its own data: the box's contents the track and the turn panel draw."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import log_lines_of, ranked
from companion.games.hexenrennen.kit import load_kit
from companion.texts import colour, text, ui

DEMO_OPTIONS: dict[str, Any] = {
    "players": [{"name": "Julia", "colour": "green"}, {"name": "Klaus", "colour": "orange"},
                {"name": "Ben", "colour": "blue"}, {"name": "Anna", "colour": "yellow"}],
    "tiles": "shuffled", "piles": "shuffled"}
"""The set-up ``companion demo`` plays: the face-down tiles get a seeded "truth", since bots cannot look at a real
table to reveal them."""


def layout(view: Mapping[str, Any]) -> dict[str, Any]:
    """What never changes during this game (``/api/layout``): clans, tile and card numbers, stages, finish fields."""
    kit = load_kit()
    return {"kit": {"clans": list(kit.clans), "witches_per_clan": kit.witches_per_clan,
                    "tile_numbers": list(kit.tile_numbers), "card_numbers": list(kit.card_numbers),
                    "card_magic": kit.card_magic, "stages": kit.stages, "stage_length": kit.stage_length,
                    "finish_points": list(kit.finish_points)}}


# -- the log ---------------------------------------------------------------------------------------------------------

FORCED = frozenset({"asks", "finished", "game_over", "passed"})
"""Events the table must notice: a card decision that is due (and whose), a witch home, the end."""
STAYS_LINES: dict[str, str | None] = {
    "magic_ends_move": None, "drawn_card_void": None,  # the moved / drawn line before it says it all
    "chose_to_stay": "hx_stays_chosen", "foreign_number": "hx_stays_number", "occupied": "hx_stays_occupied",
    "beyond_finish": "hx_stays_beyond", "pile_empty": "hx_stays_pile_empty", "no_card": "hx_stays_no_card",
    "no_playable_card": "hx_stays_no_card",
}
"""The line of a ``stays`` event by its ``reason`` code (``rules.STAYS_REASONS``); an unknown code: "stays"."""


def names(view: Mapping[str, Any] | None, lang: str) -> dict[str, str]:
    """Clan -> the player's name (a neutral clan: its colour), witch id -> "Julia's witch 2".

    >>> view = {"players": [{"clan": "blue", "name": "Julia"}], "neutrals": [{"clan": "green"}],
    ...         "witches": [{"id": "blue-2", "clan": "blue"}]}
    >>> names(view, "de")
    {'blue': 'Julia', 'green': 'grün (neutral)', 'blue-2': 'Hexe 2 von Julia'}
    """
    view = view or {}
    out = {p["clan"]: p["name"] for p in view.get("players") or []}
    for neutral in view.get("neutrals") or []:
        out[neutral["clan"]] = text(lang, "hx_neutral_name", colour=colour(lang, neutral["clan"]))
    for witch in view.get("witches") or []:
        n = witch["id"].rsplit("-", 1)[-1]
        out[witch["id"]] = text(lang, "hx_witch", name=out.get(witch["clan"], witch["clan"]), n=n)
    return out


def place(space: Any, lang: str) -> str:
    """A space as the log says it: the start, space 14, the 3-point finish field."""
    track = load_kit().track_length
    if not isinstance(space, int) or space <= 0:
        return text(lang, "hx_place_start")
    if space > track:
        return text(lang, "hx_place_finish", points=load_kit().points(space))
    return text(lang, "hx_place_space", n=space)


def _card(card: Any, lang: str) -> str:
    return text(lang, "hx_card_magic") if card == "magic" else text(lang, "hx_card_number", value=card)


def _witch_of(event: Mapping[str, Any], decider: Any, lang: str, named: str) -> str:
    """The witch as the line of its deciding player names it: "their own witch 2" when it is theirs (not "Jonas lets
    Jonas's witch 2 stay")."""
    wid = str(event.get("witch", ""))
    if decider and wid.startswith(f"{decider}-"):
        return text(lang, "hx_own_witch", n=wid.rsplit("-", 1)[-1])
    return named


def forced(event: Mapping[str, Any]) -> bool:
    """Whether an event is flashed on every screen (see :data:`FORCED`)."""
    return event.get("type") in FORCED or bool(event.get("type") == "card_played" and event.get("forced"))


def describe(event: Mapping[str, Any], *, lang: str, names: Mapping[str, str]) -> str | None:
    """One line for one event (``README.md``), or None.

    >>> names = {"blue": "Julia", "yellow": "Ben", "blue-1": "Julia's witch 1"}
    >>> describe({"type": "moved", "witch": "blue-1", "from": 3, "to": 13, "by": "tile", "value": 10},
    ...          lang="en", names=names)
    "Julia's witch 1 follows its own 10: on to space 13"
    >>> describe({"type": "asks", "phase": "foreign_magic", "player": "yellow", "witch": "blue-1",
    ...           "space": 20, "forced": True}, lang="en", names=names)
    "Ben must play a card against Julia's witch 1"
    """
    kind = event.get("type")
    witch = names.get(event.get("witch", ""), event.get("witch"))
    player = names.get(event.get("player", ""), event.get("player"))
    clan = colour(lang, event.get("clan", ""))
    if kind == "turn":
        return text(lang, "hx_turn", turn=event.get("turn"), player=player)
    if kind == "rolled":
        return text(lang, "hx_rolled", player=player, die=event.get("die"))
    if kind == "passed":
        return text(lang, "hx_passed", player=player, die=event.get("die"))
    if kind == "moved":
        by, value = event.get("by"), event.get("value")
        to = place(event.get("to"), lang)
        back = isinstance(event.get("to"), int) and isinstance(event.get("from"), int) and event["to"] < event["from"]
        key = {"die": "hx_moved_die", "tile": "hx_moved_tile", "draw": "hx_moved_card_back"}.get(by)
        if by in ("card", "magic"):
            key = f"hx_moved_{by}_{'back' if back else 'forward'}"
        return text(lang, key or "hx_moved_die", witch=witch, value=value, to=to)
    if kind == "revealed":
        tile = (text(lang, "hx_tile_magic", colour=clan) if event.get("value") == "magic"
                else text(lang, "hx_tile_number", colour=clan, value=event.get("value")))
        return text(lang, "hx_revealed", space=event.get("space"), tile=tile)
    if kind == "asks":
        phase = event.get("phase")
        if phase == "draw":
            return text(lang, "hx_asks_draw", player=player, witch=witch, colour=colour(lang, event.get("pile", "")))
        if phase == "foreign_magic" and event.get("forced"):
            return text(lang, "hx_asks_forced", player=player, witch=witch)
        return text(lang, "hx_asks_own_magic" if phase == "own_magic" else "hx_asks_foreign_magic",
                    player=player, witch=_witch_of(event, event.get("player"), lang, witch))
    if kind == "card_played":
        key = ("hx_card_played_forced" if event.get("forced") else
               "hx_card_played_forward" if event.get("direction") == "forward" else "hx_card_played_back")
        return text(lang, key, player=player, card=_card(event.get("card"), lang),
                    witch=_witch_of(event, event.get("player"), lang, witch), n=event.get("cards_left"))
    if kind == "drawn":
        return text(lang, "hx_drawn_ignored" if event.get("ignored") else "hx_drawn", colour=clan,
                    card=_card(event.get("card"), lang), witch=witch)
    if kind == "stays":
        key = STAYS_LINES.get(str(event.get("reason")), "hx_stays")
        if key is None:
            return None
        decider = event.get("clan", "") if key == "hx_stays_chosen" else None
        return text(lang, key, witch=_witch_of(event, decider, lang, witch), place=place(event.get("space"), lang),
                    colour=clan, player=names.get(event.get("clan", ""), event.get("clan", "")))
    if kind == "finished":
        return text(lang, "hx_finished", witch=witch, points=event.get("points"))
    if kind == "chain_end":
        if int(event.get("steps") or 0) < 2:
            return None  # a single move: its line said where the witch went
        net = int(event.get("net") or 0)
        return text(lang, "hx_chain_end", witch=witch, net=f"{net:+d}", **{
            "from": place(event.get("from"), lang), "to": place(event.get("to"), lang)})
    if kind == "game_over":
        winners = list(event.get("winners") or [])
        points = (event.get("scores") or {}).get(winners[0], 0) if winners else 0
        joined = text(lang, "hx_and").join(names.get(w, w) for w in winners)
        return text(lang, "hx_game_over_shared" if len(winners) > 1 else "hx_game_over", winners=joined,
                    points=points)
    return None


def log_lines(action: Mapping[str, Any], phase: str | None, events: list[Mapping[str, Any]], *, actor: str,
              lang: str, names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The lines of one stored action: every event tells its part (a choice always has an event)."""
    return log_lines_of(action, None, events, lambda event: describe(event, lang=lang, names=names), forced)


# -- the options, as the screens and the buttons name them ----------------------------------------------------


def option_label(option: Mapping[str, Any], snapshot: Mapping[str, Any], lang: str) -> str | None:
    """How the screens and the buttons name one of this game's options, in ``lang`` (None: no text for it)."""
    view = snapshot.get("view") or {}
    kind = option.get("type")
    if kind == "move":
        witch = option.get("witch")
        space = next((w.get("space") for w in view.get("witches") or [] if w.get("id") == witch), 0)
        return ui(lang, "hx_move_option", witch=names(view, lang).get(witch, witch),
                   **{"from": place(space, lang)}, to=place(option.get("to"), lang))
    if kind == "reveal":
        clan, value = option.get("clan"), option.get("value")
        return f"{colour(lang, clan)} {ui(lang, 'hx_magic') if value == 'magic' else value}"
    if kind == "stay":
        return ui(lang, "hx_stay")
    if kind == "play":
        to = place(option.get("to"), lang)
        return ui(lang, "hx_card_to", card=_card_label(option.get("card"), lang), to=to)
    if kind == "draw":
        return _card_label(option.get("card"), lang)
    return None


def option_help(option: Mapping[str, Any], snapshot: Mapping[str, Any], lang: str) -> dict[str, Any] | None:
    """What playing a card or letting the witch stay does on a magic sign (HR-12, HR-13, HR-16), in ``lang``."""
    kind = option.get("type")
    if kind == "stay":
        return {"title": ui(lang, "hx_stay"), "text": ui(lang, "hx_help_stay"), "reference": False}
    if kind != "play":
        return None
    phase = (snapshot.get("prompt") or {}).get("phase")
    card = "magic" if option.get("card") == "magic" else "number"
    way = "forward" if phase == "own_magic" else "back"
    return {"title": ui(lang, f"hx_help_{card}"), "text": ui(lang, f"hx_help_{card}_{way}"), "reference": False}


def _card_label(card: Any, lang: str) -> str:
    return f"✶ {ui(lang, 'hx_magic')}" if card == "magic" else str(card)


# -- game over -------------------------------------------------------------------------------------------------------

CHART_AXIS = "hx_chart_turn"
CHART_METRICS = ("hx_chart_points", "hx_chart_spaces")
"""ui keys: the steps of the chart and what it draws."""
LUCK_COUNTED = "hx_luck_counted"
"""ui key: what the stats page counts as this game's luck (``Game.luck``)."""


def chart_point(view: Mapping[str, Any]) -> tuple[int, dict[str, dict[str, float | None]]]:
    """Each player's points (HR-19) and how far the clan's witches have come (the spaces they stand on, summed),
    after the turns played."""
    done = view["turn"] if view["over"] else view["turn"] - 1
    players = [p["clan"] for p in view["players"]]
    spaces = {clan: 0 for clan in players}
    for witch in view["witches"]:
        if witch["clan"] in spaces:
            spaces[witch["clan"]] += witch["space"]
    return done, {"hx_chart_points": {clan: view["scores"][clan] for clan in players}, "hx_chart_spaces": spaces}


def standings(view: Mapping[str, Any], series: Mapping[str, Mapping[str, list[Any]]]) -> list[dict[str, Any]]:
    """HR-19: most points first; **Decision** of the rules: a tie is a shared win, so it shares the place."""
    winners = set(view.get("winners") or [])
    rows = [{"actor": p["clan"], "colour": p["clan"], "why": (why := "winner" if p["clan"] in winners else "points"),
             "text": f"hx_standing_{why}",
             "values": {"points": p["score"], "home": p["home"]}} for p in view["players"]]
    return ranked(rows, key=lambda r: -r["values"]["points"])
