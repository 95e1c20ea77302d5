"""Dice fairness: the p-values are scipy's on known vectors, and the verdicts read as a table would expect."""

from __future__ import annotations

import random

import pytest

from companion.fairness import binomial_band, binomial_p, chi_square_p, uniform, verdict

stats = pytest.importorskip("scipy.stats")

D6 = uniform(["1", "2", "3", "4", "5", "6"])


@pytest.mark.parametrize(("statistic", "dof"), [(0.0, 5), (0.5, 1), (3.2, 5), (11.07, 5), (15.09, 5), (40.0, 5),
                                                 (2.0, 2), (90.0, 11), (0.01, 3)])
def test_the_chi_square_p_value_is_scipys(statistic, dof):
    assert chi_square_p(statistic, dof) == pytest.approx(stats.chi2.sf(statistic, dof), rel=1e-12, abs=1e-300)


@pytest.mark.parametrize(("k", "n", "p"), [(0, 0, 1 / 6), (10, 60, 1 / 6), (20, 60, 1 / 6), (3, 60, 1 / 6),
                                           (100, 412, 1 / 6), (50, 100, 1 / 2), (0, 30, 1 / 3), (30, 30, 1 / 3)])
def test_the_binomial_p_value_is_scipys(k, n, p):
    expected = stats.binomtest(k, n, p).pvalue if n else 1.0
    assert binomial_p(k, n, p) == pytest.approx(expected, rel=1e-9)


def test_random_vectors_agree_with_scipy():
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(1, 300)
        p = rng.choice([1 / 6, 1 / 2, 1 / 3, 0.05])
        k = rng.randint(0, n)
        assert binomial_p(k, n, p) == pytest.approx(stats.binomtest(k, n, p).pvalue, rel=1e-9)
        assert binomial_band(n, p, 0.95) == tuple(int(v) for v in stats.binom.interval(0.95, n, p))


def test_a_loaded_six_is_named_with_its_p_value():
    counts = {"1": 60, "2": 62, "3": 58, "4": 61, "5": 59, "6": 112}
    found = verdict(counts, D6)
    assert found.code == "too_often" and found.face == "6"
    assert found.p == pytest.approx(stats.chisquare([counts[f] for f in D6]).pvalue, rel=1e-9)
    assert found.faces[5].p < 0.01 and found.faces[5].count > found.faces[5].band[1]


def test_a_face_that_never_comes_up_is_too_rare():
    found = verdict({"1": 80, "2": 75, "3": 79, "4": 0, "5": 82, "6": 84}, D6)
    assert (found.code, found.face) == ("too_rarely", "4")


def test_a_fair_die_over_many_rolls_is_fair():
    rng = random.Random(3)
    rolls = [rng.choice("123456") for _ in range(600)]
    found = verdict({face: rolls.count(face) for face in D6}, D6)
    assert found.code == "fair" and found.rolls == 600 and found.p > 0.01


def test_too_few_rolls_say_so_and_how_many_are_needed():
    found = verdict({"6": 5}, D6)
    assert (found.code, found.rolls, found.needed) == ("too_few", 5, 30)


def test_a_face_printed_on_several_sides_expects_its_share():
    chances = uniform(["blank", "blank", "blank", "coin", "coin", "star"])
    assert chances == {"blank": 0.5, "coin": pytest.approx(1 / 3), "star": pytest.approx(1 / 6)}
    found = verdict({"blank": 150, "coin": 100, "star": 50}, chances)
    assert found.code == "fair" and found.faces[0].expected == 150


def test_a_face_the_die_does_not_have_is_refused():
    with pytest.raises(ValueError, match="not faces of the die"):
        verdict({"7": 1}, D6)


def test_the_verdict_is_strict_json():
    import json

    text = json.dumps(verdict({"1": 10, "2": 9, "3": 11, "4": 10, "5": 10, "6": 10}, D6).to_json(), allow_nan=False)
    assert json.loads(text)["code"] == "fair"


@pytest.mark.parametrize(("k", "n", "p"), [(33_600, 200_000, 1 / 6), (32_900, 200_000, 1 / 6),
                                           (66_000, 200_000, 1 / 3), (100_150, 200_000, 1 / 2), (0, 50_000, 1 / 6)])
def test_a_table_of_many_evenings_gets_scipys_p_value_and_band(k, n, p):
    assert binomial_p(k, n, p) == pytest.approx(stats.binomtest(k, n, p).pvalue, rel=1e-9, abs=1e-300)
    assert binomial_band(n, p, 0.95) == tuple(int(v) for v in stats.binom.interval(0.95, n, p))


def test_a_verdict_over_a_million_rolls_takes_well_under_a_second():
    import time

    start = time.process_time()
    verdict({face: 1_000_000 // 6 for face in D6}, D6)
    assert time.process_time() - start < 1.0
