"""From pixels to a board: find the grid of cells, tell the skin, and read every cell.

Locating works at any scale without trying scales one by one: the flat middle of every covered
(or empty) cell is a blob of one colour, so the blobs of each pack's tile colours give candidate
cells and their size gives the scale. Candidates that look like the pack's covered tile become anchors;
a least-squares fit over the anchors measures the pitch and the origin, and the board grows
outward from them row by row and column by column while the cells keep matching tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from weakref import WeakKeyDictionary

import cv2
import numpy as np

from bot.board import Board, neighbour_sum
from bot.errors import ImpossibleReading, NoBoardFound, UnreadableCell
from bot.vision.counter import label_counter, led_counter, picture_counter, text_counter
from bot.vision.geometry import Geometry, fit_lattice, grow
from bot.vision.grid import MIN_CELL_PX, MIN_CELLS, Grid, find_grids, same_board
from bot.vision.looks import LOOK_LIMIT, LookBook
from bot.vision.pack import Interior, SkinPack, Tile, pack_named
from bot.vocabulary import COVERED, EXPLODED, FLAG, HIDDEN, MINE, QUESTION, STANDARD_MINES, WRONG_FLAG, Cell, State

# A cell matches a tile when its score (RMS difference, 0-255 levels) is below this. Cells drawn
# by the game at 1x match their tile exactly (0). Cells at another scale are compared blurred
# (see Classifier) against the pack's "tolerance" (default 16): browsers at 1.5x or 2x then differ
# by up to ~6, while the grey border above a classic board scores 23; gnome-mines, which redraws
# its tiles at each size, differs by up to ~18 (compared at 21 px) and sets 24.
MATCH_LIMIT_1X = 10.0
FLAT_STD = 25.0  # tiles whose pixels vary less than this are "flat" (covered, empty)
# A line of cells is part of the board when at least this share of its cells match a tile
# (not all: a hover highlight or a pointer may spoil a cell or two).
LINE_SHARE = 0.9
LINE_UP_KEEP = 4  # offsets of a pack on a lattice kept from the first, rough comparison
# Where the cell size follows the window, gnome-mines places its cells in whole pixels, and a fitted
# grid can be a pixel off at some columns or rows (its flags at 0.71x scored 25-34 on the grid, 10
# off it). A located board measures each column's and row's offset once (_snap); before that, while
# the board is being found, a cell scoring above SHIFT_ABOVE is also tried one pixel off each way.
SHIFT_ABOVE = 12.0
SHIFTS = (-1, 0, 1)
SNAP_SAMPLE = 5  # cells per column (row) that measure its offset
BAND_PITCHES = 6  # the face and the counters sit within this many cell pitches above the board

# Covered-colour blobs need this share of their bounding box filled to count as a cell face.
SOLID = 0.85
COLOUR_TOLERANCE = 6
MIN_SCALE, MAX_SCALE = 0.5, 8  # the scales looked for where the cell size follows the window


@dataclass(frozen=True, eq=False)
class Reading:
    """One screenshot read: geometry, board, game state, how well the worst cell matched, the counter."""

    geometry: Geometry
    board: Board
    state: State
    worst_score: float
    counter: int | None = None  # the mines-left counter, read when the mine count was not given


class Classifier:
    """Matches cell pictures against one pack's tiles.

    A cell's score is its RMS difference from the nearest tile. For a flat tile (covered, empty) it
    is also never less than eight times the gap between the colours of the middle third of cell
    and tile: flat fills keep their exact colour at any scale, while a title bar or a background of
    nearly the same grey must not pass for an empty cell. Cells read at another scale than the
    pack's are resized to it and, like the tiles, blurred a little first: games and browsers draw
    edges and text differently at each size, and the blur forgives that.
    """

    def __init__(self, pack: SkinPack) -> None:
        self.size = pack.match_px or pack.cell_px
        self.any_scale = pack.scales is None
        # blur width: 3 px, and an eighth of the cell for games that redraw their tiles at each size
        self.box = max(3, round(self.size / 8) | 1) if self.any_scale else 3
        images = [cv2.resize(t.image, (self.size, self.size), interpolation=cv2.INTER_AREA)
                  if self.size != pack.cell_px else t.image for t in pack.tiles]
        self.tiles = np.stack([i.reshape(-1) for i in images]).astype(np.float32)
        self.blurred = np.stack([self._blur(i).reshape(-1) for i in images]).astype(np.float32)
        self.norms = (self.tiles * self.tiles).sum(axis=1)
        self.blurred_norms = (self.blurred * self.blurred).sum(axis=1)
        self.middles = self._middles(self.tiles)
        self.flat = self.tiles.std(axis=1) < FLAT_STD
        self.codes = pack.codes()
        self.tolerance = pack.tolerance

    def limit(self, scale: float) -> float:
        """The score below which a cell at this scale matches."""
        return MATCH_LIMIT_1X if scale == 1 and not self.any_scale else self.tolerance

    def match(
        self, image: np.ndarray, boxes: list[tuple[int, int, int, int]], snapped: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        """For each box (x, y, w, h): the index of the nearest tile and its score. ``snapped``: the
        boxes were measured on the screen (see _snap), so only cells that match nothing are tried
        off them."""
        best, score = self._match(image, boxes)
        if self.any_scale:  # games that lay cells out in whole pixels stray from the fitted grid
            above = self.tolerance if snapped else SHIFT_ABOVE
            near = np.flatnonzero((score > above) & (score < 2 * self.tolerance))  # near misses only
            if len(near):
                shifted = [(x + dx, y + dy, w, h) for x, y, w, h in (boxes[i] for i in near) for dy in SHIFTS for dx in SHIFTS]
                again, scores = (a.reshape(len(near), -1) for a in self._match(image, shifted))
                j = np.argmin(scores, axis=1)  # the unshifted box is among them
                best[near], score[near] = again[np.arange(len(near)), j], scores[np.arange(len(near)), j]
        return best, score

    def _match(self, image: np.ndarray, boxes: list[tuple[int, int, int, int]]) -> tuple[np.ndarray, np.ndarray]:
        n = self.size
        scaled = self.any_scale or any(w != n for _, _, w, _ in boxes)
        crops = np.empty((len(boxes), n * n * 3), dtype=np.float32)
        for (w, h), where in _by_size(boxes).items():
            stack = np.empty((len(where), h, w, 3), dtype=np.uint8)
            off = np.zeros(len(where), dtype=bool)
            for k, i in enumerate(where):
                x, y = boxes[i][:2]
                crop = image[max(y, 0) : y + h, max(x, 0) : x + w]
                if crop.shape[:2] == (h, w):
                    stack[k] = crop
                else:
                    off[k] = True
            if (w, h) != (n, n):
                stack = _resized(stack, n)
            if scaled:
                stack = self._blur_all(stack)
            crops[where] = stack.reshape(len(where), -1)
            crops[np.asarray(where)[off]] = 1e4  # off the image: matches nothing
        middles = self._middles(crops)
        tiles, norms = (self.blurred, self.blurred_norms) if scaled else (self.tiles, self.norms)
        d2 = (crops * crops).sum(axis=1)[:, None] + norms[None, :] - 2 * crops @ tiles.T
        best = np.argmin(d2, axis=1)
        rms = np.sqrt(np.maximum(d2[np.arange(len(crops)), best], 0) / crops.shape[1])
        gap = np.abs(middles - self.middles[best]).max(axis=1)
        return best, np.where(self.flat[best], np.maximum(rms, 8 * gap), rms)

    def _middles(self, flat: np.ndarray) -> np.ndarray:
        """Mean colour of the middle third of each picture (rows of n*n*3 values)."""
        n, third = self.size, self.size // 3
        return flat.reshape(len(flat), n, n, 3)[:, third : n - third, third : n - third].mean(axis=(1, 2))

    def read_line(self, image: np.ndarray, geometry: Geometry, cells: list[Cell]) -> np.ndarray | None:
        """The codes of a line of cells, or None when too few of them match a tile."""
        best, score = self.match(image, [geometry.box(r, c) for r, c in cells])
        if (score < self.limit(geometry.scale)).mean() < LINE_SHARE:
            return None
        return self.codes[best]

    def _blur(self, tile: np.ndarray) -> np.ndarray:
        return cv2.blur(tile, (self.box, self.box))

    def _blur_all(self, stack: np.ndarray) -> np.ndarray:
        """:meth:`_blur` on each of a stack of pictures, in one call: each is given its own mirrored
        border (as cv2.blur gives one picture) and the stack blurred as one tall picture."""
        r = self.box // 2
        count, h, w, _ = stack.shape
        padded = np.pad(stack, ((0, 0), (r, r), (r, r), (0, 0)), mode="reflect")
        tall = cv2.blur(padded.reshape(count * (h + 2 * r), w + 2 * r, 3), (self.box, self.box))
        return tall.reshape(count, h + 2 * r, w + 2 * r, 3)[:, r : r + h, r : r + w]


def _by_size(boxes: list[tuple[int, int, int, int]]) -> dict[tuple[int, int], list[int]]:
    """The indices of the boxes of each size (w, h)."""
    groups: dict[tuple[int, int], list[int]] = {}
    for i, (_, _, w, h) in enumerate(boxes):
        groups.setdefault((w, h), []).append(i)
    return groups


def _resized(stack: np.ndarray, n: int) -> np.ndarray:
    """Each of a stack of pictures resized to n x n (area averaging). Shrinking, the stack is
    resized as one tall picture: its pictures' edges fall on output rows' edges, so none bleeds
    into the next. Enlarging interpolates across those edges, so pictures go one by one."""
    count, h, w, _ = stack.shape
    if h < n:
        return np.stack([cv2.resize(p, (n, n), interpolation=cv2.INTER_AREA) for p in stack])
    tall = cv2.resize(stack.reshape(count * h, w, 3), (n, count * n), interpolation=cv2.INTER_AREA)
    return tall.reshape(count, n, n, 3)


def _quarter(image: np.ndarray) -> np.ndarray:
    """The image at a quarter of its size, each pixel the mean of a 4x4 block: a block of one
    colour keeps it, a block crossed by a grid line or text does not."""
    h, w = image.shape[0] // 4, image.shape[1] // 4
    return cv2.resize(image[: 4 * h, : 4 * w], (w, h), interpolation=cv2.INTER_AREA)


def _blobs(
    image: np.ndarray, quarter: np.ndarray, colour: tuple[int, int, int], sizes: tuple[float, float]
) -> np.ndarray:
    """Bounding boxes (x, y, w, h) of solid blobs of one colour, their sides within ``sizes`` (px)."""
    lo = np.array([max(v - COLOUR_TOLERANCE, 0) for v in colour], dtype=np.uint8)
    hi = np.array([min(v + COLOUR_TOLERANCE, 255) for v in colour], dtype=np.uint8)
    # Look at the quarter-size image first: an absent colour costs a sixteenth. A flat middle of
    # side L holds a solid rectangle of whole 4x4 blocks at least (L - 3) // 4 wide, and no more
    # than L // 4 + 1: bigger areas (a desktop's background) are left out, and pixel by pixel only
    # the surroundings of the rest (two blocks, 8 px, each way) are searched.
    smallest, largest = sizes
    n, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.inRange(quarter, lo, hi), connectivity=4)
    w, h, area = stats[:, 2], stats[:, 3], stats[:, 4]
    fits = (np.minimum(w, h) >= max((smallest - 3) // 4, 1)) & (np.maximum(w, h) <= largest / 4 + 1)
    fits &= area >= SOLID * w * h
    fits[0] = False  # the background
    if not fits.any():
        return np.empty((0, 4), dtype=np.int32)
    near = cv2.dilate(fits[labels].astype(np.uint8), np.ones((5, 5), np.uint8))
    rows, cols = np.nonzero(near.any(axis=1))[0], np.nonzero(near.any(axis=0))[0]
    top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    mask = cv2.inRange(image[4 * top : 4 * bottom, 4 * left : 4 * right], lo, hi)
    mask = cv2.bitwise_and(mask, np.repeat(np.repeat(near[top:bottom, left:right], 4, axis=0), 4, axis=1) * np.uint8(255))
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    stats = stats[1:]
    stats[:, 0] += 4 * left
    stats[:, 1] += 4 * top
    w, h, area = stats[:, 2], stats[:, 3], stats[:, 4]
    keep = (np.minimum(w, h) >= 4) & (np.maximum(w, h) <= largest) & (area >= SOLID * w * h)
    return stats[keep, :4]


def _scale_of(pack: SkinPack, inner: Interior, w: np.ndarray, h: np.ndarray) -> np.ndarray:
    """The scale each blob implies for this pack, or 0 where it cannot be the tile's flat middle."""
    sw, sh = w / inner.w, h / inner.h
    s = (w + h) / (inner.w + inner.h)
    ok = np.abs(sw - sh) <= 0.15 * s
    if pack.scales is None:
        ok &= (s >= MIN_SCALE) & (s <= MAX_SCALE)
        return np.where(ok, s, 0.0)
    allowed = np.array(pack.scales)
    nearest = allowed[np.argmin(np.abs(s[:, None] - allowed[None, :]), axis=1)]
    # a blob one pixel off at 1x is still this scale (rounding of the browser's layout)
    ok &= np.abs(w - inner.w * nearest) <= 1 + 0.1 * nearest
    ok &= np.abs(h - inner.h * nearest) <= 1 + 0.1 * nearest
    return np.where(ok, nearest, 0.0)


