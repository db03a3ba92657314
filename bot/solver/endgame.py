"""Endgame search: when few mine layouts remain, find the move with the best chance to win.

Every layout of the remaining mines over the unknown cells that fits the board is equally
likely. Revealing a cell splits the layouts by what the game would show (the number there and,
for a 0, everything its opening uncovers); a cell that is a mine in a layout loses it. The
value of a position is the best over its cells of the summed value of the parts, and a
position with one layout left is won. The search is exhaustive with memoisation and bounded
by a work budget; past it the caller keeps its heuristic choice.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from bot.board import Board
from bot.solver.rules import Problem, bits, lowest
from bot.vocabulary import FLAG

MAX_LAYOUTS = 1000
WORK_BUDGET = 100_000  # cells uncovered in imagined reveals, per search (about 0.1 s here)


class SearchTooBig(Exception):
    pass


@dataclass(frozen=True)
class EndgameMove:
    index: int  # into the problem's cells
    win: float  # chance to win the game from here with best play


def layouts(p: Problem, limit: int | None = None) -> list[int] | None:
    """Every mine layout (bitmask) over ``p``'s unknown cells that fits its rules and count,
    or None when there are more than ``limit`` or the count is unknown."""
    limit = MAX_LAYOUTS if limit is None else limit
    if p.remaining is None:
        return None
    n = len(p.cells)
    rules = list(p.rules)
    # cells in frontier-first order, so rules close early
    frontier = p.frontier()
    order = bits(frontier) + bits(p.all_cells & ~frontier)
    position = {cell: k for k, cell in enumerate(order)}
    last_of = [max(position[i] for i in bits(r.cells)) for r in rules]
    closing: list[list[int]] = [[] for _ in range(n)]
    for j, k in enumerate(last_of):
        closing[k].append(j)
    found: list[int] = []

    def rec(k: int, mask: int, left: int) -> None:
        if len(found) > limit:
            return
        if k == n:
            if left == 0:
                found.append(mask)
            return
        if left > n - k:
            return
        cell = order[k]
        for put in ((1,) if left == n - k else (0, 1)) if left else (0,):
            m = mask | (put << cell)
            ok = True
            for j in closing[k]:
                if (m & rules[j].cells).bit_count() != rules[j].mines:
                    ok = False
                    break
            if ok:
                rec(k + 1, m, left - put)

    rec(0, 0, p.remaining)
    return None if len(found) > limit else found


def search(
    board: Board, p: Problem, lays: list[int], work_budget: int | None = None
) -> EndgameMove:
    """The cell to reveal for the best chance to win; raises :class:`SearchTooBig`."""
    if len(lays) == 1:
        free = bits(p.all_cells & ~lays[0])
        if not free:
            raise SearchTooBig  # every unknown cell is a mine: nothing to reveal
        return EndgameMove(free[0], 1.0)
    win, i = _Search(board, p, WORK_BUDGET if work_budget is None else work_budget).value(
        frozenset(lays), 0
    )
    return EndgameMove(i, win)


class _Search:
    """The reveal tree of one position: each node a set of layouts still possible and the cells
    opened; its value the chance to win from there, playing best (memoised)."""

    def __init__(self, board: Board, p: Problem, work_budget: int) -> None:
        self.p, self.work_budget = p, work_budget
        n = len(p.cells)
        self.around = [0] * n
        self.flags = [0] * n  # flagged neighbours: part of the number shown, and no opening then
        for i, cell in enumerate(p.cells):
            for nb in board.neighbours(cell):
                j = p.index.get(nb)
                if j is not None:
                    self.around[i] |= 1 << j
                elif board[nb] == FLAG:
                    self.flags[i] += 1
        self.memo: dict[tuple[frozenset[int], int], tuple[float, int]] = {}
        self.work = 0  # one unit per cell a reveal uncovers, over the whole search

    def outcome(self, layout: int, i: int, opened: int) -> tuple[int, tuple[tuple[int, int], ...]]:
        """Cells uncovered by revealing safe cell ``i`` under ``layout``, and what they show."""
        stack = [i]
        newly = 0
        shown: list[tuple[int, int]] = []
        while stack:
            k = stack.pop()
            bit = 1 << k
            if (opened | newly) & bit:
                continue
            newly |= bit
            value = (layout & self.around[k]).bit_count() + self.flags[k]
            shown.append((k, value))
            if value == 0:
                stack.extend(j for j in bits(self.around[k] & ~(opened | newly)))
        return newly, tuple(sorted(shown))

    def value(self, group: frozenset[int], opened: int, floor: float = -1.0) -> tuple[float, int]:
        """The chance to win with ``group`` the layouts still possible and ``opened`` the cells
        open, and the cell to reveal for it (-1 where one layout is left: won). Where it is no
        more than ``floor``, the search may stop as soon as that is certain: the cell is then -2,
        and the chance only a bound, at most ``floor``."""
        if len(group) == 1:
            return 1.0, -1
        key = (group, opened)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        closed = self.p.all_cells & ~opened
        if len(group) == 2:
            a, b = group
            return self._pair(a, b, closed)
        total = len(group)
        mined = _column_counts(group)
        union = 0  # the cells a mine in some layout
        for level in mined:
            union |= level
        safe_everywhere = closed & ~union
        best, best_i = -1.0, -1
        bounded = False  # a cell left at "no more than floor", not worked out
        # A certainly safe cell costs nothing and only adds information: take one first. Else a
        # cell wins at most as often as it is safe: the safest first, and none whose chance to be
        # safe is no better than the best found, or than the floor (the value found is the same,
        # with less work)
        for i, safe in (
            [(lowest(safe_everywhere), total)]
            if safe_everywhere
            else _safest_first(mined, total, closed)
        ):
            limit = max(best, floor) * total  # layouts i must win more of to matter
            if safe <= limit:
                bounded |= floor > best
                break
            # the layouts where i is safe, by what revealing it shows: a number, or an opening
            parts: dict[int | tuple[tuple[int, int], ...], tuple[int, list[int]]] = {}
            around, flags = self.around[i], self.flags[i]
            for lay in group:
                if not lay >> i & 1:
                    shown = (lay & around).bit_count() + flags
                    if shown:
                        self.work += 1
                        part = parts.get(shown)
                        if part is None:
                            parts[shown] = (1 << i, [lay])
                        else:
                            part[1].append(lay)
                    else:
                        newly, cells = self.outcome(lay, i, opened)
                        self.work += len(cells)
                        parts.setdefault(cells, (newly, []))[1].append(lay)
            if self.work > self.work_budget:
                raise SearchTooBig
            won, left = 0.0, safe  # layouts won so far, layouts of the parts not yet weighed
            for newly, members in sorted(parts.values(), key=lambda part: -len(part[1])):
                left -= len(members)
                if len(members) == 1:
                    won += 1
                else:
                    # what this part must be worth for i to win more than the limit
                    win, j = self.value(
                        frozenset(members), opened | newly, (limit - won - left) / len(members)
                    )
                    if j == -2:
                        bounded |= floor > best
                        break  # it is not worth that
                    won += len(members) * win
                if won + left <= limit:
                    bounded |= floor > best
                    break  # cannot beat the limit, even if every part left were won
            else:
                if won / total > best:
                    best, best_i = won / total, i
                    if best >= 1.0:
                        break
        if bounded and best <= floor:
            return floor, -2
        self.memo[key] = (best, best_i)
        return best, best_i

    def _pair(self, a: int, b: int, closed: int) -> tuple[float, int]:
        """``value`` of two layouts, straight: won where a cell safe in both shows a different number
        in each (revealing the safe cells one by one, as the search does, comes to it), else a
        cell a mine in one of them, at 1/2. The cell is the one the search would name."""
        both = closed & ~(a | b)
        if not both:
            return 0.5, lowest(closed & (a ^ b))
        tells = any(
            (a & self.around[i]).bit_count() != (b & self.around[i]).bit_count() for i in bits(both)
        )
        return 1.0 if tells else 0.5, lowest(both)


def _column_counts(layouts: frozenset[int]) -> list[int]:
    """How many of ``layouts`` hold a mine in each cell, bit-sliced: bit i of the j-th mask is bit
    j of cell i's count (one carry chain of big-integer operations per layout, not one per mine).

    >>> counts = _column_counts(frozenset({0b011, 0b110, 0b111}))
    >>> [sum((level >> i & 1) << j for j, level in enumerate(counts)) for i in range(3)]
    [2, 3, 2]
    """
    levels: list[int] = []
    for lay in layouts:
        carry, j = lay, 0
        while carry:
            if j == len(levels):
                levels.append(0)
            levels[j], carry = levels[j] ^ carry, levels[j] & carry
            j += 1
    return levels


def _safest_first(mined: list[int], total: int, cells: int) -> Iterator[tuple[int, int]]:
    """The ``cells`` that some of ``total`` layouts leave safe, with how many, the safest first
    (lowest index first among equals); ``mined``: the layouts' counts bit-sliced, as
    :func:`_column_counts` gives them.

    >>> list(_safest_first(_column_counts(frozenset({0b011, 0b110, 0b111})), 3, 0b111))
    [(0, 1), (2, 1)]
    """
    for count in range(min(total, 1 << len(mined))):
        held = cells
        for j, level in enumerate(mined):
            held &= level if count >> j & 1 else ~level
        for i in bits(held):
            yield i, total - count
