"""Naming the looks of an unseen skin from Minesweeper's own rules.

The looks of a board (bot/vision/looks.py) are numbered, not named. Which are hidden cells is known
from how the game was played (a fresh board is all covered; a cell the bot flagged shows the flag).
Every other look is a revealed number 0-8, and the rules narrow which:

- a revealed 0 opens all its neighbours: a look with a cell that has no covered neighbour is 0,
  and a look with a cell beside a covered one is not 0 (flags may stay beside a 0);
- a number n has at most n hidden neighbours (covered or flagged) and at least its flags;
- the whole board admits a mine layout: every naming of the looks still undecided is tried on the
  solver, and only those with a layout stay.

A look is named when one value is left. Cells are called safe (or mines) only when they are so
under every naming that fits; a wrong name would lose a game, a name left open only costs time.

A look may show the same value as another look (a checkerboard's two shades, a hover highlight):
the rules do not assume that looks and values are one-to-one. A guess does lean on it, while no
value named so far has shown two looks: it is weighed on the namings that give the fewest looks a
value another look shows (a picture unlike the 1's is taken for another number first). Else every
naming counts. Each is weighted by how many mine layouts it admits, which alone favours small
numbers (they leave more mines to the cells off the frontier): in a game drawn with winemine's
tiles, its 2, not yet named, was taken for a second look of 1 at 10,000 to one, and a guess called
1 in 10,000 hit a mine. The chance of a mine is mixed over those namings, and the likeliest one's
board is given for the learner to choose its guess on as on a known skin (``Naming.likeliest``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from bot.board import Board, dilate, neighbour_sum
from bot.errors import CoverUndecided, InconsistentBoard
from bot.solver.exact import Budget, TooComplex, probabilities
from bot.solver.rules import Problem, bits, problem
from bot.vocabulary import COVERED, EXPLODED, FLAG, MINE, NUMBERS, QUESTION, WRONG_FLAG, Cell

MAX_NAMINGS = 2000  # namings tried on the solver per reading; past it, only what holds with the undecided looks left out


@dataclass(frozen=True, eq=False)
class Naming:
    """What the rules say about one reading of a board's looks."""

    possible: dict[int, frozenset[int]]  # each revealed look: the values it may still show
    safe: frozenset[Cell]  # covered cells with no mine under any naming that fits
    mines: frozenset[Cell]  # covered cells with a mine under every naming that fits
    namings: int  # how many namings of the undecided looks fit (0: too many to try)
    # mine chance of each covered cell (NaN elsewhere), mixed over the likely namings
    probabilities: np.ndarray | None = None
    # the board's codes under the likeliest naming (None where not tried)
    likeliest: np.ndarray | None = None

    def named(self) -> dict[int, int]:
        """The looks with one value left, and that value."""
        return {look: next(iter(v)) for look, v in self.possible.items() if len(v) == 1}

    def safest(self, covered: np.ndarray) -> Cell:
        """The covered cell (``covered``: a mask) least likely to hold a mine, mixed over the likely namings."""
        chance = (
            self.probabilities if self.probabilities is not None else np.full(covered.shape, 0.5)
        )
        chance = np.where(covered, np.nan_to_num(chance, nan=0.5), np.inf)
        r, c = np.unravel_index(int(np.argmin(chance)), chance.shape)
        return int(r), int(c)


