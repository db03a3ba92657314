"""Where the board is: find the grid of cells in a screenshot and tell the skin.

Locating works at any scale without trying scales one by one: the flat middle of every covered
(or empty) cell is a blob of one colour, so the blobs of each pack's tile colours give candidate
cells and their size gives the scale. Candidates that look like the pack's covered tile become anchors;
a least-squares fit over the anchors measures the pitch and the origin, and the board grows
outward from them row by row and column by column while the cells keep matching tiles. Where the
packs' colours find nothing a pack reads, the board is found by its lattice (bot/vision/grid.py)
and each pack tried on its cells.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from bot.errors import NoBoardFound, NoPackReads
from bot.vision.geometry import Geometry, fit_lattice, grow
from bot.vision.grid import MIN_CELL_PX, MIN_CELLS, Grid, find_grids, same_board
from bot.vision.lineup import line_up
from bot.vision.pack import Interior, SkinPack, Tile, pack_named
from bot.vision.tiles import (
    LINE_SHARE,
    SHIFTS,
    Classifier,
    classifier_for,
    fractional,
    read_cells,
    zeros_beside_covered,
)
from bot.vocabulary import EXPLODED, HIDDEN, MINE, Cell

SNAP_SAMPLE = 5  # cells per column (row) that measure its offset
# Covered-colour blobs need this share of their bounding box filled to count as a cell face.
SOLID = 0.85
COLOUR_TOLERANCE = 6
MIN_SCALE, MAX_SCALE = 0.5, 8  # the scales looked for where the cell size follows the window
# What to do where no board is read: a look minebot has not seen is learnt by playing it.
UNCOVER = "uncover the whole game, or learn a look never seen by playing it (`minebot play`)"


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
    n, labels, stats, _ = cv2.connectedComponentsWithStats(
        cv2.inRange(quarter, lo, hi), connectivity=4
    )
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
    mask = cv2.bitwise_and(
        mask,
        np.repeat(np.repeat(near[top:bottom, left:right], 4, axis=0), 4, axis=1) * np.uint8(255),
    )
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
    sizes: dict[
        tuple[int, int, int], tuple[float, float]
    ] = {}  # each colour's flat middles: shortest, longest side
    for pack in packs:
        for _, inner in pack.anchors:
            low, high = (
                (MIN_SCALE, MAX_SCALE)
                if pack.scales is None
                else (min(pack.scales), max(pack.scales))
            )
            shortest, longest = sizes.get(inner.colour, (np.inf, 0.0))
            # a pixel short at 1x is still the tile (a browser's rounding), and _scale_of allows 15% over
            shortest = min(shortest, min(inner.w, inner.h) * low - 1)
            sizes[inner.colour] = (shortest, max(longest, max(inner.w, inner.h) * high * 1.15))
    blobs_by_colour: dict[tuple[int, int, int], np.ndarray] = {}
    found: list[_Candidate] = []
    for pack in packs:
        for tile, inner in pack.anchors:
            if inner.colour not in blobs_by_colour:
                blobs_by_colour[inner.colour] = _blobs(
                    image, quarter, inner.colour, sizes[inner.colour]
                )
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


def _verified(
    image: np.ndarray, cand: _Candidate, classifier: Classifier
) -> tuple[np.ndarray, float]:
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


def laid_in_whole_pixels(pack: SkinPack, geo: Geometry) -> bool:
    """Whether a board's cells lie at whole pixels off a straight lattice: where the cell size
    follows the window (gnome-mines), and where a browser zooms a page by a fraction (16x17 px cells at
    1.5 lie 25.5 px apart, and Chromium draws each cell at whole pixels, rows 25 and 26 px apart).
    Not a learnt pack's: it is read by looks, a pixel either way forgiven."""
    return not pack.learnt and (pack.scales is None or (fractional(geo) and not pack.lossy))


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
        sample = [
            across[i]
            for i in np.unique(np.linspace(0, len(across) - 1, SNAP_SAMPLE).round().astype(int))
        ]
        scores = np.empty((len(SHIFTS), len(lines)))
        for k, d in enumerate(SHIFTS):
            boxes = [
                (a + d, b, n, n) if axis == 0 else (b, a + d, n, n) for a in lines for b in sample
            ]
            scores[k] = (
                classifier.match_exact(image, boxes)[1]
                .reshape(len(lines), len(sample))
                .mean(axis=1)
            )
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
    return locate_cells(image, packs)[0]


