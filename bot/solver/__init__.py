"""The solver core: pure Python and numpy, nothing of screens or mice.

>>> from bot.board import Board
>>> a = solve(Board.parse("1#\\n##", mines=1))
>>> round(float(a.probabilities[0, 1]), 3)
0.333
"""

from __future__ import annotations

import numpy as np

from bot.board import Board
from bot.sim import Rule
from bot.solver.analysis import Analysis, Move
from bot.solver.strategies import STRATEGIES, Strategy, get_strategy

__all__ = ["Analysis", "Move", "STRATEGIES", "Strategy", "get_strategy", "solve"]


def solve(
    board: Board,
    strategy: str = "best",
    rule: Rule = "safe",
    rng: np.random.Generator | None = None,
    full: bool = True,
) -> Analysis:
    """Everything a strategy can say about ``board``: certain cells, probabilities, the move."""
    return get_strategy(strategy).analyse(board, rule, rng, full)