@dataclass(frozen=True)
class _Candidate:
    pack: SkinPack
    tile: Tile
    scale: float
    corners: np.ndarray  # (N, 2) top-left corners of the cells the blobs imply, image pixels


def _candidates(image: np.ndarray, packs: list[SkinPack]) -> list[_Candidate]:
    quarter = _quarter(image)
    sizes: dict[tuple[int, int, int], tuple[float, float]] = {}  # each colour's flat middles: shortest, longest side
    for pack in packs:
        for _, inner in pack.anchors:
            low, high = (MIN_SCALE, MAX_SCALE) if pack.scales is None else (min(pack.scales), max(pack.scales))
            shortest, longest = sizes.get(inner.colour, (np.inf, 0.0))
            # a pixel short at 1x is still the tile (a browser's rounding), and _scale_of allows 15% over
            shortest = min(shortest, min(inner.w, inner.h) * low - 1)
            sizes[inner.colour] = (shortest, max(longest, max(inner.w, inner.h) * high * 1.15))
    blobs_by_colour: dict[tuple[int, int, int], np.ndarray] = {}
    found: list[_Candidate] = []
    for pack in packs:
        for tile, inner in pack.anchors:
            if inner.colour not in blobs_by_colour:
                blobs_by_colour[inner.colour] = _blobs(image, quarter, inner.colour, sizes[inner.colour])
            blobs = blobs_by_colour[inner.colour]
            if len(blobs) == 0:
                continue
            scales = _scale_of(pack, inner, blobs[:, 2].astype(float), blobs[:, 3].astype(float))
            groups: set[bytes] = set()
            for s in np.unique(scales[scales > 0]):
                if pack.scales is None:
                    near = np.abs(scales - s) <= 0.08 * s
                    if near.tobytes() in groups:
                        continue  # the same blobs as a scale next to this one: the same candidate
                    groups.add(near.tobytes())
                    group = blobs[near]
                    s = float(np.median((group[:, 2] + group[:, 3]) / (inner.w + inner.h)))
                else:
                    group = blobs[scales == s]
                corners = group[:, :2] - np.array([inner.x, inner.y]) * s
                found.append(_Candidate(pack, tile, float(s), corners.astype(float)))
    return found


