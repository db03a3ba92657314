"""The windows' check: whether a cell is its look in every small window too, not only as a whole.

A small mark on a big cell hardly moves the RMS difference of the whole (bot/vision/looks.py): a
cell is its look only if, besides, no square window of INK_WINDOW of a cell differs from the
look's picture by INK_LIMIT or more, compared at full size and at the best shift of up to
``reach`` pixels (a compared pixel: up to 4 at gnome-mines' 114 px cells, 81 shifts).

A pixel differs by its worst colour channel, not by the three averaged: xbomb's 7 is violet on
white (238,130,238 on 255,255,255), 125 levels in green alone, and its thin stroke on 51 px cells
differed from a blank cell by 44 in a window averaged over the channels (under the limit: read as
a 0) and by 75 in its worst one. A grey mark differs the same either way.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

INK_LIMIT = 60.0  # RMS difference (each pixel's worst channel) in any window of INK_WINDOW of a cell, at full size, below which it is its look
INK_WINDOW = 0.1  # the window's side, as a share of the cell's
ROUNDING = 0.01  # RMS levels a bound worked out in float32 may be off by


@dataclass(frozen=True)
class Hint:
    """For pairs of a cell and a look it is likely unlike: each cell's own look's picture, the
    window where the two looks differ most, and round it each window's difference of the looks
    at every shift (pairs, shifts, windows), from :meth:`InkCheck.hint`."""

    own: np.ndarray
    where: np.ndarray
    apart: np.ndarray


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

    def alike(self, a: np.ndarray, b: np.ndarray, hint: Hint | None = None) -> np.ndarray:
        """Whether ``differences(a, b) < INK_LIMIT`` for each pair, with less work. Each pair is
        compared whole unshifted, which also says where it differed most. At every other shift it
        is first compared only round that window: a window there differing by INK_LIMIT or more
        rules the shift out (its largest window differs at least as much), and only the shifts not
        ruled out are compared whole, nearest first, until one is alike. Pictures of different
        values differ where one has ink and the other none, at every shift: each pair of them is
        compared whole once (the web game's first reading at 2x took 27 ms, now 5).

        ``hint``, for pairs likely unlike (a cell against a look of another value than its own):
        where the two looks differ (see :class:`Hint`). A window's RMS difference is a norm, so at
        every shift a cell differs from the rival look in a window at least as much as the two looks
        differ there, less what the cell differs from its own look there unshifted. Only the pairs
        that bound leaves alike at some shift round that window are compared as above: the same
        answers, with none compared whole where the looks' own ink tells them apart (the web game's
        "0"s against its "3": its first reading at 2x, 5.9 -> 3.8 ms).

        First, pairs no pixel of which differs by INK_LIMIT are alike with no window worked out."""
        alike = self._surely(a, b)
        rest = np.flatnonzero(~alike)
        if len(rest):
            sub = None if hint is None else Hint(hint.own[rest], hint.where[rest], hint.apart[rest])
            alike[rest] = self._alike(a[rest], b[rest], sub)
        return alike

    def _alike(self, a: np.ndarray, b: np.ndarray, hint: Hint | None) -> np.ndarray:
        """``alike`` by the windows (its docstring)."""
        inner = self._inner(a)
        if hint is not None:
            own = self._round(inner, hint.own, np.arange(len(a)), hint.where, [(0, 0)])[0]
            low = (hint.apart - own[:, None, :]).max(axis=2)
            left = np.flatnonzero((low < INK_LIMIT + ROUNDING).any(axis=1))
            alike = np.zeros(len(a), dtype=bool)
            if len(left):
                alike[left] = self._alike(a[left], b[left], None)
            return alike
        top, where = self._windows(inner, b, 0, 0)
        alike = self._rms(top) < INK_LIMIT
        open_ = np.flatnonzero(~alike)
        if not len(open_):
            return alike
        shifts = self.shifts[1:]
        low = self._round(inner, b, open_, where[open_], shifts).max(axis=2)
        for (dy, dx), bound in zip(shifts, low, strict=True):
            whole = open_[(bound < INK_LIMIT) & ~alike[open_]]
            if len(whole):
                alike[whole] = (
                    self._rms(self._windows(inner[whole], b[whole], dy, dx)[0]) < INK_LIMIT
                )
        return alike

    def _surely(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Pairs alike unshifted with no window worked out: no pixel differs by INK_LIMIT or more in
        any channel, so no window does (nearly every cell of a game drawn at whole pixels)."""
        m, n = self.reach, self.cut
        apart = np.abs(_minus(self._inner(a), b[:, m : n - m, m : n - m]))
        return apart.reshape(len(a), -1).max(axis=1) < INK_LIMIT

    @property
    def shifts(self) -> list[tuple[int, int]]:
        """Every shift (dy, dx) within reach, nearest first, the unshifted one first."""
        m = self.reach
        return sorted(
            ((dy, dx) for dy in range(-m, m + 1) for dx in range(-m, m + 1)),
            key=lambda s: (max(map(abs, s)), s),
        )

    def hint(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For pairs of looks' pictures: the window where each pair differs most unshifted (its
        index), and round it, at every shift (as ``shifts``), each window's RMS difference
        (pairs, shifts, windows): what a :class:`Hint` holds of them."""
        inner = self._inner(a)
        where = self._windows(inner, b, 0, 0)[1]
        apart = self._round(inner, b, np.arange(len(a)), where, self.shifts)
        return where, apart.transpose(1, 0, 2)

    def _round(
        self,
        inner: np.ndarray,
        b: np.ndarray,
        pairs: np.ndarray,
        where: np.ndarray,
        shifts: list[tuple[int, int]],
    ) -> np.ndarray:
        """For ``pairs`` (indexes) and a window of each (``where``): at each of ``shifts``, the RMS
        difference of each window within a shift's reach of it (len(shifts), len(pairs), windows);
        their largest bounds the largest over all windows from below."""
        n, m = self.cut, self.reach
        w, k = self.window, n - 2 * m
        side = min(w + 2 * m, k)  # the windows within a shift's reach of the one given
        ty, tx = np.divmod(where, k - w + 1)
        ys = np.clip(ty - m, 0, k - side)[:, None] + np.arange(side)
        xs = np.clip(tx - m, 0, k - side)[:, None] + np.arange(side)
        at, wide = pairs[:, None, None], np.arange(side + 2 * m)
        around = inner[at, ys[:, :, None], xs[:, None, :]]
        # the other picture round the same windows, wide enough for every shift: each shift a view of it
        other = b[at, (ys[:, :1] + wide)[:, :, None], (xs[:, :1] + wide)[:, None, :]]
        there = np.stack(
            [other[:, m + dy : m + dy + side, m + dx : m + dx + side] for dy, dx in shifts]
        )
        sums = self._box_sums(_minus(around[None], there).reshape(-1, side, side, 3), side)
        return self._rms(sums).reshape(len(shifts), len(pairs), -1)

    def _inner(self, a: np.ndarray) -> np.ndarray:
        """Pictures without the outermost ``reach`` pixels: the part compared at every shift."""
        n, m = self.cut, self.reach
        return a[:, m : n - m, m : n - m]

    def _rms(self, top: np.ndarray) -> np.ndarray:
        """A window's sum of squared differences as an RMS difference."""
        return np.sqrt(np.maximum(top, 0) / self.window**2)

    def _windows(
        self, inner: np.ndarray, b: np.ndarray, dy: int, dx: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """For pairs (``inner`` of one picture, the other whole) at one shift: the largest sum of
        squared differences over a window, and where (its top left corner's index, row by row over
        the windows' places)."""
        n, m = self.cut, self.reach
        return self._box_top(
            _minus(inner, b[:, m + dy : n - m + dy, m + dx : n - m + dx]), n - 2 * m
        )

    def _box_top(self, diff: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """For differences (count, k, k, 3): the largest sum of squares over a window wholly inside,
        and where."""
        inside = self._box_sums(diff, k)
        where = inside.argmax(axis=1)
        return inside[np.arange(len(inside)), where], where

    def _box_sums(self, diff: np.ndarray, k: int) -> np.ndarray:
        """For differences (count, k, k, 3): the sum of squares over each window wholly inside
        (count, windows), row by row. The pairs are summed over windows as one tall picture."""
        count, w = len(diff), self.window
        flat = diff.reshape(count * k, k, 3)
        size = np.abs(flat)
        # each pixel's worst channel
        worst = np.maximum(np.maximum(size[..., 0], size[..., 1]), size[..., 2])
        sums = cv2.boxFilter(
            cv2.multiply(worst, worst, dtype=cv2.CV_32F), -1, (w, w), anchor=(0, 0), normalize=False
        )
        return sums.reshape(count, k, k)[:, : k - w + 1, : k - w + 1].reshape(count, -1)


def _minus(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a - b``: pictures as cut (bytes) give 16-bit differences, with no float copy of either
    picture and half the bytes of float differences, squared to the same floats (the windows' check
    is bound by memory, not arithmetic: gnome-mines' first reading at 114 px, 7.0 -> 6.3 ms)."""
    return np.subtract(a, b, dtype=np.int16 if a.dtype == np.uint8 else np.float32)
