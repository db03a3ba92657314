"""Exact mine probabilities.

1. Frontier cells that touch exactly the same rules form a *class*; only how many mines a
   class holds matters, each count k weighing C(size, k) layouts.
2. Rules that share cells form a *component*; components are independent but for the global
   mine count. Each is enumerated alone, class by class, with memoisation on the counts still
   needed by the rules that are open at that point (this collapses long chains that plain
   backtracking would explore exponentially): layouts counted backwards from each point, then
   forwards to it, so each class's mines are summed once, not carried along. Weights are exact
   Python integers, so a cell is called certain only when no layout disagrees.
3. Components are combined by total mines, each combination weighted by C(interior, mines
   left) - the number of ways to put the remaining mines in cells that touch no number
   (bot/solver/combine.py).
4. What revealing a cell may show (look-ahead) is solved for every number at once: the component
   its unknown neighbours join is enumerated once, counting the mines in them (``outcomes``).

Enumerations are cached by the component's rules, so the unchanged parts of a board cost
nothing on the next move or in a look-ahead.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from functools import reduce
from operator import and_, itemgetter, or_

import numpy as np

from bot.errors import InconsistentBoard
from bot.solver.combine import Combination, Convolved, Enumeration, Solution
from bot.solver.rules import Problem, Rule, bits

# Work is counted in the numbers merged while enumerating (5 to 15 million a second here, 2026-11-27).
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


COUNTED = -1  # the mines of a rule that says this are counted, not required (outcomes)
_TRACK = 1 << 16  # where a count of layouts keeps the counted rule's mines (above the component's)

# by the component's rules: its enumeration, or one per number of mines in a COUNTED rule's cells
# None: too complex
_CACHE: OrderedDict[frozenset[Rule], dict[int, Enumeration] | None] = OrderedDict()
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
    """The layouts of one component (a group of rules that share cells), by mine count."""
    return _tables(rules, budget)[0]


def _tables(rules: list[Rule], budget: Budget) -> dict[int, Enumeration]:
    """``_enumerate``, remembered by the rules."""
    key = frozenset(rules)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        cached = _CACHE[key]
        if cached is None:
            raise TooComplex
        return cached
    try:
        tables: dict[int, Enumeration] | None = _enumerate(rules, budget)
    except _Intrinsic:
        tables = None
    _CACHE[key] = tables
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    if tables is None:
        raise TooComplex
    return tables


class _Intrinsic(TooComplex):
    """The component alone exceeds COMPONENT_LIMIT: remembered, so it is not tried again."""


def _enumerate(rules: list[Rule], budget: Budget) -> dict[int, Enumeration]:
    """Every layout of one component's classes that its ``rules`` allow, counted by its number of
    mines: the weight of each count and each class's mines summed over those layouts. Where a rule
    is COUNTED, by how many mines its cells hold (as if it required that many: the same classes,
    in the same order), from one enumeration; else all under 0. Raises :class:`_Intrinsic` past
    COMPONENT_LIMIT and TooComplex past the ``budget``."""
    raw = _classes(rules)
    touching = [bits(sig) for _, sig in raw]
    order = _order(touching, len(rules))
    classes = [raw[k][0] for k in order]
    counted = [j for j, rule in enumerate(rules) if rule.mines == COUNTED]
    required = [[j for j in touching[k] if j not in counted] for k in order]
    units = [1 + _TRACK if any(j in counted for j in touching[k]) else 1 for k in order]
    enumerator = _Enumerator(rules, classes, required, units, budget)
    top = enumerator.layouts()
    if not counted:
        return {0: _table(classes, enumerator.sizes, top)}
    by_count: dict[int, Counts] = {}
    for m, layouts in top.items():
        by_count.setdefault(m // _TRACK, {})[m % _TRACK] = layouts
    return {a: _table(classes, enumerator.sizes, by_count[a]) for a in sorted(by_count)}


def _table(classes: list[int], sizes: list[int], top: Counts) -> Enumeration:
    """An enumeration from the counts of its layouts from its first class on."""
    some = {m: sum(1 << j for j, x in enumerate(vec) if x) for m, (_, vec) in top.items()}
    full = {
        m: sum(1 << j for j, x in enumerate(vec) if x == sizes[j] * w)
        for m, (w, vec) in top.items()
    }
    cells = [bits(c) for c in classes]
    lo, hi = (min(top), max(top)) if top else (0, -1)
    big = max((w for w, _ in top.values()), default=1)
    dist = np.zeros(hi - lo + 1)
    rows = np.zeros((hi - lo + 1, len(classes)))
    for m, (w, vec) in top.items():
        dist[m - lo] = w / big
        rows[m - lo] = [x / big for x in vec]
    return Enumeration(
        tuple(classes),
        tuple(sizes),
        {m: w for m, (w, _) in top.items()},
        {m: vec for m, (_, vec) in top.items()},
        some,
        full,
        np.array([i for members in cells for i in members], dtype=np.intp),
        np.array([j for j, members in enumerate(cells) for _ in members], dtype=np.intp),
        lo,
        dist,
        rows,
        np.array(sizes, dtype=float),
        math.log(big),
        np.array([m - lo for m in top], dtype=np.intp),
        reduce(or_, some.values(), 0),
        reduce(and_, full.values(), (1 << len(classes)) - 1),
    )


def _nothing(need: list[int]) -> tuple[()]:
    return ()


# mines in the classes -> (layouts, each class's mines summed)
Counts = dict[int, tuple[int, list[int]]]


class _Enumerator:
    """Classes taken in order, each given every number of mines its rules still allow; memoised
    on the position and the counts the rules open there still need (rules whose classes are all
    before it are settled, those all after it untouched), so long chains stay polynomial.

    The layouts are counted backwards (``count``: from each position and its open counts, the
    layouts of the classes from there on, by their mines), then forwards (``layouts``: the layouts
    of the classes before each position that reach each of its open counts); a class's mines
    summed over all layouts are then, for each way it is reached and each number it holds, the
    ways before it times the ways after it. Each class costs the products of two short tables,
    not a copy of every later class's sums."""

    def __init__(
        self,
        rules: list[Rule],
        classes: list[int],
        rules_of: list[list[int]],
        units: list[int],
        budget: Budget,
    ) -> None:
        self.budget = budget
        self.sizes = sizes = [c.bit_count() for c in classes]
        n = self.n = len(classes)
        self.rules_of = rules_of  # the rules each class touches that require a count, lowest first
        # what a mine of each class adds to a count's key (_TRACK: a counted rule's too)
        self.units = units
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
        # rules with classes before i and at or after it
        open_at: list[list[int]] = [[] for _ in range(n + 1)]
        for j in first:
            for i in range(first[j] + 1, last[j] + 1):
                open_at[i].append(j)
        # the counts the rules open at position i still need, as a memo key
        self.open_needs = [itemgetter(*js) if js else _nothing for js in open_at]
        self.need = [r.mines for r in rules]  # what each rule still needs, as the recursion goes
        self.combs = [[math.comb(s, k) for k in range(s + 1)] for s in sizes]
        # (position, open needs) -> the layouts from there on by mines, and the ways on: for each
        # number of mines the class there may hold, the next position's layouts (none dropped)
        self.memo: dict[
            tuple[int, object], tuple[dict[int, int], list[tuple[int, object, dict[int, int]]]]
        ] = {}
        self.spent = 0

    def _spend(self, work: int) -> None:
        self.spent += work
        if self.spent > COMPONENT_LIMIT:
            raise _Intrinsic
        self.budget.spend(work)

    def count(self, i: int, key: object) -> dict[int, int]:
        """The layouts of classes i.. that meet what the rules still need (``key``: those of the
        rules open at i), by their mines."""
        hit = self.memo.get((i, key))
        if hit is not None:
            return hit[0]
        need, sizes = self.need, self.sizes
        js = self.rules_of[i]
        lo, hi = 0, sizes[i]
        for j, cap in zip(js, self.cap_after[i]):
            lo = max(lo, need[j] - cap)
            hi = min(hi, need[j])
        sums: dict[int, int] = {}
        ways_on = []
        combs, unit, last = self.combs[i], self.units[i], i + 1 == self.n
        for k in range(lo, hi + 1):
            for j in js:
                need[j] -= k
            ahead = () if last else self.open_needs[i + 1](need)
            sub = _END if last else self.count(i + 1, ahead)
            for j in js:
                need[j] += k
            # a fresh table, a key and a call: about six sums per entry, 24 a step
            self._spend(6 * len(sub) + 24)
            if not sub:
                continue
            ways_on.append((k, ahead, sub))
            w, step = combs[k], k * unit
            for m, ways in sub.items():
                sums[m + step] = sums.get(m + step, 0) + w * ways
        self.memo[i, key] = (sums, ways_on)
        return sums

    def layouts(self) -> Counts:
        """Every layout, by its mines: how many, and each class's mines summed over them."""
        top = self.count(0, ()) if self.n else _END
        totals = {m: [0] * self.n for m in top}
        # open needs at i -> layouts before i by mines
        reach: dict[object, dict[int, int]] = {(): {0: 1}}
        for i in range(self.n):
            combs, unit = self.combs[i], self.units[i]
            onward: dict[object, dict[int, int]] = {}
            for key, before in reach.items():
                for k, ahead_key, after in self.memo[i, key][1]:
                    self._spend(len(before) * (len(after) + 1))
                    w, step = combs[k], k * unit
                    ahead = onward.setdefault(ahead_key, {})
                    for m, ways in before.items():
                        ahead[m + step] = ahead.get(m + step, 0) + w * ways
                        if k:
                            ways *= k * w
                            for m_after, ways_after in after.items():
                                totals[m + step + m_after][i] += ways * ways_after
            reach = onward
        return {m: (ways, totals[m]) for m, ways in top.items()}


