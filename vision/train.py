"""Train a small dice classifier and ship it as ONNX + model card: `python -m vision.train --dice SET`.

Needs the optional `train` extra (CPU torch 2.13.0). The net is a small CNN (0.5-1.2 MB) on 32x32 crops that returns
logits and its penultimate features (the embedding that teach-your-dice adapts on the Pi without torch).

Data: synthetic crops from `vision.synth` (both crop conventions, all rotations), plus for d6 the train split of
real-d6-tray, split by photo time into train and validation (consecutive photos are near-duplicates of one roll).
Early stopping watches the validation split. The real TEST split is only measured, after training, for the card.
A card may declare test-time views (`input.tta`: the 4 quarter turns of each crop, softmax averaged; on the
synthetic validation surfaces they halved the chariot_race errors); validation and the card's figures classify that
way, as the app does. d6 reads each crop once, with a wider pair of nets, in less time than 4 views (CONFIGS).
Seeded: the same command on the same machine gives the same model.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from .card import CARD_FORMAT, TTA_VIEWS, Card, load_card, merge_views, parse_card, save_card, tta_views
from .evaluate import (
    MODELS_DIR,
    REAL_D6_TRAY,
    accuracy_summary,
    confusion_matrix,
    confusion_png,
    format_report,
    load_yolo_crops,
    pair_confusion,
    predict,
    real_d6_missing_reason,
    write_models_readme,
)
from .synth.backgrounds import TRAINING_BACKGROUNDS, VALIDATION_BACKGROUNDS
from .synth.dataset import RENDER_VERSION, synth_dataset
from .synth.dice_sets import get_dice_set
from .synth.sensor import VERSION as SENSOR_VERSION

MEAN = (0.5, 0.5, 0.5)
STD = (0.25, 0.25, 0.25)
CONTEXT = 1.8  # real crops are kept with this margin, then cut to 1.0-1.3 at random while training
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "table-companion"


@dataclass(frozen=True)
class TrainConfig:
    size: int = 32
    widths: tuple[int, int, int, int] = (24, 32, 64, 96)
    stem_stride: int = 2  # 1: full-resolution stem (build_model)
    synth_per_class: int = 3000
    synth_val_per_class: int = 200
    synth_test_per_class: int = 400
    real: bool = False  # also train on real-d6-tray's train split
    real_repeat: int = 6  # real crops per epoch = repeat x real train crops (each freshly augmented)
    real_val_fraction: float = 0.2  # the latest photos of the train split become the validation split
    # then train afresh on every train photo (the held-out latest ones too) for the epochs validation chose, and
    # ship that: validation has done its job (recipe, epoch count) and the latest photos are data the model needs
    refit_all: bool = False
    flips: bool = False  # mirror images are valid faces (pips yes; asymmetric icons no)
    # the body colour is part of the class (Cubitos' die types, Automobiles' cubes): no channel swaps or grey
    # crops while training, and milder brightness and contrast changes, as the renderer's light already varies them
    colour: bool = False
    # render through a sampled real camera's look (vision.synth.sensor: white balance, tone, defocus and shake,
    # resampling, light-dependent and colour noise, sharpening, a lamp's shadow edge, JPEG): what custom dice,
    # which have no photos, are trained with; the validation and synthetic test crops are rendered alike
    sensor: bool = True
    tta: str = "none"  # test-time views the card declares (vision.card.TTA_VIEWS); validation uses them too
    epochs: int = 30
    patience: int = 5
    batch: int = 128
    lr: float = 3e-3
    weight_decay: float = 5e-4
    seed: int = 20260521
    # nets trained alike but for their seeds (seed, seed + 1, ...: weights and augmentation; the synthetic crops are
    # rendered once, with `seed`), shipped as one ONNX graph that averages their logits: an ensemble is
    # usually both more accurate and better calibrated than any one of its nets, and the app runs it unchanged
    ensemble: int = 1
    max_steps: int | None = None  # stop after this many optimiser steps (tests)


# How dice without photos are trained: chariot_race's, a table's own set's and the renders-only d6 yardstick's.
# Validation lies on surfaces training never draws (vision.synth.backgrounds): 600 per class so that it still tells
# two good models apart; there the 4 quarter turns halved the errors of one view, the wide net with a
# full-resolution stem made fewer errors than the small strided one, and two such nets fewer than one (the trials
# are in git log).
RENDERS_ONLY = TrainConfig(synth_per_class=3000, synth_val_per_class=600, epochs=20, tta="quarter_turns",
                           widths=(24, 48, 96, 144), stem_stride=1, ensemble=2)

CONFIGS = {
    "chariot_race": RENDERS_ONLY,
    # colour x face, 33 classes: fewer crops per class than chariot_race, as each colour's faces share most of
    # what is learnt (the body colour, the pictures across colours). Cubitos and automobiles keep the small net:
    # the light, not the net, limits a crop's colour, and the wide net read neither better through the frame step
    "cubitos": TrainConfig(synth_per_class=1500, synth_val_per_class=150, synth_test_per_class=200, epochs=15,
                           tta="quarter_turns", colour=True),
    "automobiles": TrainConfig(synth_per_class=1500, synth_val_per_class=300, epochs=15, tta="quarter_turns",
                               colour=True, flips=True),
    # the d6 learns from real photos too. Chosen on time-blocked folds of the real train split, its latest photos
    # and rendered rolls on the validation surfaces (the trials and their figures are in git log):
    # - real crops weigh about 7:1 against synthetic ones: fewer copies a crop per epoch left more errors, and
    #   more rendered crops per class cost real photos;
    # - a full-resolution stem, and a wide net that reads each crop once rather than a narrow one over 4 views:
    #   fewer errors in the same time;
    # - two nets whose logits are averaged: more rolls right with no tap than either net alone;
    # - the camera look (`sensor`) is on, as for every set, but the shipped pair predates it (renderer v6): a pair
    #   retrained through it read fewer rendered validation rolls right and more wrong, so the older pair stays
    "d6": TrainConfig(synth_per_class=1000, real=True, real_repeat=32, flips=True, epochs=20, tta="none",
                      refit_all=True, widths=(24, 48, 96, 144), stem_stride=1, ensemble=2),
}


def _torch():
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise SystemExit("training needs torch: .venv/bin/pip install torch==2.13.0 (the `train` extra)") from exc
    return torch


def build_model(n_classes: int, widths: tuple[int, int, int, int] = (24, 32, 64, 96), stem_stride: int = 2):
    """Conv-BN-ReLU stages at 16, 8 and 4 px, global average pool = embedding, linear = logits.

    The stem brings the 32 px crop to 16 px: with `stem_stride` 2 one strided conv (~4 M multiply-adds per die);
    with 1 two convs at full resolution and a max-pool (~6 M with widths 16-96). Pips on real photos are only 3-5 px
    across at 32 px; on folds of the real d6 train crops the full-resolution stem made about a third fewer errors
    (CONFIGS). ~0.13 M parameters either way.
    """
    torch = _torch()
    nn = torch.nn

    def cbr(i: int, o: int, stride: int = 1) -> list:
        return [nn.Conv2d(i, o, 3, stride, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    c1, c2, c3, c4 = widths
    if stem_stride not in (1, 2):
        raise ValueError(f"stem_stride must be 1 or 2, got {stem_stride}")
    stem = cbr(3, c1, 2) if stem_stride == 2 else [*cbr(3, c1), *cbr(c1, c1), nn.MaxPool2d(2)]

    class DiceNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                *stem,
                *cbr(c1, c2), *cbr(c2, c2), nn.MaxPool2d(2),
                *cbr(c2, c3), *cbr(c3, c3), nn.MaxPool2d(2),
                *cbr(c3, c4), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            )
            self.dropout = nn.Dropout(0.2)
            self.head = nn.Linear(c4, n_classes)

        def forward(self, x):
            embedding = self.features(x)
            return self.head(self.dropout(embedding)), embedding

    return DiceNet()


# ---------------------------------------------------------------------------------------------- data

@dataclass
class RealSplit:
    context: np.ndarray  # uint8 [N, S, S, 3] crops with CONTEXT margin, for augmentation
    labels: np.ndarray
    val_crops: np.ndarray  # uint8 [M, size, size, 3] cut exactly like evaluation cuts them
    val_labels: np.ndarray
    photos_train: list[str] = field(default_factory=list)
    photos_val: list[str] = field(default_factory=list)


def split_by_time(names: list[str], val_fraction: float) -> tuple[list[str], list[str]]:
    """Oldest photos train, the latest `val_fraction` validate (file names carry the capture time); a fraction of
    0 keeps every photo for training."""
    ordered = sorted(names)
    if val_fraction <= 0:
        return ordered, []
    n_val = max(1, int(round(len(ordered) * val_fraction)))
    return ordered[:-n_val], ordered[-n_val:]


def load_real_train(size: int, val_fraction: float, root: Path = REAL_D6_TRAY) -> RealSplit:
    images, labels = root / "train" / "images", root / "train" / "labels"
    names = sorted(p.name for p in images.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    train_names, val_names = split_by_time(names, val_fraction)
    ctx = int(round(size * CONTEXT / 1.15))
    train = load_yolo_crops(images, labels, ctx, CONTEXT, names=train_names)
    val = load_yolo_crops(images, labels, size, 1.15, names=val_names)
    val_crops = np.stack(val.crops) if val.crops else np.zeros((0, size, size, 3), np.uint8)
    return RealSplit(np.stack(train.crops), train.labels, val_crops, np.asarray(val.labels, np.int64), train_names,
                     val_names)


def augment_real(context: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """Cut each context crop again at a random margin (1.0-1.3), centre shift, small rotation and scale."""
    n, s = context.shape[:2]
    out = np.empty((n, size, size, 3), np.uint8)
    box = s / CONTEXT  # the labelled box side in context pixels
    for i in range(n):
        margin = rng.uniform(1.0, 1.3)
        step = margin * box / size
        a = np.deg2rad(rng.normal(0, 8))
        cx, cy = s / 2 + rng.normal(0, 0.04 * box), s / 2 + rng.normal(0, 0.04 * box)
        cos, sin = np.cos(a) * step, np.sin(a) * step
        h = size / 2 - 0.5
        m = np.array([[cos, -sin, cx - 0.5 - (cos * h - sin * h)], [sin, cos, cy - 0.5 - (sin * h + cos * h)]])
        img = cv2.warpAffine(context[i], m, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                             borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.3:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 0.9))
        out[i] = img
    return out


def to_tensor_batch(x: np.ndarray, rng: np.random.Generator | None, flips: bool, colour: bool = False):
    """uint8 BGR [B, H, W, 3] -> normalised float [B, 3, H, W]; with rng: photometric + rotation augmentation
    (with `colour`, none that changes which colour a die is: see `TrainConfig.colour`)."""
    torch = _torch()
    t = torch.from_numpy(np.ascontiguousarray(x)).permute(0, 3, 1, 2).float() / 255.0
    if rng is not None:
        b = t.shape[0]
        k = rng.integers(4, size=b)
        for q in range(1, 4):
            idx = torch.from_numpy(np.nonzero(k == q)[0])
            if len(idx):
                t[idx] = torch.rot90(t[idx], q, dims=(2, 3))
        if flips:
            idx = torch.from_numpy(np.nonzero(rng.random(b) < 0.5)[0])
            if len(idx):
                t[idx] = torch.flip(t[idx], dims=(3,))
        if not colour:
            perm = torch.from_numpy(np.argsort(rng.random((b, 3)), axis=1))
            swap = torch.from_numpy(rng.random(b) < 0.5)
            permuted = torch.gather(t, 1, perm[:, :, None, None].expand_as(t))
            t = torch.where(swap[:, None, None, None], permuted, t)
            grey = torch.from_numpy(rng.random(b) < 0.1)
            t = torch.where(grey[:, None, None, None], t.mean(1, keepdim=True).expand_as(t), t)
        mean = t.mean(dim=(1, 2, 3), keepdim=True)
        spread = 0.1 if colour else 0.3
        contrast = torch.from_numpy(rng.uniform(1 - spread, 1 + spread, (b, 1, 1, 1))).float()
        bright = torch.from_numpy(rng.uniform(1 - spread, 1 + spread, (b, 1, 1, 1))).float()
        t = ((t - mean) * contrast + mean) * bright
        t = t + torch.from_numpy(rng.normal(0, 1, t.shape) * rng.uniform(0, 0.03, (b, 1, 1, 1))).float()
        t = t.clamp(0, 1)
    mean = torch.tensor(MEAN).view(1, 3, 1, 1)
    std = torch.tensor(STD).view(1, 3, 1, 1)
    return (t - mean) / std


# ---------------------------------------------------------------------------------------------- training

def _evaluate(model, x: np.ndarray, y: np.ndarray, tta: str = "none", batch: int = 512) -> tuple[float, float]:
    """(loss, accuracy) as the shipped card will classify: with its test-time views merged per crop."""
    torch = _torch()
    if len(x) == 0:
        return 0.0, 1.0
    model.eval()
    losses, correct = 0.0, 0
    with torch.no_grad():
        for i in range(0, len(x), batch):
            views = tta_views(to_tensor_batch(x[i:i + batch], None, False).numpy(), tta)
            logits, _ = merge_views(model(torch.from_numpy(views))[0].numpy(), None, TTA_VIEWS[tta])
            logits = torch.from_numpy(logits)
            target = torch.from_numpy(y[i:i + batch])
            losses += float(torch.nn.functional.cross_entropy(logits, target, reduction="sum"))
            correct += int((logits.argmax(1) == target).sum())
    return losses / len(x), correct / len(x)


def _progress(epoch: int, epochs: int, done: int, total: int, loss: float, started: float) -> None:
    width = 24
    filled = int(width * done / max(total, 1))
    sys.stdout.write(f"\r  epoch {epoch:2d}/{epochs} [{'#' * filled}{'.' * (width - filled)}] "
                     f"{done:6d}/{total} loss {loss:.3f}  {time.time() - started:5.0f}s")
    sys.stdout.flush()


def fit(model, train_x: np.ndarray, train_y: np.ndarray, val_sets: dict[str, tuple[np.ndarray, np.ndarray]],
        config: TrainConfig, real: RealSplit | None = None, log=print, run_epochs: int | None = None) -> dict:
    """Train with AdamW + cosine schedule; keep the weights of the best validation epoch (early stopping).

    With `run_epochs` (a refit on all data, see `TrainConfig.refit_all`): the first `run_epochs` epochs of the very
    same schedule and the weights they end with, as the validated run reached its best epoch; `val_sets` are then
    only reported.
    """
    torch = _torch()
    rng = np.random.default_rng(config.seed)
    optimiser = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    per_epoch = len(train_x) + (len(real.labels) * config.real_repeat if real is not None else 0)
    steps_per_epoch = max(1, per_epoch // config.batch)
    total_steps = steps_per_epoch * config.epochs
    if config.max_steps is not None:
        total_steps = min(total_steps, config.max_steps)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=config.lr, total_steps=total_steps,
                                                   pct_start=0.15)
    best = {"score": (-1.0, 0.0), "epoch": 0, "state": None, "val": {}}
    history = []
    step, started = 0, time.time()
    for epoch in range(1, (run_epochs or config.epochs) + 1):
        x, y = train_x, train_y
        if real is not None:
            reps = [augment_real(real.context, config.size, rng) for _ in range(config.real_repeat)]
            x = np.concatenate([x, *reps])
            y = np.concatenate([y, *([real.labels] * config.real_repeat)])
        order = rng.permutation(len(x))
        model.train()
        running = 0.0
        for b in range(steps_per_epoch):
            if step >= total_steps:
                break
            idx = order[b * config.batch:(b + 1) * config.batch]
            inputs = to_tensor_batch(x[idx], rng, config.flips, config.colour)
            logits, _ = model(inputs)
            loss = torch.nn.functional.cross_entropy(logits, torch.from_numpy(y[idx]), label_smoothing=0.05)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            step += 1
            running = 0.95 * running + 0.05 * loss.item() if b else loss.item()
            if b % 20 == 0 or b == steps_per_epoch - 1:
                _progress(epoch, config.epochs, (b + 1) * config.batch, steps_per_epoch * config.batch, running,
                          started)
        sys.stdout.write("\n")
        val = {name: _evaluate(model, vx, vy, config.tta) for name, (vx, vy) in val_sets.items()}
        acc = float(np.mean([a for _, a in val.values()]))
        loss = float(np.mean([v for v, _ in val.values()]))
        history.append({"epoch": epoch, "train_loss": round(running, 4),
                        **{f"{k}_acc": round(a, 4) for k, (_, a) in val.items()}})
        log("  " + "  ".join(f"{k}: acc {a * 100:.2f}% loss {v:.3f}" for k, (v, a) in val.items()))
        rounded = {k: round(a, 4) for k, (_, a) in val.items()}
        if run_epochs is not None:  # a refit keeps the weights it ends with
            best = {"score": (acc, -loss), "epoch": epoch, "state": None, "val": rounded}
        elif (acc, -loss) > best["score"]:
            best = {"score": (acc, -loss), "epoch": epoch,
                    "state": {k: v.detach().clone() for k, v in model.state_dict().items()}, "val": rounded}
        elif epoch - best["epoch"] >= config.patience:
            log(f"  early stop: no better validation since epoch {best['epoch']}")
            break
        if step >= total_steps:
            break
    if best["state"] is not None:
        model.load_state_dict(best["state"])
    model.eval()
    return {"best_epoch": best["epoch"], "epochs_run": len(history), "validation": best["val"],
            "history": history, "seconds": round(time.time() - started, 1)}


def export_onnx(models: list, path: Path, size: int, labels: list[str], check: np.ndarray) -> float:
    """Export with the classic exporter (opset 17, dynamic batch) and check onnxruntime against torch.

    One net exports as it is. Several (`TrainConfig.ensemble`) become one graph with the same input and outputs:
    logits = the mean of the nets' logits (the softmax the app takes is then their normalised geometric mean
    probability) and embedding = the mean of their embeddings (the size teach-your-dice expects). Why logits, not
    probabilities: the mean probability is pulled down by whichever net is less sure, so more dice fell below the
    table's min_confidence; on the d6 validation scenes (two nets) averaged probabilities left 136 of 180 rolls
    right with no tap, averaged logits 141. Returns the largest absolute logit difference on `check` (raises when
    the two disagree).
    """
    torch = _torch()
    import onnx
    import onnxruntime as ort

    class Export(torch.nn.Module):
        def __init__(self, nets: list) -> None:
            super().__init__()
            self.nets = torch.nn.ModuleList(nets)

        def forward(self, x):
            if len(self.nets) == 1:
                logits, embedding = self.nets[0](x)
                return logits, embedding
            outputs = [net(x) for net in self.nets]
            logits = torch.stack([logits for logits, _ in outputs]).mean(0)
            embedding = torch.stack([embedding for _, embedding in outputs]).mean(0)
            return logits, embedding

    wrapper = Export(models).eval()
    dummy = torch.zeros(1, 3, size, size)
    with warnings.catch_warnings():  # the classic exporter is deliberate (small, stable graphs): keep it quiet
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(wrapper, dummy, str(path), input_names=["input"], output_names=["logits", "embedding"],
                          dynamic_axes={"input": {0: "N"}, "logits": {0: "N"}, "embedding": {0: "N"}},
                          dynamo=False, opset_version=17)
    proto = onnx.load(str(path))
    onnx.checker.check_model(proto)
    meta = proto.metadata_props.add()
    meta.key, meta.value = "labels", json.dumps(labels)
    onnx.save(proto, str(path))
    batch = to_tensor_batch(check, None, False)
    with torch.no_grad():
        expected = wrapper(batch)[0].numpy()
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = session.run(["logits"], {"input": batch.numpy()})[0]
    diff = float(np.abs(got - expected).max())
    if diff > 1e-3 or (got.argmax(1) != expected.argmax(1)).any():
        raise RuntimeError(f"{path}: onnxruntime and torch disagree (max |diff| {diff:.2g})")
    return diff


@dataclass
class TrainData:
    """What every net of a run trains and is validated on: rendered once, shared by an ensemble's nets."""
    labels: list[str]
    train_x: np.ndarray
    train_y: np.ndarray
    val_x: np.ndarray
    val_y: np.ndarray
    test_x: np.ndarray
    test_y: np.ndarray
    real: RealSplit | None
    trained_on: dict


