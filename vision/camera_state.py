"""The camera's state, one spelling for everyone: the pipeline's status events, the session's ``status["camera"]``,
the screens (which compare the same strings and show ``camera_state_<value>`` from the i18n files) and the LED.

A `StrEnum`, so a state is its own value in JSON and compares equal to the plain string a screen sends back.
"""

from __future__ import annotations

import enum


class CameraState(enum.StrEnum):
    STARTING = "starting"
    """The pipeline is opening the camera; no frame yet."""
    ROLLING = "rolling"
    """Frames flow and the dice move."""
    STILL = "still"
    """Frames flow and the tray is at rest (a roll was read, or nothing moved)."""
    LOST = "lost"
    """The camera gives no frames; it is reopened with growing pauses. The table needs a person to look."""
    BACK = "back"
    """Frames flow again after the camera was lost."""
    ERROR = "error"
    """A frame broke a stage and was skipped; the camera goes on."""
    ENDED = "ended"
    """A finite source (a replay) ran out."""
    STOPPED = "stopped"
    """The pipeline was stopped (the companion shuts down)."""
    OFF = "off"
    """No camera reads dice: it could not start or this game's dice have no model; dice are typed in."""
