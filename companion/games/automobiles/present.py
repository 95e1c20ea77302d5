"""How Automobiles looks on a screen and reads in the log, from its own data (pure: the web layer sends what this
returns as it is)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache
from math import comb
from typing import Any

from companion.games.automobiles.kit import load_kit
from companion.games.automobiles.state import COLOURS, WEAR, standing
from companion.games.base import log_lines_by, ranked
from companion.texts import catalog, face, text, ui

DEMO_OPTIONS: dict[str, Any] = {
    "players": [{"name": "Julia", "colour": "red"}, {"name": "Klaus", "colour": "blue"},
                {"name": "Ben", "colour": "yellow"}, {"name": "Anna", "colour": "green"}],
    "track": "reference_oval", "card_pool": "base", "open_bags": True}
"""The set-up ``companion demo --game automobiles`` will play: four players on the reference oval, with open bags
(AU-120) so the demo shows every bag and the odds of the next draw."""


def layout(view: Mapping[str, Any]) -> dict[str, Any]:
    """What never changes during a race (``/api/layout``): the track's fields and segments with their colours and
    lanes, the lap track, the cards in play with cost and value, and which of it is reference data rather than the
    printed material (AU-3, AU-4: shown as such on screen)."""
    kit = load_kit()
    track = kit.tracks[view["track"]]
    fields = [{"id": f.id, "lane": f.lane, "back": f.back, "front": f.front, "colours": list(f.colours),
               "segments": list(f.segments)} for f in track.fields.values()]
    segments = [{"id": s.id, "field": s.field, "lane": s.lane, "back": s.back, "front": s.front,
                 "line_at_back": s.line_at_back, "ahead": s.ahead} for s in track.segments.values()]
    cards = {}
    for colour_id, card_id in (view.get("cards") or {}).items():
        card = kit.fixed_cards.get(card_id) or kit.action_cards[card_id]
        cards[colour_id] = {"id": card.id, "name": card_name_key(card.id), "cost": card.cost, "value": card.value,
                            "cost_is_reference": not card.verified, "text": card_text_key(card.id),
                            "category": card.category}
    return {"track": {"id": track.id, "name": track.name, "reference": track.reference,
                      "lap_length": track.lap_length, "fields": fields, "segments": segments,
                      "start_positions": [{"id": i, "segment": s, "money": m} for i, s, m in track.start_positions]},
            "lap_track": list(kit.lap_track), "cards": cards, "draw_per_turn": kit.draw_per_turn,
            "drivers": {driver["id"]: card_text_key(driver["id"]) for driver in kit.drivers},
            "cubes": [{"id": c.id, "name": c.name_de, "count": c.count, "kind": c.kind} for c in kit.cubes.values()]}


def card_name_key(card_id: str) -> str:
    """The ``ui`` key of a card's name in every language (the data's ``name_de`` is the German rulebook's only)."""
    return f"au_name_{card_id}"


def card_text_key(card_id: str) -> str:
    """The ``ui`` key of what a card (a driver too) does, in every language: the screens look it up in their own."""
    return f"au_card_{card_id}"


@cache
def _places(track_id: str) -> dict[str, tuple[int | None, int, int, int]]:
    """Segment -> (lane counted from the inside, or None on a one-lane track; field along the lane from the finish
    line; the segment's place in its field, rear first; the field's segments)."""
    track = load_kit().tracks[track_id]
    lanes = sorted({f.lane for f in track.fields.values()})
    places = {}
    for lane in lanes:
        fields = sorted((f for f in track.fields.values() if f.lane == lane), key=lambda f: f.back % track.lap_length)
        for n, field in enumerate(fields, 1):
            for k, segment in enumerate(field.segments):
                places[segment] = (lanes.index(lane) + 1 if len(lanes) > 1 else None, n, k, len(field.segments))
    return places


def place_name(lang: str, track_id: Any, segment: Any) -> str:
    """Where a segment is, as players at the table say it ("Spur 2, Feld 5, vorn"), not its id in tracks.json
    ("L1-14"): lanes counted from the inside, fields along each lane from the finish line, and the rear or front
    segment of a field of two. An id the track does not have stays as it is."""
    place = _places(str(track_id)).get(str(segment)) if track_id in load_kit().tracks else None
    if place is None:
        return str(segment)
    lane, field, k, parts = place
    name = ui(lang, "au_place", lane=lane, field=field) if lane else ui(lang, "au_place_field", field=field)
    if parts == 1:
        return name
    if parts == 2:
        return ui(lang, "au_place_front" if k else "au_place_rear", place=name)
    return ui(lang, "au_place_part", place=name, part=k + 1)