def _verified(image: np.ndarray, cand: _Candidate, classifier: Classifier) -> tuple[np.ndarray, float]:
    """The corners whose whole cell looks like the tile the blob was taken for, and the best score
    of any of the candidate's cells (for the message when no board is found)."""
    n = round(cand.pack.cell_px * cand.scale)
    boxes = [(round(x), round(y), n, n) for x, y in cand.corners]
    best, score = classifier.match(image, boxes, snapped=True)  # blobs sit where the cells are
    ok = (classifier.codes[best] == cand.tile.code) & (score < classifier.limit(cand.scale))
    return cand.corners[ok], float(score.min())


def _grow(image: np.ndarray, geo: Geometry, classifier: Classifier) -> Geometry:
    """Extend the board a row or column at a time while the new line matches tiles."""

    def belongs(trial: Geometry, line: list[Cell], edge: list[Cell]) -> bool:
        new = classifier.read_line(image, trial, line)
        if new is None:
            return False
        beside = classifier.codes[classifier.match(image, [trial.box(*e) for e in edge])[0]]
        return _fits_beside(new, beside)

    return grow(geo, belongs)


def _snap(image: np.ndarray, geo: Geometry, classifier: Classifier) -> Geometry:
    """Measure where each column and each row really starts, within a pixel of the fitted grid.

    A game that lays its cells out in whole pixels at a fractional pitch (gnome-mines) puts some
    columns and rows a pixel off any straight grid; a whole column (row) shares its offset. Each
    column takes the offset at which a few of its cells (SNAP_SAMPLE, spread over the board) match
    their tiles best, then each row likewise. Reading a snapped board then needs no per-cell
    retries (see Classifier.match)."""
    xs = [geo.box(0, c)[0] for c in range(geo.cols)]  # the fitted grid's positions to start from
    ys = [geo.box(r, 0)[1] for r in range(geo.rows)]
    n = round(geo.cell_px)
    for axis, lines, across in ((0, xs, ys), (1, ys, xs)):
        sample = [across[i] for i in np.unique(np.linspace(0, len(across) - 1, SNAP_SAMPLE).round().astype(int))]
        scores = np.empty((len(SHIFTS), len(lines)))
        for k, d in enumerate(SHIFTS):
            boxes = [(a + d, b, n, n) if axis == 0 else (b, a + d, n, n) for a in lines for b in sample]
            scores[k] = classifier._match(image, boxes)[1].reshape(len(lines), len(sample)).mean(axis=1)
        lines[:] = [a + SHIFTS[k] for a, k in zip(lines, scores.argmin(axis=0), strict=True)]
    return replace(geo, xs=tuple(xs), ys=tuple(ys))


