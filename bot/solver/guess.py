"""Choosing a move when no cell is certain.

The ``best`` choice: the lowest mine probability first; among cells within ``TOLERANCE`` of
it (at most MAX_CANDIDATES, of them at most INTERIOR off the frontier, which share one chance
and are much alike), look one move ahead. For each number the cell could show, solve the board that would
follow. Prefer the cell with the highest chance of being safe *and*, while the mines left are
sparse (under DENSE per unknown cell), yielding a certain safe cell next ("progress"); where
they are dense, of surviving the next move too ("secondary": 1 where a certain safe cell
follows, else the safest guess's chance), with candidates within WIDER of the best safety;
then the most expected safe cells, then the most informative (entropy of the number it will
show). Where mines are dense a free move leads less far, and a bad next guess costs more (D. N.
Hill's solver switches its tie-break with density too, and weighs cells within 10% of the best).
There, the DEEPER best-scored candidates are valued again over two moves (``two_moves``): each
number a candidate may show, where no certain safe cell follows, is worth the best, over the
WIDTH safest next cells, of their chance to be safe times their own secondary safety. Two moves
are never worth more than one, so a candidate whose one is worth less than the best two found is
skipped, and a valuation stops once it cannot win.

Measured on the same seeded games (paired, *safe* rule, 2026-11-23; docs/solver.md has the
table): ranking by secondary safety everywhere won +90 of 8,000 expert games (z 2.6) but lost
-144 of 16,000 intermediate ones (z -3.1); a blend half and half was level at both. Switching by
density at 0.18 (expert starts at 0.206, intermediate at 0.156): +121 of 28,000 expert games
(z 1.9), +5 of 16,000 intermediate, -1 of 30,000 beginner; with the wider candidates there too:
+214 of 28,000 expert (z 3.2; +93 over the switch alone, z 3.4), +5 intermediate, at 36 ms per
expert game rather than 28. An endgame search up to 1,000 layouts won +1 of 8,000: not kept then
(kept on 2026-11-26, once the search was twice as fast: +21 of 40,000 expert games, z 1.9).
At most two cells off the frontier, with the endgame search pruned: +33 of 20,000 expert games
(z 0.7; seed 11: -9 of 8,000), +19 of 16,000 intermediate, 35 ms per expert game. A 50/50 that
nothing can settle (``forced_pair``) is taken before any look-ahead: +15 of 20,000 expert games
(25 vs 10, z 2.5), the same 16,000 intermediate games won, 3.28 guesses per expert game, not 3.34.
A cell that is "a 50/50 or safe" (``pseudo_pair``) next: +9 of 20,000 expert games under *safe*
(z 1.3), +19 under *opening* (z 2.4), the same 16,000 intermediate games won, under 1 ms per game.
Two moves (DEEPER = WIDTH = 3; 2026-11-26): +39 of 20,000 expert games under *safe* (z 1.5), +56
under *opening* (z 2.4), at 37.5 and 34.9 ms per game (22.5 and 25.4 without); intermediate and
beginner level (20,000 games per rule: +4, +2, -1, +1). Dead cells put off (2026-11-27): +14 of
20,000 expert games under *safe* (z 2.86), +15 under *opening* (z 2.4); the same intermediate
and beginner games won under *safe* (20,000 each); no slower.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bot.board import Board
from bot.errors import InconsistentBoard
from bot.solver import exact
from bot.solver.rules import Problem, Rule, beside, bits
from bot.vocabulary import FLAG, Cell, FirstClickRule

TOLERANCE = 0.02  # absolute mine-probability slack for look-ahead candidates
DENSE = 0.18  # mines left per unknown cell from which guesses are ranked by the chance to survive two moves
WIDER = 0.1  # there, candidates are the cells within this share of the best safety (0.07 and 0.15 win fewer)
MAX_CANDIDATES = 8
INTERIOR = 2  # cells off the frontier among them, at most
DEEPER = 3  # where mines are dense, the best-scored candidates valued again over two moves
WIDTH = 3  # the safest next cells weighed for each number such a candidate may show


def first_click(board: Board, rule: FirstClickRule) -> Cell:
    """A corner under ``safe`` and ``none``; under ``opening``, the third cell in from a corner.

    Measured (rule ``safe``, expert, the same 6,000 games, 2026-11-26): against the corner, (0,1)
    won 38 fewer, (0,2) 32, (1,1) 80 and (2,2) 128.

    Measured (rule ``opening``): beginner, 20,000 games per cell: (1,1) 96.79%, (2,2) 97.06%,
    (3,3) 96.79%; expert, 6,000 games per cell: (1,1) 51.8%, (2,2) 53.7%, (3,3) 54.1% (the last
    two within noise of each other; paired over 20,000 expert games on 2026-11-24, (3,3) won 5
    fewer than (2,2); on 4,000 on 2026-11-27, (2,3) -13, (3,2) +9, (1,2) -39, (2,1) -40, (3,4) -30,
    (4,4) -44).
    """
    if rule == "opening":
        return (min(2, board.rows - 1), min(2, board.cols - 1))
    return (0, 0)


@dataclass(frozen=True)
class Outlook:
    """What revealing one cell is expected to bring, given that it is safe."""

    progress: float  # chance the revealed number yields a certain safe cell
    expected_safe: float  # expected number of certain safe cells afterwards
    information: float  # entropy (bits) of the number it will show
    secondary: float = 0.0  # chance to survive the next move too: 1 where a safe cell follows, else the safest guess's


Branches = tuple[list[Rule], int, dict[int, exact.Solution]]
# (score, tie-breaks), cell, outlook
Scored = list[tuple[tuple[float, float, float, float], int, Outlook]]


def branches(board: Board, p: Problem, rules: list[Rule], i: int, budget: exact.Budget) -> Branches:
    """The rules with cell ``i`` revealed safe, its unknown neighbours, and the board's solution for
    every number it may show (by that number)."""
    bit = 1 << i
    around = beside(board, p, i)
    base = [Rule(r.cells & ~bit, r.mines) for r in rules if r.cells & ~bit]
    base.append(Rule(bit, 0))
    if around:
        return base, around, exact.outcomes(p, base, around, budget)
    try:
        return base, around, {0: exact.probabilities(p, base, budget)}
    except InconsistentBoard:
        return base, around, {}


def _weights(solutions: dict[int, exact.Solution]) -> np.ndarray:
    logs = np.array([sol.log_weight for sol in solutions.values()])
    weights = np.exp(logs - logs.max())
    return weights / weights.sum()


def _next_safety(sol: exact.Solution, done: int) -> float:
    """The chance to survive the next move after revealing the cells ``done`` (a bitmask): 1 where
    a certain safe cell follows or only mines are left (the game is won), else the safest cell's."""
    if sol.safe & ~done:
        return 1.0
    others = _open_to_guess(sol, done)
    return 1.0 if np.isinf(others).all() else 1.0 - float(others.min())


