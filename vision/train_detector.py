"""Train the dice detector (`vision.detector`): a small fully-convolutional net that marks every die's centre.

    python -m vision.train_detector --minutes 25 --out models/dice_detector.onnx
    python -m vision.train_detector --init-from models/dice_detector.onnx --lr 1e-3 ...   # train it further

Data: the real-d6-tray TRAIN photos without the latest fifth by photo time (`bench/rolls.py --real val` chooses
on those), their YOLO boxes as targets; and scenes rendered by `vision.synth` for every dice set on the TRAINING
surfaces only (the validation ones choose, the held-out ones report: `bench/rolls.py`), with white dice on pale
surfaces, touching pairs, hands, shadows and glare (the last three as things that are no die). With
`--mine-from` an earlier detector's mistakes on more rendered training scenes are trained on as hard examples
(`mine`). Each die's target is a Gaussian at its centre in a heat map at 1/4 of the work resolution, with its
box size and the centre's sub-cell offset (CenterNet). torch is imported lazily: the app runs the exported ONNX
file with onnxruntime.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from .crops import yolo_boxes
from .detector import STRIDE, WH_UNIT, Detector, work_scale
from .evaluate import REAL_D6_TRAY

VAL_FRACTION = 0.2  # the latest fifth of the real train photos: bench/rolls.py --real val
CROP = 128  # training crops, work pixels


def real_split(root: Path = REAL_D6_TRAY) -> tuple[list[str], list[str]]:
    names = sorted(p.name for p in (root / "train" / "images").glob("*.jpg"))  # names carry the capture time
    n_val = max(1, int(round(len(names) * VAL_FRACTION)))
    return names[:-n_val], names[-n_val:]


def load_real(names: list[str], root: Path = REAL_D6_TRAY) -> list[tuple[np.ndarray, np.ndarray]]:
    """(work image, boxes [N, 4] x0 y0 x1 y1 in work pixels) per photo."""
    out = []
    for name in names:
        image = cv2.imread(str(root / "train" / "images" / name), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        s = work_scale(w)
        boxes = yolo_boxes((root / "train" / "labels" / f"{Path(name).stem}.txt").read_text(), w, h)
        small = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        out.append((small, np.float32([b for _, b in boxes]).reshape(-1, 4) * s))
    return out


def clutter(surface: np.ndarray, die_px: float, rng: np.random.Generator) -> np.ndarray:
    """Things on a table that are no dice, painted flat on the surface before the dice are: cards and boards larger
    than a die, coins, and printed boards' spaces as outlines. No flat square of a die's size: a plain cube
    (Automobiles) or a blank face (Cubitos) is a die told from a printed square only by its sides and shadow, and a
    detector taught that plain squares are clutter missed most cubes."""
    h, w = surface.shape[:2]
    out = surface.copy()
    for _ in range(int(rng.integers(1, 12))):
        colour = rng.uniform(0, 255, 3)
        centre = rng.uniform(0, 1, 2) * (w, h)
        side = die_px * rng.uniform(0.4, 1.6)
        kind = rng.random()
        if kind < 0.45:  # a card or a board piece: larger than a die, often with a rim or a print
            long = die_px * rng.uniform(1.8, 4.5)
            rect = (tuple(centre), (long, long * rng.uniform(0.55, 0.8)), rng.uniform(0, 90))
            pts = cv2.boxPoints(rect).astype(np.int32)
            cv2.fillPoly(out, [pts], colour.tolist(), cv2.LINE_AA)
            if rng.random() < 0.5:
                rim = np.clip(colour * rng.uniform(0.4, 1.6), 0, 255)
                cv2.polylines(out, [pts], True, rim.tolist(), int(rng.integers(1, 4)), cv2.LINE_AA)
        elif kind < 0.75:  # a coin: a metal disc with a rim and a soft highlight
            metal = np.asarray([(150, 150, 150), (60, 150, 190), (70, 110, 160)][int(rng.integers(3))], np.float32)
            r = int(side / 2)
            cv2.circle(out, tuple(int(v) for v in centre), r, (metal * rng.uniform(0.7, 1.2)).tolist(), -1, cv2.LINE_AA)
            cv2.circle(out, tuple(int(v) for v in centre), r, (metal * 0.6).tolist(), max(1, r // 6), cv2.LINE_AA)
        else:  # a printed board's spaces: a row or grid of outlined squares
            n = int(rng.integers(2, 5))
            angle = rng.uniform(0, np.pi / 2)
            step = side * rng.uniform(1.0, 1.6)
            ux, uy = np.cos(angle), np.sin(angle)
            for i in range(n):
                for j in range(n if rng.random() < 0.5 else 1):
                    c = centre + step * np.array([i * ux - j * uy, i * uy + j * ux])
                    pts = cv2.boxPoints((tuple(c), (side, side), np.degrees(angle))).astype(np.int32)
                    cv2.polylines(out, [pts], True, colour.tolist(), int(rng.integers(1, 3)), cv2.LINE_AA)
    return out


def vary(surface: np.ndarray, rng: np.random.Generator, surfaces: tuple[str, ...]) -> np.ndarray:
    """A training surface made less like the few the renderer knows: blended with another training surface through
    soft blotches of any size (a mottled or patched tray), and/or its colours turned (channel gains, a gamma, its
    contrast squeezed or stretched: grey stone, washed-out cloth). Only training surfaces are ever drawn."""
    from .synth.backgrounds import make_background

    h, w = surface.shape[:2]
    out = surface.astype(np.float32)
    if rng.random() < 0.5:
        other = make_background(str(rng.choice(list(surfaces))), h, w, rng).astype(np.float32)
        cells = int(rng.integers(2, 24))
        noise = cv2.resize(
            rng.standard_normal((max(2, h * cells // w), cells)).astype(np.float32),
            (w, h),
            interpolation=cv2.INTER_CUBIC,
        )
        mask = np.clip((noise - rng.uniform(-0.8, 0.8)) * rng.uniform(1.0, 8.0) + 0.5, 0, 1)[..., None]
        out = out * (1 - mask) + other * mask
    if rng.random() < 0.7:
        mean = out.mean(axis=(0, 1))
        out = mean + (out - mean) * rng.uniform(0.4, 1.6)
        out = out * rng.uniform(0.75, 1.25, 3).astype(np.float32)
        out = 255.0 * (np.clip(out, 0, 255) / 255.0) ** rng.uniform(0.6, 1.6)
    return np.clip(out, 0, 255).astype(surface.dtype)


def render(
    count: int,
    seed: int,
    surfaces: tuple[str, ...] | None = None,
    varied: float = 0.0,
    table: float = 0.0,
    camera_look: float = 0.0,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Rendered scenes at work scale with the boxes of the dice's whole silhouettes; half have clutter; a fraction
    `varied` on surfaces changed by `vary`; a fraction `table` are game tables (`vision.synth.render_table`: game
    pieces as things that are no dice, dice close to the camera and far ones), made as `bench/rolls.py --table`
    makes them but from these seeds and surfaces; a fraction `camera_look` through a sampled real camera's look
    (`vision.synth.sensor`), as the classifiers of the sets trained through it see their rolls."""
    from .synth import TABLE_KINDS, dice_set_names, get_dice_set, render_scene, render_table
    from .synth.backgrounds import TRAINING_BACKGROUNDS, make_background

    surfaces = surfaces or TRAINING_BACKGROUNDS
    sets = dice_set_names()
    out = []
    for k in range(count):
        rng = np.random.default_rng(seed + k)
        ds = get_dice_set(sets[k % len(sets)])
        n = int(rng.choice([1, 2, 3, 4, 5, 6, 8, 10, 14, 20]))
        labels = [ds.faces[int(i)] for i in rng.integers(0, len(ds.faces), n)]
        width, height = (640, 480) if rng.random() < 0.7 else (640, 640)
        kind = rng.random()
        pale = kind < 0.25
        pales = [k for k in ("paper", "plastic", "terrazzo", "tiles") if k in surfaces] or list(surfaces)
        background = str(rng.choice(pales if pale else list(surfaces)))
        distractors = [d for d in ("hand", "shadow", "glare") if rng.random() < 0.25] if n <= 10 else []
        die_px = float(rng.uniform(22, 48))
        surface = make_background(background, height, width, rng)
        if varied and rng.random() < varied:
            surface = vary(surface, rng, surfaces)
        if rng.random() < 0.5:
            surface = clutter(surface, die_px, rng)
        sensor = bool(camera_look) and rng.random() < camera_look
        try:
            if table and rng.random() < table:
                scene = render_table(
                    ds.name, rng, TABLE_KINDS[int(rng.integers(3))], width, height, surface=surface, sensor=sensor
                )
            else:
                scene = render_scene(
                    labels,
                    ds.name,
                    rng,
                    width,
                    height,
                    touching=n >= 2 and rng.random() < 0.5,
                    surface=surface,
                    die_px=die_px,
                    palette="white" if pale and rng.random() < 0.7 else None,
                    distractors=distractors,
                    sensor=sensor,
                )
        except ValueError:  # too many dice for the tray at that size
            continue
        s = work_scale(width)
        boxes = []
        for d in scene.dice:
            pts = np.float32(d.outline or d.box)
            x0, y0 = pts.min(axis=0)
            x1, y1 = pts.max(axis=0)
            boxes.append((x0, y0, x1, y1))
        small = cv2.resize(scene.image, (round(width * s), round(height * s)), interpolation=cv2.INTER_AREA)
        out.append((small, np.float32(boxes).reshape(-1, 4) * s))
    return out


