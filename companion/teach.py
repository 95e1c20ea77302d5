"""Teach-your-dice at the table: the camera's crops, the players' corrections and the enrolment that learns them.

The shipped models were trained on rendered dice and one public photo set; a table's own dice (an odd colour,
worn pips, a printed icon the renderer never drew) may be misread. Two ways teach the companion from the table:

* **Teach a face**: roll several dice, turn them all to one face, let them settle, and tap that face: every die
  of the latest reading is an example of it.
* **Learn from corrections**: when a player taps a misread die to correct it, the crop the classifier saw is kept
  (``<data_dir>/teach/``) with the face the player chose. The teach page shows them; a player with control adds
  them to the enrolment or throws them away.

Both feed `vision.enrol.Enrolment` (a small numpy head on the model's embedding; no torch on the Pi), stored at
``<data_dir>/enrol-<dice set>.npz`` and used by the live classifier from the next frame on. Reset forgets it all.
A new game with other dice switches the teacher to that set (`Teacher.use`); each set keeps its own corrections.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.games import GAMES, get_game, get_presentation

if TYPE_CHECKING:  # the crops are OpenCV's arrays; OpenCV itself loads when a crop is written or read
    import numpy as np

log = logging.getLogger(__name__)

TEACH_DIR = "teach"
CROP_PX = 64
"""Crops are kept larger than any model input, so a retrained model with a bigger input can still use them."""
KEEP_READINGS = 16
"""Crops of this many recent readings are kept in memory: a correction refers to a reading still on screen."""
MAX_CORRECTIONS = 300
"""Kept corrections beyond this are dropped oldest first, so a long evening never fills the SD card."""
GOAL_PER_FACE = 10
"""Examples per face the teach page asks for (its progress): a few photos of several dice showing that face."""


class TeachError(ValueError):
    """A teach request that cannot be done; the message says why and what to do instead, and ``code`` with
    ``values`` let the screens say it in the player's language (``err_<code>``)."""

    def __init__(self, message: str, code: str, **values: object) -> None:
        super().__init__(message)
        self.code = code
        self.values = values