def load_data(dice_set: str, config: TrainConfig, *, workers: int = 2, cache_dir: Path | None = DEFAULT_CACHE,
              real_root: Path = REAL_D6_TRAY, log=print) -> TrainData:
    """Synthetic crops (rendered with `config.seed`) and, with `config.real`, real-d6-tray's train split."""
    labels = list(get_dice_set(dice_set).labels)
    log(f"{dice_set}: rendering synthetic crops ({config.synth_per_class} per class, {workers} workers)")
    t0 = time.time()
    train_x, train_y = synth_dataset(dice_set, config.synth_per_class, config.size, config.seed, "train", workers,
                                     cache_dir, config.sensor)
    val_x, val_y = synth_dataset(dice_set, config.synth_val_per_class, config.size, config.seed, "val", workers,
                                 cache_dir, config.sensor)
    test_x, test_y = synth_dataset(dice_set, config.synth_test_per_class, config.size, config.seed, "test", workers,
                                   cache_dir, config.sensor)
    log(f"  {len(train_x)} train, {len(val_x)} val, {len(test_x)} test crops in {time.time() - t0:.0f}s")
    real = None
    renderer = f"vision.synth v{RENDER_VERSION}"
    if config.sensor:
        renderer += f", camera look v{SENSOR_VERSION} (vision.synth.sensor)"
    trained_on: dict = {
        "synthetic": {"renderer": renderer, "train_per_class": config.synth_per_class,
                      "val_per_class": config.synth_val_per_class, "seed": config.seed,
                      "crops": "rotated (crop convention, jittered) and axis-aligned box crops, all quarter turns",
                      "licence": "rendered by this project's own code (vision.synth, MIT); no third-party images",
                      "surfaces": list(TRAINING_BACKGROUNDS), "validation_surfaces": list(VALIDATION_BACKGROUNDS)},
    }
    if config.real:
        reason = real_d6_missing_reason(real_root)
        if reason:
            log(f"  WARNING: {reason}; training on synthetic data only")
        else:
            real = load_real_train(config.size, config.real_val_fraction, real_root)
            trained_on["real"] = {
                "dataset": "real-d6-tray (nell-byler/dice_detection, BSD-3-Clause)", "split": "train",
                "photos_train": len(real.photos_train), "dice_train": int(len(real.labels)),
                "photos_val": len(real.photos_val), "dice_val": int(len(real.val_labels)),
                "validation": f"the latest {config.real_val_fraction:.0%} of train photos by capture time",
                "first_val_photo": real.photos_val[0],
            }
            log(f"  real-d6-tray train: {len(real.labels)} dice for training, {len(real.val_labels)} for validation")
    trained_on["chosen_on"] = ("renders on the validation surfaces" if real is None else
                               "renders on the validation surfaces and the real validation photos")
    return TrainData(labels, train_x, train_y, val_x, val_y, test_x, test_y, real, trained_on)