def name_looks(
    looks: np.ndarray,
    hidden: dict[int, int],
    possible: dict[int, frozenset[int]] | None = None,
    mines: int | None = None,
    flood: int = 8,
) -> Naming:
    """Name the revealed looks of a reading as far as the rules allow.

    ``looks`` holds each cell's look; ``hidden`` maps the looks known to be hidden cells to their
    code (COVERED, FLAG, QUESTION); ``possible`` carries what earlier readings left for each look
    (a look's value never changes); ``mines`` is the game's mine count, where known; ``flood``:
    the neighbours a 0 opens, 8 or only the 4 beside it (a 0 has covered neighbours only beyond those).
    Raises :class:`InconsistentBoard` when no naming fits (a look was taken for hidden wrongly).
    """
    prior = possible or {}
    revealed = [int(k) for k in np.unique(looks) if int(k) not in hidden]
    covered = np.isin(looks, [k for k, code in hidden.items() if code in (COVERED, QUESTION)])
    flags = np.isin(looks, [k for k, code in hidden.items() if code == FLAG])
    near_covered, near_flags = neighbour_sum(covered), neighbour_sum(flags)
    # covered cells a 0 would have opened
    opened_by_0 = near_covered if flood == 8 else side_sum(covered)
    narrowed = {
        k: _local(looks == k, near_covered, near_flags, prior.get(k, NUMBERS), opened_by_0)
        for k in revealed
    }
    empty = [k for k, v in narrowed.items() if not v]
    if empty:
        r, c = (int(v) for v in np.argwhere(looks == empty[0])[0])
        raise InconsistentBoard(
            f"the look of cell ({r},{c}) can show no number beside its neighbours; re-read the board"
        )
    base = np.full(looks.shape, COVERED, dtype=np.int8)
    for k, code in hidden.items():
        base[looks == k] = code
    undecided = sorted(
        (k for k, v in narrowed.items() if len(v) > 1), key=lambda k: len(narrowed[k])
    )
    for k, v in narrowed.items():
        if len(v) == 1:
            base[looks == k] = next(iter(v))
    mute = np.isin(looks, undecided)
    base[mute] = 0
    board = Board(base, mines)
    sure = _solution(board, mute)  # holds whatever the undecided looks show
    if sure is None:
        raise InconsistentBoard(
            "no mine layout fits this board under any naming of its looks; re-read the board"
        )
    p, solution = sure
    options: list[list[int]] = [sorted(narrowed[k]) for k in undecided]
    if not undecided or math.prod(len(o) for o in options) > MAX_NAMINGS:
        # every look named; or too many namings to try, and the chances that hold whatever they show
        return Naming(
            narrowed,
            _cells(p, solution.safe),
            _cells(p, solution.mines),
            0 if undecided else 1,
            _grid(looks.shape, p, solution.probabilities),
            None if undecided else base,
        )
    kept: dict[int, set[int]] = {k: set() for k in undecided}
    safe_mask, mine_mask = -1, -1
    shown = _numbers_named({**prior, **narrowed})  # before these namings
    fits: list[
        tuple[int, float, np.ndarray, np.ndarray]
    ] = []  # (repeats, log weight, chances, board) of each naming
    for values in itertools.product(*options):
        trial = base.copy()
        for k, value in zip(undecided, values, strict=True):
            trial[looks == k] = value
        found = _solution(Board(trial, mines), None)
        if found is None:
            continue
        _, s = found
        for k, value in zip(undecided, values, strict=True):
            kept[k].add(value)
        safe_mask &= s.safe
        mine_mask &= s.mines
        fits.append((_repeats([*shown, *values]), s.log_weight, s.probabilities, trial))
    if not fits:
        raise InconsistentBoard(
            "no naming of this board's looks admits a mine layout; re-read the board"
        )
    final = {**narrowed, **{k: frozenset(v) for k, v in kept.items()}}
    # else looks may well repeat values
    least = min(f[0] for f in fits) if not _repeats(_numbers_named({**prior, **final})) else None
    likely = [f for f in fits if least is None or f[0] == least]
    logs = np.array([f[1] for f in likely])
    w = np.exp(logs - logs.max())
    mixed = (np.array([f[2] for f in likely]) * w[:, None]).sum(axis=0) / w.sum()
    return Naming(
        final,
        _cells(p, safe_mask),
        _cells(p, mine_mask),
        len(fits),
        _grid(looks.shape, p, mixed),
        likely[int(np.argmax(logs))][3],
    )


def renamed(looks: np.ndarray, known: Looks, mines: int | None) -> dict[int, int]:
    """A board no naming fits with what ``known`` says its looks may show, that one fits with some
    of them named afresh: what was known of those is wrong (learnt from a misjudged end, or a pack
    learnt so) and is dropped from ``known``: first only what this board rules out look by look,
    else all it knew of the looks on the board. The looks dropped that were named, and their old
    names. Raises InconsistentBoard where no naming fits even so (the board is wrong: a reading
    caught mid-draw, a hidden look misjudged)."""
    on_board = {int(k) for k in np.unique(looks)}
    fresh = name_looks(
        looks,
        known.hidden,
        {k: v for k, v in known.possible.items() if k not in on_board},
        mines,
        known.flood,
    )
    drop = {
        k
        for k, v in known.possible.items()
        if k in on_board and not v & fresh.possible.get(k, NUMBERS)
    }
    try:
        name_looks(
            looks,
            known.hidden,
            {k: v for k, v in known.possible.items() if k not in drop},
            mines,
            known.flood,
        )
    except InconsistentBoard:  # no one look is ruled out alone (or not those alone): all of them
        drop = on_board & set(known.possible)
    named = {k: next(iter(known.possible[k])) for k in sorted(drop) if len(known.possible[k]) == 1}
    known.possible = {k: v for k, v in known.possible.items() if k not in drop}
    return named


