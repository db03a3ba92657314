"""A saved picture's board that something else covers in part, or that the picture shows only in
part: such a reading is refused, never reported as the board (bot/vision/saved.py). A picture as
the game drew it (at a pack's size, its median cell exactly its tile) shows a cell that matches no
tile only where something lies over it; two lattices in line are one board parted by what lies
between them; a lattice over a reading, in its lines, shows where the rest of the board is; what
shows of a line of cells past the reading, cut by the picture's edge, is a part of a tile's picture.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from bot.errors import CutBoard, NoBoardFound, UnreadableCell
from bot.vision.geometry import Geometry
from bot.vision.grid import Grid, same_board
from bot.vision.pack import SkinPack, pack_named
from bot.vision.reading import Reading
from bot.vision.tiles import LINE_SHARE, SHIFTS, classifier_for, read_cells

HALF_SHOWN = 0.5  # a lattice showing this share of its cells is a board, some of it maybe covered (check_hidden_part)
BAND_CELLS = 10  # lines of cells something over a board may hide between two parts of it (parted)
PARTED_PITCH = 0.03  # two parts of a board measure its pitch within this share of it (parted)
CUT_SHOWN = 0.25  # a line of cells cut by the picture's edge is looked for where this share of a cell shows (check_cut)
CUT_ALONG = 4.0  # colour levels: a line of cells cut by the picture's edge varies along it by this much at least (_cut_line)
EXACT_MEDIAN = 2.0  # RMS levels: a picture whose median cell lies this near its tile is as the game drew it (strict_scores)


def covered_cells(reading: Reading, scores: np.ndarray | None, packs: list[SkinPack], offset: tuple[int, int]) -> UnreadableCell | None:
    """The refusal of a forgiving reading of a picture as the game drew it (at the pack's size, most
    cells exactly their tiles: not JPEG, not scaled) where some cells match no tile: something covers
    them (a dialog, a window), and they are not to be read as the tile they are least unlike (a grey
    band over gnome-mines' board was two rows of covered cells, and the solver called cells "safe"
    that hold mines). None where it stands. (A browser's fractional zoom draws cells at two phases,
    which a reading without its lines measured one by one does not meet: not asked there.) ``scores``:
    strict_scores's; ``offset``: where the image read lies on the picture."""
    geo = reading.geometry
    if scores is None or geo.scale != 1:
        return None
    foreign = scores >= classifier_for(replace(pack_named(packs, geo.skin), lossy=False)).limit(geo.scale)
    if not foreign.any():
        return None
    row, col = (int(v) for v in np.argwhere(foreign)[0])
    x, y, w, h = geo.moved(*offset).box(row, col)
    more = int(foreign.sum()) - 1
    return UnreadableCell(f"cell ({row},{col}) at ({x + w // 2},{y + h // 2}){f' and {more} more' if more else ''} match no "
                          f"{geo.skin} tile: something covers the board; save it in full view", geo.skin,
                          at=(x + w // 2, y + h // 2), detail=f"the median cell lies {float(np.median(scores)):.1f} levels from its tile")


def strict_scores(image: np.ndarray, reading: Reading, packs: list[SkinPack]) -> np.ndarray | None:
    """Each cell's distance from its tile, read strictly (not by a lossy pack's margins), where the
    median cell lies within EXACT_MEDIAN of its own: a picture as the game drew it; else None."""
    pack = replace(pack_named(packs, reading.geometry.skin), lossy=False)
    _, scores = read_cells(image, reading.geometry, pack)
    return scores if float(np.median(scores)) <= EXACT_MEDIAN else None


def parted(geo: Geometry, other: Geometry) -> bool:
    """Whether ``other`` is more of the board ``geo`` holds: a lattice of its pitch whose cells lie in
    its lines, across the same columns (or rows), within BAND_CELLS lines of it. (A grey band over
    the middle rows of a board left its top rows, read as a board, and its bottom rows, said to be
    another.) Their pitches may differ by PARTED_PITCH: the few lines of each part measure it
    roughly (gnome-mines at 1650x850, 47.36 px apart: 48 above a band, 47 below)."""
    if any(abs(geo.pitch[axis] - other.pitch[axis]) > PARTED_PITCH * geo.pitch[axis] for axis in (0, 1)):
        return False
    steps = [(other.origin[axis] - geo.origin[axis]) * 2 / (geo.pitch[axis] + other.pitch[axis]) for axis in (0, 1)]
    if any(abs(step - round(step)) > 0.2 for step in steps):
        return False
    (across, down), (gx, gy, gw, gh), (ox, oy, ow, oh) = (round(step) for step in steps), geo.region(), other.region()
    if down == 0 and other.rows == geo.rows:  # beside it
        return max(ox - gx - gw, gx - ox - ow) <= BAND_CELLS * geo.pitch[0]
    if across == 0 and other.cols == geo.cols:  # above or below it
        return max(oy - gy - gh, gy - oy - oh) <= BAND_CELLS * geo.pitch[1]
    return False


def check_hidden_part(geo: Geometry, grids: list[Grid], shape: tuple[int, ...], spare: int = 0) -> None:
    """Refuse a reading of part of a board the rest of which something covers: a lattice over it with
    its cells in the reading's lines, at least HALF_SHOWN of them showing, a line or more past it
    (asked of a picture as the game drew it, and of one enlarged: shrunk, a frame blurs into lines
    of cells). A grey box
    over the bottom-right corner of classic98's board left the columns it does not touch, read as a
    5x9 board; the lattice showed all 9x9, 80% of them. ``spare``: lines the lattice may have past
    the reading's edges (a picture scaled back: its frame a line of cells)."""
    for grid in grids:
        lattice = on_picture(grid.geometry, shape)
        if lattice is None or grid.filled < HALF_SHOWN or not same_board(lattice, geo):
            continue
        if max(lattice.rows - geo.rows, lattice.cols - geo.cols) > spare:
            x, y, _, _ = lattice.region()
            raise NoBoardFound(f"the {geo.skin} pack reads {geo.cols}x{geo.rows} cells of the {lattice.cols}x{lattice.rows} board at "
                               f"({x},{y}): something covers the rest; save it in full view")


def on_picture(geo: Geometry, shape: tuple[int, ...]) -> Geometry | None:
    """The part of a lattice whose cells lie whole on a picture of that shape (None: no cell does)."""
    (x0, y0), (px, py), n = geo.origin, geo.pitch, geo.cell_px
    cols = [c for c in range(geo.cols) if x0 + c * px >= -0.5 and x0 + c * px + n <= shape[1] + 0.5]
    rows = [r for r in range(geo.rows) if y0 + r * py >= -0.5 and y0 + r * py + n <= shape[0] + 0.5]
    if not cols or not rows:
        return None
    return geo.part(rows[0], cols[0], len(rows), len(cols))


def check_cut(image: np.ndarray, geo: Geometry, pack: SkinPack) -> None:
    """Refuse a reading of a board that runs on past the picture's edge: on a side where less than
    a cell is left (CUT_SHOWN of one at least), what shows of the next line is, cell by cell, the
    same part of a tile (a pixel either way: a fractional pitch; blurred, at another scale than the
    pack's). A screenshot cut through winemine's first row was read without it, its numbers
    counting mines in that row all the same."""
    n = round(geo.cell_px)
    blur = geo.scale != 1 or pack.scales is None
    sizing = cv2.INTER_AREA if n < pack.cell_px else cv2.INTER_LINEAR
    tiles = np.stack([_soft(cv2.resize(t.image, (n, n), interpolation=sizing), blur) for t in pack.tiles])
    limit = classifier_for(replace(pack, lossy=False)).limit(geo.scale)
    sides = {"top": geo.part(-1, 0, 1, geo.cols), "bottom": geo.part(geo.rows, 0, 1, geo.cols),
             "left": geo.part(0, -1, geo.rows, 1), "right": geo.part(0, geo.cols, geo.rows, 1)}
    cut = [side for side, line in sides.items() if _cut_line(image, line.boxes, tiles, blur, limit)]
    if cut:
        raise CutBoard(f"the {geo.skin} board runs on past the picture's {' and '.join(cut)} edge{'s' if len(cut) > 1 else ''}: "
                       "its cells there are cut; save the whole board")


def _cut_line(image: np.ndarray, boxes: list[tuple[int, int, int, int]], tiles: np.ndarray, blur: bool, limit: float) -> bool:
    """Whether a line of cells is cut by the picture's edge, LINE_SHARE of what shows of them the
    same part of a tile (``tiles``: the pack's at the cells' size, float, blurred where ``blur``)."""
    height, width = image.shape[:2]
    matched = []
    (left, top, w, h), (right, bottom, _, _) = boxes[0], boxes[-1]
    strip = image[max(top, 0) : min(bottom + h, height), max(left, 0) : min(right + w, width)].astype(np.float32)
    along = 1 if bottom == top else 0  # a row of cells (top, bottom) runs along x
    if not strip.size or float(strip.std(axis=along).mean()) < CUT_ALONG:
        return False  # a frame or a ground: the same all along (cells show where each ends)
    for x, y, w, h in boxes:
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, width), min(y + h, height)
        if (x1 - x0, y1 - y0) == (w, h) or min(x1 - x0, y1 - y0) < CUT_SHOWN * w:
            return False  # whole on the picture (read, or no cell), or too little of it to tell
        best = np.inf
        for dx, dy in ((dx, dy) for dx in SHIFTS for dy in SHIFTS):
            a0, b0, a1, b1 = max(x0 + dx, 0), max(y0 + dy, 0), min(x1 + dx, width), min(y1 + dy, height)
            shown = _soft(image[b0:b1, a0:a1], blur)
            part = tiles[:, b0 - y - dy : b1 - y - dy, a0 - x - dx : a1 - x - dx]
            best = min(best, float(np.sqrt(((part - shown) ** 2).mean(axis=(1, 2, 3))).min()))
        matched.append(best < limit)
    return bool(matched) and float(np.mean(matched)) >= LINE_SHARE


def runs_off(lattice: Geometry, shape: tuple[int, ...]) -> bool:
    """Whether a lattice's cells run on past the picture's edge by CUT_SHOWN of a cell or more."""
    x, y, w, h = lattice.region(-round(CUT_SHOWN * lattice.cell_px))
    return x < 0 or y < 0 or x + w > shape[1] or y + h > shape[0]


def _soft(picture: np.ndarray, blur: bool) -> np.ndarray:
    return (cv2.blur(picture, (3, 3)) if blur else picture).astype(np.float32)
