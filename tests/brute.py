"""Brute force over every mine layout consistent with a board: the solver's referee.

Deliberately shares no code with ``bot.solver``: it reads the grid itself.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from bot.board import Board
from bot.sim.game import Game
from bot.vocabulary import FLAG, Cell, Level


def neighbours(board: Board, cell: Cell) -> list[Cell]:
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < board.rows and 0 <= c + dc < board.cols
    ]


_COUNTED: dict[
    int, tuple[Board, tuple[int, dict[Cell, int]]]
] = {}  # by id; the board kept alive with it


def layout_counts(board: Board) -> tuple[int, dict[Cell, int]]:
    """Number of consistent layouts, and for each unknown cell in how many it holds a mine. Counted
    once per board object (the position lists are checked by several tests and strategies): the
    same dict for the same board, not to be changed."""
    if id(board) not in _COUNTED:
        _COUNTED[id(board)] = (board, _count(board))
    return _COUNTED[id(board)][1]


def _count(board: Board) -> tuple[int, dict[Cell, int]]:
    unknown, combos = _consistent(board)
    per_cell = dict.fromkeys(unknown, 0)
    for combo in combos:
        for i in combo:
            per_cell[unknown[i]] += 1
    return len(combos), per_cell


def _consistent(board: Board) -> tuple[list[Cell], list[tuple[int, ...]]]:
    """The unknown cells, and every consistent layout as the indexes of those holding a mine."""
    assert board.mines is not None
    unknown = [cell for cell in board if board[cell] in (-1, -3)]
    pos = {cell: i for i, cell in enumerate(unknown)}
    checks = []
    for cell in board:
        n = board[cell]
        if n < 0:
            continue
        around = neighbours(board, cell)
        flags = sum(board[nb] == FLAG for nb in around)
        mask = sum(1 << pos[nb] for nb in around if nb in pos)
        checks.append((mask, n - flags))
    combos = []
    for combo in itertools.combinations(range(len(unknown)), board.mines - board.flags()):
        layout = sum(1 << i for i in combo)
        if all((layout & mask).bit_count() == count for mask, count in checks):
            combos.append(combo)
    return unknown, combos


def layouts_to_check(board: Board) -> int:
    unknown = len(board.unknown())
    assert board.mines is not None
    return math.comb(unknown, board.mines - board.flags())


def positions(count: int, seed: int = 0, max_layouts: int = 20_000) -> list[Board]:
    """Realistic small positions: seeded games with random safe cells revealed and some mines flagged."""
    rng = np.random.default_rng(seed)
    sizes = [
        Level("custom", 4, 5, 4),
        Level("custom", 5, 5, 6),
        Level("custom", 5, 6, 8),
        Level("custom", 6, 6, 9),
    ]
    found: list[Board] = []
    attempt = 0
    while len(found) < count:
        attempt += 1
        level = sizes[attempt % len(sizes)]
        game = Game(level, ("safe", "opening", "none")[attempt % 3], (seed, attempt))
        first = (int(rng.integers(level.rows)), int(rng.integers(level.cols)))
        game.reveal(first)
        if game.state != "playing":
            continue
        assert game.mines is not None
        steps = int(rng.integers(0, 4))
        for _ in range(steps):
            hidden = [c for c in zip(*np.nonzero((game.view == -1) & ~game.mines))]
            if not hidden:
                break
            game.reveal(tuple(int(v) for v in hidden[int(rng.integers(len(hidden)))]))
        if game.state != "playing":
            continue
        for r, c in zip(*np.nonzero(game.mines)):
            if rng.random() < 0.25:
                game.flag((int(r), int(c)))
        if rng.random() < 0.2:  # question marks read as unknown cells
            hidden = np.argwhere(game.view == -1)
            r, c = hidden[int(rng.integers(len(hidden)))]
            game.view[r, c] = -3
        board = game.board()
        if layouts_to_check(board) <= max_layouts:
            found.append(board)
    return found


def layouts(board: Board) -> list[frozenset[Cell]]:
    """Every consistent layout, as the set of unknown cells holding a mine."""
    unknown, combos = _consistent(board)
    return [frozenset(unknown[i] for i in combo) for combo in combos]


def mines_seen(board: Board, layout: frozenset[Cell], cell: Cell) -> int:
    """The number ``cell`` would show under ``layout`` (flags counted as mines)."""
    return sum(nb in layout or board[nb] == FLAG for nb in neighbours(board, cell))
