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
from bot.vision.grid import Grid, overlap
from bot.vision.pack import SkinPack, pack_named
from bot.vision.reading import Reading
from bot.vision.tiles import FLAT_STD, LOSSY_GAP, classifier_for, read_cells

HALF_SHOWN = 0.5  # a lattice showing this share of its cells is a board, some of it maybe covered (check_hidden_part)
BAND_CELLS = 10  # lines of cells something over a board may hide between two parts of it (parted)
PARTED_PITCH = 0.03  # two parts of a board measure its pitch within this share of it (parted)
# a whole line of cells past a reading, something over the rest, shows this share of cells and so many
# at least (_line_shows); past the edges of boards read right, none showed more than 1 of 9
LINE_SHOWN, LINE_CELLS = 0.25, 3
CUT_SHOWN = 0.25  # a line of cells cut by the picture's edge is looked for where this share of a cell shows (check_cut)
OWN_CELLS = 4  # cells of each look on the board met as the picture draws them (check_cut)
CUT_LIMIT = 16.0  # RMS levels: what shows of a cell past a reading lies this near the same part of a cell or tile (_line_shows)
CUT_SHARE = 0.75  # of a line of cells past a reading, this share shows cells (_line_shows: one look of 8 may be on no other cell)
CUT_PX = 16  # pixels across a cell's picture measured (_line_shows: gnome-mines' at 2.6x is 110; every 6th)
# pixels a cell past a reading may lie off the line its neighbours give (_past), as far as 2 each way
CUT_SHIFTS = ((0, 0), *((dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if dx or dy))
# RMS levels: a cell this far from every tile where the line lies is no cell at any shift
CUT_FAR = 3 * CUT_LIMIT
CUT_ALONG = 4.0  # colour levels: a line of cells past a reading varies along it by this much at least (_line_shows)
EXACT_MEDIAN = 2.0  # RMS levels: a picture whose median cell lies this near its tile is as the game drew it (strict_scores)


def covered_cells(
    reading: Reading, scores: np.ndarray | None, packs: list[SkinPack], offset: tuple[int, int]
) -> UnreadableCell | None:
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
    foreign = scores >= classifier_for(replace(pack_named(packs, geo.skin), lossy=False)).limit(
        geo.scale
    )
    if not foreign.any():
        return None
    row, col = (int(v) for v in np.argwhere(foreign)[0])
    x, y, w, h = geo.moved(*offset).box(row, col)
    more = int(foreign.sum()) - 1
    what = (
        f"cell ({row},{col}) at ({x + w // 2},{y + h // 2}){f' and {more} more' if more else ''} match no "
        f"{geo.skin} tile"
    )
    return UnreadableCell(
        f"{what}: something covers the board; save it in full view",
        geo.skin,
        what=what,
        at=(x + w // 2, y + h // 2),
        detail=f"the median cell lies {float(np.median(scores)):.1f} levels from its tile",
    )


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
    if any(
        abs(geo.pitch[axis] - other.pitch[axis]) > PARTED_PITCH * geo.pitch[axis] for axis in (0, 1)
    ):
        return False
    steps = [
        (other.origin[axis] - geo.origin[axis]) * 2 / (geo.pitch[axis] + other.pitch[axis])
        for axis in (0, 1)
    ]
    if any(abs(step - round(step)) > 0.2 for step in steps):
        return False
    (across, down), (gx, gy, gw, gh), (ox, oy, ow, oh) = (
        (round(step) for step in steps),
        geo.region(),
        other.region(),
    )
    if down == 0 and other.rows == geo.rows:  # beside it
        return max(ox - gx - gw, gx - ox - ow) <= BAND_CELLS * geo.pitch[0]
    if across == 0 and other.cols == geo.cols:  # above or below it
        return max(oy - gy - gh, gy - oy - oh) <= BAND_CELLS * geo.pitch[1]
    return False


def check_hidden_part(
    geo: Geometry, grids: list[Grid], shape: tuple[int, ...], spare: int = 0
) -> None:
    """Refuse a reading of part of a board the rest of which something covers: a lattice over it with
    its cells in the reading's lines, at least HALF_SHOWN of them showing, a line or more past it
    (asked of a picture as the game drew it, and of one enlarged: shrunk, a frame blurs into lines
    of cells). A grey box
    over the bottom-right corner of classic98's board left the columns it does not touch, read as a
    5x9 board; the lattice showed all 9x9, 80% of them. ``spare``: lines the lattice may have past
    the reading's edges (a picture scaled back: its frame a line of cells)."""
    for grid in grids:
        lattice = on_picture(grid.geometry, shape)
        if lattice is None or grid.filled < HALF_SHOWN or not on_lines(geo, lattice):
            continue
        if max(lattice.rows - geo.rows, lattice.cols - geo.cols) > spare:
            x, y, _, _ = lattice.region()
            raise NoBoardFound(
                f"the {geo.skin} pack reads {geo.cols}x{geo.rows} cells of the {lattice.cols}x{lattice.rows} board at "
                f"({x},{y}): something covers the rest; save it in full view"
            )


def on_lines(geo: Geometry, lattice: Geometry) -> bool:
    """Whether each of a reading's cells lies where one of an overlapping lattice's does, within a
    fifth of its pitch: one board's. Not by the pitches: a reading of a few lines measures its pitch
    roughly (gnome-mines' 8x8 board, 46 px apart, a grey box over its corner, in JPEG: 5 rows read
    47.14 px apart, 2.5% off the lattice's; the reading was let through)."""
    if not overlap(geo, lattice):
        return False
    lines = (
        [geo.box(0, c)[0] for c in range(geo.cols)],
        [geo.box(r, 0)[1] for r in range(geo.rows)],
    )
    for axis, at in enumerate(lines):
        steps = (np.array(at) - lattice.origin[axis]) / lattice.pitch[axis]
        if float(np.abs(steps - steps.round()).max()) > 0.2:
            return False
    return True


def on_picture(geo: Geometry, shape: tuple[int, ...]) -> Geometry | None:
    """The part of a lattice whose cells lie whole on a picture of that shape (None: no cell does)."""
    (x0, y0), (px, py), n = geo.origin, geo.pitch, geo.cell_px
    cols = [c for c in range(geo.cols) if x0 + c * px >= -0.5 and x0 + c * px + n <= shape[1] + 0.5]
    rows = [r for r in range(geo.rows) if y0 + r * py >= -0.5 and y0 + r * py + n <= shape[0] + 0.5]
    if not cols or not rows:
        return None
    return geo.part(rows[0], cols[0], len(rows), len(cols))


def check_flat_cells(image: np.ndarray, geo: Geometry, cells: np.ndarray, pack: SkinPack) -> None:
    """Refuse a reading where a cell read as a look with detail (a number, a flag, a mine: every tile
    of its code varies by FLAT_STD or more) shows one colour on the picture (less than CUT_ALONG
    either way), or one read as a flat look (covered, empty) shows more detail in its middle than
    any tile of its code there, by FLAT_STD: something lies over it. A tolerant pack's tile, its
    detail smoothed out at the size it is matched at, lies near a flat patch of its mean colour: a
    grey box over gnome-mines' board was read as mines, 23.2 levels from the mine tile (its pack
    takes 24), on a picture whose other cells lay 0.1 from theirs; and a patch of dark text on
    white, smoothed so, is grey: a chat window over its cells, in JPEG, was read as covered cells."""
    spreads = [(t.code, float(t.image.std(axis=(0, 1)).max()) >= FLAT_STD) for t in pack.tiles]
    # every tile of it
    detailed = {code for code, _ in spreads} - {code for code, spread in spreads if not spread}
    flat = {code for code, _ in spreads} - {code for code, spread in spreads if spread}
    height, width = image.shape[:2]
    middles: dict[
        tuple[int, int, int], float
    ] = {}  # (code, w, h): the most detail a tile of the code shows in its middle
    for (x, y, w, h), code in zip(geo.boxes, cells.ravel(), strict=True):
        if x < 0 or y < 0 or x + w > width or y + h > height:
            continue
        crop = image[y : y + h, x : x + w]
        if int(code) in detailed and float(crop.std(axis=(0, 1)).max()) < CUT_ALONG:
            raise NoBoardFound(
                f"the cell at ({x + w // 2},{y + h // 2}) shows one colour, not the {geo.skin} look it was "
                "read as: something covers the board; save it in full view"
            )
        if int(code) in flat:
            if (int(code), w, h) not in middles:
                middles[int(code), w, h] = max(
                    _middle_detail(cv2.resize(t.image, (w, h), interpolation=cv2.INTER_AREA))
                    for t in pack.tiles
                    if t.code == code
                )
            if _middle_detail(crop) > middles[int(code), w, h] + FLAT_STD:
                raise NoBoardFound(
                    f"the cell at ({x + w // 2},{y + h // 2}) shows more than the {geo.skin} look it was read "
                    "as: something covers the board (the pointer? a window?); save it in full view"
                )


def _middle_detail(cell: np.ndarray) -> float:
    """How much a cell's middle (three fifths of it each way) varies, smoothed a little (JPEG's ringing)."""
    h, w = cell.shape[:2]
    return float(
        cv2.blur(cell[h // 5 : h - h // 5, w // 5 : w - w // 5], (3, 3)).std(axis=(0, 1)).max()
    )


def check_cut(image: np.ndarray, geo: Geometry, cells: np.ndarray, pack: SkinPack) -> None:
    """Refuse a reading of part of a board: past a side, a line of cells (_past) shows, cell by cell,
    the same part of a cell as the picture draws the board's own (``cells``: their codes, a few of
    each look) or of the pack's tile (_line_shows). Cut by the picture's edge there (CUT_SHOWN of
    it at least), the board runs on past it: a screenshot cut through winemine's first row was read
    without it, its numbers counting mines in that row all the same. Whole, the reading stopped
    short of it: a web game's board at 1.25x cut through its top row, read forgiving, was read
    without the whole row below that too. Up to BAND_CELLS lines on: something lies over the board
    between (in JPEG the lattice finder sees less of a board, and the part past a grey band was read
    as the board). The board's own cells meet a look the pack only resembles: a web game's bevelled
    cells, read as winxp's at 3.3x, cut through, were read as the rest."""
    n = round(geo.cell_px)
    blur = geo.scale != 1 or pack.scales is None
    sizing = cv2.INTER_AREA if n < pack.cell_px else cv2.INTER_LINEAR
    tiles = [_soft(cv2.resize(t.image, (n, n), interpolation=sizing), blur) for t in pack.tiles]
    tiles += [
        _soft(image[y : y + n, x : x + n], blur) for x, y, _, _ in _own(geo, cells, image.shape)
    ]
    rows, cols = range(geo.rows), range(geo.cols)
    edges = {
        "top": ([(0, c) for c in cols], (1, 0)),
        "bottom": ([(geo.rows - 1, c) for c in cols], (-1, 0)),
        "left": ([(r, 0) for r in rows], (0, 1)),
        "right": ([(r, geo.cols - 1) for r in rows], (0, -1)),
    }
    stacked, shows = np.stack(tiles), {}
    for side, (edge, inward) in edges.items():
        # past something over the board too: whole lines there
        for lines in range(1, BAND_CELLS + 1):
            shows[side] = _line_shows(image, _past(geo, edge, inward, lines), stacked, blur)
            if shows[side] != "none":
                shows[side] = (
                    shows[side] if lines == 1 else "beyond" if shows[side] == "whole" else None
                )
                break
    cut, more, beyond = (
        [side for side, kind in shows.items() if kind == wanted]
        for wanted in ("cut", "whole", "beyond")
    )
    read = (
        f"the {geo.skin} pack reads {geo.cols}x{geo.rows} cells, and the board's cells go on past"
    )
    if cut:
        raise CutBoard(
            f"the {geo.skin} board runs on past the picture's {_edges(cut)}: its cells there are cut; save the whole board"
        )
    if beyond:
        raise NoBoardFound(
            f"{read} something over the board at their {_edges(beyond)}; save it in full view"
        )
    if more:
        raise NoBoardFound(
            f"{read} their {_edges(more)}; save the whole board in full view, at the screen's size"
        )


def _edges(sides: list[str]) -> str:
    return f"{' and '.join(sides)} edge{'s' if len(sides) > 1 else ''}"


def _past(
    geo: Geometry, edge: list[tuple[int, int]], inward: tuple[int, int], lines: int
) -> list[tuple[int, int, int, int]]:
    """The boxes of the line of cells ``lines`` past an edge line: the first as far from its edge
    cell as the cell in from it is (a game that lays cells out in whole pixels at a fractional pitch
    spaces them 34 and 35 px apart: the pitch put gnome-mines' line past its top 2 px off), each one
    further a pitch on (steps of the last one alone put a web game's 10th row at 1.5x, 25.54 px
    apart, 3 px off: a band over its rows 6 to 9 went unseen)."""
    past = []
    for r, c in edge:
        x, y, w, h = geo.box(r, c)
        ix, iy, _, _ = geo.box(
            min(max(r + inward[0], 0), geo.rows - 1), min(max(c + inward[1], 0), geo.cols - 1)
        )
        on = [
            (lines - 1) * float(np.sign(step)) * pitch
            for step, pitch in zip((x - ix, y - iy), geo.pitch, strict=True)
        ]
        past.append((x + (x - ix) + round(on[0]), y + (y - iy) + round(on[1]), w, h))
    return past


def _own(
    geo: Geometry, cells: np.ndarray, shape: tuple[int, ...]
) -> list[tuple[int, int, int, int]]:
    """Boxes of up to OWN_CELLS cells of each code the board shows, spread over it, whole on the picture."""
    boxes = geo.boxes
    chosen = []
    for code in np.unique(cells):
        where = np.flatnonzero(cells.ravel() == code)
        for i in where[
            np.linspace(0, len(where) - 1, min(OWN_CELLS, len(where))).round().astype(int)
        ]:
            x, y, w, h = boxes[i]
            if x >= 0 and y >= 0 and x + w <= shape[1] and y + h <= shape[0]:
                chosen.append(boxes[i])
    return chosen


def _line_shows(
    image: np.ndarray, boxes: list[tuple[int, int, int, int]], tiles: np.ndarray, blur: bool
) -> str | None:
    """Whether a line of cells past a reading shows cells: of them, CUT_SHARE where the picture's
    edge cuts them ("cut"), LINE_SHOWN and LINE_CELLS where they show whole (a box may lie over the
    rest, of one colour or not: a chat window over minegauler's 4 right columns but their top and
    bottom 3 rows, in JPEG, left 26 of 30 columns read as the board: "whole"),
    within CUT_LIMIT of the same part of one of ``tiles`` (at the cells' size, float, blurred where
    ``blur``), a pixel or two either way. A flat part is met by its colour alone: cut, within
    LOSSY_GAP (gnome-mines' window ground beside its board lay 23.6 levels from its empty tile at
    2.6x); whole, not at all, so a whole cell of one colour is no cell (a dark box over 8 of the 16
    rows past classic98's board at Expert, in JPEG, left the 7 rows round it, and 22 of its 30
    columns were read as the board). "none": no cells there; None: off the picture, or too little shows."""
    height, width = image.shape[:2]
    matched = []
    (left, top, w, h), (right, bottom, _, _) = boxes[0], boxes[-1]
    strip = image[
        max(top, 0) : min(bottom + h, height), max(left, 0) : min(right + w, width)
    ].astype(np.float32)
    along = 1 if bottom == top else 0  # a row of cells (top, bottom) runs along x
    if not strip.size:
        return None  # off the picture
    if float(strip.std(axis=along).mean()) < CUT_ALONG:
        return "none"  # a frame or a ground: the same all along (cells show where each ends)
    whole, share, step = False, CUT_SHARE, max(1, w // CUT_PX)
    for x, y, w, h in boxes:
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, width), min(y + h, height)
        whole = (x1 - x0, y1 - y0) == (w, h)
        # whole, a part of the line may be under something
        share = LINE_SHOWN if whole else CUT_SHARE
        if min(x1 - x0, y1 - y0) < CUT_SHOWN * w:
            return None  # too little of it to tell
        # the cell where its line puts it (shift (0, 0) below)
        crop = _soft(image[y0:y1, x0:x1], blur)
        if whole and float(crop.std(axis=(0, 1)).max()) < CUT_ALONG:
            matched.append(False)  # flat: something over it, or a flat cell; no cell shows
            continue
        best = np.inf
        for dx, dy in CUT_SHIFTS:
            if (dx, dy) != (0, 0) and best > CUT_FAR:
                break  # not a pixel or two off a cell: far from every one
            a0, b0, a1, b1 = (
                max(x0 + dx, 0),
                max(y0 + dy, 0),
                min(x1 + dx, width),
                min(y1 + dy, height),
            )
            moved = crop if (dx, dy) == (0, 0) else _soft(image[b0:b1, a0:a1], blur)
            # every step-th pixel: as good a measure, step**2 times sooner
            shown = moved[::step, ::step]
            part = tiles[
                :,
                max(b0 - y - dy, 0) : b1 - y - dy : step,
                max(a0 - x - dx, 0) : a1 - x - dx : step,
            ]
            if part.shape[1:] != shown.shape:
                continue  # shifted past the tile
            rms = np.sqrt(((part - shown) ** 2).mean(axis=(1, 2, 3)))
            # a flat part is met by its colour alone: to LOSSY_GAP, cut; whole, not at all (a panel's
            # grey or a title bar is an empty cell's colour: xdemineur's, gnome-mines'). Whole, a
            # part is flat where a patch of its mean colour lies within CUT_LIMIT of it: classic98's
            # empty cell at 2x, its lines 21 levels spread, is not
            near = np.flatnonzero((rms < CUT_LIMIT) & ((rms > LOSSY_GAP) | whole))
            rms[
                near[part[near].std(axis=(1, 2)).max(axis=1) < (CUT_LIMIT if whole else FLAT_STD)]
            ] = np.inf
            best = min(best, float(rms.min()))
        matched.append(best < CUT_LIMIT)
        if matched.count(False) > (1 - share) * len(boxes):
            return "none"  # too many are no cells: no need to look at the rest
    if whole:  # something may lie over the rest, whatever it shows
        cells = sum(matched) >= max(LINE_SHOWN * len(boxes), LINE_CELLS)
    else:
        cells = bool(matched) and float(np.mean(matched)) >= CUT_SHARE
    return ("whole" if whole else "cut") if cells else "none"


def runs_off(lattice: Geometry, shape: tuple[int, ...]) -> bool:
    """Whether a lattice's cells run on past the picture's edge by CUT_SHOWN of a cell or more."""
    x, y, w, h = lattice.region(-round(CUT_SHOWN * lattice.cell_px))
    return x < 0 or y < 0 or x + w > shape[1] or y + h > shape[0]


def _soft(picture: np.ndarray, blur: bool) -> np.ndarray:
    return (cv2.blur(picture, (3, 3)) if blur else picture).astype(np.float32)