def _fits_beside(new: np.ndarray, edge: np.ndarray) -> bool:
    """Whether a line of cells can lie beside the board's edge line: in every game an empty cell
    (0) is opened with all its neighbours, so it never touches a hidden one. (A title bar of the
    empty cell's grey above a fresh board fails this.)"""
    def near(mask: np.ndarray) -> np.ndarray:
        return mask | np.r_[False, mask[:-1]] | np.r_[mask[1:], False]

    hidden_new, hidden_edge = np.isin(new, HIDDEN), np.isin(edge, HIDDEN)
    return not ((new == 0) & near(hidden_edge)).any() and not (hidden_new & near(edge == 0)).any()


def locate(image: np.ndarray, packs: list[SkinPack]) -> Geometry:
    """Find the board in a screenshot (BGR array) and measure its grid."""
    return _locate(image, packs)[0]


def _locate(image: np.ndarray, packs: list[SkinPack]) -> tuple[Geometry, np.ndarray, np.ndarray]:
    """The board's geometry, with the codes and scores of its cells read on the way.

    The packs' own colours find a known look fastest; where they find nothing (a scale no pack
    lists, a pixel phase their quarter-size search blurs away; learnt packs, whose tiles have no
    flat middle to look for), the board is found by its lattice alone (bot/vision/grid.py) and each
    pack is tried on its cells at the scale the lattice shows."""
    smallest = MIN_CELLS * MIN_CELL_PX
    if image.ndim != 3 or image.shape[0] < smallest or image.shape[1] < smallest:
        raise NoBoardFound(
            f"the image is {image.shape[1]}x{image.shape[0]} px: too small to hold a Minesweeper board "
            f"(a {MIN_CELLS}x{MIN_CELLS} board of {MIN_CELL_PX} px cells needs {smallest}x{smallest}); give a screenshot of the whole game"
        )
    try:
        found = _locate_by_colour(image, [p for p in packs if not p.learnt])
    except NoBoardFound as by_colour:
        return _locate_by_lattice(image, packs, find_grids(image), by_colour)
    geo, codes, scores = found
    share = float((scores < classifier_for(pack_named(packs, geo.skin)).limit(geo.scale)).mean())
    if share >= LINE_SHARE and _possible(codes):
        return found
    # a board a pack hardly reads, or one no game shows: the pack's colour may have been found in
    # another look's cells (gnome-mines' empty grey in a classic web game's). Such a board is the
    # pack's only where it reads it as it would a lattice's (see _fit_packs) and the lattice of
    # the cells shows the same board: else the lattice says where the board is.
    grids = find_grids(image)
    if share >= LINE_SHARE and (not grids or any(_same_cells(geo, grid.geometry) for grid in grids)):
        return found
    return _locate_by_lattice(image, packs, grids, NoBoardFound(
        f"the {geo.skin} pack's colours make a {geo.rows}x{geo.cols} board at {geo.region()[:2]} in the screenshot, "
        f"but it reads {share:.0%} of its cells" + ("" if grids else "; make the whole game visible and not covered")
    ))