def validate_net(data: TrainData, config: TrainConfig, log=print):
    """One net trained with early stopping on the validation sets, seeded by `config.seed`: (net, fit's result)."""
    torch = _torch()
    val_sets = {"synthetic_val": (data.val_x, data.val_y)}
    if data.real is not None:
        val_sets["real_val"] = (data.real.val_crops, data.real.val_labels)
    torch.manual_seed(config.seed)
    model = build_model(len(data.labels), config.widths, config.stem_stride)
    log(f"net seed {config.seed}: training {sum(p.numel() for p in model.parameters())} parameters on "
        f"{config.size}x{config.size} crops")
    return model, fit(model, data.train_x, data.train_y, val_sets, config, data.real, log)


def refit_net(data: TrainData, config: TrainConfig, validated: dict, real_root: Path = REAL_D6_TRAY, log=print):
    """The net trained afresh on every real train photo for the epochs `validated` (a validate_net result) chose,
    see `TrainConfig.refit_all`: (net, result with the validated run inside)."""
    torch = _torch()
    everything = load_real_train(config.size, 0.0, real_root)
    epochs = validated["best_epoch"]
    log(f"net seed {config.seed}: refit on all {len(everything.photos_train)} train photos "
        f"({len(everything.labels)} dice) for the {epochs} epochs validation chose")
    torch.manual_seed(config.seed)
    model = build_model(len(data.labels), config.widths, config.stem_stride)
    result = fit(model, data.train_x, data.train_y, {"synthetic_val": (data.val_x, data.val_y)}, config, everything,
                 log, run_epochs=epochs)
    return model, {**result, "validated_run": {k: v for k, v in validated.items() if k != "history"},
                   "refit": {"photos_train": len(everything.photos_train), "dice_train": int(len(everything.labels)),
                             "epochs": epochs}}


