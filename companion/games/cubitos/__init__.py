"""Cubitos (John D Clair, AEG / Pegasus 2020): the rules engine. ``GAME`` implements ``companion.games.base.Game``.

See ``README.md`` beside this file for what is played, the Position and Turn formats, and what is not done yet.
The modules import downwards only: ``kit`` (the box) < ``state`` < ``abilities`` < the sections (``roll_section``,
``race_section``) < ``rules`` (the phases, set-up, ``apply``, ``view``) < ``scenario``; this package ties the game
together, and ``bot`` beside it knows how good a table looks.
"""

from __future__ import annotations

from companion.games.base import GameBase, player_on_table
from companion.games.cubitos import luck, rules, scenario
from companion.games.cubitos.kit import load_kit


class Cubitos(GameBase):
    """The game as the ``Game`` protocol names its parts: each is a function of ``rules`` or ``scenario``."""

    id = "cubitos"
    title = "Cubitos"
    dice_set = "cubitos"
    setup = staticmethod(rules.setup)
    prompt = staticmethod(rules.prompt)
    apply = staticmethod(rules.apply)
    roll_dice = staticmethod(rules.roll_dice)
    view = staticmethod(rules.view)
    scenario = staticmethod(scenario.run_scenario)
    luck, player_of = staticmethod(luck.luck), staticmethod(player_on_table)

    @property
    def die_faces(self) -> tuple[str, ...]:
        """Every face the camera can read, ``"<die type>/<face label>"`` (RULES.md §19), from ``dice.json``."""
        return tuple(name for names in load_kit().face_names.values() for name in names)

    def dice_chances(self) -> dict[str, dict[str, float]]:
        """Each die type (its colour, the greys, the lead die) -> its faces as ``die_faces`` names them, each as
        often as the kit prints it (a red die: team twice, blank three times)."""
        from companion.fairness import uniform

        return {kind: uniform(sides) for kind, sides in load_kit().face_names.items()}


GAME = Cubitos()

__all__ = ["GAME", "Cubitos"]
