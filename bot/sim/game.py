"""A simulated Minesweeper game with the real games' rules, seeded so a game replays exactly.

First-click rules (bot/vocabulary.py; they change the best first click and the win rate):

* ``safe``    – the first click is never a mine; mines are uniform over the other cells
  (Windows XP/98, winemine).
* ``opening`` – the first click is always a 0; mines are uniform outside its 3x3 block
  (Windows 7, gnome-mines, minegauler).
* ``none``    – mines are placed before the first click; it may hit one.

Layouts file (plain text, one block per game, blank lines between blocks)::

    game 0 rows=9 cols=9 mines=10 rule=safe start=0,0
    .*.......
    ......*..
    ...

``*`` is a mine, ``.`` is not. ``start`` is the first click the layout was made for (the
file's layouts already obey the rule for that click); a program replaying the file should make
the same first click. Lines starting with ``%`` are comments.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.board import Board, neighbour_sum
from bot.errors import LayoutFileError, UsageError
from bot.vocabulary import (
    COVERED,
    EXPLODED,
    FLAG,
    LEVELS,
    MINE,
    WRONG_FLAG,
    Cell,
    FirstClickRule,
    Level,
    State,
    check_rule,
    kept_clear,
)


class Game:
    """One game. Mines are placed at the first reveal unless a layout is given."""

    def __init__(
        self,
        level: Level,
        rule: FirstClickRule = "safe",
        seed: int | tuple[int, ...] = 0,
        layout: np.ndarray | None = None,
    ) -> None:
        self.level = level
        self.rule = check_rule(rule)
        self.rng = np.random.default_rng(seed)
        shape = (level.rows, level.cols)
        self.view = np.full(shape, COVERED, dtype=np.int8)
        self.state: State = "playing"
        self.mines: np.ndarray | None = None
        if layout is not None:
            self._set_layout(np.asarray(layout, dtype=bool))
        elif rule == "none":
            self._set_layout(self._place(excluded=np.zeros(shape, dtype=bool)))

    # -- mines ------------------------------------------------------------------------------
    def _set_layout(self, mines: np.ndarray) -> None:
        if (
            mines.shape != (self.level.rows, self.level.cols)
            or int(mines.sum()) != self.level.mines
        ):
            raise LayoutFileError(
                f"layout has shape {mines.shape} and {int(mines.sum())} mines; "
                f"level {self.level} needs {(self.level.rows, self.level.cols)} and {self.level.mines}"
            )
        self.mines = mines
        self.numbers = neighbour_sum(mines).astype(np.int8)

    def _place(self, excluded: np.ndarray) -> np.ndarray:
        free = np.flatnonzero(~excluded.ravel())
        if len(free) < self.level.mines:
            raise UsageError(f"level {self.level} has too few cells for its first-click rule")
        chosen = self.rng.choice(free, size=self.level.mines, replace=False)
        mines = np.zeros(excluded.size, dtype=bool)
        mines[chosen] = True
        return mines.reshape(excluded.shape)

    def _first_click(self, cell: Cell) -> None:
        self._set_layout(
            self._place(
                kept_clear((self.level.rows, self.level.cols), cell, self.rule, self.level.mines)
            )
        )

    # -- the player's actions -----------------------------------------------------------------
    def board(self, still: bool = False) -> Board:
        """What the player sees now (always still: ``still`` is for a live game)."""
        return Board(self.view.copy(), self.level.mines)

    def _check(self, cell: Cell) -> Cell:
        r, c = cell
        if not (0 <= r < self.level.rows and 0 <= c < self.level.cols):
            raise UsageError(
                f"cell {cell} is outside the {self.level.cols}x{self.level.rows} board"
            )
        return int(r), int(c)

    def reveal(self, cell: Cell) -> State:
        """Uncover one cell; a 0 opens its neighbours recursively. Flags are not uncovered."""
        r, c = self._check(cell)
        if self.state != "playing" or self.view[r, c] != COVERED:
            return self.state
        if self.mines is None:
            self._first_click((r, c))
        assert self.mines is not None
        if self.mines[r, c]:
            self._lose((r, c))
            return self.state
        self._open(r, c)
        if int(np.count_nonzero(self.view < 0)) == self.level.mines:
            self.state = "won"
        return self.state

    chords = True  # the loop may chord here: it opens exactly what the single clicks would

    def reveal_many(
        self, cells: Iterable[Cell], chords: Iterable[Cell] = (), guess: bool = False
    ) -> State:
        for cell in chords:
            if self.chord(cell) != "playing":
                return self.state
        for cell in cells:
            if self.reveal(cell) != "playing":
                break
        return self.state

    def _open(self, r: int, c: int) -> None:
        rows, cols = self.level.rows, self.level.cols
        stack = [(r, c)]
        view, numbers = self.view, self.numbers
        while stack:
            r, c = stack.pop()
            if view[r, c] != COVERED:
                continue
            n = numbers[r, c]
            view[r, c] = n
            if n == 0:
                for rr in range(max(r - 1, 0), min(r + 2, rows)):
                    for cc in range(max(c - 1, 0), min(c + 2, cols)):
                        if view[rr, cc] == COVERED:
                            stack.append((rr, cc))

    def _lose(self, cell: Cell) -> None:
        assert self.mines is not None
        self.state = "lost"
        covered = self.view == COVERED
        flags = self.view == FLAG
        self.view[covered & self.mines] = MINE
        self.view[flags & ~self.mines] = WRONG_FLAG
        self.view[cell] = EXPLODED

    def toggle_flag(self, cell: Cell) -> None:
        r, c = self._check(cell)
        if self.state != "playing":
            return
        if self.view[r, c] == COVERED:
            self.view[r, c] = FLAG
        elif self.view[r, c] == FLAG:
            self.view[r, c] = COVERED

    def flag(self, cell: Cell) -> None:
        """Put a flag on a covered cell (a no-op on anything else)."""
        if self.view[self._check(cell)] == COVERED:
            self.toggle_flag(cell)

    def chord(self, cell: Cell) -> State:
        """On a number whose flags account for it, reveal all its other covered neighbours."""
        r, c = self._check(cell)
        n = int(self.view[r, c])
        if self.state != "playing" or n <= 0:
            return self.state
        around = self.view[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2]
        if int(np.count_nonzero(around == FLAG)) != n:
            return self.state
        for rr in range(max(r - 1, 0), min(r + 2, self.level.rows)):
            for cc in range(max(c - 1, 0), min(c + 2, self.level.cols)):
                if self.view[rr, cc] == COVERED and self.reveal((rr, cc)) != "playing":
                    return self.state
        return self.state


# -- layouts files ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    level: Level
    rule: FirstClickRule
    start: Cell
    mines: np.ndarray


def make_layout(
    level: Level, rule: FirstClickRule, start: Cell, seed: int | tuple[int, ...]
) -> Layout:
    """The layout a seeded game would get for first click ``start``."""
    game = Game(level, rule, seed)
    if game.mines is None:
        game._first_click(start)
    assert game.mines is not None
    return Layout(level, rule, start, game.mines)


def write_layouts(path: Path, layouts: Iterable[Layout]) -> int:
    count = 0
    with open(path, "w", encoding="ascii") as out:
        out.write(
            "% minebot layouts: '*' mine, '.' no mine; start = the first click it was made for\n"
        )
        for i, lay in enumerate(layouts):
            lv = lay.level
            out.write(
                f"game {i} rows={lv.rows} cols={lv.cols} mines={lv.mines} rule={lay.rule} "
                f"start={lay.start[0]},{lay.start[1]}\n"
            )
            for row in lay.mines:
                out.write("".join("*" if m else "." for m in row) + "\n")
            out.write("\n")
            count += 1
    return count


def read_layouts(path: Path) -> list[Layout]:
    layouts: list[Layout] = []
    lines = Path(path).read_text(encoding="ascii").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if not line or line.startswith("%"):
            i += 1
            continue
        where = f"{path}:{i + 1}"
        words = line.split()
        if words[0] != "game":
            raise LayoutFileError(
                f"{where}: expected a 'game N rows=.. cols=.. mines=.. rule=.. start=R,C' line"
            )
        try:
            fields = dict(w.split("=", 1) for w in words[2:])
            rows, cols, mines = int(fields["rows"]), int(fields["cols"]), int(fields["mines"])
            rule = check_rule(fields["rule"])
            sr, sc = (int(v) for v in fields["start"].split(","))
        except (KeyError, ValueError) as err:
            raise LayoutFileError(
                f"{where}: bad game header ({err}); see the format in the README"
            ) from None
        grid = lines[i + 1 : i + 1 + rows]
        if len(grid) != rows or any(len(g) != cols or set(g) - {"*", "."} for g in grid):
            raise LayoutFileError(
                f"{where}: expected {rows} rows of {cols} '*' or '.' after the header"
            )
        arr = np.array([[ch == "*" for ch in g] for g in grid], dtype=bool)
        if int(arr.sum()) != mines:
            raise LayoutFileError(
                f"{where}: header says {mines} mines, the grid holds {int(arr.sum())}"
            )
        name = next((n for n, lv in LEVELS.items() if lv == Level(n, rows, cols, mines)), "custom")
        layouts.append(Layout(Level(name, rows, cols, mines), rule, (sr, sc), arr))
        i += 1 + rows
    return layouts
