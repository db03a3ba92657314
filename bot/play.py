"""The play loop: read the board, decide, act, until the game is won or lost.

The same loop drives the simulated engine (benchmarks, tests) and, through the same small
protocol, a real game on the screen.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol, TextIO

import numpy as np

from bot.board import Board
from bot.progress import ProgressLine
from bot.solver import Strategy
from bot.vocabulary import COVERED, FLAG, HIDDEN, QUESTION, Cell, FirstClickRule, State


class GameProgress(ProgressLine):
    """A progress line while a live game is played: from its first second on, at most once a
    second (cells open, flags, guesses, seconds); ``clear`` wipes it before the game's line."""

    def __init__(
        self,
        label: str,
        every: float = 1.0,
        stream: TextIO | None = None,
        terminal: bool | None = None,
    ) -> None:
        super().__init__(label, every, stream, terminal)

    def __call__(self, board: Board, guesses: int) -> None:
        seconds = self.due()
        if seconds is None:
            return
        hidden = int(np.isin(board.cells, HIDDEN).sum())
        to_open = f"/{board.cells.size - board.mines}" if board.mines is not None else ""
        self.show(
            f"{board.cells.size - hidden}{to_open} cells open, {int((board.cells == FLAG).sum())} flags, "
            f"{guesses} guesses, {seconds:.0f} s"
        )


class Table(Protocol):
    """A game the loop can play: the sim's :class:`bot.sim.game.Game` or a live screen game."""

    state: State
    chords: bool  # whether the game opens a satisfied number's neighbours in one click

    def board(
        self, still: bool = False
    ) -> Board: ...  # still: read once the game stood still (a live game)

    def reveal_many(
        self, cells: list[Cell], chords: Sequence[Cell] = (), guess: bool = False
    ) -> State: ...

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
    clicks: int = 0  # reveals, chords and flags
    chords: int = 0  # clicks that were chords
    guessed: tuple[
        Cell, ...
    ] = ()  # the cells clicked not called safe (guesses, and the first click), in order

    @property
    def won(self) -> bool:
        return self.state == "won"


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


PARTS = ("wait", "read", "solve", "guard", "click")  # where a live game's time goes (Spent)


