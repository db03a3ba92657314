"""Finding a board with no skin pack: by its lattice of equal cells.

Every Minesweeper draws its cells on a regular lattice, whatever its colours, bevels, gradients
or checkerboard shades, and every cell's inside is bounded by edges: a step in colour between
neighbouring pixels where the cell ends (a grid line, a bevel, a gap, the other shade of a
checkerboard). So the insides of the cells are regions with no edge in them, of a few sizes (one
per look: a covered cell's inside is smaller than a revealed one's), repeating at the pitch.

1. Edges: a pixel is on an edge where its colour differs from its right or lower neighbour by
   more than EDGE_STEP in some channel (Google's two greens differ by 8).
2. Insides: connected regions with no edge pixel, nearly square, MIN_INSIDE to MAX_CELL pixels a side, filling at least
   FILL of their bounding box (a digit, a flag or a mine inside a cell cuts holes in it, not its box).
   The same once more with a pixel taken off all round every region: a gap between rows drawn in
   the cells' own colour (a web page at 2x) joins a row of revealed cells into one region, and
   that cut parts them. (Only both together: the cut alone splits cells whose digit nearly
   touches their border.)
3. A lattice: insides of one size; the usual spacing of nearest neighbours along rows and columns
   is the pitch, and a least-squares fit gives it exactly (fractional where the game lays cells out
   in whole pixels) with each inside's lattice index. Insides linked by steps of at most two cells
   form one board; of all sizes, the one whose board has the most insides leads.
4. The other looks: insides of other sizes that sit inside the leading lattice's cells join it,
   as long as all the insides together still fit in one pitch, and they touch the board. Every
   inside is at least MIN_SHARE of the pitch a side: the lights of a seven-segment counter above
   the board fit inside a cell too, but are far smaller than any cell's inside.
5. The board is the box of lattice indices its insides cover; each cell is the pitch-sized box
   centred on where the insides of all its looks lie.
6. Where nothing is found, all of it once more on the image averaged over 2x2 blocks (dithered cells).

Nothing here knows a skin: the geometry it returns has no skin name and scale 1.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from bot.errors import NoBoardFound
from bot.vision.geometry import Geometry, fit_lattice, grow
from bot.vocabulary import Cell

EDGE_STEP = 5  # colour levels: a larger step between neighbouring pixels is an edge
MIN_INSIDE = 3  # px: the smallest inside of a cell looked for (8 px cells with a bevel), less a pixel all round
MIN_SHARE = 0.4  # an inside spans at least this share of the pitch each way (minegauler's covered cells: 0.44)
MAX_CELL = 160  # px: the largest cell looked for
FILL = 0.4  # an inside fills at least this share of its bounding box
SQUARE = 0.25  # an inside's sides differ by at most this share of the longer (+1 px)
MIN_CELLS = 4  # a board is at least this many rows and columns
MIN_CELL_PX = 8  # px: the smallest cell looked for
MIN_INSIDES = 8  # insides of one size needed to start a lattice
MAX_GROUP = 3000  # larger groups of one size are texture (text, a patterned background), not cells
SAME_SIZE = 0.05  # insides of one look differ in size by at most 1 px + this share
OFF_LATTICE = 0.08  # an inside further than this share of the pitch (+1 px) from its lattice point is not on it
WHOLE = 0.85  # a board on which at least this share of cells showed an inside is whole (not partly hidden)
PARTED = 0.8  # a line joins the board when this share of its cells' borders show an edge along this share
LINK = 2  # insides at most this many cells apart in both directions belong to one board


@dataclass(frozen=True)
class Insides:
    """The edge-free regions of an image that could be the insides of cells: (N, 4) x, y, w, h."""

    boxes: np.ndarray


@dataclass(frozen=True)
class Edges:
    """uint8 maps of the image's size, 1 where a pixel's colour differs by more than EDGE_STEP from
    its right neighbour (``across``: edges that run up and down) or its lower one (``down``)."""

    across: np.ndarray
    down: np.ndarray
    any: np.ndarray  # either


def edges(image: np.ndarray) -> Edges:
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    h, w = image.shape[:2]
    across, down = np.zeros((h, w), dtype=np.uint8), np.zeros((h, w), dtype=np.uint8)
    for diff, target in (
        (cv2.absdiff(image[:, 1:], image[:, :-1]), across[:, :-1]),
        (cv2.absdiff(image[1:], image[:-1]), down[:-1]),
    ):
        _, steps = cv2.threshold(diff.reshape(diff.shape[0], -1), EDGE_STEP, 1, cv2.THRESH_BINARY)
        steps = steps.reshape(diff.shape)
        np.maximum(np.maximum(steps[..., 0], steps[..., 1]), steps[..., 2], out=target)
    return Edges(across, down, across | down)


def insides(edge: Edges) -> Insides:
    """The regions with no edge in them that are shaped like the inside of a cell."""
    free = 1 - edge.any
    cut = cv2.erode(free, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
    stats = np.concatenate(
        [cv2.connectedComponentsWithStats(f, connectivity=4)[2][1:] for f in (free, cut)]
    )
    x, y, w, h, area = stats.T
    longer, shorter = np.maximum(w, h), np.minimum(w, h)
    keep = (
        (shorter >= MIN_INSIDE) & (longer <= MAX_CELL) & (longer - shorter <= SQUARE * longer + 1)
    )
    keep &= area >= FILL * w * h
    return Insides(stats[keep, :4].astype(np.int64))


def _size_groups(boxes: np.ndarray) -> list[np.ndarray]:
    """Indices of the insides of each size, sizes within 1 px (+SAME_SIZE) of the commonest one joined."""
    sizes, inverse, counts = np.unique(
        boxes[:, 2:4], axis=0, return_inverse=True, return_counts=True
    )
    inverse = inverse.reshape(-1)
    seeds: list[tuple[int, int]] = []
    seed_of = np.empty(len(sizes), dtype=np.int64)
    for i in np.argsort(-counts, kind="stable"):
        w, h = (int(v) for v in sizes[i])
        for s, (sw, sh) in enumerate(seeds):
            if abs(w - sw) <= 1 + SAME_SIZE * sw and abs(h - sh) <= 1 + SAME_SIZE * sh:
                seed_of[i] = s
                break
        else:
            seed_of[i] = len(seeds)
            seeds.append((w, h))
    return [np.flatnonzero(seed_of[inverse] == s) for s in range(len(seeds))]


def _spacing(
    along: np.ndarray, across: np.ndarray, size: float, across_size: float
) -> float | None:
    """The usual distance from an inside to the next one in its line (the pitch), or None."""
    d = along[None, :] - along[:, None]
    same_line = np.abs(across[None, :] - across[:, None]) <= max(1.0, across_size / 4)
    d = np.where(same_line & (d > size), d, np.inf)
    nearest = d.min(axis=1)
    nearest = nearest[np.isfinite(nearest)]
    if len(nearest) < 3:
        return None
    values, counts = np.unique(nearest, return_counts=True)
    support = np.array([counts[np.abs(values - v) <= 1].sum() for v in values])
    mode = values[np.argmax(support)]
    return float(nearest[np.abs(nearest - mode) <= 1].mean())


@dataclass(frozen=True)
class _Lattice:
    x0: float
    y0: float
    px: float
    py: float
    kx: np.ndarray  # lattice index of each member inside
    ky: np.ndarray
    members: np.ndarray  # indices into the insides


def _lattices(boxes: np.ndarray, group: np.ndarray) -> list[_Lattice]:
    """The lattices through one size's insides: one per set of insides linked by lattice steps."""
    b = boxes[group].astype(float)
    w, h = float(np.median(b[:, 2])), float(np.median(b[:, 3]))
    px = _spacing(b[:, 0], b[:, 1], w, h)
    py = _spacing(b[:, 1], b[:, 0], h, w)
    if px is None or py is None or w < MIN_SHARE * px or h < MIN_SHARE * py:
        return []
    found = []
    for linked in _linked_sets(b[:, 0], b[:, 1], px, py):
        lattice = _fit(b[linked], group[linked], px, py)
        if lattice is not None and lattice.px > w and lattice.py > h:
            found.append(lattice)
    return found


