"""Labelled synthetic crop sets for training and testing, reproducible from a seed and a purpose.

Every chunk of crops has its own seed derived from (seed, purpose, class, chunk), so the same call gives the
same pixels whatever the number of worker processes, and the "train", "val" and "test" purposes never share a
random stream: no model is tested on crops it was trained on. "val" and "test" also lie on surfaces training never
draws, each its own (`VALIDATION_BACKGROUNDS`, `HELD_OUT_BACKGROUNDS`): validation then rewards a model that copes
with a new table, and the test figure says how it does on one that nothing was chosen by.
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from .backgrounds import HELD_OUT_BACKGROUNDS, TRAINING_BACKGROUNDS, VALIDATION_BACKGROUNDS
from .dice_sets import get_dice_set, get_palette
from .die_crop import render_die
from .sensor import VERSION as SENSOR_VERSION

# bump when the renderer's look changes, so caches are rebuilt (5: d6 palettes of real dice; 6: printed surfaces in
# training, validation on its own surfaces; 7: box crops cut as the app cuts the detector's boxes; 8: a d6 lies on
# the face opposite its top, and its adjacent sides are never opposite faces; 9: a translucent die shows the face
# it lies on through its body)
RENDER_VERSION = 9
CHUNK = 250
PURPOSES = {"train": 1, "val": 2, "test": 3, "enrol": 4}
# the surfaces each purpose draws from; any other purpose draws the demo camera's (backgrounds.BACKGROUNDS)
SURFACES = {"train": TRAINING_BACKGROUNDS, "val": VALIDATION_BACKGROUNDS, "test": HELD_OUT_BACKGROUNDS}


def _chunk(args: tuple[str, str, int, int, int, int, int, tuple[str, ...] | None, bool]) -> tuple[np.ndarray, int]:
    dice_set, label, class_index, chunk, count, size, seed, backgrounds, sensor = args
    rng = np.random.default_rng(seed)
    style: dict[str, object] = {"background": backgrounds} if backgrounds else {}
    if sensor:
        style["sensor"] = True
    crops = np.stack([render_die(label, dice_set, rng, size=size, **style) for _ in range(count)])
    return crops, class_index


def synth_dataset(dice_set: str, per_class: int, size: int, seed: int, purpose: str = "train", workers: int = 1,
                  cache_dir: Path | None = None, sensor: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(crops uint8 [N, size, size, 3] BGR, class indices [N]) with `per_class` crops of every label; `sensor`
    renders them through a sampled real camera's look (`vision.synth.sensor`)."""
    if purpose not in PURPOSES:
        raise ValueError(f"purpose must be one of {sorted(PURPOSES)}, got {purpose!r}")
    ds = get_dice_set(dice_set)
    backgrounds = SURFACES.get(purpose)
    cache = None
    if cache_dir is not None:
        # the set's labels, pictures and colours are in the key too: a changed data file renders afresh
        looks = [get_palette(p) for p in sorted({p for x in ds.labels for p in ds.palettes_for(x)})]
        key = f"{dice_set}-{per_class}-{size}-{seed}-{purpose}-v{RENDER_VERSION}-{backgrounds}-{ds!r}-{looks!r}"
        if sensor:
            key += f"-sensor{SENSOR_VERSION}"
        digest = hashlib.sha1(key.encode()).hexdigest()[:10]
        cache = Path(cache_dir) / f"synth-{dice_set}-{purpose}-{per_class}x{size}-{digest}.npz"
        if cache.is_file():
            data = np.load(cache)
            return data["x"], data["y"]
    tasks = []
    for ci, label in enumerate(ds.labels):
        for k, start in enumerate(range(0, per_class, CHUNK)):
            ss = np.random.SeedSequence([seed, PURPOSES[purpose], ci, k])
            tasks.append((dice_set, label, ci, k, min(CHUNK, per_class - start), size,
                          int(ss.generate_state(1)[0]), backgrounds, sensor))
    if workers > 1:
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
            results = list(pool.map(_chunk, tasks))
    else:
        results = [_chunk(t) for t in tasks]
    x = np.concatenate([r[0] for r in results])
    y = np.concatenate([np.full(len(r[0]), r[1], np.int64) for r in results])
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, x=x, y=y)
    return x, y