def mine(
    detector: Detector, count: int, seed: int, camera_look: float = 0.0
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Hard examples: rendered scenes on the TRAINING surfaces where `detector` invents a die or misses one, each
    with those points (work px). Training crops are then centred on them, so the steps go where the net is wrong
    (a tray pattern it takes for dice) rather than to the plain tray it already gets right."""
    out = []
    for image, boxes in render(count, seed, camera_look=camera_look):
        found = np.float32([b.center for b in detector.find(image)]).reshape(-1, 2)
        x, y = found[:, :1], found[:, 1:]
        hits = (x >= boxes[:, 0]) & (x <= boxes[:, 2]) & (y >= boxes[:, 1]) & (y <= boxes[:, 3])  # [found, dice]
        centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], axis=1)
        points = np.concatenate([found[~hits.any(axis=1)], centres[~hits.any(axis=0)]])
        if len(points):
            out.append((image, boxes, points))
    return out


def targets(boxes: np.ndarray, size: int) -> np.ndarray:
    """[5, size/STRIDE, size/STRIDE]: heat, box w and h (WH_UNIT work px), centre offset x and y in its cell."""
    g = size // STRIDE
    t = np.zeros((5, g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        if not (0 <= cx < g and 0 <= cy < g):
            continue
        sigma = max(0.5, min(x1 - x0, y1 - y0) / STRIDE / 5)
        t[0] = np.maximum(t[0], np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma * sigma)))
        i, j = int(cy), int(cx)
        t[0, i, j] = 1.0
        t[1:, i, j] = ((x1 - x0) / WH_UNIT, (y1 - y0) / WH_UNIT, cx - j, cy - i)
    return t


def sample(
    item: tuple[np.ndarray, np.ndarray], rng: np.random.Generator, near: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """A CROP x CROP piece at a random scale, turn and flip, with colour, blur and noise changes; centred within
    CROP / 4 of the point `near` (work px) when given, else anywhere."""
    image, boxes = item
    s = float(np.exp(rng.uniform(np.log(0.75), np.log(1.3))))
    h, w = image.shape[:2]
    if near is None:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    else:
        cx, cy = np.asarray(near, np.float64) + rng.uniform(-CROP / 4, CROP / 4, 2)
    m = np.float32([[s, 0, CROP / 2 - s * cx], [0, s, CROP / 2 - s * cy]])
    border = tuple(int(v) for v in image[int(rng.integers(h)), int(rng.integers(w))])
    crop = cv2.warpAffine(
        image, m, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border
    )
    b = boxes * s + np.float32([m[0, 2], m[1, 2], m[0, 2], m[1, 2]])
    k = int(rng.integers(4))
    for _ in range(k):  # quarter turns clockwise: (x, y) -> (CROP - y, x)
        crop = np.ascontiguousarray(np.rot90(crop, -1))
        b = np.stack([CROP - b[:, 3], b[:, 0], CROP - b[:, 1], b[:, 2]], axis=1)
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
        b = np.stack([CROP - b[:, 2], b[:, 1], CROP - b[:, 0], b[:, 3]], axis=1)
    x = crop.astype(np.float32)
    x = x * rng.uniform(0.85, 1.15, 3).astype(np.float32) * rng.uniform(0.7, 1.3) + rng.uniform(-25, 25)
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.4, 1.0))
    x = x + rng.normal(0, rng.uniform(0, 6), x.shape).astype(np.float32)
    return np.clip(x, 0, 255).transpose(2, 0, 1), targets(b, CROP)


def pick(real: list, synth: list, hard: list, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One training crop: half from real photos, the rest rendered, a fifth of all at a hard example if mined."""
    r = rng.random()
    if r < 0.5:
        return sample(real[int(rng.integers(len(real)))], rng)
    if r < 0.8 or not hard:
        return sample(synth[int(rng.integers(len(synth)))], rng)
    image, boxes, points = hard[int(rng.integers(len(hard)))]
    return sample((image, boxes), rng, near=points[int(rng.integers(len(points)))])


def build_net(batchnorm: bool = True, width: int = 12, deep: bool = False):
    """Conv-BN-ReLU down to 1/8 of the work image (a die's context), one step back up to 1/4 with a skip; heads
    for heat, size and offset. At `width` 12 (the first conv's channels; the others are 2x and 4x that): ~46 k
    parameters, ~0.11 G multiply-adds for a 640x480 frame (320x240 work); `deep` adds a second dilated conv at 1/8.
    Without `batchnorm` each conv has a bias instead: the shape of the exported file, whose BatchNorms are folded
    into the convs, so an exported model can be trained further (`load_onnx_weights`, `widen`)."""
    import torch
    from torch import nn

    def conv(i, o, stride=1, dilation=1):
        if not batchnorm:
            return nn.Sequential(nn.Conv2d(i, o, 3, stride, dilation, dilation=dilation), nn.ReLU(inplace=True))
        return nn.Sequential(
            nn.Conv2d(i, o, 3, stride, dilation, dilation=dilation, bias=False),
            nn.BatchNorm2d(o),
            nn.ReLU(inplace=True),
        )

    a, b, c = width, 2 * width, 4 * width

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1, self.c2, self.c3 = conv(3, a, 2), conv(a, b, 2), conv(b, b)
            self.c4, self.c5 = conv(b, c, 2), conv(c, c, 1, 2)
            self.c6 = conv(c, c, 1, 2) if deep else nn.Identity()
            self.lateral = nn.Conv2d(c, b, 1)
            self.fuse = conv(b, b)
            self.head = nn.Conv2d(b, 5, 1)
            nn.init.constant_(self.head.bias, 0.0)
            with torch.no_grad():
                self.head.bias[0] = -2.2

        def forward(self, x):
            x = x * (1 / 63.75) - 2.0  # 0..255 BGR in, as the runtime feeds it
            skip = self.c3(self.c2(self.c1(x)))
            deep = self.lateral(self.c6(self.c5(self.c4(skip))))
            y = self.head(self.fuse(skip + nn.functional.interpolate(deep, scale_factor=2.0, mode="nearest")))
            return torch.cat([torch.sigmoid(y[:, :1]), y[:, 1:]], dim=1)

    return Net()


def onnx_shape(path: Path) -> tuple[int, bool]:
    """(width, deep) of an exported detector, for `build_net`: the first conv's channels, and 9 convs or 8."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: i for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    return int(numpy_helper.to_array(weights[convs[0].input[1]]).shape[0]), len(convs) > 8


def widen(net, small) -> None:
    """Copy a narrower net's weights (`build_net(batchnorm=False)`, same or no `deep`) into `net` so that it
    computes the same maps: each conv's old channels keep their weights, new channels start small and random, and
    what new channels feed into old ones starts at 0, so training goes on from the smaller net's answers with room
    to learn more. A `deep` conv the small net lacks starts as the identity (its input is ReLU'd: >= 0)."""
    import torch

    narrow = dict(small.named_modules())
    with torch.no_grad():
        for name, m in net.named_modules():
            if not isinstance(m, torch.nn.Conv2d):
                continue
            o, i = m.weight.shape[:2]
            old = narrow.get(name)
            if not isinstance(old, torch.nn.Conv2d):  # the added dilated conv: identity
                m.weight.zero_()
                m.bias.zero_()
                k = m.weight.shape[2] // 2
                for ch in range(min(o, i)):
                    m.weight[ch, ch, k, k] = 1.0
                continue
            oo, oi = old.weight.shape[:2]
            torch.nn.init.normal_(m.weight, 0.0, 0.02)
            m.bias.zero_()
            m.weight[:oo, oi:] = 0.0  # new channels do not change the old ones' answers
            m.weight[:oo, :oi] = old.weight
            m.bias[:oo] = old.bias


def load_onnx_weights(net, path: Path) -> None:
    """Copy an exported detector's conv weights into `net` (built without batchnorm): the ONNX graph lists its
    convs in the order the net runs them, which is the order of the net's modules."""
    import onnx
    import torch
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    onnx_convs = [n for n in model.graph.node if n.op_type == "Conv"]
    convs = [m for m in net.modules() if isinstance(m, torch.nn.Conv2d)]
    if len(onnx_convs) != len(convs):
        raise ValueError(f"{path}: {len(onnx_convs)} convs, the net has {len(convs)}")
    with torch.no_grad():
        for node, conv in zip(onnx_convs, convs, strict=True):
            conv.weight.copy_(torch.from_numpy(weights[node.input[1]].copy()))
            conv.bias.copy_(torch.from_numpy(weights[node.input[2]].copy()))


def loss_fn(out, t):
    import torch

    heat, want = out[:, 0].clamp(1e-4, 1 - 1e-4), t[:, 0]
    pos = (want == 1).float()
    n = pos.sum().clamp(min=1)
    focal = (
        -(pos * (1 - heat) ** 2 * torch.log(heat) + (1 - pos) * (1 - want) ** 4 * heat**2 * torch.log(1 - heat)).sum()
        / n
    )
    reg = (pos[:, None] * (out[:, 1:] - t[:, 1:]).abs()).sum() / n
    return focal + reg


def export(net, path: Path) -> None:
    import torch

    net.eval()
    dummy = torch.zeros(1, 3, 240, 320)
    torch.onnx.export(
        net,
        dummy,
        str(path),
        input_names=["image"],
        output_names=["maps"],
        opset_version=17,
        dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}},
        dynamo=False,
    )
    net.train()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=25.0)
    parser.add_argument("--scenes", type=int, default=700)
    parser.add_argument("--batch", type=int, default=24)
    parser.add_argument("--out", type=Path, default=Path("models/dice_detector.onnx"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--mine-from",
        type=Path,
        help="a detector whose mistakes on rendered training scenes "
        "are trained on as hard examples (e.g. the shipped models/dice_detector.onnx)",
    )
    parser.add_argument("--mine-scenes", type=int, default=1500)
    parser.add_argument(
        "--init-from",
        type=Path,
        help="an exported detector to train further (warm start, no batchnorm, peak learning rate --lr)",
    )
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (cosine to 0)")
    parser.add_argument(
        "--width",
        type=int,
        help="the first conv's channels (default 12, or --init-from's); "
        "wider than --init-from's: its weights are widened into the new net (`widen`)",
    )
    parser.add_argument(
        "--varied",
        type=float,
        default=0.0,
        help="the fraction of rendered scenes whose surface is blended with another and its colours turned (`vary`)",
    )
    parser.add_argument(
        "--table",
        type=float,
        default=0.0,
        help="the fraction of rendered scenes that are game "
        "tables: pieces among the dice, close and far dice (`vision.synth.render_table`)",
    )
    parser.add_argument(
        "--camera-look",
        type=float,
        default=0.0,
        help="the fraction of rendered scenes, mined ones too, seen through a sampled real camera's look "
        "(`vision.synth.sensor`)",
    )
    parser.add_argument(
        "--deep", action="store_true", help="a second dilated conv at 1/8 (identity at first when --init-from has none)"
    )
    parser.add_argument("--steps", type=int, help="stop after this many steps even before --minutes")
    parser.add_argument(
        "--all-real",
        action="store_true",
        help="train on every real train photo, the validation ones too (once validation chose)",
    )
    args = parser.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    started = time.time()
    train_names, val_names = real_split()
    real = load_real(train_names + val_names if args.all_real else train_names)
    synth = render(
        args.scenes, 1_000_000 + args.seed * 10_000, varied=args.varied, table=args.table, camera_look=args.camera_look
    )
    hard = (
        mine(Detector(args.mine_from), args.mine_scenes, 2_000_000 + args.seed * 10_000, args.camera_look)
        if args.mine_from
        else []
    )
    print(
        f"{len(real)} real train photos, {len(synth)} rendered scenes, {len(hard)} with hard examples "
        f"({sum(len(p) for *_, p in hard)} points) ({time.time() - started:.0f} s)",
        flush=True,
    )
    rng = np.random.default_rng(args.seed)
    width, deep = onnx_shape(args.init_from) if args.init_from else (12, False)
    if args.init_from:
        small = build_net(batchnorm=False, width=width, deep=deep)
        load_onnx_weights(small, args.init_from)
        net = build_net(batchnorm=False, width=args.width or width, deep=args.deep or deep)
        widen(net, small)
    else:
        net = build_net(width=args.width or width, deep=args.deep)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    deadline = started + args.minutes * 60
    step, last_save, running = 0, time.time(), 0.0
    total = None
    while time.time() < deadline and step != args.steps:
        frac = (time.time() - started) / (deadline - started)
        for g in opt.param_groups:
            g["lr"] = args.lr * 0.5 * (1 + np.cos(np.pi * min(1.0, frac)))
        xs, ts = zip(*(pick(real, synth, hard, rng) for _ in range(args.batch)), strict=True)
        out = net(torch.from_numpy(np.stack(xs)))
        loss = loss_fn(out, torch.from_numpy(np.stack(ts)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        running = 0.98 * running + 0.02 * float(loss) if step else float(loss)
        step += 1
        if step % 100 == 0:
            print(
                f"step {step} loss {running:.3f} lr {opt.param_groups[0]['lr']:.5f} {time.time() - started:.0f} s",
                flush=True,
            )
        if time.time() - last_save > 300:
            export(net, args.out)
            last_save = time.time()
    total = time.time() - started
    export(net, args.out)
    info = {
        "steps": step,
        "batch": args.batch,
        "crop": CROP,
        "seconds": round(total),
        "real_train_photos": len(real),
        "real_val_photos_held_out": 0 if args.all_real else len(val_names),
        "rendered_scenes": len(synth),
        "hard_example_scenes": len(hard),
        "mined_from": str(args.mine_from) if args.mine_from else None,
        "init_from": str(args.init_from) if args.init_from else None,
        "peak_lr": args.lr,
        "width": args.width or width,
        "deep": args.deep or deep,
        "varied_surfaces": args.varied,
        "table_scenes": args.table,
        "camera_look": args.camera_look,
        "final_loss": round(running, 4),
    }
    args.out.with_suffix(".train.json").write_text(json.dumps(info, indent=2) + "\n")
    print(json.dumps(info), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
