"""Dice Race's rules, the model every game package copies: seats, a roll, the win, the phases as data."""

from __future__ import annotations

import random

import pytest

from companion.games.base import OVER, IllegalAction
from companion.games.dice_race import GAME, GOAL
from companion.games.dice_race.rules import PHASES


def test_dr1_players_are_seats_in_order_a_bare_name_is_a_seat():
    state = GAME.setup({"players": ["Ada", {"name": " Bo ", "bot": True}]}, random.Random(1))
    assert [(seat.name, seat.colour, seat.bot) for seat in state.seats] == [("Ada", "green", False),
                                                                             ("Bo", "red", True)]
    assert GAME.seats(state) == {"Ada": False, "Bo": True}
    assert GAME.prompt(state).actor == "Ada"


@pytest.mark.parametrize("players", [["Ada"], ["Ada", "ada"], ["Ada", "x" * 25], ["Ada", {"name": "Bo", "bot": "no"}]])
def test_dr1_a_seat_the_schema_refuses_names_the_rule(players):
    with pytest.raises(IllegalAction) as refused:
        GAME.setup({"players": players}, random.Random(1))
    assert refused.value.rule == "DR-1"


def test_dr2_a_roll_moves_the_player_on_turn_and_passes_the_turn():
    state = GAME.setup({"players": ["Ada", "Bo"]}, random.Random(1))
    state, events = GAME.apply(state, {"type": "roll", "dice": ["5"]})
    assert events == [{"type": "moved", "player": "Ada", "steps": 5, "to": 5}]
    assert (GAME.prompt(state).actor, state.phase) == ("Bo", "roll")
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, {"type": "move"})
    assert refused.value.rule == "DR-2" and refused.value.legal == ["roll"]


def test_dr3_reaching_the_goal_wins_at_once_and_ends_the_game():
    state = GAME.setup({"players": ["Ada", "Bo"]}, random.Random(1))._replace(positions=(GOAL - 2, 0))
    state, events = GAME.apply(state, {"type": "roll", "dice": ["2"]})
    assert events[-1] == {"type": "game_over", "winner": "Ada"}
    assert state.phase == OVER and GAME.is_over(state) and GAME.prompt(state).actor is None
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, {"type": "roll", "dice": ["1"]})
    assert refused.value.rule == "DR-3"


def test_every_phase_declares_what_comes_next():
    for name, phase in PHASES.items():
        assert phase.handler is None or phase.next is not None, name
        assert callable(phase.next) or phase.next is None or phase.next in PHASES, name
