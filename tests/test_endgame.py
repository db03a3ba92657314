from __future__ import annotations

import pytest

from bot.board import Board
from bot.solver import endgame
from bot.solver.rules import problem
from tests.brute import layout_counts, positions

# positions the reference below weighs in a test's time (the search takes more)
REFEREE_LAYOUTS = 200
SMALL = [b for b in positions(80, seed=11) if layout_counts(b)[0] <= REFEREE_LAYOUTS]


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


def _unpruned_wins(board: Board, lays: list[int], skip_unsafe: bool = False) -> dict[int, float]:
    """For each cell to reveal first, the chance to win with best play after it, every cell weighed
    in full (the search's definition, with none of its pruning). With ``skip_unsafe``, cells after
    the first are weighed only where they are safer than the best chance found (a cell wins at most
    as often as it is safe): the same chances, with far less work, for larger positions."""
    p = problem(board)
    tree = endgame._Search(board, p, 10**9)
    memo: dict[tuple[frozenset[int], int], float] = {}

    def each(group: frozenset[int], opened: int, skip: bool) -> dict[int, float]:
        wins: dict[int, float] = {}
        safe = {
            i: sum(not lay >> i & 1 for lay in group)
            for i in range(len(p.cells))
            if not opened >> i & 1
        }
        for i in sorted(safe, key=lambda i: -safe[i]):
            if not safe[i] or skip and wins and safe[i] <= max(wins.values()) * len(group):
                break
            parts: dict[tuple[int, tuple[tuple[int, int], ...]], list[int]] = {}
            for lay in group:
                if not lay >> i & 1:
                    parts.setdefault(tree.outcome(lay, i, opened), []).append(lay)
            wins[i] = sum(
                len(m) * win(frozenset(m), opened | newly) for (newly, _), m in parts.items()
            ) / len(group)
        return wins

    def win(group: frozenset[int], opened: int) -> float:
        if len(group) == 1:
            return 1.0
        if (group, opened) not in memo:
            memo[group, opened] = max(each(group, opened, skip_unsafe).values())
        return memo[group, opened]

    return each(frozenset(lays), 0, False)


SPLIT = [b for b in SMALL if layout_counts(b)[0] > 1]


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(SPLIT)))
def test_the_search_finds_the_best_chance_to_win_without_weighing_every_cell(index: int) -> None:
    """The search skips a cell no safer than the best chance found, and stops weighing a cell once
    its parts left cannot lift it above that: the chance it finds is the best that weighing every
    cell in full gives, and the cell it names wins that often."""
    board = SPLIT[index]
    p = problem(board)
    lays = endgame.layouts(p)
    assert lays is not None
    found = endgame.search(board, p, lays, work_budget=10**7)
    wins = _unpruned_wins(board, lays)
    assert found.win == pytest.approx(max(wins.values()), abs=1e-12)
    assert wins[found.index] == pytest.approx(found.win, abs=1e-12)


LARGER = [
    b
    for seed in (0, 4)
    for b in positions(40, seed=seed)
    if 2 < layout_counts(b)[0] <= REFEREE_LAYOUTS
]


@pytest.mark.parametrize("index", range(len(LARGER)))
def test_the_search_finds_the_best_chance_to_win_on_larger_positions(index: int) -> None:
    """As above, on positions where the search's parts are asked only whether they can lift a
    cell above the best found, and stop once they cannot (a part's chance then only bounded)."""
    board = LARGER[index]
    p = problem(board)
    lays = endgame.layouts(p)
    assert lays is not None
    found = endgame.search(board, p, lays, work_budget=10**7)
    wins = _unpruned_wins(board, lays, skip_unsafe=True)
    assert found.win == pytest.approx(max(wins.values()), abs=1e-12)
    assert wins[found.index] == pytest.approx(found.win, abs=1e-12)
