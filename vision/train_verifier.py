"""Train the die verifier (`vision.verify`): a tiny net that tells a die's crop from anything else the detector finds.

    python -m vision.train_verifier --scenes 5000 --minutes 40 --data /tmp/verifier.npz --out models/dice_verifier.json
    python bench/rolls.py --real val --sweep-verifier 0.005,0.01,0.02,0.05,0.1,0.2,0.5   # then set the card's threshold

Data, renders only (`vision.synth`, every dice set, the TRAINING surfaces and this trainer's own seeds: never
`bench/rolls.py`'s table seeds, nor the validation or held-out surfaces): game tables (`render_table`: pieces, close and
far dice, and tables between rolls with pieces and no die) and plain trays (touching dice, white dice, hands, shadows,
glare), some on surfaces with printed clutter (`vision.train_detector.clutter`), half through a real camera's look
(`vision.synth.sensor`). And real plastic: the real-d6-tray train photos without their latest fifth (those choose the
threshold, `bench/rolls.py --real val`), when the dataset is there. The shipped detector reads each scene and photo;
every crop is cut as the pipeline cuts it (`vision.segment.crops`):
- dice: the detector's box of each die it finds, and the die's true box (its silhouette, as the detector's boxes
  are drawn, or a photo's label) shifted and scaled a little, for every die, found or not (twice on a photo);
- not dice: what the detector invents (hard negatives: boxes whose centre lies on no die, or on a die but far
  smaller than it, a pip), each piece on the table (`vision.synth.pieces`) whole and a die-sized window of it, the
  pips of close dice, and a die-sized patch of bare surface.

torch is imported lazily (as in `vision.train`): the app runs the exported ONNX file with onnxruntime.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from .card import CARD_FORMAT, Card, CardInput, save_card
from .crops import BOX_MARGIN, CROP_MARGIN
from .detector import LABEL_SCALE, Detector
from .segment import Blob, crops
from .synth import Scene, SceneDie

SIZE = 32
SEED = 81000  # this trainer's scenes: seed + k (bench/rolls.py's tables use 52000-54000 and 62000-64000 onwards)
# what each crop is, for counts and weights: the dice first
KINDS = ("die_found", "die_true", "die_real", "invented", "piece", "pip", "surface")
HARD_WEIGHT = 3.0  # an invented die weighs this many crops of other kinds: they are what the verifier is for
CLOSE_PX = 60  # a die this wide or wider is close to the camera: its pips are cut as negatives
PIP_RATIO = 0.6  # a box on a die but smaller than this share of the die's is a pip or a part, not the die
REAL_COPIES = 2  # jittered boxes per real die: 1,301 dice against some 40,000 rendered ones


def true_blob(die: SceneDie) -> Blob:
    """The box the detector would give a die: the square around its whole silhouette, widened as it widens."""
    pts = np.float32(die.outline or die.box)
    (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
    return box_blob(x0, y0, x1, y1, LABEL_SCALE)


def box_blob(x0: float, y0: float, x1: float, y1: float, scale: float = 1.0) -> Blob:
    """A die's box as the pipeline crops it: the square around it (its side widened by `scale`) at `BOX_MARGIN`."""
    side = max(x1 - x0, y1 - y0) * scale
    box = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return Blob(((x0 + x1) / 2, (y0 + y1) / 2), float(side * BOX_MARGIN / CROP_MARGIN), 0.0, box)


def square(center: tuple[float, float], size: float) -> Blob:
    x, y, h = center[0], center[1], size / 2
    return Blob(
        (float(x), float(y)), float(size), 0.0, ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h))
    )


def on_die(point: tuple[float, float], scene: Scene) -> int | None:
    """The index of the die whose top face holds `point` (as `bench/rolls.score_roll` matches), or None."""
    p = (float(point[0]), float(point[1]))
    return next((k for k, d in enumerate(scene.dice) if cv2.pointPolygonTest(np.float32(d.box), p, False) >= 0), None)


def found_kind(blob: Blob, on: list[Blob]) -> int:
    """A detector's box is a die found when its centre lies on a die (`on`: the dice there) and it is not far
    smaller than that die (a pip or a part); else it is invented."""
    return KINDS.index("die_found" if any(blob.size >= PIP_RATIO * t.size for t in on) else "invented")


