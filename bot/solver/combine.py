"""Components' enumerations combined by total mines (bot/solver/exact.py, step 3): each frontier
total weighted by C(interior cells, mines left), then every cell's chance from the combination.

The components but one are convolved once (``Convolved``: all of them, and each left out), so
that look-ahead, which solves the same board for every number a cell may show, convolves only
the component that changes with each number (``Combination``'s ``changed``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from bot.errors import InconsistentBoard
from bot.solver.rules import bits


@dataclass(frozen=True)
class Enumeration:
    """One component's layouts by mine count: ``weight[m]`` layouts, ``mines[m][j]`` = the sum
    over those layouts of the mines in class j (weighted). Exact integers."""

    classes: tuple[int, ...]  # bitmask of each class
    sizes: tuple[int, ...]
    weight: dict[int, int]
    mines: dict[int, list[int]]
    some: dict[int, int]  # per m, the classes (bitmask over them) with a mine in some layout
    full: dict[int, int]  # per m, the classes that are all mines in every layout
    cells: np.ndarray  # every class's cells, class after class
    owner: np.ndarray  # the class of each of ``cells``
    # the same in floats, each count's weight scaled by the largest (``big``), for combining:
    lo: int  # the fewest mines of any layout
    dist: np.ndarray  # weight[lo + k] / big
    rows: np.ndarray  # rows[k][j] = mines[lo + k][j] / big (0 where no layout holds lo + k mines)
    size_array: np.ndarray  # sizes
    log_big: float  # log(big)
    present: np.ndarray  # the counts m - lo that some layout holds
    some_all: int  # ``some`` and ``full`` over every count
    full_all: int


@lru_cache(maxsize=64)
def _log_combs(n: int) -> np.ndarray:
    """log C(n, k) for k = 0..n."""
    k = np.arange(n + 1, dtype=float)
    lg = np.vectorize(math.lgamma)
    return math.lgamma(n + 1) - lg(k + 1) - lg(n - k + 1)


class Convolved:
    """Components' mine-count distributions (each scaled to a largest weight of 1) convolved: all of
    them (``total``, from ``offset`` mines), and all but each one (``without[c]``, from
    ``offset - tables[c].lo``)."""

    def __init__(self, tables: list[Enumeration]) -> None:
        self.tables = tables
        n = len(tables)
        prefix = [np.ones(1)]
        for t in tables:
            prefix.append(np.convolve(prefix[-1], t.dist))
        suffix = np.ones(1)
        self.without: list[np.ndarray] = [np.ones(1)] * n
        for c in range(n - 1, -1, -1):
            self.without[c] = np.convolve(prefix[c], suffix) if c else suffix
            suffix = np.convolve(suffix, tables[c].dist)
        self.total = prefix[-1]
        self.offset = sum(t.lo for t in tables)
        self.log_bigs = sum(t.log_big for t in tables)


class Combination:
    """The components' distributions convolved (``rest``, and the one ``changed`` if any), and
    weighted by C(interior cells, mines left) for each frontier total."""

    def __init__(
        self, rest: Convolved, changed: Enumeration | None, remaining: int | None, n_in: int
    ) -> None:
        self.rest, self.changed, self.remaining, self.n_in = rest, changed, remaining, n_in
        self.total = rest.total if changed is None else np.convolve(rest.total, changed.dist)
        self.t_off = rest.offset + (0 if changed is None else changed.lo)
        self.support = np.arange(len(self.total)) + self.t_off  # frontier mine totals
        if remaining is None:
            # No global count: components independent, interior unknown.
            left_log = np.zeros(len(self.total))
        else:
            k = remaining - self.support
            ok = (k >= 0) & (k <= n_in)
            left_log = np.full(len(k), -np.inf)
            left_log[ok] = _log_combs(n_in)[k[ok]]
        shift = float(np.max(left_log)) if np.isfinite(left_log).any() else 0.0
        self.left = np.exp(left_log - shift)
        self.feasible = (self.total > 0) & (self.left > 0)
        self.z = float(np.dot(self.total, self.left))
        if not self.feasible.any() or self.z <= 0:
            raise InconsistentBoard(
                "the mine count cannot be met by any layout that fits the numbers; check the mine count",
                count=True,
            )
        self.log_weight = (
            math.log(self.z) + shift + rest.log_bigs + (0.0 if changed is None else changed.log_big)
        )

    def interior(self, prob: np.ndarray, interior: int) -> tuple[int, int]:
        """Fill in the chance of a cell off the frontier (all of ``prob``); the interior as safe or
        mines where it is certain."""
        safe = mines = 0
        if not self.n_in:
            return safe, mines
        if self.remaining is None:
            value = float("nan")
        else:
            left_counts = self.remaining - self.support
            if np.all(left_counts[self.feasible] == 0):
                value = 0.0
                safe |= interior
            elif np.all(left_counts[self.feasible] == self.n_in):
                value = 1.0
                mines |= interior
            else:
                value = float(np.sum(self.total * self.left * left_counts) / (self.z * self.n_in))
        prob[:] = value
        return safe, mines

    def frontier(self, prob: np.ndarray) -> tuple[int, int]:
        """Fill in each frontier class's chance; the classes certain safe and certain mines."""
        safe = mines = 0
        parts = [(t, self.rest.without[c]) for c, t in enumerate(self.rest.tables)]
        if self.changed is not None:
            parts = [(t, np.convolve(others, self.changed.dist)) for t, others in parts]
            parts.append((self.changed, self.rest.total))
        for t, others in parts:
            # for each m, the weight of "this component holds m" summed over the other components
            shares = np.correlate(self.left, others, mode="valid")
            n = len(t.sizes)
            if (shares[t.present] > 0.0).all():
                some, full = t.some_all, t.full_all
            else:  # the mines left rule some counts out
                some, full = 0, (1 << n) - 1
                for m in t.weight:
                    if shares[m - t.lo] > 0.0:
                        some |= t.some[m]
                        full &= t.full[m]
            value = np.minimum(np.maximum(shares @ t.rows / (self.z * t.size_array), 0.0), 1.0)
            for j in bits(~some & ((1 << n) - 1)):
                value[j] = 0.0
                safe |= t.classes[j]
            for j in bits(full & some):
                value[j] = 1.0
                mines |= t.classes[j]
            prob[t.cells] = value[t.owner]
        return safe, mines


class Solution:
    """A board's chances: the number of layouts that fit it (``log_weight``, its log) at once; each
    unknown cell's chance of a mine (``probability``, in the problem's order) and the cells certainly
    safe and certainly mines (bitmasks over them) when first asked for: look-ahead often needs only
    the weights of the numbers a cell may show."""

    def __init__(self, counts: Combination, interior: int, n_cells: int) -> None:
        self.log_weight = counts.log_weight
        self._counts, self._interior, self._n_cells = counts, interior, n_cells

    @cached_property
    def _solved(self) -> tuple[np.ndarray, int, int]:
        prob = np.zeros(self._n_cells)  # interior cells are filled in first, frontier classes after
        safe, mines = self._counts.interior(prob, self._interior)
        frontier_safe, frontier_mines = self._counts.frontier(prob)
        del self._counts  # done with
        return prob, safe | frontier_safe, mines | frontier_mines

    @property
    def probability(self) -> np.ndarray:
        return self._solved[0]

    @property
    def safe(self) -> int:
        return self._solved[1]

    @property
    def mines(self) -> int:
        return self._solved[2]