def _linked_sets(x: np.ndarray, y: np.ndarray, px: float, py: float) -> list[np.ndarray]:
    """Sets of at least MIN_INSIDES positions, linked by steps of at most about LINK cells: the
    positions are drawn on a canvas of half-cell pixels, grown by LINK / 2 cells, and its connected
    parts are the sets. (Which of them lie on one lattice is the fit's business.)"""
    step = max(1.0, min(px, py) / 2)
    gx, gy = (x / step).astype(np.int64), (y / step).astype(np.int64)
    canvas = np.zeros((int(gy.max()) + 1, int(gx.max()) + 1), dtype=np.uint8)
    canvas[gy, gx] = 1
    reach = LINK  # half-cells each way from both ends: LINK cells between them
    grown = cv2.dilate(canvas, np.ones((2 * reach + 1, 2 * reach + 1), dtype=np.uint8))
    _, labels = cv2.connectedComponents(grown, connectivity=8)
    label = labels[gy, gx]
    sets = [np.flatnonzero(label == v) for v in np.unique(label)]
    return [m for m in sets if len(m) >= MIN_INSIDES]


def _fit(b: np.ndarray, members: np.ndarray, px: float, py: float) -> _Lattice | None:
    """Least-squares lattice through linked insides (boxes ``b``), dropping any left off it."""
    keep = np.ones(len(b), dtype=bool)
    for _ in range(3):  # fit, drop what is off the lattice, fit again
        if keep.sum() < MIN_INSIDES:
            return None
        x0, px, _ = fit_lattice(b[keep, 0], px)
        y0, py, _ = fit_lattice(b[keep, 1], py)
        off_x = np.abs(b[:, 0] - x0 - np.round((b[:, 0] - x0) / px) * px)
        off_y = np.abs(b[:, 1] - y0 - np.round((b[:, 1] - y0) / py) * py)
        on = (off_x <= OFF_LATTICE * px + 1) & (off_y <= OFF_LATTICE * py + 1)
        if (on == keep).all():
            break
        keep = on
    kx = np.round((b[keep, 0] - x0) / px).astype(np.int64)
    ky = np.round((b[keep, 1] - y0) / py).astype(np.int64)
    return _Lattice(x0, y0, px, py, kx, ky, members[keep])


