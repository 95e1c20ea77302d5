"""Every rule (AU-n) of ../shared/games/automobiles/RULES.md is named by a test, and every example (SX-n) and
scenario (OX-n) is a test named by its id."""

from __future__ import annotations

import re
from pathlib import Path

SPEC = Path(__file__).resolve().parents[3] / "shared" / "games" / "automobiles" / "RULES.md"
TESTS = Path(__file__).resolve().parent


def _tests() -> str:
    return " ".join(p.read_text(encoding="utf-8") for p in TESTS.glob("test_automobiles_*.py"))


def test_every_example_and_scenario_of_the_spec_has_a_test_named_by_its_id():
    found = set(re.findall(r"\*\*((?:SX|OX)-\d+)\*\*", SPEC.read_text(encoding="utf-8")))
    names = " ".join(re.findall(r"def (test_\w+)", _tests()))
    missing = [i for i in sorted(found) if f"_{i.lower().replace('-', '_')}_" not in names]
    assert len(found) == 64 and not missing, missing


def test_every_rule_of_the_spec_is_named_by_a_test():
    rules = set(re.findall(r"\*\*(AU-\d+)\*\*", SPEC.read_text(encoding="utf-8")))
    text = _tests()
    missing = sorted((r for r in rules if not re.search(re.escape(r) + r"(?!\d)", text)), key=lambda r: int(r[3:]))
    assert len(rules) == 121 and not missing, missing
