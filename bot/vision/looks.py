"""Looks: a board's cells grouped by how they look, with no skin pack.

A look is what one kind of cell looks like on one board: the first picture of it seen is its
prototype, and a cell belongs to the look whose prototype it is nearest, if nearer than LOOK_LIMIT.
Which value a look shows is not known here (see bot/naming.py): it is only a number.

What varies by position, and how it is forgiven:
- where the cell size is fractional, whole-pixel layouts put cells up to a pixel off the lattice:
  cells are cut at whole pixels, one pitch square, and compared at shifts of up to SHIFT pixels;
- so the outermost SHIFT pixels all round, which a cell shares with its neighbours (Wine's revealed
  cells draw lines on one side only, bevels touch), are left out of the comparison;
- large cells: compared at COMPARE_PX at most (area-averaged).
Two cells of different values are never nearer than LOOK_LIMIT on any screenshot in fixtures/
(the nearest, a covered cell and an empty one in winxp, come apart between 16 and 24; a test
checks every fixture). A look split in two (a hover highlight, a checkerboard's two shades) only
costs a second naming; two values in one look would lose a game, so the limit errs low.
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.vision.geometry import Geometry

LOOK_LIMIT = 16.0  # RMS difference (0-255 levels) below which two cells look the same
COMPARE_PX = 24  # cells are compared at this size at most
SHIFT = 1  # pixels (at the compared size) a cell may sit off its prototype


class LookBook:
    """The looks seen so far on one board; ``assign`` sorts a screenshot's cells into them."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.cut = max(int(round(min(geometry.pitch))), 3)  # a pitch square around each cell's centre
        self.size = min(self.cut, COMPARE_PX + 2 * SHIFT)
        self.prototypes = np.empty((0, self.size, self.size, 3), dtype=np.float32)

    def __len__(self) -> int:
        return len(self.prototypes)

    def add(self, picture: np.ndarray) -> int:
        """Add a look from a picture of one cell (``cut`` pixels square); its number."""
        self.prototypes = np.concatenate([self.prototypes, self._compared(picture)[None]])
        return len(self.prototypes) - 1

    def picture(self, image: np.ndarray, cell: tuple[int, int]) -> np.ndarray:
        """One cell's picture as cut: ``cut`` pixels square around its centre, at whole pixels
        (what a learnt pack's tiles are, so that reading and learning cut cells alike)."""
        n = self.cut
        cx, cy = self.geometry.centre(cell)
        x, y = int(np.floor(cx - n / 2 + 0.5)), int(np.floor(cy - n / 2 + 0.5))
        crop = image[max(y, 0) : y + n, max(x, 0) : x + n]
        if crop.shape[:2] != (n, n):
            raise ValueError(f"cell {cell} lies outside the image")
        return crop

    def _compared(self, picture: np.ndarray) -> np.ndarray:
        """A cell's picture at the compared size, as floats."""
        crop = picture.astype(np.float32)
        return crop if crop.shape[0] == self.size else cv2.resize(crop, (self.size, self.size), interpolation=cv2.INTER_AREA)

    def crops(self, image: np.ndarray) -> np.ndarray:
        """Every cell's picture, row by row, at the compared size: (rows * cols, size, size, 3)."""
        geo = self.geometry
        out = np.empty((geo.rows * geo.cols, self.size, self.size, 3), dtype=np.float32)
        for i in range(geo.rows * geo.cols):
            out[i] = self._compared(self.picture(image, divmod(i, geo.cols)))
        return out

    def distances(self, crops: np.ndarray, prototypes: np.ndarray | None = None, shifts: bool = True) -> np.ndarray:
        """RMS difference of each crop from each prototype, at the best shift (or unshifted):
        (len(crops), len(prototypes))."""
        protos = self.prototypes if prototypes is None else prototypes
        if len(protos) == 0 or len(crops) == 0:
            return np.full((len(crops), len(protos)), np.inf, dtype=np.float32)
        s, m = self.size, SHIFT
        inner = crops[:, m : s - m, m : s - m].reshape(len(crops), -1)
        inner_sq = (inner * inner).sum(axis=1)[:, None]
        best = np.full((len(crops), len(protos)), np.inf, dtype=np.float32)
        moves = [(dy, dx) for dy in range(-m, m + 1) for dx in range(-m, m + 1)] if shifts else [(0, 0)]
        for dy, dx in moves:
            p = protos[:, m + dy : s - m + dy, m + dx : s - m + dx].reshape(len(protos), -1)
            d2 = inner_sq + (p * p).sum(axis=1)[None, :] - 2 * inner @ p.T
            np.minimum(best, d2, out=best)
        return np.sqrt(np.maximum(best, 0) / inner.shape[1])

    def assign(self, image: np.ndarray) -> np.ndarray:
        """The look of every cell (rows x cols ints); a cell like no look yet starts a new one.
        Each cell ends at its nearest look (not the first near enough), so that sorting the same
        picture again gives the same looks."""
        crops = self.crops(image)
        looks = self._nearest(crops)
        known = len(self.prototypes)
        while (looks < 0).any():
            first = int(np.flatnonzero(looks < 0)[0])
            self.prototypes = np.concatenate([self.prototypes, crops[first : first + 1]])
            rest = np.flatnonzero(looks < 0)
            d = self.distances(crops[rest], self.prototypes[-1:])[:, 0]
            looks[rest[d < LOOK_LIMIT]] = len(self.prototypes) - 1
            looks[first] = len(self.prototypes) - 1
        if len(self.prototypes) > known:
            looks = self._nearest(crops)
        return looks.reshape(self.geometry.rows, self.geometry.cols)

    def _nearest(self, crops: np.ndarray) -> np.ndarray:
        """Each crop's nearest look, or -1 where none is nearer than LOOK_LIMIT. Most cells match
        their look unshifted and plainly (under half the limit); only the others are tried at every
        shift, where a look a pixel off may be nearer than one that is not."""
        looks = np.full(len(crops), -1, dtype=np.int64)
        if not len(self.prototypes):
            return looks
        d = self.distances(crops, shifts=False)
        near = d.min(axis=1) < LOOK_LIMIT / 2
        looks[near] = d.argmin(axis=1)[near]
        rest = np.flatnonzero(~near)
        if len(rest):
            d = self.distances(crops[rest])
            near = d.min(axis=1) < LOOK_LIMIT
            looks[rest[near]] = d.argmin(axis=1)[near]
        return looks