def member_configs(config: TrainConfig) -> list[TrainConfig]:
    """The ensemble's nets: the same recipe, seeds `config.seed`, `config.seed + 1`, ..."""
    if config.ensemble < 1:
        raise ValueError(f"ensemble must be at least 1 net, got {config.ensemble}")
    return [replace(config, seed=config.seed + i, ensemble=1) for i in range(config.ensemble)]


def train(dice_set: str, config: TrainConfig | None = None, out_dir: Path = MODELS_DIR, *, threads: int = 1,
          workers: int = 2, cache_dir: Path | None = DEFAULT_CACHE, real_root: Path = REAL_D6_TRAY,
          name: str | None = None, purpose: str | None = None, command: str | None = None, log=print) -> Path:
    """Train, export, measure and write `<out_dir>/<name>.onnx`, `<name>.json` and confusion PNGs.

    name: file and card name (default: the dice set). purpose: a sentence for the card and models/README.md
    (e.g. a reference model that the app does not use). Returns the card path.
    """
    name = name or dice_set
    torch = _torch()
    torch.set_num_threads(threads)
    config = config or CONFIGS.get(dice_set, RENDERS_ONLY)
    data = load_data(dice_set, config, workers=workers, cache_dir=cache_dir, real_root=real_root, log=log)
    nets, results = [], []
    for member in member_configs(config):
        model, result = validate_net(data, member, log)
        if config.refit_all and data.real is not None:
            model, result = refit_net(data, member, result, real_root, log)
        nets.append(model)
        results.append({k: v for k, v in result.items() if k != "history"})
    return ship(dice_set, config, data, nets, results, out_dir, name=name, purpose=purpose, command=command,
                real_root=real_root, log=log)


