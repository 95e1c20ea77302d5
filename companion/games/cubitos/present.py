"""How Cubitos looks on a screen and reads in the log, from its own data (pure: the web layer sends what this
returns as it is)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from companion.games.base import log_lines_by, ranked
from companion.games.cubitos.kit import Ability, Face, load_kit
from companion.texts import catalog, colour, text, ui

DEMO_OPTIONS: dict[str, Any] = {
    "players": [{"name": "Julia", "colour": "blue"}, {"name": "Klaus", "colour": "yellow"},
                {"name": "Ben", "colour": "red"}, {"name": "Anna", "colour": "white"}],
    "race": "race_1"}
"""The set-up ``companion demo --game cubitos`` plays: the book's first race."""


def layout(view: Mapping[str, Any]) -> dict[str, Any]:
    """What never changes during a game (``/api/layout``): the tracks' spaces with their drawing positions, kinds,
    bonuses and specials, the fan track, the cards in play with the faces of their dice, and which of it is
    reference data rather than the printed material (shown as such on screen)."""
    kit = load_kit()
    tracks = []
    for track_id in view.get("tracks") or []:
        track = kit.tracks[track_id]
        tracks.append({"id": track.id, "name": f"cu_track_{track.id}", "reference": track.reference,
                       "start": track.start, "finish": track.finish, "red_lines_per_lap": track.red_lines_per_lap,
                       "spaces": [{"id": s.id, "kind": s.kind, "x": s.x, "y": s.y, "bonuses": list(s.bonuses),
                                   "special": s.special, "red_lines_passed": s.red_lines_passed}
                                  for s in track.spaces.values()],
                       "edges": [list(edge) for edge in sorted({tuple(sorted((a, b)))
                                                                for a, others in track.neighbours.items()
                                                                for b in others})]})
    cards = {}
    for colour_id, card_id in (view.get("cards") or {}).items():
        card = kit.cards[card_id]
        cards[colour_id] = {"id": card.id, "name": card_name_key(card.id), "cost": card.cost,
                            "cost_is_reference": card.cost_is_reference,
                            "abilities": [{"id": a.id, "slot": a.slot, "timing": a.timing, "text": ability_key(a)}
                                          for a in card.abilities]}
    dice = {d.id: {"colour": d.colour, "shade": d.shade, "reference": d.reference,
                   "faces": [{**asdict(f), "marks": _marks(f)} for f in d.faces]}
            for d in kit.dice.values()}
    return {"tracks": tracks, "cards": cards, "dice": dice,
            "fan_track": [{"credits": c, "limit_tokens": t} for c, t in kit.fan_track],
            "fan_track_reference": True}


MARKS = (("coins", "coin", "●"), ("steps", "step", "»"), ("credits", "credit", "▣"), ("swords", "sword", "†"),
         ("team", "team", "★"), ("special", "special", "◆"))
"""What a face shows, drawn small (CU-6), in this order: the face's field, the mark's kind, its glyph."""


def _marks(face: Face) -> list[dict[str, str]]:
    """``{"kind", "text"}`` per thing the face shows, a count above one written before its glyph ("2●")."""
    return [{"kind": kind, "text": f"{n}{glyph}" if n > 1 else glyph}
            for name, kind, glyph in MARKS if (n := int(getattr(face, name)))]


def face_marks(face: str) -> list[dict[str, str]]:
    """The marks of a die face as the camera and the table name it ("lead/coin2"), as the table's dice show them
    (the layout's faces carry the same): for the teach page. No marks for a face no die has."""
    die_id, _, label = face.partition("/")
    die = load_kit().dice.get(die_id)
    found = next((f for f in die.faces if f.label == label), None) if die else None
    return _marks(found) if found else []


def ability_key(ability: Ability) -> str:
    """The ``ui`` key of what an ability does, in every language (the screens look it up in their own): one text of
    its own per ability the data describes; the abilities it does not (CU-89) share the one that says to read the
    printed card and resolve it by hand."""
    return f"cu_ab_{ability.id}" if ability.known else "cu_ab_unknown"


def names(view: Mapping[str, Any] | None, lang: str) -> dict[str, str]:
    """A player's colour -> their name."""
    return {p["colour"]: p["name"] for p in (view or {}).get("players") or []}


# -- the log ---------------------------------------------------------------------------------------------------------

FORCED = frozenset({"bust", "danger", "must_push", "must_pass", "reached_finish", "game_over", "tie", "fans",
                    "jet", "lap"})
