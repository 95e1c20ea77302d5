"""CR-16..CR-22, the move: what entering a space does (curves, rams, caltrops, rocks, wrecks), walked once for the
path a player chose and for every path the prompt offers, so an option says exactly what choosing it does."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.base import Action, Event
from companion.games.chariot_race.board import NO_SPACE
from companion.games.chariot_race.state import CALTROP_DAMAGE, CALTROP_SUPPLY, RAM_DAMAGE, Car, State


class Work:
    """The mutable copy of the parts an action changes: cars, caltrops and the events that explain the changes."""

    __slots__ = ("state", "table", "board", "cars", "caltrops", "events", "mover")

    def __init__(self, state: State, events: list[Event], cars: Iterable[Car] | None = None,
                 caltrops: Iterable[int] | None = None) -> None:
        """The work on ``state``'s table, or on ``cars`` and ``caltrops`` as they stand during the action."""
        self.state = state
        self.table = state.table
        self.board = state.table.board
        self.cars = list(state.cars if cars is None else cars)
        self.caltrops = set(state.caltrops if caltrops is None else caltrops)
        self.events = events
        self.mover = state.current

    def done(self, **changes: Any) -> State:
        return self.state._replace(cars=tuple(self.cars), caltrops=frozenset(self.caltrops), **changes)

    def protected(self, k: int) -> bool:
        """CR-25 variant: a chariot that finished and ended its turn takes no damage."""
        return self.table.no_damage_after_finish and self.cars[k].finished and k != self.mover

    def hurt(self, k: int, amount: int) -> int:
        """Take ``amount`` damage (never below 0); returns what was taken. Wrecking is the caller's next step."""
        car = self.cars[k]
        if car.wrecked or self.protected(k):
            return 0
        taken = min(amount, car.damage)
        self.cars[k] = car._replace(damage=car.damage - taken)
        return taken

    def wreck(self, k: int, space: int) -> None:
        """CR-22: out at once; a caltrop (the wreck) on its space if the supply has one and the space has none."""
        car = self.cars[k]
        self.cars[k] = car._replace(wrecked=True, space=NO_SPACE, speed=0, damage=0)  # rocks break it at once too
        caltrop = len(self.caltrops) < CALTROP_SUPPLY and space not in self.caltrops
        if caltrop:
            self.caltrops.add(space)
        self.events.append({"type": "wrecked", "chariot": car.id, "space": self.board.ids[space],
                            "caltrop": caltrop})

    def wreck_if_broken(self, k: int, space: int) -> bool:
        if self.cars[k].damage == 0 and not self.cars[k].wrecked:
            self.wreck(k, space)
            return True
        return self.cars[k].wrecked

    def walk(self) -> Walk:
        """The mover's walk over the spaces it enters (CR-16..CR-20, CR-22), starting where it stands."""
        car = self.cars[self.mover]
        return Walk(self, car.space, car.laps, car.speed,
                     {c.space: k for k, c in enumerate(self.cars) if not c.wrecked and k != self.mover})

    def fork(self) -> Work:
        """An independent copy for trying one branch of the paths (``move_options``); its events are thrown away."""
        return Work(self.state, [], self.cars, self.caltrops)

    def move(self, path: list[str]) -> tuple[list[int], bool]:
        """CR-16: walk ``path``; returns the spaces entered and whether the mover wrecked."""
        walk = self.walk()
        entered: list[int] = []
        for n, step in enumerate(path):
            entered.append(self.board.step(walk.here, step))
            if walk.enter(entered[-1], last=n == len(path) - 1):
                return entered, True
        walk.stop()
        return entered, False


