"""Cubitos rules speed: complete bot games per second on one core (4 players, the seven blue races in turn).
Goal (issue 16): >= 50.

The headline is greedy bots as the dashboard's bot seats play: ``GreedyBot`` with the game's own rating of the
options it can rate without playing them out (``Cubitos.rate_options``). A move (by the walk its listing made), a
purchase, a conversion, a bonus and most abilities are rated exactly as ``apply`` then ``Cubitos.score`` would; pass,
push, rest, done and go by the actor's own table, without the rest of the round they start (the next rollers,
everyone's phase 5, the round's end), which a full lookahead plays out for every option it weighs. Abilities used on a
bust, those that roll, an event's use that empties the ready zone, and a roll's size are still played out. So the
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

The sixth pass (43.4-45.0 games/s CPU, 40.5-41.5 before it in turn in the same minutes on a machine shared with a
training run; 10.8% fewer instructions on seven games, ``valgrind --tool=callgrind``: 2,059M -> 1,837M, and 11.1% on
the 28: 6,663M -> 5,921M) takes out work that a state's options shared or did not need. A state's options are rated
in one call (``Cubitos.rate_options``, which ``GreedyBot`` takes when a game has it), the actor's standing read once;
the uses of abilities at a push, after a push (an event), at the end of phase 6 (Bob) and before phase 7 are rated by
what they change, as phase 5's are, instead of played out (what the rules do after them leaves the actor's table as
it is: ``Cubitos.USING_ONLY``); the dozen turns of a ready die to a face (Wadenbeißer) find the die and the push left
once per die type; a bonus die taken, or given back from the draw or rest zone, is rated as a purchase is. ``usable``
says in one look-up that no active die shows a face that may grant an ability at the moments asked (those faces are
kept per moments), and works out the sword-gated abilities once per state; a walk stops at a runner without steps;
a push changes the ready and active zones only; a prompt is made from one dict of its fields (the frozen dataclass's
``__init__`` set each by ``object.__setattr__``); a roll's faces are drawn by ``getrandbits`` as ``rng.choice`` draws
them (the same draws, two Python calls fewer per die); ``bots.roll`` hands an option without dice over as it is.
Tried and dropped, as they ran more instructions: keeping every apply of a state's options for the one a bot played
out and then chose (``use_ability`` already keeps its uses), keeping walks by where they start (fewer than 2% start
alike within a game, as the events name the seat), a per-table table of the plain faces phase 5 collects (more to
build than one game saves), and setting a player's changes by ``map`` rather than a loop.

What is left is the Python work of each action, spread thin: about 2,440 bytecodes run per action (2,660 before the
sixth pass, counted alike on seven games; some 210,000 machine instructions), 13% of them in the bot loop and the
game's entry points (``play_game``, choose, prompt, options, apply) and a few % in ``random``, whose draws are
pinned; no Cubitos function takes more than 7.5% (``state.changed`` copying the 40-field player for nearly every
move, ``rate_options``, ``_on_roll``, the bot's roll, ``_total``, ``abilities.usable``). Reading a ``NamedTuple``
field is a generic attribute look-up in Python 3.11: about 88 per action, some 5% of the instructions; ``State`` and
``Player`` stay tuples all the same, as the recorded games hash them by ``_asdict`` and copying a tuple by index is
what keeps ``changed`` cheap. Counting bytecodes alone misleads: placing a roll's dice by sorting ran fewer of them
and more instructions, and drawing a face by ``getrandbits`` runs more bytecodes than ``rng.choice`` and fewer
instructions. By phase, a roll is still a quarter of the time (its refill, placing and the bot's draws), phase 6 a
fifth (the walks of its moves a third of that), the choice to push or pass a sixth; the options still played out (a
no-limit refill's sizes, abilities that roll, those on a bust: 1,108 applies over the 28 games) some 6%, their dice
drawn by the bot and deciding the rating. No single part left is worth the 10% more that 50 games/s needs.

The seventh pass (2026-11-27; 3.5% fewer instructions on seven games, 1,847M -> 1,782M, ``valgrind
--tool=callgrind``; in seconds within the noise of a machine shared with a training run) keeps what ``_standing``
last made of an active and a ready zone for those very tuples (a player's zones pass unchanged from state to state
while they buy, move or wait: two standings in five); a walk's step onto a space without a special moves the runner
alone (``state.stepped``: a player made, not a state), and the state a walk leads to is made for the chosen move only
(``walked_to``); a bot's faces are drawn from per-type (faces, count, bits) and a roll's blank faces told by the name
shown. Tried and dropped: the push and the pass handing on to the next roller in the same copy of the state (0.04%).
The larger step is the interpreter: ``make`` now builds the venv on Debian's python3, the one a Pi runs
(``deploy/install-pi.sh``), built with profile-guided optimisation, where it took pyenv's build, made without it:
the same code runs 11-12% more games per second on it (47.1 against 42.1 in turn, in the same minutes, on an idle
machine; 45.0-46.4 against 41.7-41.8 beside a training run). The machine line says whose build ran (its prefix).
That day's machine ran 9% slower than the one of the ``make bench`` before (42.1 against 46.3 on pyenv's build).

The eighth pass (2026-11-27, stop 28; 4.7% fewer instructions on seven games, 1,561M -> 1,487M, ``valgrind
--tool=callgrind`` with ``PYTHONHASHSEED=0``; 5-6% more games per second than the seventh in turn in the same
minutes; 49.3 in the ``make bench`` of 19:23 (at 1,479M), on a machine that ran every rules bench 3-4% slower than at
17:01, when the seventh gave 48.3; after the review below, this script alone at 19:54 gave 50.5, and the greedy row
alone 48.0-50.4 in three runs that minute) takes out calls rather than steps. A call to a builtin with a keyword
argument goes through a slow path: ``zip(..., strict=True)`` where the items are paired by construction (a roll's
names and what ``parse_roll`` read of them, the greedy bot's options and ratings, a bust's kinds and ``product``'s
numbers), ``sorted(reverse=True)``, ``min(default=)``, ``dict.update(**)``. Python functions between the bot and the
rules go: ``play_game`` rolls only an option that asks for dice, the greedy bot looks up how it rates a game's
options once per game (``_rating_of``), and the hottest events name the seat inline. A greedy move is rated by the
walk its path is (found by identity, not a scan per option); a walk reads each space's steps with whether a step
there only moves the runner (``Track.walks_from``); the lead order of the racing players is kept for their very
tuple. Taken out again on review, as copies of what the rules already had for 0.2-0.3% each (1,476M -> 1,487M): a
prompt listing its options beside ``options``, the options that hand on the decision adding the push's gain to the
pass's total beside ``_total``, phase 5 reading faces beside ``face``, and a kit-wide table of a push's odds beside
``pool_odds``' own. Tried and dropped, as they ran more instructions: ``any(map(...))`` over the options for one by
hand, ``max(range, key=)`` for the best rating, placing a roll's dice by sorting and ``groupby``, the buyable dice by
a list comprehension, and a push's pool sorted by a list comprehension (alike).

Since the eighth pass (2026-11-27, stop 29) a face's worth to the rating is worked out the first time a game shows
it (``rules._FaceWorth``: a game shows some 80 of its table's 700 (die, face) pairs; 1,485M -> 1,480M instructions),
and the headline row is the median of three passes (``bot_games.measure``): 49.1 in the ``make bench`` of 20:40
(48.7 / 49.5 / 49.1), 49.6 alone at 20:39. Measured that stop and left, as too small to be sure of: the table's
ability offers and set-up worked out per table (0.5 % together), a choice's dozen turns of a ready die to a face
(Wadenbeißer; 1.7 % all told, cheaper turns would save part of it). Tried and dropped: rating a use that only gains
steps, coins or credits by those gains instead of using it (finding the use costs what using it did: 1,480M ->
1,485M).

The ninth pass (2026-11-27, stop 30; 4.5 % fewer instructions on seven games, 1,482M -> 1,415M, ``valgrind
--tool=callgrind`` with ``PYTHONHASHSEED=0``; 5 % more games per second than the eighth in turn in the same minutes
on the idle machine, pinned to the core the bench takes: 48.9 / 48.6 / 49.4 against 51.7 / 51.1 / 51.8) is mostly
functions made while the race runs. In Python 3.11 every run of a comprehension, a generator expression or a lambda
makes a new function, and a generator is resumed for each item: some 9,600 of them ran per game, few of them costly
in bytecodes, many in instructions. On the hot paths they are loops now, or ``map`` and ``filter`` with getters
named once (``rules._FIRST`` ...): a die is turned to its ``by_label`` keys, a refill of one size lists its one
roll, the walks are sorted by a named key, a move's walk is found by a loop, an added roll (``abilities.roll_in``)
cuts its pool of dice once and takes its dice in a loop, a table's ability offers are worked out in loops (3.5 %
together). A round's end resets ``rules.ROUND_ONLY`` by field index (``state.altered``, not a 27-keyword
``_replace``: 0.5 %), a die taken from the stock gives the new stock's lowest dice from the old one's (0.4 %), and a
bot's added roll finds its die as the rules will, among the uses already worked out (``rules.USES_AT``, the one
table of the moments each phase uses abilities at: 0.3 %). Tried and dropped: a player's changes set by
``any(map(values.__setitem__, ...))`` with the indices kept per set of names (1,465M -> 1,495M: a C call per item
costs more than Python 3.11's specialised store), and a roll's dice grouped by type without ``setdefault`` (no
change). Measured and left: a narrower ``Player`` with the fields of abilities in a tuple of their own (the copies
it saves, some 170 ns each, cost as much again in reads of the fields moved out), and ``gc.freeze()`` after set-up
(1.4 % fewer instructions; a setting of the process, not of the rules, and the app does not make it either). In the
``make bench`` of 22:58 the headline gave 49.3 (49.3 / 49.7 / 49.0), on a machine that ran the other rules benches
2-4 % slower than at 20:40, when the eighth pass gave 49.1; at 23:24 this script alone gave 52.8 and 53.1, and under
``make bench``'s runner (``runpy`` in a ``python -c`` process, the same instruction count) 51.0 and 51.4, in turn;
ten minutes later all three ways (alone, by ``runpy``, imported) gave 43.5-48.6 in no steady order. The machine's
speed drifts by 10 % within half an hour: the goal is met in quiet minutes, not in the run of record (48.7 in the
``make bench`` of 2026-11-28 03:38).

Since then the rules run compiled (2026-11-28, stop 33): ``setup.py`` has Cython compile the rules modules that
``pyproject.toml`` lists (``[tool.companion] compiled``: the games' rules, state and kits, ``base`` and ``bots``), their
very sources with the type hints left as hints, and ``make`` and ``deploy/install-pi.sh`` install gcc and Python's
headers for it. The very same 28 games (the recorded games' digests hold for both, ``tests/games/test_compiled.py``)
ran at 87.4 games/s (87.4 / 89.5 / 87.1; 0.0103 ms per action) against 50.4 from the sources in turn in the same
minutes (50.4 / 51.1 / 49.9; 0.0178 ms), 1.73 times as fast; Automobiles' greedy races 107 against 54. Each row says
which ran (``rules compiled`` or ``rules source``); ``COMPANION_PURE_PYTHON=1`` runs the sources. The nine passes
above are what the sources gain; the compile multiplies them.

    python bench/rules_cubitos.py
"""

