"""The protocol every game implements, and the one error type the rules raise.

A game is a plain object of pure functions over a state, in the spirit of boardgame.io and python-chess:

* ``setup(options, rng)`` builds the first state. The only randomness a game ever sees is the ``rng`` handed in
  here (start positions, shuffled tiles); the session stores the seed, so a game replays exactly.
* ``prompt(state)`` says what the game waits for next: who decides, in which phase, and every legal action.
* ``apply(state, action)`` returns the next state and the events the rules produced (rams, wrecks, laps ...).
  It never mutates ``state``: the session keeps old states for previews and undo is "replay all but the last".
* ``view(state)`` is the JSON the dashboard and ``/api/state`` show.
* ``seats(state)`` says which actors a bot plays: a seat's kind is part of the set-up, like its name and colour.

Actions and events are plain JSON dicts with a ``"type"`` key, because they are stored in the event log as they
are and must replay years later without pickles. Dice are *inputs*: an action that needs dice from the table
(a roll, a reroll) is offered in ``Prompt.options`` with a ``"roll": n`` key, and whoever answers it (the camera,
a tap on the tablet, a bot) adds ``"dice": [n faces]`` before applying it. That keeps the rules deterministic.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, runtime_checkable

from companion.fairness import uniform

Action = dict[str, Any]
Event = dict[str, Any]


class IllegalAction(ValueError):
    """An action the rules forbid.

    ``rule`` is the rule id the action breaks (``"CR-16"``) so a player can look it up in the rulebook section and a
    developer can grep for it; ``legal`` says what would have been allowed instead, in a form a screen can show.

    >>> str(IllegalAction("CR-11", "repair needs 3 fortune, green has 2"))
    'CR-11: repair needs 3 fortune, green has 2'
    """

    def __init__(self, rule: str, message: str, legal: Any = None, field: str | None = None) -> None:
        self.rule = rule
        self.message = message
        self.legal = legal
        self.field = field
        """The dotted path of the culprit in the request (``players[2].name``), where one value is to blame."""
        text = f"{rule}: {message}"
        if legal is not None:
            text += f" (legal: {legal})"
        super().__init__(text)


class BadName(IllegalAction):
    """A player's name that cannot be taken (see :func:`check_name`); ``taken`` is the name when another seat has
    it, empty when it is too short, too long or not printable. A screen says which, in the player's language."""

    def __init__(self, rule: str, message: str, field: str, taken: str) -> None:
        super().__init__(rule, message, field=field)
        self.taken = taken


BOT_KEY = "bot"
"""The key of a ``players`` entry that gives the seat to a bot: ``{"name": "Julia", "colour": "green", "bot": true}``.
Without it a person plays the seat, so games stored before seats had a kind replay exactly as they were."""
NAME_LENGTH = (1, 24)
"""A player's name, stripped: long enough to tell, short enough for a seat on the kiosk."""


class Seat(NamedTuple):
    """One ``players`` entry of a game's set-up, checked: every game seats its players by :func:`read_seats`."""

    name: str
    colour: str
    bot: bool


