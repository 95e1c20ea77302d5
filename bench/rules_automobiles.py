"""Automobiles rules speed: complete bot races per second on one core (4 players, the reference oval, 3 laps, the
base and expansion cards in turn). Goal (issue 17): >= 50; measured 52.3-52.9 greedy races/s CPU after issue 17's
third pass (33.8-34.7 before it, run in turn in the same minutes on a loaded machine; 54 when it was quieter), so
the goal is met. Random bots: 16.0-16.4 races/s (10.8 before). Those figures are of the sources; compiled
(``setup.py``, 2026-11-28) the same races ran at 107 against 54 from the sources in turn in the same minutes (each
row says which ran: ``rules compiled`` or ``rules source``).

Greedy bots are the headline, as for Cubitos: they race the way a table does (about 30 rounds). A greedy bot rates
every listed option (``Automobiles.rate``, the number ``Automobiles.score`` gives the table after it), so the figure
is the cost of a one-step lookahead, not of the rules alone. ``rate`` plays out only what it cannot score from the
table as it is: activations of gear and wear cubes and of cards whose effect changes nothing scored but through
later decisions (``SCORE_NEUTRAL_EFFECTS``), picks inside those, purchases and a cube's last step are scored
directly, and the rules keep the outcomes of the last table's actions, so an option played out for its rating is
not worked out twice. What is left is mostly the rules themselves: about 5,000 copies of a frozen table part per
race (``evolve``), listing options (the reach of a step is walked past the cars from ways worked out once per
track), and the bots' own loop and dice. The third pass measured instructions with ``valgrind --tool=callgrind``
(248M per race before, 154M after, over the first 6 races) because CPU time is noisy on a shared machine; the
largest single step was giving copies attribute dicts of their own (``state.evolve``: Python 3.11 reads a "split"
dict's attributes only through the generic look-up), then fewer copies per turn, and keeping fewer old tables alive
(less work for the garbage collector). The random-bot line shows the rules alone over much longer races. CPU time
(``process_time``) is reported beside wall time because the machine may be shared; the outcomes of seeded races,
and these 30 races' actions, are pinned by ``tests/games/test_automobiles_recorded_games.py``, so a faster run is
the same races.

    python bench/rules_automobiles.py
"""

from __future__ import annotations

import json
import random

from bot_games import line, measure
from machine import describe, machine_line

from companion.games.automobiles import rules
from companion.games.bots import Bot, GreedyBot, RandomBot

GOAL_GAMES_PER_SECOND = 50
FOUR = {"players": [{"name": c.title(), "colour": c} for c in rules.CAR_COLOURS[:4]]}
POOLS = ["base", "racing_season", "both"]


def run() -> dict[str, object]:
    rules.GAME.setup(FOUR, random.Random(0))  # load the box before timing
    figures = {"machine": describe(), "goal_games_per_s": GOAL_GAMES_PER_SECOND,
               "greedy": _measure(GreedyBot(), 30, passes=3), "random": _measure(RandomBot(), 6)}
    print(machine_line(figures["machine"]))
    print(line("greedy bots", figures["greedy"]))
    print(line("random bots", figures["random"]))
    verdict = "meets" if figures["greedy"]["games_per_s"] >= GOAL_GAMES_PER_SECOND else "MISSES"
    print(f"greedy-bot games/s {verdict} the goal of {GOAL_GAMES_PER_SECOND}")
    return json.loads(json.dumps(figures))


def _measure(bot: Bot, games: int, passes: int = 1) -> dict[str, object]:
    return measure(rules.GAME, lambda seed: {**FOUR, "card_pool": POOLS[seed % len(POOLS)]}, bot, games,
                   passes=passes, tally=lambda final: {"rounds": final.round})


if __name__ == "__main__":
    run()