@dataclass(frozen=True)
class Grid:
    """A board found by its lattice: where its cells are, and the share of them bordered where the
    lattice says (at least three of four borders; see bordered)."""

    geometry: Geometry
    filled: float


def _join_looks(boxes: np.ndarray, lattice: _Lattice, groups: list[np.ndarray]) -> Grid:
    """Add the insides of the board's other looks; the board they make together.

    A look (a size of inside) joins when most of its insides that fall in the lattice's cells sit
    at one place in their cell: then each of those may extend the board by a line, a line at a time.
    Insides of a size seen once or twice (a face, a lone exploded mine) only count inside the board.
    """
    lead = boxes[lattice.members].astype(float)
    pitch = np.array([lattice.px, lattice.py])
    start = np.array([lattice.x0, lattice.y0])
    lead_size = np.median(lead[:, 2:4], axis=0)
    # where insides lie in their cell, relative to the leading look's inside: [lo, hi) each way
    lo, hi = np.zeros(2), lead_size.copy()
    k_min = np.array([lattice.kx.min(), lattice.ky.min()])
    k_max = np.array([lattice.kx.max(), lattice.ky.max()])
    cells = set(zip(lattice.kx.tolist(), lattice.ky.tolist(), strict=True))
    leading = set(lattice.members.tolist())
    looks: list[tuple[np.ndarray, np.ndarray]] = []  # (cell index, inside) of each look's members
    strays: list[np.ndarray] = []
    for group in groups:
        b = boxes[group].astype(float)
        k = np.round((b[:, :2] + b[:, 2:4] / 2 - start - lead_size / 2) / pitch)
        offset = b[:, :2] - start - k * pitch
        fits = ((np.maximum(hi, offset + b[:, 2:4]) - np.minimum(lo, offset)) <= pitch + 1).all(
            axis=1
        )
        fits &= (b[:, 2:4] >= MIN_SHARE * pitch).all(axis=1)
        fits &= np.array([int(i) not in leading for i in group])
        if not fits.any():
            continue
        where = np.round(offset[fits])
        keys, counts = np.unique(where, axis=0, return_counts=True)
        usual = keys[np.argmax(counts)]
        at_usual = (np.abs(where - usual) <= 1).all(axis=1)
        members = np.flatnonzero(fits)[at_usual]
        if at_usual.sum() >= 3 and at_usual.mean() >= 0.5:
            looks.append((k[members], b[members]))
            lo, hi = (
                np.minimum(lo, offset[members].min(axis=0)),
                np.maximum(hi, (offset[members] + b[members, 2:4]).max(axis=0)),
            )
        else:
            strays.append(k[members])
    grew = True
    while grew:
        grew = False
        for ks, _ in looks:
            near = ((ks >= k_min - 1) & (ks <= k_max + 1)).all(axis=1)
            if near.any():
                new_min, new_max = (
                    np.minimum(k_min, ks[near].min(axis=0)),
                    np.maximum(k_max, ks[near].max(axis=0)),
                )
                grew |= bool((new_min != k_min).any() or (new_max != k_max).any())
                k_min, k_max = new_min, new_max
    for ks in [ks for ks, _ in looks] + strays:
        inside = ((ks >= k_min) & (ks <= k_max)).all(axis=1)
        cells.update((int(kx), int(ky)) for kx, ky in ks[inside])
    cols, rows = (int(v) for v in k_max - k_min + 1)
    slack = pitch - (hi - lo)
    origin = start + k_min * pitch + lo - slack / 2
    geometry = Geometry(
        "",
        rows,
        cols,
        (round(float(origin[0]), 2), round(float(origin[1]), 2)),
        (round(lattice.px, 3), round(lattice.py, 3)),
        float(min(pitch)),
        1.0,
    )
    return Grid(geometry, len(cells) / (rows * cols))  # filled for now: see find_grids


