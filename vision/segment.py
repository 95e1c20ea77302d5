"""From a frame to one rotated crop per die.

Dice are what differs from the empty tray (a calibrated `Tray`, or `auto_background` on a plain surface). The
difference is cleaned of shadows (darker, same colour ratio) and glare (washed-out, featureless), then each blob is
judged by shape: a die is a filled square of a known size. A white die on white paper differs only in speckles; a
looser mask (a vote over the neighbourhood) adds such blobs where they are about a die's size. A blob the size of
several dice is split into that many squares (k-means on its pixels' place and colour, seeded at the
distance-transform peaks), which separates dice that touch even when they line up edge to edge and no watershed
ridge exists between them. A blob that yields fewer dice than its area promises is opened by a disc of half a die
and tried again, which cuts off soft-shadow tails and thin bridges. Hands and arms (large, from the frame's edge)
and anything that does not split into dice-shaped parts are dropped.

The work is done on a copy at most `work_width` pixels wide; boxes are scaled back and crops are cut from the
full-resolution frame, following the crop convention shared with training: square, centred on the die, rotated so
its edges are axis-aligned, side 1.2 x the die's side, resized to the model's input.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.crops import CROP_MARGIN, rotated_crop
from vision.tray import Tray, auto_background

CROP_SCALE = CROP_MARGIN


@dataclass(frozen=True)
class Blob:
    """One die found in a frame (full-frame pixels): centre, side, rotation (degrees) and the 4 box corners."""

    center: tuple[float, float]
    size: float
    angle: float
    box: tuple[tuple[float, float], ...]
    partial: bool = False


@dataclass
class SegmentConfig:
    """Tuning of the segmenter. Defaults suit a tray filling most of the view with dice 3-15 % of its height.

    `die_px` fixes a die's side in full-frame pixels; left None it is learnt from dice that lie alone.
    """

    work_width: int = 640
    die_px: float | None = None
    min_diff: float = 30.0
    noise_factor: float = 4.0
    shadow_ratio: tuple[float, float] = (0.45, 0.95)
    shadow_chroma: float = 0.12
    shadow_tint: float = 0.35
    min_fill: float = 0.72
    max_aspect: float = 1.45
    size_range: tuple[float, float] = (0.55, 1.7)
    part_size_range: tuple[float, float] = (0.7, 1.45)
    part_fill: float = 0.6
    part_aspect: float = 1.35
    clump_dice: float = 2.5
    band_dice: float = 6.0
    opened_min_side: float = 0.6
    band_width: float = 1.2
    max_dice_per_blob: int = 12
    open_dice: float = 0.5
    speckle_dice: float = 1.6
    colour_weight: float = 1.0
    pip_dice: float = 0.25
    colour_blur: float = 0.1
    part_gap: float = 0.8
    place_only_dice: int = 3
    hand_dice: float = 2.5
    min_side_fraction: float = 0.025
    min_detail: float = 1.85


def _p90(values: np.ndarray) -> float:
    """The 90th percentile (nearest rank) by a partial sort: np.percentile costs more than the rest of a blob's test."""
    flat = values.ravel()
    k = min(flat.size - 1, int(0.9 * flat.size))
    return float(np.partition(flat, k)[k])


def _detail(image: np.ndarray) -> np.ndarray:
    """High-pass magnitude of the grey image relative to the frame's own texture (its 90th percentile, mostly tray
    surface and noise): under 1 on glare and shadows, above 2 on a die's outline and pips."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    hp = cv2.absdiff(grey, cv2.GaussianBlur(grey, (0, 0), 2.0))
    return hp / (_p90(hp[::4, ::4]) + 1.0)


def _touching(weak: np.ndarray, strong: np.ndarray) -> np.ndarray:
    """The parts of a 0/1 `weak` mask that hold a `strong` pixel, as 0/255 (a table lookup: this runs per frame)."""
    count, labels = cv2.connectedComponents(weak, connectivity=8)
    keep = np.zeros(max(count, 256), np.uint8)
    keep[labels[strong]] = 255
    keep[0] = 0
    if count <= 256:
        return cv2.LUT(labels.astype(np.uint8), keep[:256])
    return np.take(keep, labels)


def _smoothed(mask: np.ndarray) -> np.ndarray:
    """Gaps closed and ragged edges from a textured tray (felt, grain) smoothed, which would spoil the shapes."""
    return cv2.medianBlur(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)), 5)


def _apart(parts: list, gap: float) -> list:
    """The parts ((centre, side, angle)) whose centre is at least `gap` from every bigger part's: two dice lying
    side by side are a die's side apart, two halves of one die that the split cut in two are not."""
    order = sorted(parts, key=lambda p: -p[1])
    kept: list = []
    for p in order:
        if all(math.dist(p[0], q[0]) >= gap for q in kept):
            kept.append(p)
    return kept


