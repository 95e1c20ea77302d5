"""Every Decision constant of the Automobiles rules changes what the rules do when it is flipped (issue 37): each
test plays the same table with the Decision as shipped and flipped."""

from __future__ import annotations

import random

import pytest

from companion.games.automobiles import GAME, rules, setup, state, track
from companion.games.base import IllegalAction, enter
from tests.games.automobiles_positions import act, landings, options, table

FAR = {"B": "L2-28"}
TWO = {"players": [{"name": "A"}, {"name": "B"}]}
SEASON = {**TWO, "season": ["reference_oval"] * 4}


def test_au_3_wear_buyable(monkeypatch):
    """AU-3 ``WEAR_BUYABLE``: a wear cube with a cost on its card is not for sale unless the Decision says so."""
    position = table({"A": "L0-05", **FAR}, active={"A": {"YE": 2}}, prices={"BR": (1, 0), "YE": (3, 2)})
    after, _ = act(position, {"type": "to_buy"})
    assert {"type": "buy", "colour": "brown"} not in options(after)
    monkeypatch.setattr(state, "WEAR_BUYABLE", True)
    assert {"type": "buy", "colour": "brown"} in options(after)


def test_au_3_wear_value(monkeypatch):
    """AU-3 ``WEAR_VALUE``: an active wear cube is worth nothing in the buy phase (AU-35)."""
    position = table({"A": "L0-05", **FAR}, active={"A": {"YE": 1, "BR": 2}}, prices={"YE": (3, 2)})
    after, _ = act(position, {"type": "to_buy"})
    assert GAME.prompt(after).info["money"] == 2
    monkeypatch.setattr(state, "WEAR_VALUE", 1)
    assert GAME.prompt(after).info["money"] == 4


def test_au_3_wear_cost_for_sums(monkeypatch):
    """AU-3 ``WEAR_COST_FOR_SUMS``: a removed wear cube adds nothing to base_purple_4's budget (AU-74)."""
    position = table({"A": "L0-05", **FAR}, active={"A": {"PU": 1}}, discard={"A": {"BR": 1, "W": 1}},
                     cards={"purple": "base_purple_4"}, prices={"W": (2, 1), "BR": (5, 0)})
    monkeypatch.setattr(state, "WEAR_COST_FOR_SUMS", 3)
    after, _ = act(position, {"type": "activate", "colour": "purple"}, {"type": "pick", "colour": "brown",
                                                                        "from": "discard"}, {"type": "stop"})
    assert after.stage.kind == "buy" and after.stage.budget == 3


def test_au_3_wear_cost_for_sums_as_shipped():
    position = table({"A": "L0-05", **FAR}, active={"A": {"PU": 1}}, discard={"A": {"BR": 1, "W": 1}},
                     cards={"purple": "base_purple_4"}, prices={"W": (2, 1), "BR": (5, 0)})
    after, _ = act(position, {"type": "activate", "colour": "purple"}, {"type": "pick", "colour": "brown",
                                                                        "from": "discard"})
    assert {"type": "stop"} not in options(after)  # $0 buys nothing: the white cube must go too


def test_au_26_source_slide(monkeypatch):
    """AU-26 ``SOURCE_SLIDE``: a step may also start from a free segment further forward in the car's field."""
    position = table({"A": "L1-12", **FAR}, active={"A": {"LG": 1}})
    after, _ = act(position, {"type": "activate", "colour": "light_grey"})
    assert landings(after) == {"L0-14", "L0-16"}
    monkeypatch.setattr(track, "SOURCE_SLIDE", False)
    assert landings(after) == {"L0-14"}


def test_au_62_wear_cube_activation(monkeypatch):
    """AU-62 ``WEAR_CUBE_ACTIVATION``: the default of ``wear_activation``; ``"none"``: brown cannot be activated."""
    assert GAME.setup(TWO, random.Random(0)).table.wear_activation == "to_discard"
    monkeypatch.setattr(setup, "WEAR_CUBE_ACTIVATION", "none")
    assert GAME.setup(TWO, random.Random(0)).table.wear_activation == "none"


def test_au_99_drivers_in_a_single_race(monkeypatch):
    """AU-99 ``DRIVERS_IN_SINGLE_RACE``: a single race starts with the opening buy, or with the drivers' choice."""
    assert GAME.setup(TWO, random.Random(0)).phase == "opening_buy"
    monkeypatch.setattr(setup, "DRIVERS_IN_SINGLE_RACE", True)
    assert GAME.setup(TWO, random.Random(0)).phase == "driver"


def test_au_99_driver_pool(monkeypatch):
    """AU-99 ``DRIVER_POOL``: n+1 drivers revealed for n players, or every driver."""
    options = {**TWO, "drivers": True}
    assert len(GAME.setup(options, random.Random(0)).revealed) == 3
    monkeypatch.setattr(setup, "DRIVER_POOL", "all")
    assert len(GAME.setup(options, random.Random(0)).revealed) == len(setup.load_kit().drivers)


def test_au_111_season_races(monkeypatch):
    """AU-111 ``SEASON_RACES``: how many tracks a season may have."""
    assert GAME.setup(SEASON, random.Random(0)).table.season == ("reference_oval",) * 4
    monkeypatch.setattr(setup, "SEASON_RACES", (3, 3))
    with pytest.raises(IllegalAction) as refused:
        GAME.setup(SEASON, random.Random(0))
    assert refused.value.rule == "AU-111"


@pytest.mark.parametrize("draw", [7, 5])
def test_au_116_next_race_draw(monkeypatch, draw):
    """AU-116 ``NEXT_RACE_DRAW``: how many cubes each player draws before a season's next race."""
    monkeypatch.setattr(setup, "NEXT_RACE_DRAW", draw)
    first = GAME.setup(SEASON, random.Random(0))
    over = first._replace(placings=(1, 0), turn=first.turn._replace(queue=()))
    second = enter(over, "next_race", rules.PHASES, [])
    assert second.race == 2 and second.phase == "opening_draw" and second.stage.sizes == (draw,)
