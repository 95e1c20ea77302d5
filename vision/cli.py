"""Bodies of the vision commands; `companion` wires them in as sub-commands.

Each command has ``add_<name>_args(parser)`` to declare its arguments on an argparse (sub-)parser and
``<name>_main(args) -> int`` to run it. Errors (a missing image, a corrupt model, a bad calibration) are printed as
one line on stderr with a non-zero exit code, never as a traceback.

    companion detect tray.jpg --json        {"image": "tray.jpg", "dice": [{"label": "5", "confidence": 0.99,
                                             "center": [x, y], "box": [[x, y], ...]}], "ms": 8.1}
    companion classify crop1.png crop2.png  one line per crop: label, confidence, runner-up
    companion calibrate --data-dir DIR --camera '{"kind": "opencv", "device": 0}'
    companion replay frames/ --json         one line per settled reading
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.classify import Classifier
from vision.pipeline import Pipeline, default_model
from vision.segment import SegmentConfig
from vision.sources import EndOfStream, SourceError, open_source
from vision.tray import Tray, calibrate


class CommandError(Exception):
    """A user-facing failure: printed as 'error: ...', exit code 2."""


def _error(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)


def _classifier(args: argparse.Namespace) -> Classifier:
    path = Path(args.model) if getattr(args, "model", None) else default_model(args.dice)
    try:
        return Classifier.load(path, threads=getattr(args, "threads", 1))
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def _tray(args: argparse.Namespace) -> Tray | None:
    if not getattr(args, "tray", None):
        return None
    try:
        return Tray.load(args.tray)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def _read_image(path: str) -> np.ndarray:
    p = Path(path)
    if not p.is_file():
        raise CommandError(f"{path}: no such image")
    image = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if image is None:
        raise CommandError(f"{path}: not a readable image (corrupt or unsupported format)")
    return image


def _run(body: Any, args: argparse.Namespace) -> int:
    try:
        return body(args)
    except CommandError as exc:
        _error(str(exc))
        return 2
    except KeyboardInterrupt:
        return 130


def _model_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", default="d6", help="dice set: picks models/<SET>.json (default d6)")
    parser.add_argument("--model", help="model card (.json) or model (.onnx with its card beside it)")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads (default 1)")


# -- detect ----------------------------------------------------------------------------------------------------


def add_detect_args(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photos of the tray")
    _model_args(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per image")
    parser.add_argument("--tray", metavar="DIR", help="tray calibration dir (default: automatic background)")
    parser.add_argument("--die-px", type=float, help="side of a die in pixels, if known")
    parser.add_argument("--no-verifier", action="store_true",
                        help="take every box the dice detector finds, without the die verifier's second look")
    return parser


def detect_main(args: argparse.Namespace) -> int:
    """Find and read the dice in each image; exit 1 if any image could not be read."""
    return _run(_detect, args)


def _detect(args: argparse.Namespace) -> int:
    classifier = _classifier(args)
    tray = _tray(args)
    failed = 0
    for path in args.images:
        try:
            image = _read_image(path)
        except CommandError as exc:
            _error(str(exc))
            failed += 1
            continue
        pipeline = Pipeline(None, classifier, tray=tray, segment=SegmentConfig(die_px=args.die_px),
                            verifier=None if args.no_verifier else "shipped")
        started = time.perf_counter()
        dice = pipeline.detect(image)
        ms = (time.perf_counter() - started) * 1000
        if args.json:
            print(json.dumps({
                "image": path,
                "dice": [{
                    "label": d.label,
                    "confidence": round(d.confidence, 4),
                    "center": [round(d.center[0], 1), round(d.center[1], 1)],
                    "box": [[round(x, 1), round(y, 1)] for x, y in d.box],
                } for d in dice],
                "ms": round(ms, 2),
            }))
        else:
            faces = ", ".join(f"{d.label} ({d.confidence:.0%}{', partial' if d.partial else ''})" for d in dice)
            print(f"{path}: {len(dice)} dice: {faces or '-'} [{ms:.1f} ms]")
    return 1 if failed else 0


# -- classify --------------------------------------------------------------------------------------------------


def add_classify_args(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("crops", nargs="+", metavar="CROP", help="images of one die each, already cut out")
    _model_args(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per crop")
    return parser


def classify_main(args: argparse.Namespace) -> int:
    """Classify single-die crops (all in one batch); exit 1 if any crop could not be read."""
    return _run(_classify, args)


def _classify(args: argparse.Namespace) -> int:
    classifier = _classifier(args)
    paths, images, failed = [], [], 0
    for path in args.crops:
        try:
            images.append(_read_image(path))
            paths.append(path)
        except CommandError as exc:
            _error(str(exc))
            failed += 1
    started = time.perf_counter()
    predictions = classifier.classify(images)
    ms = (time.perf_counter() - started) * 1000 / max(1, len(images))
    for path, p in zip(paths, predictions, strict=True):
        if args.json:
            print(json.dumps({"image": path, "label": p.label, "confidence": round(p.confidence, 4),
                              "runner_up": [p.runner_up[0], round(p.runner_up[1], 4)], "ms": round(ms, 3)}))
        else:
            print(f"{path}: {p.label} ({p.confidence:.0%}; next {p.runner_up[0]} {p.runner_up[1]:.0%})")
    return 1 if failed else 0


# -- calibrate -------------------------------------------------------------------------------------------------


def add_calibrate_args(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--data-dir", required=True, help="where tray.json and tray.png are written")
    parser.add_argument("--camera", help='camera spec as JSON, e.g. \'{"kind": "opencv", "device": 0}\'')
    parser.add_argument("--image", nargs="*", default=[], help="photos of the empty tray instead of a camera")
    parser.add_argument("--frames", type=int, default=15, help="camera frames to average (default 15)")
    parser.add_argument("--roi", help="region of interest as x,y,x,y,... (default: found automatically)")
    parser.add_argument("--full-frame", action="store_true", help="use the whole frame as the region")
    parser.add_argument("--die-px", type=float, help="side of a die in pixels, if known")
    return parser


def calibrate_main(args: argparse.Namespace) -> int:
    """Learn the empty tray from photos or a camera and save it; the tray must be empty."""
    return _run(_calibrate, args)


def _frames_from_camera(spec: Any, count: int) -> list[np.ndarray]:
    if isinstance(spec, str):
        try:
            spec = json.loads(spec)
        except json.JSONDecodeError as exc:
            raise CommandError(f"--camera is not valid JSON: {exc.msg}") from None
    try:
        source = open_source(spec)
        with source:
            if hasattr(source, "empty_frame"):  # the synthetic camera can show its empty tray
                return [source.empty_frame() for _ in range(count)]
            return [source.read().image for _ in range(count)]
    except (ValueError, SourceError, EndOfStream) as exc:
        raise CommandError(f"camera: {exc}") from None


def _calibrate(args: argparse.Namespace) -> int:
    if args.image:
        frames = [_read_image(p) for p in args.image]
    elif args.camera:
        frames = _frames_from_camera(args.camera, max(1, args.frames))
    else:
        raise CommandError("give --camera SPEC or --image PHOTO... of the empty tray")
    if len({f.shape for f in frames}) != 1:
        raise CommandError("calibration images differ in size; use photos from one camera setting")
    roi = None
    h, w = frames[0].shape[:2]
    if args.full_frame:
        roi = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    elif args.roi:
        try:
            values = [float(v) for v in args.roi.split(",")]
        except ValueError:
            raise CommandError(f"--roi {args.roi!r}: expected numbers x,y,x,y,...") from None
        if len(values) < 6 or len(values) % 2:
            raise CommandError("--roi needs at least 3 points: x,y,x,y,x,y")
        roi = np.array(values).reshape(-1, 2)
    tray = calibrate(frames, roi=roi, die_px=args.die_px)
    path = tray.save(args.data_dir)
    area = float(cv2.contourArea(tray.roi.astype(np.float32))) / (w * h)
    print(f"saved {path} ({w}x{h}, region {len(tray.roi)} points, {area:.0%} of the frame, noise {tray.noise:.1f})")
    return 0


# -- replay ----------------------------------------------------------------------------------------------------


def add_replay_args(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("path", help="folder of frames or a video file")
    _model_args(parser)
    parser.add_argument("--fps", type=float, default=10.0, help="frame rate the frames were taken at (default 10)")
    parser.add_argument("--tray", metavar="DIR", help="tray calibration dir")
    parser.add_argument("--json", action="store_true", help="one JSON reading per line")
    parser.add_argument("--overlay-dir", help="write each reading's frame with boxes drawn here")
    return parser


def replay_main(args: argparse.Namespace) -> int:
    """Run recorded frames through the whole pipeline and print every settled reading."""
    return _run(_replay, args)


def _replay(args: argparse.Namespace) -> int:
    from vision.overlay import draw

    pipeline = Pipeline(None, _classifier(args), tray=_tray(args))
    source = open_source({"kind": "replay", "path": args.path, "fps": args.fps})
    try:
        source.open()
    except SourceError as exc:
        raise CommandError(str(exc)) from None
    out_dir = Path(args.overlay_dir) if args.overlay_dir else None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    try:
        while True:
            try:
                frame = source.read()
            except EndOfStream:
                break
            reading = pipeline.process(frame)
            if reading is None:
                continue
            if args.json:
                print(reading.to_json())
            else:
                kind = "change" if reading.change else "roll"
                print(f"frame {reading.frame_id} ({reading.time:.1f} s) {kind}: {' '.join(reading.labels) or '-'}")
            if out_dir:
                cv2.imwrite(str(out_dir / f"reading-{reading.frame_id:06d}.jpg"), draw(frame.image, reading.dice))
    finally:
        source.close()
    return 0