"""Events the rules force on the table (as opposed to a player's choice): the dashboard marks these."""
QUIET = frozenset({"round_end", "race_section"})
DONE_LINES = {"support": "cu_done_support", "move": "cu_done_move", "buy": "cu_done_buy", "end6": "cu_done",
              "push": "cu_done", "event": "cu_done", "before7": "cu_done", "adjust": "cu_done_adjust"}


def die_name(lang: str, die_type: str) -> str:
    """A die type as the players call it ("hellgrau", "Krabbe")."""
    return catalog(lang)["log"].get(f"cu_die_{die_type}", die_type)


def dice_list(lang: str, types: Any) -> str:
    """Die types as "2× hellgrau, 1× Krabbe"; none as "–"."""
    return ", ".join(f"{n}× {die_name(lang, kind)}" for kind, n in sorted(Counter(types or []).items())) or "–"


def faces_list(lang: str, labels: Any) -> str:
    """Rolled faces ``"<type>/<label>"`` as "hellgrau: Münze, Krabbe: Team"; none as "–"."""
    words = catalog(lang)["log"]
    named = (str(label).partition("/") for label in labels or [])
    parts = [f"{die_name(lang, kind)}: {words.get(f'cu_face_{shown}', shown)}" for kind, _, shown in named]
    return ", ".join(parts) or "–"


def card_name_key(card_id: str) -> str:
    """The ``ui`` key of a card's name in every language (the data's ``name_de`` is the German edition's)."""
    return f"cu_name_{card_id}"


def _card_of(lang: str, ability_id: Any) -> str:
    card_id = str(ability_id or "").split(".")[0]
    return catalog(lang)["ui"].get(card_name_key(card_id), card_id)


def _amounts(lang: str, event: Mapping[str, Any]) -> str:
    words = catalog(lang)["log"]
    return ", ".join(f"{event[k]:+d} {words[f'cu_{k}']}" for k in ("coins", "steps", "credits", "water")
                     if event.get(k)) or "–"


def describe_event(event: Mapping[str, Any], *, lang: str, names: Mapping[str, str]) -> str | None:
    """One line for one rules event ("Ada buys a crab die for 4 coins"), or None for an event the log leaves out."""
    kind = event.get("type")
    if kind in QUIET:
        return None
    seats = {key: names.get(event[key], event[key]) for key in ("player", "winner", "lead") if key in event}
    fields = {**event, **seats}
    if "die" in event:
        fields["die"] = die_name(lang, event["die"])
    if kind == "rolled" or kind == "added_roll":
        hits = event.get("hits") or []
        return text(lang, f"cu_{kind}", fields, n=len(event.get("dice") or []),
                    faces=faces_list(lang, hits) if hits else text(lang, "cu_no_hit"))
    if kind in ("refilled", "rested", "returned"):
        return text(lang, f"cu_{kind}", fields, dice=dice_list(lang, event.get("dice")))
    if kind == "ability":
        return text(lang, "cu_ability_manual" if event.get("manual") else "cu_ability", fields,
                    card=_card_of(lang, event.get("ability")))
    if kind in ("gained", "support"):
        return text(lang, f"cu_{kind}", fields, amounts=_amounts(lang, event))
    if kind == "turned":
        return text(lang, "cu_turned", fields, face=catalog(lang)["log"].get(f"cu_face_{event.get('face')}",
                                                                              event.get("face")))
    if kind == "stepped":
        return text(lang, "cu_stepped_now", fields)
    if kind == "shortcut":
        return text(lang, "cu_shortcut", fields, pay=catalog(lang)["log"][f"cu_{event.get('pay')}"],
                    origin=event.get("from"))
    if kind == "passed_die":
        return text(lang, "cu_passed_die", fields, to=names.get(event.get("to", ""), event.get("to")))
    if kind == "by_itself":  # a phase whose only option decided nothing (base.by_itself)
        return text(lang, f"cu_by_itself_{event.get('phase')}", fields)
    if kind == "tie":
        return text(lang, "cu_tie", players=", ".join(names.get(p, p) for p in event.get("players") or []))
    if kind == "next_refill":
        rule = (text(lang, "cu_no_limit") if event.get("no_limit") else
                ", ".join(colour(lang, c) for c in event.get("exclude") or []))
        return text(lang, "cu_next_refill", fields, rule=rule)
    if kind == "adjusted":
        change = (f"{event['by']:+d} {catalog(lang)['log'].get('cu_' + event['what'], event['what'])}"
                  if "what" in event else f"{fields.get('die', '')}: {event.get('from')} → {event.get('to')}")
        return text(lang, "cu_adjusted", fields, card=_card_of(lang, event.get("ability")), change=change)
    key = f"cu_{kind}"
    return text(lang, key, fields) if key in catalog(lang)["log"] else None