def locate_cells(
    image: np.ndarray, packs: list[SkinPack]
) -> tuple[Geometry, np.ndarray, np.ndarray]:
    """The board's geometry, with the codes and scores of its cells read on the way.

    The packs' own colours find a known look fastest; where they find nothing (a scale no pack
    lists, a pixel phase their quarter-size search blurs away; learnt packs, whose tiles have no
    flat middle to look for), the board is found by its lattice alone (bot/vision/grid.py) and each
    pack is tried on its cells at the scale the lattice shows."""
    smallest = MIN_CELLS * MIN_CELL_PX
    if image.ndim != 3 or image.shape[0] < smallest or image.shape[1] < smallest:
        raise NoBoardFound(
            f"the image is {image.shape[1]}x{image.shape[0]} px: too small to hold a Minesweeper board; give a screenshot of the whole game",
            detail=f"a {MIN_CELLS}x{MIN_CELLS} board of {MIN_CELL_PX} px cells needs {smallest}x{smallest} px",
        )
    try:
        found = _locate_by_colour(image, [p for p in packs if not p.learnt])
    except NoBoardFound as by_colour:
        return _locate_by_lattice(image, packs, find_grids(image), by_colour)
    geo, codes, scores = found
    share = _share_read(packs, geo, scores)
    if share >= LINE_SHARE and _possible(codes):
        return _learnt_first(image, packs, found, share)
    # a board a pack hardly reads, or one no game shows: the pack's colour may have been found in
    # another look's cells (gnome-mines' empty grey in a classic web game's). Such a board is the
    # pack's only where it reads it as it would a lattice's (see _fit_packs) and the lattice of
    # the cells shows the same board: else the lattice says where the board is.
    # (never a board with no hidden cell and no mine: react-minesweeper's fresh board, cut to its
    # lattice, was classic98's 100 empty cells by the colours and the lattice alike)
    grids = find_grids(image)
    if (
        share >= LINE_SHARE
        and _shown(codes)
        and (not grids or any(_same_cells(geo, grid.geometry) for grid in grids))
    ):
        return _learnt_first(image, packs, found, share, grids)
    return _locate_by_lattice(
        image,
        packs,
        grids,
        NoBoardFound(
            f"no Minesweeper board found whole; {UNCOVER}",
            detail=f"the {geo.skin} pack's colours make a {geo.cols}x{geo.rows} board at {geo.region()[:2]} in the screenshot, "
            f"but it reads {share:.0%} of its cells",
        ),
    )


def _learnt_first(
    image: np.ndarray,
    packs: list[SkinPack],
    found: tuple[Geometry, np.ndarray, np.ndarray],
    share: float,
    grids: list[Grid] | None = None,
) -> tuple[Geometry, np.ndarray, np.ndarray]:
    """A board a shipped pack found by its colours (reading ``share`` of its cells), or the reading
    of a pack learnt by playing that reads as much of it. A look is learnt only where no shipped
    pack read the game's opened board (classic98's covered tile is pygame-minesweeper's, its
    numbers are not): on a new board both read every cell, and the learnt pack knows the rest."""
    learnt = [p for p in packs if p.learnt]
    if not learnt:
        return found
    for grid in grids if grids is not None else find_grids(image):
        if _same_cells(found[0], grid.geometry):
            fitted = _fit_packs(image, grid.geometry, learnt, [])
            if fitted is not None:
                geo, _, scores = fitted
                if _share_read(packs, geo, scores) >= share:
                    return fitted
    return found


