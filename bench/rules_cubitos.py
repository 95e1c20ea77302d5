"""Cubitos rules speed: complete bot games per second on one core (4 players, the seven blue races in turn).
Goal (issue 16): >= 50.

The headline is greedy bots as the dashboard's bot seats play: ``GreedyBot`` with the game's own rating of the
options it can rate without playing them out (``Cubitos.rate``). A move (by the walk its listing made), a purchase,
a conversion, a bonus and most abilities are rated exactly as ``apply`` then ``Cubitos.score`` would; pass, push,
rest, done and go by the actor's own table, without the rest of the round they start (the next rollers, everyone's
phase 5, the round's end), which a full lookahead plays out for every option it weighs. Abilities used when pushing,
after a push, on a bust or at the end of phase 6, those that roll, and a roll's size are still played out. So the
figure is the rules plus a cheap one-step lookahead; these bots race differently from the full lookahead (22 rounds
instead of 25).

Two more rows: the same bots playing out every option (the full lookahead, the figure this script gave before
issue 16, on the very same games), and random bots, whose races last hundreds of rounds (they give dice back and
walk both ways), so their games per second say little and their time per action says how fast the rules are. CPU
time (``process_time``) is reported beside wall time because the machine may be shared; on a loaded machine compare
two versions only by runs in the same minute.

The headline's games are pinned (``tests/games/test_cubitos_recorded_games.py``, ``RATING_RECORDED``: the first seven
seeds, recorded before the second speed pass), so a speed-up that changes a single decision of these bots fails
there rather than making the figure a different race. The third pass (36-37 games/s, 32-34 before it in the same
minutes; 24 before the second) rates a die turned to a face of choice (Wadenbeißer, a dozen options at every push
or pass of race 7) by that die instead of using the ability, and trims the rest: abilities offered looked up per
(die, face), the race left kept per place, faces' worths and purchasable types kept per table. The fourth pass
(38.9-39.1 games/s, 36.6-36.8 before it in the same minutes; 7% fewer machine instructions, ``valgrind
--tool=callgrind`` on seven games) takes steps out of each action: a roll changes the player once from its refill
to the choice to push or pass, a state's abilities are listed once per moment, ``apply`` hands a listed action
straight to its phase's handler, and the refills, lead order and next roller are not worked out again for a table
that has not changed. The fifth pass (40.5-41.5 games/s, 39.5 before it in turn in the same minutes; 5% fewer
instructions on seven games) is object layout: the kit's and the table's computed-once attributes were
``cached_property``s, whose ``instance.__dict__`` gave those objects dicts of their own, after which Python 3.11
read *every* attribute of them (``table.kit``, ``table.types``, ``kit.dice`` at nearly every step) through the
generic look-up; they are now stored beside the other attributes (``kit.kept``; the table's memos and derived
tables are plain fields). The bots take the prompt's options without a copy, and ``state.changed`` builds the new
state from the old one's fields by index (``Prompt`` stays without ``__slots__``: Automobiles makes its prompts
by handing a dict to ``__dict__``). Garbage collection is no lever here: 74 young and 7 middle collections
over the 28 games, no full one.

What is left is the Python work of each action, spread thin: about 2,650 bytecodes run per action (counted before
the fifth pass, which took out C work rather than bytecodes; 2,000 would make 50 games/s), a tenth of them in the
shared bot layer (``play_game``, choose, the ``Prompt`` dataclass) and 4% in ``random``, whose draws are pinned;
no Cubitos function takes more than 6% of the time (``_on_roll``, ``state.changed`` copying the 40-field player,
``rate``, ``abilities.usable``). Reading a ``NamedTuple`` field is a generic attribute look-up in Python 3.11:
about 92 per action (callgrind counts 818,697 ``tuplegetter`` reads in the first seven games), some 5% of the
instructions; ``State`` and ``Player`` stay tuples all the same, as the recorded games hash them by ``_asdict``
and copying a tuple by index is what keeps ``changed`` cheap. Counting bytecodes alone misleads: placing a roll's
dice by sorting ran fewer of them and more instructions. Rolls are a quarter of the work (a push rolls every die
again, and a no-limit refill is played out at each size it may have); the rest is the greedy rating of every option
and the listing of each state's options, which the recorded games pin to the option.

    python bench/rules_cubitos.py
"""

from __future__ import annotations

import json
import time

from machine import describe, machine_line

from companion.games.bots import Bot, GreedyBot, RandomBot, play_game
from companion.games.cubitos import rules

GOAL_GAMES_PER_SECOND = 50
FOUR = {"players": [{"name": c.title(), "colour": c} for c in rules.PLAYER_COLOURS]}
RACES = [f"race_{n}" for n in range(1, 8)]


def measure(bot: Bot, games: int) -> dict[str, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    actions = rounds = 0
    for seed in range(games):
        final, played = play_game(rules.GAME, {**FOUR, "race": RACES[seed % len(RACES)]}, seed, bot)
        actions += len(played)
        rounds += final.round
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"games": games, "games_per_s": round(games / cpu, 2), "games_per_s_wall": round(games / wall, 2),
            "actions_per_game": round(actions / games, 1), "rounds_per_game": round(rounds / games, 1),
            "ms_per_action": round(1000 * cpu / actions, 3)}


def line(name: str, f: dict[str, float]) -> str:
    return (f"{name}: {f['games_per_s']:6.2f} games/s CPU ({f['games_per_s_wall']:.2f} wall) over {f['games']} games, "
            f"{f['actions_per_game']:.0f} actions and {f['rounds_per_game']:.1f} rounds per game, "
            f"{f['ms_per_action']:.3f} ms per action")


def run() -> dict[str, object]:
    rules.GAME.setup(FOUR, __import__("random").Random(0))  # load the box before timing
    figures = {"machine": describe(), "goal_games_per_s": GOAL_GAMES_PER_SECOND, "greedy": measure(GreedyBot(), 28),
               "greedy_full_lookahead": measure(GreedyBot(play_out=True), 28), "random": measure(RandomBot(), 7)}
    print(machine_line(figures["machine"]))
    print(line("greedy bots", figures["greedy"]))
    print(line("greedy bots playing out every option", figures["greedy_full_lookahead"]))
    print(line("random bots", figures["random"]))
    verdict = "meets" if figures["greedy"]["games_per_s"] >= GOAL_GAMES_PER_SECOND else "MISSES"
    print(f"greedy-bot games/s {verdict} the goal of {GOAL_GAMES_PER_SECOND}")
    return json.loads(json.dumps(figures))


if __name__ == "__main__":
    run()
