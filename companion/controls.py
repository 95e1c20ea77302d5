"""What a press of the table's buttons means now, wired or on a screen: confirm / next / back, translated.

:mod:`hw` only reports presses (``when_pressed(name, kind)``, as gpiozero devices do) and shows what the table
publishes; the meaning of a press depends on the game and so lives here. What a press does depends on what the
table waits for (``session.snapshot()["prompt"]``):

=========  ===========================================  =====================================
button     press                                        hold (``hold_seconds``)
=========  ===========================================  =====================================
confirm    confirm the highlighted option; for a roll,  the same as a press
           the dice the camera offers
next       highlight the next legal option              highlight the first option of the next kind
                                                        (another destination, die or type)
back       nothing, but says "hold to undo"             undo the last action
=========  ===========================================  =====================================

Every press goes through the :class:`~companion.session.TableSession` (``confirm``, ``next_option``, ``undo``),
stored with ``source="button"``, exactly like a tap on the dashboard. A wired press the rules refuse (confirm
before the dice are read, undo with nothing to undo, no game) is logged and shown as "needs attention" in the
session's status (``status["buttons"]["error"]``, which also makes the status light blink) until the table moves
on; it never stops the buttons.

A runnable example with gpiozero's mock pins (what ``companion demo`` and the tests use)::

    from companion import controls
    from companion.config import ButtonsConfig
    from companion.session import TableSession
    from companion.store import EventStore

    session = TableSession(EventStore(":memory:"))
    session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    session.offer_dice([{"label": "5", "confidence": 0.97}])
    table = controls.attach(session, ButtonsConfig(pin_factory="mock"))
    print(table.press("confirm"))   # confirm (short): stored event 1 (Ada roll)
    table.close()
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from companion.config import ButtonsConfig
from companion.games import IllegalAction, get_presentation
from companion.session import NoGame, Stale, TableSession
from companion.texts import DEFAULT_LANGUAGE, LANGUAGES, face, ui
from hw import Hardware
from hw import attach as attach_hardware
from hw.follower import Message, SessionFollower
from hw.press import BUTTONS, PressKind

if TYPE_CHECKING:  # gpiozero loads with the pins (hw.attach), after a restarted table already answers
    from gpiozero import Factory

log = logging.getLogger(__name__)

__all__ = ["ACTIONS", "BUTTONS", "BUTTON_ACTOR", "PressOutcome", "TableControls", "attach", "button_hints",
           "next_kind", "option_label", "perform"]

ACTIONS: Mapping[tuple[str, PressKind], str] = {
    ("confirm", PressKind.SHORT): "confirm",
    ("confirm", PressKind.LONG): "confirm",
    ("next", PressKind.SHORT): "next",
    ("next", PressKind.LONG): "next_kind",
    ("back", PressKind.SHORT): "hint",
    ("back", PressKind.LONG): "undo",
}
"""What each press does, as data. A short ``back`` only reminds that undo needs a hold: undo by a brushed button
would take back a confirmed roll. A held ``next`` jumps a kind of option at a time: a move among 40 paths to 9
destinations is then 9 holds away at most, not 40 presses."""

BUTTON_ACTOR = "table"
"""The actor stored for a press when the prompt names nobody: a button cannot know who pressed it."""

Seen = tuple[int | None, int | None]
"""The state a screen showed when its button was pressed: its seq and game number (None: not said)."""


@dataclass(frozen=True)
class PressOutcome:
    """What one press did. ``ok`` is False when the rules (or the lack of a game) refused it."""

    button: str
    kind: str
    action: str
    ok: bool
    message: str
    seq: int | None = None
    """The stored event's number, when the press stored one."""
    rule: str | None = None
    """The rule that refused the press (``IllegalAction.rule``), when one did."""
    legal: Any = None
    """What the rules would have allowed instead (``IllegalAction.legal``)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.button} ({self.kind}): {self.message}"


def perform(session: TableSession, name: str, kind: PressKind, *, hold_seconds: float = 1.0,
            seen: Seen = (None, None)) -> PressOutcome:
    """Do what a press of ``name`` means now (:data:`ACTIONS`) on the session; a refusal is an outcome, not an
    exception, so neither the button thread nor a dashboard request can be broken by a press.

    A wired button acts on the state the screens show now: it cannot be stale. A screen's button passes the state
    it showed (``seen``: its seq and game number), and is refused (``stale``) if the table has moved on."""
    action = ACTIONS[(name, kind)]
    seq, game = seen
    try:
        if action == "confirm":
            prompt = session.prompt()
            actor = prompt.actor if prompt is not None and prompt.actor else BUTTON_ACTOR
            stored = session.confirm(actor=actor, source="button", seq=seq, game=game)
            return PressOutcome(name, kind.value, action, True, f"stored event {stored.seq} ({actor} {stored.type})",
                                stored.seq)
        if action in ("next", "next_kind"):
            if action == "next":
                option = session.next_option(seq=seq, game=game)
            else:
                index = next_kind(session.snapshot().get("prompt") or {})
                option = None if index is None else session.highlight(index, seq=seq, game=game)
            text = f"highlighted {option_label(option, session.snapshot())}" if option is not None else (
                "nothing to choose")
            return PressOutcome(name, kind.value, action, True, text)
        if action == "undo":
            stored = session.undo(actor=BUTTON_ACTOR, source="button", seq=seq, game=game)
            undone = stored.payload.get("action", {}).get("type", "action")
            return PressOutcome(name, kind.value, action, True, f"undid {undone} (event {stored.seq})", stored.seq)
        return PressOutcome(name, kind.value, action, True, f"hold for {hold_seconds:g} s to undo")
    except Stale as exc:
        return PressOutcome(name, kind.value, action, False, str(exc), rule="stale")
    except IllegalAction as exc:
        log.warning("button %s (%s) refused: %s", name, kind.value, exc)
        return PressOutcome(name, kind.value, action, False, str(exc), rule=exc.rule, legal=exc.legal)
    except NoGame as exc:
        log.warning("button %s (%s) refused: %s", name, kind.value, exc)
        return PressOutcome(name, kind.value, action, False, str(exc))
    except Exception as exc:
        log.exception("button %s (%s) failed", name, kind.value)
        return PressOutcome(name, kind.value, action, False, f"{type(exc).__name__}: {exc}")


# -- the table's buttons ---------------------------------------------------------------------------------------------


class TableControls:
    """The buttons of one table, wired or on a screen, and what their presses do to ``session``.

    :meth:`pressed` is hw's ``when_pressed`` (every press of the wired or mock-pin buttons); :meth:`press` is a
    screen's press (``POST /api/buttons/<name>``). On mock pins a screen's press travels the whole path a wired one
    does (pin, debounce, hold, :meth:`pressed`); with real pins, or none, it is performed directly.
    """

    def __init__(self, session: TableSession, *, hold_seconds: float = 1.0) -> None:
        self.session = session
        self.hold_seconds = hold_seconds
        self.hardware = Hardware()
        self._seen: Seen = (None, None)
        """The state the next press was chosen on, while a screen's press travels the mock pins."""
        self._screen_presses = threading.Lock()
        self._errors = itertools.count(1)
        self._attention = _AttentionClearer(session).start()

    def start(self, config: ButtonsConfig, *, min_confidence: float = 0.8, pin_factory: Factory | None = None,
              strict: bool = False) -> TableControls:
        """Start the hardware the config's ``[buttons]`` asks for (:func:`hw.attach`, never raising unless
        ``strict``) with its presses wired to :meth:`pressed`, and take it. Until then a screen's press is
        performed directly, as with real pins."""
        return self.use(attach_hardware(self.session, config, when_pressed=self.pressed,
                                        min_confidence=min_confidence, pin_factory=pin_factory, strict=strict))

    def use(self, hardware: Hardware) -> TableControls:
        """Take ``hardware`` (started with ``when_pressed=self.pressed``) and say in the status what it is."""
        self.hardware = hardware
        if hardware.buttons is None:
            self.session.set_status(buttons={"enabled": False, "error": hardware.error})
        else:
            self.session.set_status(buttons=self._status_base())
        return self

    def pressed(self, name: str, kind: PressKind) -> PressOutcome:
        """A press of the buttons (hw's ``when_pressed``, from the buttons' thread): do it; a refusal needs
        attention until the table moves on."""
        seen, self._seen = self._seen, (None, None)
        outcome = perform(self.session, name, kind, hold_seconds=self.hold_seconds, seen=seen)
        if not outcome.ok:
            self._needs_attention(outcome)
        return outcome

    def press(self, name: str, *, hold: bool = False, seen: Seen = (None, None)) -> PressOutcome:
        """A screen's press of ``name`` (held with ``hold``), chosen on the state ``seen`` (refused as stale if the
        table has moved on). Raises ``KeyError`` for an unknown button and ``TimeoutError`` if the mock pins'
        thread does not answer."""
        if name not in BUTTONS:
            raise KeyError(f"no button {name!r}; buttons: {', '.join(BUTTONS)}")
        virtual = self.hardware.virtual
        if virtual is None:  # real pins (they cannot be driven from software) or none: do what the press would do
            return perform(self.session, name, PressKind.LONG if hold else PressKind.SHORT,
                           hold_seconds=self.hold_seconds, seen=seen)
        with self._screen_presses:
            self._seen = seen
            return virtual.press(name, hold=hold)

    def hints(self, *, lang: str = DEFAULT_LANGUAGE) -> dict[str, dict[str, str]]:
        """What each button would do now, in ``lang``; see :func:`button_hints`."""
        return button_hints(self.session.snapshot(), hold_seconds=self.hold_seconds, lang=lang)

    def describe(self, *, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """For the dashboard: the buttons, what each does now, whether they can be pressed from a screen."""
        hardware = self.hardware
        buttons: list[dict[str, Any]] = []
        if hardware.buttons is not None:
            hints = self.hints(lang=lang)
            buttons = [{"name": n, "pin": p, **hints[n]} for n, p in hardware.buttons.pins.items()]
        light = hardware.light
        return {
            "enabled": hardware.buttons is not None,
            "virtual": hardware.virtual is not None,
            "factory": hardware.factory,
            "error": hardware.error,
            "light": light.state.value if light is not None and light.state else None,
            "buttons": buttons,
        }

    def close(self) -> None:
        """Stop following the table and close the hardware."""
        self._attention.close()
        self.hardware.close()

    def _needs_attention(self, outcome: PressOutcome) -> None:
        error = {"error": outcome.message, "button": outcome.button, "id": next(self._errors)}
        self._attention.arm(error["id"])
        self.session.set_status(buttons={**self._status_base(), **error})

    def _status_base(self) -> dict[str, Any]:
        buttons = self.hardware.buttons
        return {"enabled": buttons is not None, "pins": dict(buttons.pins) if buttons else {},
                "hold_seconds": self.hold_seconds, "factory": self.hardware.factory, "error": None}


def attach(session: TableSession, config: ButtonsConfig, *, min_confidence: float = 0.8,
           pin_factory: Factory | None = None, strict: bool = False) -> TableControls:
    """The table's controls from the config's ``[buttons]``: the hardware (:func:`hw.attach`, never raising unless
    ``strict``), its presses wired to :func:`perform`, its state in ``status["buttons"]``."""
    controls = TableControls(session, hold_seconds=config.hold_seconds)
    try:
        return controls.start(config, min_confidence=min_confidence, pin_factory=pin_factory, strict=strict)
    except Exception:
        controls.close()
        raise


class _AttentionClearer(SessionFollower):
    """Clears a refused press's "needs attention" as soon as the table moves on (a roll offered, an action
    stored, the highlight moved, a new game), so the dashboard and the LED agree on when it is over.

    It is armed by the status message that carries the error: the broker delivers in order, so anything before
    that message cannot clear an error that came after it.
    """

    thread_name = "buttons-attention"

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self.session = session
        self._pending_id: int | None = None
        self._armed_id: int | None = None

    def arm(self, error_id: int) -> None:
        self._pending_id = error_id

    def follow(self, message: Message) -> None:
        buttons = (message.get("state") or {}).get("status", {}).get("buttons") or {}
        if message.get("kind") == "status":
            if self._pending_id is not None and buttons.get("id") == self._pending_id:
                self._armed_id, self._pending_id = self._pending_id, None
            return
        if self._armed_id is not None and buttons.get("id") == self._armed_id and buttons.get("error"):
            self._armed_id = None
            cleared = {k: v for k, v in buttons.items() if k not in ("error", "button", "id")}
            self.session.set_status(buttons={**cleared, "error": None})


# -- what a button does now, in words --------------------------------------------------------------------------------




def option_label(option: Mapping[str, Any] | None, snapshot: Mapping[str, Any] | None = None, *,
                 lang: str = DEFAULT_LANGUAGE) -> str:
    """How the dashboard names one legal option (the texts of table.js's ``optionLabel``), in ``lang``.

    ``snapshot`` is the table's state the option belongs to: the game, and the names and numbers some labels
    show. A ``label`` the game gives wins; an option no text is known for shows its type and fields.

    >>> option_label({"type": "roll", "roll": 2}, lang="de")
    'Wurf bestätigen'
    >>> option_label({"type": "move", "lane": 2})
    'move (lane 2)'
    """
    if not option:
        return ui(lang, "does_nothing")
    if option.get("label"):
        return str(option["label"])
    if option.get("type") == "roll":
        return ui(lang, "confirm_roll")
    snapshot = snapshot or {}
    game = (snapshot.get("game") or {}).get("id")
    presentation = get_presentation(game) if game else None
    label = None
    if presentation is not None and hasattr(presentation, "option_label"):
        label = presentation.option_label(option, snapshot, lang)
    if label is not None:
        return label
    rest = ", ".join(f"{k} {v}" for k, v in option.items() if k != "type")
    return f"{option.get('type', '?')} ({rest})" if rest else str(option.get("type", "?"))


def with_option_labels(snapshot: dict[str, Any]) -> dict[str, Any]:
    """``snapshot`` with each option's name in every language (``prompt.labels``: ``{lang: [label, ...]}``), so
    the screens show the names the buttons say: one copy of every option's text, in the game's ``present.py``."""
    prompt = snapshot.get("prompt")
    if not prompt or not prompt.get("options"):
        return snapshot
    labels = {lang: [option_label(option, snapshot, lang=lang) for option in prompt["options"]]
              for lang in LANGUAGES}
    return {**snapshot, "prompt": {**prompt, "labels": labels, "help": option_help(snapshot)}}


def option_help(snapshot: Mapping[str, Any]) -> dict[str, list[dict[str, Any] | None]]:
    """What each option's card, ability or space does, in every language (``{lang: [help or None, ...]}``, a help
    being ``{"title", "text", "reference"}``): the game's ``present.option_help``, shown one tap from the choice."""
    game = (snapshot.get("game") or {}).get("id")
    presentation = get_presentation(game) if game else None
    helper = getattr(presentation, "option_help", None)
    options = (snapshot.get("prompt") or {}).get("options") or []
    helps: dict[str, list[dict[str, Any] | None]] = {}
    for lang in LANGUAGES:
        said: set[str] = set()  # ten caltrop spaces need the text once, not ten times
        helps[lang] = []
        for option in options:
            found = helper(option, snapshot, lang) if helper else None
            fresh = found is not None and found["text"] not in said
            if fresh:
                said.add(found["text"])
            helps[lang].append(found if fresh else None)
    return helps


def option_kind(option: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a held Next steps over: options of one type to one place (the paths to one destination), or of one die."""
    return option.get("type"), option.get("to"), option.get("die")


def next_kind(prompt: Mapping[str, Any]) -> int | None:
    """The option a held Next highlights: the first of the kind after the highlighted one's, kinds in the order the
    prompt lists them first, so a cycle of holds visits every kind once. None when there is nothing to choose.

    >>> moves = [{"type": "move", "to": "A"}, {"type": "move", "to": "B"}, {"type": "move", "to": "A"}]
    >>> next_kind({"options": moves, "cursor": 0}), next_kind({"options": moves, "cursor": 1})
    (1, 0)
    """
    options = prompt.get("options") or []
    if not options:
        return None
    kinds = list(dict.fromkeys(option_kind(o) for o in options))
    here = kinds.index(option_kind(options[(prompt.get("cursor") or 0) % len(options)]))
    following = kinds[(here + 1) % len(kinds)]
    return next(k for k, o in enumerate(options) if option_kind(o) == following)


def button_hints(snapshot: Mapping[str, Any], *, hold_seconds: float = 1.0,
                 lang: str = DEFAULT_LANGUAGE) -> dict[str, dict[str, str]]:
    """What each button does now, in ``lang``, for the dashboard's buttons and the kiosk's legend.

    >>> hints = button_hints({"game": {"over": False}, "seq": 0, "pending": {"dice": [{"label": "5"}]},
    ...                       "prompt": {"options": [{"type": "roll", "roll": 1}], "cursor": 0}})
    >>> hints["confirm"]["press"], hints["back"]["hold"]
    ('confirm roll: 5', 'nothing to undo')
    >>> button_hints({"game": None, "seq": 3}, hold_seconds=1.5, lang="de")["back"]["press"]
    'nichts (zum Rückgängigmachen 1,5 s halten)'
    """
    prompt = snapshot.get("prompt") or {}
    options = prompt.get("options") or []
    if snapshot.get("game") is None:
        confirm = step = jump_to = ui(lang, "hint_no_game")
    elif not options:
        confirm = step = jump_to = ui(lang, "hint_waits_for_nothing")
    else:
        cursor = prompt.get("cursor") or 0
        option = options[cursor % len(options)]
        pending = snapshot.get("pending")
        if "roll" in option:
            if pending and pending.get("dice"):
                dice = ", ".join(_die(d, lang) for d in pending["dice"])
                confirm = ui(lang, "hint_confirm_roll", dice=dice)
            else:
                confirm = ui(lang, "hint_roll_first")
        else:
            confirm = ui(lang, "hint_confirm", option=option_label(option, snapshot, lang=lang))
        following = options[(cursor + 1) % len(options)]
        step = ui(lang, "hint_highlight", option=option_label(following, snapshot, lang=lang)) if len(options) > 1 \
            else ui(lang, "hint_one_option")
        jump = options[next_kind(prompt) or 0]
        jump_to = ui(lang, "hint_highlight_kind", option=option_label(jump, snapshot, lang=lang)) \
            if jump is not following else step
    undo = ui(lang, "hint_undo" if snapshot.get("seq") else "hint_nothing_to_undo")
    seconds = f"{hold_seconds:g}" if lang == "en" else f"{hold_seconds:g}".replace(".", ",")
    return {
        "confirm": {"press": confirm, "hold": confirm},
        "next": {"press": step, "hold": jump_to},
        "back": {"press": ui(lang, "hint_hold_to_undo", seconds=seconds), "hold": undo},
    }


def _die(die: Mapping[str, Any], lang: str) -> str:
    label = face(lang, die.get("label", "?"))
    return f"{label}?" if die.get("low") else label