def _share_read(packs: list[SkinPack], geo: Geometry, scores: np.ndarray) -> float:
    """The share of cells whose score is within the limit of the pack ``geo`` was read with."""
    return float((scores < classifier_for(pack_named(packs, geo.skin)).limit(geo.scale)).mean())


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
    what = f"no skin pack reads the {geo.cols}x{geo.rows} board at ({x},{y}) in the screenshot"
    raise NoPackReads(
        f"{what}; {UNCOVER}",
        what=what,
        detail=f"its cells are {geo.pitch[0]:g}x{geo.pitch[1]:g} px apart; packs tried: {'; '.join(tried) or 'none at a scale that fits'}"
        + (f"; before that: {why.whole}" if why.detail else ""),
        tried=tuple(tried),
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
        geo, nearest = line_up(image, grid, pack, scale)
        if geo is None:
            tried.append(
                f"{pack.name}@{scale:g}x: under half of the cells sampled (best score {nearest:.1f}, limit {limit:g})"
            )
            continue
        if laid_in_whole_pixels(pack, geo):
            geo = _snap(image, geo, classifier_for(pack))
        codes, scores = read_cells(image, geo, pack)
        share = float((scores < limit).mean())
        possible = _possible(codes)
        tried.append(
            f"{pack.name}@{scale:g}x: {share:.0%} of cells (best score {scores.min():.1f}, limit {limit:g})"
            + ("" if possible else ", a board no game shows")
        )
        if share >= LINE_SHARE and possible and (best is None or scores.mean() < best[0]):
            best = (float(scores.mean()), geo, codes, scores)
    return None if best is None else best[1:]


def _possible(codes: np.ndarray) -> bool:
    """Whether a pack's reading of a board found by its lattice is one a game can show: some cell
    hidden or a mine (_shown), and no 0 beside a covered cell. A pack whose empty cell is near
    another look's covered one (winxp's, scaled 3x, and xbomb's dither, blurred) reads a whole
    foreign board as 0s."""
    return _shown(codes) and not zeros_beside_covered(codes).any()


def _shown(codes: np.ndarray) -> bool:
    """Whether some cell is hidden or a mine: every board has a mine somewhere."""
    return bool(np.isin(codes, (*HIDDEN, MINE, EXPLODED)).any())


def _locate_by_colour(
    image: np.ndarray, packs: list[SkinPack]
) -> tuple[Geometry, np.ndarray, np.ndarray]:
    """Locate by the packs' flat tile colours (see the module's docstring)."""
    grown: list[Geometry] = []
    checked = [
        (cand, *_verified(image, cand, classifier_for(cand.pack)))
        for cand in _candidates(image, packs)
    ]
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
            cand.pack.name,
            int(ky.max()) + 1,
            int(kx.max()) + 1,
            (round(x0, 2), round(y0, 2)),
            (round(pitch_x, 3), round(pitch_y, 3)),
            cand.pack.cell_px * cand.scale,
            cand.scale,
        )
        grown.append(_grow(image, geo, classifier))
    # no game's board is a line of cells
    grown = [g for g in grown if g.rows >= MIN_CELLS and g.cols >= MIN_CELLS]
    if not grown:
        names = ", ".join(p.name for p in packs)
        tried = [
            f"{cand.pack.name}@{cand.scale:g}x: {len(anchors)} of {len(cand.corners)} (best score {best:.1f}, "
            f"limit {classifier_for(cand.pack).limit(cand.scale):g})"
            for cand, anchors, best in checked
        ]
        detail = "; ".join(tried) or "no cell-coloured blobs at all"
        raise NoBoardFound(
            f"no Minesweeper board found; {UNCOVER}",
            detail=f"skins tried: {names}; cell-coloured blobs that match their tile: {detail}",
        )
    # the biggest board, and of those the one whose cells match best
    biggest = max(g.rows * g.cols for g in grown)
    ranked = []
    for geo in (g for g in grown if g.rows * g.cols == biggest):
        pack = pack_named(packs, geo.skin)
        # measure where its columns and rows really are, and read them there
        if laid_in_whole_pixels(pack, geo):
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
    inside = (
        (np.round(col) >= 0)
        & (np.round(col) < geo.cols)
        & (np.round(row) >= 0)
        & (np.round(row) < geo.rows)
    )
    return bool((on_grid & inside).all())
