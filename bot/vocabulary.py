"""The words every stage of minebot shares: cells and their codes, the first-click rule, a game's
state, and the levels (the standard three, each real game's own sizes).

It imports nothing of minebot's but its errors, so the solver, the vision, the simulator, the play
loop and the game launchers all import it and none of them needs another for a type.

    >>> CHAR_OF[FLAG], CODE_OF["3"], TILE_CHARS["wrong_flag"]
    ('F', 3, 'x')
    >>> parse_level("30x16/99")
    Level(name='custom', rows=16, cols=30, mines=99)
    >>> STANDARD_MINES[(30, 16)], level_of("gnome-mines", "beginner")
    (99, Level(name='beginner', rows=8, cols=8, mines=10))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from bot.errors import UsageError

Cell = tuple[int, int]  # (row, column), from the top-left corner

# What a cell shows: 0..8 for a revealed number, negative codes for everything else.
COVERED = -1
FLAG = -2
QUESTION = -3
MINE = -4
EXPLODED = -5
WRONG_FLAG = -6
HIDDEN = (COVERED, FLAG, QUESTION)  # what a player cannot see through
NUMBERS = frozenset(range(9))

# The board text's characters (README, "Board text") ...
CHAR_OF: dict[int, str] = {
    COVERED: "#",
    FLAG: "F",
    QUESTION: "?",
    MINE: "*",
    EXPLODED: "X",
    WRONG_FLAG: "x",
    **{n: str(n) for n in range(9)},
}
CODE_OF: dict[str, int] = {ch: code for code, ch in CHAR_OF.items()}
# ... and the names of the pictures of each kind of cell in a skin pack (covered.png, 3.png, ...)
TILE_CHARS: dict[str, str] = {
    "covered": "#",
    "flag": "F",
    "question": "?",
    "mine": "*",
    "exploded": "X",
    "wrong_flag": "x",
    **{str(n): str(n) for n in range(9)},
}
TILE_NAMES: dict[str, str] = {ch: name for name, ch in TILE_CHARS.items()}

# What a game's first click may hit (they change the best first click and the win rate):
# "safe": never a mine (Windows XP/98, winemine); "opening": always a 0, its 3x3 block free
# (Windows 7, gnome-mines, minegauler); "none": the mines are laid before it.
FirstClickRule = Literal["safe", "opening", "none"]
FIRST_CLICK_RULES: tuple[FirstClickRule, ...] = ("safe", "opening", "none")

State = Literal["playing", "won", "lost"]
STATES: tuple[State, ...] = ("playing", "won", "lost")


def check_rule(rule: str) -> FirstClickRule:
    if rule not in FIRST_CLICK_RULES:
        raise UsageError(f"rule {rule!r} is not one of {', '.join(FIRST_CLICK_RULES)}")
    return rule


def kept_clear(shape: tuple[int, int], cell: Cell, rule: FirstClickRule, mines: int) -> np.ndarray:
    """The cells a first click on ``cell`` keeps free of mines: none under "none", the cell under
    "safe", its 3x3 under "opening" (only the cell where the board is too full for that)."""
    clear = np.zeros(shape, dtype=bool)
    if rule == "none":
        return clear
    r, c = cell
    if rule == "opening" and clear.size - 9 >= mines:
        clear[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2] = True
    else:
        clear[r, c] = True
    return clear


@dataclass(frozen=True)
class Level:
    name: str
    rows: int
    cols: int
    mines: int

    def __str__(self) -> str:
        return f"{self.name} {self.cols}x{self.rows}/{self.mines}"


LEVELS: dict[str, Level] = {
    "beginner": Level("beginner", 9, 9, 10),
    "intermediate": Level("intermediate", 16, 16, 40),
    "expert": Level("expert", 16, 30, 99),
}

# The real games' own sizes where they differ from the standard levels
_OLD_BEGINNER = Level("beginner", 8, 8, 10)  # the beginner of older games
GAME_LEVELS: dict[str, dict[str, Level]] = {
    "xdemineur": {**LEVELS, "beginner": Level("beginner", 9, 12, 10)},  # at least 12 columns wide
    "gnome-mines": {**LEVELS, "beginner": _OLD_BEGINNER},
    "minegauler": {**LEVELS, "beginner": _OLD_BEGINNER},
    "xbomb": {**LEVELS, "beginner": _OLD_BEGINNER},
    # one size at every level
    "nicegui-minesweeper": {name: Level(name, 10, 10, 10) for name in LEVELS},
    "ace-minesweeper": {name: Level(name, 32, 32, 200) for name in LEVELS},  # the same
    "pygame-minesweeper": {**LEVELS, "beginner": Level("beginner", 10, 10, 10)},
    "google": {  # Google's Minesweeper: easy, medium, hard
        "beginner": Level("beginner", 8, 10, 10),
        "intermediate": Level("intermediate", 14, 18, 40),
        "expert": Level("expert", 20, 24, 99),
    },
}


def level_of(game: str, level: str) -> Level:
    """``level`` (beginner, intermediate, expert) in ``game``: its own size where minebot knows
    the game, else the standard one."""
    return GAME_LEVELS.get(game, LEVELS)[level]


# The mine count of a board of any known game's level, by its size (rows, cols) either way round
STANDARD_MINES: dict[tuple[int, int], int] = {
    size: level.mines
    for levels in (LEVELS, *GAME_LEVELS.values())
    for level in levels.values()
    for size in ((level.rows, level.cols), (level.cols, level.rows))
}


MAX_SIDE = 300  # cells along a custom board's side: no game draws more, and memory stays small


def parse_level(text: str) -> Level:
    """A level name, or ``COLSxROWS/MINES`` for a custom board (e.g. ``30x16/99``)."""
    if text in LEVELS:
        return LEVELS[text]
    try:
        size, mines = text.split("/")
        cols, rows = (int(v) for v in size.lower().split("x"))
        level = Level("custom", rows, cols, int(mines))
    except ValueError:
        raise UsageError(
            f"level {text!r} is neither {', '.join(LEVELS)} nor COLSxROWS/MINES like 30x16/99"
        ) from None
    if rows < 1 or cols < 1 or not 0 <= level.mines < rows * cols:
        raise UsageError(f"level {text!r}: needs at least one cell and 0 <= mines < cells")
    if max(rows, cols) > MAX_SIDE:
        raise UsageError(f"level {text!r}: at most {MAX_SIDE} cells a side")
    return level
