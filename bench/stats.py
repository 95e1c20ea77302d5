"""The table's statistics over 1,000 stored games (issue 36: they answer in <= 200 ms on one core, kept up to date as
events arrive, not recomputed per request).

The games are random-bot games of Chariot Race, Hexen Rennen, Dice Race and Cubitos stored as the session stores
them: every roll read by the camera (one in ten typed in by hand, one die in fifty corrected by a tap). Measured:
the rebuild from the log (once, on the first question); then a 1,000th game is played live, each event handed to
``update`` as the session does, and after each of its first rolls the answer (the verdicts of the kinds that
changed worked out anew) and an answer with nothing new, each as ``GET /api/stats`` sends it (``to_json`` and its
JSON, the evening's luck included), in CPU time; then the luck over that game as its game-over screen asks for it
(``GET /api/stats/games/<n>/luck``: ``luck_of`` and its JSON).

    python bench/stats.py            # 1,000 games
    python bench/stats.py 200        # fewer
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time

from machine import describe, machine_line, record

from companion.games import get_game, get_presentation
from companion.games.bots import RandomBot, roll
from companion.stats import TableStats
from companion.store import EventStore

MIX = {"chariot-race": 5, "hexenrennen": 3, "dice-race": 1, "cubitos": 1}
"""Of every ten games stored, how many of each."""
MAX_ACTIONS = 3000
ANSWERS = 20


def store_games(store: EventStore, count: int, rng: random.Random, stats: TableStats | None = None,
                answers: list[tuple[float, float]] | None = None) -> int:
    """``count`` whole bot games into ``store``; returns the dice rolled. With ``stats``, each event goes to its
    ``update`` as the session would send it, and ``answers`` gets the answer's time after each roll and once more."""
    order = [game_id for game_id, n in MIX.items() for _ in range(n)]
    dice = 0
    for number in range(count):
        game_id = order[number % len(order)]
        game, options = get_game(game_id), demo_options(game_id)
        record = store.new_game(game_id, options, seed=number)
        state = game.setup(options, random.Random(number))
        for _ in range(MAX_ACTIONS):
            if game.is_over(state):
                break
            prompt = game.prompt(state)
            choice = RandomBot().choose(game, state, prompt, rng)
            action = {k: v for k, v in roll(game, choice, rng, state).items() if k != "roll"}
            state, events = game.apply(state, action)
            payload = {"action": action, "events": events, "source": "bot", "phase": prompt.phase}
            if "dice" in action:
                dice += len(action["dice"])
                payload["reading"] = reading(action["dice"], rng)
            stored = store.append(record.id, actor=str(prompt.actor), type=action["type"], payload=payload)
            if stats is not None:
                stats.update(stored)
                if "dice" in action and answers is not None and len(answers) < ANSWERS:
                    answers.append((answer_ms(stats), answer_ms(stats)))
    return dice


def demo_options(game_id: str) -> dict:
    """The demo's set-up of the game (not ``companion.runtime``'s: it loads the camera, and bench/ has a vision.py)."""
    return getattr(get_presentation(game_id), "DEMO_OPTIONS", None) or {"players": ["Julia", "Klaus", "Ben", "Anna"]}


def reading(faces: list[str], rng: random.Random) -> dict:
    if rng.random() < 0.1:
        return {"source": "manual", "dice": [{"label": f, "confidence": 1.0} for f in faces]}
    return {"source": "camera", "dice": [{"label": f, "confidence": 0.97, **({"corrected": True, "was": f}
                                                                               if rng.random() < 0.02 else {})}
                                         for f in faces]}


def answer_ms(stats: TableStats) -> float:
    start = time.process_time()
    json.dumps(stats.to_json(), allow_nan=False)
    return (time.process_time() - start) * 1000


def luck_ms(stats: TableStats, number: int) -> float:
    start = time.process_time()
    json.dumps(stats.luck_of(number), allow_nan=False)
    return (time.process_time() - start) * 1000


def run(count: int = 1000) -> dict[str, object]:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the goal says
    machine = describe()
    print(machine_line(machine))
    store, rng = EventStore(":memory:"), random.Random(1)
    start = time.perf_counter()
    dice = store_games(store, count - 1, rng)
    print(f"stored {count - 1} games, {dice} dice rolled, in {time.perf_counter() - start:.1f} s")

    stats = TableStats(store)
    start = time.process_time()
    stats.rebuild()
    rebuild_s = time.process_time() - start
    first = answer_ms(stats)

    # the 1,000th game is played live: after each roll, the answer (its kind's verdict worked out anew) and again
    answers: list[tuple[float, float]] = []
    start = time.process_time()
    store_games(store, 1, rng, stats, answers)
    after_roll, unchanged = [a for a, _ in answers], [b for _, b in answers]
    answer = stats.to_json()
    counted = sum(f["count"] for d in answer["dice"] for k in d["kinds"] for f in k["verdict"]["faces"])
    typed = sum(d["typed"] for d in answer["dice"])
    live_game = answer["games"][0]["number"]
    luck = luck_ms(stats, live_game)
    rolls = sum(row["rolls"] for row in answer["games"][0]["luck"])
    figures = {
        "games": count, "dice_rolled": dice, "dice_counted": counted, "dice_typed": typed,
        "rebuild_s": round(rebuild_s, 2), "first_answer_ms": round(first, 1),
        "answer_after_a_roll_ms": {"p50": round(statistics.median(after_roll), 1), "max": round(max(after_roll), 1)},
        "answer_unchanged_ms": {"p50": round(statistics.median(unchanged), 1), "max": round(max(unchanged), 1)},
        "luck_over_a_game_ms": round(luck, 1), "luck_rolls_of_that_game": rolls,
        "goal_ms": 200,
    }
    print(f"{count} games ({counted} dice counted, {typed} typed in and left out): rebuild {rebuild_s:.2f} s CPU; "
          f"first answer {first:.1f} ms; after a roll p50 {figures['answer_after_a_roll_ms']['p50']} ms, "
          f"max {figures['answer_after_a_roll_ms']['max']} ms; nothing new p50 "
          f"{figures['answer_unchanged_ms']['p50']} ms; luck over the live game ({rolls} rolls) {luck:.1f} ms "
          f"(goal <= 200 ms, one core, CPU time)")
    return {"machine": machine, **figures}


if __name__ == "__main__":
    record("stats", run(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