def _same_cells(a: Geometry, b: Geometry) -> bool:
    return same_board(a, b) and (a.rows, a.cols) == (b.rows, b.cols)


def _locate_by_lattice(
    image: np.ndarray, packs: list[SkinPack], grids: list[Grid], why: NoBoardFound
) -> tuple[Geometry, np.ndarray, np.ndarray]:
    """The first lattice that a pack reads, at the scale the lattice shows (see _fit_packs); else
    NoBoardFound saying where the board is and how near each pack came (``why``: the packs'
    colours found nothing, or nothing the lattice shows)."""
    tried: list[str] = []
    for grid in grids:
        fitted = _fit_packs(image, grid.geometry, packs, tried)
        if fitted is not None:
            return fitted
    if not grids:
        raise why
    geo = grids[0].geometry
    x, y, _, _ = geo.region()
    raise NoBoardFound(
        f"a {geo.rows}x{geo.cols} board with {geo.pitch[0]:g}x{geo.pitch[1]:g} px cells is at ({x},{y}) in the screenshot, "
        f"but no skin pack reads its cells ({'; '.join(tried) or 'no pack at a scale that fits'}); "
        "make the whole game visible and not covered, or cut a skin pack for this look with `minebot learn`"
    ) from why


def _fit_packs(
    image: np.ndarray, grid: Geometry, packs: list[SkinPack], tried: list[str]
) -> tuple[Geometry, np.ndarray, np.ndarray] | None:
    """The pack that reads a lattice's cells best, placed where its tiles line up with them: the
    geometry, codes and scores; None if no pack reads LINE_SHARE of the cells. ``tried`` gets a
    line per pack tried (its share of cells read and best score), for the message."""
    best: tuple[float, Geometry, np.ndarray, np.ndarray] | None = None
    for pack in packs:
        scale_x, scale_y = grid.pitch[0] / pack.pitch[0], grid.pitch[1] / pack.pitch[1]
        if abs(scale_x - scale_y) > 0.03 * scale_x or not MIN_SCALE <= scale_x <= MAX_SCALE:
            continue
        scale = 1.0 if abs(scale_x - 1) < 0.005 else round((scale_x + scale_y) / 2, 4)
        limit = classifier_for(pack).limit(scale)
        geo, nearest = _line_up(image, grid, pack, scale)
        if geo is None:
            tried.append(f"{pack.name}@{scale:g}x: under half of the cells sampled (best score {nearest:.1f}, limit {limit:g})")
            continue
        if pack.scales is None and not pack.learnt:  # a learnt pack is read by looks, a pixel either way forgiven
            geo = _snap(image, geo, classifier_for(pack))
        codes, scores = read_cells(image, geo, pack)
        share = float((scores < limit).mean())
        possible = _possible(codes)
        tried.append(f"{pack.name}@{scale:g}x: {share:.0%} of cells (best score {scores.min():.1f}, limit {limit:g})"
                     + ("" if possible else ", a board no game shows"))
        if share >= LINE_SHARE and possible and (best is None or scores.mean() < best[0]):
            best = (float(scores.mean()), geo, codes, scores)
    return None if best is None else best[1:]


def _possible(codes: np.ndarray) -> bool:
    """Whether a pack's reading of a board found by its lattice is one a game can show: some cell
    hidden or a mine (every board has a mine somewhere), and no 0 beside a covered cell. A pack
    whose empty cell is near another look's covered one (winxp's, scaled 3x, and xbomb's dither,
    blurred) reads a whole foreign board as 0s."""
    hidden = np.isin(codes, (*HIDDEN, MINE, EXPLODED)).any()
    return bool(hidden and not _zeros_beside_covered(codes).any())


def _line_up(image: np.ndarray, grid: Geometry, pack: SkinPack, scale: float) -> tuple[Geometry | None, float]:
    """The pack's geometry on a lattice: its tiles centred on the lattice's cells, then moved by
    the offset (within a tenth of a pitch, at least 3 px) at which cells spread over it match best;
    None where the pack's tiles match too few of them at any offset to read the board. With it: the
    best score of any cell sampled."""
    if pack.learnt:  # its looks were cut around the lattice's centres: from there, whole pixels either way
        geo = replace(grid, skin=pack.name, scale=scale)
    else:  # whole pixels to start from, so that the offsets below reach every pixel (round() sends .5 to even)
        size = pack.cell_px * scale
        (cx, cy) = grid.centre((0, 0))
        origin = (float(np.floor(cx - size / 2 + 0.5)), float(np.floor(cy - size / 2 + 0.5)))
        geo = Geometry(pack.name, grid.rows, grid.cols, origin, grid.pitch, size, scale)
    reach = max(3, round(0.1 * min(grid.pitch)))
    offsets = [(dx, dy) for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1)]
    # every offset on a few cells, then the best few on more: the same choice at a quarter of the work
    rough = _offset_scores(image, geo, pack, offsets, _spread(grid, 3, 4))
    if not pack.learnt and ((rough < classifier_for(pack).limit(scale)).mean(axis=1) < 0.5).all():
        return None, float(rough.min())  # at no offset do even half of them match: it cannot read LINE_SHARE of the cells
    offsets = [offsets[i] for i in np.argsort(rough.mean(axis=1), kind="stable")[:LINE_UP_KEEP]]
    fine = _offset_scores(image, geo, pack, offsets, _spread(grid, 6, 8)).mean(axis=1)
    return geo.moved(*offsets[int(np.argmin(fine))]), float(rough.min())


