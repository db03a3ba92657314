"""Certain cells by reasoning over rules: set reasoning ("hints") and hypotheses.

Both return bitmasks ``(safe, mines)`` over a :class:`~bot.solver.rules.Problem`'s cells and
never claim a cell that is not certain (the brute-force tests check this).
"""

from __future__ import annotations

from bot.errors import InconsistentBoard
from bot.solver.rules import Problem, Rule

MAX_RULES = 4000  # set reasoning stops growing its rule set past this (it never hangs)


class Contradiction(Exception):
    """Internal: an assumption led to a rule that cannot hold."""


def _reduce(rules: set[Rule] | list[Rule], safe: int, mines: int) -> set[Rule]:
    """Drop known cells from rules; raise :class:`Contradiction` for a rule that cannot hold."""
    known = safe | mines
    out = set()
    for rule in rules:
        cells = rule.cells & ~known
        count = rule.mines - (rule.cells & mines).bit_count()
        if count < 0 or count > cells.bit_count():
            raise Contradiction
        if cells:
            out.add(Rule(cells, count))
    return out


def settled(rules: tuple[Rule, ...] | list[Rule], safe: int, mines: int) -> list[Rule]:
    """``rules`` with the cells known to be safe or mines taken out of them, and two rules of their
    own for those cells ("none of these" and "all of these"): the same layouts, in parts that
    share fewer cells. Known cells tie many rules into one part that is too large to enumerate;
    taken out, it falls apart (most boards opened at random cells, not by cascades)."""
    known = safe | mines
    if not known:
        return list(rules)
    out: dict[Rule, None] = {}  # in order, each once (two that disagree both kept: no layout fits)
    for rule in rules:
        if cells := rule.cells & ~known:
            out[Rule(cells, rule.mines - (rule.cells & mines).bit_count())] = None
    for cells, count in ((safe, 0), (mines, mines.bit_count())):
        if cells:
            out[Rule(cells, count)] = None
    return list(out)


def _trivial(rules: set[Rule]) -> tuple[int, int]:
    safe = mines = 0
    for rule in rules:
        if rule.mines == 0:
            safe |= rule.cells
        elif rule.mines == rule.size:
            mines |= rule.cells
    if safe & mines:
        raise Contradiction
    return safe, mines


def propagate(rules: set[Rule], safe: int, mines: int) -> tuple[set[Rule], int, int]:
    """Apply the single-point rules until nothing changes."""
    while True:
        rules = _reduce(rules, safe, mines)
        new_safe, new_mines = _trivial(rules)
        if not (new_safe & ~safe or new_mines & ~mines):
            return rules, safe, mines
        safe |= new_safe
        mines |= new_mines
        if safe & mines:
            raise Contradiction


def _start(p: Problem, use_total: bool) -> set[Rule]:
    rules = set(p.rules)
    total = p.global_rule()
    if use_total and total is not None:
        rules.add(total)
    return rules


def hints(p: Problem, use_total: bool = True) -> tuple[int, int]:
    """Set reasoning: split rules by their overlaps until nothing new follows.

    For two rules A (a mines) and B (b mines) sharing S: S holds at least
    max(0, a - |A-S|, b - |B-S|) and at most min(|S|, a, b) mines. When the bounds meet,
    A-S, S and B-S each get a rule of their own. A rule inside another is the case A-S empty.
    The global mine count (with ``use_total``) takes part in propagation only: split against
    every rule it would breed large rules that rarely tell anything.
    """
    total = p.global_rule() if use_total else None
    try:
        rules, safe, mines = propagate(_start(p, use_total), 0, 0)
        while True:
            by_cell: dict[int, list[Rule]] = {}
            for rule in rules:
                if total is not None and rule.cells == total.cells & ~(safe | mines):
                    continue  # the global count only takes part in propagation
                m = rule.cells
                while m:
                    low = m & -m
                    by_cell.setdefault(low, []).append(rule)
                    m ^= low
            found: set[Rule] = set()
            done: set[tuple[Rule, Rule]] = set()
            for group in by_cell.values():
                for i, a in enumerate(group):
                    for b in group[i + 1 :]:
                        if (a, b) in done:
                            continue
                        done.add((a, b))
                        found.update(_split(a, b))
            found -= rules
            if not found:
                return safe, mines
            rules |= found
            if len(rules) > MAX_RULES:
                return safe, mines
            rules, safe, mines = propagate(rules, safe, mines)
    except Contradiction:
        raise InconsistentBoard(
            "no mine layout fits the numbers on this board; re-read the board"
        ) from None


def _split(a: Rule, b: Rule) -> list[Rule]:
    shared = a.cells & b.cells
    only_a, only_b = a.cells & ~shared, b.cells & ~shared
    lo = max(0, a.mines - only_a.bit_count(), b.mines - only_b.bit_count())
    hi = min(shared.bit_count(), a.mines, b.mines)
    if lo > hi:
        raise Contradiction
    if lo != hi:
        return []
    out = [Rule(shared, lo)]
    if only_a:
        out.append(Rule(only_a, a.mines - lo))
    if only_b:
        out.append(Rule(only_b, b.mines - lo))
    return out


def hypotheses(p: Problem, use_total: bool = True) -> tuple[int, int]:
    """Assume each frontier cell is a mine, then safe; propagate the single-point rules.

    A contradiction proves the other value; a cell that takes the same value under both
    assumptions is decided either way.
    """
    try:
        base, safe, mines = propagate(_start(p, use_total), 0, 0)
    except Contradiction:
        raise InconsistentBoard(
            "no mine layout fits the numbers on this board; re-read the board"
        ) from None
    frontier = 0
    for rule in base:
        if rule.cells != p.all_cells or not use_total:
            frontier |= rule.cells
    changed = True
    while changed:
        changed = False
        for i in range(len(p.cells)):
            bit = 1 << i
            if not frontier & bit or (safe | mines) & bit:
                continue
            outcomes: list[tuple[int, int] | None] = []  # as a mine, as safe: what follows, or None
            for as_mine in (True, False):
                try:
                    _, s, m = propagate(
                        base, safe | (0 if as_mine else bit), mines | (bit if as_mine else 0)
                    )
                    outcomes.append((s, m))
                except Contradiction:
                    outcomes.append(None)
            as_mine_then, as_safe_then = outcomes
            if as_mine_then is None and as_safe_then is None:
                raise InconsistentBoard(
                    "no mine layout fits the numbers on this board; re-read the board"
                )
            if as_mine_then is None:
                assert as_safe_then is not None
                new_safe, new_mines = as_safe_then
            elif as_safe_then is None:
                new_safe, new_mines = as_mine_then
            else:
                new_safe = as_mine_then[0] & as_safe_then[0]
                new_mines = as_mine_then[1] & as_safe_then[1]
            if new_safe & ~safe or new_mines & ~mines:
                safe |= new_safe
                mines |= new_mines
                base, safe, mines = propagate(base, safe, mines)
                changed = True
    return safe, mines
