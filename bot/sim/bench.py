"""Win-rate benchmark: seeded games in the simulated engine, on all cores.

Game ``i`` of a run with seed ``S`` is seeded with ``(S, i)``, so any game can be replayed
alone and the figures do not depend on ``--jobs``. ``positions`` instead solves one position per
game, opened at scattered cells: how often the exact solver finishes on the hardest boards.
"""

from __future__ import annotations

import math
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import numpy as np

from bot.board import Board
from bot.errors import UsageError
from bot.play import GameResult, play_game, wilson
from bot.progress import ProgressLine
from bot.sim.game import Game, Layout
from bot.solver import get_strategy
from bot.vocabulary import COVERED, FirstClickRule, Level


@dataclass(frozen=True)
class Job:
    level: Level
    rule: FirstClickRule
    strategy: str
    seed: int
    flags: bool = True


@dataclass(frozen=True)
class Summary:
    strategy: str
    level: str
    rule: str
    games: int
    wins: int
    guesses: int
    seconds: float  # summed time inside games (one core's worth)
    slowest_decision: float
    lost_on_certain: int
    approximate: int = 0  # decisions made on approximate probabilities
    # "1" or "0" for each game, by its index (see Paired)
    won_games: str = field(default="", repr=False)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def ms_per_game(self) -> float:
        return 1000 * self.seconds / self.games if self.games else 0.0

    @property
    def guesses_per_game(self) -> float:
        return self.guesses / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, object]:
        lo, hi = self.ci95
        return {
            "strategy": self.strategy,
            "level": self.level,
            "rule": self.rule,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 6),
            "ci95": [round(lo, 6), round(hi, 6)],
            "ms_per_game": round(self.ms_per_game, 3),
            "guesses_per_game": round(self.guesses_per_game, 4),
            "slowest_decision_ms": round(1000 * self.slowest_decision, 1),
            "lost_on_certain": self.lost_on_certain,
            "approximate_decisions": self.approximate,
        }


def _play_one(job: Job, index: int, layout: Layout | None) -> GameResult:
    strategy = get_strategy(job.strategy)
    if layout is not None:
        game = Game(layout.level, layout.rule, (job.seed, index), layout=layout.mines)
        # the first click the layout was made for (its rule kept it clear)
        game.reveal(layout.start)
    else:
        game = Game(job.level, job.rule, (job.seed, index))
    rng = np.random.default_rng((job.seed, index, 1))
    return play_game(game, strategy, job.rule, rng, flags=job.flags)


def _play_chunk(
    args: tuple[Job, list[int], list[Layout | None]],
) -> tuple[list[int], list[GameResult]]:
    job, indices, layouts = args
    return indices, [_play_one(job, i, lay) for i, lay in zip(indices, layouts)]


