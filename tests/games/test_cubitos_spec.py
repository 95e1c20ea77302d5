"""Every worked example (E-n) and scenario (S-n) of ../shared/games/cubitos/RULES.md §17-18 is a test named by its
id."""

from __future__ import annotations

import re
from pathlib import Path

SPEC = Path(__file__).resolve().parents[3] / "shared" / "games" / "cubitos" / "RULES.md"
TESTS = Path(__file__).resolve().parent


def test_every_example_and_scenario_of_the_spec_has_a_test_named_by_its_id():
    found = set(re.findall(r"\*\*([ES]-\d+) ", SPEC.read_text(encoding="utf-8")))
    ids = sorted(found, key=lambda i: (i[0], int(i[2:])))
    names = " ".join(re.findall(r"def (test_\w+)", " ".join(p.read_text(encoding="utf-8")
                                                             for p in TESTS.glob("test_cubitos_*.py"))))
    missing = [i for i in ids if f"_{i.lower().replace('-', '')}_" not in names]
    assert len(ids) == 50 and not missing, missing
