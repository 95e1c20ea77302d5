"""One frame's light: telling apart dice that differ only in brightness (white and light grey) by the other dice.

A crop alone cannot tell a white die from a light grey one: they differ in brightness (x1.3) about as much as a
camera's exposure and white balance vary between frames. Within one frame, though, every die shares that exposure,
and most rolls hold dice whose colour is not in doubt (Cubitos: the dark grey start dice, the black lead die, the
coloured dice; Automobiles: the other colours). So the frame's gain per channel is estimated from the dice read
surely whose colour has no brighter or dimmer twin (their body colour over their reference colour, median, with a
smooth fall-off across the tray), and the dice read as one of a brightness pair are decided again by their body
colour over that gain, weighed with the classifier's belief (which tells faces with a picture apart). The pair dice
help set the gain's level too: each must be one of its family, so together they say where the light is as surely
as the references do (a frame has few references, each with its own paint and shading).

A camera's tone curve bends brightness too: with the references much darker than the pale dice, a tone exponent a
little off 1 moves a pale die's corrected brightness as far as the step from white to light grey. So the frame's
exponent is estimated first, from how the references' mean channel (which a camera's saturation keeps) grows with
their reference's, and every body colour is taken back through it before the gains (`FrameColour.tone`).

Reference colours are the renderer's palettes of the set (`vision/synth/dice_sets.json`), the one place the dice's
colours are written down; a factor shared by all dice (shading of the face, the camera) cancels in the gain.
Where nothing in the frame is a reference, relative brightness among the pair's dice decides if it separates them
into two clear groups; otherwise the classifier's reading stays and is marked doubtful (the table asks): a doubtful
die is a tap, a wrong one is not caught.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from vision.classify import Prediction
from vision.crops import rotated_crop
from vision.synth.dice_sets import get_dice_set, get_palette

# Pairs are "brightness pairs" when their reference colours have the same hue and their brightness differs by less
# than the light can fake: exposure 0.8-1.1 and white balance 0.9-1.1 per channel differ by up to x1.7 between
# frames (the renderer's spread), and the light falls off across the tray on top of that. Automobiles' light and
# dark grey (x1.83) are one (the classifier read light grey cubes as dark grey in dim light on the validation
# surfaces; 1.7 left those, 2.0 caught them); Cubitos' dark grey and black (x2.9) are told apart by the classifier.
MAX_PAIR_RATIO = 2.0
SAME_HUE = 0.03  # largest distance between the two reference colours' chromaticities (each colour / its sum)
REFERENCE_CONFIDENCE = 0.9  # a die read at least this surely may serve as a reference for the frame's light
# the light's change across the tray, fitted to the references, is held towards what a lamp and a lens do unless
# several dice say otherwise: ridge on its slope and fall-off (larger keeps it flatter; chosen on the validation
# surfaces, where 0.3 held a fitted gradient short by 0.03 on average even with no noise at all) ...
LIGHT_SLOPE_PRIOR = 0.2
# ... and the fall-off towards the corners expected before any die is seen (a lens darkens its corners: the
# renderer's vignette, 0 to 0.25 of the light at the corners, is -0.25 on average on this term)
CORNER_FALL_OFF = -0.25
# a die's own brightness, with the light known, strays from its colour's reference by about this much (log, one
# standard deviation: its paint and the shading of its top face); measured on the validation surfaces, 0.053-0.079
DIE_SPREAD = 0.06
LEVEL_RANGE = 0.2  # the pair dice may move the frame's light level by up to this much (log) from the references'
DARK_CHANNEL = 60  # reference channels darker than this are mostly noise and ink: not used for the gain
# a pair die's body brightness, over the frame's gain, strays from its reference by about this much (log, one
# standard deviation: the dice's own spread, the light's gradient across the tray, ink and glare); measured on the
# validation surfaces
SPREAD = 0.1
CLASSIFIER_WEIGHT = 0.6  # how much the classifier's belief counts beside the colour (0: not at all)
FITS_NONE = 3.0  # a pair die further than this many `SPREAD`s from every member's reference is left doubtful
SURE = 0.9  # a pair die is decided when its likeliest type is at least this likely; chosen on the validation surfaces
# relative brightness alone (no reference in the frame): two groups of dice whose gap is at least this share of the
# log-brightness gap of the two members they are taken for, each group narrower than `GROUP_WIDTH` of the gap of the
# family's closest two members; chosen on validation frames of white and light grey dice alone
GROUP_GAP = 0.6
GROUP_WIDTH = 0.6
GROUP_MATCH = 0.2  # and the groups' brightness ratio within this share of those two members' (log)
DOUBTFUL = 0.5  # the confidence of a die the frame cannot settle: below the table's ask threshold (0.8)
FACE_MARGIN = 0.8  # the body colour is measured inside the top face's shaded rim, this share of its side
# the frame's tone exponent: the slope of the references' log mean channel on their reference's, from at least
# `TONE_REFERENCES` of them, held towards 1 by a ridge of `TONE_RIDGE` (a frame of few references of like brightness
# says little of it) and kept within `TONE_RANGE`; fixed before any figure, adopted on the validation surfaces
TONE_REFERENCES = 3
TONE_RIDGE = 0.25
TONE_RANGE = (0.6, 1.6)


Place = tuple[tuple[float, float], float, float]  # a die's centre, side (px) and angle (degrees)


def body_colour(image: np.ndarray, place: Place, body: np.ndarray, inks: Sequence[np.ndarray]) -> np.ndarray:
    """The BGR colour of a die's body: of the top face's pixels nearer (in log colour) to the body colour of the die
    it was read as than to any of its inks, the mean of the densest half by brightness (flat body colour, not the
    edges between body and ink). A symbol may cover most of a face (white shields on coloured Cubitos dice), so
    neither the face's mean nor its median is its body."""
    center, side, angle = place
    pixels = rotated_crop(image, center, side, angle, 16, margin=FACE_MARGIN).reshape(-1, 3).astype(np.float64)
    logs = np.log(np.maximum(pixels, 1.0))
    looks = np.log(np.maximum(np.vstack([body, *inks]), 1.0))
    distance = ((logs[:, None, :] - looks[None]) ** 2).sum(axis=2)
    own = distance.argmin(axis=1) == 0
    if own.sum() < len(pixels) // 8:
        own[:] = True
    pixels, lum = pixels[own], logs[own].mean(axis=1)
    # the body is flat colour, the pixels between it and the ink are edges: the densest half of them by brightness
    order = np.argsort(lum)
    lum = lum[order]
    half = max(1, len(lum) // 2)
    start = int(np.argmin(lum[half - 1:] - lum[:len(lum) - half + 1]))
    return pixels[order[start:start + half]].mean(axis=0)


@dataclass(frozen=True)
class Family:
    """Die types that differ only in brightness, brightest first: their labels and reference body colours."""

    members: tuple[tuple[str, ...], ...]
    references: tuple[np.ndarray, ...]

    @cached_property
    def brightness(self) -> np.ndarray:
        """Each member's reference log brightness, brightest first: every die of the family is weighed against
        these, in every frame."""
        return np.array([_log_brightness(r) for r in self.references])

    def member_of(self, label: str) -> int | None:
        return next((i for i, labels in enumerate(self.members) if label in labels), None)


def _log_brightness(colour: np.ndarray) -> float:
    return float(np.log(np.maximum(colour, 1.0)).mean())


def _log_mean(colour: np.ndarray) -> float:
    """The log of a colour's mean channel, on 0..1 (what a camera's saturation keeps)."""
    return float(np.log(max(float(np.mean(colour)), 1.0) / 255))


class FrameColour:
    """The frame step for one dice set: `reread` decides the brightness-pair dice of a frame by the frame's light.

    >>> step = FrameColour.for_dice_set("automobiles")            # doctest: +SKIP
    >>> preds = step.reread(image, [(b.center, b.size, b.angle) for b in blobs], preds, labels)  # doctest: +SKIP
    """

    def __init__(self, references: dict[str, np.ndarray], inks: dict[str, tuple[np.ndarray, ...]],
                 families: list[Family]) -> None:
        self.references = references  # label -> reference body colour (BGR)
        self.inks = inks  # label -> the colours its symbols may be printed in
        self.families = families

    @classmethod
    def for_dice_set(cls, name: str) -> FrameColour | None:
        """The step for a set whose confusable pairs include brightness pairs (`DiceSet.confusable`, colours from
        its palettes); None for sets without any (d6, chariot race: dice of any colour)."""
        ds = get_dice_set(name)
        references, inks = {}, {}
        for label in ds.labels:
            palettes = ds.palettes_for(label)
            if label in ds.label_palettes and len(palettes) == 1:
                palette = get_palette(palettes[0])
                references[label] = np.asarray(palette.body, np.float64)
                inks[label] = tuple(np.asarray(ink, np.float64) for ink in palette.inks)
        links: list[tuple[str, str]] = []
        for a, b in ds.confusable:
            la, lb = ds.labels_of(a), ds.labels_of(b)
            if not la or not lb or not all(x in references for x in la + lb):
                continue
            ra, rb = references[la[0]], references[lb[0]]
            if any(not np.allclose(references[x], ra) for x in la) or any(
                    not np.allclose(references[x], rb) for x in lb):
                continue  # a name standing for dice of several colours
            ratio = np.exp(abs(_log_brightness(ra) - _log_brightness(rb)))
            if 1.05 < ratio < MAX_PAIR_RATIO and np.abs(ra / ra.sum() - rb / rb.sum()).max() < SAME_HUE:
                links.append((a, b))
        families = []
        for group in _connected(links):
            members = sorted(group, key=lambda n: -_log_brightness(references[ds.labels_of(n)[0]]))
            families.append(Family(tuple(ds.labels_of(n) for n in members),
                                   tuple(references[ds.labels_of(n)[0]] for n in members)))
        return cls(references, inks, families) if families else None

    def family_of(self, label: str) -> Family | None:
        return next((f for f in self.families if f.member_of(label) is not None), None)

    def is_reference(self, pred: Prediction) -> bool:
        """A die read surely whose colour has no brightness twin: what the frame's light is measured by."""
        return (pred.confidence >= REFERENCE_CONFIDENCE and pred.label in self.references
                and self.family_of(pred.label) is None)

    def colours(self, image: np.ndarray, places: Sequence[Place], preds: Sequence[Prediction]) -> list[np.ndarray]:
        """Each die's body colour, its pixels told from its ink by the colours of the die it was read as (NaN for
        a label without a reference colour)."""
        return [body_colour(image, place, self.references[p.label], self.inks[p.label])
                if p.label in self.references else np.full(3, np.nan) for place, p in zip(places, preds, strict=True)]

    def tone(self, colours: Sequence[np.ndarray], preds: Sequence[Prediction]) -> float:
        """The frame's tone exponent (1: none), from the dice read surely whose colour has no brightness twin: a
        camera's saturation moves a coloured die's channels apart but keeps their mean, so the mean channel of each,
        against its reference's, follows the tone curve alone."""
        points = [(_log_mean(self.references[p.label]), _log_mean(colour))
                  for colour, p in zip(colours, preds, strict=True)
                  if self.is_reference(p) and np.all(np.isfinite(colour))]
        if len(points) < TONE_REFERENCES:
            return 1.0
        x, y = np.array(points).T
        dx, dy = x - x.mean(), y - y.mean()
        gamma = 1 + float((dx * (dy - dx)).sum()) / (float((dx ** 2).sum()) + TONE_RIDGE)
        return float(np.clip(gamma, *TONE_RANGE))

    def gains(self, colours: Sequence[np.ndarray], preds: Sequence[Prediction], places: Sequence[Place],
              shape: tuple[int, ...]) -> list[np.ndarray] | None:
        """The frame's gain per channel (observed / reference) at each die, from the dice read surely whose colour
        has no brightness twin; None when there is no such die.

        The gain is their median ratio, per channel, times a smooth change across the tray fitted to how they
        stray from it (light falling off to one side and to the corners), held small unless several dice agree
        (`LIGHT_SLOPE_PRIOR`)."""
        refs = [(colour / self.references[p.label], self.references[p.label] >= DARK_CHANNEL, place[0])
                for colour, p, place in zip(colours, preds, places, strict=True)
                if self.is_reference(p) and (self.references[p.label] >= DARK_CHANNEL).any()]
        if not refs:
            return None
        overall = float(np.median(np.concatenate([r[m] for r, m, _ in refs])))
        gain = np.full(3, overall)
        for c in range(3):
            values = [r[c] for r, m, _ in refs if m[c]]
            if values:
                gain[c] = float(np.median(values))
        scale = max(shape[0], shape[1])

        def features(center: tuple[float, float]) -> np.ndarray:
            u, v = (center[0] - shape[1] / 2) / scale, (center[1] - shape[0] / 2) / scale
            return np.array([u, v, u * u + v * v])

        x = np.array([features(c) for _, _, c in refs])
        y = np.array([np.log(r[m] / gain[m]).mean() for r, m, _ in refs])
        x0 = np.hstack([np.ones((len(x), 1)), x])
        prior = np.diag([0.0, *([LIGHT_SLOPE_PRIOR] * 3)])
        expected = np.array([0.0, 0.0, 0.0, CORNER_FALL_OFF])
        coef = np.linalg.solve(x0.T @ x0 + prior + 1e-9 * np.eye(4), x0.T @ y + prior @ expected)
        fitted = [gain * float(np.exp(coef[0] + features(place[0]) @ coef[1:])) for place in places]
        strays = y - x0 @ coef
        pairs = [_log_brightness(colour / g) - family.brightness
                 for colour, p, g in zip(colours, preds, fitted, strict=True)
                 if (family := self.family_of(p.label)) is not None]
        shift = float(np.exp(_level(strays, pairs)))
        return [g * shift for g in fitted]

    def reread(self, image: np.ndarray, places: Sequence[Place], preds: Sequence[Prediction],
               labels: Sequence[str]) -> list[Prediction]:
        """The frame's predictions with its brightness-pair dice decided by the frame's light. `labels` are the
        classifier's, in the order of each prediction's `scores`."""
        out = list(preds)
        todo = [k for k, p in enumerate(preds) if self.family_of(p.label) is not None]
        if not todo:
            return out
        colours = self.colours(image, places, preds)
        gamma = self.tone(colours, preds)
        colours = [255 * (np.maximum(c, 1.0) / 255) ** (1 / gamma) if np.all(np.isfinite(c)) else c for c in colours]
        gains = self.gains(colours, preds, places, image.shape)
        for family in self.families:
            dice = [k for k in todo if family.member_of(preds[k].label) is not None]
            if not dice:
                continue
            if gains is None:
                chosen = _groups(family, {k: colours[k] for k in dice})
                for k in dice:
                    member, clear = chosen[k]
                    out[k] = _decided(preds[k], family, member, labels, 1.0) if clear else _doubtful(preds[k])
                continue
            for k in dice:
                if _fits_none(family, colours[k] / gains[k]):
                    out[k] = _doubtful(preds[k])
                    continue
                posterior = _posterior(family, colours[k] / gains[k], preds[k], labels)
                member = int(np.argmax(posterior))
                decided = _decided(preds[k], family, member, labels, float(posterior[member]))
                out[k] = decided if posterior[member] >= SURE else _doubtful(decided)
        return out


def _level(strays: np.ndarray, pairs: Sequence[np.ndarray]) -> float:
    """The frame's light level (log, a shift of the references' fit) at which the references and the pair dice fit
    best together. Each pair die must be one of its family, so its brightness says where the light is as well as a
    reference does, once the references have narrowed the level down to less than the family's steps: the pair
    dice of a frame then pull the level to where each sits on one of its members. `strays`: each reference's
    brightness over the fit; `pairs`: each pair die's brightness over the fit less each member's."""
    if not pairs:
        return 0.0
    levels = np.linspace(-LEVEL_RANGE, LEVEL_RANGE, 161)
    fit = -((strays[None, :] - levels[:, None]) ** 2).sum(axis=1) / (2 * DIE_SPREAD ** 2)
    for offsets in pairs:
        fit += np.log(np.exp(-((offsets[None, :] - levels[:, None]) ** 2) / (2 * DIE_SPREAD ** 2)).sum(axis=1)
                      + 1e-300)
    return float(levels[int(np.argmax(fit))])


def _fits_none(family: Family, colour: np.ndarray) -> bool:
    """The die's corrected brightness is far from every member's (a dark grey die read as light grey, a die whose
    face the crop missed): the frame cannot say what it is."""
    lum = _log_brightness(colour)
    return float(np.abs(lum - family.brightness).min()) > FITS_NONE * SPREAD


def _posterior(family: Family, colour: np.ndarray, pred: Prediction, labels: Sequence[str]) -> np.ndarray:
    """How likely the die is each member of the family: its corrected brightness against each member's reference
    (log-normal, `SPREAD`), times the classifier's belief in that member (its faces' summed probability, to the
    power `CLASSIFIER_WEIGHT`: the picture on a face tells Cubitos' white and grey dice apart where a face has one,
    while on a blank face the classifier's belief is a guess at the light)."""
    lum = _log_brightness(colour)
    score = -((lum - family.brightness) / SPREAD) ** 2 / 2
    if pred.scores:
        index = {x: i for i, x in enumerate(labels)}
        mass = np.array([sum(pred.scores[index[x]] for x in member if x in index) for member in family.members])
        score += CLASSIFIER_WEIGHT * np.log(mass / max(mass.sum(), 1e-12) + 1e-6)
    p = np.exp(score - score.max())
    return p / p.sum()


def _groups(family: Family, colours: dict[int, np.ndarray]) -> dict[int, tuple[int, bool]]:
    """No reference in the frame: the family's dice split by relative brightness where they fall into two clear
    groups, as the two members whose brightness differs most like the groups' (the brighter group the brighter
    member); otherwise nothing is settled."""
    unsure = {k: (0, False) for k in colours}
    if len(colours) < 2:
        return unsure
    lum = sorted((_log_brightness(c), k) for k, c in colours.items())
    steps = [lum[i + 1][0] - lum[i][0] for i in range(len(lum) - 1)]
    cut = int(np.argmax(steps)) + 1
    dim, bright = [x for x, _ in lum[:cut]], [x for x, _ in lum[cut:]]
    apart = float(np.mean(bright) - np.mean(dim))
    refs = family.brightness  # brightest first
    pairs = [(i, j) for i in range(len(refs)) for j in range(i + 1, len(refs))]
    first, second = min(pairs, key=lambda p: abs(refs[p[0]] - refs[p[1]] - apart))
    gap = refs[first] - refs[second]
    narrowest = min(refs[i] - refs[i + 1] for i in range(len(refs) - 1))  # a group must not hold two members
    if steps[cut - 1] < GROUP_GAP * gap or max(dim[-1] - dim[0], bright[-1] - bright[0]) > GROUP_WIDTH * narrowest \
            or abs(apart - gap) > GROUP_MATCH * gap:
        return unsure
    return {k: (second if i < cut else first, True) for i, (_, k) in enumerate(lum)}


def _decided(pred: Prediction, family: Family, member: int, labels: Sequence[str], sure: float) -> Prediction:
    """The prediction as the die type `member`, `sure` the likelihood of that type: the type's likeliest face (the
    read label when it is of that type), as sure as the type times the face's share of the type's probability."""
    if not pred.scores:
        return pred if pred.label in family.members[member] else _doubtful(pred)
    index = {x: i for i, x in enumerate(labels)}
    faces = [(pred.scores[index[x]], x) for x in family.members[member] if x in index]
    total = sum(s for s, _ in faces)
    score, label = max(faces)
    confidence = sure * (score / total if total > 0 else 1.0 / len(faces))
    if label == pred.label:
        return replace(pred, confidence=float(confidence))
    return replace(pred, label=label, confidence=float(confidence), runner_up=(pred.label, pred.confidence))


def _doubtful(pred: Prediction) -> Prediction:
    return replace(pred, confidence=min(pred.confidence, DOUBTFUL))


def _connected(links: list[tuple[str, str]]) -> list[set[str]]:
    groups: list[set[str]] = []
    for a, b in links:
        joined = [g for g in groups if a in g or b in g]
        merged = {a, b}.union(*joined)
        groups = [g for g in groups if g not in joined] + [merged]
    return groups