def _grow(edge: Edges, grid: Grid) -> Grid:
    """Add the lines beside the board whose cells are bordered where the lattice says (cells that
    showed no inside: Wine draws no line above or left of its first row and column, so those
    revealed cells are one region with the black around the board)."""
    height, width = edge.any.shape

    def belongs(trial: Geometry, line: list[Cell], _: list[Cell]) -> bool:
        (r, c), (r2, c2) = line[0], line[-1]
        part = trial.part(r, c, r2 - r + 1, c2 - c + 1)
        x, y, w, h = part.region()
        if x < 0 or y < 0 or x + w > width or y + h > height:  # off the screen
            return False
        return bool((bordered(edge, part) >= 3).mean() >= PARTED)

    return replace(grid, geometry=grow(grid.geometry, belongs))


def bordered(edge: Edges, geo: Geometry) -> np.ndarray:
    """For each cell, how many of its four borders (the lines halfway between its centre and its
    neighbours') show an edge within a sixth of a pitch, along at least PARTED of their middle part
    (one-pixel gaps closed)."""
    counts = np.zeros((geo.rows, geo.cols), dtype=np.int64)
    first = geo.centre((0, 0))
    for axis, edges_map in ((0, edge.across), (1, edge.down)):
        n_lines, n_cells = (geo.cols, geo.rows) if axis == 0 else (geo.rows, geo.cols)
        pitch, other = geo.pitch[axis], geo.pitch[1 - axis]
        size = edges_map.shape[1 - axis]
        reach = round(pitch / 6)
        # the middle part of each cell's border, along the other axis
        mids = first[1 - axis] + np.arange(n_cells) * other
        starts = np.clip(np.round(mids - 0.3 * other).astype(np.int64), 0, edges_map.shape[axis])
        ends = np.clip(np.round(mids + 0.3 * other).astype(np.int64), 0, edges_map.shape[axis])
        span = slice(int(starts.min()), int(max(ends.max(), starts.min() + 1)))
        seen = np.zeros((n_lines + 1, n_cells), dtype=bool)
        for i in range(n_lines + 1):
            at = round(first[axis] + (i - 0.5) * pitch)
            lo, hi = max(at - reach, 0), min(at + reach + 1, size)
            if lo >= hi:
                continue
            band = edges_map[span, lo:hi] if axis == 0 else edges_map[lo:hi, span].T
            strip = np.asarray(band.any(axis=1))
            strip[1:-1] |= strip[:-2] & strip[2:]  # a dotted line (Wine's revealed cells) is a line
            total = np.concatenate([[0], np.cumsum(strip)])
            a, b = starts - span.start, ends - span.start
            share = (total[b] - total[a]) / np.maximum(b - a, 1)
            seen[i] = (b > a) & (share >= PARTED)
        both = seen[:-1].astype(np.int64) + seen[1:]
        counts += both.T if axis == 0 else both
    return counts


