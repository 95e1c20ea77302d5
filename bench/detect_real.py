"""The whole detector (automatic segmentation + classification, no calibration) on real photos.

Run: `python bench/detect_real.py`. For every photo of the real-d6-tray TEST split (50 photos, 308 dice, never
trained on) it runs what `companion detect` runs and matches the found dice to the labelled boxes (a found
centre inside a labelled box). Prints dice found, dice invented, and faces right among the found: the figure a
player would feel, where `bench/models.py` measures the classifier alone on hand-cut crops.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from machine import open_benchmark  # noqa: E402

from vision.classify import Classifier  # noqa: E402
from vision.crops import yolo_boxes  # noqa: E402
from vision.evaluate import MODELS_DIR, REAL_D6_TRAY  # noqa: E402
from vision.pipeline import Pipeline  # noqa: E402


def run() -> dict:
    machine, missing = open_benchmark("real-photo detection")
    if missing:
        return {"skipped": missing}
    classifier = Classifier.load(MODELS_DIR / "d6.json", threads=1)
    images = sorted((REAL_D6_TRAY / "test" / "images").glob("*.jpg"))
    truth_n = found = invented = right = 0
    ms = []
    for path in images:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        boxes = yolo_boxes((REAL_D6_TRAY / "test" / "labels" / f"{path.stem}.txt").read_text(), w, h)
        pipeline = Pipeline(None, classifier)  # a fresh segmenter per photo: each is a different table
        start = time.perf_counter()
        dice = pipeline.detect(image)
        ms.append((time.perf_counter() - start) * 1000)
        truth_n += len(boxes)
        matched: set[int] = set()
        for die in dice:
            x, y = die.center
            hit = next((k for k, (_, (x0, y0, x1, y1)) in enumerate(boxes)
                        if k not in matched and x0 <= x <= x1 and y0 <= y <= y1), None)
            if hit is None:
                invented += 1
                continue
            matched.add(hit)
            found += 1
            right += die.label == str(boxes[hit][0] + 1)
    figures = {"photos": len(images), "dice": truth_n, "found": found, "invented": invented,
               "faces_right_of_found": right, "ms_per_photo": round(sorted(ms)[len(ms) // 2], 1), "machine": machine}
    print(f"real-d6-tray test split, {len(images)} photos 640x640, automatic mode (no tray calibration):")
    print(f"  dice found {found}/{truth_n} ({found / truth_n:.1%}), invented {invented}, "
          f"faces right {right}/{found} ({right / max(found, 1):.1%}) of the found; "
          f"median {figures['ms_per_photo']} ms per photo")
    return figures


if __name__ == "__main__":
    run()