def draw_odds(bag: Mapping[str, int], n: int, refill: Mapping[str, int] | None = None) -> dict[str, Any]:
    """The exact chances of a draw of ``n`` cubes from ``bag`` (hypergeometric), so a player sees what a closed hand
    of cubes risks before committing to it. AU-50: a bag with fewer than ``n`` cubes is drawn empty, then ``refill``
    (the discard) goes in and the rest comes from it; AU-51: if both run out, fewer are drawn.

    ``wear[k - 1]`` is the chance of at least ``k`` wear cubes (up to as many as can come), ``any[colour]`` the chance
    of at least one cube of ``colour``; both rounded to 4 places.

    >>> draw_odds({"white": 3, "brown": 1}, 2)["wear"]
    [0.5]
    >>> draw_odds({"brown": 1}, 3, {"white": 2, "brown": 2})
    {'n': 3, 'drawn': 3, 'from_bag': 1, 'wear': [1.0, 0.8333, 0.1667], 'any': {'brown': 1.0, 'white': 0.8333}}
    """
    refill = refill or {}
    in_bag = sum(bag.values())
    from_bag = min(n, in_bag)
    rest = min(n - from_bag, sum(refill.values())) if from_bag < n else 0
    pool = bag if from_bag < in_bag else refill  # where the chance lies; a bag drawn empty is certain
    certain = {} if from_bag < in_bag else bag
    k = from_bag if from_bag < in_bag else rest

    def at_least(colour: str, t: int) -> float:
        """P(at least ``t`` of ``colour``): the certain cubes, then a hypergeometric draw of ``k`` from ``pool``
        (whole numbers until the one division, which Python rounds correctly, so equal chances stay equal)."""
        t -= certain.get(colour, 0)
        size, good = sum(pool.values()), pool.get(colour, 0)
        if t <= 0:
            return 1.0
        return sum(comb(good, y) * comb(size - good, k - y) for y in range(t, min(good, k) + 1)) / comb(size, k)

    most_wear = min(certain.get(WEAR, 0) + pool.get(WEAR, 0), from_bag + rest)
    chances = {c: at_least(c, 1) for c in {c for c, m in (*bag.items(), *refill.items()) if m}}
    colours = sorted(chances, key=lambda c: (-chances[c], COLOURS.index(c) if c in COLOURS else len(COLOURS), c))
    return {"n": n, "drawn": from_bag + rest, "from_bag": from_bag,
            "wear": [round(at_least(WEAR, t), 4) for t in range(1, most_wear + 1)],
            "any": {c: round(chances[c], 4) for c in colours if chances[c]}}


def names(view: Mapping[str, Any] | None, lang: str) -> dict[str, str]:
    """A car's colour -> its player's name, and each segment of the race's tracks -> where it is (``place_name``;
    a season's earlier tracks too, the current one winning where ids repeat)."""
    view = view or {}
    tracks = [t for t in [*(view.get("season") or []), view.get("track")] if t in load_kit().tracks]
    places = {segment: place_name(lang, track, segment) for track in tracks for segment in _places(track)}
    return {**places, **{p["colour"]: p["name"] for p in view.get("players") or []}}


# -- the log ---------------------------------------------------------------------------------------------------------

FORCED = frozenset({"car_moved", "crossed", "finished", "refilled", "wear_phase", "swept", "sog", "race_over",
                    "points", "season_over", "next_race", "no_effect", "adrenaline", "unspent"})
"""Events the rules force on the table (as opposed to a player's choice): the dashboard marks these."""


def cube_list(lang: str, colours: Any) -> str:
    """Cube colours as "2× weiß, 1× braun"; none as "–"."""
    return ", ".join(f"{n}× {face(lang, c)}" for c, n in Counter(colours or []).items()) or "–"


def _zone(lang: str, zone: Any) -> str:
    return catalog(lang)["ui"].get(f"au_zone_{zone}", str(zone))


def card_name(lang: str, card_id: Any) -> str:
    """A card's name in ``lang``; an id the catalogue does not know stays as it is."""
    return catalog(lang)["ui"].get(card_name_key(str(card_id)), str(card_id))


def sponsor_name(sponsor_id: Any) -> str:
    """A sponsor as its card is marked ("E1")."""
    return str(sponsor_id or "").replace("sponsor_", "")