def action_line(action: Mapping[str, Any], actor: str, phase: str | None, *, lang: str) -> str | None:
    """A line for a player's choice that no rules event describes (the rest is told by the events)."""
    kind = action.get("type")
    if kind == "done":
        return text(lang, DONE_LINES.get(phase or "", "cu_done"), player=actor)
    if kind in ("decline", "skip", "begin", "go"):
        return text(lang, f"cu_{kind}", player=actor)
    return None


log_lines = log_lines_by(action_line, describe_event, FORCED)
"""The lines of one stored action: the choice when no event tells it, then each event the log shows."""


# -- game over -------------------------------------------------------------------------------------------------------

CHART_AXIS = "cu_chart_round"
CHART_METRICS = ("cu_chart_lines", "cu_chart_dice")
"""ui keys: the steps of the chart and what it draws."""
LUCK_COUNTED = "cu_luck_counted"
"""ui key: what the stats page counts as this game's luck (``Game.luck``)."""


def chart_point(view: Mapping[str, Any]) -> tuple[int, dict[str, dict[str, float | None]]]:
    """Each runner's red lines passed (how far it got, CU-69) and each player's dice, after the rounds played."""
    done = view["round"] if view["over"] else view["round"] - 1
    players = view["players"]
    return done, {"cu_chart_lines": {p["colour"]: p["lines_passed"] for p in players},
                  "cu_chart_dice": {p["colour"]: sum(len(p[z]) for z in ("draw", "ready", "active", "rest"))
                                    for p in players}}


def standings(view: Mapping[str, Any], series: Mapping[str, Mapping[str, list[Any]]]) -> list[dict[str, Any]]:
    """CU-147: the winner, then the others by how far their runners got."""
    winners = set(view.get("winners") or [])
    rows = [{"actor": p["colour"], "colour": p["colour"], "why": (why := "winner" if p["colour"] in winners
                                                                   else "lines"),
             "text": f"cu_standing_{why}", "values": {"lines": p["lines_passed"], "fans": p["fans"]}}
            for p in view["players"]]
    return ranked(rows, key=lambda r: (r["why"] != "winner", -r["values"]["lines"]))


# -- the options, as the screens and the buttons name them ----------------------------------------------------


def option_label(option: Mapping[str, Any], snapshot: Mapping[str, Any], lang: str) -> str | None:
    """How the screens and the buttons name one of this game's options, in ``lang`` (None: no text for it)."""
    view = snapshot.get("view") or {}
    kind = option.get("type")
    words = catalog(lang)["ui"]
    if kind == "roll":
        return ui(lang, "cu_opt_roll", n=option.get("roll"))
    if kind == "rest" and not option.get("rest"):
        return ui(lang, "cu_opt_rest_none")
    if kind == "rest":
        return ui(lang, "cu_opt_rest", dice=dice_list(lang, Counter(option["rest"]).elements()))
    if kind == "move":
        path = option.get("path") or []
        to = path[-1] if path else "?"
        key = "cu_opt_move_forward" if option.get("forward") else "cu_opt_move_back"
        return ui(lang, key, steps=len(path), to=ui(lang, "cu_next_track") if to == "next_track" else to)  # CU-142
    if kind == "buy":
        cost = (view.get("costs") or {}).get(option.get("die"), "?")
        return ui(lang, "cu_opt_buy", die=die_name(lang, option.get("die", "")), coins=cost)
    if kind == "give_back":
        return ui(lang, "cu_opt_give_back", die=die_name(lang, option.get("die", "")),
                       zone=words.get(f"cu_zone_{option.get('zone')}", option.get("zone")))
    if kind == "take_die":
        return ui(lang, "cu_opt_take_die", die=die_name(lang, option.get("die", "")))
    if kind == "ability":
        label = _card_of(lang, option.get("ability"))
        details = [ability_detail(lang, k, v, view) for k, v in option.items()
                   if k not in ("type", "ability", "die", "face", "manual")]
        suffix = f" ({', '.join(details)})" if details else ""
        return ui(lang, "cu_opt_manual" if option.get("manual") else "cu_opt_ability", card=label) + suffix
    if kind == "adjust":
        if "what" in option:
            return f"{option['by']:+d} {catalog(lang)['log'].get('cu_' + option['what'], option['what'])}"
        zone = {z: words.get(f"cu_zone_{option.get(z)}", option.get(z)) for z in ("from", "to")}
        return f"{die_name(lang, option.get('die', ''))}: {zone['from']} → {zone['to']}"
    key = f"cu_opt_{kind}"
    return ui(lang, key) if key in words else None