def _open_to_guess(sol: exact.Solution, done: int) -> np.ndarray:
    """Each cell's chance of a mine, infinite for the cells ``done``, the certain mines, and cells
    touching no number where the mine count is unknown (nan)."""
    prob = np.nan_to_num(sol.probability, nan=np.inf)
    prob[bits(done | sol.mines)] = np.inf
    return prob


def outlook(board: Board, p: Problem, rules: list[Rule], i: int, budget: exact.Budget) -> Outlook:
    """What revealing cell ``i`` is expected to bring."""
    return _summary(branches(board, p, rules, i, budget)[2], i)


def _summary(solutions: dict[int, exact.Solution], i: int) -> Outlook:
    """What revealing cell ``i`` is expected to bring, from the board's solution for each number."""
    done = 1 << i
    if not solutions:
        return Outlook(0.0, 0.0, 0.0)
    weights = _weights(solutions)
    safes = [(sol.safe & ~done).bit_count() for sol in solutions.values()]
    nexts = [_next_safety(sol, done) for sol in solutions.values()]
    progress = float(sum(w for w, s in zip(weights, safes) if s))
    expected = float(sum(w * s for w, s in zip(weights, safes)))
    information = float(-sum(w * math.log2(w) for w in weights if w > 0))
    secondary = float(sum(w * n for w, n in zip(weights, nexts)))
    return Outlook(progress, expected, information, secondary)


