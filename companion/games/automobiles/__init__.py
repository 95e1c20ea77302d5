"""Automobiles (David Short, AEG / Pegasus): the rules engine. ``GAME`` implements ``companion.games.base.Game``.

``README.md`` beside this file says what each module holds; they import downwards only: ``kit`` < ``state`` <
``track`` < ``stages`` < ``cards``, ``turn``, ``setup``, ``season`` < ``rules`` < ``scenario``.
"""

from __future__ import annotations

from companion.games.automobiles import luck, rules, scenario
from companion.games.automobiles.state import COLOURS
from companion.games.base import GameBase, player_on_table


class Automobiles(GameBase):
    """The game as the ``Game`` protocol names its parts: each is a function of ``rules`` or ``scenario``."""

    id = "automobiles"
    title = "Automobiles"
    dice_set = "automobiles"
    die_faces = COLOURS
    """The camera's labels: the cube colours of cubes.json (a draw is read as colours, AU-52)."""
    setup = staticmethod(rules.setup)
    prompt = staticmethod(rules.prompt)
    apply = staticmethod(rules.apply)
    roll_dice = staticmethod(rules.roll_dice)
    scenario = staticmethod(scenario.run_scenario)
    view = staticmethod(rules.view)
    luck, player_of = staticmethod(luck.luck), staticmethod(player_on_table)

    def dice_chances(self) -> dict[str, dict[str, float]]:
        """No dice: the cubes are drawn from a bag, whose odds change with every draw (AU-50), not a die's."""
        return {}


GAME = Automobiles()

__all__ = ["GAME", "Automobiles"]