def read_seats(options: Mapping[str, Any], colours: Sequence[str], count: range, rule: str) -> tuple[Seat, ...]:
    """``options["players"]`` as seats, or an ``IllegalAction`` naming ``rule`` and the field to blame.

    Names are stripped, 1-24 characters and distinct ignoring case ("Bob" beside "bob" is one name twice); a colour
    is one of the game's ``colours``, by default the next free one in their order; ``bot`` is true or false (a typo
    such as ``"bot": "no"`` would otherwise hand a person's seat to a bot); no other key is taken. A bare name
    stands for ``{"name": name}`` (games stored as ``"players": ["Ada", "Bo"]`` replay).

    >>> read_seats({"players": [{"name": " Julia "}, {"name": "julia"}]}, ("green", "red"), range(2, 5), "CR-7")
    Traceback (most recent call last):
    ...
    companion.games.base.BadName: CR-7: players[1].name 'julia' is taken (names are told apart ignoring case)
    """
    players = options.get("players")
    if not isinstance(players, list) or len(players) not in count:
        raise IllegalAction(rule, f"a game needs {count.start} to {count.stop - 1} players, got {players!r}",
                            legal='players: [{"name": "Julia", "colour": "green"}, ...]', field="players")
    seats: list[Seat] = []
    for n, player in enumerate(players):
        where = f"players[{n}]"
        if isinstance(player, str):
            player = {"name": player}
        if not isinstance(player, Mapping):
            raise IllegalAction(rule, f"{where} must be an object with a name, got {player!r}", field=where)
        unknown = sorted(set(player) - {"name", "colour", BOT_KEY}, key=str)
        if unknown:
            raise IllegalAction(rule, f"{where}.{unknown[0]} is not a seat's field", legal=["name", "colour", BOT_KEY],
                                field=f"{where}.{unknown[0]}")
        name = check_name(player.get("name"), [seat.name for seat in seats], f"{where}.name", rule)
        taken = {seat.colour for seat in seats}
        colour = player.get("colour", next((c for c in colours if c not in taken), None))
        if colour not in colours:
            raise IllegalAction(rule, f"{where}.colour {colour!r} is not one of the game's", legal=list(colours),
                                field=f"{where}.colour")
        if colour in taken:
            raise IllegalAction(rule, f"{where}.colour {colour!r} is taken: every player needs an own colour",
                                legal=[c for c in colours if c not in taken], field=f"{where}.colour")
        bot = player.get(BOT_KEY, False)
        if not isinstance(bot, bool):
            raise IllegalAction(rule, f"{where}.{BOT_KEY} must be true (a bot plays the seat) or false, got {bot!r}",
                                field=f"{where}.{BOT_KEY}")
        seats.append(Seat(name, colour, bot))
    return tuple(seats)


def check_name(name: Any, taken: Iterable[str], field: str, rule: str) -> str:
    """``name`` stripped, or an ``IllegalAction`` naming ``field``: 1-24 printable characters, none of ``taken``
    ignoring case. The one check of a player's name, for a set-up and a rename alike.

    >>> check_name(" Bob ", ["Ada"], "name", "SEAT")
    'Bob'
    >>> check_name("bob", ["Bob"], "name", "SEAT")
    Traceback (most recent call last):
    ...
    companion.games.base.BadName: SEAT: name 'bob' is taken (names are told apart ignoring case)
    """
    name = name.strip() if isinstance(name, str) else name
    low, high = NAME_LENGTH
    if not isinstance(name, str) or not low <= len(name) <= high or not name.isprintable():
        shown = name if not isinstance(name, str) or len(name) <= 40 else f"{name[:40]}..."  # not 10,000 back
        raise BadName(rule, f"{field} must be {low} to {high} printable characters, got {shown!r}", field, "")
    if any(other.strip().casefold() == name.casefold() for other in taken):
        raise BadName(rule, f"{field} {name!r} is taken (names are told apart ignoring case)", field, name)
    return name


Handler = Callable[[Any, Mapping[str, Any], list[Event]], Any]
"""``handler(state, action, events) -> next state``: one phase's rules, appending the events they produce. An
automatic phase's handler gets an empty action."""
Next = str | Callable[[Any, Mapping[str, Any]], str]
"""The phase that follows: a name, or a function of the state after the handler and the action it played (an
automatic phase's: ``{}``) that returns one ("done" leaves a phase that a paid reroll repeats)."""
OVER = "over"
"""The phase of a finished game: no options, no handler; ``is_over`` is ``state.phase == OVER``."""
MAX_STEPS = 1_000
"""``apply_in_phase`` gives up after this many automatic steps in one action: a flow that long is a loop."""


def no_options(*_: Any) -> list[Action]:
    """The options of a phase that waits for nothing (the game is over, or the phase plays itself)."""
    return []


