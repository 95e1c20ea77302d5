"""What a Chariot Race table holds: the rules' constants, the chariots (``Car``), what stays fixed for a game
(``Table``) and the ``State`` the rules move from one action to the next."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from companion.games.chariot_race.board import Board
from companion.games.chariot_race.components import ChariotBoard

CALTROP_SUPPLY = 20
"""CR-6: caltrop tokens in the box; **Decision**: none left means no drop and no wreck caltrop."""
REPAIR_COST = 3
REPAIR_AMOUNT = 3
"""CR-11: spend exactly 3 fortune to restore up to 3 damage."""
FORTUNE_COST = 2
"""CR-13: each paid reroll or turned die costs 2 fortune."""
UNTURNABLE_FACE = "fortune"
"""CR-13: a die may be turned to any face but this one."""
GALLOP_SPEED = 2
GALLOP_DAMAGE = 1
"""CR-15: a gallop adds 2 speed and costs 1 damage."""
RAM_DAMAGE = 2
"""CR-18: both chariots take this much when one enters the other's space."""
CALTROP_DAMAGE = 1
SPEAR_DAMAGE = 1
LAPS_TO_FINISH = 2
"""CR-23/CR-24: the race is two laps."""
COLOURS = ("green", "red", "blue", "yellow", "purple", "black", "white", "orange")
VARIANTS = ("no_damage_after_finish", "alternative_chariots")
"""CR-25 and CR-4; the board side (CR-5) is the separate ``"board"`` option."""
SECOND_CHARIOT_SUFFIX = "-2"
"""CR-7: with 2-3 players everyone drives two chariots, ``<colour>`` and ``<colour>-2``."""


class Car(NamedTuple):
    """One chariot on the table. ``space`` is a board space index, ``NO_SPACE`` once wrecked."""

    id: str
    colour: str
    player: str
    start: int
    space: int
    damage: int
    speed: int
    fortune: int
    laps: int = 0
    wrecked: bool = False
    finished: bool = False
    bot: bool = False
    """CR-7: a bot drives it (the player's ``"bot": true``); the rules never look at it, the demo's bot loop does."""


@dataclass(frozen=True)
class Table:
    """What stays fixed for a game: the board, each car's chariot board (same order as cars), the variants."""

    board: Board
    kinds: tuple[ChariotBoard, ...]
    faces: tuple[str, ...]
    no_damage_after_finish: bool = False
    alternative_chariots: bool = False


class State(NamedTuple):
    table: Table
    cars: tuple[Car, ...]
    caltrops: frozenset[int]
    round: int
    order: tuple[int, ...]
    """This round's turn order (car indices, CR-9)."""
    turn: int
    """Index into ``order`` of the car whose turn it is."""
    phase: str
    """The phase of the turn (``PHASES``), one where the chariot on turn decides or ``"over"``."""
    dice: tuple[str, ...] = ()
    drive: int = 0
    """CR-15: the drive dice as the player used them (the drive phase), +1 or -1 each, summed."""
    attacks: int = 0
    passed: tuple[int, ...] = ()
    """Spaces passed through this turn, start and end excluded (CR-21 caltrop drops)."""
    winner: str | None = None

    @property
    def current(self) -> int:
        return self.order[self.turn]


def progress(board: Board, car: Car) -> float:
    """CR-9/CR-24: how far ahead a chariot is: completed laps, then its space's front line."""
    return car.laps * board.lap_length + board.front[car.space]
