"""A pack placed on a board's lattice: where its tiles line up with the cells (see locate.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bot.vision.geometry import Geometry
from bot.vision.looks import MOVED
from bot.vision.pack import SkinPack
from bot.vision.tiles import classifier_for, look_distances
from bot.vocabulary import Cell

LINE_UP_KEEP = 4  # offsets of a pack on a lattice kept from the first, rough comparison
COARSE_KEEP = 2  # offsets a step apart round which every offset is tried (see line_up)
# added to a cell's score where a learnt pack keeps a new board and the cell is not as it showed
# there: lining up, cells as on the new board count first, how near a look the others are next
OFF_NEW_BOARD = 1000.0


def line_up(
    image: np.ndarray, grid: Geometry, pack: SkinPack, scale: float
) -> tuple[Geometry | None, float]:
    """The pack's geometry on a lattice: its tiles centred on the lattice's cells, then moved by
    the offset (within a tenth of a pitch, at least 3 px) at which cells spread over it match best;
    None where the pack's tiles match too few of them at any offset to read the board. With it: the
    best score of any cell sampled. A learnt pack that keeps a new board of this size is lined up
    where most cells look as they did on it: a covered picture cut from an edge cell or another
    row (whole pixels at a fractional pitch) may match most cells as well a pixel off."""
    # its looks were cut around the lattice's centres: from there, whole pixels either way
    if pack.learnt:
        geo = replace(grid, skin=pack.name, scale=scale)
    else:  # whole pixels to start from, so that the offsets below reach every pixel (round() sends .5 to even)
        size = pack.cell_px * scale
        (cx, cy) = grid.centre((0, 0))
        origin = (float(np.floor(cx - size / 2 + 0.5)), float(np.floor(cy - size / 2 + 0.5)))
        geo = Geometry(pack.name, grid.rows, grid.cols, origin, grid.pitch, size, scale)
    reach = max(3, round(0.1 * min(grid.pitch)))
    # offsets a step apart on a few cells, then every offset round the best of them, then the best
    # few on more cells: the same choice at a fraction of the work
    cells, step = _spread(grid, 3, 4), _step(pack, scale)
    offsets = _square(reach, step)
    rough = _offset_scores(image, geo, pack, offsets, cells)
    if step > 1:  # the offsets nearer the best of them than any other tried
        best = [offsets[i] for i in np.argsort(rough.mean(axis=1), kind="stable")[:COARSE_KEEP]]
        near = {(x + dx, y + dy) for x, y in best for dx, dy in _square(step // 2, 1)} - set(
            offsets
        )
        more = sorted(near, key=lambda o: (o[1], o[0]))
        offsets, rough = (
            offsets + more,
            np.vstack([rough, _offset_scores(image, geo, pack, more, cells)]),
        )
    if not pack.learnt and ((rough < classifier_for(pack).limit(scale)).mean(axis=1) < 0.5).all():
        # at no offset do even half of them match: it cannot read LINE_SHARE of the cells
        return None, float(rough.min())
    offsets = [offsets[i] for i in np.argsort(rough.mean(axis=1), kind="stable")[:LINE_UP_KEEP]]
    fine = _offset_scores(image, geo, pack, offsets, _spread(grid, 6, 8)).mean(axis=1)
    return geo.moved(*offsets[int(np.argmin(fine))]), float(rough.min())


def _step(pack: SkinPack, scale: float) -> int:
    """How far apart (screen px) the first offsets tried may be: a quarter of the width over which a
    shipped pack's comparison blurs a cell (its blur box, in the pixels it compares at: gnome-mines'
    42 px tiles are compared at 21; times the tile pixels per compared pixel and the scale). A cell
    compared blurred scores about the same a pixel or two off; one compared at 1x, or by a learnt
    pack's looks, does not."""
    if pack.learnt or scale == 1:
        return 1
    classifier = classifier_for(pack)
    return max(1, round(classifier.box * pack.cell_px / classifier.size * scale / 4))


def _square(reach: int, step: int) -> list[tuple[int, int]]:
    """The offsets (dx, dy) within ``reach`` px either way whose parts are multiples of ``step``."""
    ticks = range(-(reach // step) * step, reach + 1, step)
    return [(dx, dy) for dy in ticks for dx in ticks]


def _spread(grid: Geometry, rows: int, cols: int) -> list[Cell]:
    """About rows x cols cells spread evenly over the board, its corners among them."""
    rs = np.unique(np.linspace(0, grid.rows - 1, rows).round().astype(int))
    cs = np.unique(np.linspace(0, grid.cols - 1, cols).round().astype(int))
    return [(int(r), int(c)) for r in rs for c in cs]


def _offset_scores(
    image: np.ndarray,
    geo: Geometry,
    pack: SkinPack,
    offsets: list[tuple[int, int]],
    cells: list[Cell],
) -> np.ndarray:
    """How well ``cells`` match the pack with the board moved by each offset: len(offsets) x
    len(cells) scores."""
    # each offset's cells against the looks, as the pack will read them (see OFF_NEW_BOARD)
    if pack.learnt:
        scores = []
        for dx, dy in offsets:
            d = look_distances(image, geo.moved(dx, dy), pack, cells)
            # a new board of this size, and not as there
            off = np.isfinite(d[:, -1]) & ~(d[:, -1] < MOVED)
            scores.append(d.min(axis=1) + OFF_NEW_BOARD * off)
        return np.array(scores)
    (ox, oy), (px, py), n = geo.origin, geo.pitch, round(geo.cell_px)
    # geo.moved(dx, dy).box(r, c), without building a geometry per offset
    boxes = [
        (round(ox + dx + c * px), round(oy + dy + r * py), n, n)
        for dx, dy in offsets
        for r, c in cells
    ]
    return classifier_for(pack).match_exact(image, boxes)[1].reshape(len(offsets), len(cells))