class Teacher:
    """The table's memory of dice crops and the enrolment they feed (one per camera; the dice set it teaches is
    the pipeline's, switched with `use`).

    `pipeline` is the running `vision.pipeline.Pipeline`: its classifier's card names the labels and the input
    size, and the classifier picks up the enrolment again after every change.
    """

    def __init__(self, data_dir: Path, enrolment_path: Path, pipeline: Any) -> None:
        self.folder = Path(data_dir) / TEACH_DIR
        self.enrolment_path = Path(enrolment_path)
        self.pipeline = pipeline
        self._readings: OrderedDict[int, list[np.ndarray]] = OrderedDict()
        self._latest: int | None = None
        self._lock = threading.Lock()  # the crops (the camera thread writes them)
        self._enrol_lock = threading.Lock()  # the enrolment (fitting must not stall the camera)
        self._enrolment: Any = None
        self._estimate: Any = None  # the enrolment's cross-validated estimate, computed once per change

    @property
    def card(self) -> Any:
        return self.pipeline.classifier.card

    @property
    def labels(self) -> list[str]:
        return list(self.card.labels)

    def use(self, enrolment_path: Path, classifier: Any, source: Any = None) -> None:
        """Another dice set from now on (a new game): the pipeline reads with `classifier` (and `source`, if
        given) and teaching goes to `enrolment_path`.

        Switched under the enrolment lock, so a teaching in progress ends on the set it began with and never
        lands on the other one; the crops of the last set's dice are dropped so they are never taught as faces
        of this one.
        """
        with self._enrol_lock:
            self.pipeline.use(classifier, source)
            self.enrolment_path = Path(enrolment_path)
            self._enrolment = None
            self._estimate = None
            with self._lock:
                self._readings.clear()
                self._latest = None

    # -- crops of readings --------------------------------------------------------------------------------------

    def keep_reading(self, reading_id: int, image: np.ndarray | None, boxes: list) -> list[str | None]:
        """Cut and keep the crop of every die of a reading; returns a reference per die (None without a frame)."""
        from vision.crops import corners_crop

        if image is None:
            return [None] * len(boxes)
        crops = [corners_crop(image, box, CROP_PX) for box in boxes]
        with self._lock:
            self._readings[reading_id] = crops
            self._latest = reading_id
            while len(self._readings) > KEEP_READINGS:
                self._readings.popitem(last=False)
        return [f"{reading_id}:{i}" for i in range(len(crops))]

    def _crop(self, ref: str) -> np.ndarray | None:
        try:
            reading_id, index = (int(part) for part in str(ref).split(":"))
        except ValueError:
            return None
        with self._lock:
            crops = self._readings.get(reading_id)
        return crops[index] if crops is not None and 0 <= index < len(crops) else None

    def latest_crops(self) -> list[np.ndarray]:
        with self._lock:
            return list(self._readings.get(self._latest, [])) if self._latest is not None else []

    # -- corrections ------------------------------------------------------------------------------------------

    def keep_correction(self, die: dict[str, Any]) -> str | None:
        """A player corrected a die (a session correction listener): keep its crop with the chosen face.

        Dice typed in by hand, or read so long ago that their crop is gone, have nothing to keep (None).
        """
        label = str(die.get("label"))
        crop = self._crop(die.get("ref", ""))
        if crop is None or label not in self.labels:
            return None
        self.folder.mkdir(parents=True, exist_ok=True)
        stem = f"{time.time_ns()}-{re.sub(r'[^A-Za-z0-9_]+', '_', label)}"
        import cv2

        if not cv2.imwrite(str(self.folder / f"{stem}.png"), crop):
            log.warning("could not write a correction crop to %s", self.folder)
            return None
        meta = {"id": stem, "dice_set": self.card.dice_set, "label": label, "was": die.get("was"),
                "confidence": die.get("confidence"), "by": die.get("corrected_by"), "time": time.time()}
        tmp = self.folder / f"{stem}.json.tmp"
        tmp.write_text(json.dumps(meta), encoding="utf-8")
        tmp.replace(self.folder / f"{stem}.json")
        for old in self.corrections()[:-MAX_CORRECTIONS]:
            self._delete(old["id"])
        return stem

    def corrections(self) -> list[dict[str, Any]]:
        """The kept corrections of these dice, oldest first (a half-written one, e.g. after a power cut, is
        skipped). Another game's dice keep theirs for when it is played again; one kept before corrections named
        their set counts if its face is one of these dice."""
        out = []
        for path in sorted(self.folder.glob("*.json")) if self.folder.is_dir() else []:
            try:
                meta = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            ours = meta.get("dice_set", self.card.dice_set if meta.get("label") in self.labels else None)
            if ours == self.card.dice_set and (self.folder / f"{path.stem}.png").is_file():
                out.append(meta)
        return out

    def correction_png(self, correction_id: str) -> Path | None:
        if not re.fullmatch(r"[0-9]+-[A-Za-z0-9_]+", correction_id):
            return None
        path = self.folder / f"{correction_id}.png"
        return path if path.is_file() else None

    def _delete(self, correction_id: str) -> None:
        for suffix in (".png", ".json"):
            (self.folder / f"{correction_id}{suffix}").unlink(missing_ok=True)

    def discard(self, ids: list[str] | None = None) -> int:
        """Throw kept corrections away without learning them (all when `ids` is None)."""
        chosen = self._chosen(ids)
        for meta in chosen:
            self._delete(meta["id"])
        return len(chosen)

    def _chosen(self, ids: list[str] | None) -> list[dict[str, Any]]:
        kept = self.corrections()
        if ids is None:
            return kept
        known = {meta["id"]: meta for meta in kept}
        missing = [i for i in ids if i not in known]
        if missing:
            raise TeachError(f"no kept correction {missing[0]!r}; reload the page", "stale_page")
        return [known[i] for i in ids]

    # -- the enrolment ------------------------------------------------------------------------------------------

    def enrolment(self) -> Any:
        """The enrolment, computing embeddings with the live classifier's model: the same onnxruntime session
        (its `run` is thread-safe), not a second copy of the model in the Pi's memory. Reloaded when the
        pipeline's classifier was replaced."""
        from vision.enrol import Enrolment

        classifier = self.pipeline.classifier
        if (self._enrolment is None or self._enrolment.card is not classifier.card
                or self._enrolment.model is not classifier.model):
            self._enrolment = Enrolment.load(self.enrolment_path, classifier.card, classifier.model)
        return self._enrolment

    def _refit(self) -> None:
        enrolment = self.enrolment()
        enrolment.fit()
        enrolment.save()
        self.pipeline.classifier.use_head(enrolment.head)
        self._estimate = None

    def estimate(self) -> dict[str, Any] | None:
        """The teach page's honest figure: what share of the taught dice a head fitted without them reads right
        (`vision.enrol.Enrolment.estimate`), beside the shipped model's share; None before anything is taught."""
        if not self.enrolment_path.exists():
            return None
        with self._enrol_lock:
            if self._estimate is None:
                found = self.enrolment().estimate()
                self._estimate = {} if found is None else {"taught": round(found.taught, 4),
                                                            "untaught": round(found.untaught, 4),
                                                            "dice": found.dice, "folds": found.folds}
            return self._estimate or None

    def teach_face(self, label: str) -> int:
        """Every die of the latest reading shows `label`: learn them all. Returns how many were added."""
        if label not in self.labels:
            raise TeachError(f"{label!r} is not a face of these dice; faces are {', '.join(self.labels)}",
                             "not_a_face", face=label)
        crops = self.latest_crops()
        if not crops:
            raise TeachError("no dice read yet: put dice showing this face in the tray and let them settle",
                             "no_dice_read")
        with self._enrol_lock:
            self.enrolment().add(label, crops)
            self._refit()
        return len(crops)

    def learn(self, ids: list[str] | None = None) -> int:
        """Add kept corrections (all when `ids` is None) to the enrolment, then forget them as corrections."""
        import cv2

        chosen = self._chosen(ids)
        if not chosen:
            return 0
        with self._enrol_lock:
            enrolment = self.enrolment()
            for meta in chosen:
                crop = cv2.imread(str(self.folder / f"{meta['id']}.png"), cv2.IMREAD_COLOR)
                if crop is not None and meta.get("label") in self.labels:
                    enrolment.add(meta["label"], [crop])
            self._refit()
        for meta in chosen:
            self._delete(meta["id"])
        return len(chosen)

    def forget(self, label: str | None = None) -> None:
        """Forget the taught examples of one face, or all of them (the shipped model alone reads again)."""
        with self._enrol_lock:
            enrolment = self.enrolment()
            if label is None:
                enrolment.reset()
                self.pipeline.classifier.use_head(enrolment.head)
                return
            if label not in self.labels:
                raise TeachError(f"{label!r} is not a face of these dice; faces are {', '.join(self.labels)}",
                             "not_a_face", face=label)
            enrolment.remove(label)
            self._refit()

    def summary(self) -> dict[str, Any]:
        """What the teach page shows: each face with its look, taught examples per face and the goal, kept
        corrections, dice in the latest reading."""
        taught = self.enrolment().counts() if self.enrolment_path.exists() else {label: 0 for label in self.labels}
        return {"dice_set": self.card.dice_set, "faces": self.labels, "looks": face_looks(self.card.dice_set,
                                                                                           self.labels),
                "taught": taught, "goal": GOAL_PER_FACE, "estimate": self.estimate(),
                "corrections": self.corrections(),
                "in_tray": len(self.latest_crops())}


