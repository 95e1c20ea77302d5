"""`companion enrol`: teach a table's own dice from the command line, from crops or from whole tray photos.

Above the pipeline (it cuts dice out of photos as the live camera does) and above `vision.enrol`, whose
`Enrolment` stores and fits what is taught.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from .card import load_card
from .enrol import Enrolment, EnrolmentError
from .pipeline import Pipeline
from .segment import crops
from .tray import Tray


def dice_in_photo(image: np.ndarray, size: tuple[int, int], tray_dir: Path | None = None) -> list[np.ndarray]:
    """Every die the live pipeline would find in a tray photo, cut as it cuts them (calibrated if given)."""
    tray = Tray.load(tray_dir) if tray_dir is not None else None
    if tray is not None and not tray.fits(image):
        tray = None  # a photo from another camera: the automatic mode still finds dice on a plain surface
    return crops(image, Pipeline(None, None, tray=tray).find(image), size)


def main(argv: list[str] | None = None) -> int:
    """`companion enrol`: add / remove / list / reset a table's own dice examples."""
    parser = argparse.ArgumentParser(prog="companion enrol", description=main.__doc__)
    parser.add_argument("--card", required=True, type=Path, help="model card, e.g. models/d6.json")
    parser.add_argument("--data", required=True, type=Path, help="enrolment file for this table and model")
    sub = parser.add_subparsers(dest="command", required=True)
    add = sub.add_parser("add", help="add crops (image files, one die each) for a label and refit")
    add.add_argument("label")
    add.add_argument("images", nargs="+", type=Path)
    add.add_argument("--photos", action="store_true",
                     help="the images are photos of the tray with several dice, all showing LABEL: every die "
                          "found is an example (cut as the live camera cuts them)")
    add.add_argument("--tray", type=Path, help="with --photos: the tray calibration folder (DATA/tray)")
    rm = sub.add_parser("remove", help="forget one label's examples and refit")
    rm.add_argument("label")
    sub.add_parser("list", help="how many examples each label has")
    sub.add_parser("reset", help="forget everything: the shipped model alone classifies")
    args = parser.parse_args(argv)
    try:
        card = load_card(args.card)
        enrolment = Enrolment.load(args.data, card)
        if args.command == "add":
            crops = []
            for image_path in args.images:
                image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
                if image is None:
                    raise EnrolmentError(f"cannot read image {image_path}")
                if args.photos:
                    found = dice_in_photo(image, card.input.size, args.tray)
                    if not found:
                        raise EnrolmentError(f"{image_path}: no dice found; is the tray in view and well lit?")
                    print(f"{image_path}: {len(found)} dice")
                    crops += found
                else:
                    crops.append(image)
            enrolment.add(args.label, crops)
            enrolment.fit()
            enrolment.save()
        elif args.command == "remove":
            enrolment.remove(args.label)
            enrolment.fit()
            enrolment.save()
        elif args.command == "reset":
            enrolment.reset()
            print(f"enrolment reset: {args.data} removed")
            return 0
    except (EnrolmentError, ValueError) as exc:
        print(f"error: {exc}")
        return 2
    for label, n in enrolment.counts().items():
        print(f"{label:>10}: {n} examples")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