def _numbers_named(possible: dict[int, frozenset[int]]) -> list[int]:
    """The number of each look with one number left."""
    return [next(iter(v)) for v in possible.values() if len(v) == 1 and v <= NUMBERS]


def _repeats(values: list[int]) -> int:
    """How many of ``values`` are a value that another one is too (looks that show one value)."""
    return len(values) - len(set(values))


def _local(
    cells: np.ndarray,
    near_covered: np.ndarray,
    near_flags: np.ndarray,
    possible: frozenset[int],
    opened_by_0: np.ndarray,
) -> frozenset[int]:
    """What one look (its ``cells``) may show, by its cells' covered and flagged neighbours alone
    (``opened_by_0``: each cell's covered neighbours that a 0 there would have opened)."""
    most = int((near_covered + near_flags)[cells].min())
    least = int(near_flags[cells].max())
    allowed = {v for v in possible if least <= v <= most}
    if (opened_by_0[cells] > 0).any():
        allowed.discard(0)
    return frozenset(allowed)


def side_sum(mask: np.ndarray) -> np.ndarray:
    """For each cell, how many of its four side neighbours are in ``mask``.

    >>> side_sum(np.array([[1, 0], [0, 0]], bool)).tolist()
    [[0, 1], [1, 0]]
    """
    m = np.pad(mask.astype(np.int64), 1)
    return m[:-2, 1:-1] + m[2:, 1:-1] + m[1:-1, :-2] + m[1:-1, 2:]


@dataclass(frozen=True)
class _Solved:
    safe: int
    mines: int
    probabilities: np.ndarray
    log_weight: float


def _solution(board: Board, mute: np.ndarray | None) -> tuple[Problem, _Solved] | None:
    """(problem, solved) for a board, or None when no layout fits it. A board too complex to
    enumerate counts as fitting, with nothing certain."""
    try:
        p = problem(board, mute)
        s = probabilities(p, budget=Budget())
        return p, _Solved(s.safe, s.mines, s.probability, s.log_weight)
    except InconsistentBoard:
        return None
    except TooComplex:
        p = problem(board, mute)
        return p, _Solved(0, 0, np.full(len(p.cells), np.nan), 0.0)


def _cells(p: Problem, mask: int) -> frozenset[Cell]:
    return frozenset(p.cells[i] for i in bits(mask)) if mask > 0 else frozenset()


def _grid(shape: tuple[int, int], p: Problem, values: np.ndarray) -> np.ndarray:
    grid = np.full(shape, np.nan)
    for cell, v in zip(p.cells, values, strict=True):
        grid[cell] = v
    return grid


