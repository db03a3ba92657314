from __future__ import annotations

import pytest

from bot.board import Board
from bot.solver import endgame
from bot.solver.rules import problem
from tests.brute import layout_counts, positions

SMALL = [b for b in positions(80, seed=11) if layout_counts(b)[0] <= endgame.MAX_LAYOUTS]


def test_enough_small_positions() -> None:
    assert len(SMALL) >= 30


@pytest.mark.parametrize("index", range(len(SMALL)))
def test_layouts_are_the_consistent_ones_and_search_is_bounded(index: int) -> None:
    board = SMALL[index]
    total, per_cell = layout_counts(board)
    p = problem(board)
    lays = endgame.layouts(p)
    assert lays is not None and len(lays) == total == len(set(lays))
    for cell, count in per_cell.items():
        assert sum(lay >> p.index[cell] & 1 for lay in lays) == count
    found = endgame.search(board, p, lays, work_budget=10**7)  # correctness here, not speed
    first_step_safety = 1 - per_cell[p.cells[found.index]] / total
    assert found.win <= first_step_safety + 1e-12
    # Playing as if one particular layout were the true one already wins 1 time in total.
    assert found.win >= 1 / total - 1e-12


def test_a_true_fifty_fifty_is_worth_one_half() -> None:
    board = Board.parse(
        """
        1 1
        # #
        """,
        mines=1,
    )
    p = problem(board)
    lays = endgame.layouts(p)
    assert lays is not None and len(lays) == 2
    assert endgame.search(board, p, lays).win == pytest.approx(0.5)

