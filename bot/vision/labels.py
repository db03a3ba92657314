"""Screenshots with their true boards: the ``.board`` files beside fixture PNGs.

A ``.board`` file is a header of ``key: value`` lines, a blank line, and the board as text::

    game: classic98
    rows: 16
    cols: 30
    mines: 99
    cell_px: 16
    origin: 55,224
    state: lost
    pitch: 16,17

    ####*100001**22F##*##########*
    ...

Cell (r, c) covers ``[X + c*PX, X + c*PX + cell_px) x [Y + r*PY, Y + r*PY + cell_px)``.
``minebot record`` writes a cell it could not read as ``~``, to be filled in by eye.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.board import Board
from bot.errors import LabelFileError

STATES = ("playing", "won", "lost")
UNREAD = "~"  # a cell minebot could not read, in a .board file written by `minebot record`


@dataclass(frozen=True)
class Labelled:
    """What is true about one screenshot: the skin, where the board is, and every cell."""

    game: str
    origin: tuple[int, int]
    pitch: tuple[float, float]
    cell_px: int
    state: str
    board: Board

    @property
    def rows(self) -> int:
        return self.board.rows

    @property
    def cols(self) -> int:
        return self.board.cols

    def text(self) -> str:
        px, py = (f"{p:.6g}" for p in self.pitch)
        header = [
            f"game: {self.game}",
            f"rows: {self.rows}",
            f"cols: {self.cols}",
            f"mines: {'?' if self.board.mines is None else self.board.mines}",
            f"cell_px: {self.cell_px}",
            f"origin: {self.origin[0]},{self.origin[1]}",
            f"state: {self.state}",
            f"pitch: {px},{py}",
        ]
        return "\n".join(header) + "\n\n" + str(self.board) + "\n"


def read_label(path: str | Path) -> Labelled:
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise LabelFileError(f"cannot read {path}: {exc.strerror}") from exc
    head, sep, grid = text.partition("\n\n")
    if not sep:
        raise LabelFileError(f"{path}: expected header lines, a blank line, then the board")
    if UNREAD in grid:
        row, line = next(
            (r, line) for r, line in enumerate(grid.strip("\n").splitlines()) if UNREAD in line
        )
        raise LabelFileError(
            f"{path}: cell ({row},{line.replace(' ', '').index(UNREAD)}) is marked {UNREAD} (minebot could not read it): "
            "replace every " + UNREAD + " with what the picture shows (# F ? 0-8 * X x)"
        )
    fields: dict[str, str] = {}
    for number, line in enumerate(head.splitlines(), 1):
        key, colon, value = line.partition(":")
        if not colon:
            raise LabelFileError(f"{path}:{number}: expected 'key: value', got {line!r}")
        fields[key.strip()] = value.strip()
    try:
        mines = None if fields.get("mines", "?") == "?" else int(fields["mines"])
        board = Board.parse(grid, mines)
        x, y = (int(v) for v in fields["origin"].split(","))
        px, py = (float(v) for v in fields["pitch"].split(","))
        label = Labelled(
            fields["game"], (x, y), (px, py), int(fields["cell_px"]), fields["state"], board
        )
    except KeyError as exc:
        raise LabelFileError(f"{path}: header has no {exc.args[0]!r} line") from exc
    except ValueError as exc:
        raise LabelFileError(f"{path}: {exc}") from exc
    if label.state not in STATES:
        raise LabelFileError(
            f"{path}: state must be one of {', '.join(STATES)}, got {label.state!r}"
        )
    if (label.rows, label.cols) != (
        int(fields.get("rows", label.rows)),
        int(fields.get("cols", label.cols)),
    ):
        raise LabelFileError(
            f"{path}: header says {fields['rows']}x{fields['cols']} but the grid is {label.rows}x{label.cols}"
        )
    return label


def write_label(path: str | Path, label: Labelled, read: np.ndarray | None = None) -> None:
    """Write a .board file; cells not ``read`` (a mask), if given, are written as UNREAD, for a
    person to fill in by eye (read_label refuses the file until then)."""
    text = label.text()
    if read is not None:
        head, _, grid = text.partition("\n\n")
        rows = [
            "".join(ch if ok else UNREAD for ch, ok in zip(line, row))
            for line, row in zip(grid.splitlines(), read)
        ]
        text = head + "\n\n" + "\n".join(rows) + "\n"
    Path(path).write_text(text)