def _hex(bgr: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(int(round(v)) for v in reversed(bgr)))


def face_looks(dice_set: str, labels: list[str]) -> dict[str, dict[str, Any]]:
    """How the teach page draws each face: the die's body and ink colour where the face's die type has its own
    (`vision.synth`'s palettes: a coloured die, a cube), and the marks its game draws on it (``_face_marks``). A set
    the renderer does not know gets no looks: the page draws plain dice."""
    from vision.synth.dice_sets import UnknownDiceSet, get_dice_set, get_palette

    try:
        dice = get_dice_set(dice_set)
    except UnknownDiceSet:
        return {}
    marks = _face_marks(dice_set)
    looks = {}
    for label in labels:
        if label not in dice.labels:
            continue
        look: dict[str, Any] = {"marks": marks(label) if marks else []}
        if label in dice.label_palettes:
            palette = get_palette(dice.label_palettes[label][0])
            look.update(body=_hex(palette.body), ink=_hex(palette.inks[0]))
        looks[label] = look
    return looks


def _face_marks(dice_set: str) -> Callable[[str], list[dict[str, str]]] | None:
    """What a face of ``dice_set`` shows, as the table's dice draw it: the ``face_marks`` of the presentation of a
    game played with these dice (``Presentation``); None where the plain drawing of a face says it all."""
    presentations = (get_presentation(game_id) for game_id in GAMES if get_game(game_id).dice_set == dice_set)
    return next((p.face_marks for p in presentations if hasattr(p, "face_marks")), None)
