"""The one timing loop of the rules benches (``rules_*.py``): seeded bot games on one core, timed per action.

What a table feels is one action: the rules apply it and say what they wait for next (``apply`` and ``prompt``).
``action_times`` plays seeded games and times that pair for every action the bots choose (their own lookahead is not
timed), by action type; ``replay_time`` times rebuilding a game from its log (set-up and every action), which is what
undo and a restart do. Both count the CPU time of this process, pinned to one core: the machine may be shared, and
the goals are per core.

``measure`` and ``line`` are the older figure, complete bot games per second, which some benches still print.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from companion.games.base import Action, Game
from companion.games.bots import Bot, play_game, roll

Tally = Callable[[Any], Mapping[str, float]]
"""What a bench counts of a finished game (its rounds, turns ...), reported per game as ``<name>_per_game``."""
ACTION_P99_GOAL_MS = 1.0
"""Issue 37: each action's p99, from the sources on one core."""
REPLAY_ACTIONS = 1_200
REPLAY_GOAL_S = 0.3
"""Issue 37: replaying the log of a 1,200-action game."""


@contextmanager
def one_core() -> Iterator[None]:
    """Run the block pinned to one core (where the system allows it)."""
    pinned = hasattr(os, "sched_setaffinity")
    if pinned:
        affinity = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(affinity)})
    try:
        yield
    finally:
        if pinned:
            os.sched_setaffinity(0, affinity)


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def action_times(game: Game, options: Mapping[str, Any], bot: Bot, seeds: range) -> dict[str, Any]:
    """Games ``seeds`` of ``bot`` from ``options``, every action played timed in CPU ms: ``apply`` by action type,
    the ``prompt`` that follows it by the phase it shows, and the two together (what one tap costs the rules) by
    action type; each as p50, p99 and max. Also the longest game's log (``seed``, ``actions``)."""
    applied: dict[str, list[float]] = {}
    prompted: dict[str, list[float]] = {}
    both: dict[str, list[float]] = {}
    longest: tuple[int, list[Action]] = (seeds.start, [])
    with one_core():
        for seed in seeds:
            rng = random.Random(seed)
            state = game.setup(options, rng)
            played: list[Action] = []
            while not game.is_over(state):
                prompt = game.prompt(state)
                action = roll(game, bot.choose(game, state, prompt, rng), rng, state)
                start = time.process_time_ns()
                state, _ = game.apply(state, action)
                middle = time.process_time_ns()
                shown = game.prompt(state)
                end = time.process_time_ns()
                applied.setdefault(action["type"], []).append((middle - start) / 1e6)
                prompted.setdefault(shown.phase, []).append((end - middle) / 1e6)
                both.setdefault(action["type"], []).append((end - start) / 1e6)
                played.append(action)
            if len(played) > len(longest[1]):
                longest = (seed, played)
    every = [t for kind in both.values() for t in kind]
    return {"games": len(seeds), "actions": len(every), "action": _spread(every),
            "apply_by_type": {kind: _spread(values) for kind, values in sorted(applied.items())},
            "prompt_by_phase": {phase: _spread(values) for phase, values in sorted(prompted.items())},
            "action_by_type": {kind: _spread(values) for kind, values in sorted(both.items())},
            "longest": {"seed": longest[0], "actions": longest[1]}}


def _spread(values: list[float]) -> dict[str, float]:
    return {"count": len(values), "p50_ms": round(percentile(values, 50), 4),
            "p99_ms": round(percentile(values, 99), 4), "max_ms": round(max(values), 4)}