def describe_event(event: Mapping[str, Any], *, lang: str, names: Mapping[str, str]) -> str | None:
    """One line for one rules event ("Julia activates a white cube"), or None for an event the log leaves out: each
    field the event carries said in words, then the event's text."""
    kind = event.get("type")
    fields = {**event, "player": names.get(event.get("player", ""), event.get("player"))}
    for key in ("to", "segment", "winner"):  # a segment where a cube or car goes, a car
        if key in event:
            fields[key] = names.get(str(event[key]), event[key])
    if "colour" in event:
        fields["cube"] = face(lang, event["colour"])
        fields["a_cube"] = text(lang, f"au_a_cube_{event['colour']}")  # "einen weißen Würfel": inflected
        fields["the_cube"] = text(lang, f"au_the_cube_{event['colour']}")
    if "card" in event:
        fields["card"] = card_name(lang, event["card"])
    if "driver" in event:
        fields["driver"] = str(event["driver"]).replace("driver_", "")
    if "sponsor" in event:
        fields["sponsor"] = sponsor_name(event["sponsor"])
    if "marker" in event:  # the lap track's fields are numbers, then "Final" and "Finish": those are words
        fields["marker"] = catalog(lang)["ui"].get(f"au_lap_{event['marker']}", str(event["marker"]))
    if kind in ("drew", "kept"):
        fields.update(cubes=cube_list(lang, event.get("cubes")), discarded=cube_list(lang, event.get("discarded")))
    if kind == "moved_cube":
        fields.update(origin=_zone(lang, event.get("from")), target=_zone(lang, event.get("to")))
    if kind == "wear_phase" and event.get("slipstream"):
        kind = "slipstream"
    if kind == "by_itself":  # a phase whose only option decided nothing (base.by_itself)
        kind = f"by_itself_{event.get('phase')}"
    key = f"au_{kind}"
    return text(lang, key, fields) if key in catalog(lang)["log"] else None


ACTION_LINES = {"stop": "au_stop", "decline": "au_decline", "to_buy": "au_to_buy", "done": "au_done"}
"""Choices no rules event tells: the log says them itself."""


def action_line(action: Mapping[str, Any], actor: str, phase: str | None, *, lang: str) -> str | None:
    key = ACTION_LINES.get(str(action.get("type")))
    if key == "au_done" and phase == "opening_buy":
        key = "au_done_opening"
    return text(lang, key, player=actor) if key else None


log_lines = log_lines_by(action_line, describe_event, FORCED)
"""The lines of one stored action: the choice when no event tells it, then each event the log shows."""


# -- game over -------------------------------------------------------------------------------------------------------

CHART_AXIS = "au_chart_round"
CHART_METRICS = ("au_chart_distance", "au_chart_wear")
"""ui keys: the steps of the chart and what it draws."""
LUCK_COUNTED = "au_luck_counted"
"""ui key: what the stats page counts as this game's luck (``Game.luck``)."""


def chart_point(view: Mapping[str, Any]) -> tuple[int, dict[str, dict[str, float | None]]]:
    """Each car's distance (AU-19) and each player's wear cubes outside the bag, after the rounds played."""
    done = view["round"] if view["over"] else view["round"] - 1
    players = view["players"]
    return done, {"au_chart_distance": {p["colour"]: p["distance"] for p in players},
                  "au_chart_wear": {p["colour"]: sum(p[z].get("brown", 0) for z in ("active", "used", "discard"))
                                    for p in players}}


def standings(view: Mapping[str, Any], series: Mapping[str, Mapping[str, list[Any]]]) -> list[dict[str, Any]]:
    """AU-58, AU-59: the placings of the race (finished players first), with distance and marker."""
    order = view.get("placings") or [p["colour"] for p in sorted(view["players"], key=lambda p: p["position"])]
    winners = set(view.get("winners") or [])
    by_colour = {p["colour"]: p for p in view["players"]}
    rows = []
    for colour_id in order:
        p = by_colour[colour_id]
        why = "winner" if colour_id in winners else "finished" if p["finished"] else "distance"
        said = "final_lap" if why == "distance" and p["marker"] == "Final" else why  # a word, not a number
        rows.append({"actor": colour_id, "colour": colour_id, "why": why, "text": f"au_standing_{said}",
                     "values": {"distance": p["distance"], "marker": p["marker"], "points": p["points"]},
                     "rank": order.index(colour_id)})
    return ranked(rows, key=lambda r: r["rank"])


# -- the options, as the screens and the buttons name them ----------------------------------------------------