def _spread(grid: Geometry, rows: int, cols: int) -> list[Cell]:
    """About rows x cols cells spread evenly over the board, its corners among them."""
    rs = np.unique(np.linspace(0, grid.rows - 1, rows).round().astype(int))
    cs = np.unique(np.linspace(0, grid.cols - 1, cols).round().astype(int))
    return [(int(r), int(c)) for r in rs for c in cs]


def _offset_scores(
    image: np.ndarray, geo: Geometry, pack: SkinPack, offsets: list[tuple[int, int]], cells: list[Cell]
) -> np.ndarray:
    """How well ``cells`` match the pack with the board moved by each offset: len(offsets) x
    len(cells) scores."""
    if pack.learnt:  # each offset's cells against the looks, as the pack will read them
        return np.array([_look_distances(image, geo.moved(dx, dy), pack, cells).min(axis=1) for dx, dy in offsets])
    (ox, oy), (px, py), n = geo.origin, geo.pitch, round(geo.cell_px)
    # geo.moved(dx, dy).box(r, c), without building a geometry per offset
    boxes = [(round(ox + dx + c * px), round(oy + dy + r * py), n, n) for dx, dy in offsets for r, c in cells]
    return classifier_for(pack)._match(image, boxes)[1].reshape(len(offsets), len(cells))


def _locate_by_colour(image: np.ndarray, packs: list[SkinPack]) -> tuple[Geometry, np.ndarray, np.ndarray]:
    """Locate by the packs' flat tile colours (see the module's docstring)."""
    grown: list[Geometry] = []
    checked = [(cand, *_verified(image, cand, classifier_for(cand.pack))) for cand in _candidates(image, packs)]
    # most anchors first: they fit the grid best, and fewer of the same board's cells add nothing
    for cand, anchors, _ in sorted(checked, key=lambda v: -len(v[1])):
        classifier = classifier_for(cand.pack)
        if len(anchors) == 0 or any(_on_board(g, cand, anchors) for g in grown):
            continue
        px, py = (p * cand.scale for p in cand.pack.pitch)
        x0, pitch_x, kx = fit_lattice(anchors[:, 0], px)
        y0, pitch_y, ky = fit_lattice(anchors[:, 1], py)
        # one lattice through all anchors: two boards of one skin on one screen are not supported
        geo = Geometry(
            cand.pack.name, int(ky.max()) + 1, int(kx.max()) + 1,
            (round(x0, 2), round(y0, 2)), (round(pitch_x, 3), round(pitch_y, 3)),
            cand.pack.cell_px * cand.scale, cand.scale,
        )
        grown.append(_grow(image, geo, classifier))
    if not grown:
        names = ", ".join(p.name for p in packs)
        tried = [f"{cand.pack.name}@{cand.scale:g}x: {len(anchors)} of {len(cand.corners)} (best score {best:.1f}, "
                 f"limit {classifier_for(cand.pack).limit(cand.scale):g})" for cand, anchors, best in checked]
        detail = "; ".join(tried) or "no cell-coloured blobs at all"
        raise NoBoardFound(
            f"no Minesweeper board found (skins tried: {names}; cell-coloured blobs that match their tile: {detail}); "
            "make the whole game visible and not covered by other windows, or cut a skin pack with `minebot learn`"
        )
    # the biggest board, and of those the one whose cells match best
    biggest = max(g.rows * g.cols for g in grown)
    ranked = []
    for geo in (g for g in grown if g.rows * g.cols == biggest):
        pack = pack_named(packs, geo.skin)
        if pack.scales is None:  # measure where its columns and rows really are, and read them there
            geo = _snap(image, geo, classifier_for(pack))
        ranked.append((geo, *read_cells(image, geo, pack)))
    return min(ranked, key=lambda r: float(r[2].mean()))


def _on_board(geo: Geometry, cand: _Candidate, corners: np.ndarray) -> bool:
    """Whether a candidate's cells all lie on a board already found for its skin at its scale
    (empty cells of a board whose covered cells found it): nothing new to grow or read."""
    if geo.skin != cand.pack.name or abs(geo.scale - cand.scale) > 0.02 * geo.scale:
        return False
    col = (corners[:, 0] - geo.origin[0]) / geo.pitch[0]
    row = (corners[:, 1] - geo.origin[1]) / geo.pitch[1]
    on_grid = (np.abs(col - np.round(col)) < 0.1) & (np.abs(row - np.round(row)) < 0.1)
    inside = (np.round(col) >= 0) & (np.round(col) < geo.cols) & (np.round(row) >= 0) & (np.round(row) < geo.rows)
    return bool((on_grid & inside).all())