def option_help(option: Mapping[str, Any], snapshot: Mapping[str, Any], lang: str) -> dict[str, Any] | None:
    """What the card an option uses does, in ``lang``: the ability used ("Use Bob"), or every ability of the card a
    die bought belongs to; ``reference`` when the rules text does not describe it (CU-89: printed on the card)."""
    kind = option.get("type")
    if kind in ("move", "shortcut"):
        return space_help(option, snapshot, lang)
    if kind == "ability":
        card_id = str(option.get("ability", "")).partition(".")[0]
    elif kind == "buy":
        card_id = ((snapshot.get("view") or {}).get("cards") or {}).get(option.get("die"), "")
    else:
        return None
    card = load_kit().cards.get(card_id)
    abilities = [a for a in card.abilities if kind == "buy" or a.id == option["ability"]] if card else []
    if not abilities:
        return None
    return {"title": catalog(lang)["ui"].get(card_name_key(card_id), card_id),
            "text": " ".join(dict.fromkeys(ui(lang, ability_key(a)) for a in abilities)),
            "reference": not all(a.known for a in abilities)}


def space_help(option: Mapping[str, Any], snapshot: Mapping[str, Any], lang: str) -> dict[str, Any] | None:
    """What the spaces of a move do (CU-59, CU-61..CU-66): the water, jets and shortcuts its path enters, and the
    bonuses of the space it ends on (passing over a bonus gives nothing); for the shortcut option, the runner's own
    space. ``reference`` as the track's data is (its layout is not the printed board's)."""
    view = snapshot.get("view") or {}
    runner = next((p for p in view.get("players") or [] if p.get("colour") == view.get("current")), None)
    tracks = view.get("tracks") or []
    if runner is None or not 0 <= runner.get("track", -1) < len(tracks):
        return None
    track = load_kit().tracks[tracks[runner["track"]]]
    path = [s for s in (option.get("path") or [runner.get("space")]) if s in track.spaces]
    texts = []
    for space_id in path:
        space = track.spaces[space_id]
        special = space.special or {}
        if space.kind == "water":
            texts.append(ui(lang, "cu_help_water", space=space_id))
        if special.get("type") == "jet":
            texts.append(ui(lang, "cu_help_jet", space=space_id))
        if special.get("type") == "shortcut":
            pay, amount = next(iter(special["pay"].items()))
            texts.append(ui(lang, "cu_help_shortcut", space=space_id, amount=amount, pay=ui(lang, f"cu_v_{pay}"),
                            to=special.get("to")))
    ends_here = option.get("type") == "move" and path and (option.get("path") or [None])[-1] == path[-1]
    end = track.spaces[path[-1]] if ends_here else None  # a move onto the next track ends on none of these
    if end is not None and end.bonuses:
        bonuses = [ui(lang, f"cu_help_bonus_{b['type']}", n=b.get("n", b.get("max_cost", 1))) for b in end.bonuses]
        texts.append(ui(lang, "cu_help_bonus", space=end.id, bonuses="; ".join(bonuses)))
    if not texts:
        return None
    if option.get("type") == "move":  # the destination leads: two ways past one jet are two helps, not one
        texts.insert(0, ui(lang, "cu_help_way", to=path[-1]))
    return {"title": option_label(option, snapshot, lang) or ui(lang, "cu_opt_shortcut"), "text": " ".join(texts),
            "reference": track.reference}


def ability_detail(lang: str, key: str, value: Any, view: Mapping[str, Any]) -> str:
    """One choice of an ability's use as the players read it ("dog: team symbol", "give back a cat (rest zone)"):
    the keys are the ones ``abilities.py`` lists (``pick``, ``move``, ``give``, ``pass``, ``take``, ``turn``, ``to``,
    ``space``, ``choice``, ``roll``, ``also``)."""
    faces = catalog(lang)["faces"]
    zones = catalog(lang)["ui"]
    if key in ("pick", "move"):
        return faces.get("/".join(map(str, value)), str(value))
    if key in ("give", "pass"):
        zone, die = value
        return ui(lang, f"cu_d_{key}", die=die_name(lang, die), zone=zones.get(f"cu_zone_{zone}", zone))
    if key == "take":
        return ui(lang, "cu_d_take", die=die_name(lang, value))
    if key == "turn":
        return ui(lang, "cu_d_turn", face=catalog(lang)["log"].get(f"cu_face_{value}", value))
    if key == "to":
        return ui(lang, "cu_d_to", to=names(view, lang).get(value, value))
    if key == "choice":
        return ui(lang, "cu_d_choice", n=int(value) + 1)
    if key == "also":
        return ui(lang, "cu_d_also" if value else "cu_d_also_not")
    if key in ("space", "roll"):
        return ui(lang, f"cu_d_{key}", n=value)
    return f"{key}: {value}"
