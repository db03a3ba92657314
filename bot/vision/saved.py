"""Screenshots as users save them: in colour or grey, as PNG or JPEG, at the size of the screen or
scaled in an editor, with one game or several on it.

A saved screenshot is read first as the screen would be (exact tiles, bot/vision/reading.py). In
grey, the packs are turned grey too: their values keep their shapes. Where that reads no board, or
only a board smaller than another lattice on the picture, it is read again forgiving: the packs
marked lossy, so that each cell is the tile it is clearly nearest (bot/vision/tiles.py,
LOSSY_MARGIN), as JPEG's compression and an editor's resampling move every pixel a little. A
reading never silently stands for another board: what else is on the picture is reported, and
``at`` picks a board by a point on it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from bot.errors import NoBoardFound, VisionError
from bot.vision.geometry import Geometry
from bot.vision.grid import MIN_CELL_PX, MIN_CELLS, WHOLE, Grid, find_grids, overlap, same_pitch
from bot.vision.pack import SkinPack
from bot.vision.reading import BAND_PITCHES, Reading, read

LOSSY_FORMATS = {b"\xff\xd8\xff": "JPEG", b"RIFF": "WebP"}  # the file's first bytes


@dataclass(frozen=True, eq=False)
class Saved:
    """A screenshot from a file: its pixels (BGR), and how it was saved."""

    image: np.ndarray
    format: str  # "PNG", "JPEG", ...: from the file's first bytes
    gray: bool  # no colour in it

    @property
    def lossy(self) -> bool:
        return self.format in LOSSY_FORMATS.values()


@dataclass(frozen=True, eq=False)
class SavedReading:
    """A saved screenshot read: the reading, whether it needed forgiving, and the other boards."""

    reading: Reading
    forgiving: bool  # read by margins (the picture is not pixel-exact: JPEG, scaled, ...)
    others: tuple[Geometry, ...]  # other board-like lattices on the picture, biggest first

    @property
    def biggest(self) -> bool:
        """Whether the board read is the biggest on the picture (else the biggest did not read)."""
        size = self.reading.geometry.rows * self.reading.geometry.cols
        return not any(g.rows * g.cols > size for g in self.others)

    def note(self) -> str:
        """A line on how the picture was read, or ""."""
        words = []
        if not self.biggest:
            big = max(self.others, key=lambda g: g.rows * g.cols)
            words.append(f"the biggest board on the picture, {big.cols}x{big.rows} at ({big.region()[0]},{big.region()[1]}), "
                         "does not read; this is another")
        if self.forgiving:
            words.append("read forgiving (the picture is not pixel-exact: JPEG or scaled): each cell by its clear nearest tile")
        if self.others:
            listed = ", ".join(f"{g.cols}x{g.rows} at ({g.region()[0]},{g.region()[1]})" for g in self.others[:3])
            words.append(f"{len(self.others)} other board{'s' if len(self.others) > 1 else ''} on the picture ({listed}): "
                         "--at X,Y reads the one at that point")
        return "; ".join(words)


def describe(path: Path, image: np.ndarray) -> Saved:
    """How the picture in ``path`` (already loaded as ``image``) was saved."""
    with open(path, "rb") as file:
        head = file.read(4)
    fmt = next((name for magic, name in LOSSY_FORMATS.items() if head.startswith(magic)), "PNG")
    gray = bool((image[..., 0] == image[..., 1]).all() and (image[..., 1] == image[..., 2]).all())
    return Saved(image, fmt, gray)


def as_saved(packs: list[SkinPack], gray: bool, lossy: bool) -> list[SkinPack]:
    """The packs as they would show on a picture saved that way."""
    if gray:
        packs = [_gray_pack(p) for p in packs]
    return [replace(p, lossy=True) if lossy and not p.learnt else p for p in packs]


def read_saved(saved: Saved, packs: list[SkinPack], mines: int | None = None, at: tuple[int, int] | None = None) -> SavedReading:
    """Read a saved screenshot (see the module's docstring); ``at``: a point on the board to read."""
    image, offset = saved.image, (0, 0)
    big_enough = min(image.shape[:2]) >= MIN_CELLS * MIN_CELL_PX  # else read says it is too small
    grids = find_grids(image) if big_enough else []
    lattices = [g.geometry for g in grids]
    if at is not None:
        image, offset = _around(image, lattices, at)
    first: VisionError | None = None
    found: list[SavedReading] = []
    for forgiving in (False, True):
        try:
            reading = read(image, as_saved(packs, saved.gray, forgiving), mines=mines)
            geo = reading.geometry.moved(*offset)
            if not saved.lossy:  # a lossless picture's lattice is where its cells are
                _check_lattice(geo, grids)
        except VisionError as exc:
            first = first or exc
            continue
        others = tuple(g for g in lattices if not overlap(g, geo))  # a lattice over the board is the board, seen otherwise
        found.append(SavedReading(replace(reading, geometry=geo), forgiving, others))
        if at is not None or found[-1].biggest:
            return found[-1]
        # a bigger board is on the picture: read forgiving, it may be that one
    if found:
        return max(found, key=lambda f: f.reading.geometry.rows * f.reading.geometry.cols)
    assert first is not None
    raise first


def _check_lattice(geo: Geometry, grids: list[Grid]) -> None:
    """Refuse a reading of another size than a whole lattice of its pitch over it: a lossless
    picture's lattice is where its cells are. In grey a pack may find its covered cell's shade in
    another look (gnome-mines' in react-minesweeper's, with a column past it); scaled, a pack its
    covered cells alone, at a scale it lists but the picture does not have (xdemineur at 1.7x, 8 of
    its 12 columns)."""
    for grid in grids:
        lattice = grid.geometry
        if grid.filled < WHOLE or not overlap(lattice, geo) or not same_pitch(lattice, geo):
            continue
        x, y, _, _ = lattice.region()
        detail = f"read {geo.cols}x{geo.rows} at {geo.origin}, {geo.pitch[0]:g}x{geo.pitch[1]:g} px apart"
        if (lattice.rows, lattice.cols) != (geo.rows, geo.cols):  # a part of it, or it and a line past its edge
            raise NoBoardFound(f"the {geo.skin} pack reads {geo.cols}x{geo.rows} cells where the lattice shows a "
                               f"{lattice.cols}x{lattice.rows} board at ({x},{y}); save the screenshot at the screen's size",
                               detail=detail)


def _around(image: np.ndarray, grids: list[Geometry], at: tuple[int, int]) -> tuple[np.ndarray, tuple[int, int]]:
    """The part of ``image`` around the board-like lattice at point ``at``, and its top-left corner."""
    x, y = at
    for geo in grids:
        gx, gy, gw, gh = geo.region()
        if gx <= x < gx + gw and gy <= y < gy + gh:
            reach = round(BAND_PITCHES * max(geo.pitch)) + 1
            left, top = max(gx - reach, 0), max(gy - reach, 0)
            return image[top : gy + gh + reach, left : gx + gw + reach], (left, top)
    raise NoBoardFound(f"no board-like lattice at ({x},{y}) on the picture; give a point on a board's cells")


def _gray_pack(pack: SkinPack) -> SkinPack:
    return replace(
        pack,
        tiles=tuple(replace(t, image=_gray(t.image)) for t in pack.tiles),
        faces={state: tuple(_gray(f) for f in faces) for state, faces in pack.faces.items()},
        digits={k: _gray(d) for k, d in pack.digits.items()},
        boards={k: _gray(b) for k, b in pack.boards.items()},
        counter_text=None if pack.counter_text is None else (_gray_colour(pack.counter_text[0]), _gray_colour(pack.counter_text[1])),
        counter_leds=None if pack.counter_leds is None else _gray_colour(pack.counter_leds),
    )


def _gray(picture: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def _gray_colour(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    level = int(_gray(np.array([[colour]], dtype=np.uint8))[0, 0, 0])
    return level, level, level
