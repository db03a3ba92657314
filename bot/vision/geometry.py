"""Where a board is in an image: a lattice of equal cells, and fitting one through measured positions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from bot.vocabulary import Cell


@dataclass(frozen=True)
class Geometry:
    """Where the board is in an image: cell (r, c) starts at origin + (c * pitch_x, r * pitch_y)."""

    skin: str
    rows: int
    cols: int
    origin: tuple[float, float]
    pitch: tuple[float, float]
    cell_px: float
    scale: float
    # Where the game lays cells out in whole pixels at a fractional pitch (gnome-mines): the left
    # edge of each column and the top edge of each row as measured on the screen (see _snap).
    xs: tuple[int, ...] = ()
    ys: tuple[int, ...] = ()

    def _x(self, c: int) -> float:
        return self.xs[c] if self.xs else self.origin[0] + c * self.pitch[0]

    def _y(self, r: int) -> float:
        return self.ys[r] if self.ys else self.origin[1] + r * self.pitch[1]

    def box(self, r: int, c: int) -> tuple[int, int, int, int]:
        """(x, y, w, h) of the cell in image pixels."""
        n = round(self.cell_px)
        return round(self._x(c)), round(self._y(r)), n, n

    @cached_property
    def boxes(self) -> list[tuple[int, int, int, int]]:
        """Every cell's box, row by row (worked out once a geometry: a live game reads one board
        hundreds of times: 0.7 ms of a 6 ms reading at Expert went on 480 calls of ``box``)."""
        return [self.box(r, c) for r in range(self.rows) for c in range(self.cols)]

    def centre(self, cell: Cell) -> tuple[float, float]:
        r, c = cell
        half = self.cell_px / 2
        return self._x(c) + half, self._y(r) + half

    def region(self, margin: int = 0) -> tuple[int, int, int, int]:
        """(x, y, w, h) covering every cell, plus ``margin`` pixels each side."""
        x0, y0 = round(self.origin[0]) - margin, round(self.origin[1]) - margin
        x1 = round(self.origin[0] + (self.cols - 1) * self.pitch[0] + self.cell_px) + margin
        y1 = round(self.origin[1] + (self.rows - 1) * self.pitch[1] + self.cell_px) + margin
        return x0, y0, x1 - x0, y1 - y0

    def moved(self, dx: float, dy: float) -> Geometry:
        xs = tuple(x + round(dx) for x in self.xs)
        ys = tuple(y + round(dy) for y in self.ys)
        return replace(self, origin=(self.origin[0] + dx, self.origin[1] + dy), xs=xs, ys=ys)

    def part(self, row: int, col: int, rows: int, cols: int) -> Geometry:
        """The geometry of the rows x cols cells from (row, col) on, alone."""
        return replace(
            self,
            rows=rows,
            cols=cols,
            origin=(self.origin[0] + col * self.pitch[0], self.origin[1] + row * self.pitch[1]),
            xs=self.xs[col : col + cols],
            ys=self.ys[row : row + rows],
        )


def fit_lattice(positions: np.ndarray, prior: float) -> tuple[float, float, np.ndarray]:
    """Least-squares lattice through 1-D positions: (start, pitch, index of each position)."""
    ref = positions.min()
    k = np.round((positions - ref) / prior)
    if np.ptp(k) == 0:
        return float(positions.mean()), prior, k.astype(int)
    # refine the pitch from the closest spans first, so a wrong prior cannot alias the indices
    pitch = prior
    for span in (4, 16, 64, 10**6):
        sel = k <= span
        if np.ptp(k[sel]) > 0:
            a = np.vstack([np.ones(sel.sum()), k[sel]]).T
            (_, pitch), *_ = np.linalg.lstsq(a, positions[sel], rcond=None)
            k = np.round((positions - ref) / pitch)
    a = np.vstack([np.ones(len(k)), k]).T
    (start, pitch), *_ = np.linalg.lstsq(a, positions, rcond=None)
    return float(start), float(pitch), k.astype(int)


Line = list[Cell]


def grow(geo: Geometry, belongs: Callable[[Geometry, Line, Line], bool]) -> Geometry:
    """Extend a board a row or column at a time, on every side, while ``belongs(grown, line, edge)``
    says the new line is the board's: ``grown`` is the board with the line, ``line`` the line's cells
    and ``edge`` the cells of the old board's edge beside it, both in ``grown``'s numbering."""
    changed = True
    while changed:
        changed = False
        for side in ("left", "right", "up", "down"):
            while True:
                trial, line, edge = _beside(geo, side)
                if not belongs(trial, line, edge):
                    break
                geo, changed = trial, True
    return geo


def _beside(geo: Geometry, side: str) -> tuple[Geometry, Line, Line]:
    if side == "left":
        trial = replace(geo, cols=geo.cols + 1).moved(-geo.pitch[0], 0)
        return trial, [(r, 0) for r in range(trial.rows)], [(r, 1) for r in range(trial.rows)]
    if side == "right":
        return (
            replace(geo, cols=geo.cols + 1),
            [(r, geo.cols) for r in range(geo.rows)],
            [(r, geo.cols - 1) for r in range(geo.rows)],
        )
    if side == "up":
        trial = replace(geo, rows=geo.rows + 1).moved(0, -geo.pitch[1])
        return trial, [(0, c) for c in range(trial.cols)], [(1, c) for c in range(trial.cols)]
    return (
        replace(geo, rows=geo.rows + 1),
        [(geo.rows, c) for c in range(geo.cols)],
        [(geo.rows - 1, c) for c in range(geo.cols)],
    )