class Walk:
    """The mover on its way: where it is, its laps, and which spaces hold a chariot.

    ``enter`` is the one copy of what entering a space does (CR-17..CR-20, CR-22). ``Work.move`` walks the chosen
    path with it and ``move_options`` walks every path with it, so an option says exactly what choosing it does.
    """

    __slots__ = ("work", "here", "laps", "speed", "occupied")

    def __init__(self, work: Work, here: int, laps: int, speed: int, occupied: dict[int, int]) -> None:
        self.work, self.here, self.laps, self.speed, self.occupied = work, here, laps, speed, occupied

    def plain(self, there: int) -> bool:
        """Entering ``there`` only moves the chariot: no rocks, no curve above its speed, no caltrop, no chariot."""
        board = self.work.board
        return not (board.rocks[there] or self.speed > board.max_speed[there] or there in self.work.caltrops
                    or there in self.occupied)

    def passing(self, there: int) -> Walk:
        """The walk one plain space further on; it shares the work, which a plain space does not change."""
        laps = self.laps + 1 if self.work.board.wraps(self.here, there) else self.laps
        return Walk(self.work, there, laps, self.speed, self.occupied)

    def fork(self) -> Walk:
        return Walk(self.work.fork(), self.here, self.laps, self.speed, dict(self.occupied))

    def enter(self, there: int, last: bool) -> bool:
        """Enter ``there``, the last space of the path or not; returns whether the mover wrecked.

        **Decision** (CR-19 order when entering a space): rocks, curve, ram, caltrop. A caltrop hits if it lay there
        when the mover entered; a wreck caltrop made by that very ram does not hit the rammer. With the CR-25 variant
        a finished chariot takes no ram damage, but the chariot ramming it still takes its 2.
        """
        work, board = self.work, self.work.board
        had_caltrop = there in work.caltrops
        if board.wraps(self.here, there):
            self.laps += 1
        self.here = there
        if not (board.rocks[there] or self.speed > board.max_speed[there] or had_caltrop or there in self.occupied):
            return False
        i = work.mover
        work.cars[i] = work.cars[i]._replace(space=there, laps=self.laps)
        mover, name = work.cars[i].id, board.ids[there]
        if board.rocks[there]:  # CR-20
            work.events.append({"type": "rocks", "chariot": mover, "space": name, "damage": work.cars[i].damage})
            work.wreck(i, there)
            return True
        limit = board.max_speed[there]
        if self.speed > limit:  # CR-17
            taken = work.hurt(i, self.speed - limit)
            work.events.append({"type": "curve_damage", "chariot": mover, "space": name, "speed": self.speed,
                                "max_speed": limit, "damage": taken, "left": work.cars[i].damage})
            if work.wreck_if_broken(i, there):
                return True
        rammed = self.occupied.get(there)
        if rammed is not None:  # CR-18
            taken = work.hurt(i, RAM_DAMAGE)
            dealt = work.hurt(rammed, RAM_DAMAGE)
            work.events.append({"type": "rammed", "chariot": mover, "target": work.cars[rammed].id, "space": name,
                                "damage": taken, "target_damage": dealt, "left": work.cars[i].damage,
                                "target_left": work.cars[rammed].damage})
            if work.cars[i].damage == 0:
                work.wreck(i, there)
                work.wreck_if_broken(rammed, there)
                return True
            if last:
                self._place_behind(work.cars[rammed].id)
        if had_caltrop:  # CR-19
            work.caltrops.discard(there)
            taken = work.hurt(i, CALTROP_DAMAGE)
            work.events.append({"type": "caltrop_hit", "chariot": mover, "space": name, "damage": taken,
                                "left": work.cars[i].damage})
        if rammed is not None and work.wreck_if_broken(rammed, there):
            del self.occupied[there]
        return work.wreck_if_broken(i, self.here)

    def stop(self) -> None:
        """The path is walked: the mover stands where the walk ended."""
        work = self.work
        work.cars[work.mover] = work.cars[work.mover]._replace(space=self.here, laps=self.laps)

    def _place_behind(self, rammed: str) -> None:
        """CR-18: the nearest free space behind the rammed chariot in its lane; placing is not moving (no ram,
        curve or caltrop there). **Decision**: a rocks space is not free."""
        work, board = self.work, self.work.board
        for _ in board.ids:
            back = board.behind[self.here]
            if board.front[back] > board.front[self.here]:
                self.laps -= 1
            self.here = back
            if back not in self.occupied and not board.rocks[back]:
                break
        self.stop()
        work.events.append({"type": "placed_behind", "chariot": work.cars[work.mover].id,
                            "space": board.ids[self.here], "behind": rammed})


