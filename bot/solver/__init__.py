"""The solver core: pure Python and numpy, nothing of screens or mice.

>>> from bot.board import Board
>>> a = solve(Board.parse("1#\\n##", mines=1))
>>> round(float(a.probabilities[0, 1]), 3)
0.333
"""

from __future__ import annotations

import contextlib

import numpy as np

from bot.board import Board
from bot.errors import InconsistentBoard
from bot.solver import deduce, exact
from bot.solver.analysis import Analysis, Move
from bot.solver.rules import problem
from bot.solver.strategies import STRATEGIES, Strategy, get_strategy
from bot.vocabulary import FirstClickRule

__all__ = ["Analysis", "Move", "STRATEGIES", "Strategy", "check_layout", "get_strategy", "solve"]


def solve(
    board: Board,
    strategy: str = "best",
    rule: FirstClickRule = "safe",
    rng: np.random.Generator | None = None,
    full: bool = True,
) -> Analysis:
    """Everything a strategy can say about ``board``: certain cells, probabilities, the move."""
    return get_strategy(strategy).analyse(board, rule, rng, full)


def check_layout(board: Board, work: int = exact.DEFAULT_BUDGET) -> None:
    """Raise :class:`InconsistentBoard` where no mine layout fits the whole board: its numbers, its
    flags and its mine count. A misread number (a 6 taken for a 5) can look fine to each of its
    neighbours and still leave no layout; the message names the numbers that cannot all be right.
    A part too large to enumerate within ``work`` is enumerated again with the cells deduction finds
    certain taken out of the rules (they tie scattered numbers into one part); still too large, it
    is checked as far as deduction goes.

    >>> check_layout(Board.parse("1#1\\n###", mines=1))
    >>> check_layout(Board.parse("131\\n###"))  # each number alone could be right
    Traceback (most recent call last):
    ...
    bot.errors.InconsistentBoard: no mine layout fits the numbers at (0,0), (0,1), (0,2) together; one of them is misread (or a flag beside them is wrong): re-read the board
    """
    p = problem(board)
    budget = exact.Budget(work)
    try:
        for group in exact.components(p.rules):
            if not exact.enumerate_component(group, budget).weight:
                cells = 0
                for rule in group:
                    cells |= rule.cells
                unknown = set(p.cells_of(cells))
                numbers = sorted(
                    c for c in board if board[c] > 0 and unknown & set(board.neighbours(c))
                )
                raise InconsistentBoard(
                    f"no mine layout fits the numbers at {', '.join(f'({r},{c})' for r, c in numbers)} together; "
                    "one of them is misread (or a flag beside them is wrong): re-read the board",
                    tuple(numbers),
                )
        exact.probabilities(p, budget=budget)  # the mine count
    except exact.TooComplex:
        safe, mines = deduce.hints(p)
        with contextlib.suppress(exact.TooComplex):
            exact.probabilities(p, deduce.settled(p.rules, safe, mines), budget=exact.Budget(work))
