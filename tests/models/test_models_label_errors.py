"""The list of real-d6-tray dice whose label names a face the photo does not show (bench/label_errors.py)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from vision.evaluate import REAL_D6_TRAY, LabelledCrops, load_yolo_crops, real_d6_missing_reason

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def label_errors(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    spec = importlib.util.spec_from_file_location("label_errors", BENCH / "label_errors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_corrections_apply_to_the_listed_box_of_the_listed_photo(label_errors, tmp_path, monkeypatch):
    listing = tmp_path / "errors.json"
    listing.write_text(json.dumps({"errors": [{"split": "test", "image": "b.jpg", "box": 1, "label": "2",
                                               "shows": "3"}]}))
    monkeypatch.setattr(label_errors, "LIST", listing)
    crops = LabelledCrops([np.zeros((4, 4, 3), np.uint8)] * 4, np.array([1, 1, 1, 1]), ["a.jpg", "a.jpg", "b.jpg",
                                                                                        "b.jpg"])
    labels, n = label_errors.corrected(crops, "test")
    assert n == 1 and labels.tolist() == [1, 1, 1, 2]
    assert crops.labels.tolist() == [1, 1, 1, 1]  # the loaded data is left as the dataset says
    assert label_errors.corrected(crops, "train")[1] == 0


def test_a_list_that_no_longer_matches_the_dataset_is_refused(label_errors, tmp_path, monkeypatch):
    listing = tmp_path / "errors.json"
    listing.write_text(json.dumps({"errors": [{"split": "test", "image": "a.jpg", "box": 0, "label": "5",
                                               "shows": "6"}]}))
    monkeypatch.setattr(label_errors, "LIST", listing)
    crops = LabelledCrops([np.zeros((4, 4, 3), np.uint8)], np.array([0]), ["a.jpg"])
    with pytest.raises(ValueError, match="a.jpg box 0 is labelled 1 in the dataset, the list says 5"):
        label_errors.corrected(crops, "test")


@pytest.mark.parametrize("split", ["train", "test"])
def test_every_listed_error_is_found_in_the_dataset(label_errors, split):
    reason = real_d6_missing_reason()
    if reason:
        pytest.skip(reason)
    data = load_yolo_crops(REAL_D6_TRAY / split / "images", REAL_D6_TRAY / split / "labels", 8)
    labels, n = label_errors.corrected(data, split)
    assert n == len(label_errors.listed(split)) > 0
    assert int((labels != data.labels).sum()) == n
