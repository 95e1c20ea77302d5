"""Whole tray scenes: several dice, their empty tray, optional hand / shadow / glare distractors and game pieces.

Scenes feed the segmentation and pipeline tests and the demo camera; every die's true geometry is returned so a
test can compare what segmentation found with what was drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .backgrounds import make_background
from .dice_sets import get_dice_set
from .die import DiePose, paint_die, paint_shadow, sample_look
from .effects import Lighting, add_glare, camera, light_field, sample_lighting
from .pieces import PIECES, paint_piece, place_piece
from .sensor import develop, sample_sensor

DISTRACTORS = ("hand", "shadow", "glare", *PIECES)
TABLE_KINDS = ("pieces", "close", "far")  # what `render_table` sets on a game table with a roll on it
EMPTY_TABLE = "empty"  # `render_table`'s table between rolls: game pieces and no die


@dataclass(frozen=True)
class SceneDie:
    """Ground truth for one die: the top face as the camera sees it (see `vision.synth.die.DiePose`)."""

    label: str
    center: tuple[float, float]
    box: list[tuple[float, float]]  # the 4 corners of the top face's rotated rectangle
    size: float  # side in px
    angle: float  # degrees, 0..90, image x right / y down
    outline: list[tuple[float, float]] = field(default_factory=list)  # whole visible silhouette (top + sides)


@dataclass(frozen=True)
class SceneDistractor:
    kind: str  # one of DISTRACTORS
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 (may extend beyond the image)


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8 HxWx3
    empty: np.ndarray  # the same tray and light without dice or distractors (independent sensor noise)
    dice: list[SceneDie]
    distractors: list[SceneDistractor] = field(default_factory=list)
    lighting: Lighting | None = None


def _parallax(center: np.ndarray, side: float, width: int, height: int, tilt: float) -> tuple[float, float]:
    rel = (center - (width / 2, height / 2)) / (max(width, height) / 2)
    return (float(rel[0] * tilt * side), float(rel[1] * tilt * side))


def _hand_region(rng: np.random.Generator, width: int, height: int) -> tuple[np.ndarray, float, np.ndarray]:
    """Where a hand reaches in: (palm centre, palm radius, unit direction into the image)."""
    edge = int(rng.integers(4))
    r = min(width, height) * rng.uniform(0.13, 0.18)
    if edge == 0:
        c, d = np.array([rng.uniform(0.2, 0.8) * width, r * 0.6]), np.array([0.0, 1.0])
    elif edge == 1:
        c, d = np.array([width - r * 0.6, rng.uniform(0.2, 0.8) * height]), np.array([-1.0, 0.0])
    elif edge == 2:
        c, d = np.array([rng.uniform(0.2, 0.8) * width, height - r * 0.6]), np.array([0.0, -1.0])
    else:
        c, d = np.array([r * 0.6, rng.uniform(0.2, 0.8) * height]), np.array([1.0, 0.0])
    return c, r, d


def _paint_hand(
    image: np.ndarray, palm: np.ndarray, r: float, d: np.ndarray, rng: np.random.Generator, lighting: Lighting
) -> tuple[float, float, float, float]:
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.float32)
    ang = float(np.degrees(np.arctan2(d[1], d[0])))
    cv2.ellipse(mask, (int(palm[0]), int(palm[1])), (int(r * 0.9), int(r * 0.8)), ang, 0, 360, 1.0, -1)
    arm_end = palm - d * max(w, h)
    cv2.line(mask, (int(palm[0]), int(palm[1])), (int(arm_end[0]), int(arm_end[1])), 1.0, int(r * 1.3))
    n = np.array([-d[1], d[0]])
    for k, off in enumerate((-0.55, -0.2, 0.15, 0.5)):
        length = r * (0.9 + 0.25 * (k in (1, 2)))
        base = palm + d * r * 0.5 + n * off * r
        tip = base + d * length + n * off * r * 0.2
        cv2.line(mask, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), 1.0, max(3, int(r * 0.28)))
    thumb = palm + n * r * 0.9
    cv2.line(
        mask,
        (int(palm[0]), int(palm[1])),
        (int(thumb[0] + d[0] * r * 0.5), int(thumb[1] + d[1] * r * 0.5)),
        1.0,
        max(3, int(r * 0.3)),
    )
    # the hand's own soft shadow, then the hand
    shift = np.float32([[1, 0, lighting.direction[0] * r * 0.4], [0, 1, lighting.direction[1] * r * 0.4]])
    shadow = cv2.GaussianBlur(cv2.warpAffine(mask, shift, (w, h)), (0, 0), r * 0.25)
    image *= (1 - 0.4 * shadow)[..., None]
    red = rng.uniform(170, 230)
    skin = np.array([red * rng.uniform(0.5, 0.65), red * rng.uniform(0.68, 0.8), red], np.float32)
    soft = cv2.GaussianBlur(mask, (0, 0), 1.2)
    shade = 0.85 + 0.15 * cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), r * 0.3) * 3
    image *= (1 - soft)[..., None]
    image += (soft * np.clip(shade, 0.6, 1.2))[..., None] * skin
    ys, xs = np.nonzero(mask > 0.5)
    return (float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()))


def render_scene(
    labels: list[str],
    dice_set: str,
    rng: np.random.Generator,
    width: int = 640,
    height: int = 480,
    *,
    touching: bool = False,
    background: str | None = None,
    die_px: int | None = None,
    distractors: list[str] | None = None,
    tilt: float | None = None,
    lighting: Lighting | None = None,
    palette: str | None = None,
    surface: np.ndarray | None = None,
    sensor: bool = False,
) -> Scene:
    """A tray with one die per label, fully inside the image and not overlapping.

    touching: the first two dice are placed edge to edge (same angle, sharing an edge).
    distractors: any of DISTRACTORS ("hand", "shadow", "glare" and the game pieces of `vision.synth.pieces`, each
    kind as often as it is listed): things segmentation must not take for dice.
    tilt: how far the top faces shift outwards at the image edge, in die sides (camera parallax; random).
    palette: the body colour of every die whose set lets it choose (a die type with its own colour keeps it).
    surface: a tray already made (`make_background`, float32 BGR, height x width) instead of a new one of
    `background`: a camera's one tray under roll after roll (`vision.sources.SyntheticSource`).
    sensor: the whole frame through one sampled camera's look (`vision.synth.sensor`), as the crops of a recipe with
    `TrainConfig.sensor` are; its blur, noise and JPEG replace the plain ones.
    """
    ds = get_dice_set(dice_set)
    for label in labels:
        ds.check_label(label)
    for kind in distractors or []:
        if kind not in DISTRACTORS:
            raise ValueError(f"unknown distractor {kind!r}; choose from {DISTRACTORS}")
    if touching and len(labels) < 2:
        raise ValueError("touching=True needs at least two dice")
    light = lighting if lighting is not None else sample_lighting(rng, noise=float(rng.uniform(0, 3)))
    base_px = float(die_px) if die_px is not None else float(rng.uniform(28, 44))
    tilt = float(rng.uniform(0, 0.3)) if tilt is None else tilt

    # distractor regions first, so dice avoid the hand and the glare spot
    blocked: list[tuple[np.ndarray, float]] = []
    hand = None
    if "hand" in (distractors or []):
        hand = _hand_region(rng, width, height)
        blocked.append((hand[0], hand[1] * 1.6))
        blocked.append((hand[0] + hand[2] * hand[1] * 1.4, hand[1] * 1.1))
    glare = None
    if "glare" in (distractors or []):
        g = np.array([rng.uniform(0.15, 0.85) * width, rng.uniform(0.15, 0.85) * height])
        gr = float(rng.uniform(12, 30))
        glare = (g, gr)
        blocked.append((g, gr * 2))

    pieces = [place_piece(kind, rng, width, height, base_px) for kind in distractors or [] if kind in PIECES]
    blocked += [(np.asarray(piece.center), piece.radius) for piece in pieces]

    poses: list[DiePose] = []

    def fits(pose: DiePose, ignore: int | None = None) -> bool:
        outline = pose.silhouette()
        if outline.min() < 2 or outline[:, 0].max() > width - 3 or outline[:, 1].max() > height - 3:
            return False
        c = np.asarray(pose.center)
        for i, other in enumerate(poses):
            if i != ignore and np.hypot(*(c - other.center)) < pose.radius() + other.radius() + 2:
                return False
        return all(np.hypot(*(c - bc)) >= br + pose.radius() for bc, br in blocked)

    for i, _label in enumerate(labels):
        side = base_px * float(rng.uniform(0.96, 1.04))
        for _ in range(3000):
            angle = float(rng.uniform(0, 90))
            if touching and i == 1:
                first = poses[0]
                side = first.side
                a = np.deg2rad(first.angle + 90 * int(rng.integers(4)))
                along = float(rng.uniform(-0.3, 0.3)) * side
                offset = np.array([np.cos(a), np.sin(a)]) * side + np.array([-np.sin(a), np.cos(a)]) * along
                c = np.asarray(first.center) + offset
                angle = first.angle
            else:
                c = np.array([rng.uniform(0, width), rng.uniform(0, height)])
            pose = DiePose((float(c[0]), float(c[1])), side, angle, _parallax(c, side, width, height, tilt))
            if fits(pose, ignore=0 if (touching and i == 1) else None):
                poses.append(pose)
                break
        else:
            raise ValueError(f"cannot place {len(labels)} dice of {side:.0f} px in {width}x{height} without overlap")

    bg = surface if surface is not None else make_background(background, height, width, rng)
    image = bg.copy()
    found: list[SceneDistractor] = [SceneDistractor(piece.kind, paint_piece(image, piece, rng)) for piece in pieces]
    for pose in poses:
        paint_shadow(image, pose, light)
    order = sorted(
        range(len(poses)), key=lambda k: -np.hypot(poses[k].center[0] - width / 2, poses[k].center[1] - height / 2)
    )
    for k in order:
        label = labels[k]
        look = sample_look(ds, label, rng, palette=palette)
        sides, bottom = ds.side_symbols(label, rng)
        symbols = ds.symbols[label]
        paint_die(image, poses[k], look, symbols[int(rng.integers(len(symbols)))], sides, light, rng, bottom)

    if hand is not None:
        found.append(SceneDistractor("hand", _paint_hand(image, hand[0], hand[1], hand[2], rng, light)))
    field_ = light_field(light, height, width)
    image *= field_
    empty = bg * field_
    if "shadow" in (distractors or []):
        mask = np.zeros((height, width), np.float32)
        c = (int(rng.uniform(0.2, 0.8) * width), int(rng.uniform(0.2, 0.8) * height))
        axes = (int(rng.uniform(0.15, 0.3) * width), int(rng.uniform(0.08, 0.15) * height))
        cv2.ellipse(mask, c, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), min(axes) * 0.3)
        image *= (1 - float(rng.uniform(0.3, 0.5)) * mask)[..., None]
        r = max(axes)
        found.append(SceneDistractor("shadow", (float(c[0] - r), float(c[1] - r), float(c[0] + r), float(c[1] + r))))
    if glare is not None:
        g, gr = glare
        add_glare(image, (g[0], g[1]), (gr, gr * 0.6), float(rng.uniform(0, 180)), float(rng.uniform(0.7, 0.95)))
        found.append(SceneDistractor("glare", (float(g[0] - gr), float(g[1] - gr), float(g[0] + gr), float(g[1] + gr))))

    if sensor:
        light = replace(light, blur=0.0, noise=0.0, jpeg=0)
        look = sample_sensor(rng)
        out, empty_out = develop(image, look, rng), develop(empty, look, rng)
    else:
        out, empty_out = camera(image, light, rng), camera(empty, light, rng)
    dice = []
    for label, pose in zip(labels, poses, strict=True):
        corners = pose.top_corners()
        dice.append(
            SceneDie(
                label=label,
                center=pose.center,
                box=[(float(x), float(y)) for x, y in corners],
                size=pose.side,
                angle=pose.angle % 90,
                outline=[(float(x), float(y)) for x, y in pose.silhouette()],
            )
        )
    return Scene(image=out, empty=empty_out, dice=dice, distractors=found, lighting=light)


def render_table(
    dice_set: str,
    rng: np.random.Generator,
    kind: str,
    width: int = 640,
    height: int = 480,
    *,
    background: str | None = None,
    surface: np.ndarray | None = None,
    sensor: bool = False,
) -> Scene:
    """A game table rather than an empty tray (issue 38), one of `TABLE_KINDS`: "pieces", 2-4 game pieces
    (`vision.synth.pieces`: number tokens, cards, meeples, coins, a phone, a cable) among 1-5 dice; "close", one or
    two dice close to the camera (96-128 px, about a fifth of a 640 px frame) beside a token or a coin; "far", 3-8
    far dice (12-16 px) among pieces; or `EMPTY_TABLE`, 2-4 pieces and no die, which moving pieces show the camera
    between rolls. No cube that is not the game's: the one detector serves every set, and in Automobiles plain
    cubes are the dice. `sensor`: through a camera's look, as `render_scene`'s."""
    if kind not in (*TABLE_KINDS, EMPTY_TABLE):
        raise ValueError(f"unknown table kind {kind!r}; choose from {(*TABLE_KINDS, EMPTY_TABLE)}")
    faces = get_dice_set(dice_set).faces
    if kind == "close":
        n, die_px = int(rng.integers(1, 3)), int(rng.integers(96, 129))
        pieces = [str(rng.choice(["token", "square_token", "coin"]))]
    else:
        n = 0 if kind == EMPTY_TABLE else int(rng.integers(1, 6)) if kind == "pieces" else int(rng.integers(3, 9))
        die_px = int(rng.integers(12, 17)) if kind == "far" else None
        pieces = [str(p) for p in rng.choice(PIECES, int(rng.integers(2, 5)))]
    labels = [faces[int(i)] for i in rng.integers(0, len(faces), n)]
    return render_scene(
        labels, dice_set, rng, width, height, background=background, die_px=die_px, distractors=pieces, surface=surface,
        sensor=sensor,
    )
