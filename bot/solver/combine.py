"""Components' enumerations combined by total mines (bot/solver/exact.py, step 3): each frontier
total weighted by C(interior cells, mines left), then every cell's chance from the combination."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from bot.errors import InconsistentBoard
from bot.solver.rules import bits

if TYPE_CHECKING:
    from bot.solver.exact import Enumeration


def _log_comb(n: int, k: np.ndarray) -> np.ndarray:
    out = np.full(k.shape, -np.inf)
    ok = (k >= 0) & (k <= n)
    kk = k[ok].astype(float)
    out[ok] = math.lgamma(n + 1) - np.array([math.lgamma(v + 1) + math.lgamma(n - v + 1) for v in kk])
    return out


class Combination:
    """The components' mine-count distributions (each scaled to a largest weight of 1), convolved,
    and weighted by C(interior cells, mines left) for each frontier total."""

    def __init__(self, tables: list[Enumeration], remaining: int | None, n_in: int) -> None:
        self.tables, self.remaining, self.n_in = tables, remaining, n_in
        self.dists, self.offsets, self.bigs = [], [], []
        for t in tables:
            lo, hi = min(t.weight), max(t.weight)
            big = max(t.weight.values())
            d = np.zeros(hi - lo + 1)
            for m, w in t.weight.items():
                d[m - lo] = w / big
            self.dists.append(d)
            self.offsets.append(lo)
            self.bigs.append(big)
        self.total, self.t_off = self.convolve_all(None)
        self.support = np.arange(len(self.total)) + self.t_off  # frontier mine totals
        if remaining is None:
            # No global count: components independent, interior unknown.
            left_log = np.zeros(len(self.total))
        else:
            left_log = _log_comb(n_in, remaining - self.support)
        shift = float(np.max(left_log)) if np.isfinite(left_log).any() else 0.0
        self.left = np.exp(left_log - shift)
        self.feasible = (self.total > 0) & (self.left > 0)
        self.z = float(np.sum(self.total * self.left))
        if not self.feasible.any() or self.z <= 0:
            raise InconsistentBoard(
                "the mine count cannot be met by any layout that fits the numbers; check the mine count"
            )
        self.log_weight = math.log(self.z) + shift + sum(math.log(b) for b in self.bigs)

    def convolve_all(self, skip: int | None) -> tuple[np.ndarray, int]:
        """Every component's distribution but ``skip``'s, convolved, and its lowest total."""
        acc, off = np.ones(1), 0
        for c, d in enumerate(self.dists):
            if c != skip:
                acc = np.convolve(acc, d)
                off += self.offsets[c]
        return acc, off

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
        for c, t in enumerate(self.tables):
            others, o_off = self.convolve_all(c)
            acc = np.zeros(len(t.sizes))
            big = self.bigs[c]
            some, full = 0, (1 << len(t.sizes)) - 1
            for m in t.weight:
                idx = m + o_off - self.t_off
                # weight of "this component holds m" summed over the other components
                share = float(np.dot(others, self.left[idx : idx + len(others)]))
                if share <= 0.0:
                    continue
                some |= t.some[m]
                full &= t.full[m]
                acc += np.array([x / big for x in t.mines[m]]) * share
            value = np.minimum(np.maximum(acc / (self.z * np.array(t.sizes)), 0.0), 1.0)
            for j in bits(~some & ((1 << len(t.sizes)) - 1)):
                value[j] = 0.0
                safe |= t.classes[j]
            for j in bits(full & some):
                value[j] = 1.0
                mines |= t.classes[j]
            prob[t.cells] = value[t.owner]
        return safe, mines
