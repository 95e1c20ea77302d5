"""The frame step (`vision.colour`): white and light grey dice, which one crop cannot tell apart under an unknown
exposure, are decided by the light of the other dice in the same frame, as the app's `Pipeline` reads a frame."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classify import Classifier, Prediction
from vision.colour import FrameColour
from vision.crops import rotated_crop
from vision.pipeline import Pipeline, default_model
from vision.segment import Blob
from vision.synth import render_scene
from vision.synth.effects import sample_lighting
from vision.synth.sensor import tone

ASK = 0.8  # the table asks about dice read less surely (companion's tray.min_confidence default)
PALE = {"automobiles": ["white", "light_grey"], "cubitos": ["white/blank", "grey_light/blank"]}
OTHERS = {"automobiles": ["red", "blue", "green", "dark_grey", "yellow", "black"],
          "cubitos": ["grey_dark/coin1", "grey_dark/blank", "lead/blank", "red/team", "blue/blank", "green/blank"]}


class SceneBoxes:
    """Finds the dice where the scene drew them, so these tests are about reading, not finding (nor keeping: no die
    verifier reads these boxes)."""

    def __init__(self, scene) -> None:
        self.scene = scene

    def find(self, image: np.ndarray) -> list[Blob]:
        return [Blob(d.center, d.size, d.angle, tuple(d.box)) for d in self.scene.dice]


def scene(labels: list[str], dice_set: str, gain: float, seed: int):
    rng = np.random.default_rng(seed)
    light = sample_lighting(rng, gain=gain, tint=(1.0, 1.0, 1.0), gradient=0.1, vignette=0.1, noise=2.0, jpeg=0)
    return render_scene(labels, dice_set, rng, background="paper", lighting=light)


def read(dice_set: str, drawn, *, frame_step: bool = True) -> list:
    """The frame as the app's pipeline reads it (or the classifier alone, die by die)."""
    classifier = Classifier.load(default_model(dice_set))
    if frame_step:
        return Pipeline(None, classifier, detector=SceneBoxes(drawn), verifier=None).detect(drawn.image)
    size = classifier.input_size[0]
    return classifier.classify([rotated_crop(drawn.image, d.center, d.size, d.angle, size) for d in drawn.dice])


@pytest.mark.parametrize("dice_set", ["automobiles", "cubitos"])
@pytest.mark.parametrize("gain", [0.8, 1.1])
def test_white_and_light_grey_dice_are_read_right_under_a_dark_and_a_bright_light(dice_set, gain):
    labels = PALE[dice_set] * 3 + OTHERS[dice_set]
    drawn = scene(labels, dice_set, gain, seed=3)
    dice = read(dice_set, drawn)
    assert [d.label for d in dice] == labels
    sure = [d.confidence >= ASK for d, x in zip(dice, labels, strict=True) if x in PALE[dice_set]]
    assert sum(sure) >= len(sure) / 2  # most without a tap


@pytest.mark.parametrize("dice_set", ["automobiles", "cubitos"])
def test_a_frame_of_one_pale_colour_with_nothing_to_go_by_is_doubtful_not_wrong(dice_set):
    # white dice under a dark light look light grey, and no other die says how dark the light is
    labels = [PALE[dice_set][0]] * 5
    dice = read(dice_set, scene(labels, dice_set, 0.8, seed=3))
    assert all(d.label == x or d.confidence < ASK for d, x in zip(dice, labels, strict=True))
    assert all(d.confidence < ASK for d in dice)


@pytest.mark.parametrize("dice_set", ["automobiles", "cubitos"])
def test_white_and_light_grey_alone_are_told_apart_by_their_brightness(dice_set):
    labels = PALE[dice_set] * 3
    dice = read(dice_set, scene(labels, dice_set, 0.8, seed=3))
    assert [d.label for d in dice] == labels


@pytest.mark.parametrize("dice_set", ["d6", "chariot_race"])
def test_dice_of_any_colour_have_no_frame_step_and_read_as_before(dice_set):
    assert FrameColour.for_dice_set(dice_set) is None
    labels = ["1", "2", "3", "4", "5", "6"] if dice_set == "d6" else ["drive", "gallop", "steer", "attack", "fortune"]
    drawn = scene(labels, dice_set, 0.8, seed=3)
    alone = read(dice_set, drawn, frame_step=False)
    dice = read(dice_set, drawn)
    assert [(d.label, d.confidence) for d in dice] == [(p.label, p.confidence) for p in alone]


