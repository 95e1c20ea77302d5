"""Automobiles rules figures, from the sources on one core (issue 37): what a table waits for, not games per second.

* each action: ``GAME.apply`` timed one by one over seeded greedy-bot races (4 players, the reference oval, the card
  pools in turn); goal p99 <= 1 ms;
* draw odds: ``present.draw_odds`` for every player's next draw of 7 at every step of those races (what the open-bags
  dashboard shows); goal p99 <= 20 ms;
* replaying a stored log: setup and the first 1,200 actions of a seeded random-bot race, as undo and a restart do;
  goal <= 0.3 s.

Times are CPU time of the process (``time.process_time``): the machine may be shared, and a busy neighbour's time
slice would otherwise be counted as the rules'. Wall time is given beside it.

    python bench/rules_automobiles.py
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from machine import describe, machine_line, record

from companion.games import bots
from companion.games.automobiles import GAME
from companion.games.automobiles.present import draw_odds
from companion.games.automobiles.state import as_dict, plus
from companion.games.bots import GreedyBot, RandomBot, play_game

GOALS_MS = {"action_p99": 1.0, "draw_odds_p99": 20.0, "replay_1200": 300.0}
FOUR = {"players": [{"name": c.title(), "colour": c} for c in ("red", "blue", "yellow", "green")]}
POOLS = ("base", "racing_season", "both")
RACES = 12
REPLAYED = 1200


def _options(seed: int) -> dict[str, object]:
    return {**FOUR, "card_pool": POOLS[seed % len(POOLS)]}


def _ms(cpu: list[float], wall: list[float]) -> dict[str, float]:
    """Percentiles in milliseconds of CPU time, and the p99 of wall time."""
    ordered, walls = sorted(cpu), sorted(wall)
    return {"n": len(ordered), "p50": round(statistics.median(ordered), 4),
            "p99": round(ordered[int(0.99 * (len(ordered) - 1))], 4), "max": round(ordered[-1], 4),
            "wall_p99": round(walls[int(0.99 * (len(walls) - 1))], 4)}


def _timed(call: Callable[[], Any], cpu: list[float], wall: list[float]) -> Any:
    start, start_wall = time.process_time(), time.perf_counter()
    result = call()
    cpu.append((time.process_time() - start) * 1000)
    wall.append((time.perf_counter() - start_wall) * 1000)
    return result


def actions_and_odds() -> tuple[dict[str, float], dict[str, float]]:
    """Each action's ``apply`` and each next draw's odds, in milliseconds, over ``RACES`` greedy races."""
    applies: tuple[list[float], list[float]] = ([], [])
    odds: tuple[list[float], list[float]] = ([], [])
    for seed in range(RACES):
        _, actions = play_game(GAME, _options(seed), seed, GreedyBot())
        state = GAME.setup(_options(seed), random.Random(seed))
        for action in actions:
            state, _ = _timed(lambda: GAME.apply(state, action), *applies)  # noqa: B023 (called at once)
            for player in state.players:
                bag, refill = as_dict(player.bag), as_dict(plus(player.discard, plus(player.active, player.used)))
                _timed(lambda: draw_odds(bag, state.table.kit.draw_per_turn, refill), *odds)  # noqa: B023
    return _ms(*applies), _ms(*odds)


def replay_1200() -> dict[str, float]:
    """The first seeded random-bot race of at least ``REPLAYED`` actions, replayed from its log."""
    for seed in range(100):
        _, actions = play_game(GAME, _options(seed), seed, RandomBot())
        if len(actions) >= REPLAYED:
            break
    cpu: list[float] = []
    wall: list[float] = []
    for _ in range(5):
        _timed(lambda: bots.replay(GAME, _options(seed), seed, actions[:REPLAYED]), cpu, wall)  # noqa: B023
    return {"seed": seed, "actions": REPLAYED, "ms": round(max(cpu), 1), "wall_ms": round(max(wall), 1)}


def run() -> dict[str, object]:
    machine = describe()
    print(machine_line(machine))
    action, odds = actions_and_odds()
    replay = replay_1200()
    figures = {"machine": machine, "goals_ms": GOALS_MS, "action_ms": action, "draw_odds_ms": odds,
               "replay_ms": replay}
    for name, got, goal in (("each action (apply)", action, GOALS_MS["action_p99"]),
                            ("draw odds of a next draw of 7", odds, GOALS_MS["draw_odds_p99"])):
        verdict = "meets" if got["p99"] <= goal else "MISSES"
        print(f"{name}: {got['n']} timed, CPU p50 {got['p50']} ms, p99 {got['p99']} ms, max {got['max']} ms "
              f"({verdict} the goal p99 <= {goal:g} ms; wall p99 {got['wall_p99']} ms)")
    verdict = "meets" if replay["ms"] <= GOALS_MS["replay_1200"] else "MISSES"
    print(f"replaying a {REPLAYED}-action log (random bots, seed {replay['seed']}): CPU {replay['ms']} ms, the "
          f"slowest of 5 ({verdict} the goal <= {GOALS_MS['replay_1200'] / 1000:g} s; wall {replay['wall_ms']} ms)")
    return json.loads(json.dumps(figures))


if __name__ == "__main__":
    record("rules_automobiles", run())