def scene_blobs(scene: Scene, found: list[Blob], rng: np.random.Generator) -> list[tuple[Blob, int]]:
    """(box, kind index in KINDS) of every crop one scene gives: see the module's docstring."""
    out: list[tuple[Blob, int]] = []
    truths = [true_blob(d) for d in scene.dice]
    for blob in found:
        k = on_die(blob.center, scene)
        out.append((blob, found_kind(blob, [] if k is None else [truths[k]])))
    out += [(jittered(truth, rng), KINDS.index("die_true")) for truth in truths]
    die = float(np.median([t.size for t in truths])) if truths else 30.0
    for piece in scene.distractors:
        if piece.kind in ("hand", "shadow", "glare"):
            continue
        x0, y0, x1, y1 = piece.box
        centre, side = ((x0 + x1) / 2, (y0 + y1) / 2), max(x1 - x0, y1 - y0)
        out.append((square(centre, side * rng.uniform(0.8, 1.2) / CROP_MARGIN), KINDS.index("piece")))
        if side > 1.5 * die:  # a die-sized window on a card, a phone or a cable
            inside = np.add(centre, rng.uniform(-0.3, 0.3, 2) * side)
            out.append((square(inside, die * rng.uniform(0.8, 1.2)), KINDS.index("piece")))
    for d in scene.dice:
        if d.size >= CLOSE_PX:  # its pips, one by one
            for _ in range(3):
                point = np.add(d.center, rng.uniform(-0.3, 0.3, 2) * d.size)
                out.append((square(point, d.size * rng.uniform(0.12, 0.35)), KINDS.index("pip")))
    h, w = scene.image.shape[:2]
    for _ in range(20):
        point = rng.uniform((die, die), (w - die, h - die))
        near = [t.center for t in truths] + [
            ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in (p.box for p in scene.distractors)
        ]
        if all(np.hypot(*(point - np.asarray(c))) > 1.5 * die for c in near):
            out.append((square(point, die * rng.uniform(0.8, 1.2)), KINDS.index("surface")))
            break
    return out


def jittered(truth: Blob, rng: np.random.Generator) -> Blob:
    """A die's true box shifted and scaled a little, as the detector's boxes stray."""
    shift = rng.uniform(-0.08, 0.08, 2) * truth.size
    return square(np.add(truth.center, shift), truth.size * rng.uniform(0.88, 1.15))


def photo_blobs(truths: list[Blob], found: list[Blob], rng: np.random.Generator) -> list[tuple[Blob, int]]:
    """(box, kind index) of a real photo's crops: the detector's boxes (on a die, or invented) and every labelled
    die `REAL_COPIES` times, jittered."""
    out: list[tuple[Blob, int]] = []
    for blob in found:
        point = (float(blob.center[0]), float(blob.center[1]))
        on = [t for t in truths if cv2.pointPolygonTest(np.float32(t.box), point, False) >= 0]
        out.append((blob, found_kind(blob, on)))
    out += [(jittered(t, rng), KINDS.index("die_real")) for t in truths for _ in range(REAL_COPIES)]
    return out


def real_photos() -> list[Path]:
    """The real-d6-tray train photos that do not choose the threshold (none when the dataset is missing: the
    verifier then learns from renders only)."""
    from .evaluate import IMAGE_SUFFIXES, REAL_D6_TRAY, real_d6_missing_reason
    from .train import TrainConfig, split_by_time

    if real_d6_missing_reason() is not None:
        return []
    images = REAL_D6_TRAY / "train" / "images"
    names, _ = split_by_time([p.name for p in images.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES],
                             TrainConfig().real_val_fraction)
    return [images / name for name in names]


