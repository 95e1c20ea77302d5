"""Held-out tray surfaces: validation and test each show a model surfaces it never trained on, and not the same ones."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synth.backgrounds import (
    BACKGROUNDS,
    HELD_OUT_BACKGROUNDS,
    TRAINING_BACKGROUNDS,
    VALIDATION_BACKGROUNDS,
    make_background,
)


def test_a_random_surface_is_always_a_training_one():
    rng = np.random.default_rng(0)
    means = {kind: make_background(kind, 24, 24, np.random.default_rng(1)).mean() for kind in HELD_OUT_BACKGROUNDS}
    for _ in range(40):
        img = make_background(None, 24, 24, rng)
        assert img.shape == (24, 24, 3) and img.dtype == np.float32
    assert len(set(np.round(list(means.values()), 3))) == len(HELD_OUT_BACKGROUNDS)


def test_training_validation_and_test_surfaces_are_three_separate_families():
    families = [set(TRAINING_BACKGROUNDS), set(VALIDATION_BACKGROUNDS), set(HELD_OUT_BACKGROUNDS)]
    assert set(BACKGROUNDS) < set(TRAINING_BACKGROUNDS)
    assert sum(len(f) for f in families) == len(set().union(*families))


@pytest.mark.parametrize("kind", HELD_OUT_BACKGROUNDS + VALIDATION_BACKGROUNDS + TRAINING_BACKGROUNDS)
def test_every_held_out_surface_renders_by_name(kind):
    img = make_background(kind, 40, 50, np.random.default_rng(2))
    assert img.shape == (40, 50, 3) and 0 <= img.min() and img.max() <= 255 and img.std() > 1


def test_a_sequence_of_kinds_picks_among_them_only():
    rng = np.random.default_rng(3)
    for _ in range(10):
        make_background(("slate", "cork"), 8, 8, rng)
        with pytest.raises(ValueError, match="unknown background 'lava'"):
            make_background(("lava",), 8, 8, rng)


def test_an_unknown_surface_names_the_known_ones():
    with pytest.raises(ValueError, match="unknown background 'lava'.*marble"):
        make_background("lava", 8, 8, np.random.default_rng(0))


@pytest.mark.parametrize(("purpose", "surfaces"),
                         [("test", HELD_OUT_BACKGROUNDS), ("val", VALIDATION_BACKGROUNDS),
                          ("train", TRAINING_BACKGROUNDS), ("enrol", None)])
def test_validation_and_test_streams_lie_on_their_own_surfaces(monkeypatch, purpose, surfaces):
    import vision.synth.die_crop as die_crop
    from vision.synth.dataset import synth_dataset

    asked = []
    real = die_crop.make_background

    def recording(kind, h, w, rng):
        asked.append(kind)
        return real(kind, h, w, rng)

    monkeypatch.setattr(die_crop, "make_background", recording)
    synth_dataset("d6", 2, 16, seed=1, purpose=purpose, workers=1, cache_dir=None)
    assert len(asked) == 12
    assert all(kind == surfaces for kind in asked)


@pytest.mark.parametrize("kind", ["plaid", "knit", "parquet"])
def test_training_has_repeating_patterns_a_die_could_hide_in(kind):
    """Plaids, stitches and bricks: a detector learns that a pattern repeating across the tray is the tray."""
    assert kind in TRAINING_BACKGROUNDS
    shades = [make_background(kind, 64, 64, np.random.default_rng(seed)).mean() for seed in range(4)]
    assert len(set(np.round(shades, 1))) == 4  # colours and scales vary from tray to tray
