"""What a run prints: a game's line, the summary, where the time went, the final screen."""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import TextIO

import numpy as np

from bot.commands.options import PlayOptions
from bot.live.table import LiveTable
from bot.play import GameResult, wilson
from bot.userdata import (
    write_picture,
)


def describe(result: GameResult) -> str:
    if result.won:
        how = "won"
    elif result.state == "lost":
        how = (
            "LOST ON A CELL CALLED SAFE (a misreading or a bug)"
            if result.lost_on_certain
            else "lost on a guess"
        )
    else:
        how = "stopped (no move)"
    return (
        f"{how} in {result.seconds:.1f} s, {result.guesses} guesses, {result.decisions} readings, "
        f"{result.clicks} clicks ({result.chords} chords)"
    )


def report_game(
    options: PlayOptions,
    index: int,
    table: LiveTable,
    result: GameResult,
    results: list[GameResult],
    ms: dict[str, float],
) -> None:
    """A game's line (JSON with --json, with ``ms``: where its time went), and its final screen where asked."""
    # the last board read: None where the game drew its end over the board right after a flag
    board = table.reading.board if table.reading is not None else None
    if options.json:
        print(
            json.dumps(
                {
                    "game": index + 1,
                    "state": result.state,
                    "seconds": round(result.seconds, 3),
                    "guesses": result.guesses,
                    "readings": result.decisions,
                    "clicks": result.clicks,
                    "chords": result.chords,
                    "presses": table.presses,  # clicks sent: the guard holds back some planned
                    "lost_on_certain": result.lost_on_certain,
                    "ms": ms,
                    "guessed": result.guessed,  # the cells clicked not called safe (numpy's ints: default=int)
                    "board": str(board).splitlines() if board is not None else [],
                },
                default=int,
            ),
            flush=True,
        )
    else:
        wins = sum(r.won for r in results)
        print(
            f"game {index + 1}/{options.games}: {describe(result)} ({wins} won so far)", flush=True
        )
    save_final(options.save_final, table.image, index + 1)


def save_final(path: Path | None, image: np.ndarray | None, game: int) -> None:
    """Save a game's last screen at ``path`` (each game over the last; a ``{game}`` in the name is
    the game's number, so that each game has a file of its own)."""
    if path is not None and image is not None:
        write_picture(Path(str(path).replace("{game}", str(game))), image)


def say_interrupted(options: PlayOptions, results: list[GameResult], where: str) -> None:
    """Ctrl+C: where the run stopped, and the summary of the games it finished (not under --json,
    whose lines told each)."""
    print(f"minebot: interrupted {where}; {len(results)} finished before it", file=sys.stderr)
    if results and not options.json:
        print_summary(results)


def print_summary(results: list[GameResult]) -> None:
    wins = sum(r.won for r in results)
    seconds = statistics.median(r.seconds for r in results)
    low, high = wilson(wins, len(results))
    print(
        f"{wins} won, {len(results) - wins} lost of {len(results)} ({wins / len(results):.1%}, "
        f"95% interval {low:.1%}-{high:.1%}); median {seconds:.2f} s per game; "
        f"{sum(r.guesses for r in results)} guesses"
    )


def print_profile(results: list[GameResult], profiles: list[dict[str, float]], out: TextIO) -> None:
    """``--profile``: where the games' time went, the median ms of each part, and per click; of the
    games won where some were (a game lost on an early guess takes a fraction of a second)."""
    won = [i for i, r in enumerate(results) if r.won] or list(range(len(results)))
    medians = {part: statistics.median(profiles[i][part] for i in won) for part in profiles[0]}
    total = sum(medians.values()) or 1.0
    clicks = statistics.median(results[i].clicks for i in won)
    games = f"{len(won)} won games" if results[won[0]].won else f"{len(won)} games"
    print(
        f"time per game, {games} (median of each part, ms): "
        + ", ".join(f"{part} {ms:.0f} ({ms / total:.0%})" for part, ms in medians.items())
        + f"; {statistics.median(results[i].decisions for i in won):.0f} readings and {clicks:.0f} clicks a game, "
        f"{total / max(clicks, 1):.1f} ms a click",
        file=out,
    )