@dataclass
class Looks:
    """What is known of one skin's looks (ids of a LookBook): hidden ones, end-of-game ones, and
    for each revealed look the numbers it may still show."""

    hidden: dict[int, int] = field(default_factory=dict)  # look -> COVERED or FLAG
    ends: dict[int, int] = field(default_factory=dict)  # look -> MINE, EXPLODED or WRONG_FLAG
    possible: dict[int, frozenset[int]] = field(default_factory=dict)
    flood: int = 8  # the neighbours a 0 opens: 8, or only the 4 beside it (learnt: Judge.outcome)

    def names(self, possible: dict[int, frozenset[int]] | None = None) -> dict[int, int]:
        """Every look named for certain, and its cell code (the numbers as ``possible`` has them, if given)."""
        named = {
            k: next(iter(v))
            for k, v in (self.possible if possible is None else possible).items()
            if len(v) == 1
        }
        return {**self.hidden, **self.ends, **named}

    def named(self, looks: np.ndarray, mines: int | None) -> Naming:
        """name_looks for a reading of these looks, with what is known of them."""
        return name_looks(looks, self.hidden, self.possible, mines, self.flood)

    def name(self, look: int, code: int) -> None:
        """Know ``look`` as ``code`` (a cell code: covered, flag, an end-of-game look, or a number)."""
        if code in (COVERED, FLAG):
            self.hidden[look] = code
        elif code in (MINE, EXPLODED, WRONG_FLAG):
            self.ends[look] = code
        elif code >= 0:
            self.possible[look] = frozenset({code})

    def covered(self) -> list[int]:
        return [k for k, code in self.hidden.items() if code == COVERED]

    def flags(self) -> list[int]:
        return [k for k, code in self.hidden.items() if code == FLAG]

    def flagged(self, looks: np.ndarray, cells: list[Cell]) -> np.ndarray:
        """``looks`` with a flag's look on ``cells`` (flags placed, not read yet)."""
        if not cells:
            return looks
        shown = looks.copy()
        shown[tuple(np.array(cells).T)] = self.flags()[0]
        return shown

    def name_flags(self, cells: list[Cell], before: np.ndarray, after: np.ndarray) -> None:
        """Name flags the looks never named that ``cells`` show ``after`` flags were placed on them, where
        no other cell but a flag ``before`` took such a look (a game's end drawn over the board takes more)."""
        if not cells:
            return
        flagged = np.isin(before, self.flags())
        flagged[tuple(np.array(cells).T)] = True
        for k in np.unique(after[tuple(np.array(cells).T)]):
            if int(k) not in self.names() and flagged[after == k].all():
                self.hidden[int(k)] = FLAG

    def board(self, looks: np.ndarray, mines: int | None) -> Board | None:
        """The board of ``looks``, where every look on it is named; else None."""
        names = self.names()
        if not all(int(k) in names for k in np.unique(looks)):
            return None
        return Board(np.vectorize(lambda k: names[int(k)], otypes=[np.int8])(looks), mines)

    def could_be_new(self, looks: np.ndarray) -> bool:
        """Whether a board of ``looks`` can be a new game's: no flag, no mine shown, and every look
        known or still to be named as a number (a game may open an area itself)."""
        return bool(
            not np.isin(looks, self.flags() + list(self.ends)).any()
            and np.isin(looks, self.covered()).any()
        )

    def mines_left(self, looks: np.ndarray, mines: int | None) -> int | None:
        """What a mines-left counter shows over a board of ``looks`` in play: the mines less the
        flags. None where a look on it is not named, or where it is not in play (a mine shows, or
        no cell is covered: minegauler flags every mine of a won game and leaves its counter be);
        or where the mine count is unknown."""
        if mines is None:
            return None
        names = self.names()
        codes = {names.get(int(k)) for k in np.unique(looks)}
        if None in codes or COVERED not in codes or codes & {MINE, EXPLODED, WRONG_FLAG}:
            return None
        return mines - int(np.isin(looks, self.flags()).sum())


def covered_looks(looks: np.ndarray, mines: int | None) -> list[int]:
    """The looks of covered cells on a new game's board. A game that opened an area itself
    (xdemineur) shows revealed cells too, which may outnumber the covered ones: then one look is
    covered and the rest is an opened area, 0s and the numbers beside them, that the rules can name.
    Where no look leaves such an area, every look is a covered cell's (a checkerboard's two shades;
    cells over a picture, which look different at each position)."""
    kinds, counts = np.unique(looks, return_counts=True)
    order = [int(kinds[i]) for i in np.argsort(-counts)]
    fits = [k for k in order if opened_area(looks, k, mines)] if len(order) > 1 else []
    if not fits:
        return order
    # An area opened along the board's edge can read the other way round too (the covered cells
    # taken for the 0s of an area beyond the numbers): the look with over twice the other's cells
    # is the covered one, as a new game's 0s are few next to its covered cells; else it is not clear.
    size = dict(zip(kinds.tolist(), counts.tolist()))
    if len(fits) > 1 and size[fits[0]] < 2 * size[fits[1]]:
        raise CoverUndecided(
            "cannot tell which cells are covered on this board: start a new game (every cell covered) and run minebot again",
            fits[:2],
        )
    return fits[:1]


def probe_cells(looks: np.ndarray, options: list[int], mines: int | None) -> list[Cell] | None:
    """For each look in ``options``, a cell safe by the rules were that look the covered one
    (learn.py clicks them to tell which is: see CoverUndecided); None where one has no safe cell."""
    cells = []
    for covered in options:
        safe = name_looks(looks, {covered: COVERED}, mines=mines).safe
        if not safe:
            return None
        cells.append(min(safe))
    return cells


def opened_area(looks: np.ndarray, covered: int, mines: int | None) -> bool:
    """Whether, with ``covered`` the covered look, the other cells are an opened area: the rules
    name some look 0, and every other cell is a 0 or beside one."""
    try:
        naming = name_looks(looks, {covered: COVERED}, mines=mines)
    except InconsistentBoard:
        return False
    zeros = np.isin(looks, [k for k, v in naming.possible.items() if v == frozenset({0})])
    return bool(zeros.any() and ((looks == covered) | zeros | dilate(zeros)).all())
