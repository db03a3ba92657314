"""Screenshots as users save them: in colour or grey, as PNG or JPEG, at the size of the screen or
scaled in an editor, with one game or several on it.

A saved screenshot is read first as the screen would be (exact tiles, bot/vision/reading.py). In
grey, the packs are turned grey too: their values keep their shapes. Where that reads no board, or
only a board smaller than another lattice on the picture, it is read again forgiving: the packs
marked lossy, so that each cell is the tile it is clearly nearest (bot/vision/tiles.py,
LOSSY_MARGIN), as JPEG's compression and an editor's resampling move every pixel a little. A
reading never silently stands for another board: what else is on the picture is reported, and
``at`` picks a board by a point on it. Nor for a part of one: a board with something drawn over
it, or cut by the picture's edge, is refused (bot/vision/parts.py); cut to its cells, it is read
whole (_to_edge).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from bot.errors import CutBoard, NoBoardFound, NoPackReads, UnreadableCell, VisionError
from bot.vision.geometry import Geometry
from bot.vision.grid import MIN_CELL_PX, MIN_CELLS, WHOLE, Grid, find_grids, overlap, same_pitch
from bot.vision.pack import SkinPack, pack_named
from bot.vision.parts import (
    check_cut,
    check_flat_cells,
    check_hidden_part,
    covered_cells,
    on_picture,
    parted,
    runs_off,
    strict_scores,
)
from bot.vision.reading import BAND_PITCHES, Reading, read
from bot.vision.tiles import classifier_for

LOSSY_FORMATS = {b"\xff\xd8\xff": "JPEG", b"RIFF": "WebP"}  # the file's first bytes
# pixels each way a lattice brought back is tried off, on this many cells (_snug)
SNUG, SNUG_CELLS = (
    2,
    64,
)
SHEET = 5  # copies of a tile a side, shrunk together: the phases between pixels a shrunk picture's cells take (_shrunk)


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
    # boards elsewhere on the picture that a pack placed but were refused (JPEG hid their lattice), and why
    unread: tuple[tuple[Geometry, str], ...] = ()

    @property
    def biggest(self) -> bool:
        """Whether the board read is the biggest on the picture (else the biggest did not read)."""
        size = self.reading.geometry.rows * self.reading.geometry.cols
        return not any(g.rows * g.cols > size for g in (*self.others, *(g for g, _ in self.unread)))

    def note(self) -> str:
        """A line on how the picture was read, or ""."""
        words = []
        if not self.biggest:
            big, why = max(
                [(g, "") for g in self.others] + list(self.unread),
                key=lambda gw: gw[0].rows * gw[0].cols,
            )
            words.append(
                f"the biggest board on the picture, {big.cols}x{big.rows} at ({big.region()[0]},{big.region()[1]}), "
                f"does not read{f' ({why})' if why else ''}; this is another"
            )
        if self.forgiving:
            words.append(
                "read forgiving (the picture is not pixel-exact: JPEG or scaled): each cell by its clear nearest tile"
            )
        if self.others:
            listed = ", ".join(
                f"{g.cols}x{g.rows} at ({g.region()[0]},{g.region()[1]})" for g in self.others[:3]
            )
            words.append(
                f"{len(self.others)} other board{'s' if len(self.others) > 1 else ''} on the picture ({listed}): "
                "--at X,Y reads the one at that point"
            )
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


def read_saved(
    saved: Saved, packs: list[SkinPack], mines: int | None = None, at: tuple[int, int] | None = None
) -> SavedReading:
    """Read a saved screenshot (see the module's docstring); ``at``: a point on the board to read.
    A board with another part of it on the picture, in line with it past something drawn over the
    rest, is refused: read alone, its edge there is no edge (bot/vision/parts.py)."""
    found = _read_saved(saved, packs, mines, at)
    geo = found.reading.geometry
    part = next((other for other in found.others if parted(geo, other)), None)
    if part is not None:
        x, y, _, _ = geo.region()
        px, py, _, _ = part.region()
        raise NoBoardFound(
            f"the {geo.cols}x{geo.rows} board at ({x},{y}) and the {part.cols}x{part.rows} one at ({px},{py}) are "
            "one board with something over it; save it in full view"
        )
    return found


def _read_saved(
    saved: Saved, packs: list[SkinPack], mines: int | None, at: tuple[int, int] | None
) -> SavedReading:
    """The reading read_saved gives, before its parts are checked: exact, then forgiving, then scaled back."""
    image, offset = saved.image, (0, 0)
    big_enough = min(image.shape[:2]) >= MIN_CELLS * MIN_CELL_PX  # else read says it is too small
    grids = find_grids(image) if big_enough else []
    lattices = [g.geometry for g in grids]
    if at is not None:
        image, offset = _around(image, lattices, at)
    first: VisionError | None = None
    first_placed = False  # whether a pack placed the board the first error is of, or it names a cell (it says more)
    found: list[SavedReading] = []
    unread: list[tuple[Geometry, str]] = []  # boards a pack placed that were then refused, and why
    for forgiving in (False, True):
        placed = None
        try:
            as_packs = as_saved(packs, saved.gray, forgiving)
            reading = read(image, as_packs, mines=mines)
            placed = reading.geometry.moved(*offset)
            whole = _whole_lattice(placed, grids, saved.image.shape, to_edge=not forgiving)
            if forgiving and whole != _whole_lattice(
                placed, grids, saved.image.shape, to_edge=True
            ):
                x, y, _, _ = placed.region()
                raise CutBoard(
                    f"the {placed.skin} board at ({x},{y}) ends at the picture's edge, where its cells cannot be "
                    "told from a frame; save the screenshot with a margin round the board"
                )
            # JPEG spoilt a line or two, or the pack stopped short: read where the lattice is
            if whole is not None:
                with contextlib.suppress(VisionError):
                    reading = read(
                        image, as_packs, geometry=whole.moved(-offset[0], -offset[1]), mines=mines
                    )
            # None: not as the game drew it
            drawn = None if saved.lossy else strict_scores(image, reading, as_packs)
            covered = covered_cells(reading, drawn, as_packs, offset) if forgiving else None
            if covered is not None:  # what the exact reading said does not apply: this does
                first, first_placed = covered, True
                continue
            geo = reading.geometry.moved(*offset)
            # JPEG blurs a frame into a line of cells past a board's edge: a lattice a line bigger
            _check_lattice(
                geo, grids, saved.image.shape, spare=1 if saved.lossy else 0, to_edge=not forgiving
            )
            if drawn is not None or saved.lossy:  # in JPEG, a frame blurs into a line of cells
                check_hidden_part(
                    geo, grids, saved.image.shape, spare=0 if drawn is not None else 1
                )
            _check_cells(
                image, reading.geometry, reading.board.cells, pack_named(as_packs, geo.skin)
            )
        except VisionError as exc:
            if isinstance(exc, CutBoard) and not found:
                raise  # read by its own pack where it is: no other reading of it is more than a part
            # a board placed, or a cell of one named
            placing = placed is not None or isinstance(exc, UnreadableCell)
            if first is None or (placing and not first_placed):
                first, first_placed = exc, placing
            if (
                placed is not None
                and found
                and not any(overlap(placed, f.reading.geometry) for f in found)
            ):
                unread.append((placed, exc.what))
            continue
        # a lattice over the board is the board, seen otherwise
        others = tuple(g for g in lattices if not overlap(g, geo))
        found.append(SavedReading(replace(reading, geometry=geo), forgiving, others))
        if at is not None or (found[-1].biggest and not saved.lossy):
            return found[-1]
        # a bigger board is on the picture, or JPEG may have hidden one from the lattices: read forgiving
    if unread:  # a board there did not read (JPEG, then a band over it): where it is the bigger, the one read is another
        found = [replace(f, unread=tuple(unread)) for f in found]
    if not found and at is None:
        found += [r for r in (_scaled_back(saved, packs, grids, mines),) if r is not None]
    if found:
        return max(found, key=lambda f: f.reading.geometry.rows * f.reading.geometry.cols)
    assert first is not None
    raise _as_saved(first, lattices, packs, saved.image.shape)


def _as_saved(
    exc: VisionError, lattices: list[Geometry], packs: list[SkinPack], shape: tuple[int, ...]
) -> VisionError:
    """An error on a picture scaled from the game's size, said so, with what to do with a saved
    picture (no pointer to move there, nothing to uncover): a cell that matches no tile, at a size
    the game draws (HiDPI 2x too) something over it, else the scale. A lattice no pack reads is said to be a scaled picture
    or a game new to minebot, whichever it is (a pitch cannot tell: winemine's window shrunk to 0.6x
    was told to "uncover the whole game, or learn a look"), or one cut by the picture's edge, said so.
    Any other error as it is."""
    if not lattices:
        return exc
    if isinstance(exc, UnreadableCell):
        pack = next((p for p in packs if p.name == exc.skin), None)
        if pack is None:
            return exc
        lattice = next(
            (g for g in lattices if exc.at is not None and _holds(g, exc.at)),
            max(lattices, key=lambda g: g.rows * g.cols),
        )
        scale = lattice.pitch[0] / pack.pitch[0]
        cell = exc.what
        # a size the game draws: a pointer over it?
        if pack.scales is None or any(abs(scale / s - 1) < 0.02 for s in pack.scales):
            return UnreadableCell(
                f"{cell}; something covers it (the pointer?): save the screenshot again with the board in "
                "full view",
                exc.skin,
                detail=exc.detail,
                at=exc.at,
            )
        return UnreadableCell(
            f"{cell}: the picture is {scale:.2g}x the game's size; save the screenshot at the screen's size "
            "(not scaled)",
            exc.skin,
            detail=exc.detail,
            at=exc.at,
        )
    if not isinstance(exc, NoPackReads):
        return exc
    # the board it names, where it is
    head = exc.what.removesuffix(" in the screenshot")
    if runs_off(lattices[0], shape):  # the lattice the error names
        return CutBoard(
            f"{head}: it runs on past the picture's edge; save the whole board", detail=exc.detail
        )
    return NoPackReads(
        f"{head}: if the picture is scaled, save it at the screen's size; a game new to minebot is learnt by "
        "playing (`minebot play`)",
        detail=exc.detail,
        what=exc.what,
        tried=exc.tried,
    )


def _check_cells(image: np.ndarray, geo: Geometry, cells: np.ndarray, pack: SkinPack) -> None:
    """Refuse a reading whose cells show something flat over them, or whose board goes on past it."""
    check_flat_cells(image, geo, cells, pack)
    check_cut(image, geo, cells, pack)


def _holds(geo: Geometry, point: tuple[int, int]) -> bool:
    """Whether the point lies on the lattice's cells."""
    x, y, w, h = geo.region()
    return x <= point[0] < x + w and y <= point[1] < y + h


def _scaled_back(
    saved: Saved, packs: list[SkinPack], grids: list[Grid], mines: int | None
) -> SavedReading | None:
    """A picture scaled in an editor puts cells between pixels, each at its own phase, where a game
    or a browser draws them at whole pixels: scaled back to a pack's own size, the cells lie on whole
    pixels again. For the biggest lattice on the picture, each pack whose pitch it shows at another
    scale reads the picture scaled back by that scale (_brought_back), forgiving, with its tiles as
    shrinking and bringing back draws them where the picture was shrunk (_shrunk), on the lattice
    where they fit best (_snug); the first that reads it, placed on the picture as it is."""
    if not grids:
        return None
    lattice = max((g.geometry for g in grids), key=lambda g: g.rows * g.cols)
    forgiving = as_saved(
        [p for p in packs if not p.learnt and p.scales is not None], saved.gray, lossy=True
    )
    scaled: dict[
        float, tuple[np.ndarray, tuple[float, float]]
    ] = {}  # packs of one pitch (winemine's, minegauler's, winxp's) share a picture
    for pack in forgiving:
        scale = lattice.pitch[0] / pack.pitch[0]
        if abs(lattice.pitch[1] / pack.pitch[1] - scale) > 0.02 * scale or abs(scale - 1) < 0.02:
            continue
        if scale not in scaled:
            scaled[scale] = _brought_back(saved.image, lattice.origin, scale)
        back, (dx, dy) = scaled[scale]
        trip = _shrunk(pack, scale) if scale < 1 else pack
        try:
            reading = read(back, [trip], mines=mines)
            snug = _snug(back, reading.geometry, trip)
            if snug is not reading.geometry:
                reading = read(back, [trip], geometry=snug, mines=mines)
            geo = reading.geometry
            geo = replace(
                geo,
                origin=((geo.origin[0] - dx) * scale, (geo.origin[1] - dy) * scale),
                pitch=(geo.pitch[0] * scale, geo.pitch[1] * scale),
                cell_px=geo.cell_px * scale,
                scale=geo.scale * scale,
                xs=(),
                ys=(),
            )
            # scaled, a frame blurs into a line of cells
            _check_lattice(geo, grids, saved.image.shape, spare=1)
            # enlarged, a frame is a line of cells at most (shrunk, xdemineur's is three)
            if scale > 1:
                check_hidden_part(geo, grids, saved.image.shape, spare=1)
            _check_cells(saved.image, geo, reading.board.cells, pack)
        except VisionError:
            continue
        if overlap(geo, lattice):
            return SavedReading(
                replace(reading, geometry=geo),
                True,
                tuple(g.geometry for g in grids if not overlap(g.geometry, geo)),
            )
    return None


def _brought_back(
    image: np.ndarray, origin: tuple[float, float], scale: float
) -> tuple[np.ndarray, tuple[float, float]]:
    """The picture brought back from ``scale`` to a pack's own size, and where its pixel (0, 0) went.
    Shrunk (scale < 1), it is enlarged with the lattice's first cell (``origin``) moved onto a whole
    pixel: each cell then lies on whole pixels as the pack's tiles do (a picture shrunk to 0.6x, brought
    back with its cells a third of a pixel off, was read nowhere); enlarged, it is shrunk (averaging areas)."""
    if scale > 1:
        return cv2.resize(
            image, (0, 0), fx=1 / scale, fy=1 / scale, interpolation=cv2.INTER_AREA
        ), (0.0, 0.0)
    dx, dy = (round(o / scale) - o / scale for o in origin)
    size = (round(image.shape[1] / scale), round(image.shape[0] / scale))
    move = np.array([[1 / scale, 0, dx], [0, 1 / scale, dy]], dtype=np.float32)
    return cv2.warpAffine(
        image, move, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    ), (dx, dy)


def _shrunk(pack: SkinPack, scale: float) -> SkinPack:
    """The pack with its tiles as a picture shrunk to ``scale`` (< 1), then brought back, shows them:
    a sheet of SHEET x SHEET copies of each tile is shrunk as an editor shrinks a picture (averaging
    areas), which puts the copies at as many phases between pixels, and each copy brought back is a
    tile of that value. (Compared with the tiles as they are, a cell brought back from 0.6x lay up to 45
    levels off its own: shrinking blurs a digit's strokes into its ground.)"""
    n = pack.cell_px
    tiles = []
    for tile in pack.tiles:
        sheet = cv2.resize(
            np.tile(tile.image, (SHEET, SHEET, 1)),
            (0, 0),
            fx=scale,
            fy=scale,
            interpolation=cv2.INTER_AREA,
        )
        back, _ = _brought_back(sheet, (0.0, 0.0), scale)
        copies = (
            back[r * n : r * n + n, c * n : c * n + n] for r in range(SHEET) for c in range(SHEET)
        )
        tiles += [
            replace(tile, image=np.ascontiguousarray(copy))
            for copy in copies
            if copy.shape[:2] == (n, n)
        ]
    return replace(pack, tiles=tuple(tiles))


def _snug(image: np.ndarray, geo: Geometry, pack: SkinPack) -> Geometry:
    """The reading's lattice, or the one up to SNUG pixels beside it where the cells lie nearest
    their tiles (median RMS, strict: not by a lossy pack's margins). Brought back from a shrunk
    picture, a lattice two pixels off its cells can pass by margins alone: minegauler's fresh board
    at 0.6x was read as 64 empty cells (21 levels from the 0 tile), where two pixels away each cell
    lay 7 levels from the covered tile."""
    strict = classifier_for(replace(pack, lossy=False))
    step = max(1, geo.rows * geo.cols // SNUG_CELLS)
    sample = [(r, c) for i, (r, c) in enumerate(np.ndindex(geo.rows, geo.cols)) if i % step == 0]

    def misfit(dx: int, dy: int) -> float:
        moved = geo.moved(dx, dy)
        return float(np.median(strict.match_exact(image, [moved.box(r, c) for r, c in sample])[1]))

    fits = {
        (dx, dy): misfit(dx, dy) for dx in range(-SNUG, SNUG + 1) for dy in range(-SNUG, SNUG + 1)
    }
    dx, dy = min(fits, key=lambda k: fits[k])
    return geo if (dx, dy) == (0, 0) or fits[dx, dy] >= fits[0, 0] else geo.moved(dx, dy)


def _whole_lattice(
    geo: Geometry, grids: list[Grid], shape: tuple[int, ...], to_edge: bool = False
) -> Geometry | None:
    """A whole lattice of the reading's pitch over it, of another size (a part of it, or it and a
    line past its edge), as the reading's pack places its cells: where the picture's board is. Of
    a lattice, only its cells whole on the picture count (a window cut at a column's middle). With
    ``to_edge`` (a reading by exact tiles), the lattice runs on to the reading's edge cells where
    they end at the picture's edge (_to_edge); not so a forgiving reading's: a frame at the edge
    of a shrunk picture blurs into a line of cells (winemine's at 0.6x, read as a 31st column)."""
    for grid in grids:
        lattice = on_picture(grid.geometry, shape)
        if (
            lattice is None
            or grid.filled < WHOLE
            or not overlap(lattice, geo)
            or not same_pitch(lattice, geo)
        ):
            continue
        (lx, ly), (px, py) = lattice.origin, lattice.pitch
        col, cols, row, rows = (
            round((lx - geo.origin[0]) / px),
            lattice.cols,
            round((ly - geo.origin[1]) / py),
            lattice.rows,
        )
        if to_edge:
            (col, cols), (row, rows) = (
                _to_edge(geo, 0, col, cols, shape),
                _to_edge(geo, 1, row, rows, shape),
            )
        if (rows, cols) == (geo.rows, geo.cols):
            return None
        first = geo.origin[0] + col * geo.pitch[0], geo.origin[1] + row * geo.pitch[1]
        return replace(geo, rows=rows, cols=cols, origin=first, pitch=lattice.pitch, xs=(), ys=())
    return None


def _to_edge(
    geo: Geometry, axis: int, first: int, count: int, shape: tuple[int, ...]
) -> tuple[int, int]:
    """A lattice's first line and number of lines across ``axis`` (0: columns, 1: rows), in the
    reading's numbering, taken on to the reading's edge line where that line's cells end at the
    picture's edge: no line shows there to find. (A screenshot cut to winemine's cells gave a
    lattice without its first row and column, and the board was read without them, numbers that
    count mines in them and all.)"""
    lines, size = (geo.cols, shape[1]) if axis == 0 else (geo.rows, shape[0])
    # the gap between cells, and a pixel of rounding either way
    reach = geo.pitch[axis] - geo.cell_px + 2
    start = geo.origin[axis]
    if first == 1 and start <= reach:
        first, count = 0, count + 1
    if (
        first + count == lines - 1
        and start + (lines - 1) * geo.pitch[axis] + geo.cell_px >= size - reach
    ):
        count += 1
    return first, count


def _check_lattice(
    geo: Geometry, grids: list[Grid], shape: tuple[int, ...], spare: int = 0, to_edge: bool = False
) -> None:
    """Refuse a reading of another size than a whole lattice of its pitch over it. In grey a pack
    may find its covered cell's shade in another look (gnome-mines' in react-minesweeper's, with a
    column past it); scaled, a pack its covered cells alone, at a scale it lists but the picture
    does not have (xdemineur at 1.7x, 8 of its 12 columns); in JPEG a pack may stop short of a
    line the compression spoilt (classic98 at quality 85: 4 of 9 rows, "won"). ``spare``: lines
    the lattice may have past the reading's edges, at most, each way; ``to_edge``: _whole_lattice's."""
    lattice = _whole_lattice(geo, grids, shape, to_edge)
    if lattice is not None and not all(
        0 <= extra <= spare for extra in (lattice.rows - geo.rows, lattice.cols - geo.cols)
    ):
        x, y, _, _ = lattice.region()
        raise NoBoardFound(
            f"the {geo.skin} pack reads {geo.cols}x{geo.rows} cells where the lattice shows a "
            f"{lattice.cols}x{lattice.rows} board at ({x},{y}); save the screenshot at the screen's size",
            detail=f"read {geo.cols}x{geo.rows} at {geo.origin}, {geo.pitch[0]:g}x{geo.pitch[1]:g} px apart",
        )


def _around(
    image: np.ndarray, grids: list[Geometry], at: tuple[int, int]
) -> tuple[np.ndarray, tuple[int, int]]:
    """The part of ``image`` around the board-like lattice at point ``at``, and its top-left corner."""
    x, y = at
    for geo in grids:
        gx, gy, gw, gh = geo.region()
        if gx <= x < gx + gw and gy <= y < gy + gh:
            reach = round(BAND_PITCHES * max(geo.pitch)) + 1
            left, top = max(gx - reach, 0), max(gy - reach, 0)
            return image[top : gy + gh + reach, left : gx + gw + reach], (left, top)
    raise NoBoardFound(
        f"no board-like lattice at ({x},{y}) on the picture; give a point on a board's cells"
    )


def _gray_pack(pack: SkinPack) -> SkinPack:
    return replace(
        pack,
        tiles=tuple(replace(t, image=_gray(t.image)) for t in pack.tiles),
        faces={state: tuple(_gray(f) for f in faces) for state, faces in pack.faces.items()},
        digits={k: _gray(d) for k, d in pack.digits.items()},
        boards={k: _gray(b) for k, b in pack.boards.items()},
        counter_text=None
        if pack.counter_text is None
        else (_gray_colour(pack.counter_text[0]), _gray_colour(pack.counter_text[1])),
        counter_leds=None if pack.counter_leds is None else _gray_colour(pack.counter_leds),
    )


def _gray(picture: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def _gray_colour(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    level = int(_gray(np.array([[colour]], dtype=np.uint8))[0, 0, 0])
    return level, level, level