def run(
    job: Job,
    games: int,
    jobs: int = 1,
    layouts: Sequence[Layout] | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> Summary:
    """Play ``games`` games (or every layout given) and sum them up."""
    if layouts is not None:
        games = len(layouts)
    chunk = max(1, min(200, games // (jobs * 8) or 1))
    work = []
    for start in range(0, games, chunk):
        idx = list(range(start, min(start + chunk, games)))
        lays: list[Layout | None] = (
            [layouts[i] for i in idx] if layouts is not None else [None] * len(idx)
        )
        work.append((job, idx, lays))
    results: list[GameResult] = []
    won = ["0"] * games

    def collect(done: Iterator[tuple[list[int], list[GameResult]]]) -> None:
        for indices, part in done:
            results.extend(part)
            for i, r in zip(indices, part):
                won[i] = "1" if r.won else "0"
            if progress is not None:
                progress(len(results), games, sum(r.won for r in results))

    if jobs > 1 and len(work) > 1:
        ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        with ctx.Pool(jobs) as pool:
            collect(pool.imap_unordered(_play_chunk, work))
    else:
        collect(map(_play_chunk, work))
    return Summary(
        strategy=job.strategy,
        level=str(job.level),
        rule=job.rule,
        games=len(results),
        wins=sum(r.won for r in results),
        guesses=sum(r.guesses for r in results),
        seconds=sum(r.seconds for r in results),
        slowest_decision=max((r.slowest_decision for r in results), default=0.0),
        lost_on_certain=sum(r.lost_on_certain for r in results),
        approximate=sum(r.approximate for r in results),
        won_games="".join(won),
    )


@dataclass(frozen=True)
class Paired:
    """Two runs over the same seeded games (McNemar's test): the games only this run won, those
    only the other won, and z = (this - other) / sqrt(this + other). Where two solvers win 40% of
    Expert games each, most games go the same way for both: a difference of +100 in 20,000 games,
    within either run's own interval, is significant when paired (z about 2 to 3)."""

    this_only: int
    other_only: int

    @property
    def z(self) -> float:
        both = self.this_only + self.other_only
        return (self.this_only - self.other_only) / math.sqrt(both) if both else 0.0

    def line(self, other: str) -> str:
        net = self.this_only - self.other_only
        return (
            f"paired with {other}: won only here {self.this_only}, only there {self.other_only}, "
            f"net {net:+d} (McNemar z {self.z:+.2f})"
        )


def results_header(summary: Summary, seed: int) -> str:
    """The first line of a saved run: what must match for two runs to be paired."""
    return f"# minebot bench: level {summary.level} rule {summary.rule} seed {seed} games {summary.games}"


def save_results(path: Path, summary: Summary, seed: int) -> None:
    """Each game's result (1 won, 0 lost) by its index, after a header line (see paired)."""
    path.write_text(
        f"{results_header(summary, seed)} strategy {summary.strategy}\n{summary.won_games}\n"
    )


def paired(summary: Summary, seed: int, path: Path) -> Paired:
    """This run against one saved by ``save_results`` over the same games; ValueError where the
    saved run played other games."""
    header, won = (path.read_text().splitlines() + ["", ""])[:2]
    if not header.startswith(results_header(summary, seed) + " ") or len(won) != summary.games:
        raise ValueError(
            f"{path} holds the results of other games ({header.lstrip('# ')!r}); "
            f"run both with the same --level, --rule, --seed and --games"
        )
    this = np.frombuffer(summary.won_games.encode(), dtype=np.uint8) == ord("1")
    other = np.frombuffer(won.encode(), dtype=np.uint8) == ord("1")
    return Paired(int((this & ~other).sum()), int((other & ~this).sum()))


class Progress(ProgressLine):
    """A progress line for a benchmark, at most every ``every`` seconds (only on long runs): ``wins``
    are the games won, or with ``unit`` "positions" those solved exactly."""

    def __init__(
        self,
        label: str,
        every: float = 2.0,
        stream: TextIO | None = None,
        unit: str = "games",
        terminal: bool | None = None,
    ) -> None:
        super().__init__(label, every, stream, terminal)
        self.unit, self.counted = unit, "won" if unit == "games" else "exact"

    def __call__(self, done: int, total: int, wins: int) -> None:
        seconds = self.due(final=done >= total)
        if seconds is None:
            return
        rate = done / seconds if seconds > 0 else 0.0
        eta = (total - done) / rate if rate else 0.0
        self.show(
            f"{done}/{total} {self.unit}, {wins / done:.1%} {self.counted}, {rate:.0f} {self.unit}/s, {eta:.0f}s left",
            end=done >= total,
        )


@dataclass(frozen=True)
class Positions:
    """What a strategy made of seeded positions opened at scattered cells (``positions``)."""

    strategy: str
    level: str
    opened: int
    positions: int
    exact: int  # positions given every unknown cell's exact chance (no approximation stood in)
    certain: int  # cells called certainly safe or certainly a mine, over all positions
    wrong: int  # of those, cells that were not: a solver bug
    seconds: float
    slowest: float

    def as_dict(self) -> dict[str, object]:
        return {
            "strategy": self.strategy,
            "level": self.level,
            "opened": self.opened,
            "positions": self.positions,
            "exact": self.exact,
            "certain_cells": self.certain,
            "wrong": self.wrong,
            "ms_per_position": round(1000 * self.seconds / self.positions, 3),
            "slowest_ms": round(1000 * self.slowest, 1),
        }

    def row(self) -> str:
        return (
            f"{self.strategy:<14}{self.level:<22}{self.opened:>7}{self.positions:>10}{self.exact:>7}"
            f"{self.exact / self.positions:>9.2%}"
            f"{self.certain / self.positions:>9.1f}{1000 * self.seconds / self.positions:>9.1f}{1000 * self.slowest:>9.0f}"
        )

    HEADER = (
        f"{'strategy':<14}{'level':<22}{'opened':>7}{'positions':>10}{'exact':>7}{'':>9}"
        f"{'certain':>9}{'ms/pos':>9}{'slowest':>9}"
    )


def positions(
    level: Level,
    opened: int,
    count: int,
    seed: int,
    strategy: str = "best",
    progress: Callable[[int, int, int], None] | None = None,
) -> Positions:
    """Solve ``count`` positions: position ``i`` is game ``(seed, i)``'s layout (mines laid before
    any click) with ``opened`` of its safe cells, chosen at random, showing their numbers and no
    cascade. A game's own play opens the board in cascades, so its frontier is a chain; numbers
    scattered like this (a game taken over part way, a position typed in) tie the rules into
    webs, the hardest boards for exact enumeration."""
    strat = get_strategy(strategy)
    exact = certain = wrong = 0
    seconds = slowest = 0.0
    for i in range(count):
        board, mines = scattered(level, opened, (seed, i))
        start = time.perf_counter()
        analysis = strat.analyse(board, "none", np.random.default_rng((seed, i, 3)), full=True)
        took = time.perf_counter() - start
        seconds, slowest = seconds + took, max(slowest, took)
        exact += analysis.exact and analysis.probabilities is not None
        certain += len(analysis.safe) + len(analysis.mines)
        wrong += sum(bool(mines[c]) for c in analysis.safe) + sum(
            not mines[c] for c in analysis.mines
        )
        if progress is not None:
            progress(i + 1, count, exact)
    return Positions(strategy, str(level), opened, count, exact, certain, wrong, seconds, slowest)


def scattered(level: Level, opened: int, seed: tuple[int, int]) -> tuple[Board, np.ndarray]:
    """Game ``seed``'s layout (mines laid before any click) with ``opened`` of its safe cells, chosen
    at random, showing their numbers and no cascade: the board, and where the mines are."""
    game = Game(level, "none", seed)
    assert game.mines is not None
    free = np.flatnonzero(~game.mines.ravel())
    if not 0 < opened < len(free):
        raise UsageError(
            f"--opened must be from 1 to {len(free) - 1} on {level}, which has {len(free)} safe cells"
        )
    view = np.full(game.mines.shape, COVERED, dtype=np.int8).ravel()
    shown = np.random.default_rng((*seed, 2)).choice(free, size=opened, replace=False)
    view[shown] = game.numbers.ravel()[shown]
    return Board(view.reshape(game.mines.shape), level.mines), game.mines