def replay_time(game: Game, options: Mapping[str, Any], seed: int, actions: list[Action], repeats: int = 5) -> float:
    """The median CPU seconds of rebuilding the state after ``actions`` from the set-up (``bots.replay``)."""
    runs = []
    with one_core():
        for _ in range(repeats):
            start = time.process_time()
            state = game.setup(options, random.Random(seed))
            for action in actions:
                state, _ = game.apply(state, action)
            runs.append(time.process_time() - start)
    return sorted(runs)[len(runs) // 2]


def rules_figures(game: Game, runs: Mapping[str, tuple[Mapping[str, Any], Bot, range]]) -> dict[str, Any]:
    """The figures of issue 37 for ``game``: for each named run (set-up, bot, seeds) the action times, then the
    replay of the longest game of them all, scaled to ``REPLAY_ACTIONS``; printed as they come."""
    figures: dict[str, Any] = {"goal_action_p99_ms": ACTION_P99_GOAL_MS, "goal_replay_s": REPLAY_GOAL_S,
                               "replay_actions": REPLAY_ACTIONS, "runs": {}}
    longest: tuple[str, int, list[Action]] = ("", 0, [])
    for name, (options, bot, seeds) in runs.items():
        timed = action_times(game, options, bot, seeds)
        seed, actions = timed.pop("longest").values()
        if len(actions) > len(longest[2]):
            longest = (name, seed, actions)
        figures["runs"][name] = timed
        print(action_line(name, timed))
    name, seed, actions = longest
    seconds = replay_time(game, runs[name][0], seed, actions)
    scaled = seconds * REPLAY_ACTIONS / len(actions)
    figures["replay"] = {"run": name, "seed": seed, "actions": len(actions), "cpu_s": round(seconds, 4),
                         f"cpu_s_per_{REPLAY_ACTIONS}": round(scaled, 4)}
    slowest = max(((kind, spread["p99_ms"]) for run in figures["runs"].values()
                   for kind, spread in run["action_by_type"].items()), key=lambda pair: pair[1])
    figures["slowest_action_p99_ms"] = {"type": slowest[0], "p99_ms": slowest[1]}
    figures["meets"] = {"action_p99": slowest[1] <= ACTION_P99_GOAL_MS, "replay": scaled <= REPLAY_GOAL_S}
    print(f"replay of the longest game ({name}, seed {seed}): {len(actions)} actions in {seconds * 1000:.1f} ms CPU, "
          f"{scaled:.3f} s per {REPLAY_ACTIONS:,} actions "
          f"({'meets' if scaled <= REPLAY_GOAL_S else 'MISSES'} the goal of {REPLAY_GOAL_S} s)")
    print(f"slowest action type, apply + prompt p99: {slowest[0]} {slowest[1]:.3f} ms "
          f"({'meets' if slowest[1] <= ACTION_P99_GOAL_MS else 'MISSES'} the goal of {ACTION_P99_GOAL_MS} ms)")
    return figures


def action_line(name: str, timed: Mapping[str, Any]) -> str:
    """One run as printed: every action's p50 / p99 / max, then the p99 of each action type (apply + prompt),
    of ``apply`` alone and of each phase's prompt."""
    every = timed["action"]

    def p99s(spreads: Mapping[str, Mapping[str, float]]) -> str:
        return ", ".join(f"{key} {spread['p99_ms']:.3f}" for key, spread in spreads.items())

    return (f"{name}: {timed['games']} games, {timed['actions']} actions; apply + prompt CPU ms p50 "
            f"{every['p50_ms']:.3f}, p99 {every['p99_ms']:.3f}, max {every['max_ms']:.3f}\n"
            f"  p99 ms by action type, apply + prompt: {p99s(timed['action_by_type'])}\n"
            f"  p99 ms by action type, apply alone:    {p99s(timed['apply_by_type'])}\n"
            f"  p99 ms by phase, its prompt:            {p99s(timed['prompt_by_phase'])}")


def measure(game: Game, options_of: Callable[[int], Mapping[str, Any]], bot: Bot, games: int, *, passes: int = 1,
            tally: Tally | None = None) -> dict[str, Any]:
    """Complete bot games per second: games ``0 .. games - 1`` (``options_of(seed)``), ``passes`` times; the
    figures of the pass of median CPU time."""
    runs = [_play(game, options_of, bot, games, tally) for _ in range(passes)]
    run = sorted(runs, key=lambda played: played["cpu"])[len(runs) // 2]
    figures = {"games": games, "games_per_s": round(games / run["cpu"], 2),
               "games_per_s_wall": round(games / run["wall"], 2),
               "actions_per_game": round(run["actions"] / games, 1),
               "ms_per_action": round(1000 * run["cpu"] / run["actions"], 4),
               "passes_games_per_s": [round(games / r["cpu"], 2) for r in runs]}
    figures.update({f"{name}_per_game": round(total / games, 2) for name, total in run["tallies"].items()})
    return figures


def _play(game: Game, options_of: Callable[[int], Mapping[str, Any]], bot: Bot, games: int,
          tally: Tally | None) -> dict[str, Any]:
    with one_core():
        wall, cpu = time.perf_counter(), time.process_time()
        actions, tallies = 0, {}
        for seed in range(games):
            final, played = play_game(game, options_of(seed), seed, bot)
            actions += len(played)
            for name, value in (tally(final) if tally else {}).items():
                tallies[name] = tallies.get(name, 0) + value
        return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "actions": actions,
                "tallies": tallies}


def line(name: str, figures: Mapping[str, Any]) -> str:
    """One ``measure`` row as printed: games per second (every pass's when there were several) and the per-game
    counts."""
    passes = figures["passes_games_per_s"]
    counts = [f"{figures[key]:g} {key[:-len('_per_game')].replace('_', ' ')}" for key in figures
              if key.endswith("_per_game")]
    return (f"{name}: {figures['games_per_s']:7.2f} games/s CPU ({figures['games_per_s_wall']:.2f} wall) over "
            f"{figures['games']} games"
            + (f" (the median of {len(passes)} passes: {' / '.join(f'{p:.2f}' for p in passes)})"
               if len(passes) > 1 else "")
            + f"; per game {', '.join(counts)}; {figures['ms_per_action']:.4f} ms per action")