def two_moves(
    board: Board,
    p: Problem,
    branched: Branches,
    i: int,
    budget: exact.Budget,
    width: int,
    floor: float = 0.0,
) -> float:
    """The chance to survive the move after revealing ``i`` and the one after that, given ``i`` is
    safe (``branched``: what ``branches`` gives for it): each number it may show valued at 1 where
    a certain safe cell follows, else at the best, over the ``width`` safest next cells, of their
    chance to be safe times their secondary safety.

    No more than the outlook's secondary safety (each next cell's value is at most its chance to be
    safe), so the work stops as soon as the value cannot exceed ``floor``; it is then returned
    below it."""
    bit = 1 << i
    base, around, solutions = branched
    if not solutions:
        return 0.0
    weights = _weights(solutions)
    bounds = [w * _next_safety(sol, bit) for w, sol in zip(weights, solutions.values())]
    ahead = sum(bounds)  # the most that the numbers not yet valued can bring
    value = 0.0
    for w, bound, (number, sol) in zip(weights, bounds, solutions.items()):
        ahead -= bound
        if value + bound + ahead <= floor:
            return value + bound + ahead - 1e-9  # cannot exceed it
        if sol.safe & ~bit:
            value += w
            continue
        prob = _open_to_guess(sol, bit)
        if np.isinf(prob).all():
            value += w  # the game is won
            continue
        given = [*base, Rule(around, number)] if around else base
        best = 0.0
        for j in np.argsort(prob, kind="stable")[:width].tolist():
            safe_chance = 1.0 - float(prob[j])
            if not safe_chance > best:
                break  # no safer than the best found: worth no more
            best = max(
                best, safe_chance * _secondary(board, p, given, j, budget, bit, best / safe_chance)
            )
        value += w * best
    return value


def _secondary(
    board: Board,
    p: Problem,
    rules: list[Rule],
    i: int,
    budget: exact.Budget,
    done: int,
    floor: float,
) -> float:
    """``outlook(...).secondary`` alone, the likeliest numbers first, stopping (below ``floor``) as
    soon as it cannot exceed ``floor``: the boards of the numbers not reached are not solved."""
    done |= 1 << i
    _, _, solutions = branches(board, p, rules, i, budget)
    if not solutions:
        return 0.0
    value, left = 0.0, 1.0
    for w, sol in sorted(zip(_weights(solutions), solutions.values()), key=lambda ws: -ws[0]):
        left -= w
        if value + w + left <= floor:
            return value + w + left - 1e-9
        value += w * _next_safety(sol, done)
    return value


def forced_pair(board: Board, p: Problem, certain: int) -> int | None:
    """A cell of a 50/50 that nothing can ever settle, if the board has one (index into ``p.cells``;
    ``certain``: the cells known to be mines, as a bitmask over them).

    Two unknown cells a, b hold exactly one mine (a rule over just them, once the certain mines
    are taken out), every rule holds both or neither (so swapping them maps each layout to another
    that fits equally), and every unknown cell beside one of them but not the other is a certain
    mine (so no reveal can ever tell them apart). The guess must be taken, at 1/2, in every game
    that is won; taken first, the number it shows is known for every guess after it.
    """
    for rule in p.rules:
        cells = rule.cells & ~certain
        if cells.bit_count() != 2 or rule.mines - (rule.cells & certain).bit_count() != 1:
            continue
        a, b = bits(cells)
        if any((r.cells >> a & 1) != (r.cells >> b & 1) for r in p.rules):
            continue
        # next to one of them only
        apart = (beside(board, p, a) ^ beside(board, p, b)) & ~(1 << a | 1 << b)
        if not apart & ~certain:
            return a
    return None


# The shapes of a 50/50 that nothing may settle: cells (row, col offsets from the first) and the
# two ways their mines may lie, each the other's mirror
SHAPES = (
    (((0, 0), (0, 1)), ((0, 0),), ((0, 1),)),  # two cells side by side, one mine
    (((0, 0), (1, 0)), ((0, 0),), ((1, 0),)),  # one above the other
    # a 2x2 box, two mines on a diagonal
    (
        ((0, 0), (0, 1), (1, 0), (1, 1)),
        ((0, 0), (1, 1)),
        ((0, 1), (1, 0)),
    ),
)
MISSING = 1  # covered cells that must be mines for such a 50/50, at most, for its cells to be tried


