"""Exact mine probabilities.

1. Frontier cells that touch exactly the same rules form a *class*; only how many mines a
   class holds matters, each count k weighing C(size, k) layouts.
2. Rules that share cells form a *component*; components are independent but for the global
   mine count. Each is enumerated alone, class by class, with memoisation on the counts still
   needed by the rules that are open at that point (this collapses long chains that plain
   backtracking would explore exponentially). Weights are exact Python integers, so a cell is
   called certain only when no layout disagrees.
3. Components are combined by total mines, each combination weighted by C(interior, mines
   left) - the number of ways to put the remaining mines in cells that touch no number.

Enumerations are cached by the component's rules, so the unchanged parts of a board cost
nothing on the next move or in a look-ahead.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from operator import itemgetter

import numpy as np

from bot.errors import InconsistentBoard
from bot.solver.rules import Problem, Rule, bits

# Work is counted in the numbers merged while enumerating (about 3 million a second here).
COMPONENT_LIMIT = 1_200_000  # one component past this is too complex, whatever budget is left
DEFAULT_BUDGET = 1_500_000  # what one decision may spend in all (solve and look-ahead)


class TooComplex(Exception):
    """An enumeration would exceed its budget; the caller falls back to an approximation."""


class Budget:
    """Work left for the enumerations of one decision; shared by the solves that make it."""

    def __init__(self, work: int = DEFAULT_BUDGET) -> None:
        self.left = work

    def spend(self, work: int) -> None:
        self.left -= work
        if self.left < 0:
            raise TooComplex


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


@dataclass(frozen=True)
class Solution:
    probability: np.ndarray  # per unknown cell of the problem, in the problem's order
    safe: int  # bitmask: certainly safe
    mines: int  # bitmask: certainly mines
    log_weight: float  # log of the number of layouts consistent with the board (-inf: none)


_CACHE: OrderedDict[frozenset[Rule], Enumeration | None] = OrderedDict()  # None: too complex
_CACHE_SIZE = 4096


def components(rules: tuple[Rule, ...] | list[Rule]) -> list[list[Rule]]:
    """Split rules into groups that share no cell."""
    groups: list[tuple[int, list[Rule]]] = []
    for rule in rules:
        mask, members = rule.cells, [rule]
        keep = []
        for gmask, grules in groups:
            if gmask & mask:
                mask |= gmask
                members.extend(grules)
            else:
                keep.append((gmask, grules))
        keep.append((mask, members))
        groups = keep
    return [members for _, members in groups]


def _classes(rules: list[Rule]) -> list[tuple[int, int]]:
    """Cells that touch exactly the same rules: each class as (its cells, its rules) bitmasks."""
    signature: dict[int, int] = {}
    for j, rule in enumerate(rules):
        for i in bits(rule.cells):
            signature[i] = signature.get(i, 0) | (1 << j)
    by_sig: dict[int, int] = {}
    for i, sig in signature.items():
        by_sig[sig] = by_sig.get(sig, 0) | (1 << i)
    return [(cells, sig) for sig, cells in by_sig.items()]


def _order(touching: list[list[int]], n_rules: int) -> list[int]:
    """Classes (each given by the rules it touches) in breadth-first order over shared rules,
    from a far end (keeps few rules open)."""
    members: list[list[int]] = [[] for _ in range(n_rules)]
    for k, js in enumerate(touching):
        for j in js:
            members[j].append(k)

    def bfs(start: int) -> list[int]:
        seen = {start}
        order = [start]
        for k in order:
            for j in touching[k]:
                for other in members[j]:
                    if other not in seen:
                        seen.add(other)
                        order.append(other)
        return order

    start = min(range(len(touching)), key=lambda k: len(touching[k]))
    return bfs(bfs(start)[-1])


def enumerate_component(rules: list[Rule], budget: Budget) -> Enumeration:
    key = frozenset(rules)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        cached = _CACHE[key]
        if cached is None:
            raise TooComplex
        return cached
    try:
        table: Enumeration | None = _enumerate(rules, budget)
    except _Intrinsic:
        table = None
    _CACHE[key] = table
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    if table is None:
        raise TooComplex
    return table


class _Intrinsic(TooComplex):
    """The component alone exceeds COMPONENT_LIMIT: remembered, so it is not tried again."""


def _enumerate(rules: list[Rule], budget: Budget) -> Enumeration:
    """Every layout of one component's classes that its ``rules`` allow, counted by its number of
    mines: the weight of each count and each class's mines summed over those layouts. Raises
    :class:`_Intrinsic` past COMPONENT_LIMIT and TooComplex past the ``budget``."""
    raw = _classes(rules)
    touching = [bits(sig) for _, sig in raw]
    order = _order(touching, len(rules))
    classes = [raw[k][0] for k in order]
    enumerator = _Enumerator(rules, classes, [touching[k] for k in order], budget)
    top, sizes = enumerator.count(0), enumerator.sizes
    some = {m: sum(1 << j for j, x in enumerate(vec) if x) for m, (_, vec) in top.items()}
    full = {m: sum(1 << j for j, x in enumerate(vec) if x == sizes[j] * w) for m, (w, vec) in top.items()}
    cells = [bits(c) for c in classes]
    return Enumeration(
        tuple(classes),
        tuple(sizes),
        {m: w for m, (w, _) in top.items()},
        {m: vec for m, (_, vec) in top.items()},
        some,
        full,
        np.array([i for members in cells for i in members], dtype=np.intp),
        np.array([j for j, members in enumerate(cells) for _ in members], dtype=np.intp),
    )


def _nothing(need: list[int]) -> tuple[()]:
    return ()


Counts = dict[int, tuple[int, list[int]]]  # mines in the classes from i on -> (layouts, each class's mines summed)


class _Enumerator:
    """Classes taken in order, each given every number of mines its rules still allow; memoised
    on the position and the counts the rules open there still need (rules whose classes are all
    before it are settled, those all after it untouched), so long chains stay polynomial."""

    def __init__(self, rules: list[Rule], classes: list[int], rules_of: list[list[int]], budget: Budget) -> None:
        self.budget = budget
        self.sizes = sizes = [c.bit_count() for c in classes]
        n = self.n = len(classes)
        self.rules_of = rules_of  # the rules each class touches, lowest first
        # capacity of rule j in classes after position i, for each j in rules_of[i]
        after: dict[tuple[int, int], int] = {}
        left = [0] * len(rules)
        for i in range(n - 1, -1, -1):
            for j in rules_of[i]:
                after[i, j] = left[j]
                left[j] += sizes[i]
        self.cap_after = [[after[i, j] for j in rules_of[i]] for i in range(n)]
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        for i, js in enumerate(rules_of):
            for j in js:
                first.setdefault(j, i)
                last[j] = i
        open_at: list[list[int]] = [[] for _ in range(n + 1)]  # rules with classes before i and at or after it
        for j in range(len(rules)):
            for i in range(first[j] + 1, last[j] + 1):
                open_at[i].append(j)
        # the counts the rules open at position i still need, as a memo key
        self.open_needs = [itemgetter(*js) if js else _nothing for js in open_at]
        self.need = [r.mines for r in rules]  # what each rule still needs, as the recursion goes
        self.combs = [[math.comb(s, k) for k in range(s + 1)] for s in sizes]
        self.memo: dict[tuple[int, object], Counts] = {}  # (position, open needs) -> counts
        self.end: Counts = {0: (1, [])}
        self.spent = 0

    def count(self, i: int) -> Counts:
        """The layouts of classes i.. that meet what the rules still need."""
        if i == self.n:
            return self.end
        need = self.need
        key = (i, self.open_needs[i](need))
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        lo, hi = 0, self.sizes[i]
        js = self.rules_of[i]
        for j, cap in zip(js, self.cap_after[i]):
            lo = max(lo, need[j] - cap)
            hi = min(hi, need[j])
        # mines in classes i.. -> [layouts, class i's mines, each later class's]; the later classes'
        # list is shared with ``sub`` while it is taken once and unscaled (C(size, k) = 1)
        sums: dict[int, list] = {}
        combs = self.combs[i]
        for k in range(lo, hi + 1):
            for j in js:
                need[j] -= k
            sub = self.count(i + 1)
            for j in js:
                need[j] += k
            w = combs[k]
            work = len(sub) * (self.n - i + 1)
            self.spent += work
            if self.spent > COMPONENT_LIMIT:
                raise _Intrinsic
            self.budget.spend(work)
            for m, (weight, vec) in sub.items():
                ww = w * weight
                have = sums.get(m + k)
                if have is None:
                    sums[m + k] = [ww, k * ww, vec if w == 1 else [w * x for x in vec]]
                else:
                    have[0] += ww
                    have[1] += k * ww
                    if w == 1:
                        have[2] = [a + b for a, b in zip(have[2], vec)]
                    else:
                        have[2] = [a + w * b for a, b in zip(have[2], vec)]
        result: Counts = {m: (ww, [head, *tail]) for m, (ww, head, tail) in sums.items()}
        self.memo[key] = result
        return result


def _log_comb(n: int, k: np.ndarray) -> np.ndarray:
    out = np.full(k.shape, -np.inf)
    ok = (k >= 0) & (k <= n)
    kk = k[ok].astype(float)
    out[ok] = math.lgamma(n + 1) - np.array([math.lgamma(v + 1) + math.lgamma(n - v + 1) for v in kk])
    return out


def probabilities(p: Problem, rules: list[Rule] | None = None, budget: Budget | None = None) -> Solution:
    """Exact probabilities for every unknown cell of ``p`` (or of ``p`` with other ``rules``).

    Each component of the rules is enumerated alone (enumerate_component); the components'
    distributions over their mine counts are convolved and weighted by the ways the cells off the
    frontier hold the mines left; then the interior's chance, then each frontier class's.

    Raises :class:`TooComplex` when an enumeration exceeds ``budget`` and
    :class:`InconsistentBoard` when no layout fits.
    """
    rules = list(p.rules) if rules is None else rules
    budget = Budget() if budget is None else budget
    frontier = 0
    for r in rules:
        frontier |= r.cells
    interior = p.all_cells & ~frontier
    tables = [enumerate_component(group, budget) for group in components(rules)]
    if any(not t.weight for t in tables):
        raise InconsistentBoard("no mine layout fits the numbers on this board; re-read the board")
    counts = _Counts(tables, p.remaining, interior.bit_count())
    prob = np.zeros(len(p.cells))  # interior cells are filled in first, frontier classes after
    safe, mines = counts.interior(prob, interior)
    frontier_safe, frontier_mines = counts.frontier(prob)
    return Solution(prob, safe | frontier_safe, mines | frontier_mines, counts.log_weight)


class _Counts:
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
