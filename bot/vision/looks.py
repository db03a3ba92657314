"""Looks: a board's cells grouped by how they look, with no skin pack.

A look is what one kind of cell looks like on one board: the first picture of it seen is its
prototype, and a cell belongs to the nearest look (by RMS difference, under LOOK_LIMIT) that it is
also like window by window (below).
Which value a look shows is not known here (see bot/learning/naming.py): it is only a number.

What varies by position, and how it is forgiven:
- where the cell size is fractional, whole-pixel layouts put cells up to a pixel off the lattice:
  cells are cut at whole pixels, one pitch square, and compared at shifts of up to SHIFT pixels;
- so the outermost SHIFT pixels all round, which a cell shares with its neighbours (Wine's revealed
  cells draw lines on one side only, bevels touch), are left out of the comparison;
- large cells: compared at COMPARE_PX at most (area-averaged).
A small mark on a big cell hardly moves the RMS of the whole: xbomb's thin digits on its 50 px
cells are 9.7-13.5 from one another, gnome-mines' flag and its flag with a "?" 13.7, all under
LOOK_LIMIT. So a cell is a look only if, besides, no small window of it (a tenth of a
cell square) differs from the look's picture by INK_LIMIT or more, compared at full size and at the
best shift of up to a compared pixel (bot/vision/ink.py; a pixel differs by its worst colour
channel). Measured on every fixture (2026-11-26), each cell against its look: the same value, a
pixel off or laid out at a fractional pitch (react-minesweeper at 1.25, gnome-mines), differs by at
most 59 in a window; different values within LOOK_LIMIT by at least 75 (xbomb's violet 7 on white,
13 pixels on a 51 px cell; its turquoise 5, gnome-mines' "?" flag and the web game's digits 100 or
more). Every cell is checked, however near its look as a whole: that 7 is 3.1 from a blank cell
(once, cells within EXACT = 4 skipped the check, and it was read as a 0). A picture checked once
against a look is not checked again, and one that no pixel of differs from the look by INK_LIMIT
(nearly every cell of a game drawn at whole pixels) needs no window worked out.
A look split in two (a hover highlight, a checkerboard's two shades) only costs a second naming;
two values in one look would lose a game, so the limits err low.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

import cv2
import numpy as np

from bot.vision.geometry import Geometry
from bot.vision.ink import Hint, InkCheck
from bot.vision.memo import KEPT_MOST, Known, Numbers

LOOK_LIMIT = 16.0  # RMS difference (0-255 levels) below which two cells look the same
COMPARE_PX = 24  # cells are compared at this size at most
SHIFT = 1  # pixels (at the compared size) a cell may sit off its prototype
EXACT = 4.0  # RMS difference under which a cell matching its look unshifted is not tried at other shifts
MOVED = 8.0  # RMS difference from its own earlier picture at which a cell is taken to have changed


def _first_pixel(centre: float, n: int) -> int:
    """The first pixel of ``n`` centred on ``centre``; a centre half a pixel off the pixels' centres
    goes up, whatever rounding noise a fitted lattice leaves (sgt-mines' fit gave cells of
    19.999999999999986 px on one screen: columns 0-1 of a learnt new board were cut a pixel left of
    the others, and the next run, whose fit was a hair the other way, was a pixel off them there)."""
    return int(np.floor(round(centre - n / 2 + 0.5, 6)))


class LookBook:
    """The looks seen so far on one board; ``assign`` sorts a screenshot's cells into them."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        # a pitch square around each cell's centre
        self.cut = max(int(round(min(geometry.pitch))), 3)
        self.size = min(self.cut, COMPARE_PX + 2 * SHIFT)
        # a compared pixel's shift
        self.ink = InkCheck(self.cut, max(1, round(SHIFT * self.cut / self.size)))
        self.prototypes = np.empty((0, self.size, self.size, 3), dtype=np.float32)
        self.pictures: list[np.ndarray] = []  # each look's first picture, ``cut`` pixels square
        # the cells of the last assign
        self.shown = np.empty((0, self.size, self.size, 3), dtype=np.float32)
        self._shown_cut: list[np.ndarray] = []  # the same, as cut
        self._tallies: dict[
            int, dict[bytes, int]
        ] = {}  # per look: how often each picture showed it
        self._numbers = Numbers()  # of the pictures seen (bot/vision/memo.py)
        self._checked: dict[
            tuple[int, int], bool
        ] = {}  # (picture's number, look) checked window by window: alike?
        self._apart: dict[
            tuple[int, int], tuple[int, np.ndarray]
        ] = {}  # (look, look): where they differ (InkCheck.hint)
        self._known = Known(0)
        # the pictures last numbered, and their numbers
        self._numbered: tuple[object, list[int | None]] | None = None

    def __len__(self) -> int:
        return len(self.prototypes)

    def add(self, picture: np.ndarray) -> int:
        """Add a look from a picture of one cell (resized to ``cut`` pixels square); its number."""
        n = self.cut
        if picture.shape[:2] != (n, n):
            picture = cv2.resize(picture, (n, n), interpolation=cv2.INTER_AREA)
        self.prototypes = np.concatenate([self.prototypes, self._compared(picture)[None]])
        self.pictures.append(picture.copy())
        self._known = Known(len(self.prototypes))
        return len(self.prototypes) - 1

    def placed(self, geometry: Geometry) -> LookBook:
        """This book's looks (shared, with what was checked of them) for a board where ``geometry``
        puts it, whose cells are cut to the same size: for reading only (add no look to it)."""
        book = LookBook(geometry)
        if book.cut != self.cut:
            raise ValueError(f"cells of {book.cut} px, not {self.cut}")
        book.prototypes, book.pictures, book._apart = self.prototypes, self.pictures, self._apart
        book._numbers, book._checked, book._known = self._numbers, self._checked, self._known
        return book

    def forget(self, known: int) -> None:
        """Forget every look from number ``known`` on."""
        self.prototypes, self.pictures = self.prototypes[:known], self.pictures[:known]
        self._checked = {key: alike for key, alike in self._checked.items() if key[1] < known}
        self._apart = {pair: apart for pair, apart in self._apart.items() if max(pair) < known}
        self._known = Known(len(self.prototypes))
        self._tallies = {look: tally for look, tally in self._tallies.items() if look < known}

    def picture(self, image: np.ndarray, cell: tuple[int, int]) -> np.ndarray:
        """One cell's picture as cut: ``cut`` pixels square around its centre, at whole pixels
        (what a learnt pack's tiles are, so that reading and learning cut cells alike)."""
        n = self.cut
        cx, cy = self.geometry.centre(cell)
        x, y = _first_pixel(cx, n), _first_pixel(cy, n)
        crop = image[max(y, 0) : y + n, max(x, 0) : x + n]
        if crop.shape[:2] != (n, n):
            raise ValueError(f"cell {cell} lies outside the image")
        return crop

    def _compared(self, picture: np.ndarray) -> np.ndarray:
        """A cell's picture (``cut`` pixels square) at the compared size, as floats."""
        return self._shrunk(picture, 1)

    def _shrunk(self, tall: np.ndarray, count: int) -> np.ndarray:
        """``count`` cells one under another, each ``cut`` pixels square, shrunk to the compared
        size (area-averaged), as floats."""
        size, shrunk = self.size, tall.astype(np.float32)
        return (
            shrunk
            if size == self.cut
            else cv2.resize(shrunk, (size, count * size), interpolation=cv2.INTER_AREA)
        )

    def crops(self, image: np.ndarray, cells: list[tuple[int, int]] | None = None) -> np.ndarray:
        """The pictures of ``cells`` (default: every cell, row by row) at the compared size:
        (len(cells), size, size, 3)."""
        return self.cut_cells(image, cells)[1]

    def cut_cells(
        self, image: np.ndarray, cells: list[tuple[int, int]] | None = None
    ) -> tuple[list[np.ndarray], np.ndarray]:
        """The pictures of ``cells`` (default: every cell, row by row) as cut, and at the compared size."""
        if cells is None:
            board = self.board_pictures(image)
            return list(board), self.compared(board)
        pictures = [self.picture(image, cell) for cell in cells]
        return pictures, self.compared(pictures)

    def board_pictures(self, image: np.ndarray) -> np.ndarray:
        """Every cell's picture as ``picture`` cuts it, row by row: (rows * cols, cut, cut, 3)."""
        geo, n = self.geometry, self.cut
        xs = [_first_pixel(geo.centre((0, c))[0], n) for c in range(geo.cols)]
        ys = [_first_pixel(geo.centre((r, 0))[1], n) for r in range(geo.rows)]
        if (
            min(xs) < 0
            or min(ys) < 0
            or max(xs) + n > image.shape[1]
            or max(ys) + n > image.shape[0]
        ):
            raise ValueError("cells lie outside the image")
        # a view: no copy
        windows = np.lib.stride_tricks.sliding_window_view(image, (n, n, image.shape[2]))
        return windows[np.array(ys)[:, None], np.array(xs)[None, :], 0].reshape(
            -1, n, n, image.shape[2]
        )

    def as_cut(self, pictures: list[np.ndarray] | np.ndarray) -> np.ndarray:
        """Pictures of cells as one stack, each resized to ``cut`` pixels square where it is not."""
        n = self.cut
        stack = pictures if isinstance(pictures, np.ndarray) else np.stack(pictures)
        if stack.shape[1:3] != (n, n):
            stack = np.stack([cv2.resize(p, (n, n), interpolation=cv2.INTER_AREA) for p in stack])
        return stack

    def compared(self, pictures: list[np.ndarray] | np.ndarray) -> np.ndarray:
        """Pictures of cells as cut, at the compared size: (len(pictures), size, size, 3)."""
        n, size = self.cut, self.size
        if not len(pictures):
            return np.empty((0, size, size, 3), dtype=np.float32)
        stack = self.as_cut(pictures)
        # shrunk as one tall picture: each cell's edges fall on output rows' edges, so the result
        # is each cell's own _compared (tests/test_grid.py checks it)
        return self._shrunk(stack.reshape(len(stack) * n, n, 3), len(stack)).reshape(
            len(stack), size, size, 3
        )

    def distances(
        self, crops: np.ndarray, prototypes: np.ndarray | None = None, shifts: bool = True
    ) -> np.ndarray:
        """RMS difference of each crop from each prototype, at the best shift (or unshifted):
        (len(crops), len(prototypes)). Every shift of every prototype is one matrix product."""
        protos = self.prototypes if prototypes is None else prototypes
        if len(protos) == 0 or len(crops) == 0:
            return np.full((len(crops), len(protos)), np.inf, dtype=np.float32)
        s, m = self.size, SHIFT
        inner = crops[:, m : s - m, m : s - m].reshape(len(crops), -1)
        moves = (
            [(dy, dx) for dy in range(-m, m + 1) for dx in range(-m, m + 1)] if shifts else [(0, 0)]
        )
        p = np.concatenate(
            [
                protos[:, m + dy : s - m + dy, m + dx : s - m + dx].reshape(len(protos), -1)
                for dy, dx in moves
            ]
        )
        # both taken from the looks' mean: the same differences, and smaller sums whose float32
        # rounding (which varies with how many rows are multiplied at once) is smaller too
        mean = p.mean(axis=0)
        inner, p = inner - mean, p - mean
        d2 = (inner * inner).sum(axis=1)[:, None] + (p * p).sum(axis=1)[None, :] - 2 * inner @ p.T
        best = d2.reshape(len(crops), len(moves), len(protos)).min(axis=1)
        return np.sqrt(np.maximum(best, 0) / inner.shape[1])

    def known_distances(self, pictures: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each picture's (as cut) distances from each look, unshifted and at the best shift, as
        ``distances`` gives them. Each distinct picture is compared once and remembered: a board
        holds few distinct pictures, and most of them were there at the last reading."""
        numbers = self._numbers_of(pictures, range(len(pictures)))
        new = self._known.missing(numbers)
        if new:
            crops = self.compared(pictures[list(new.values())])
            self._known.keep(
                new, np.stack([self.distances(crops, shifts=False), self.distances(crops)], axis=1)
            )
        known = self._known.of(numbers)
        return known[:, 0], known[:, 1]

    def _numbers_of(
        self, pictures: list[np.ndarray] | np.ndarray, which: Iterable[int]
    ) -> list[int]:
        """The numbers (bot/vision/memo.py) of the pictures ``which`` (indexes): what remembered
        comparisons are kept under, each found once for a reading's pictures (a reading asks for
        them more than once)."""
        if self._numbered is None or self._numbered[0] is not pictures:
            self._numbered = (pictures, [None] * len(pictures))
        numbers = self._numbered[1]
        out = []
        for i in which:
            number = numbers[i]
            if number is None:
                number = numbers[i] = self._numbers.of(pictures[i])
            out.append(number)
        return out

    def assign(
        self, image: np.ndarray, reference: np.ndarray | None = None, barred: Collection[int] = ()
    ) -> np.ndarray:
        """The look of every cell (rows x cols ints); a cell like no look yet starts a new one.
        Each cell ends at the nearest look it is alike (not the first near enough), so that sorting
        the same picture again gives the same looks and starts none. A cell that ``reference`` (a
        picture per cell at the compared size, as ``crops`` gives; NaN where none) shows otherwise,
        by MOVED or more, takes none of the looks ``barred``: a covered cell over a background
        picture may look like another covered cell more than like an opened one, but not like
        itself. The cells at the compared size are kept in ``shown``."""
        geo = self.geometry
        pictures, crops = self.cut_cells(image)
        self.shown, self._shown_cut = crops, pictures
        moved = np.zeros(len(crops), dtype=bool)
        if reference is not None and len(barred):
            with np.errstate(invalid="ignore"):
                moved = self.drift(crops, reference) >= MOVED
        looks, _ = self.nearest(crops, pictures, moved, barred)
        known = len(self.prototypes)
        while (looks < 0).any():
            first = int(np.flatnonzero(looks < 0)[0])
            look = self.add(pictures[first])
            rest = np.flatnonzero(looks < 0)
            d = self.distances(crops[rest], self.prototypes[-1:])[:, 0]
            rest = rest[d < LOOK_LIMIT]
            alike = self.alike(rest, np.full(len(rest), look), pictures)
            looks[rest[alike]] = look
            looks[first] = look
        if len(self.prototypes) > known:
            started, looks = looks, self.nearest(crops, pictures, moved, barred)[0]
            # every cell is alike the look it started or joined, so none is left unread, unless
            # float rounding (which varies with the batch) put a distance the other side of a limit
            looks[looks < 0] = started[looks < 0]
        return looks.reshape(geo.rows, geo.cols)

    def tally(self, looks: np.ndarray) -> None:
        """Count the pictures of the last ``assign`` under the looks they were finally given."""
        for picture, look in zip(self._shown_cut, looks.ravel(), strict=True):
            if look >= 0:
                tally = self._tallies.setdefault(int(look), {})
                key = picture.tobytes()
                tally[key] = tally.get(key, 0) + 1

    def typical(self, look: int) -> np.ndarray:
        """The picture a look showed most often in what was tallied (the first seen where none was):
        the one to keep. The first seen is the first cell that showed it, often an edge cell with
        the board's border in it."""
        tally = self._tallies.get(look)
        if not tally:
            return self.pictures[look]
        key = max(tally, key=lambda k: tally[k])  # the first seen of the most common
        return np.frombuffer(key, dtype=np.uint8).reshape(self.pictures[look].shape)

    def drift(self, crops: np.ndarray, reference: np.ndarray) -> np.ndarray:
        """Each cell's RMS difference from ``reference`` (the same cells at the compared size, as
        ``crops`` are; NaN where there is none), leaving out the outermost SHIFT pixels, which a
        cell shares with its neighbours."""
        m = SHIFT
        inner = (crops - reference)[:, m : self.size - m, m : self.size - m]
        return np.sqrt((inner**2).mean(axis=(1, 2, 3)))

    def nearest(
        self,
        crops: np.ndarray,
        pictures: list[np.ndarray],
        moved: np.ndarray | None = None,
        barred: Collection[int] = (),
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each cell's nearest look and its RMS difference from it; the look is -1 where none is
        nearer than LOOK_LIMIT or a window of the cell differs from it by INK_LIMIT or more.
        ``crops`` are the cells at the compared size, ``pictures`` as cut. Cells ``moved`` take
        none of the looks ``barred`` (see assign)."""
        if not len(self.prototypes):
            return np.full(len(crops), -1, dtype=np.int64), np.full(
                len(crops), np.inf, dtype=np.float32
            )
        plain = self.distances(crops, shifts=False)
        return self.nearest_of(
            plain, lambda rest: self.distances(crops[rest]), pictures, moved, barred
        )

    def nearest_of(
        self,
        plain: np.ndarray,
        shifted: Callable[[np.ndarray], np.ndarray],
        pictures: list[np.ndarray] | np.ndarray,
        moved: np.ndarray | None = None,
        barred: Collection[int] = (),
    ) -> tuple[np.ndarray, np.ndarray]:
        """``nearest`` from each cell's unshifted distances (``plain``, changed in place) and the
        distances at the best shift of the cells it is given (by index). Most cells match their look
        unshifted and exactly (under EXACT); only the others are tried at every shift, where a look a
        pixel off may be nearer than one that is not, and so are the cells under EXACT that differ
        from their look in a window."""
        moved = np.zeros(len(plain), dtype=bool) if moved is None else moved
        d = self._bar(plain, moved, barred)
        looks, best = d.argmin(axis=1), d.min(axis=1)
        rest = np.flatnonzero(best >= EXACT)
        d = (
            self._bar(shifted(rest), moved[rest], barred)
            if len(rest)
            else np.empty((0, plain.shape[1]), dtype=plain.dtype)
        )
        looks[rest], best[rest] = d.argmin(axis=1), d.min(axis=1)
        near = np.flatnonzero(best < LOOK_LIMIT)
        alike = np.zeros(len(plain), dtype=bool)
        alike[near] = self.alike(near, looks[near], pictures)
        unlike = near[~alike[near]]
        # a cell within EXACT of its look may still differ from it in a small mark (xbomb's 13-pixel
        # violet 7 on its 51 px cells is 3.1 from its blank cells): tried at every shift too
        late = np.setdiff1d(unlike, rest)
        if len(late):
            d = np.concatenate([d, self._bar(shifted(late), moved[late], barred)])
            rest = np.concatenate([rest, late])
        # a cell unlike its nearest look in a window may be alike another look within LOOK_LIMIT
        # (gnome-mines' 34.2 px cells: one value laid out at two phases): it takes the nearest such,
        # as assign's new looks took it, so that sorting it again gives the same look
        row = np.full(len(plain), -1)
        row[rest] = np.arange(len(rest))
        while len(unlike):
            d[row[unlike], looks[unlike]] = np.inf
            looks[unlike], best[unlike] = d[row[unlike]].argmin(axis=1), d[row[unlike]].min(axis=1)
            unlike = unlike[best[unlike] < LOOK_LIMIT]
            alike[unlike] = self.alike(unlike, looks[unlike], pictures)
            unlike = unlike[~alike[unlike]]
        looks[~alike] = -1
        return looks, best

    @staticmethod
    def _bar(d: np.ndarray, moved: np.ndarray, barred: Collection[int]) -> np.ndarray:
        """Distances with the barred looks out of reach of the cells that moved."""
        out = [k for k in barred if k < d.shape[1]]
        if moved.any() and out:
            d[np.ix_(np.flatnonzero(moved), np.array(out))] = np.inf
        return d

    def alike(
        self,
        cells: np.ndarray,
        looks: np.ndarray,
        pictures: list[np.ndarray] | np.ndarray,
        own: np.ndarray | None = None,
    ) -> np.ndarray:
        """Whether each of ``cells`` (indexes into ``pictures``), within LOOK_LIMIT of its look, is
        that look window by window too (see the module's docstring). The same picture against the
        same look is checked once, and remembered. ``own``: each cell's own look, where ``looks``
        are rivals it is likely unlike; each is then first compared where the two looks differ
        most (bot/vision/ink.py)."""
        if not len(cells):
            return np.zeros(0, dtype=bool)
        if len(self._checked) > KEPT_MOST:  # a long run of a game drawn anew at every position
            self._checked.clear()
        numbers = np.array(self._numbers_of(pictures, cells), dtype=np.int64)
        # each distinct (picture, look) pair once
        _, first, inverse = np.unique(
            numbers * len(self.prototypes) + looks, return_index=True, return_inverse=True
        )
        keys = [(int(numbers[i]), int(looks[i])) for i in first]
        checked = [self._checked.get(key) for key in keys]
        good = np.array([bool(c) for c in checked])
        todo = [j for j, c in enumerate(checked) if c is None]
        if todo:
            at = first[todo]
            a = np.stack([pictures[cells[i]] for i in at])
            b = np.stack([self.pictures[looks[i]] for i in at])
            hint = None if own is None else self._hint(own[at], looks[at])
            good[todo] = self.ink.alike(a, b, hint)
            self._checked.update((keys[j], bool(good[j])) for j in todo)
        return good[inverse]

    def _hint(self, own: np.ndarray, rivals: np.ndarray) -> Hint:
        """For pairs of looks: where their pictures differ (InkCheck.hint), each pair worked out once."""
        pairs = [(int(a), int(b)) for a, b in zip(own, rivals, strict=True)]
        new = sorted({pair for pair in pairs if pair not in self._apart})
        if new:
            where, apart = self.ink.hint(
                *(np.stack([self.pictures[pair[k]] for pair in new]) for k in (0, 1))
            )
            self._apart.update(zip(new, zip(where, apart, strict=True), strict=True))
        return Hint(
            np.stack([self.pictures[a] for a, _ in pairs]),
            np.array([self._apart[pair][0] for pair in pairs]),
            np.stack([self._apart[pair][1] for pair in pairs]),
        )
