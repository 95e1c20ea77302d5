"""Research: how far can teaching 10 real crops a face take the renders-only d6, and which layers must adapt?

Run: `python bench/teach_ceiling.py [--modes head,block,block2,all] [--per-face 10]` (needs torch; research only,
the app never runs this). Starts from `models/d6_synthetic_only.onnx` (its initialisers, BatchNorm already folded
into the convs, loaded into a torch copy of the graph) and fine-tunes
- head: the linear head only;
- block: the last conv (the 4x4 px block) and the head;
- block2: the last two convs (the 8x8 px conv too) and the head;
- all: every conv and the head,
on the crops `bench/enrolment.py` teaches (10 per face from the TRAIN split's older photos, `DRAWS` seeded draws),
each seen in `VIEWS` augmented views (`augmented`: quarter turns, flips, small shifts and turns, brightness and
contrast), together with rendered anchor dice of every face so that nothing is forgotten, and an L2
pull towards the shipped weights. Measured on the validation photos (the latest 20 % of train photos by time: 186
dice) and, as more dice to choose by, on "pool": the older train photos none of the draw's crops came from. The
TEST split is printed only with --test, for a final report, never to choose by.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from enrolment import DRAWS, PER_FACE, SEED, VAL_FRACTION, spread_per_face  # noqa: E402
from label_errors import corrected  # noqa: E402
from machine import describe, machine_line, record  # noqa: E402

from vision.card import load_card  # noqa: E402
from vision.evaluate import MODELS_DIR, REAL_D6_TRAY, load_yolo_crops  # noqa: E402
from vision.train import split_by_time  # noqa: E402

ANCHORS_PER_LABEL = 100
VIEWS = 16


def augmented(crops: np.ndarray, views: int, rng: np.random.Generator) -> np.ndarray:
    """`views` looks of every crop (view v of crop i at row i * views + v): a quarter turn and a mirror (a die face
    reads the same), a shift of up to 2 px with a turn of up to 10 degrees and a scale of 0.9-1.1 (where the
    detector's box falls), brightness and contrast of 0.8-1.25 (the table's lamp)."""
    n, h, w = crops.shape[:3]
    out = np.empty((n * views, h, w, 3), np.uint8)
    for k in range(n * views):
        image = np.rot90(crops[k // views], rng.integers(4))
        if rng.random() < 0.5:
            image = image[:, ::-1]
        m = cv2.getRotationMatrix2D((w / 2 - 0.5, h / 2 - 0.5), rng.uniform(-10, 10), rng.uniform(0.9, 1.1))
        m[:, 2] += rng.uniform(-2, 2, 2)
        image = cv2.warpAffine(
            np.ascontiguousarray(image), m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        ).astype(np.float32)
        mean = image.mean()
        image = (image - mean) * rng.uniform(0.8, 1.25) + mean * rng.uniform(0.8, 1.25)
        out[k] = np.clip(image, 0, 255)
    return out


def torch_net(onnx_path: Path):
    """The ONNX graph's chain of Conv/Relu/MaxPool/GlobalAveragePool/Flatten/Gemm as a torch Sequential, with its
    initialisers as parameters (split into trunk = everything before the last conv, and block = the rest)."""
    import onnx
    import torch
    from onnx import numpy_helper

    proto = onnx.load(str(onnx_path))
    init = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in proto.graph.initializer}
    layers = []
    for node in proto.graph.node:
        if node.op_type == "Conv":
            w, b = init[node.input[1]], init[node.input[2]]
            attrs = {a.name: list(a.ints) for a in node.attribute}
            conv = torch.nn.Conv2d(w.shape[1], w.shape[0], w.shape[2], stride=attrs.get("strides", [1])[0],
                                   padding=attrs.get("pads", [w.shape[2] // 2])[0])
            conv.weight.data, conv.bias.data = w, b
            layers.append(conv)
        elif node.op_type == "Relu":
            layers.append(torch.nn.ReLU())
        elif node.op_type == "MaxPool":
            layers.append(torch.nn.MaxPool2d(2))
        elif node.op_type == "GlobalAveragePool":
            layers.append(torch.nn.AdaptiveAvgPool2d(1))
        elif node.op_type == "Flatten":
            layers.append(torch.nn.Flatten())
        elif node.op_type == "Gemm":
            w, b = init[node.input[1]], init[node.input[2]]
            head = torch.nn.Linear(w.shape[1], w.shape[0])
            head.weight.data, head.bias.data = w, b
            layers.append(head)
        else:
            raise ValueError(f"unexpected node {node.op_type}")
    return layers


def split(layers: list, convs: int):
    """(trunk, block): the block is the last `convs` convs and everything after them (0: the whole net)."""
    import torch

    at = [i for i, layer in enumerate(layers) if isinstance(layer, torch.nn.Conv2d)]
    cut = at[-convs] if convs else 0
    return torch.nn.Sequential(*layers[:cut]), torch.nn.Sequential(*layers[cut:])


def fine_tune(
    block, mode: str, x, y, anchors_x, anchors_y, steps: int, lr: float, l2: float, anchor_weight: float, seed: int
):
    """A copy of `block` fine-tuned (mode head: its last layer only) on trunk features x and anchors_x."""
    import copy

    import torch

    torch.manual_seed(seed)
    block = copy.deepcopy(block)
    params = list(block[-1].parameters()) if mode == "head" else list(block.parameters())
    start = [p.detach().clone() for p in params]
    opt = torch.optim.Adam(params, lr=lr)
    rng = np.random.default_rng(seed)
    batch = 64
    for _ in range(steps):
        i = torch.from_numpy(rng.integers(len(y), size=batch))
        j = torch.from_numpy(rng.integers(len(anchors_y), size=batch))
        out, out_a = block(x[i]), block(anchors_x[j])
        loss = (
            torch.nn.functional.cross_entropy(out, y[i])
            + anchor_weight * torch.nn.functional.cross_entropy(out_a, anchors_y[j])
            + l2 * sum(((p - s) ** 2).sum() for p, s in zip(params, start, strict=True))
        )
        opt.zero_grad()
        loss.backward()
        opt.step()
    return block.eval()


def main() -> dict:
    import torch

    from vision.synth.dataset import synth_dataset

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="head,block,block2,all")
    parser.add_argument("--draws", type=int, default=DRAWS)
    parser.add_argument("--per-face", type=int, default=PER_FACE, help="crops taught per face (more: the ceiling)")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--lr", default="head=3e-3,block=1e-3,block2=1e-3,all=3e-4")
    parser.add_argument("--l2", type=float, default=1e-3)
    parser.add_argument("--anchor-weight", type=float, default=1.0)
    parser.add_argument("--test", action="store_true", help="also print the TEST split (for the final report only)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print(machine_line(describe()))
    card = load_card(MODELS_DIR / "d6_synthetic_only.json")
    layers = torch_net(card.model_path)
    convs_of = {"head": 1, "block": 1, "block2": 2, "all": 0}
    size = card.input.size[0]
    train = load_yolo_crops(REAL_D6_TRAY / "train" / "images", REAL_D6_TRAY / "train" / "labels", size)
    train.labels, _ = corrected(train, "train")
    _, val_photos = split_by_time(sorted(set(train.sources)), VAL_FRACTION)
    is_val = np.isin(train.sources, val_photos)
    pool = np.nonzero(~is_val)[0]
    sets = {
        "validation": (np.stack(train.crops)[is_val], train.labels[is_val]),
        "pool": (np.stack(train.crops)[pool], train.labels[pool]),
    }
    if args.test:
        test = load_yolo_crops(REAL_D6_TRAY / "test" / "images", REAL_D6_TRAY / "test" / "labels", size)
        sets["test"] = (np.stack(test.crops), test.labels)
    anchors, anchor_labels = synth_dataset(card.dice_set, ANCHORS_PER_LABEL, size, SEED, "enrol", sensor=True)
    lrs = dict(item.split("=") for item in args.lr.split(","))

    def tensor(crops: np.ndarray):
        return torch.from_numpy(card.preprocess(list(crops)))

    anchor_y = torch.from_numpy(anchor_labels.astype(np.int64))
    pool_sources = np.asarray(train.sources)[pool]
    trunk, block = split(layers, 1)
    with torch.no_grad():
        untaught = {
            name: float((block(trunk(tensor(c))).argmax(1).numpy() == y).mean()) for name, (c, y) in sets.items()
        }
    print("untaught: " + "  ".join(f"{name} {v:.2%}" for name, v in untaught.items()))
    results: dict = {
        "model": card.name,
        "per_face": args.per_face,
        "draws": args.draws,
        "views": VIEWS,
        "anchors_per_label": ANCHORS_PER_LABEL,
        "steps": args.steps,
        "l2": args.l2,
        "anchor_weight": args.anchor_weight,
        "untaught": untaught,
        "modes": {},
    }
    for mode in args.modes.split(","):
        trunk, block = split(layers, convs_of[mode])
        with torch.no_grad():  # the frozen trunk runs once: the block trains on its features
            feats = {name: trunk(tensor(crops)) for name, (crops, _) in sets.items()}
            anchor_f = trunk(tensor(anchors))
        figures: dict[str, list[float]] = {name: [] for name in sets}
        seconds = []
        for draw in range(args.draws):
            chosen = spread_per_face(train.sources, train.labels, pool, len(card.labels), args.per_face, SEED + draw)
            views = augmented(np.stack([train.crops[k] for k in chosen]), VIEWS, np.random.default_rng(SEED + draw))
            y = torch.from_numpy(np.repeat(train.labels[chosen], VIEWS))
            started = time.perf_counter()
            with torch.no_grad():
                x = trunk(tensor(views))
            taught = fine_tune(
                block,
                mode,
                x,
                y,
                anchor_f,
                anchor_y,
                args.steps,
                float(lrs[mode]),
                args.l2,
                args.anchor_weight,
                SEED + draw,
            )
            seconds.append(time.perf_counter() - started)
            with torch.no_grad():
                for name, (_, labels) in sets.items():
                    right = taught(feats[name]).argmax(1).numpy() == labels
                    if name == "pool":  # only the dice of photos not taught from
                        right = right[~np.isin(pool_sources, np.asarray(train.sources)[chosen])]
                    figures[name].append(float(right.mean()))
        line = "  ".join(f"{name} {np.mean(v):.2%} ({min(v):.2%}-{max(v):.2%})" for name, v in figures.items())
        print(
            f"{mode:6s} {args.per_face}/face lr {lrs[mode]} steps {args.steps} l2 {args.l2} "
            f"anchors x{args.anchor_weight}: {line}  fit {np.mean(seconds):.1f} s",
            flush=True,
        )
        results["modes"][mode] = {
            "lr": float(lrs[mode]),
            "fit_seconds": round(float(np.mean(seconds)), 1),
            **{name: round(float(np.mean(v)), 4) for name, v in figures.items()},
        }
    return results


if __name__ == "__main__":
    record("teach_ceiling", main())
