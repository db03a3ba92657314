"""Turning a board into rules: "these unknown cells hold exactly N mines".

This is the only solver module that looks at the grid. Everything after it works on
:class:`Problem` – unknown cells numbered 0..n-1 and rules over them, with cell sets as
Python int bitmasks (fast subset and overlap tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from bot.board import Board, dilate, neighbour_sum
from bot.errors import InconsistentBoard
from bot.vocabulary import FLAG, Cell


class Rule(NamedTuple):
    """``mines`` mines among ``cells`` (a bitmask over the problem's unknown cells). A tuple: the
    solver builds, hashes and compares hundreds of thousands of them a game."""

    cells: int
    mines: int

    @property
    def size(self) -> int:
        return self.cells.bit_count()


@dataclass(frozen=True)
class Problem:
    """The unknown cells of a board, the rules its numbers give, and the mines left to find."""

    cells: tuple[Cell, ...]
    index: dict[Cell, int]
    rules: tuple[Rule, ...]
    remaining: int | None  # mines not yet flagged, when the total is known

    @property
    def all_cells(self) -> int:
        return (1 << len(self.cells)) - 1

    def frontier(self) -> int:
        mask = 0
        for rule in self.rules:
            mask |= rule.cells
        return mask

    def cells_of(self, mask: int) -> list[Cell]:
        return [self.cells[i] for i in bits(mask)]

    def global_rule(self) -> Rule | None:
        if self.remaining is None:
            return None
        return Rule(self.all_cells, self.remaining)


def bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def lowest(mask: int) -> int:
    """Index of the lowest set bit of ``mask`` (not 0)."""
    return (mask & -mask).bit_length() - 1


def beside(board: Board, p: Problem, i: int) -> int:
    """The unknown cells next to ``p``'s cell ``i``, as a bitmask over ``p``'s cells."""
    mask = 0
    for nb in board.neighbours(p.cells[i]):
        j = p.index.get(nb)
        if j is not None:
            mask |= 1 << j
    return mask


def _counts(
    board: Board, mute: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    unknown = board.unknown_mask()
    numbers = board.cells >= 0
    if mute is not None:
        numbers &= ~mute
    n_unknown = neighbour_sum(unknown)
    need = board.cells.astype(np.int16) - neighbour_sum(board.cells == FLAG)
    return unknown, numbers, n_unknown, need


def check_numbers(board: Board, mute: np.ndarray | None = None) -> None:
    """Raise :class:`InconsistentBoard` for a number its surroundings cannot satisfy."""
    unknown, numbers, n_unknown, need = _counts(board, mute)
    bad = numbers & ((need < 0) | (need > n_unknown))
    if bad.any():
        r, c = (int(v) for v in np.argwhere(bad)[0])
        flags = int(board.cells[r, c]) - int(need[r, c])
        raise InconsistentBoard(
            f"cell ({r},{c}) shows {board.cells[r, c]} but has {flags} flags and "
            f"{int(n_unknown[r, c])} covered cells around it; re-read the board or remove a wrong flag",
            tuple((int(a), int(b)) for a, b in np.argwhere(bad)),
        )
    if board.mines is not None and board.flags() > board.mines:
        raise InconsistentBoard(
            f"{board.flags()} flags on a board with {board.mines} mines; remove the wrong flags"
        )


def single_point(board: Board) -> tuple[set[Cell], set[Cell]]:
    """The single-point rules over the whole grid at once.

    A number whose flags account for it frees its other unknown neighbours; a number whose
    flags plus unknown neighbours equal it makes those neighbours mines.
    """
    check_numbers(board)
    unknown, numbers, n_unknown, need = _counts(board)
    active = numbers & (n_unknown > 0)
    safe = dilate(active & (need == 0)) & unknown
    mines = dilate(active & (need == n_unknown)) & unknown
    if (safe & mines).any():
        r, c = (int(v) for v in np.argwhere(safe & mines)[0])
        raise InconsistentBoard(
            f"cell ({r},{c}) is both certainly safe and certainly a mine; re-read the board"
        )
    return set(board.cells_where(safe)), set(board.cells_where(mines))


def problem(board: Board, mute: np.ndarray | None = None) -> Problem:
    """The rules of every revealed number that still touches an unknown cell. Cells set in ``mute``
    are revealed (no mine) but give no rule: their number is not known yet (a look not yet named).
    Leaving rules out never makes a deduction wrong, only fewer."""
    check_numbers(board, mute)
    unknown, numbers, n_unknown, need = _counts(board, mute)
    cells = tuple(board.cells_where(unknown))
    index = {cell: i for i, cell in enumerate(cells)}
    seen: dict[int, int] = {}
    for r, c in zip(*np.nonzero(numbers & (n_unknown > 0))):
        mask = 0
        for nb in board.neighbours((int(r), int(c))):
            i = index.get(nb)
            if i is not None:
                mask |= 1 << i
        count = int(need[r, c])
        if seen.setdefault(mask, count) != count:
            raise InconsistentBoard(
                f"two numbers next to the same covered cells ask for {seen[mask]} and {count} mines; "
                "re-read the board"
            )
    remaining = None if board.mines is None else board.mines - board.flags()
    if remaining is not None and remaining > len(cells):
        raise InconsistentBoard(
            f"{remaining} mines left but only {len(cells)} covered cells; check the mine count",
            count=True,
        )
    rules = tuple(Rule(mask, count) for mask, count in seen.items())
    return Problem(cells, index, rules, remaining)