def real_data(detector: Detector, seed: int) -> tuple[list[np.ndarray], list[int]]:
    """(crops, kind indices) of the `real_photos`, each die's true box its label's."""
    from .crops import yolo_boxes

    xs: list[np.ndarray] = []
    kinds: list[int] = []
    for n, path in enumerate(real_photos()):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        label = path.parent.parent / "labels" / f"{path.stem}.txt"
        truths = [box_blob(*box) for _, box in yolo_boxes(label.read_text(encoding="utf-8"), w, h)]
        blobs = photo_blobs(truths, detector.find(image), np.random.default_rng([seed, n, 2]))
        xs += crops(image, [b for b, _ in blobs], (SIZE, SIZE))
        kinds += [kind for _, kind in blobs]
    return xs, kinds


def scene_plan(k: int) -> tuple[str, str]:
    """(dice set, kind) of scene k: the sets in turn, and each set's own scenes three in five a game table with a
    roll (one of `TABLE_KINDS` in turn), one an empty game table (`EMPTY_TABLE`: pieces alone, where all the
    detector finds is invented) and one a plain tray ("plain"), so that every set meets every kind."""
    from .synth import EMPTY_TABLE, TABLE_KINDS, dice_set_names

    sets = dice_set_names()
    kinds = (*TABLE_KINDS, EMPTY_TABLE, "plain")
    return sets[k % len(sets)], kinds[(k // len(sets)) % len(kinds)]


def training_scene(k: int, seed: int) -> tuple[Scene, np.ndarray]:
    """Scene k of the training stream (`scene_plan`) and its picture: a few on printed clutter; half through a
    sampled camera (`vision.synth.sensor`)."""
    from .synth import get_dice_set, render_scene, render_table
    from .synth.backgrounds import TRAINING_BACKGROUNDS, make_background
    from .synth.sensor import develop, sample_sensor
    from .train_detector import clutter

    rng = np.random.default_rng(seed + k)
    dice_set, kind = scene_plan(k)
    width, height = (640, 480) if rng.random() < 0.7 else (640, 640)
    surface = make_background(str(rng.choice(TRAINING_BACKGROUNDS)), height, width, rng)
    if rng.random() < 0.3:
        surface = clutter(surface, float(rng.uniform(22, 48)), rng)
    while True:
        try:
            if kind != "plain":
                scene = render_table(dice_set, rng, kind, width, height, surface=surface)
            else:
                faces = get_dice_set(dice_set).faces
                n = int(rng.choice([1, 2, 3, 5, 8, 12]))
                scene = render_scene(
                    [faces[int(i)] for i in rng.integers(0, len(faces), n)],
                    dice_set,
                    rng,
                    width,
                    height,
                    touching=n >= 2 and rng.random() < 0.5,
                    surface=surface,
                    palette="white" if rng.random() < 0.2 else None,
                    distractors=[d for d in ("hand", "shadow", "glare") if rng.random() < 0.25] if n <= 8 else [],
                )
            break
        except ValueError:  # too many dice for the tray at that size: draw again
            continue
    image = scene.image
    if rng.random() < 0.5:
        image = develop(image.astype(np.float32), sample_sensor(rng), rng)
    return scene, image


def render_data(
    count: int, seed: int, detector: Detector, log=print
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(crops uint8 [N, SIZE, SIZE, 3], die 1 / not 0 [N], kind index [N], scene index [N]) of `count` scenes and
    the real train photos (`real_data`, scene index -1)."""
    xs, kinds, scenes = [], [], []
    started = time.time()
    for k in range(count):
        scene, image = training_scene(k, seed)
        rng = np.random.default_rng([seed, k, 1])
        blobs = scene_blobs(scene, detector.find(image), rng)
        xs += crops(image, [b for b, _ in blobs], (SIZE, SIZE))
        kinds += [kind for _, kind in blobs]
        scenes += [k] * len(blobs)
        if (k + 1) % 100 == 0:
            log(f"  {k + 1}/{count} scenes, {len(xs)} crops, {time.time() - started:.0f} s", flush=True)
    real, real_kinds = real_data(detector, seed)
    xs, kinds, scenes = xs + real, kinds + real_kinds, scenes + [-1] * len(real)
    kind = np.int64(kinds)
    return np.stack(xs), (kind < KINDS.index("invented")).astype(np.int64), kind, np.int64(scenes)


def build_net(widths: tuple[int, int, int] = (16, 32, 64)):
    """Three conv-BN-ReLU stages, each halving the crop, a fourth conv, global average and a 2-way head:
    ~60 k parameters, ~3.5 M multiply-adds per 32x32 crop. Outputs logits [N, 2] (not a die, a die) and the pooled
    features as the card's embedding."""
    import torch
    from torch import nn

    def cbr(i: int, o: int) -> list:
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    a, b, c = widths

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                *cbr(3, a), nn.MaxPool2d(2), *cbr(a, b), nn.MaxPool2d(2), *cbr(b, c), nn.MaxPool2d(2), *cbr(c, c)
            )
            self.head = nn.Linear(c, 2)

        def forward(self, x):
            e = torch.flatten(nn.functional.adaptive_avg_pool2d(self.features(x), 1), 1)
            return self.head(e), e

    return Net()


def to_batch(x: np.ndarray, rng: np.random.Generator | None):
    """uint8 BGR crops -> the card's normalised NCHW tensor; with `rng`, a random quarter turn and mirror, and
    light, contrast and colour changes per crop (a die is a die under all of them)."""
    import torch

    f = x.astype(np.float32)
    if rng is not None:
        n = len(f)
        f = f * rng.uniform(0.7, 1.3, (n, 1, 1, 1)).astype(np.float32) * rng.uniform(0.9, 1.1, (n, 1, 1, 3)).astype(
            np.float32
        ) + rng.uniform(-20, 20, (n, 1, 1, 1)).astype(np.float32)
        f = np.rot90(f, int(rng.integers(4)), axes=(1, 2))
        if rng.random() < 0.5:
            f = f[:, :, ::-1]
    f = (np.clip(f, 0, 255) / 255.0 - 0.5) / 0.25
    return torch.from_numpy(np.ascontiguousarray(f.transpose(0, 3, 1, 2), dtype=np.float32))


def fit(net, x: np.ndarray, y: np.ndarray, weights: np.ndarray, minutes: float, seed: int, log=print) -> int:
    """Adam with a cosine schedule for `minutes` of one thread, weighted cross-entropy; returns the steps taken."""
    import torch

    rng = np.random.default_rng(seed)
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    batch, steps, started = 128, 0, time.time()
    budget = minutes * 60
    net.train()
    while (elapsed := time.time() - started) < budget:
        for group in optimiser.param_groups:
            group["lr"] = 3e-3 * 0.5 * (1 + np.cos(np.pi * min(1.0, elapsed / budget)))
        idx = rng.integers(0, len(x), batch)
        logits, _ = net(to_batch(x[idx], rng))
        loss = (
            torch.nn.functional.cross_entropy(logits, torch.from_numpy(y[idx]), reduction="none")
            * torch.from_numpy(weights[idx])
        ).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        steps += 1
        if steps % 500 == 0:
            log(f"  step {steps}, {elapsed / 60:.1f} min, loss {loss.item():.4f}", flush=True)
    net.eval()
    return steps


def die_probability(net, x: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        return np.concatenate(
            [torch.softmax(net(to_batch(x[i : i + 1024], None))[0], 1)[:, 1].numpy() for i in range(0, len(x), 1024)]
        )


def export(net, path: Path) -> None:
    import torch

    net.eval()
    torch.onnx.export(
        net,
        torch.zeros(1, 3, SIZE, SIZE),
        str(path),
        input_names=["input"],
        output_names=["logits", "embedding"],
        opset_version=17,
        dynamic_axes={"input": {0: "N"}, "logits": {0: "N"}, "embedding": {0: "N"}},
        dynamo=False,
    )


def card(out: Path, trained_on: dict, accuracy: dict) -> Card:
    """A `vision.card` card: the verifier runs through `vision.card.CardModel` like every crop model."""
    spec = CardInput("input", (SIZE, SIZE), "BGR", "NCHW", 1 / 255, (0.5, 0.5, 0.5), (0.25, 0.25, 0.25))
    outputs = {"logits": "logits", "embedding": "embedding"}
    return Card(
        out, out.stem, "all", CARD_FORMAT, f"{out.stem}.onnx", ("no_die", "die"), spec, outputs, trained_on, accuracy
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=2000, help="rendered training scenes (default 2000)")
    parser.add_argument("--minutes", type=float, default=12.0, help="training time on one thread")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--threshold", type=float, default=0.5, help="die probability kept (choose it on validation)")
    parser.add_argument("--data", type=Path, help="cache of the rendered crops (.npz): made if missing")
    parser.add_argument("--out", type=Path, default=Path("models/dice_verifier.json"))
    args = parser.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    from .detector import DEFAULT_MODEL

    detector = Detector.load(DEFAULT_MODEL)
    scenes, scene_seed = args.scenes, args.seed
    if args.data is not None and args.data.is_file():  # the card names the scenes the cache was rendered from
        data = np.load(args.data)
        if "seed" not in data:  # rendered before caches kept their seed: the card could not name its scenes
            parser.error(f"{args.data} does not say which seed its scenes were rendered with: render it again "
                         "(--data with a new file name)")
        x, y, kind, scene = data["x"], data["y"], data["kind"], data["scene"]
        scenes, scene_seed = int(scene.max()) + 1, int(data["seed"])
    else:
        started = time.time()
        x, y, kind, scene = render_data(args.scenes, args.seed, detector)
        print(f"rendered {len(x)} crops from {args.scenes} scenes in {time.time() - started:.0f} s")
        if args.data is not None:
            np.savez(args.data, x=x, y=y, kind=kind, scene=scene, seed=args.seed)
    counts = {name: int((kind == i).sum()) for i, name in enumerate(KINDS)}
    print("crops:", counts)
    held = scene >= int(scene.max() * 0.9)  # the last tenth of the scenes watch the training
    weights = np.where(kind == KINDS.index("invented"), HARD_WEIGHT, 1.0).astype(np.float32)
    net = build_net()
    started = time.time()
    steps = fit(net, x[~held], y[~held], weights[~held], args.minutes, args.seed)
    train_minutes = (time.time() - started) / 60
    p = die_probability(net, x[held])
    at = p >= args.threshold
    watch = {
        name: round(float(np.mean(at[kind[held] == i] == (i < KINDS.index("invented")))), 4)
        for i, name in enumerate(KINDS)
        if (kind[held] == i).any()
    }
    print(f"{steps} steps in {train_minutes:.1f} min; right at {args.threshold} on the last tenth of scenes: {watch}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    onnx_path = args.out.with_suffix(".onnx")
    export(net, onnx_path)
    trained_on = {
        "note": "The die verifier (vision.verify): reads each box the dice detector finds and keeps the dice. Not a "
        "face classifier: one model for every dice set.",
        "synthetic": {
            "renderer": "vision.synth game tables and plain trays, every dice set, half through vision.synth.sensor",
            "scenes": scenes,
            "seed": scene_seed,
            "surfaces": "TRAINING_BACKGROUNDS (vision.synth.backgrounds), a third with printed clutter",
            "licence": "rendered by this project's own code (vision.synth, MIT); no third-party images",
        },
        "real": {
            "dataset": "real-d6-tray (nell-byler/dice_detection, BSD-3-Clause)",
            "split": "train, without its latest fifth by capture time (bench/rolls.py --real val chooses on those)",
            "photos": len(real_photos()) if counts["die_real"] else 0,
            "crops": f"each labelled die {REAL_COPIES} times jittered, and the detector's boxes on the photos",
        },
        "crops": counts,
        "hard_negatives": f"what {DEFAULT_MODEL.name} invents on these scenes and photos, weighted {HARD_WEIGHT:g}",
        "command": "python -m vision.train_verifier " + " ".join(sys.argv[1:] if argv is None else argv),
        "fit_seed": args.seed,
        "torch": torch.__version__,
        "parameters": int(sum(p.numel() for p in net.parameters())),
        "steps": steps,
        "train_minutes": round(train_minutes, 1),
    }
    accuracy = {"threshold": args.threshold, "right_on_last_tenth_of_training_scenes": watch}
    save_card(card(args.out, trained_on, accuracy))
    print(f"wrote {onnx_path} ({onnx_path.stat().st_size / 1024:.0f} KiB) and {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
