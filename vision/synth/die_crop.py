"""Training crops: one die rendered on a small patch of tray and cut out as segmentation would cut it.

Two ways of cutting, both used in training because both reach the classifier:
- "rotated": the CROP CONVENTION (`vision.crops.rotated_crop`): centred, die edges axis-aligned, side 1.2 x die,
  a random quarter turn; with `jitter` the centre, side and angle wobble as a real segmenter's would.
- "box": an axis-aligned square around the whole visible die, as the app cuts the detector's boxes (and the real
  dataset's labels), so the die may sit rotated inside it.
"""

from __future__ import annotations

import numpy as np

from ..crops import BOX_MARGIN, CROP_MARGIN, rotated_crop
from .backgrounds import make_background
from .dice_sets import get_dice_set
from .die import DiePose, paint_die, paint_shadow, sample_look
from .effects import camera, sample_lighting
from .sensor import develop, sample_sensor

CROP_MODES = ("rotated", "box")
APP_BOX = 1.075  # the detector's box side over a rendered die's silhouette side (median)


def render_die(label: str, dice_set: str, rng: np.random.Generator, size: int = 64, **style: object) -> np.ndarray:
    """A BGR uint8 size x size crop of one die showing `label` on top.

    style (all optional, random when absent): die_px (side in camera px, 24-46), palette (a registry palette
    name), background ("felt", "wood", "paper", "plastic"), tilt (parallax in die sides), angle (degrees),
    glare (bool), hard (bool light), blur (sigma), noise (sigma), jpeg (quality, 0 = off), gain (exposure) and tint
    (BGR white balance, e.g. (1, 1, 1)): one table's camera, locked,
    crop ("rotated" or "box"), jitter (bool, default True), neighbour (bool: part of another die in view),
    sensor (bool, default False: a phone's or webcam's own look on top, `vision.synth.sensor`; its blur, noise and
    JPEG replace the plain ones).
    """
    ds = get_dice_set(dice_set)
    ds.check_label(label)
    unknown = set(style) - {"die_px", "palette", "background", "tilt", "angle", "glare", "hard", "blur", "noise",
                            "jpeg", "gain", "tint", "crop", "jitter", "neighbour", "sensor"}
    if unknown:
        raise TypeError(f"render_die: unknown style keys {sorted(unknown)}")
    side = float(style.get("die_px") or rng.uniform(24, 46))
    tilt = float(style["tilt"]) if "tilt" in style else float(rng.uniform(0, 0.45))
    angle = float(style["angle"]) if "angle" in style else float(rng.uniform(0, 90))
    crop_mode = str(style.get("crop") or CROP_MODES[int(rng.integers(2))])
    if crop_mode not in CROP_MODES:
        raise ValueError(f"crop must be one of {CROP_MODES}, got {crop_mode!r}")
    jitter = bool(style.get("jitter", True))
    sensor = bool(style.get("sensor", False))
    overrides = {k: style[k] for k in ("hard", "blur", "noise", "jpeg", "gain", "tint") if k in style}
    if sensor:
        overrides = {"blur": 0.0, "noise": 0.0, "jpeg": 0, **overrides}
    light = sample_lighting(rng, **overrides)

    n = int(np.ceil(side * 3.2))
    canvas = make_background(style.get("background"), n, n, rng)  # type: ignore[arg-type]
    c = np.array([n / 2, n / 2]) + rng.uniform(-0.5, 0.5, 2)
    t = rng.uniform(0, 2 * np.pi)
    pose = DiePose((float(c[0]), float(c[1])), side, angle, (float(np.cos(t) * tilt * side),
                                                             float(np.sin(t) * tilt * side)))
    poses = [(pose, label)]
    if style.get("neighbour", rng.random() < 0.15):
        a = np.deg2rad(angle + 90 * int(rng.integers(4)))
        gap = float(rng.uniform(1.0, 1.5)) * side + np.hypot(*pose.parallax)
        slide = float(rng.uniform(-0.6, 0.6)) * side
        oc = c + np.array([np.cos(a), np.sin(a)]) * gap + np.array([-np.sin(a), np.cos(a)]) * slide
        other = DiePose((float(oc[0]), float(oc[1])), side * float(rng.uniform(0.9, 1.1)), float(rng.uniform(0, 90)),
                        pose.parallax)
        poses.append((other, ds.labels[int(rng.integers(len(ds.labels)))]))
    for p, _ in poses:
        paint_shadow(canvas, p, light)
    for p, lab in poses[::-1]:
        look = sample_look(ds, lab, rng, palette=style.get("palette") if p is pose else None,  # type: ignore[arg-type]
                           glare=style.get("glare"))  # type: ignore[arg-type]
        sides, bottom = ds.side_symbols(lab, rng, varied=False)
        syms = ds.symbols[lab]
        paint_die(canvas, p, look, syms[int(rng.integers(len(syms)))], sides, light, rng, bottom)
    canvas *= light.gain * np.asarray(light.tint, np.float32)
    image = develop(canvas, sample_sensor(rng), rng) if sensor else camera(canvas, light, rng)

    if crop_mode == "rotated":
        centre, crop_side, crop_angle, margin = pose.center, side, angle, CROP_MARGIN
        if jitter:
            centre = (centre[0] + rng.normal(0, 0.04) * side, centre[1] + rng.normal(0, 0.04) * side)
            crop_side = side * float(rng.uniform(0.92, 1.1))
            crop_angle = angle + float(rng.normal(0, 4))
        return rotated_crop(image, centre, crop_side, crop_angle, size, margin=margin,
                            quarter_turns=int(rng.integers(4)))
    outline = pose.silhouette()
    x0, y0 = outline.min(0)
    x1, y1 = outline.max(0)
    # as the app cuts a die the detector found: its box (0.98-1.16 of the silhouette's side on rendered scenes,
    # p10-p90 of the shipped detector's) at BOX_MARGIN, drawn a little wider on both sides
    box_side = max(x1 - x0, y1 - y0) * (float(rng.uniform(0.95, 1.2)) if jitter else APP_BOX)
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    if jitter:
        centre = (centre[0] + rng.normal(0, 0.04) * box_side, centre[1] + rng.normal(0, 0.04) * box_side)
    return rotated_crop(image, centre, box_side, 0.0, size, margin=BOX_MARGIN, quarter_turns=int(rng.integers(4)))
