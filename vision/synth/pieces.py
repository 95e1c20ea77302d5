"""Things on a game table that are not dice: number tokens, cards, meeples, coins, a phone, a cable.

Render them into scenes as negatives (`render_scene(..., distractors=[...])`): a finder must not take a round
token showing "1" for a die, nor a phone or a square cardboard token. Each piece is placed first, as a disc the
dice keep clear of, and painted on the surface before the dice and their shadows. Our own simple drawings.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PIECES = ("token", "square_token", "card", "meeple", "coin", "phone", "cable")


@dataclass(frozen=True)
class Piece:
    kind: str
    center: tuple[float, float]
    radius: float  # the disc the piece lies within: dice keep clear of it
    angle: float  # degrees
    colour: tuple[float, float, float]  # BGR


def place_piece(kind: str, rng: np.random.Generator, width: int, height: int, die_px: float) -> Piece:
    """Where a piece lies and how large it is, in the scale of the dice (`die_px`)."""
    if kind not in PIECES:
        raise ValueError(f"unknown piece {kind!r}; choose from {PIECES}")
    size = {"token": (0.9, 1.6), "square_token": (0.9, 1.4), "card": (2.5, 3.5), "meeple": (1.0, 1.5),
            "coin": (0.6, 1.0), "phone": (4.0, 5.5), "cable": (4.0, 7.0)}[kind]
    radius = die_px * float(rng.uniform(*size)) / 2 * (1.6 if kind in ("card", "phone") else 1.0)
    margin = min(radius, min(width, height) / 2 - 1)
    center = (float(rng.uniform(margin, width - margin)), float(rng.uniform(margin, height - margin)))
    colour = tuple(float(v) for v in rng.uniform(30, 230, 3))
    return Piece(kind, center, float(radius), float(rng.uniform(0, 180)), colour)


def _rotated_rect(piece: Piece, w: float, h: float) -> np.ndarray:
    a = np.deg2rad(piece.angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return local @ rot.T + np.asarray(piece.center)


def _fill(image: np.ndarray, mask: np.ndarray, colour: tuple[float, float, float] | np.ndarray) -> None:
    soft = cv2.GaussianBlur(mask, (0, 0), 0.7)[..., None]
    image *= 1 - soft
    image += soft * np.asarray(colour, np.float32)


def _number(image: np.ndarray, piece: Piece, text: str, ink: tuple[float, float, float], scale: float) -> None:
    mask = np.zeros(image.shape[:2], np.uint8)  # OpenCV writes text into 8-bit images only
    font = cv2.FONT_HERSHEY_SIMPLEX
    (tw, th), _ = cv2.getTextSize(text, font, scale, max(1, int(scale * 2)))
    org = (int(piece.center[0] - tw / 2), int(piece.center[1] + th / 2))
    cv2.putText(mask, text, org, font, scale, 255, max(1, int(scale * 2)), cv2.LINE_AA)
    _fill(image, mask.astype(np.float32) / 255, ink)


def paint_piece(image: np.ndarray, piece: Piece, rng: np.random.Generator) -> tuple[float, float, float, float]:
    """Paint `piece` into the float32 BGR image in place; returns its box (x0, y0, x1, y1)."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.float32)
    c = (int(round(piece.center[0])), int(round(piece.center[1])))
    r = piece.radius
    ink = (20.0, 20.0, 20.0) if np.mean(piece.colour) > 110 else (235.0, 235.0, 235.0)
    if piece.kind in ("token", "coin"):
        cv2.circle(mask, c, int(r), 1.0, -1, cv2.LINE_AA)
        colour = piece.colour if piece.kind == "token" else rng.choice([(60, 150, 200), (170, 170, 175)])
        _fill(image, mask, colour)
        rim = np.zeros_like(mask)
        cv2.circle(rim, c, int(r * 0.8), 1.0, max(1, int(r * 0.08)), cv2.LINE_AA)
        _fill(image, rim * 0.5, np.asarray(colour) * 0.7)
        if piece.kind == "token":
            _number(image, piece, str(int(rng.integers(1, 10))), ink, r / 22)
    elif piece.kind == "square_token":
        cv2.fillConvexPoly(mask, np.round(_rotated_rect(piece, r * 1.4, r * 1.4)).astype(np.int32), 1.0,
                           cv2.LINE_AA)
        _fill(image, mask, piece.colour)
        _number(image, piece, str(int(rng.integers(1, 10))), ink, r / 24)
    elif piece.kind == "card":
        cv2.fillConvexPoly(mask, np.round(_rotated_rect(piece, r * 1.1, r * 1.6)).astype(np.int32), 1.0,
                           cv2.LINE_AA)
        _fill(image, mask, (235, 235, 230))
        art = np.zeros_like(mask)  # an illustration: a few blobs of colour inside a frame
        cv2.fillConvexPoly(art, np.round(_rotated_rect(piece, r * 0.9, r * 1.0)).astype(np.int32), 1.0)
        _fill(image, art, piece.colour)
        for _ in range(int(rng.integers(2, 6))):
            blob = np.zeros_like(mask)
            off = rng.uniform(-0.35, 0.35, 2) * r
            cv2.circle(blob, (int(c[0] + off[0]), int(c[1] + off[1])), int(r * rng.uniform(0.08, 0.25)), 1.0, -1)
            _fill(image, blob * art, rng.uniform(20, 240, 3))
    elif piece.kind == "meeple":
        a = np.deg2rad(piece.angle)
        up = np.array([np.cos(a), np.sin(a)])
        side = np.array([-up[1], up[0]])
        centre = np.asarray(piece.center)
        body = [centre - up * r * 0.9 + side * r * 0.55, centre - up * r * 0.9 - side * r * 0.55,
                centre + up * r * 0.2 - side * r * 0.35, centre + up * r * 0.2 + side * r * 0.35]
        cv2.fillConvexPoly(mask, np.round(np.array(body)).astype(np.int32), 1.0, cv2.LINE_AA)
        for s in (1, -1):  # arms
            arm = centre + up * r * 0.05 + side * s * r * 0.7
            cv2.line(mask, (int(centre[0]), int(centre[1])), (int(arm[0]), int(arm[1])), 1.0, max(2, int(r * 0.3)))
        head = centre + up * r * 0.55
        cv2.circle(mask, (int(head[0]), int(head[1])), int(r * 0.3), 1.0, -1, cv2.LINE_AA)
        _fill(image, mask, piece.colour)
    elif piece.kind == "phone":
        cv2.fillConvexPoly(mask, np.round(_rotated_rect(piece, r * 0.95, r * 1.9)).astype(np.int32), 1.0,
                           cv2.LINE_AA)
        _fill(image, mask, (25, 25, 28))
        screen = np.zeros_like(mask)
        cv2.fillConvexPoly(screen, np.round(_rotated_rect(piece, r * 0.82, r * 1.7)).astype(np.int32), 1.0)
        _fill(image, screen, rng.uniform(40, 250, 3) if rng.random() < 0.6 else (35, 35, 40))
    else:  # a cable: a thick curve across the piece's disc
        a = np.deg2rad(piece.angle)
        ends = [np.asarray(piece.center) + s * r * np.array([np.cos(a), np.sin(a)]) for s in (-1, 1)]
        bend = np.asarray(piece.center) + rng.uniform(-0.6, 0.6, 2) * r
        t = np.linspace(0, 1, 40)[:, None]
        curve = (1 - t) ** 2 * ends[0] + 2 * (1 - t) * t * bend + t ** 2 * ends[1]
        thick = max(2, int(r * rng.uniform(0.06, 0.12)))
        cv2.polylines(mask, [np.round(curve).astype(np.int32)], False, 1.0, thick, cv2.LINE_AA)
        _fill(image, mask, piece.colour if rng.random() < 0.5 else (30, 30, 30))
    x, y = piece.center
    return (x - r, y - r, x + r, y + r)