from __future__ import annotations

import json
import random

from bot_games import line, measure
from machine import describe, machine_line

from companion.games.bots import Bot, GreedyBot, RandomBot
from companion.games.cubitos import rules

GOAL_GAMES_PER_SECOND = 50
FOUR = {"players": [{"name": c.title(), "colour": c} for c in rules.PLAYER_COLOURS]}
RACES = [f"race_{n}" for n in range(1, 8)]


def run() -> dict[str, object]:
    rules.GAME.setup(FOUR, random.Random(0))  # load the box before timing
    figures = {"machine": describe(), "goal_games_per_s": GOAL_GAMES_PER_SECOND,
               "greedy": _measure(GreedyBot(), 28, passes=3), "random": _measure(RandomBot(), 7)}
    print(machine_line(figures["machine"]))
    print(line("greedy bots", figures["greedy"]))
    print(line("random bots", figures["random"]))
    verdict = "meets" if figures["greedy"]["games_per_s"] >= GOAL_GAMES_PER_SECOND else "MISSES"
    print(f"greedy-bot games/s {verdict} the goal of {GOAL_GAMES_PER_SECOND}")
    return json.loads(json.dumps(figures))


def _measure(bot: Bot, games: int, passes: int = 1) -> dict[str, object]:
    return measure(rules.GAME, lambda seed: {**FOUR, "race": RACES[seed % len(RACES)]}, bot, games, passes=passes,
                   tally=lambda final: {"rounds": final.round})


if __name__ == "__main__":
    run()