def move_options(state: State) -> list[Action]:
    """CR-16: every legal path with where it ends, the damage it costs the mover and its ``effects``: the events of
    the spaces on its way that do something (CR-17..CR-20, CR-22), so a screen says what a way meets without
    working it out again.

    Each path is walked by ``Walk.enter``, the code that applies a move, so an option says what choosing it does.
    A path ends early where the chariot would wreck (nothing after a wreck can differ), else it has ``speed`` steps.
    """
    board = state.table.board
    car = state.cars[state.current]
    if car.speed == 0:
        return [{"type": "move", "path": [], "to": board.ids[car.space], "damage": 0, "wrecked": False,
                 "effects": []}]
    options: list[Action] = []
    _list(_fork_of(Work(state, []).walk(), car.speed, state.dice.count("steer"), (), {}), [], (), options)
    return options


Fork = list[tuple[str, tuple[Event, ...], str | None, int, "Fork | None"]]
"""Where a way can go from one place: per step its name, the events of the space it enters, and either the end of
the way (the space, None when the chariot wrecks, and the damage the whole way costs) or the fork it leads to."""


def _fork_of(walk: Walk, left: int, steers: int, hits: tuple[int, ...], known: dict[tuple[Any, ...], Fork]) -> Fork:
    """The steps from ``walk`` with ``left`` more steps, at most ``steers`` of them off the straight.

    ``hits`` are the spaces on the way that did something (a curve, a caltrop, a ram): only they changed the table,
    so ways that reach the same space after the same hits (in then out, out then in) go on alike and are walked
    once; ``known`` holds them for this one listing.
    """
    key = (walk.here, walk.laps, left, steers, hits)
    if key in known:
        return known[key]
    work = walk.work
    board, damage = work.board, work.state.cars[work.mover].damage
    spent = damage - work.cars[work.mover].damage  # by the hits so far: a plain space adds nothing
    steps = (("straight", board.ahead), ("in", board.inward), ("out", board.outward))
    ends: Fork = []
    goes_on: Fork = []
    for step, target in steps if steers else steps[:1]:
        there = target[walk.here]
        if there == NO_SPACE:
            continue
        more = steers - (step != "straight")
        if walk.plain(there):
            if left == 1:
                ends.append((step, (), board.ids[there], spent, None))
            else:
                goes_on.append((step, (), None, 0, _fork_of(walk.passing(there), left - 1, more, hits, known)))
            continue
        ahead = walk.fork()
        wrecked = ahead.enter(there, last=left == 1)
        met = tuple(ahead.work.events)
        if wrecked:
            ends.append((step, met, None, damage, None))
        elif left == 1:
            ends.append((step, met, board.ids[ahead.here], damage - ahead.work.cars[work.mover].damage, None))
        else:
            goes_on.append((step, met, None, 0, _fork_of(ahead, left - 1, more, (*hits, there), known)))
    known[key] = ends + goes_on[::-1]  # the order the options have always been listed in
    return known[key]


def _list(fork: Fork, path: list[str], effects: tuple[Event, ...], options: list[Action]) -> None:
    """Add every way on from ``fork`` to ``options``, ``path`` and ``effects`` being the way so far."""
    for step, met, to, damage, further in fork:
        way = [*path, step]
        if further is not None:
            _list(further, way, effects + met, options)
        else:
            options.append({"type": "move", "path": way, "to": to, "damage": damage, "wrecked": to is None,
                            "effects": [*effects, *met]})
