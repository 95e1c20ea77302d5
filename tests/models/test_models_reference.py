"""The synthetic-only d6 reference model (for bench/enrolment.py): it never saw a real photo and says so."""

from __future__ import annotations

from model_fixtures import shipped_card

from vision.card import load_card


def test_synthetic_only_reference_card_has_no_real_training_data():
    card = load_card(shipped_card("d6_synthetic_only"))
    assert card.dice_set == "d6" and card.labels == ("1", "2", "3", "4", "5", "6")
    assert "real" not in card.trained_on and card.trained_on["config"]["real"] is False
    assert "not used by the app" in card.trained_on["note"].lower()
    assert card.model_path.stat().st_size <= 5 * 1000 * 1000  # the house limit for every shipped .onnx