_CLASSIFIERS: WeakKeyDictionary[SkinPack, Classifier] = WeakKeyDictionary()


def classifier_for(pack: SkinPack) -> Classifier:
    if pack not in _CLASSIFIERS:
        _CLASSIFIERS[pack] = Classifier(pack)
    return _CLASSIFIERS[pack]


def read_cells(image: np.ndarray, geometry: Geometry, pack: SkinPack) -> tuple[np.ndarray, np.ndarray]:
    """Codes and match scores (RMS levels) of every cell, as rows x cols arrays. A learnt pack is
    read as it was learnt: each cell is the look (tile) it is nearest, by bot/vision/looks.py."""
    if pack.learnt:
        book = _look_book(geometry, pack)
        pictures, crops = book.cut_cells(image)
        looks, rms = book.nearest(crops, pictures)
        codes = pack.codes()[np.maximum(looks, 0)]
        # a cell as like a look of another value as its own is not read (cells over a background
        # picture: kmines' empty cell may be nearer a covered cell elsewhere than its own look)
        d = book.distances(crops)
        d[pack.codes()[None, :] == codes[:, None]] = np.inf
        rival = np.flatnonzero((d.min(axis=1) < LOOK_LIMIT) & (looks >= 0))
        if len(rival):
            alike = book.alike(rival, d[rival].argmin(axis=1), d[rival].min(axis=1), pictures)
            looks[rival[alike]] = -1
        rms[looks < 0] = np.inf  # like no look, or like two
        shape = (geometry.rows, geometry.cols)
        return codes.reshape(shape), rms.reshape(shape)
    classifier = classifier_for(pack)
    cells = [(r, c) for r in range(geometry.rows) for c in range(geometry.cols)]
    best, rms = classifier.match(image, [geometry.box(r, c) for r, c in cells], snapped=bool(geometry.xs))
    shape = (geometry.rows, geometry.cols)
    return classifier.codes[best].reshape(shape), rms.reshape(shape)


def read_partly(image: np.ndarray, packs: list[SkinPack]) -> tuple[Geometry, np.ndarray, np.ndarray]:
    """What can be read of a board that no pack reads whole (for ``minebot record``): its geometry,
    the codes of its cells, and which of them were read (a tile within the pack's limit, and no 0
    beside a covered cell). Where no pack reads the board at all: the lattice, no cell read."""
    try:
        geometry, codes, scores = _locate(image, packs)
    except NoBoardFound:
        grids = find_grids(image)
        if not grids:
            raise
        geometry = grids[0].geometry
        shape = (geometry.rows, geometry.cols)
        return geometry, np.full(shape, COVERED, dtype=np.int8), np.zeros(shape, dtype=bool)
    known = scores < classifier_for(pack_named(packs, geometry.skin)).limit(geometry.scale)
    return geometry, codes, known & ~_zeros_beside_covered(codes)


def _look_book(geometry: Geometry, pack: SkinPack) -> LookBook:
    """A learnt pack's looks, for cutting cells where ``geometry`` puts them as the learner cut them."""
    book = LookBook(geometry)
    for tile in pack.tiles:
        book.add(tile.image)
    return book


def _look_distances(image: np.ndarray, geometry: Geometry, pack: SkinPack, cells: list[Cell]) -> np.ndarray:
    """How far each of ``cells`` is from each look of a learnt pack, unshifted (len(cells) x
    len(tiles)); inf where a cell lies outside the image."""
    book = _look_book(geometry, pack)
    try:
        return book.distances(book.crops(image, cells), shifts=False)
    except ValueError:
        return np.full((len(cells), len(pack.tiles)), np.inf, dtype=np.float32)


def check_cells(
    image: np.ndarray, geometry: Geometry, scores: np.ndarray, limit: float, save_to: str | None = None
) -> None:
    """Raise :class:`UnreadableCell` for the worst cell that matches no tile."""
    if scores.max() < limit:
        return
    r, c = (int(v) for v in np.unravel_index(np.argmax(scores), scores.shape))
    x, y, w, h = geometry.box(r, c)
    where = ""
    if save_to:
        cv2.imwrite(save_to, image[max(y, 0) : y + h, max(x, 0) : x + w])
        where = f"; its picture is in {save_to}"
    raise UnreadableCell(
        f"cell ({r},{c}) at ({x},{y}) in the screenshot matches no tile of skin {geometry.skin!r} "
        f"(best RMS difference {scores[r, c]:.0f}, limit {limit:.0f}){where}; "
        "move anything covering the board, or add the tile with `minebot learn`"
    )


def check_zeros(geometry: Geometry, codes: np.ndarray) -> None:
    """Raise :class:`ImpossibleReading` for a cell read as 0 beside a covered one: every game opens a
    0's neighbours, so the picture is something else (a hover highlight, a pressed cell, a cell
    half drawn) that looks like an empty cell."""
    beside = _zeros_beside_covered(codes)
    if beside.any():
        r, c = (int(v) for v in np.argwhere(beside)[0])
        x, y, _, _ = geometry.box(r, c)
        raise ImpossibleReading(
            f"cell ({r},{c}) at ({x},{y}) reads as empty (0) beside a covered cell, which no game shows: something "
            "is drawn over it (the pointer's highlight? a pressed cell?); move the pointer off the board and read again"
        )