def ship(dice_set: str, config: TrainConfig, data: TrainData, nets: list, results: list[dict],
         out_dir: Path = MODELS_DIR, *, name: str | None = None, purpose: str | None = None,
         command: str | None = None, real_root: Path = REAL_D6_TRAY, log=print) -> Path:
    """Export the trained nets (one, or an ensemble) as `<out_dir>/<name>.onnx`, measure it, write its card."""
    torch = _torch()
    name = name or dice_set
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    labels = data.labels
    trained_on = json.loads(json.dumps(data.trained_on))
    refit = results[0].get("refit")
    if refit is not None:
        trained_on["real"]["refit"] = {
            **refit,
            "how": "the shipped weights: trained afresh on every train photo, the held-out latest ones too, for "
                   "the first `epochs` epochs of the same schedule (the validated run's best epoch)",
        }
    training = [{k: v for k, v in r.items() if k not in ("refit", "history")} for r in results]
    params = sum(p.numel() for net in nets for p in net.parameters())
    onnx_path = out_dir / f"{name}.onnx"
    diff = export_onnx(nets, onnx_path, config.size, labels, data.val_x[:64])
    log(f"  exported {onnx_path} ({onnx_path.stat().st_size / 1024:.0f} KiB), onnxruntime vs torch max diff "
        f"{diff:.1e}")
    card_data = {
        "name": name, "dice_set": dice_set, "format": CARD_FORMAT, "model": onnx_path.name, "labels": labels,
        "input": {"name": "input", "size": [config.size, config.size], "color": "BGR", "layout": "NCHW",
                  "scale": 1 / 255, "mean": list(MEAN), "std": list(STD),
                  **({"tta": config.tta} if config.tta != "none" else {})},
        "outputs": {"logits": "logits", "embedding": "embedding"},
        "trained_on": {**({"note": purpose} if purpose else {}), **trained_on,
                       "command": command or f"python -m vision.train --dice {dice_set}",
                       "torch": torch.__version__, "parameters": params,
                       "config": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(config).items()},
                       "training": training[0],
                       **({"ensemble": [{"seed": member.seed, "training": t}
                                          for member, t in zip(member_configs(config), training, strict=True)]}
                          if len(nets) > 1 else {})},
        "accuracy": {},
    }
    card = parse_card(card_data, out_dir / f"{name}.json")
    card = measure(card, data.test_x, data.test_y, real_root, log)
    save_card(card)
    write_models_readme(out_dir)
    log(f"  wrote {card.path}")
    return card.path