def _telling(cells: tuple[Cell, ...], one: tuple[Cell, ...], other: tuple[Cell, ...]) -> list[Cell]:
    """The offsets round a shape whose number differs between its two ways (the same set for both).

    >>> _telling(*SHAPES[0])
    [(-1, -1), (0, -1), (1, -1), (-1, 2), (0, 2), (1, 2)]
    >>> _telling(*SHAPES[2])
    [(-1, -1), (2, 2), (-1, 2), (2, -1)]
    """
    ring: dict[Cell, int] = {}
    for sign, way in ((1, one), (-1, other)):
        for r, c in way:
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    ring[r + dr, c + dc] = ring.get((r + dr, c + dc), 0) + sign
    return [cell for cell, diff in ring.items() if diff and cell not in cells]


TELLING = [_telling(*shape) for shape in SHAPES]


def pseudo_pair(
    board: Board,
    p: Problem,
    rules: list[Rule],
    certain: int,
    prob: np.ndarray,
    budget: exact.Budget,
) -> int | None:
    """A cell that is a mine only where it is in a 50/50 that nothing can settle (index into
    ``p.cells``), the safest by ``prob`` if several; None where there is none.

    Where the cell is a mine, its shape of SHAPES holds its mines the one way, and the cells that
    would tell the two ways apart (TELLING) are mines or off the board: swapping the ways maps each
    such layout to one that fits equally, and no reveal can tell them apart. Every strategy loses at
    least half of the pair's layouts, as many as those where the cell is a mine, and guessing the
    cell first loses exactly those: "a 50/50 or safe" (D. N. Hill's solver takes it so). Taken
    first, what it shows is known for every guess after it. Only shapes whose telling cells are
    none open and at most MISSING covered and not certain mines are solved for.
    """
    rows, cols = board.cells.shape
    # two cells of margin: off the board is neither
    free = np.zeros((rows + 4, cols + 4), dtype=bool)
    opened = np.zeros((rows + 4, cols + 4), dtype=bool)
    opened[2:-2, 2:-2] = board.cells != FLAG
    for cell, i in p.index.items():
        free[cell[0] + 2, cell[1] + 2] = not certain >> i & 1
        opened[cell[0] + 2, cell[1] + 2] = False
    solved: dict[int, exact.Solution | None] = {}
    found: set[int] = set()
    for (cells, one, other), telling in zip(SHAPES, TELLING, strict=True):

        def at(grid: np.ndarray, offsets: list[Cell] | tuple[Cell, ...]) -> list[np.ndarray]:
            return [grid[2 + dr : 2 + dr + rows, 2 + dc : 2 + dc + cols] for dr, dc in offsets]

        ok = np.logical_and.reduce(at(free, cells)) & ~np.logical_or.reduce(at(opened, telling))
        ok &= np.sum(at(free, telling), axis=0) <= MISSING
        for r, c in zip(*np.nonzero(ok)):
            missing = [
                p.index[r + dr, c + dc] for dr, dc in telling if free[r + dr + 2, c + dc + 2]
            ]
            for way, mirror in ((one, other), (other, one)):
                ours, theirs = (
                    [p.index[r + dr, c + dc] for dr, dc in way],
                    [p.index[r + dr, c + dc] for dr, dc in mirror],
                )
                mines, safe = sum(1 << i for i in ours + missing), sum(1 << i for i in theirs)
                for pivot in ours:
                    # the pair's layouts are as many either way, and the telling cells hold mines in both:
                    # every cell of the shape is a mine at least as often as the pivot, those twice as often
                    if min(prob[ours + theirs]) < prob[pivot] - 1e-9 or any(
                        prob[i] < 2 * prob[pivot] - 1e-9 for i in missing
                    ):
                        continue
                    if pivot not in solved:
                        try:
                            solved[pivot] = exact.probabilities(
                                p, [*rules, Rule(1 << pivot, 1)], budget
                            )
                        except InconsistentBoard:
                            solved[pivot] = None
                    sol = solved[pivot]
                    if sol is not None and mines & ~sol.mines == 0 and safe & ~sol.safe == 0:
                        found.add(pivot)
    return min(found, key=lambda i: (prob[i], i)) if found else None


