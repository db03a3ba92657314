"""The board value: what a player sees, as a small numpy grid with a text round-trip.

Cells hold 0..8 for a revealed number and negative codes for everything else::

    >>> b = Board.parse('''
    ... 1 1 #
    ... # F #
    ... ''', mines=2)
    >>> b.rows, b.cols, b[0, 1]
    (2, 3, 1)
    >>> print(b)
    11#
    #F#

Characters (also documented in the README): ``#`` covered, ``F`` flag, ``?`` question mark,
``0``-``8`` revealed number, ``*`` revealed mine, ``X`` exploded mine, ``x`` wrong flag.
Spaces between cells are optional.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from bot.errors import BoardTextError
from bot.vocabulary import CHAR_OF, CODE_OF, COVERED, EXPLODED, FLAG, HIDDEN, MINE, QUESTION, Cell

_OFFSETS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


@dataclass(eq=False)
class Board:
    """A rows x cols grid of cell codes, plus the game's total mine count when known."""

    cells: np.ndarray
    mines: int | None = None

    def __post_init__(self) -> None:
        self.cells = np.asarray(self.cells, dtype=np.int8)
        if self.cells.ndim != 2 or 0 in self.cells.shape:
            raise BoardTextError(
                f"a board needs at least one row and one column, got shape {self.cells.shape}"
            )

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def covered(cls, rows: int, cols: int, mines: int | None = None) -> Board:
        return cls(np.full((rows, cols), COVERED, dtype=np.int8), mines)

    @classmethod
    def parse(cls, text: str, mines: int | None = None) -> Board:
        """Parse the character grid written by ``str(board)``.

        Blank lines before and after are ignored; every row must have the same width.
        """
        lines = text.splitlines()
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is None:
            raise BoardTextError("board text is empty; expected rows of # F ? 0-8 * X x")
        last = max(i for i, line in enumerate(lines) if line.strip())
        rows: list[list[int]] = []
        width = None
        for lineno in range(first, last + 1):
            line = lines[lineno]
            row: list[int] = []
            for col, ch in enumerate(line, start=1):
                if ch in " \t":
                    continue
                if ch not in CODE_OF:
                    raise BoardTextError(
                        f"line {lineno + 1}, column {col}: {ch!r} is not a cell; "
                        "use # F ? 0-8 * X x"
                    )
                row.append(CODE_OF[ch])
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise BoardTextError(
                    f"line {lineno + 1}: {len(row)} cells where the first row has {width}; "
                    "every row needs the same number of cells"
                )
            rows.append(row)
        return cls(np.array(rows, dtype=np.int8), mines)

    def copy(self) -> Board:
        return Board(self.cells.copy(), self.mines)

    # -- text -------------------------------------------------------------------------------
    def __str__(self) -> str:
        return "\n".join("".join(CHAR_OF[int(v)] for v in row) for row in self.cells)

    def __repr__(self) -> str:
        return f'Board.parse("""\n{self}\n""", mines={self.mines})'

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.mines == other.mines and np.array_equal(self.cells, other.cells)

    # -- access -----------------------------------------------------------------------------
    @property
    def rows(self) -> int:
        return int(self.cells.shape[0])

    @property
    def cols(self) -> int:
        return int(self.cells.shape[1])

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows, self.cols

    def __getitem__(self, cell: Cell) -> int:
        return int(self.cells[cell])

    def __contains__(self, cell: object) -> bool:
        if not (isinstance(cell, tuple) and len(cell) == 2):
            return False
        r, c = cell
        return 0 <= r < self.rows and 0 <= c < self.cols

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The up to 8 cells around ``cell``."""
        return neighbours(self.cells.shape[0], self.cells.shape[1], cell)

    def cells_where(self, mask: np.ndarray) -> list[Cell]:
        return [(int(r), int(c)) for r, c in zip(*np.nonzero(mask))]

    def unknown_mask(self) -> np.ndarray:
        """Cells whose content the player does not know: covered or question-marked."""
        return (self.cells == COVERED) | (self.cells == QUESTION)

    def unknown(self) -> list[Cell]:
        return self.cells_where(self.unknown_mask())

    def flags(self) -> int:
        return int(np.count_nonzero(self.cells == FLAG))

    def is_fresh(self) -> bool:
        """Nothing revealed or flagged yet."""
        return bool(np.all(self.unknown_mask()))

    def lost(self) -> bool:
        return bool(np.any((self.cells == EXPLODED) | (self.cells == MINE)))

    def __iter__(self) -> Iterator[Cell]:
        for r in range(self.rows):
            for c in range(self.cols):
                yield (r, c)


def contradiction(before: Board, after: Board) -> str | None:
    """Why ``after`` cannot follow ``before`` in one game, or None: revealed cells never change."""
    was_open = ~np.isin(before.cells, HIDDEN)
    changed = was_open & (before.cells != after.cells)
    if changed.any():
        r, c = (int(v) for v in np.argwhere(changed)[0])
        return f"cell ({r},{c}) was {before.cells[r, c]} and now reads {after.cells[r, c]}"
    return None


@lru_cache(maxsize=65536)
def neighbours(rows: int, cols: int, cell: Cell) -> list[Cell]:
    """The up to 8 cells around ``cell`` on a board of ``rows`` x ``cols`` (the list is shared: do not change it)."""
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in _OFFSETS if 0 <= r + dr < rows and 0 <= c + dc < cols]


def neighbour_sum(mask: np.ndarray) -> np.ndarray:
    """For every cell, how many of its 8 neighbours are set in ``mask`` (a bool or int grid)."""
    rows, cols = mask.shape
    p = np.zeros((rows + 2, cols + 2), dtype=np.int16)
    p[1:-1, 1:-1] = mask
    across = p[:, :-2] + p[:, 1:-1] + p[:, 2:]  # each 3-wide row strip, then three of them stacked
    return across[:-2] + across[1:-1] + across[2:] - p[1:-1, 1:-1]


def dilate(mask: np.ndarray) -> np.ndarray:
    """Cells that have at least one neighbour set in ``mask``."""
    return neighbour_sum(mask) > 0
