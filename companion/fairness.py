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

import bisect
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import accumulate

ALPHA = 0.01
"""A verdict says "unfair" below this p-value: at game nights a table looks often, and one false alarm a hundred
evenings is as often as it should cry wolf."""
MIN_EXPECTED = 5
"""Cochran's rule: the chi-square test means something once every face is expected at least this often."""
NEGLIGIBLE = 1e-300
"""A count less likely than this is left out of the sums: a product of terms so small never underflows to zero, so
the tails are cut here instead."""
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
    pmfs = {chance: _binomial_pmf(rolls, chance) for chance in set(chances.values())}  # faces of a d6 share one
    faces = tuple(
        FaceCount(face, counts.get(face, 0), rolls * chance, _band(pmfs[chance], BAND),
                  min(1.0, tested * _p_value(pmfs[chance], counts.get(face, 0))))
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
    return _p_value(_binomial_pmf(n, p), k) if n else 1.0


def binomial_band(n: int, p: float, share: float) -> tuple[int, int]:
    """The central ``share`` of a binomial(n, p) count: the lowest count whose cumulative chance reaches half the
    rest, and the highest below which all but that half lies."""
    return _band(_binomial_pmf(n, p), share) if n else (0, 0)


class _Pmf:
    """The binomial(n, p) probabilities of the counts ``first`` .. ``first + len(terms) - 1``: every count more
    likely than ``NEGLIGIBLE`` (the others, all together, could not change a p-value worth printing, nor a band)."""

    def __init__(self, n: int, first: int, terms: list[float]) -> None:
        self.n, self.first, self.terms = n, first, terms
        self.ascending = sorted(terms)
        self.sums = list(accumulate(self.ascending))
        """``sums[i]``: the ``i + 1`` least likely counts' chance, added smallest first (exact to about 1e-12)."""

    def at(self, k: int) -> float:
        return self.terms[k - self.first] if 0 <= k - self.first < len(self.terms) else 0.0


def _p_value(pmf: _Pmf, k: int) -> float:
    if pmf.n == 0:
        return 1.0
    below = bisect.bisect_right(pmf.ascending, pmf.at(k) * (1 + 1e-7))
    return min(1.0, pmf.sums[below - 1]) if below else 0.0


def _band(pmf: _Pmf, share: float) -> tuple[int, int]:
    if pmf.n == 0:
        return (0, 0)
    tail = (1 - share) / 2
    below = 0.0
    low = pmf.first
    for k, q in enumerate(pmf.terms, pmf.first):
        below += q
        if below > tail:
            low = k
            break
    above = 0.0
    high = pmf.n
    for k in range(pmf.first + len(pmf.terms) - 1, pmf.first - 1, -1):
        above += pmf.terms[k - pmf.first]
        if above > tail:
            high = k
            break
    return (low, high)


def _binomial_pmf(n: int, p: float) -> _Pmf:
    """From the most likely count outwards, each term from its neighbour (a product, not a log-gamma each: a
    verdict over 100,000 rolls is worked out in milliseconds), until they are negligible."""
    if p <= 0.0 or p >= 1.0:
        return _Pmf(n, 0, [1.0 if k == (n if p >= 1.0 else 0) else 0.0 for k in range(n + 1)])
    mode = min(n, int((n + 1) * p))
    top = math.exp(math.lgamma(n + 1) - math.lgamma(mode + 1) - math.lgamma(n - mode + 1)
                   + mode * math.log(p) + (n - mode) * math.log1p(-p))
    odds = p / (1 - p)
    right = []
    term, k = top, mode
    while k < n and term > NEGLIGIBLE:
        term *= (n - k) / (k + 1) * odds
        k += 1
        right.append(term)
    left = []
    term, k = top, mode
    while k > 0 and term > NEGLIGIBLE:
        term *= k / (n - k + 1) / odds
        k -= 1
        left.append(term)
    left.reverse()
    return _Pmf(n, mode - len(left), [*left, top, *right])


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
