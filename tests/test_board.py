from __future__ import annotations

import numpy as np
import pytest

from bot.board import Board, neighbour_sum
from bot.errors import BoardTextError
from bot.vocabulary import COVERED, EXPLODED, FLAG, MINE, QUESTION, WRONG_FLAG


def test_text_round_trip_keeps_every_code() -> None:
    text = "#F?012\n345678\n*Xx###"
    board = Board.parse(text, mines=7)
    assert str(board) == text
    assert Board.parse(str(board), mines=7) == board
    assert [board[0, i] for i in range(3)] == [COVERED, FLAG, QUESTION]
    assert [board[2, i] for i in range(3)] == [MINE, EXPLODED, WRONG_FLAG]
    assert board[1, 5] == 8


def test_repr_pastes_back() -> None:
    board = Board.parse("1 1 #\n# # #", mines=2)
    again = eval(repr(board), {"Board": Board})
    assert again == board and again.mines == 2


def test_spaces_and_blank_lines_are_ignored() -> None:
    assert Board.parse("\n\n  1 # \n  # F \n\n").shape == (2, 2)


@pytest.mark.parametrize(
    "text, message",
    [
        ("12#\n1Z#", r"line 2, column 2: 'Z' is not a cell"),
        ("12#\n1#", r"line 2: 2 cells where the first row has 3"),
        ("   \n", "board text is empty"),
    ],
)
def test_bad_text_names_line_and_column(text: str, message: str) -> None:
    with pytest.raises(BoardTextError, match=message):
        Board.parse(text)


def test_neighbours_at_corner_edge_and_middle() -> None:
    board = Board.covered(3, 4)
    assert sorted(board.neighbours((0, 0))) == [(0, 1), (1, 0), (1, 1)]
    assert len(board.neighbours((0, 2))) == 5
    assert len(board.neighbours((1, 1))) == 8


def test_neighbour_sum_counts_the_eight_around() -> None:
    mask = np.zeros((3, 3), dtype=bool)
    mask[1, 1] = True
    mask[0, 0] = True
    counts = neighbour_sum(mask)
    assert counts[1, 1] == 1 and counts[0, 1] == 2 and counts[2, 2] == 1 and counts[0, 0] == 1
