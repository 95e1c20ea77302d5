"""Label errors of the real-d6-tray dataset: dice whose label names a face their photo does not show.

The list is data (`real_d6_tray_label_errors.json`, checked by eye); `corrected` applies it to crops loaded with
`vision.evaluate.load_yolo_crops`, and refuses if the dataset no longer carries the listed label (then the list is
stale, not the dice). Run `python bench/label_errors.py --png FILE` to draw the listed dice with their context.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision.evaluate import REAL_D6_TRAY, LabelledCrops, load_yolo_crops  # noqa: E402

LIST = Path(__file__).with_name("real_d6_tray_label_errors.json")
FACES = ("1", "2", "3", "4", "5", "6")


def listed(split: str) -> list[dict]:
    return [e for e in json.loads(LIST.read_text(encoding="utf-8"))["errors"] if e["split"] == split]


def where(data: LabelledCrops) -> dict[tuple[str, int], int]:
    """(photo, label-file line) -> crop index: crops come in file order, boxes in line order within a file."""
    seen: dict[str, int] = {}
    index = {}
    for k, name in enumerate(data.sources):
        index[(name, seen.get(name, 0))] = k
        seen[name] = seen.get(name, 0) + 1
    return index


def corrected(data: LabelledCrops, split: str) -> tuple[np.ndarray, int]:
    """(class indices with the listed errors corrected, how many were corrected)."""
    found = where(data)
    labels = data.labels.copy()
    changed = 0
    for error in listed(split):
        k = found.get((error["image"], error["box"]))
        if k is None:
            continue  # that photo is not in this part of the split
        if FACES[labels[k]] != error["label"]:
            raise ValueError(f"{LIST}: {split}/{error['image']} box {error['box']} is labelled "
                             f"{FACES[labels[k]]} in the dataset, the list says {error['label']}: the list is stale")
        labels[k] = FACES.index(error["shows"])
        changed += 1
    return labels, changed


def draw(path: Path) -> Path:
    tiles = []
    for split in ("train", "test"):
        data = load_yolo_crops(REAL_D6_TRAY / split / "images", REAL_D6_TRAY / split / "labels", 192, margin=1.6)
        found = where(data)
        for error in listed(split):
            tile = data.crops[found[(error["image"], error["box"])]].copy()
            for text, y in ((f"{split} {error['image']} #{error['box']}", 14),
                            (f"label {error['label']}, shows {error['shows']}", 184)):
                cv2.putText(tile, text, (3, y), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (0, 0, 0), 3, cv2.LINE_AA)
                cv2.putText(tile, text, (3, y), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (255, 255, 255), 1, cv2.LINE_AA)
            tiles.append(tile)
    cv2.imwrite(str(path), np.hstack(tiles))
    return path


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--png", type=Path, required=True, help="where to draw the listed dice")
    print(f"wrote {draw(parser.parse_args().png)}")