_END = {0: 1}  # past the last class: one layout, no mines


def probabilities(
    p: Problem, rules: list[Rule] | None = None, budget: Budget | None = None
) -> Solution:
    """Exact probabilities for every unknown cell of ``p`` (or of ``p`` with other ``rules``).

    Each component of the rules is enumerated alone (enumerate_component); the components'
    distributions over their mine counts are convolved and weighted by the ways the cells off the
    frontier hold the mines left; then the interior's chance, then each frontier class's.

    Raises :class:`TooComplex` when an enumeration exceeds ``budget`` and
    :class:`InconsistentBoard` when no layout fits.
    """
    rules = list(p.rules) if rules is None else rules
    budget = Budget() if budget is None else budget
    tables = [enumerate_component(group, budget) for group in components(rules)]
    _check(tables)
    return _solution(p, _interior(p, rules), Convolved(tables), None)


def outcomes(p: Problem, rules: list[Rule], cells: int, budget: Budget) -> dict[int, Solution]:
    """For every number of mines ``cells`` may hold: ``probabilities(p, rules + [Rule(cells, that
    number)])``, where any layout fits it (what revealing a cell may show, where ``cells`` are its
    unknown neighbours). The component that those cells join is enumerated once for all numbers,
    counting the mines in them; the others are each enumerated once too."""
    rules = [*rules, Rule(cells, COUNTED)]
    rest, counted = [], {}
    for group in components(rules):
        if Rule(cells, COUNTED) in group:
            counted = _tables(group, budget)
        else:
            rest.append(enumerate_component(group, budget))
    _check(rest)
    convolved = Convolved(rest)  # the same for every number
    interior = _interior(p, rules)  # the same for every number
    out = {}
    for number, table in counted.items():
        try:
            _check([table])
            out[number] = _solution(p, interior, convolved, table)
        except InconsistentBoard:
            continue
    return out


def _interior(p: Problem, rules: list[Rule]) -> int:
    """The unknown cells of ``p`` that no rule of ``rules`` holds."""
    frontier = 0
    for r in rules:
        frontier |= r.cells
    return p.all_cells & ~frontier


def _check(tables: list[Enumeration]) -> None:
    if any(not t.weight for t in tables):
        raise InconsistentBoard("no mine layout fits the numbers on this board; re-read the board")


def _solution(p: Problem, interior: int, rest: Convolved, changed: Enumeration | None) -> Solution:
    """The solution from the enumerations of the components of the rules (``rest`` convolved, and
    ``changed``), which leave ``interior`` out: its weight now, every cell's chance when asked for."""
    return Solution(
        Combination(rest, changed, p.remaining, interior.bit_count()), interior, len(p.cells)
    )
