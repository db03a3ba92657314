"""The windows' check: whether a cell is its look in every small window too, not only as a whole.

A small mark on a big cell hardly moves the RMS difference of the whole (bot/vision/looks.py): a
cell is its look only if, besides, no square window of INK_WINDOW of a cell differs from the
look's picture by INK_LIMIT or more, compared at full size and at the best shift of up to
``reach`` pixels (a compared pixel: up to 4 at gnome-mines' 114 px cells, 81 shifts).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

INK_LIMIT = 60.0  # RMS difference in any window of INK_WINDOW of a cell, at full size, below which it is its look
INK_WINDOW = 0.1  # the window's side, as a share of the cell's


@dataclass(frozen=True)
class InkCheck:
    """The windows' check for pictures ``cut`` pixels square that may sit ``reach`` pixels off."""

    cut: int
    reach: int

    @property
    def window(self) -> int:
        """The windows' side, in pixels."""
        return max(2, round(INK_WINDOW * self.cut))

    def differences(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """For pairs of pictures (n, cut, cut, 3): the largest RMS difference over the windows, at
        the best shift (the definition that :meth:`alike` decides with less work)."""
        inner, m = self._inner(a), self.reach
        best = np.full(len(a), np.inf, dtype=np.float32)
        for dy in range(-m, m + 1):
            for dx in range(-m, m + 1):
                np.minimum(best, self._rms(self._windows(inner, b, dy, dx)[0]), out=best)
        return best

    def alike(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Whether ``differences(a, b) < INK_LIMIT`` for each pair, with less work. Each pair is
        compared whole unshifted, which also says where it differed most. At every other shift it
        is first compared only round that window: a window there differing by INK_LIMIT or more
        rules the shift out (its largest window differs at least as much), and only the shifts not
        ruled out are compared whole, nearest first, until one is alike. Pictures of different
        values differ where one has ink and the other none, at every shift: each pair of them is
        compared whole once (the web game's first reading at 2x took 27 ms, now 5)."""
        n, m = self.cut, self.reach
        w, k = self.window, n - 2 * m
        inner = self._inner(a)
        top, where = self._windows(inner, b, 0, 0)
        alike = self._rms(top) < INK_LIMIT
        open_ = np.flatnonzero(~alike)
        if not len(open_):
            return alike
        side = min(w + 2 * m, k)  # the windows within a shift's reach of the one that differed most
        ty, tx = np.divmod(where[open_], k - w + 1)
        ys = np.clip(ty - m, 0, k - side)[:, None] + np.arange(side)
        xs = np.clip(tx - m, 0, k - side)[:, None] + np.arange(side)
        pairs, wide = open_[:, None, None], np.arange(side + 2 * m)
        around = inner[pairs, ys[:, :, None], xs[:, None, :]]
        # the other picture round the same windows, wide enough for every shift: each shift a view of it
        other = b[pairs, (ys[:, :1] + wide)[:, :, None], (xs[:, :1] + wide)[:, None, :]]
        shifts = sorted(((dy, dx) for dy in range(-m, m + 1) for dx in range(-m, m + 1) if dy or dx), key=lambda s: (max(map(abs, s)), s))
        there = np.stack([other[:, m + dy : m + dy + side, m + dx : m + dx + side] for dy, dx in shifts])
        low = self._rms(self._box_top((around[None] - there).reshape(-1, side, side, 3), side)[0]).reshape(len(shifts), -1)
        for (dy, dx), bound in zip(shifts, low, strict=True):
            whole = open_[(bound < INK_LIMIT) & ~alike[open_]]
            if len(whole):
                alike[whole] = self._rms(self._windows(inner[whole], b[whole], dy, dx)[0]) < INK_LIMIT
        return alike

    def _inner(self, a: np.ndarray) -> np.ndarray:
        """Pictures without the outermost ``reach`` pixels: the part compared at every shift."""
        n, m = self.cut, self.reach
        return a[:, m : n - m, m : n - m]

    def _rms(self, top: np.ndarray) -> np.ndarray:
        """A window's sum of squared differences as an RMS difference."""
        return np.sqrt(np.maximum(top, 0) / (self.window**2 * 3))

    def _windows(self, inner: np.ndarray, b: np.ndarray, dy: int, dx: int) -> tuple[np.ndarray, np.ndarray]:
        """For pairs (``inner`` of one picture, the other whole) at one shift: the largest sum of
        squared differences over a window, and where (its top left corner's index, row by row over
        the windows' places)."""
        n, m = self.cut, self.reach
        return self._box_top(inner - b[:, m + dy : n - m + dy, m + dx : n - m + dx], n - 2 * m)

    def _box_top(self, diff: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """For differences (count, k, k, 3): the largest sum of squares over a window wholly inside,
        and where. The pairs are summed over windows as one tall picture."""
        count, w = len(diff), self.window
        flat = diff.reshape(count * k, k, 3)
        d2 = cv2.transform(cv2.multiply(flat, flat), np.ones((1, 3), dtype=np.float32))
        sums = cv2.boxFilter(d2, -1, (w, w), anchor=(0, 0), normalize=False)
        inside = sums.reshape(count, k, k)[:, : k - w + 1, : k - w + 1].reshape(count, -1)
        where = inside.argmax(axis=1)
        return inside[np.arange(count), where], where
