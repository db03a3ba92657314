"""Cells against a skin pack's tiles: how a cell picture is compared with each tile (at any scale),
and every cell of a board read with a pack (a shipped pack by its tiles, a learnt one by its looks)."""

from __future__ import annotations

from functools import cached_property
from weakref import WeakKeyDictionary

import cv2
import numpy as np

from bot.board import neighbour_sum
from bot.vision.geometry import Geometry
from bot.vision.looks import LOOK_LIMIT, MOVED, LookBook
from bot.vision.pack import SkinPack
from bot.vocabulary import COVERED, Cell

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
# Where the cell size follows the window, gnome-mines places its cells in whole pixels, and a fitted
# grid can be a pixel off at some columns or rows (its flags at 0.71x scored 25-34 on the grid, 10
# off it). A located board measures each column's and row's offset once (_snap); before that, while
# the board is being found, a cell scoring above SHIFT_ABOVE is also tried one pixel off each way.
SHIFT_ABOVE = 12.0
SHIFTS = (-1, 0, 1)
ROUNDING = 1.0  # RMS levels a distance worked out in float32 may be off by (up to ~0.15, near 0)
# A screenshot as a user saved it (JPEG, scaled in an editor: see bot/vision/saved.py) is read by a
# pack marked lossy: each cell, blurred like the tiles, is the tile it is nearest, if it lies nearer
# that tile than any tile of another value by LOSSY_MARGIN of the way between the two (compression
# noise adds about as much to both distances, so the margin tells a flag from a covered cell where
# a limit on the distance alone cannot: JPEG at quality 80 puts winemine's cells up to 23 levels
# from their tiles, its flag and covered tiles 17 apart), and within LOSSY_RMS of it: what keeps a
# board from growing over its frame, whose cells are clearly nearest the covered tile but 25
# (winemine), 28 (classic98), 30 (winxp), 42 (minegauler) levels from it, blurred, in JPEG at 80-90.
LOSSY_MARGIN = 0.15
LOSSY_RMS = 24.0
# Colour levels: a flat tile's middle (covered, empty) stays this near its colour in JPEG at 80 and
# scaled; a grey box of 200 over classic98's board at a browser's 1.25x was its empty cells (192).
LOSSY_GAP = 7.0
# a pitch this near a whole number of pixels is one (a fitted pitch is a little off)
WHOLE_PX = 0.02


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
        images = [
            cv2.resize(t.image, (self.size, self.size), interpolation=cv2.INTER_AREA)
            if self.size != pack.cell_px
            else t.image
            for t in pack.tiles
        ]
        self.tiles = np.stack([i.reshape(-1) for i in images]).astype(np.float32)
        self.blurred = np.stack([self._blur(i).reshape(-1) for i in images]).astype(np.float32)
        self.norms = (self.tiles * self.tiles).sum(axis=1)
        self.blurred_norms = (self.blurred * self.blurred).sum(axis=1)
        self.middles = self._middles(self.tiles)
        self.flat = self.tiles.std(axis=1) < FLAT_STD
        self.codes = pack.codes()
        self.tolerance = pack.tolerance
        self.lossy = pack.lossy
        self._trips: dict[
            float, tuple[np.ndarray, np.ndarray]
        ] = {}  # scale: tiles as _tripped makes them

    def limit(self, scale: float) -> float:
        """The score below which a cell at this scale matches."""
        return (
            MATCH_LIMIT_1X
            if scale == 1 and not self.any_scale and not self.lossy
            else self.tolerance
        )

    def match(
        self,
        image: np.ndarray,
        boxes: list[tuple[int, int, int, int]],
        snapped: bool = False,
        whole_pixels: bool = False,
    ) -> tuple[np.ndarray, np.ndarray]:
        """For each box (x, y, w, h): the index of the nearest tile and its score. ``snapped``: the
        boxes were measured on the screen (see _snap), so only cells that match nothing are tried
        off them; ``whole_pixels``: the boxes lie on a lattice of a fractional pitch, which the game
        lays out in whole pixels (laid_in_whole_pixels)."""
        best, score = self.match_exact(image, boxes)
        # games that lay cells out in whole pixels stray from the fitted grid
        if self.any_scale or whole_pixels:
            above = self.tolerance if snapped else SHIFT_ABOVE
            # near misses only
            near = np.flatnonzero((score > above) & (score < 2 * self.tolerance))
            if len(near):
                shifted = [
                    (x + dx, y + dy, w, h)
                    for x, y, w, h in (boxes[i] for i in near)
                    for dy in SHIFTS
                    for dx in SHIFTS
                ]
                again, scores = (a.reshape(len(near), -1) for a in self.match_exact(image, shifted))
                j = np.argmin(scores, axis=1)  # the unshifted box is among them
                best[near], score[near] = (
                    again[np.arange(len(near)), j],
                    scores[np.arange(len(near)), j],
                )
        return best, score

    def match_exact(
        self, image: np.ndarray, boxes: list[tuple[int, int, int, int]]
    ) -> tuple[np.ndarray, np.ndarray]:
        """For each box: the index of the nearest tile and its score, each box where it is. Boxes of
        another size than the tiles are resized to them and compared blurred: with the tiles as a
        browser draws them at that size (see _tripped), for a pack of fixed scales."""
        n = self.size
        scaled = self.any_scale or self.lossy or any(w != n for _, _, w, _ in boxes)
        best, score = np.empty(len(boxes), dtype=np.intp), np.empty(len(boxes))
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
            crops = stack.reshape(len(where), -1).astype(np.float32)
            crops[off] = 1e4  # off the image: matches nothing
            if not scaled:
                tiles = self.tiles, self.norms
            elif w != n and not self.any_scale:
                tiles = self._tripped(w / n)
            else:
                tiles = self.blurred, self.blurred_norms
            best[where], score[where] = self._nearest(crops, *tiles)
        return best, score

    def _tripped(self, scale: float) -> tuple[np.ndarray, np.ndarray]:
        """The tiles, blurred, as a cell drawn at ``scale`` looks brought back to the pack's size: a
        browser enlarges a tile's picture smoothly (bilinear, at whole pixels: see locate._snap), the
        way back averages areas. Their squared norms with them."""
        key = round(scale, 3)
        if key not in self._trips:
            n = self.size
            trip = [
                cv2.resize(
                    cv2.resize(
                        t.reshape(n, n, 3).astype(np.uint8),
                        (0, 0),
                        fx=scale,
                        fy=scale,
                        interpolation=cv2.INTER_LINEAR,
                    ),
                    (n, n),
                    interpolation=cv2.INTER_AREA,
                )
                for t in self.tiles
            ]
            blurred = np.stack([self._blur(t).reshape(-1) for t in trip]).astype(np.float32)
            self._trips[key] = blurred, (blurred * blurred).sum(axis=1)
        return self._trips[key]

    def _nearest(
        self, crops: np.ndarray, tiles: np.ndarray, norms: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each crop's nearest tile and its score (see the class's docstring; a lossy pack's: _lossy_scores)."""
        middles = self._middles(crops)
        d2 = (crops * crops).sum(axis=1)[:, None] + norms[None, :] - 2 * crops @ tiles.T
        best = np.argmin(d2, axis=1)
        nearest = d2[np.arange(len(crops)), best]
        rms = np.sqrt(np.maximum(nearest, 0) / crops.shape[1])
        gap = np.abs(middles - self.middles[best]).max(axis=1)
        if self.lossy:  # a flat fill keeps its colour in JPEG and scaled, near enough (LOSSY_GAP)
            score = self._lossy_scores(d2, best, nearest, rms)
            return best, np.where(
                self.flat[best] & (gap > LOSSY_GAP), np.maximum(score, self.tolerance + gap), score
            )
        return best, np.where(self.flat[best], np.maximum(rms, 8 * gap), rms)

    @cached_property
    def _between(self) -> np.ndarray:
        """Squared distances between the blurred tiles, the yardstick of a lossy cell's margin (worked out
        for lossy packs only)."""
        return np.maximum(
            self.blurred_norms[:, None]
            + self.blurred_norms[None, :]
            - 2 * self.blurred @ self.blurred.T,
            1.0,
        )

    def _lossy_scores(
        self, d2: np.ndarray, best: np.ndarray, nearest: np.ndarray, rms: np.ndarray
    ) -> np.ndarray:
        """Scores on the tolerance's scale for a lossy pack (see LOSSY_MARGIN): below it where the
        cell lies nearer its tile than every tile of another value by more than the margin, 0 where
        it is its tile; above it, whatever the pack's tolerance, past LOSSY_RMS."""
        # 0: halfway to that tile, 1: on its own
        margin = (d2 - nearest[:, None]) / self._between[best]
        other_value = self.codes[best][:, None] != self.codes[None, :]
        margin = np.where(other_value, margin, np.inf).min(axis=1)
        score = self.tolerance * (1 - np.minimum(margin, 1)) / (1 - LOSSY_MARGIN)
        return np.where(rms > LOSSY_RMS, np.maximum(score, self.tolerance + rms), score)

    def _middles(self, flat: np.ndarray) -> np.ndarray:
        """Mean colour of the middle third of each picture (rows of n*n*3 values)."""
        n, third = self.size, self.size // 3
        return flat.reshape(len(flat), n, n, 3)[:, third : n - third, third : n - third].mean(
            axis=(1, 2)
        )

    def read_line(
        self, image: np.ndarray, geometry: Geometry, cells: list[Cell]
    ) -> np.ndarray | None:
        """The codes of a line of cells, or None when too few of them match a tile."""
        best, score = self.match(
            image, [geometry.box(r, c) for r, c in cells], whole_pixels=fractional(geometry)
        )
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


def fractional(geometry: Geometry) -> bool:
    """Whether a board's cells lie a fraction of a pixel apart (16x17 px cells at 1.5: 25.5 px)."""
    return any(abs(p - round(p)) > WHOLE_PX for p in geometry.pitch)


def _resized(stack: np.ndarray, n: int) -> np.ndarray:
    """Each of a stack of pictures resized to n x n (area averaging). Shrinking, the stack is
    resized as one tall picture: its pictures' edges fall on output rows' edges, so none bleeds
    into the next. Enlarging interpolates across those edges, so pictures go one by one."""
    count, h, w, _ = stack.shape
    if h < n:
        return np.stack([cv2.resize(p, (n, n), interpolation=cv2.INTER_AREA) for p in stack])
    tall = cv2.resize(stack.reshape(count * h, w, 3), (n, count * n), interpolation=cv2.INTER_AREA)
    return tall.reshape(count, n, n, 3)


_CLASSIFIERS: WeakKeyDictionary[SkinPack, Classifier] = WeakKeyDictionary()


def classifier_for(pack: SkinPack) -> Classifier:
    if pack not in _CLASSIFIERS:
        _CLASSIFIERS[pack] = Classifier(pack)
    return _CLASSIFIERS[pack]


def read_cells(
    image: np.ndarray, geometry: Geometry, pack: SkinPack
) -> tuple[np.ndarray, np.ndarray]:
    """Codes and match scores (RMS levels) of every cell, as rows x cols arrays. A learnt pack is
    read as it was learnt: each cell is the look (tile) it is nearest, by bot/vision/looks.py."""
    if pack.learnt:
        book = _look_book(geometry, pack)
        pictures = book.board_pictures(image)
        plain, d = book.known_distances(pictures)
        as_new = _as_on_new_board(book, pack, pictures, plain)
        looks, rms = book.nearest_of(plain.copy(), lambda rest: d[rest], pictures)
        if as_new.any():
            looks[as_new], rms[as_new] = int(np.flatnonzero(pack.codes() == COVERED)[0]), 0.0
        codes = pack.codes()[np.maximum(looks, 0)]
        # a cell as like a look of another value as its own is not read (cells over a background
        # picture: kmines' empty cell may be nearer a covered cell elsewhere than its own look)
        d[pack.codes()[None, :] == codes[:, None]] = np.inf
        rival = np.flatnonzero((d.min(axis=1) < LOOK_LIMIT) & (looks >= 0) & ~as_new)
        if len(rival):
            alike = book.alike(rival, d[rival].argmin(axis=1), pictures, own=looks[rival])
            looks[rival[alike]] = -1
        rms[looks < 0] = np.inf  # like no look, or like two
        shape = (geometry.rows, geometry.cols)
        return codes.reshape(shape), rms.reshape(shape)
    classifier = classifier_for(pack)
    best, rms = classifier.match(image, geometry.boxes, snapped=bool(geometry.xs))
    shape = (geometry.rows, geometry.cols)
    return classifier.codes[best].reshape(shape), rms.reshape(shape)


def _as_on_new_board(
    book: LookBook, pack: SkinPack, pictures: np.ndarray, plain: np.ndarray
) -> np.ndarray:
    """The cells that look as they did on the learnt pack's new board of this size (covered ones:
    a cell drawn over a background picture looks different at each position); none where it has
    no such board. ``plain``: each cell's unshifted distances from the looks, which bound its
    distance from its new-board self from below (the same pixels, so the triangle inequality
    holds): only the cells the bound leaves in doubt are compared with the new board."""
    new = _new_board(book, pack)
    if new is None:
        return np.zeros(len(pictures), dtype=bool)
    cut, compared, looks_from = new
    same = (pictures == cut).all(axis=(1, 2, 3))
    with np.errstate(invalid="ignore"):
        far = np.abs(plain - looks_from).max(axis=1) >= MOVED + ROUNDING
    doubt = np.flatnonzero(~same & ~far)
    if len(doubt):
        with np.errstate(invalid="ignore"):
            same[doubt] = book.drift(book.compared(pictures[doubt]), compared[doubt]) < MOVED
    return same


_BOOKS: WeakKeyDictionary[SkinPack, dict[int, LookBook]] = WeakKeyDictionary()
_BOARDS: WeakKeyDictionary[
    SkinPack, dict[tuple[int, int, int], tuple[np.ndarray, np.ndarray, np.ndarray] | None]
] = WeakKeyDictionary()


def _new_board(book: LookBook, pack: SkinPack) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The learnt pack's new board of the book's size, each cell as cut, at the compared size (as
    ``book.crops`` gives them) and its unshifted distances from the looks; None where it has none.
    Worked out once per pack and size, not at every reading (1.9 ms for gnome-mines' 480 cells at 31 px)."""
    geo = book.geometry
    boards = _BOARDS.setdefault(pack, {})
    key = (book.cut, geo.rows, geo.cols)
    if key not in boards:
        board = pack.new_board(geo.rows, geo.cols)
        boards[key] = None
        if board is not None:
            cells = book.as_cut(board)
            compared = book.compared(cells)
            boards[key] = (cells, compared, book.distances(compared, shifts=False))
    return boards[key]


def _look_book(geometry: Geometry, pack: SkinPack) -> LookBook:
    """A learnt pack's looks, for cutting cells where ``geometry`` puts them as the learner cut them.
    One book per pack and cell size, so that a picture checked window by window against a look
    (looks.py) is checked once in a game, not at every reading."""
    book = LookBook(geometry)
    books = _BOOKS.setdefault(pack, {})
    if book.cut not in books:
        for tile in pack.tiles:
            book.add(tile.image)
        books[book.cut] = book
    return books[book.cut].placed(geometry)


def look_distances(
    image: np.ndarray, geometry: Geometry, pack: SkinPack, cells: list[Cell]
) -> np.ndarray:
    """How far each of ``cells`` is from each look of a learnt pack, unshifted, and last from its
    own picture on the pack's new board of this size (inf where it has none): len(cells) x
    (len(tiles) + 1); inf where a cell lies outside the image. (gnome-mines lays its cells out in
    whole pixels at a fractional pitch: its covered picture matched most cells exactly a pixel
    below where the new board, and the learner, had cut them.)"""
    book = _look_book(geometry, pack)
    try:
        crops = book.crops(image, cells)
    except ValueError:
        return np.full((len(cells), len(pack.tiles) + 1), np.inf, dtype=np.float32)
    new = _new_board(book, pack)
    own = np.full(len(cells), np.inf, dtype=np.float32)
    if new is not None:
        own = book.drift(crops, new[1][[r * geometry.cols + c for r, c in cells]])
    return np.column_stack([book.distances(crops, shifts=False), own])


def zeros_beside_covered(codes: np.ndarray) -> np.ndarray:
    """Cells read as 0 that touch a covered cell: what no game shows (it opens a 0's neighbours)."""
    return (codes == 0) & (neighbour_sum(codes == COVERED) > 0)