def _sure(label: str) -> Prediction:
    return Prediction(label, 0.99, ("", 0.0))


def test_the_pale_dice_of_a_frame_settle_its_light_when_the_one_reference_has_brighter_paint():
    step = FrameColour.for_dice_set("automobiles")
    red, white = step.references["red"], step.references["white"]
    centre = ((320.0, 240.0), 30.0, 0.0)
    places = [centre] + [((320.0 + 40 * k, 240.0), 30.0, 0.0) for k in range(1, 5)]
    colours = [red * 1.08] + [white] * 4  # the light is exactly the references' light; the red die's paint is brighter
    gains = step.gains(colours, [_sure("red")] + [_sure("white")] * 4, places, (480, 640, 3))
    # the red die alone says the light is 8 % brighter, which would take a white die a quarter of the way to grey
    assert all(abs(float(np.log(g).mean())) < 0.03 for g in gains[1:])


def test_with_every_reference_near_the_middle_a_corner_is_taken_to_be_darker():
    step = FrameColour.for_dice_set("automobiles")
    labels = ["red", "blue", "green", "yellow"]
    places = [((320.0 + dx, 240.0 + dy), 30.0, 0.0) for dx, dy in ((-30, 0), (30, 0), (0, -30), (0, 30))]
    colours = [step.references[x] for x in labels]  # an even light in the middle
    gains = step.gains(colours + [step.references["white"]], [_sure(x) for x in labels] + [_sure("white")],
                       places + [((20.0, 20.0), 30.0, 0.0)], (480, 640, 3))
    # a lens darkens its corners, and nothing in this frame says this one does not
    assert float(np.log(gains[-1] / gains[0]).mean()) < -0.05


def _developed(colour: np.ndarray, gamma: float, saturation: float = 1.0) -> np.ndarray:
    """A colour as a camera with this tone exponent and saturation delivers it."""
    return tone(np.asarray(colour, np.float64), gamma, saturation)


@pytest.mark.parametrize("gamma", [0.8, 1.0, 1.3])
@pytest.mark.parametrize("saturation", [0.6, 1.0, 1.4])
def test_a_frames_tone_curve_is_read_from_its_references_whatever_their_saturation(gamma, saturation):
    step = FrameColour.for_dice_set("automobiles")
    labels = ["red", "blue", "green", "yellow", "purple", "black", "brown"]
    colours = [_developed(step.references[x] * 0.9, gamma, saturation) for x in labels]
    assert step.tone(colours, [_sure(x) for x in labels]) == pytest.approx(gamma, abs=0.03)


def test_a_frame_with_two_references_keeps_its_tone_as_it_is():
    step = FrameColour.for_dice_set("automobiles")
    colours = [_developed(step.references[x], 1.3) for x in ("red", "black")]
    assert step.tone(colours, [_sure("red"), _sure("black")]) == 1.0


@pytest.mark.parametrize("gamma", [0.75, 1.35])
def test_pale_cubes_among_dark_references_are_read_surely_through_a_cameras_tone_curve(gamma):
    """With the references far darker than the pale cubes, a tone curve the frame did not undo would put a white
    cube's corrected brightness between white and light grey (at 0.75 the table would ask about it)."""
    labels = list(Classifier.load(default_model("automobiles")).card.labels)
    step = FrameColour.for_dice_set("automobiles")
    refs, pale = ["black", "brown", "red", "blue", "green"], ["white", "light_grey", "dark_grey"]
    colours = [_developed(step.references[x] * 0.95, gamma) for x in refs + pale]
    step.colours = lambda image, places, preds: colours  # the dice's body colours as this camera shows them
    greys = tuple(0.5 if x in pale else 0.0 for x in labels)  # the classifier cannot tell the greys apart
    preds = [_sure(x) for x in refs] + [Prediction("light_grey", 0.34, ("", 0.0), scores=greys)] * len(pale)
    places = [((100.0 + 60 * k, 240.0), 30.0, 0.0) for k in range(len(colours))]
    out = step.reread(np.zeros((480, 640, 3), np.uint8), places, preds, labels)
    assert [p.label for p in out[len(refs):]] == pale
    assert all(p.confidence >= ASK for p in out[len(refs):])