class Spent:
    """Where one game's time went, seconds by part: waiting for the game to draw and stay still
    (``wait``: grabs until it does, polls for a late redraw), reading the board (``read``), deciding
    (``solve``), the check before each click (``guard``) and sending clicks (``click``)."""

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(PARTS, 0.0)

    @contextmanager
    def on(self, part: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[part] += time.perf_counter() - start

    def of(self, total: float) -> dict[str, float]:
        """The parts of ``total`` seconds, and what none of them took (``other``), in ms."""
        return {
            **{part: round(1000 * s, 1) for part, s in self.seconds.items()},
            "other": round(1000 * max(0.0, total - sum(self.seconds.values())), 1),
        }


@dataclass
class Tally:
    """What one game took so far: guesses, readings and clicks (the learner's count)."""

    guesses: int = 0
    readings: int = 0
    clicks: int = 0
    chords: int = 0  # clicks that were chords
    # the cells clicked not called safe (GameResult.guessed)
    guessed: list[Cell] = field(default_factory=list)

    def result(self, state: State, seconds: float, lost_on_certain: bool) -> GameResult:
        return GameResult(
            state,
            self.guesses,
            self.readings,
            seconds,
            lost_on_certain,
            clicks=self.clicks,
            chords=self.chords,
            guessed=tuple(self.guessed),
        )


def plan_chords(board: Board, safe: Iterable[Cell]) -> tuple[list[Cell], list[Cell]]:
    """Split the cells to open into chords and single clicks, with as few clicks as a greedy pick gives.

    A chord goes on a revealed number whose flags already account for it and whose other covered
    neighbours are all in ``safe``, and only where it opens at least two cells still to open:
    there it saves clicks. Numbers beside a question mark are left alone (games differ on
    whether a chord opens it). Returns (numbers to chord on, cells to click one by one).
    """
    left = set(safe)
    options: dict[Cell, set[Cell]] = {}
    for cell in {n for s in left for n in board.neighbours(s)}:
        number = board[cell]
        if number <= 0:
            continue
        around = {n: board[n] for n in board.neighbours(cell)}
        covered = {n for n, code in around.items() if code == COVERED}
        shown = list(around.values())
        if QUESTION not in shown and shown.count(FLAG) == number and covered <= left:
            options[cell] = covered
    return pick_chords(options, left)


def pick_chords(
    options: dict[Cell, set[Cell]], safe: Iterable[Cell]
) -> tuple[list[Cell], list[Cell]]:
    """Chords from ``options`` (each number a chord may go on: the cells it opens) to open ``safe``,
    greedily, each where it opens at least two cells still to open: (numbers to chord on, cells
    to click one by one)."""
    left, options = set(safe), dict(options)
    chords: list[Cell] = []
    while options:
        best = max(sorted(options), key=lambda cell: len(options[cell] & left))
        if len(options[best] & left) < 2:
            break
        chords.append(best)
        left -= options.pop(best)
    return chords, sorted(left)


def play_game(
    game: Table,
    strategy: Strategy,
    rule: FirstClickRule,
    rng: np.random.Generator,
    flags: bool = True,
    max_decisions: int = 100_000,
    progress: Callable[[Board, int], None] | None = None,
    spent: Spent | None = None,
    must_flag: bool = False,
) -> GameResult:
    """Play until the game is won or lost. ``progress`` is told each board read and the guesses so
    far; ``spent`` gets the time spent deciding. Mines found are flagged where ``flags`` lets them be
    and the game chords (a flag is a click, which only a chord on the number it completes pays back:
    the 98-style page, which takes no chords, played Expert in 340 clicks a game with flags, 230
    without), or always where the game ``must_flag`` every mine to be won."""
    flags = must_flag or (flags and game.chords)
    start = time.perf_counter()
    guesses = decisions = 0
    slowest = 0.0
    lost_on_certain = False
    approximate = clicks = chorded = 0
    guessed: list[Cell] = []
    while game.state == "playing" and decisions < max_decisions:
        board = game.board()
        if progress is not None:
            progress(board, guesses)
        t0 = time.perf_counter()
        analysis = strategy.analyse(board, rule, rng, full=False, flags_first=flags)
        took = time.perf_counter() - t0
        slowest = max(slowest, took)
        if spent is not None:
            spent.seconds["solve"] += took
        decisions += 1
        approximate += not analysis.exact
        new_flags = (
            [cell for cell in sorted(analysis.mines) if board[cell] == COVERED] if flags else []
        )
        for cell in new_flags:
            game.flag(cell)
        clicks += len(new_flags)
        if new_flags and not analysis.safe:
            continue  # read again before guessing: the rules may use the new flags
        if analysis.safe:
            chords: list[Cell] = []
            singles = sorted(analysis.safe)
            if flags and game.chords:
                flagged = board.copy() if new_flags else board
                for cell in new_flags:
                    flagged.cells[cell] = FLAG  # placed above, before these clicks reach the game
                chords, singles = plan_chords(flagged, analysis.safe)
            clicks += len(chords) + len(singles)
            chorded += len(chords)
            if game.reveal_many(singles, chords) == "lost":
                lost_on_certain = True
        elif analysis.move is not None:
            if game.board(still=True) != board:
                continue  # read before the game finished drawing: decide again on the whole picture
            move = analysis.move
            if move.reason == "guess" or (move.reason == "first" and rule == "none"):
                guesses += 1
            game.reveal_many([move.cell], guess=True)
            guessed.append(move.cell)
            clicks += 1
        else:
            break
    return GameResult(
        game.state,
        guesses,
        decisions,
        time.perf_counter() - start,
        lost_on_certain,
        slowest,
        approximate,
        clicks,
        chorded,
        tuple(guessed),
    )
