"""One camera state type: the states the pipeline, the table camera and the LED speak of are the ones the screens
show, in every language."""

from __future__ import annotations

from companion.web import logtext
from vision.camera_state import CameraState


def test_every_camera_state_has_a_text_in_every_language():
    for lang in logtext.LANGUAGES:
        ui = logtext.catalog(lang)["ui"]
        assert [state for state in CameraState if f"camera_state_{state}" not in ui] == [], lang


def test_a_state_is_its_plain_string_in_json_and_back():
    import json

    assert json.dumps({"state": CameraState.LOST}) == '{"state": "lost"}'
    assert CameraState("lost") is CameraState.LOST and CameraState.LOST == "lost"