def option_label(option: Mapping[str, Any], snapshot: Mapping[str, Any], lang: str) -> str | None:
    """How the screens and the buttons name one of this game's options, in ``lang`` (None: no text for it)."""
    view = snapshot.get("view") or {}
    kind = option.get("type")
    cube = face(lang, option.get("colour", ""))
    if kind == "activate":
        extra = [face(lang, option[k]) for k in ("as", "gear") if k in option]
        extra += [ui(lang, f"au_opt_option_{option['option']}")] if "option" in option else []
        return ui(lang, "au_opt_activate", cube=cube) + (f" ({', '.join(extra)})" if extra else "")
    if kind in ("step", "drive"):
        label = ui(lang, f"au_opt_{kind}", to=place_name(lang, view.get("track"), option.get("to"))) + (
            f" ({face(lang, option['colour'])})" if "colour" in option else "")
        wear = (view.get("landing_wear") or {}).get(option.get("to"))
        return label + (" · " + ui(lang, "au_opt_wear", n=wear) if wear is not None else "")
    if kind == "pit_stop":
        actor = next((p for p in view.get("players") or [] if p["colour"] == view.get("current")), {})
        return ui(lang, "au_opt_pit_stop", n=actor.get("active", {}).get(WEAR, 0))
    key = f"au_opt_{kind}_remove" if kind == "keep_sponsor" and "remove" in option else f"au_opt_{kind}"
    if key not in catalog(lang)["ui"]:
        return None
    return ui(lang, key, cube=cube, origin=_zone(lang, option.get("from")), target=_zone(lang, option.get("to")),
              n=option.get("roll"), cost=(view.get("costs") or {}).get(option.get("colour"), "?"),
              sponsor=sponsor_name(option.get("remove") or option.get("sponsor")),
              driver=str(option.get("driver", "")).replace("driver_", ""))


def option_help(option: Mapping[str, Any], snapshot: Mapping[str, Any], lang: str) -> dict[str, Any] | None:
    """What the card an option uses does (a cube's card, a driver), in ``lang``: the help one tap away from the
    choice; ``reference`` when the printed card is not in the rules text (its name unknown)."""
    kind = option.get("type")
    if kind in ("sponsor", "keep_sponsor"):
        return sponsor_help(option, snapshot, lang)
    if kind in ("use_driver", "driver"):
        driver = str(option.get("driver", ""))
        return {"title": f'{ui(lang, "au_driver")} {driver.replace("driver_", "")}',
                "text": ui(lang, card_text_key(driver)), "reference": False}
    card_id = ((snapshot.get("view") or {}).get("cards") or {}).get(option.get("as") or option.get("colour"))
    if kind not in ("activate", "buy") or card_id is None:
        return None
    kit = load_kit()
    card = kit.fixed_cards.get(card_id) or kit.action_cards.get(card_id)
    return {"title": card_name(lang, card_id), "text": ui(lang, card_text_key(card_id)),
            "reference": card is not None and card.name_de is None}


def sponsor_help(option: Mapping[str, Any], snapshot: Mapping[str, Any], lang: str) -> dict[str, Any] | None:
    """What taking (or keeping) a sponsor does for the player choosing, by their place in the race (AU-113,
    AU-114); ``reference`` when the card's amounts are placeholders (not printed in the rules text)."""
    view = snapshot.get("view") or {}
    actor = view.get("actor")
    own = next((p.get("sponsor") for p in view.get("players") or [] if p.get("colour") == actor), None)
    sponsor_id = option.get("sponsor") if option.get("type") == "sponsor" else own
    sponsor = next((s for s in load_kit().sponsors if s["id"] == sponsor_id), None)
    placings = view.get("placings") or []
    if sponsor is None or actor not in placings:
        return None
    place = standing(placings.index(actor) + 1, len(placings))
    effect = sponsor["effects"][place]
    special = ui(lang, f"au_help_special_{effect['special']}", **effect)
    # The card's mark leads: two sponsors of one family with the same amounts are still two helps, not one
    where = ui(lang, f"au_help_place_{place}")
    text = f'{sponsor_name(sponsor_id)}: ' + ui(lang, "au_help_sponsor", place=where, n=effect["standard_remove"],
                                                    special=special)
    if option.get("type") == "keep_sponsor":
        removed = sponsor_name(option.get("remove")) if option.get("remove") else "—"
        text = f'{ui(lang, "au_help_sponsor_keep", sponsor=sponsor_name(own), removed=removed)} {text}'
    return {"title": option_label(option, snapshot, lang) or f"Sponsor {sponsor_name(sponsor_id)}", "text": text,
            "reference": not effect.get("verified", False)}
