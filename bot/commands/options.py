"""What a live command is asked (PlayOptions), and the mine count it plays with: as
told (--mines, the counter, --level), else remembered or a standard level's."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from bot.errors import (
    UsageError,
)
from bot.vocabulary import STANDARD_MINES, level_of


@dataclasses.dataclass(frozen=True)
class PlayOptions:
    """What ``minebot play`` is asked to do (bot/cli.py makes it from the command line, ``demo`` from its game)."""

    games: int = 1
    skin: str | None = None  # only this pack
    mines: int | None = None
    level: str | None = None  # switch to it (or check the size)
    dry_run: bool = False
    flags: bool = True
    save_final: Path | None = None
    json: bool = False
    # learn the look by playing, into this pack ("": a name of its own); None: where no pack reads it
    learn: str | None = None
    new_game_key: str | None = None
    profile: bool = False  # say where the games' time went


def mine_count(
    options: PlayOptions,
    skin: str,
    rows: int,
    cols: int,
    counted: int | None = None,
    remembered: int | None = None,
) -> int:
    """The game's mine count: as told (mines_told), else ``remembered`` (a learnt pack's count
    for this size), else the standard level's for the board's size."""
    told = mines_told(options, skin, rows, cols, counted)
    mines = told if told is not None else remembered or STANDARD_MINES.get((rows, cols))
    if mines is None:
        raise UsageError(
            f"a {cols}x{rows} board is not a standard level: give its mine count with --mines"
        )
    return int(mines)


def mines_told(
    options: PlayOptions, skin: str, rows: int, cols: int, counted: int | None = None
) -> int | None:
    """The game's mine count as told: --mines, else what its counter says (``counted``), else
    --level's in that game (its size checked); None where nothing tells it."""
    if options.mines is not None:
        if not 0 < options.mines < rows * cols:
            raise UsageError(
                f"--mines {options.mines}: a {cols}x{rows} board holds from 1 to {rows * cols - 1}"
            )
        return int(options.mines)
    level = options.level
    if level:
        want = level_of(skin, level)
        if (rows, cols) != (want.rows, want.cols):
            how = (
                "--dry-run does not switch levels"
                if options.dry_run
                else "minebot does not know how to switch this game's level"
            )
            raise UsageError(
                f"the game on screen is {cols}x{rows}, not {level} ({want.cols}x{want.rows}), and {how}: "
                "change it in the game or leave out --level"
            )
    if counted is not None:
        return counted
    return level_of(skin, level).mines if level else None