@dataclass(frozen=True)
class Phase:
    """One step of a turn as data, as boardgame.io declares phases: the rule it plays, the action types it takes,
    the function that lists its legal options, the handler that applies one, and what comes next.

    * ``next`` names the phase after the handler (boardgame.io's ``next``): the flow of a turn is read off the
      table, never hidden in a handler. It may name the phase itself (a phase that repeats while it can).
    * ``skip`` says that the phase, just entered, has nothing to decide in this state (no fortune to spend, no die
      to steer): it is passed over to its ``next`` without a prompt.
    * ``alone`` says that the phase's only option decides nothing (a "done" with nothing to buy): it returns the
      event that tells the log so, naming the option's type as its ``action``, and the option is played at once
      (its handler, then ``next``); it returns None while there is a choice.
    * A phase without ``actions`` but with a ``handler`` is automatic: its handler runs as soon as it is entered
      (the end of a turn, the end of a round), then its ``next``.
    * ``next=None`` with a handler (legacy): the handler sets the phase itself.
    """

    rule: str
    actions: tuple[str, ...] = ()
    options: Callable[[Any], list[Action]] = no_options
    handler: Handler | None = None
    next: Next | None = None
    skip: Callable[[Any], bool] | None = None
    alone: Callable[[Any], Event | None] | None = None

    @property
    def automatic(self) -> bool:
        return not self.actions and self.handler is not None

    def after(self, state: Any, action: Mapping[str, Any]) -> str:
        """The phase that follows this one in ``state``, reached by ``action``."""
        if self.next is None:
            return state.phase
        return self.next(state, action) if callable(self.next) else self.next


def enter(state: Any, phase: str, phases: Mapping[str, Phase], events: list[Event],
          end_if: Callable[[Any], bool] | None = None) -> Any:
    """``state`` moved into ``phase`` and on through every phase that decides nothing (automatic, ``alone``,
    ``skip``), to the next one a player decides in; ``end_if`` (boardgame.io's game-level ``endIf``) ends the game
    at any step.

    ``setup`` enters its first phase with it, so a game that starts with nothing to decide moves on at once."""
    for _ in range(MAX_STEPS):
        if end_if is not None and phase != OVER and end_if(state):
            phase = OVER
        state = state._replace(phase=phase)
        step = phases[phase]
        action: Action = {}
        if step.automatic:
            state = step.handler(state, action, events)  # type: ignore[misc]
        elif step.alone is not None and (told := step.alone(state)) is not None:
            events.append(told)
            action = {"type": told["action"]}
            state = step.handler(state, action, events)  # type: ignore[misc]
        elif step.skip is None or not step.skip(state):
            return state
        if step.next is None:
            return state
        phase = step.after(state, action)
    raise RuntimeError(f"no decision after {MAX_STEPS} steps from the {state.phase} phase: the flow loops")


def apply_in_phase(state: Any, action: Mapping[str, Any], phases: Mapping[str, Phase], actor: str,
                   end_if: Callable[[Any], bool] | None = None) -> tuple[Any, list[Event]]:
    """The one ``apply`` of a game whose turn is a table of phases (``state.phase`` names the current one).

    Checking the action type against the phase first means every handler can trust what it gets, and a press on the
    wrong button (a "move" during the roll) names the rule of the phase the table is in, not a KeyError. After the
    handler the table says where the turn goes (``Phase.next``), through the phases that decide nothing.
    """
    kind = action.get("type") if isinstance(action, Mapping) else None
    step = phases[state.phase]
    if kind not in step.actions or step.handler is None:
        raise IllegalAction(step.rule, f"{actor} is in the {state.phase} phase, {kind!r} is not possible now",
                            legal=list(step.actions))
    events: list[Event] = []
    state = step.handler(state, action, events)
    if step.next is not None:
        state = enter(state, step.after(state, action), phases, events, end_if)
    return state, events


@dataclass(frozen=True)
class Prompt:
    """What a game waits for next.

    ``actor`` is the id of whoever must decide (a chariot, a player) or ``None`` once the game is over.
    ``phase`` names the step of the turn (``"repair"``, ``"roll"``, ``"move"`` ...) so screens and buttons can show
    what a press will do. ``options`` lists every legal action, each complete and ready for ``apply`` except for the
    ``"dice"`` of an option carrying ``"roll": n``.
    """

    actor: str | None
    phase: str
    options: list[Action] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)


