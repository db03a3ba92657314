"""The play loop: read the board, decide, act, until the game is won or lost.

The same loop drives the simulated engine (benchmarks, tests) and, through the same small
protocol, a real game on the screen.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from bot.board import COVERED, Board, Cell
from bot.sim import Rule, State
from bot.solver import Strategy


class Table(Protocol):
    """A game the loop can play: the sim's :class:`bot.sim.Game` or a live screen game."""

    state: State

    def board(self) -> Board: ...

    def reveal_many(self, cells: list[Cell]) -> State: ...

    def flag(self, cell: Cell) -> None: ...


@dataclass(frozen=True)
class GameResult:
    state: State  # "won", "lost", or "playing" when the strategy gave up
    guesses: int
    decisions: int
    seconds: float
    lost_on_certain: bool = False  # a cell the strategy called safe was a mine: a bug
    slowest_decision: float = 0.0
    approximate: int = 0  # decisions where an approximation stood in for exact probabilities

    @property
    def won(self) -> bool:
        return self.state == "won"


def play_game(
    game: Table,
    strategy: Strategy,
    rule: Rule,
    rng: np.random.Generator,
    flags: bool = True,
    max_decisions: int = 100_000,
) -> GameResult:
    start = time.perf_counter()
    guesses = decisions = 0
    slowest = 0.0
    lost_on_certain = False
    approximate = 0
    while game.state == "playing" and decisions < max_decisions:
        board = game.board()
        t0 = time.perf_counter()
        analysis = strategy.analyse(board, rule, rng, full=False)
        slowest = max(slowest, time.perf_counter() - t0)
        decisions += 1
        approximate += not analysis.exact
        new_flags = [cell for cell in sorted(analysis.mines) if board[cell] == COVERED] if flags else []
        for cell in new_flags:
            game.flag(cell)
        if new_flags and not analysis.safe:
            continue  # read again before guessing: the rules may use the new flags
        if analysis.safe:
            if game.reveal_many(sorted(analysis.safe)) == "lost":
                lost_on_certain = True
        elif analysis.move is not None:
            move = analysis.move
            if move.reason == "guess" or (move.reason == "first" and rule == "none"):
                guesses += 1
            game.reveal_many([move.cell])
        else:
            break
    return GameResult(
        game.state, guesses, decisions, time.perf_counter() - start, lost_on_certain, slowest, approximate
    )