def _zeros_beside_covered(codes: np.ndarray) -> np.ndarray:
    """Cells read as 0 that touch a covered cell: what no game shows (it opens a 0's neighbours)."""
    return (codes == 0) & (neighbour_sum(codes == COVERED) > 0)


def face_centre(image: np.ndarray, geometry: Geometry, pack: SkinPack) -> tuple[float, float] | None:
    """The middle of the face button in image pixels (where to click for a new game), or None."""
    face = find_face(image, geometry, pack)
    if face is None:
        return None
    x, y, w, h = face[1]
    return x + w / 2, y + h / 2


def find_face(image: np.ndarray, geometry: Geometry, pack: SkinPack) -> tuple[State, tuple[int, int, int, int]] | None:
    """The face button above the board: the state it shows and its box, or None (no face)."""
    if not pack.faces:
        return None
    band, left, top = _band_above(image, geometry)
    best: tuple[float, State, tuple[int, int, int, int]] | None = None
    for state, pictures in pack.faces.items():
        for picture in pictures:
            if geometry.scale != 1:
                picture = cv2.resize(picture, None, fx=geometry.scale, fy=geometry.scale, interpolation=cv2.INTER_LINEAR)
            ph, pw = picture.shape[:2]
            if band.shape[0] < ph or band.shape[1] < pw:
                continue
            scores = cv2.matchTemplate(band, picture, cv2.TM_SQDIFF_NORMED)
            score, _, (fx, fy), _ = cv2.minMaxLoc(scores)
            if best is None or score < best[0]:
                best = (score, state, (left + fx, top + fy, pw, ph))
    return (best[1], best[2]) if best is not None and best[0] < 0.1 else None


def _band_above(image: np.ndarray, geometry: Geometry) -> tuple[np.ndarray, int, int]:
    """The strip above the board where games put the face and the counters, and its top-left."""
    x, y, w, h = geometry.region()
    top, left = max(round(y - BAND_PITCHES * geometry.pitch[1]), 0), max(x, 0)
    return image[top:y, left : x + w], left, top


def read_counter(image: np.ndarray, geometry: Geometry, pack: SkinPack) -> int | None:
    """The mines-left counter, or None where the pack cannot read one or none shows
    (how each kind of counter is read: bot/vision/counter.py)."""
    if not pack.has_counter:
        return None
    if pack.counter_text is not None and pack.counter == "beside":
        x, y, w, h = geometry.region()
        strip = image[max(y, 0) : y + h // 2, max(x + w, 0) : x + w + max(round(8 * geometry.pitch[0]), 300)]
        return label_counter(strip, pack)
    band, _, _ = _band_above(image, geometry)
    if pack.counter_text is not None:
        return text_counter(band, pack)
    if pack.counter_leds is not None:
        return led_counter(band, pack)
    return picture_counter(band, geometry.scale, pack)


def board_state(board: Board, flags_to_win: bool = False) -> State:
    """The state a board shows by itself: lost with a mine showing, won when only mines are left
    (and, where the game asks for it, all of them are flagged)."""
    cells = board.cells
    if np.isin(cells, (MINE, EXPLODED, WRONG_FLAG)).any():
        return "lost"
    hidden = int(np.isin(cells, HIDDEN).sum())
    flagged = int((cells == FLAG).sum())
    if board.mines is not None and hidden == board.mines and (flagged == hidden or not flags_to_win):
        return "won"
    return "playing"


def read(
    image: np.ndarray,
    packs: list[SkinPack],
    geometry: Geometry | None = None,
    mines: int | None = None,
    save_unreadable: str | None = None,
) -> Reading:
    """Read a screenshot: locate the board (unless ``geometry`` is given), every cell, the state."""
    if geometry is None:
        geometry, codes, scores = _locate(image, packs)
        pack = pack_named(packs, geometry.skin)
    else:
        pack = pack_named(packs, geometry.skin)
        codes, scores = read_cells(image, geometry, pack)
    check_cells(image, geometry, scores, classifier_for(pack).limit(geometry.scale), save_unreadable)
    check_zeros(geometry, codes)
    counter = None
    if mines is None:  # the live loop passes the count it found once: no counter on every reading
        counter = read_counter(image, geometry, pack)
        # Mines left plus the flags placed; unless more mines are left than cells that could hold
        # them (minegauler flags every mine when it is won but leaves its counter alone).
        unflagged = int(np.isin(codes, (COVERED, QUESTION, MINE, EXPLODED)).sum())
        if counter is not None and 0 <= counter <= unflagged:
            mines = counter + int(np.isin(codes, (FLAG, WRONG_FLAG)).sum())
        else:
            mines = STANDARD_MINES.get((geometry.rows, geometry.cols))
    board = Board(codes, mines)
    # what the cells show settles it; otherwise the face tells (a win with mines left covered)
    state = board_state(board, pack.flags_to_win)
    if state == "playing":
        face = find_face(image, geometry, pack)
        state = face[0] if face else state
    return Reading(geometry, board, state, float(scores.max()), counter)