def by_itself(kind: str, prompt: Callable[[Any], Prompt]) -> Callable[[Any], Event | None]:
    """A ``Phase.alone`` for a phase whose ``kind`` option (a "done", "to the buy phase") may be the only one
    ``prompt`` lists: then it decides nothing, so it is played by itself and a ``by_itself`` event tells the log
    for whom and in which phase."""

    def alone(state: Any) -> Event | None:
        asked = prompt(state)
        if asked.options != [{"type": kind}]:
            return None
        return {"type": "by_itself", "player": asked.actor, "phase": asked.phase, "action": kind}

    return alone


class Presentation(Protocol):
    """How a game looks on a screen: a pure module ``<package>/present.py`` beside its rules, built from its own
    data (the web layer sends what it returns as it is and never branches on a game)."""

    def layout(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """What never changes during a game (the board drawing, the box's contents), from the rules' ``view``."""
        ...

    def names(self, view: Mapping[str, Any] | None, lang: str) -> dict[str, str]:
        """Actor and piece ids -> how the log calls them in ``lang`` ("Julia (grün 2)", "Hexe 2 von Julia")."""
        ...

    def log_lines(self, action: Mapping[str, Any], phase: str | None, events: list[Mapping[str, Any]], *,
                  actor: str, lang: str, names: Mapping[str, str]) -> list[dict[str, Any]]:
        """The log lines of one stored action, ``{"text", "forced", "event"}`` each, from the action, the phase it
        was chosen in and the rules' events alone: a line never depends on the events before it. ``actor`` is how
        the log already calls the one who chose (a name, not an id: a player may be named like another's seat)."""
        ...

    # Optional, for the stats page: ``LUCK_COUNTED`` (a ui key: what ``Game.luck`` counts, "the pips of each roll").
    # Optional, for the teach page (``companion/teach.py``), where a die face shows more than the plain drawing knows:
    # ``face_marks(face) -> [{"kind", "text"}]``, what the face (as the camera names it) shows, drawn small.
    # Optional, for the game-over screen (``companion/race.py``): ``CHART_AXIS`` (a ui key ``chart_<axis>``: what one
    # step of the chart is, "round"), ``CHART_METRICS`` (ui keys ``chart_<metric>``), and:

    def chart_point(self, view: Mapping[str, Any]) -> tuple[int, dict[str, dict[str, float | None]]]:
        """Where the race stands in ``view``: the steps of the axis completed, and each metric's value per actor."""
        ...

    def standings(self, view: Mapping[str, Any], series: Mapping[str, Mapping[str, list[Any]]]) -> list[dict[str, Any]]:
        """The actors best first: ``{"actor", "place", "why", "values"}``, where ``why`` is a ui key
        ``standing_<why>`` ("winner", "wrecked", "points") that ``values`` fill in (see :func:`ranked`); ``series``
        is the chart so far (metric -> actor -> values), for what the final view no longer shows."""
        ...


@runtime_checkable
class Game(Protocol):
    """A game's rules. Implementations live in ``companion/games/<game>/`` and never do I/O beyond their data."""

    id: str
    """Stable id used in config files, URLs and the store (``"chariot-race"``)."""
    title: str
    dice_set: str
    """Name of the vision model that reads this game's dice (``"chariot_race"``, ``"d6"``)."""
    die_faces: tuple[str, ...]
    """The faces of one die, as the dice model labels them; bots roll these uniformly."""

    def setup(self, options: Mapping[str, Any], rng: random.Random) -> Any: ...

    def prompt(self, state: Any) -> Prompt: ...

    def apply(self, state: Any, action: Mapping[str, Any]) -> tuple[Any, list[Event]]: ...

    def view(self, state: Any) -> dict[str, Any]: ...

    def is_over(self, state: Any) -> bool: ...

    def seats(self, state: Any) -> dict[str, bool]:
        """Every actor id ``prompt`` can name, in seat order, each ``True`` where a bot plays it (``BOT_KEY``).

        Bots may decide only for their own seats: a person's choice is never made for them, not even when the
        screen shows a prompt nobody has answered yet.
        """
        ...

    def dice_chances(self) -> dict[str, dict[str, float]]:
        """Each kind of die the game's dice set tells apart -> each face label it shows (as in ``die_faces``) -> its
        chance on that die, from the die's sides (a face printed on two sides counts twice): what a fair die gives,
        for the table's fairness verdict (``companion/stats.py``). ``{}`` for a game without dice (cubes drawn from
        a bag follow the bag's odds, not a die's)."""
        ...

    def roll_dice(self, state: Any, option: Mapping[str, Any], rng: random.Random) -> list[str]:
        """The ``dice`` of an option carrying ``"roll": n`` as the table would roll them (a bot's roll, the demo's
        tray): :func:`roll_uniform` for a game of like dice; Cubitos rolls the coloured dice of a pool."""
        ...

    def luck(self, before: Any, action: Mapping[str, Any], after: Any) -> list[Luck]:
        """Each seat's luck in one confirmed roll (see :class:`GameBase`, which gives none by default)."""
        ...

    def player_of(self, state: Any, seat: str) -> str:
        """The name of the player of ``seat`` (see :class:`GameBase`), for the statistics."""
        ...

    def scenario(self, position: Mapping[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
        """Settle a rule dispute: play one ``turn`` from ``position`` through the same ``apply`` as a live game.

        Optional (``companion rules <game> apply`` says so for a game without it). Both formats are JSON the players
        write by hand, documented in the game's README. Returns ``{"position": ..., "events": [...]}``: the table
        right after the turn, itself a valid Position (the next turn can be played from it), and the events of this
        turn only. Raises ``IllegalAction`` naming the rule for a turn the rules forbid, and ``ScenarioError`` naming
        the key for a malformed position or turn: an unknown key is refused, never ignored.
        """
        ...


class Luck(NamedTuple):
    """One confirmed roll of one seat as the odds saw it (``Game.luck``): ``expected`` is what the odds gave on
    average, ``actual`` what came; ``kind`` (a code in ``LUCK_KINDS``) says what was counted. Data, no English."""

    seat: str
    kind: str
    expected: float
    actual: float


LUCK_KINDS: dict[str, int] = {"pips": 1, "fortune": 1, "busts": -1, "wear": -1}
"""A luck kind -> +1 where more than expected is lucky (pips, fortune faces), -1 where fewer is (busts, wear)."""


def pip_luck(seat: str, dice: Any, faces: Sequence[str]) -> list[Luck]:
    """The pips of a confirmed roll of like numbered dice against their mean (3.5 a die for a d6's ``faces``):
    the luck of a game whose dice count steps."""
    if not isinstance(dice, list) or not dice:
        return []
    mean = sum(int(face) for face in faces) / len(faces)
    return [Luck(seat, "pips", len(dice) * mean, float(sum(int(face) for face in dice)))]


class GameBase:
    """The defaults of the ``Game`` protocol's parts that most games share: a game's class inherits them and
    overrides what it has (its ``luck.py`` beside the rules, dice that are not alike)."""

    dice_set: str
    die_faces: tuple[str, ...]

    def is_over(self, state: Any) -> bool:
        return state.phase == OVER

    def seats(self, state: Any) -> dict[str, bool]:
        """By default the seats of a game that keeps them on its table: ``table.colours`` and ``table.bots``."""
        return dict(zip(state.table.colours, state.table.bots, strict=True))

    def roll_dice(self, state: Any, option: Mapping[str, Any], rng: random.Random) -> list[str]:
        return roll_uniform(self.die_faces, option, rng)

    def dice_chances(self) -> dict[str, dict[str, float]]:
        """By default like dice of the ``dice_set``, each face as often as ``die_faces`` prints it."""
        return {self.dice_set: uniform(self.die_faces)}

    def luck(self, before: Any, action: Mapping[str, Any], after: Any) -> list[Luck]:
        """What the odds gave against what came, per seat, in the confirmed roll ``action`` that took ``before``
        to ``after``: asked of the game's own odds (the chances its prompts show), never a copy of its rules.
        None by default: a game that tells no luck."""
        return []

    def player_of(self, state: Any, seat: str) -> str:
        """The name of the player who plays ``seat`` (an actor id: a colour, a clan, a chariot) in ``state``: by
        default the seat itself, as in a game whose actors are the players' names."""
        return seat


def player_on_table(state: Any, seat: str) -> str:
    """``Game.player_of`` of a game that keeps its seats on its table, as :meth:`GameBase.seats` reads them: the
    name in ``table.names`` of the seat in ``table.colours``; any other actor is its own name."""
    table = state.table
    return table.names[table.colours.index(seat)] if seat in table.colours else seat


class Heuristic(Protocol):
    """What a game's bots know, in ``<package>/bot.py`` beside its rules: how good a position looks. The bots of
    ``bots.py`` rate an option by playing it through the game's own ``apply`` and scoring the table after it, so
    a bot never keeps a second copy of the rules."""

    def score(self, state: Any, actor: str) -> float:
        """How good ``state`` looks for ``actor``: higher is better."""
        ...


def roll_uniform(faces: Sequence[str], option: Mapping[str, Any], rng: random.Random) -> list[str]:
    """``option["roll"]`` dice, each showing one of ``faces`` with equal chance."""
    return [rng.choice(faces) for _ in range(option["roll"])]


class ScenarioError(ValueError):
    """A Position or Turn that is not well formed: a missing, mistyped or unknown key, a value out of range.

    ``field`` is the dotted path of the culprit (``turn.attacks[0].spear``) so a person can fix the file; a turn that
    is well formed but breaks a rule is an ``IllegalAction`` instead.
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")


def check_keys(obj: Any, known: Iterable[str], where: str) -> Mapping[str, Any]:
    """``obj`` as an object with no keys but ``known``; ``where`` is its path in the file.

    A typo must not be dropped silently: ``"attack"`` for ``"attacks"`` would otherwise lose a spear.

    >>> check_keys({"attack": []}, ["chariot", "attacks"], "turn")
    Traceback (most recent call last):
    ...
    companion.games.base.ScenarioError: turn.attack: unknown key (did you mean 'attacks'?); known: chariot, attacks
    """
    if not isinstance(obj, Mapping):
        raise ScenarioError(where, f"expected an object, got {obj!r}")
    known = list(known)
    for key in obj:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ScenarioError(f"{where}.{key}", f"unknown key{hint}; known: {', '.join(known)}")
    return obj


def typed_value(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str,
                default: Any = ...) -> Any:
    """``obj[key]`` if it is a ``kind`` (``true`` is no int), ``default`` if absent, required without a default."""
    if key not in obj:
        if default is ...:
            raise ScenarioError(f"{where}.{key}", "missing")
        return default
    value = obj[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise ScenarioError(f"{where}.{key}", f"expected {names}, got {value!r}")
    return value


def turn_of(turn: Mapping[str, Any], players: Sequence[str]) -> tuple[str, list[Any]]:
    """A scenario Turn's ``player`` (one of ``players``, the ids a Position seats) and its ``actions``: the Turn
    format of every game whose turn is one player's list of decisions."""
    check_keys(turn, ("player", "actions"), "turn")
    player = typed_value(turn, "player", str, "turn")
    actions = typed_value(turn, "actions", list, "turn")
    if player not in players:
        raise ScenarioError("turn.player", f"expected a player's colour, one of {', '.join(players)}, got {player!r}")
    return player, actions


def play_turn(state: Any, actions: list[Any], apply: Callable[[Any, Any], tuple[Any, list[Event]]],
              refusal: Callable[[Any], IllegalAction | None]) -> tuple[Any, list[Event]]:
    """A scenario Turn's ``actions`` (:func:`turn_of`) played in order through the game's ``apply``: the state after
    them and their events. ``refusal(state)`` is why the table no longer waits for the Turn's player (None while
    it does), raised before the next action."""
    events: list[Event] = []
    for n, action in enumerate(actions):
        if not isinstance(action, Mapping):
            raise ScenarioError(f"turn.actions[{n}]", f"expected an action object, got {action!r}")
        if (refused := refusal(state)) is not None:
            raise refused
        state, more = apply(state, action)
        events += more
    return state, events


class UnknownField(IllegalAction):
    """An action carrying a field no legal action of its type has: a typo or a forged request, never stored."""

    def __init__(self, name: str, kind: Any, known: list[str]) -> None:
        super().__init__("ACTION", f"{name!r} is not a field of a {kind!r} action", legal=known)
        self.field = name


def check_fields(prompt: Prompt, action: Mapping[str, Any]) -> None:
    """Refuse fields that no listed option of the action's type has (``dice`` answers an option's ``roll``).

    Checked before the rules see the action, so an extra ``"note"`` is never stored silently; an action of a type
    that is not offered at all is left to the rules, whose refusal names the rule of the phase.
    """
    kind = action.get("type")
    same = [option for option in prompt.options if option.get("type") == kind]
    if not same:
        return
    known = {key for option in same for key in option} | {"dice" for option in same if "roll" in option}
    for name in action:
        if name not in known:
            raise UnknownField(name, kind, sorted(known))


def is_listed(prompt: Prompt, action: Mapping[str, Any]) -> bool:
    """An action is legal when it is one of the listed options (python-chess's ``move in board.legal_moves``);
    an option with ``"roll": n`` is answered by ``n`` dice."""
    for option in prompt.options:
        if "roll" in option:
            dice, needed = action.get("dice"), option["roll"]
            rest = {k: v for k, v in action.items() if k not in ("dice", "roll")}
            if (isinstance(dice, list) and len(dice) == needed and action.get("roll", needed) == needed
                    and rest == {k: v for k, v in option.items() if k != "roll"}):
                return True
        elif dict(option) == dict(action):
            return True
    return False


def ranked(rows: Sequence[dict[str, Any]], key: Callable[[dict[str, Any]], Any]) -> list[dict[str, Any]]:
    """``rows`` best first (smallest ``key``) with their ``place``; equal keys share a place (1, 2, 2, 4), as a
    table counts a tie.

    >>> [r["place"] for r in ranked([{"p": 3}, {"p": 5}, {"p": 3}, {"p": 1}], key=lambda r: -r["p"])]
    [1, 2, 2, 4]
    """
    ordered = sorted(rows, key=key)
    places: list[dict[str, Any]] = []
    for n, row in enumerate(ordered):
        tied = n > 0 and key(ordered[n - 1]) == key(row)
        places.append({**row, "place": places[-1]["place"] if tied else n + 1})
    return places


def log_lines_of(action: Mapping[str, Any], chosen: str | None, events: Iterable[Mapping[str, Any]],
                 describe: Callable[[Mapping[str, Any]], str | None],
                 forced: Callable[[Mapping[str, Any]], bool]) -> list[dict[str, Any]]:
    """A stored action's log lines (``Presentation.log_lines``): the player's choice when no event tells it
    (``chosen``), then one line for each event ``describe`` tells, marked when the rules forced it."""
    lines = [{"text": chosen, "forced": False, "event": action.get("type")}] if chosen else []
    for event in events:
        line = describe(event)
        if line:
            lines.append({"text": line, "forced": forced(event), "event": event.get("type")})
    return lines


def log_lines_by(action_line: Callable[..., str | None], describe_event: Callable[..., str | None],
                 forced: frozenset[str]) -> Callable[..., list[dict[str, Any]]]:
    """A game's ``Presentation.log_lines`` from its ``action_line(action, actor, phase, lang=)``, its
    ``describe_event(event, lang=, names=)`` and the types of the events the rules force (:func:`log_lines_of`)."""

    def log_lines(action: Mapping[str, Any], phase: str | None, events: list[Mapping[str, Any]], *, actor: str,
                  lang: str, names: Mapping[str, str]) -> list[dict[str, Any]]:
        chosen = action_line(action, actor, phase, lang=lang)
        return log_lines_of(action, chosen, events, lambda event: describe_event(event, lang=lang, names=names),
                            lambda event: event.get("type") in forced)

    return log_lines