def _kmeans(points: np.ndarray, seeds: np.ndarray, iterations: int = 12) -> np.ndarray:
    """Deterministic Lloyd iterations from given seeds (cv2.kmeans draws from a global RNG; replays must repeat)."""
    centres = seeds.astype(np.float32)
    assign = np.zeros(len(points), np.int32)
    for _ in range(iterations):
        d = ((points[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        new_assign = d.argmin(axis=1).astype(np.int32)
        for j in range(len(centres)):
            members = points[new_assign == j]
            if len(members):
                centres[j] = members.mean(axis=0)
        if np.array_equal(new_assign, assign):
            break
        assign = new_assign
    return assign


def _shapes(contours, min_side: float) -> list:
    """(contour, area, rotated box) of each contour big enough to be a die; the area counts half of the concave
    hull too, so a die whose mask is only its outline and pips is not taken for a sliver."""
    shapes = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_side * min_side:
            continue
        hull = cv2.convexHull(c)
        rect = cv2.minAreaRect(hull)
        shapes.append((c, max(area, 0.5 * cv2.contourArea(hull) + 0.5 * area), rect))
    return shapes


def _lone_sides(shapes: list) -> list[float]:
    """The sides of the blobs that look like one die lying alone: square and filling their box."""
    lone = []
    for _, area, (_, (rw, rh), _) in shapes:
        if rw > 0 and rh > 0 and max(rw, rh) / min(rw, rh) <= 1.25 and area / (rw * rh) >= 0.8:
            lone.append(math.sqrt(rw * rh))
    return lone


def _outer_contours(mask: np.ndarray) -> list:
    """Every outer boundary, also those inside a hole of another blob: a tray's rim or a box edge seen as one ring
    would otherwise hide every die lying within it."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    return [c for c, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True) if parent < 0]


def _bands(mask: np.ndarray, die: float, length: float, width: float) -> np.ndarray:
    """The straight bands of a mask: at least `length` dice long and on average under `width` dice wide, in any of
    24 directions (pieces of a morphological opening by a line; the fat ones are clumps of dice, kept). Dilated to
    cover the band's ragged edge. Done at about 6 px to a die, where it is cheap."""
    f = max(1.0, die / 6.0)
    small = cv2.resize(mask, None, fx=1 / f, fy=1 / f, interpolation=cv2.INTER_AREA)
    small = (small > 127).astype(np.uint8)
    n = max(5, round(length * die / f) | 1)
    c = (n - 1) / 2
    band = np.zeros_like(small)
    for angle in np.arange(0, 180, 7.5):
        kernel = np.zeros((n, n), np.uint8)
        dx, dy = math.cos(math.radians(angle)) * c, math.sin(math.radians(angle)) * c
        cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1)
        lines = cv2.morphologyEx(small, cv2.MORPH_OPEN, kernel)
        pieces, _ = cv2.findContours(lines, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for piece in pieces:
            (_, (pw, ph), _) = cv2.minAreaRect(piece)
            if cv2.contourArea(piece) < width * die / f * max(pw, ph):
                cv2.drawContours(band, [piece], -1, 1, -1)
    band = cv2.dilate(band, np.ones((3, 3), np.uint8))
    return cv2.resize(band, (mask.shape[1], mask.shape[0]), interpolation=cv2.INTER_NEAREST)


def _seeds(mask: np.ndarray, k: int) -> np.ndarray:
    """k well-spread starting points deep inside a blob: farthest-point sampling over distance-transform peaks."""
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    ys, xs = np.nonzero(dist >= 0.5 * dist.max())
    cand = np.stack([xs, ys], axis=1).astype(np.float32)
    weight = dist[ys, xs]
    chosen = [int(weight.argmax())]
    far = ((cand - cand[chosen[0]]) ** 2).sum(axis=1)
    for _ in range(1, k):
        nxt = int(far.argmax())
        chosen.append(nxt)
        far = np.minimum(far, ((cand - cand[nxt]) ** 2).sum(axis=1))
    return cand[chosen]


class Segmenter:
    """Finds dice in frames. Keeps a running estimate of the die size between frames (`die_px`)."""

    def __init__(self, tray: Tray | None = None, config: SegmentConfig | None = None) -> None:
        self.tray = tray
        self.config = config or SegmentConfig()
        self.die_px: float | None = self.config.die_px or (tray.die_px if tray else None)
        self._bg_cache: tuple[tuple[int, int], np.ndarray, np.ndarray] | None = None
        self.last_mask: np.ndarray | None = None
        self._small = np.zeros((1, 1, 3), np.uint8)  # the frame at work size, while `find` runs

    # -- foreground ----------------------------------------------------------------------------------------

    def _scale(self, frame: np.ndarray) -> float:
        return min(1.0, self.config.work_width / frame.shape[1])

    def _background(self, small: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Background and ROI mask at work size; the calibrated ones are resized once and cached."""
        tray = self.tray
        if tray is None:
            return auto_background(small), None
        key = (small.shape[1], small.shape[0])
        if self._bg_cache is None or self._bg_cache[0] != key:
            bg = cv2.resize(tray.background, key, interpolation=cv2.INTER_AREA)
            roi = cv2.resize(tray.roi_mask(), key, interpolation=cv2.INTER_NEAREST)
            self._bg_cache = (key, bg, roi)
        return self._bg_cache[1], self._bg_cache[2]

    def foreground(self, small: np.ndarray, background: np.ndarray) -> np.ndarray:
        """Pixels that differ from the tray, less those that look like a shadow on it (uint8 0/255)."""
        return self._masks(small, background)[0]

    def _masks(self, small: np.ndarray, background: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The foreground (see `foreground`) and, at half size, a looser one for pale dice on a pale tray (uint8 0/255).

        A shadow darkens the tray by about one factor in every channel, a little less in blue as it deepens (the
        sky or a cool lamp fills it), so the allowed spread of the ratios grows with the darkening (`shadow_tint`).

        Hysteresis: a weak difference (a white die on a pale tray) counts where it touches a strong one (the die's
        edge, its pips), so faint dice are kept whole while faint noise is not. All steps are uint8 OpenCV calls.
        """
        cfg = self.config
        d = cv2.split(cv2.absdiff(small, background))
        diff = cv2.max(cv2.max(d[0], d[1]), d[2])
        # most of the frame is empty tray, so the median difference is this frame's noise (sensor, JPEG, drift)
        noise = float(np.median(diff[::4, ::4])) + 1.0
        high = max(cfg.min_diff, cfg.noise_factor * noise)
        low = max(cfg.min_diff * 0.4, 2.5 * noise)
        # a shadow darkens the tray by one factor in every channel; a die changes colour or contrast
        r = cv2.split(cv2.divide(cv2.add(small, (8, 8, 8, 0)), cv2.add(background, (8, 8, 8, 0)), scale=128))
        rmax, rmin = cv2.max(cv2.max(r[0], r[1]), r[2]), cv2.min(cv2.min(r[0], r[1]), r[2])
        lo, hi = cfg.shadow_ratio
        tint = cv2.addWeighted(rmax, cfg.shadow_chroma, cv2.subtract(np.full_like(rmin, 128), rmin), cfg.shadow_tint, 0)
        shadow = (rmax < hi * 128) & (rmin > lo * 128) & (cv2.subtract(rmax, rmin) < tint)
        weak = ((diff > low) & ~shadow).astype(np.uint8)
        strong = (diff > high) & ~shadow
        mask = _smoothed(_touching(cv2.morphologyEx(weak, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), strong))
        # a white die on a pale tray differs only in speckles (its face a shade brighter, its edges a shade darker):
        # a vote (a third of the pixels around differ) keeps it whole where the opening shreds it (`find` takes only
        # its die-sized parts); done at half size, over 2x2 pixels and then 3x3, for a quarter of the cost
        half = (weak.shape[1] // 2, weak.shape[0] // 2)
        vote = cv2.blur(cv2.resize(weak * 255, half, interpolation=cv2.INTER_AREA), (3, 3))
        strong_half = cv2.resize(strong.view(np.uint8), half, interpolation=cv2.INTER_NEAREST) > 0
        speckled = _touching((vote > 85).astype(np.uint8), strong_half)
        speckled = cv2.max(speckled, cv2.resize(mask, half, interpolation=cv2.INTER_NEAREST))
        return mask, cv2.medianBlur(cv2.morphologyEx(speckled, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)), 3)

    # -- dice ----------------------------------------------------------------------------------------------

    def find(self, frame: np.ndarray) -> list[Blob]:
        """The dice in a BGR frame, as boxes in full-frame pixels."""
        cfg = self.config
        scale = self._scale(frame)
        small = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        background, roi = self._background(small)
        self._small = small
        mask, speckled = self._masks(small, background)
        h, w = mask.shape
        min_side = cfg.min_side_fraction * min(h, w)
        shapes = _shapes(_outer_contours(mask), min_side)
        die = self._die_side(shapes, scale)
        # pale dice on a pale tray, from the looser mask; only parts about a die's size (lone dice in that mask
        # tell), since over a large pale area (a tray's plastic strip, a sheet's fold) its vote joins noise into blobs
        loose = _shapes([c * 2 for c in _outer_contours(speckled)], min_side)
        sides = _lone_sides(loose)
        if sides:
            max_side = cfg.speckle_dice * max(die, float(np.median(sides)))
            pale = [c for c, _, _ in loose if max(cv2.boundingRect(c)[2:]) <= max_side]
            grown = cv2.drawContours(mask.copy(), pale, -1, 255, -1)
            if cv2.countNonZero(cv2.subtract(grown, mask)):
                mask = grown
                shapes = _shapes(_outer_contours(mask), min_side)
        self.last_mask = mask
        detail = _detail(small) if shapes else None
        if die > 0:
            shapes = self._without_bands(shapes, mask, die, min_side)
        blobs: list[Blob] = []
        for c, area, rect in shapes:
            for part in self._dice_or_opened(c, area, rect, die, detail, (w, h), min_side):
                blob = self._to_frame(part, scale, roi, (w, h))
                if blob is not None:
                    blobs.append(blob)
        blobs.sort(key=lambda b: (round(b.center[1] / max(die / scale, 1.0)), b.center[0]))
        return blobs

    def _without_bands(self, shapes: list, mask: np.ndarray, die: float, min_side: float) -> list:
        """Blobs bigger than a few dice lose their long straight bands: a tray's rim, a box edge, a ruler. Those are
        as thick as a die at times but much longer than any row of dice, and dice touching them would merge
        into one blob with them."""
        cfg = self.config
        out = []
        labels = None
        for shape in shapes:
            c, area, (_, (rw, rh), _) = shape
            if area <= cfg.clump_dice * die * die or max(rw, rh) < cfg.band_dice * die:
                out.append(shape)
                continue
            if labels is None:
                labels = cv2.connectedComponents(mask, connectivity=8)[1]
            x, y, bw, bh = cv2.boundingRect(c)
            px, py = c[0][0]
            own = (labels[y:y + bh, x:x + bw] == labels[py, px]).astype(np.uint8) * 255
            own[_bands(own, die, cfg.band_dice, cfg.band_width) > 0] = 0
            parts, _ = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x, y))
            pieces = _shapes(parts, cfg.opened_min_side * die)  # scraps of the band along its edges
            if x <= 1 or y <= 1 or x + bw >= mask.shape[1] - 1 or y + bh >= mask.shape[0] - 1:
                # an arm is a band too: what is left of a blob from the frame's edge is a hand unless die-sized
                pieces = [p for p in pieces if p[1] <= cfg.hand_dice * die * die]
            out.extend(pieces)
        return out

    def _die_side(self, shapes: list, scale: float) -> float:
        """A die's side at work scale: configured, else the median of lone square blobs, else the last estimate."""
        cfg = self.config
        if cfg.die_px:
            return cfg.die_px * scale
        lone = _lone_sides(shapes)
        if lone:
            # the median: the 30th percentile let small white dice (pips only in the mask) set the size, so normal
            # dice on real photos were taken for two and split
            side = float(np.percentile(lone, 50))
            if self.die_px is not None:  # a cluster of 4 is square too: trust lone dice near the known size
                near = [s for s in lone if 0.7 < s / (self.die_px * scale) < 1.4]
                side = float(np.percentile(near, 30)) if near else self.die_px * scale
            self.die_px = 0.8 * (self.die_px or side / scale) + 0.2 * side / scale
            return side
        if self.die_px is not None:
            return self.die_px * scale
        return 0.0  # nothing learnt yet: each blob is judged on its own shape

    def _dice_or_opened(self, contour, area, rect, die, detail, size, min_side):
        """`_dice_in`, and when a blob yields fewer dice than its area promises, the same on the blob opened by a
        disc of part of a die: that cuts the soft-shadow tails and thin shadow bridges that spoil a die's square."""
        found = self._dice_in(contour, area, rect, die, detail, size, min_side)
        if found is None:
            return []  # a hand, a crowd or a smooth patch: its pieces are no dice either
        if die <= 0 or len(found) >= max(1, round(area / (die * die))):
            return found
        x, y, bw, bh = cv2.boundingRect(contour)
        local = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(local, [contour - (x, y)], -1, 255, -1)
        d = max(3, round(self.config.open_dice * die) | 1)
        opened = cv2.morphologyEx(local, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d)))
        parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x, y))
        pieces = _shapes(parts, min_side)
        again = [p for c, a, r in pieces for p in self._dice_in(c, a, r, die, detail, size, min_side) or []]
        return again if len(again) > len(found) else found

    def _dice_in(self, contour, area, rect, die, detail, size, min_side):
        """The die-shaped parts of one blob: ((cx, cy), side, angle) at work scale; None when the blob as a whole is
        no die nor dice (an arm from the frame's edge, more dice than any roll, a smooth patch)."""
        cfg = self.config
        die_area = die * die if die > 0 else area
        k = max(1, round(area / die_area))
        (_, _), (rw, rh), _ = rect
        if min(rw, rh) > 0 and max(rw, rh) / min(rw, rh) >= 1.6 and area / (rw * rh) > 0.75:
            k = max(k, round(max(rw, rh) / min(rw, rh)))  # dice in a row: as many as the blob is long
        x, y, bw, bh = cv2.boundingRect(contour)
        touches_edge = x <= 1 or y <= 1 or x + bw >= size[0] - 1 or y + bh >= size[1] - 1
        if touches_edge and area > cfg.hand_dice * die_area:
            return None  # an arm reaching in from the edge
        if k > cfg.max_dice_per_blob:
            return None
        local = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(local, [contour - (x, y)], -1, 255, -1)
        if self._featureless(detail[y:y + bh, x:x + bw], local):
            return None
        if k == 1:
            return self._die_shaped([(rect, area)], die, min_side, whole=True)
        # the count from the area is a guess that shadows and gaps inflate: if the blob does not split cleanly into
        # that many dice, try one fewer, else keep the most die-shaped parts (trying one more invented dice)
        ys, xs = np.nonzero(local)
        step = max(1, len(xs) // 4000)
        pts = np.stack([xs, ys], axis=1).astype(np.float32)[::step]
        # touching dice mostly differ in colour: the split weighs each pixel's chroma (pips blurred away) beside
        # its place, so a part does not reach across a border into a neighbour of another colour
        chroma = self._chroma(x, y, bw, bh, die if die > 0 else math.sqrt(area / k))
        feats = np.concatenate([pts, chroma[ys[::step], xs[::step]]], axis=1)
        # by place and colour first; by place alone only when that fails for both counts (dice of one colour, or a
        # shadow that differs in colour more than the dice do), and only in small clumps: in a crowd, parts split by
        # place alone often reach across two dice
        modes = (True, False) if k <= cfg.place_only_dice else (True,)
        best: list = []
        for by_colour, n in [(c, n) for c in modes for n in dict.fromkeys((k, max(1, k - 1)))]:
            if n == 1:  # one die after all, with its shadow, but not one the size of two
                good = [p for p in self._die_shaped([(rect, area)], die, min_side, whole=True)
                        if p[1] <= cfg.part_size_range[1] * die]
            else:
                seeds = _seeds(local, n)
                if by_colour:
                    seed_chroma = chroma[seeds[:, 1].astype(int), seeds[:, 0].astype(int)]
                    assign = _kmeans(feats, np.concatenate([seeds, seed_chroma], axis=1))
                else:
                    assign = _kmeans(pts, seeds)
                parts = [(cv2.minAreaRect(pts[assign == j] + np.float32([x, y])), step * np.count_nonzero(assign == j))
                         for j in range(n) if np.count_nonzero(assign == j) >= 5]
                good = _apart(self._die_shaped(parts, die, min_side, whole=False), cfg.part_gap * die)
            if len(good) == n:
                return good
            if len(good) > len(best):
                best = good
        return best

    def _chroma(self, x: int, y: int, w: int, h: int, die: float) -> np.ndarray:
        """Lab a and b of the work image in a box, scaled by `colour_weight`: median-blurred to wipe the pips, then
        smoothed a little so a marbled die's swirls do not split it."""
        cfg = self.config
        patch = cv2.medianBlur(self._small[y:y + h, x:x + w], max(3, round(cfg.pip_dice * die) | 1))
        patch = cv2.GaussianBlur(patch, (0, 0), max(0.5, cfg.colour_blur * die))
        return cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)[:, :, 1:].astype(np.float32) * cfg.colour_weight

    def _die_shaped(self, parts, die, min_side, whole):
        """The parts ((rect, pixel count)) that are square, fill their box and are of a die's size; a part cut
        from a clump must be close to one die, a whole blob may be a die and its shadow."""
        cfg = self.config
        out = []
        low, high = cfg.size_range if whole else cfg.part_size_range
        for ((cx, cy), (pw, ph), angle), area in parts:
            if pw <= 0 or ph <= 0:
                continue
            if max(pw, ph) / min(pw, ph) > (cfg.max_aspect if whole else cfg.part_aspect):
                continue
            side = math.sqrt(pw * ph)
            if side < min_side:
                continue
            if die > 0 and not low <= side / die <= high:
                continue
            if area / (pw * ph) < (cfg.min_fill if whole else cfg.part_fill):
                continue
            out.append(((cx, cy), side, angle))
        return out

    def _featureless(self, detail: np.ndarray, mask: np.ndarray) -> bool:
        """Glare spots and soft shadows are smooth; every die face has an outline and pips or a symbol.

        `detail` is the frame's high-pass magnitude relative to the frame's own median (its noise), so the test
        holds for clean and noisy cameras alike.
        """
        values = detail[mask > 0]
        return values.size == 0 or _p90(values) < self.config.min_detail

    def _to_frame(self, part, scale: float, roi: np.ndarray | None, size: tuple[int, int]) -> Blob | None:
        """Scale a part back to the full frame; drop it if its centre is outside the region, flag it if a corner is."""
        (cx, cy), side, angle = part
        w, h = size
        if roi is not None and roi[min(h - 1, max(0, int(cy))), min(w - 1, max(0, int(cx)))] == 0:
            return None
        corners = cv2.boxPoints(((cx, cy), (side, side), angle))
        partial = False
        for px, py in corners:
            ix, iy = int(round(px)), int(round(py))
            if not (0 <= ix < w and 0 <= iy < h) or (roi is not None and roi[iy, ix] == 0):
                partial = True
        inv = 1.0 / scale
        box = tuple((float(px * inv), float(py * inv)) for px, py in corners)
        return Blob((float(cx * inv), float(cy * inv)), float(side * inv), float(angle), box, partial)


def crop(frame: np.ndarray, blob: Blob, size: tuple[int, int]) -> np.ndarray:
    """One die cut out by the shared crop convention (`vision.crops`); `size` is the model's (height, width)."""
    return rotated_crop(frame, blob.center, blob.size, blob.angle, int(size[0]), margin=CROP_SCALE)


def crops(frame: np.ndarray, blobs: list[Blob], size: tuple[int, int]) -> list[np.ndarray]:
    return [crop(frame, b, size) for b in blobs]