def trained_through_sensor(card: Card) -> bool:
    """Whether the card's model trained on crops rendered through a real camera's look (`TrainConfig.sensor`): its
    synthetic test crops are rendered the same way."""
    return bool(card.trained_on.get("config", {}).get("sensor"))


def synthetic_test_data(card: Card) -> str:
    """What a card's synthetic test crops are: rendered as its training crops were, with or without a camera's look."""
    look = "; through a real camera's look" if trained_through_sensor(card) else ""
    return (f"vision.synth test stream (seeded apart from train/val; surfaces never trained on: slate, check cloth, "
            f"cork, marble{look})")


def measure(card, test_x: np.ndarray, test_y: np.ndarray, real_root: Path = REAL_D6_TRAY, log=print):
    """Fill the card's accuracy from the exported ONNX model: synthetic test set, and real-d6-tray test for d6."""
    labels = list(card.labels)
    accuracy = {}
    pred = predict(card, list(test_x))
    summary = accuracy_summary(confusion_matrix(test_y, pred, len(labels)), labels)
    ds = get_dice_set(card.dice_set)
    if ds.confusable:
        summary["pairs"] = pair_confusion(np.asarray(summary["confusion"]), labels, ds.confusable, ds.labels_of)
    png = confusion_png(np.asarray(summary["confusion"]), labels, card.path.parent / f"{card.name}_synthetic.png",
                        f"{card.name}: synthetic test ({summary['accuracy'] * 100:.1f}%)")
    accuracy["synthetic_test"] = {"data": synthetic_test_data(card), **summary, "png": png.name}
    log(format_report(summary, labels, f"{card.name}: synthetic test"))
    if card.dice_set == "d6":
        reason = real_d6_missing_reason(real_root)
        if reason:
            log(f"  not measured on real photos: {reason}")
        else:
            root = real_root / "test"
            data = load_yolo_crops(root / "images", root / "labels", card.input.size[0])
            pred = predict(card, data.crops)
            summary = accuracy_summary(confusion_matrix(data.labels, pred, len(labels)), labels)
            png = confusion_png(np.asarray(summary["confusion"]), labels, card.path.parent / f"{card.name}_real.png",
                                f"{card.name}: real-d6-tray test ({summary['accuracy'] * 100:.1f}%)")
            accuracy["real_d6_tray_test"] = {"data": "real-d6-tray test split, box crops at margin 1.15",
                                             **summary, "png": png.name}
            log(format_report(summary, labels, f"{card.name}: real-d6-tray test"))
    return replace(card, accuracy=accuracy)


