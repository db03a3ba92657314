"""Draw the solver's advice on a screenshot: the picture a person wants to look at."""

from __future__ import annotations

import cv2
import numpy as np

from bot.solver.analysis import Analysis
from bot.vision.geometry import Geometry

SAFE = (60, 200, 60)  # BGR
MINE = (40, 40, 230)
GUESS = (0, 220, 255)


def annotate(image: np.ndarray, geometry: Geometry, analysis: Analysis) -> np.ndarray:
    """A copy of ``image`` with covered cells shaded red by mine chance, safe cells and mines
    outlined, and the chosen guess boxed in yellow."""
    out = image.copy()
    probs = analysis.probabilities
    shade = out.copy()
    if probs is not None:
        for (r, c), p in np.ndenumerate(probs):
            if np.isnan(p) or (r, c) in analysis.safe or (r, c) in analysis.mines:
                continue
            x, y, w, h = geometry.box(r, c)
            shade[y : y + h, x : x + w] = (0, 0, int(255 * p)) if p > 0 else (255, 255, 255)
        out = cv2.addWeighted(shade, 0.45, out, 0.55, 0)
    thick = max(1, round(geometry.scale * 2))
    for r, c in analysis.safe:
        x, y, w, h = geometry.box(r, c)
        cv2.rectangle(out, (x + 1, y + 1), (x + w - 2, y + h - 2), SAFE, thick)
    for r, c in analysis.mines:
        x, y, w, h = geometry.box(r, c)
        cv2.line(out, (x + 2, y + 2), (x + w - 3, y + h - 3), MINE, thick)
        cv2.line(out, (x + w - 3, y + 2), (x + 2, y + h - 3), MINE, thick)
    move = analysis.move
    if move is not None and move.reason in ("guess", "first"):
        x, y, w, h = geometry.box(*move.cell)
        cv2.rectangle(out, (x - 1, y - 1), (x + w, y + h), GUESS, thick)
    return out