def best_guess(
    board: Board,
    p: Problem,
    rules: list[Rule],
    prob: np.ndarray,
    budget: exact.Budget,
    lookahead: bool = True,
    tolerance: float = TOLERANCE,
    max_candidates: int = MAX_CANDIDATES,
    deeper: int = DEEPER,
    width: int = WIDTH,
) -> tuple[int, dict[str, float]]:
    """Index (into ``p.cells``) of the cell to reveal, and the figures behind the choice.

    A dead cell (one number possible wherever it is safe) is put off while a living one is left:
    whatever follows revealing it first can be played as well by playing on as if it were safe and
    revealing it last, which wins every game the other wins and may find out in time that it is a
    mine (D. N. Hill's solver leaves dead cells alone too). Where every candidate is dead, they are
    set aside and the candidates picked again from the cells left; where some are living, the bar
    stays where the safest cell, dead or not, set it (that case is what was measured)."""
    # where mines are dense, progress is worth less than surviving the next guess too, and a
    # somewhat riskier cell may be worth it: candidates within WIDER of the best safety
    dense = p.remaining is not None and p.remaining >= DENSE * len(p.cells)
    first = -1
    left = prob.copy()
    while not np.isinf(left).all():
        slack = max(tolerance, WIDER * (1.0 - float(np.min(left)))) if dense else tolerance
        candidates = _candidates(board, p, left, slack, max_candidates)
        first = candidates[0] if first < 0 else first
        if not lookahead:
            break
        scored: Scored = []
        branched: dict[int, Branches] = {}
        for i in candidates:
            try:
                branched[i] = branches(board, p, rules, i, budget)
            except exact.TooComplex:
                break  # out of time for look-ahead: choose among the cells already weighed
            if len(branched[i][2]) == 1:
                continue  # dead
            look = _summary(branched[i][2], i)
            safe_chance = 1.0 - float(prob[i])
            head = safe_chance * (look.secondary if dense else look.progress)
            scored.append(((head, look.expected_safe, look.information, safe_chance), i, look))
        if scored:
            if dense and deeper > 1 and len(scored) > 1:
                scored = _over_two_moves(board, p, budget, scored, branched, deeper, width)
            _, i, look = max(scored, key=lambda s: s[0])
            return i, {
                "probability": float(prob[i]),
                "progress": look.progress,
                "expected_safe": look.expected_safe,
                "information": look.information,
                "secondary": look.secondary,
            }
        if len(branched) < len(candidates):
            break  # out of time
        left[candidates] = np.inf  # every one dead: the next cells
    return first, {"probability": float(prob[first])}


def _candidates(
    board: Board, p: Problem, prob: np.ndarray, slack: float, max_candidates: int
) -> list[int]:
    """The cells within ``slack`` of the lowest chance of a mine, safest first (at most
    ``max_candidates``). Cells off the frontier share one chance and are much alike: INTERIOR of
    them (fewest unknown neighbours first), so that frontier cells a little riskier are weighed too."""
    close = np.flatnonzero(prob <= float(np.min(prob)) + slack).tolist()
    frontier = p.frontier()
    ranked = sorted(close, key=lambda i: (prob[i], beside(board, p, i).bit_count()))
    inside = set([i for i in ranked if not frontier >> i & 1][:INTERIOR])
    return [i for i in ranked if frontier >> i & 1 or i in inside][:max_candidates]


def _over_two_moves(
    board: Board,
    p: Problem,
    budget: exact.Budget,
    scored: Scored,
    branched: dict[int, Branches],
    deeper: int,
    width: int,
) -> Scored:
    """The ``deeper`` best-scored candidates valued again over two moves, the best first: a
    candidate whose one move is worth less than the best two found cannot win (its two are worth
    no more), nor can one whose numbers valued so far leave it short. Out of time, the one move's
    values stand."""
    rescored: Scored = []
    top = -1.0
    for s, j, look in sorted(scored, key=lambda s: s[0], reverse=True)[:deeper]:
        if s[0] < top:
            continue
        try:
            both = s[3] * two_moves(board, p, branched[j], j, budget, width, top / max(s[3], 1e-12))
        except exact.TooComplex:
            return scored
        top = max(top, both)
        rescored.append(((both, *s[1:]), j, look))
    return rescored
