"""Cubitos rules from the sources on one core: what a table waits for.

- each action: ``apply`` of every action of greedy bots' games (4 players, the seven blue races), and the
  ``prompt`` listing the options before it; goal: p99 <= 1 ms;
- bust odds: the exact chance that a push busts (``rules.push_odds``) of every ready zone those games roll, and of
  the biggest pools a table rolls (30 dice, CU-99), worked out from the faces each time; goal: p99 <= 20 ms;
- replay: rebuilding a table from a 1,200-action game's log (undo replays all but the last); goal: <= 0.3 s.

Times are the CPU time of this thread (``time.thread_time_ns``), so a shared machine slows the figures little.

    python bench/rules_cubitos.py
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from machine import describe, machine_line, record

from companion.games.bots import GreedyBot, RandomBot, replay, roll
from companion.games.cubitos import GAME, rules

GOALS_MS = {"action_p99": 1.0, "bust_odds_p99": 20.0, "replay_1200": 300.0}
FOUR = {"players": [{"name": c.title(), "colour": c} for c in rules.PLAYER_COLOURS]}
TWO = {"players": FOUR["players"][:2]}
RACES = [f"race_{n}" for n in range(1, 8)]


def _timed(call: Callable[[], Any]) -> tuple[Any, float]:
    start = time.thread_time_ns()
    result = call()
    return result, (time.thread_time_ns() - start) / 1e6


def _figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"n": len(ordered), "p50_ms": round(statistics.median(ordered), 4),
            "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))], 4), "max_ms": round(ordered[-1], 4)}


def _games(games: int) -> tuple[list[float], list[float], list[float]]:
    """(apply times, prompt times, bust-odds times) over greedy bots' games."""
    applies, prompts, odds = [], [], []
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.setup({**FOUR, "race": RACES[seed % len(RACES)]}, rng)
        while not GAME.is_over(state):
            prompt, took = _timed(lambda state=state: GAME.prompt(state))
            prompts.append(took)
            p = state.table.colours.index(prompt.actor)
            odds.append(_timed(lambda state=state, p=p: rules.push_odds(state, p))[1])
            action = roll(GAME, GreedyBot().choose(GAME, state, prompt, rng), rng, state)
            (state, _), took = _timed(lambda state=state, action=action: GAME.apply(state, action))
            applies.append(took)
    return applies, prompts, odds


def _big_pools() -> list[float]:
    """Bust odds of 30-dice ready zones of every mix of colours a table can hold, each anew."""
    state = GAME.setup(FOUR, random.Random(0))
    rng = random.Random(1)
    dice = [d for d in range(len(state.table.types)) if state.table.types[d] != "lead"]
    times = []
    for _ in range(200):
        pool = tuple(rng.sample(dice, 30))
        player = state.players[0]._replace(ready=pool, danger=True)
        times.append(_timed(lambda player=player: rules.push_odds(state._replace(players=(player,)), 0))[1])
    return times


def _replay_1200() -> float:
    """The CPU time of replaying the first 1,200 actions of a random bots' race (they race long)."""
    rng = random.Random(3)
    state = GAME.setup(TWO, rng)
    actions = []
    while len(actions) < 1200:
        action = roll(GAME, RandomBot().choose(GAME, state, GAME.prompt(state), rng), rng, state)
        state, _ = GAME.apply(state, action)
        actions.append(action)
    return min(_timed(lambda: replay(GAME, TWO, 3, actions))[1] for _ in range(3))


def run() -> dict[str, object]:
    GAME.setup(FOUR, random.Random(0))  # load the box before timing
    applies, prompts, odds = _games(7)
    figures = {"machine": describe(), "goals_ms": GOALS_MS, "apply": _figures(applies),
               "prompt": _figures(prompts), "bust_odds": _figures(odds + _big_pools()),
               "replay_1200_ms": round(_replay_1200(), 1)}
    print(machine_line(figures["machine"]))
    for name in ("apply", "prompt", "bust_odds"):
        row = figures[name]
        print(f"{name:10} n={row['n']:6}  p50 {row['p50_ms']:.4f} ms  p99 {row['p99_ms']:.4f} ms  "
              f"max {row['max_ms']:.4f} ms")
    print(f"replay of a 1,200-action log: {figures['replay_1200_ms']} ms")
    checks = {"action p99 (apply)": (figures["apply"]["p99_ms"], GOALS_MS["action_p99"]),
              "bust odds p99": (figures["bust_odds"]["p99_ms"], GOALS_MS["bust_odds_p99"]),
              "replay of 1,200 actions": (figures["replay_1200_ms"], GOALS_MS["replay_1200"])}
    for what, (value, goal) in checks.items():
        print(f"{what} {'meets' if value <= goal else 'MISSES'} the goal of {goal} ms")
    return json.loads(json.dumps(figures))


if __name__ == "__main__":
    record("rules_cubitos", run())