def find_grids(image: np.ndarray) -> list[Grid]:
    """Every board-like lattice in the image, best first: the boards nearly all of whose cells are
    bordered where the lattice says (at least WHOLE of them: a board partly hidden behind another
    window has a hole), then the most cells. Where the image shows none, it is looked at again with
    each pixel the mean of a 2x2 block: a one-pixel dither (xbomb's covered cells) is an edge at
    every pixel, and flat once averaged; grid lines stay edges."""
    boards = _boards(image)
    return boards if boards else _boards(cv2.blur(image, (2, 2)))


def _boards(image: np.ndarray) -> list[Grid]:
    edge = edges(image)
    boxes = insides(edge).boxes
    groups = [g for g in _size_groups(boxes) if MIN_INSIDES <= len(g) <= MAX_GROUP]
    lattices = [lat for g in groups for lat in _lattices(boxes, g)]
    lattices.sort(key=lambda lat: -len(lat.members))
    boards: list[Grid] = []
    for lattice in lattices:
        geo = _grow(edge, _join_looks(boxes, lattice, groups)).geometry
        if geo.rows < MIN_CELLS or geo.cols < MIN_CELLS:
            continue
        grid = Grid(geo, float((bordered(edge, geo) >= 3).mean()))
        if any(same_board(geo, other.geometry) for other in boards):
            continue  # another look of a board already found
        boards.append(grid)
    boards.sort(key=lambda g: (g.filled < WHOLE, -g.geometry.rows * g.geometry.cols))
    return boards


def overlap(a: Geometry, b: Geometry) -> bool:
    """Whether two lattices' boards overlap."""
    ax, ay, aw, ah = a.region()
    bx, by, bw, bh = b.region()
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def same_pitch(a: Geometry, b: Geometry) -> bool:
    """Whether two lattices' cells lie as far apart (within 2% of ``a``'s pitch) both ways."""
    return all(abs(a.pitch[axis] - b.pitch[axis]) <= 0.02 * a.pitch[axis] for axis in (0, 1))


def same_board(a: Geometry, b: Geometry) -> bool:
    """Whether two lattices are one board's: they overlap, with the same pitch and cells in the same places."""
    phases = [((a.origin[axis] - b.origin[axis]) / a.pitch[axis], a.pitch[axis]) for axis in (0, 1)]
    return (
        overlap(a, b)
        and same_pitch(a, b)
        and all(abs(p - round(p)) * pa <= 0.2 * pa for p, pa in phases)
    )


def find_grid(image: np.ndarray) -> Geometry:
    """The best board-like lattice in the image (see find_grids), with no skin named."""
    boards = find_grids(image)
    if not boards:
        raise NoBoardFound(
            "no Minesweeper board found: no lattice of at least "
            f"{MIN_CELLS}x{MIN_CELLS} equal cells in the screenshot; make the whole game visible and not covered"
        )
    return boards[0].geometry


NOTHING_THERE = "no board shows where it was"


def lattice_moved(image: np.ndarray, geo: Geometry) -> str | None:
    """How the board shows in ``image``, in words, where the lattices that overlap ``geo``'s board say
    it is not where it was (another pitch, or cells elsewhere); NOTHING_THERE where none overlaps it;
    None where one shows it, or a part of it, where it was. One of the board's rows and columns decides;
    else a part of it where it was wins over a lattice drawn across it (kmines' won banner, docs/vision)."""
    said = NOTHING_THERE
    overlapping = [b for b in (board.geometry for board in find_grids(image)) if overlap(geo, b)]
    whole = [b for b in overlapping if (b.rows, b.cols) == (geo.rows, geo.cols)]
    for b in whole[:1] or overlapping:
        if not same_pitch(geo, b):
            words = f"its cells are {b.pitch[0]:g}x{b.pitch[1]:g} px apart now, not {geo.pitch[0]:g}x{geo.pitch[1]:g}"
        else:
            steps = [(b.origin[axis] - geo.origin[axis]) / geo.pitch[axis] for axis in (0, 1)]
            # a part of the board (the rest hidden) lies on its lattice
            if (b.rows, b.cols) != (
                geo.rows,
                geo.cols,
            ):
                steps = [s - round(s) for s in steps]
            if all(
                abs(s) * geo.pitch[axis] <= max(2.5, 0.2 * geo.pitch[axis])
                for axis, s in enumerate(steps)
            ):
                return None
            dx, dy = (round(b.origin[axis] - geo.origin[axis]) for axis in (0, 1))
            words = (
                f"its cells show about {dx:+d} px across and {dy:+d} px down from where they were"
            )
        said = words if said == NOTHING_THERE else said
    return said