SYNTHETIC_ONLY_PURPOSE = (
    "Reference model for the enrolment benchmark (bench/enrolment.py): d6 dice trained as dice without photos are "
    "(vision.train.RENDERS_ONLY), on synthetic crops only, never on real photos, to measure on real dice what a "
    "set without photos reads and what teaching it brings. Not used by the app.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__.splitlines()[0])
    parser.add_argument("--dice", required=True, help="dice set: " + ", ".join(sorted(CONFIGS)))
    parser.add_argument("--out", type=Path, default=MODELS_DIR, help="output folder (default: models/)")
    parser.add_argument("--epochs", type=int, help="at most this many epochs")
    parser.add_argument("--per-class", type=int, help="synthetic training crops per class")
    parser.add_argument("--size", type=int, help="input side in px (default 32)")
    parser.add_argument("--ensemble", type=int, help="nets in the shipped model (TrainConfig.ensemble)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1: on a shared 2-core "
                        "machine 2 threads were 3x slower)")
    parser.add_argument("--workers", type=int, default=2, help="processes rendering synthetic crops (default 2)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where rendered crops are cached")
    parser.add_argument("--no-cache", action="store_true", help="render crops afresh, keep nothing")
    parser.add_argument("--remeasure", action="store_true", help="only re-measure the shipped model for its card")
    parser.add_argument("--no-real", action="store_true", help="synthetic data only, even for d6 (a reference model)")
    parser.add_argument("--plain-renders", action="store_true",
                        help="render without a real camera's look (TrainConfig.sensor off), as before it existed")
    parser.add_argument("--name", help="output name: <out>/<NAME>.onnx and .json (default: the dice set; "
                        "with --no-real for d6: d6_synthetic_only)")
    args = parser.parse_args(argv)
    config = CONFIGS.get(args.dice, RENDERS_ONLY)
    name = args.name or (f"{args.dice}_synthetic_only" if args.no_real and config.real else args.dice)
    purpose = None
    if args.no_real:  # trained as dice without photos are, so that its real figure is what theirs would be; only
        # what belongs to the faces stays the set's own (a mirrored pip face is a face)
        config = replace(RENDERS_ONLY, flips=config.flips)
        purpose = SYNTHETIC_ONLY_PURPOSE if args.dice == "d6" else "Trained on synthetic crops only."
    if args.plain_renders:
        config = replace(config, sensor=False)
    if args.epochs:
        config = replace(config, epochs=args.epochs)
    if args.per_class:
        config = replace(config, synth_per_class=args.per_class)
    if args.size:
        config = replace(config, size=args.size)
    if args.ensemble:
        config = replace(config, ensemble=args.ensemble)
    cache = None if args.no_cache else args.cache
    if args.remeasure:
        card = load_card(args.out / f"{name}.json")
        x, y = synth_dataset(args.dice, config.synth_test_per_class, config.size, config.seed, "test", args.workers,
                             cache, config.sensor)
        save_card(measure(card, x, y))
        write_models_readme(args.out)
        return 0
    command = "python -m vision.train " + " ".join(argv if argv is not None else sys.argv[1:])
    train(args.dice, config, args.out, threads=args.threads, workers=args.workers, cache_dir=cache, name=name,
          purpose=purpose, command=command)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
