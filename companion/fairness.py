"""Are our dice fair? How often each face came up against what a fair die gives, as a table can read it.

Two tests, both exact enough to quote: Pearson's chi-square goodness of fit over all faces (is anything off at
all?) and, per face, the exact two-sided binomial test (which face is off?), its p-value corrected for the number of
faces looked at (Bonferroni), so that a table of six faces does not find a "suspicious" face one evening in ten by
chance. The verdict is data (a code and its values) for the screens to word in the player's language.

A face's chance comes from the die itself: a Cubitos die with three blank sides expects "blank" half the time, so
callers pass each face's probability, not just the list of faces.

>>> verdict({"1": 70, "2": 68, "3": 71, "4": 66, "5": 69, "6": 68}, uniform(["1", "2", "3", "4", "5", "6"])).code
'fair'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

ALPHA = 0.01
"""A verdict says "unfair" below this p-value: at game nights a table looks often, and one false alarm a hundred
evenings is as often as it should cry wolf."""
MIN_EXPECTED = 5
"""Cochran's rule: the chi-square test means something once every face is expected at least this often."""
BAND = 0.95
"""The share of fair evenings whose count of a face falls inside its band."""


@dataclass(frozen=True)
class FaceCount:
    face: str
    count: int
    expected: float
    """The mean count of a fair die over the same rolls."""
    band: tuple[int, int]
    """The counts a fair die gives in 95 % of such evenings (the central binomial interval)."""
    p: float
    """Exact two-sided binomial p-value of this face's count, Bonferroni-corrected for the faces tested."""


@dataclass(frozen=True)
class Verdict:
    code: str
    """``too_few`` (not enough rolls to mean anything), ``fair``, ``too_often`` or ``too_rarely`` (of ``face``)."""
    rolls: int
    needed: int
    """Rolls before a verdict means anything (every face expected ``MIN_EXPECTED`` times)."""
    faces: tuple[FaceCount, ...]
    chi_square: float
    p: float
    """Chi-square goodness-of-fit p-value over all faces (1.0 with nothing rolled)."""
    face: str | None = None
    """The face most out of line, when the verdict is not ``fair``."""

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "rolls": self.rolls, "needed": self.needed, "face": self.face,
                "chi_square": round(self.chi_square, 4), "p": _significant(self.p),
                "faces": [{"face": f.face, "count": f.count, "expected": round(f.expected, 3), "band": list(f.band),
                           "p": _significant(f.p)} for f in self.faces]}


def uniform(faces: Iterable[str]) -> dict[str, float]:
    """Each face's chance on a die whose sides are ``faces`` (a face printed twice counts twice)."""
    sides = list(faces)
    return {face: sides.count(face) / len(sides) for face in dict.fromkeys(sides)}


def verdict(counts: Mapping[str, int], chances: Mapping[str, float]) -> Verdict:
    """The verdict on dice that showed each face ``counts[face]`` times, each face having ``chances[face]``."""
    unknown = set(counts) - set(chances)
    if unknown:
        raise ValueError(f"faces {sorted(unknown)} are not faces of the die; faces: {sorted(chances)}")
    if not math.isclose(sum(chances.values()), 1.0, abs_tol=1e-9):
        raise ValueError(f"the chances of the faces add up to {sum(chances.values())}, not 1")
    rolls = sum(counts.get(face, 0) for face in chances)
    needed = math.ceil(MIN_EXPECTED / min(chances.values()))
    tested = len(chances)
    faces = tuple(
        FaceCount(face, counts.get(face, 0), rolls * chance, binomial_band(rolls, chance, BAND),
                  min(1.0, tested * binomial_p(counts.get(face, 0), rolls, chance)))
        for face, chance in chances.items())
    statistic = sum((f.count - f.expected) ** 2 / f.expected for f in faces) if rolls else 0.0
    p = chi_square_p(statistic, tested - 1) if rolls else 1.0
    if rolls < needed:
        return Verdict("too_few", rolls, needed, faces, statistic, p)
    worst = min(faces, key=lambda f: (f.p, -abs(f.count - f.expected)))
    if p >= ALPHA and worst.p >= ALPHA:
        return Verdict("fair", rolls, needed, faces, statistic, p)
    return Verdict("too_often" if worst.count > worst.expected else "too_rarely", rolls, needed, faces, statistic, p,
                   worst.face)


# -------------------------------------------------------------------------------------------------- the distributions


def chi_square_p(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square distributed with ``dof`` degrees of freedom."""
    if dof < 1:
        return 1.0
    return _upper_gamma(dof / 2, statistic / 2)


def binomial_p(k: int, n: int, p: float) -> float:
    """Exact two-sided binomial test: the chance of a count at most as likely as ``k`` in ``n`` rolls (the
    outcomes whose probability is no greater than ``k``'s, with scipy's relative tolerance of 1e-7)."""
    if n == 0:
        return 1.0
    pmf = _binomial_pmf(n, p)
    limit = pmf[k] * (1 + 1e-7)
    return min(1.0, math.fsum(q for q in pmf if q <= limit))


def binomial_band(n: int, p: float, share: float) -> tuple[int, int]:
    """The central ``share`` of a binomial(n, p) count: the lowest count whose cumulative chance reaches half the
    rest, and the highest below which all but that half lies."""
    if n == 0:
        return (0, 0)
    tail = (1 - share) / 2
    pmf = _binomial_pmf(n, p)
    below = 0.0
    low = 0
    for k, q in enumerate(pmf):
        below += q
        if below > tail:
            low = k
            break
    above = 0.0
    high = n
    for k in range(n, -1, -1):
        above += pmf[k]
        if above > tail:
            high = k
            break
    return (low, high)


def _binomial_pmf(n: int, p: float) -> list[float]:
    if p <= 0.0 or p >= 1.0:
        return [1.0 if k == (n if p >= 1.0 else 0) else 0.0 for k in range(n + 1)]
    log_p, log_q = math.log(p), math.log1p(-p)
    log_n = math.lgamma(n + 1)
    return [math.exp(log_n - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_p + (n - k) * log_q)
            for k in range(n + 1)]


def _upper_gamma(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x): a series below a + 1, a continued fraction above
    (Numerical Recipes' gammq), each to double precision."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        denominator = a
        for _ in range(10_000):
            denominator += 1
            term *= x / denominator
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-16:
            break
    return min(1.0, math.exp(log_front) * h)


def _significant(value: float) -> float:
    """A p-value for JSON and screens: four significant digits (0.003142), never a float's noise."""
    return float(f"{value:.4g}")
