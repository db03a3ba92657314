"""The check before each click on a real game: the board still where it was read, and still as
it was read (a window moved, covered or closed; the game's end drawn over it, or its mines shown).
Used by the live table (bot/live/table.py) and the learner (bot/learning/learn.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

import cv2
import numpy as np

from bot.devices import interrupts
from bot.devices.capture import Region, Screen
from bot.devices.windowing import Windows
from bot.errors import StaleCheck
from bot.vision.geometry import Geometry
from bot.vision.grid import NOTHING_THERE, lattice_moved
from bot.vocabulary import Cell

MOVED_SHARE = 0.01  # of the pixels a click cannot change, the share that may differ (noise) before the board counts as moved
CHANGED_SHARE = 0.1  # of the middle of a cell, the share that differs once something changed it
SAMPLES = 9  # points looked at in each covered cell, for a change apart from the clicks
DIFFERS = 24  # a pixel differs once a channel is this much off (noise, anti-aliasing: less)
# of the pixels round the board, the share that differ when its window is covered or closed
RIM_CHANGED = 0.5
FLAT = 3.0  # the spread (standard deviation) of each channel below which the board's place is one flat colour
# of the pitch round a covered cell that its click may redraw too (flat tiles' shadows)
SHADOW = 0.15
STALE_TRIES = 5  # checks of a cell gone stale before its click (see interrupts) before none is made


class ClickGuard:
    """Before each click, a grab of the board's region (a fraction of a millisecond) held against the
    last reading: the board must be where it was read, and the cell about to be clicked must look as
    it did. A window moved one cell in the middle of a batch would take every later click one cell
    off, onto cells nobody called safe; a window over the board, or a game killed, would take them.
    Covered cells that changed apart from the cells clicked since the reading (not beside them, nor
    joined to them by changed cells, as an opened area is) mean the game is over too: the mines a
    lost game shows, the flags a won game puts on them. A click on a lost game's board is no new
    move (kmines asks "Reset the game?" on it, and then plays the same board again).
    Once the board changed, no click at all (``halted``) until the next reading says what it is now:
    the game's own end drawn over it ("Congratulations"), or the window gone."""

    def __init__(self, screen: Screen, region: Region, geometry: Geometry) -> None:
        # geometry: in the region
        self.screen, self.region, self.geometry = (
            screen,
            region,
            geometry,
        )
        self.image: np.ndarray | None = None
        self._steady: np.ndarray | None = None
        self._steady_count = 0
        self._hidden = np.zeros((0, 2), int)  # the cells a click may change, as read
        # ys, xs in each of them
        self._points = (
            np.zeros((0, SAMPLES), int),
            np.zeros((0, SAMPLES), int),
        )
        self._clicked = np.zeros((geometry.rows, geometry.cols), bool)  # since the reading
        self.halted = False
        self._windows: Windows | None = None  # a real screen's word on which window is where
        self._owners: list[
            tuple[tuple[int, int], int, int]
        ] = []  # points on the board: window and owner there at first
        self._over: str | None = None  # what window_over said when last asked
        self._stirs = 0  # the windows' stirs (Windows.stirs) when it was last asked

    def seen(self, image: np.ndarray, hidden: np.ndarray) -> None:
        """A reading of ``image`` whose ``hidden`` cells (covered, flagged, or not known) a click may
        change. The rest of the region from the board's top down (the face and counters above it do
        change) no click changes: the cells opened, and the rim round the board."""
        g = self.geometry
        pad = max(2, round(SHADOW * g.pitch[0]))
        self._hidden = np.argwhere(hidden)
        n = round(g.cell_px)
        lefts = np.array([g.box(0, c)[0] for c in range(g.cols)])
        tops = np.array([g.box(r, 0)[1] for r in range(g.rows)])
        boxes = np.column_stack(
            [
                lefts[self._hidden[:, 1]],
                tops[self._hidden[:, 0]],
                np.full((len(self._hidden), 2), n),
            ]
        )
        # the pixels of each hidden cell's box grown by pad, over the board's span: rows of pixels by
        # rows of cells, times the hidden cells, times columns of cells by columns of pixels (a loop
        # over the cells took 2-4 ms)
        steady = np.ones(image.shape[:2], bool)
        (y0, y1), (x0, x1) = (
            (max(0, int(at.min()) - pad), min(size, int(at.max()) + n + pad))
            for at, size in ((tops, image.shape[0]), (lefts, image.shape[1]))
        )
        ys, xs = np.arange(y0, y1), np.arange(x0, x1)
        in_rows = ((ys[:, None] >= tops - pad) & (ys[:, None] < tops + n + pad)).astype(np.float32)
        in_cols = (
            (xs[None, :] >= lefts[:, None] - pad) & (xs[None, :] < lefts[:, None] + n + pad)
        ).astype(np.float32)
        steady[y0:y1, x0:x1] = in_rows @ hidden.astype(np.float32) @ in_cols == 0
        steady[: max(0, round(g.origin[1])), :] = False
        # a few points in the middle half of each such cell, where a change of what it shows is seen
        grid = np.linspace(0.3, 0.7, 3)
        fy, fx = (f.ravel() for f in np.meshgrid(grid, grid, indexing="ij"))
        ys = (boxes[:, 1:2] + boxes[:, 3:4] * fy).astype(int).clip(0, image.shape[0] - 1)
        xs = (boxes[:, 0:1] + boxes[:, 2:3] * fx).astype(int).clip(0, image.shape[1] - 1)
        self._points = (ys, xs)
        self._clicked[:] = False
        self.image, self._steady, self.halted = image, steady, False
        self._steady_count = int(steady.sum())
        if not self._owners:
            self._watch_windows()

    def _watch_windows(self) -> None:
        """Note which window, of which program, shows at five points of the board (its middle and
        the middles of its quarters): at the first reading, where the board was read."""
        opener = getattr(self.screen, "windows", None)  # a drawn test screen has none
        self._windows = opener() if opener is not None else None
        if self._windows is None:
            return
        g = self.geometry
        for row, col in dict.fromkeys(
            [(g.rows // 2, g.cols // 2)]
            + [(r * g.rows // 4, c * g.cols // 4) for r in (1, 3) for c in (1, 3)]
        ):
            x, y = g.centre((row, col))
            point = (round(self.region.left + x), round(self.region.top + y))
            self._owners.append((point, self._windows.top(*point), self._windows.owner(*point)))

    def _window_word(self) -> str | None:
        """window_over, asked again only where a window stirred since it was last asked (see
        Windows.stirs) or it had something to say."""
        if self._windows is None:
            return None
        # read before asking: a stir while it asks is asked about next time
        stirs = self._windows.stirs()
        if self._over is not None or stirs != self._stirs:
            self._stirs, self._over = stirs, self.window_over()
        return self._over

    def window_over(self) -> str | None:
        """What the window system says is over the board, where a point of it no longer shows a
        window of the program that showed there at the first reading (a game's own dialog is one of
        its own); None where each does, or where the screen cannot say (the top-level window at
        each point asked: 0.3-0.4 ms each on X11 under Xvfb, 0.13 ms under Wine; the program only
        where that window changed)."""
        for point, top, owner in self._owners:
            assert self._windows is not None
            now = self._windows.top(*point)
            if now != top and self._windows.owner(*point) != owner:
                return (
                    "a window of another program is over it"
                    if now
                    else "the game's window is gone (closed?)"
                )
        return None

    def gone(self, image: np.ndarray) -> str | None:
        """Why the board in ``image`` is not where the last reading had it, or None. The window
        system's word, where the screen has one: a window of another program over the board, or the
        game's window gone (window_over, asked where a window stirred). One flat colour
        where the board was (no board ever is: a window over it; the game closed, where the desktop
        behind is the colour of the game's frame and of its opened cells, as under Wine, and no pixel a
        click cannot change differs). Else only where the pixels no click changes (the rim round the
        board, the cells opened) differ, and a lattice shows elsewhere (the window moved; the game laid
        its cells out anew), or none shows where the board was and the rim round it changed too (a
        window over it; the game closed). A game's end drawn over the board (kmines' band, a dialog,
        a panel of words) leaves the board's lattice, or the rim, as it was, and is no flat colour."""
        if self.image is None or self._steady is None or image.shape != self.image.shape:
            return None
        if (over := self._window_word()) is not None:
            return over
        margin = round(max(self.geometry.pitch) / 4)
        x, y, w, h = self.geometry.region(margin=margin)
        if max(cv2.meanStdDev(image[max(y, 0) : y + h, max(x, 0) : x + w])[1].ravel()) < FLAT:
            return f"{NOTHING_THERE}: one flat colour is there"
        differs = _differs(image, self.image)
        if not self._steady_changed(differs):
            return None
        said = lattice_moved(image, self.geometry)
        if said != NOTHING_THERE:
            return said
        rim = np.ones(differs.shape, bool)
        rim[max(y, 0) : y + h, max(x, 0) : x + w] = False
        return (
            f"{said}, and round it the screen changed"
            if differs[rim].mean() > RIM_CHANGED
            else None
        )

    def check(self, cell: Cell) -> bool:
        """Whether to click ``cell``: not once the board changed (halted), nor where the cell no longer
        looks as it was read (an area an earlier click opened took it in: no click needed, or wanted).
        Not once the window system says another program's window is over the board (asked where a
        window was shown, moved or closed since it was last asked: _window_word), though the cells
        about to be clicked still look as they did (a notification over the middle of the board)."""
        if self.halted or self.image is None or self._steady is None:
            return not self.halted
        if self._window_word() is not None:
            self.halted = True  # a window of another program over the board, or the game's gone
            return False
        now = self.screen.grab(self.region)
        if now.shape != self.image.shape:
            return True
        differs = _differs(now, self.image)
        if self._steady_changed(differs) or self._changed_apart(differs, cell):
            self.halted = True
            return False
        if self._cell_changed(differs, cell):
            return False
        self._clicked[cell] = True
        return True

    def press_checked(
        self,
        cell: Cell,
        press: Callable[[], None],
        timed: Callable[[str], AbstractContextManager[object]] = lambda _: nullcontext(),
    ) -> bool:
        """Check ``cell`` (``check``), then ``press`` it, while that check is fresh: a press the
        mouse refuses as resting on a stale check (a pause between them) is checked again, and after
        STALE_TRIES the guard halts until the next reading. Whether it was pressed. ``timed(part)`` times the checks ("guard") and the press ("click")."""
        for _ in range(STALE_TRIES):
            checked_at = time.monotonic()
            with timed("guard"):
                allowed = self.check(cell)
            if not allowed:
                return False
            try:
                with timed("click"), interrupts.fresh_since(checked_at):
                    press()
                return True
            except StaleCheck:
                continue
        self.halted = True  # checks that keep going stale: no click until the board is read again
        return False

    def shown(self, image: np.ndarray, cells: list[Cell]) -> bool:
        """Whether each of ``cells`` looks other in ``image`` than it did at the reading (a click on
        it drawn); False where there is no reading to hold it against."""
        if self.image is None or image.shape != self.image.shape:
            return False
        differs = _differs(image, self.image)
        return all(self._cell_changed(differs, cell) for cell in cells)

    def _cell_changed(self, differs: np.ndarray, cell: Cell) -> bool:
        x, y, w, h = self.geometry.box(*cell)
        # the middle of the cell: a box a pixel off takes in its neighbours' edges
        inset = round(w / 4)
        return bool(
            differs[y + inset : y + h - inset, x + inset : x + w - inset].mean() > CHANGED_SHARE
        )

    def _steady_changed(self, differs: np.ndarray) -> bool:
        """Whether more than noise differs of the pixels no click changes (MOVED_SHARE of them)."""
        assert self._steady is not None
        moved = cv2.countNonZero(
            cv2.bitwise_and(differs.view(np.uint8), self._steady.view(np.uint8))
        )
        return moved > MOVED_SHARE * self._steady_count

    def _changed_apart(self, differs: np.ndarray, cell: Cell) -> bool:
        """Whether a covered cell changed that is neither beside a cell clicked since the reading
        (or ``cell``, about to be) nor joined to one by other changed cells."""
        changed = np.zeros_like(self._clicked)
        ys, xs = self._points
        moved = differs[ys, xs].mean(axis=1) > CHANGED_SHARE
        changed[self._hidden[moved, 0], self._hidden[moved, 1]] = True
        if not changed.any():
            return False
        clicked = self._clicked.copy()
        clicked[cell] = True
        near = cv2.dilate(clicked.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        _, parts = cv2.connectedComponents(changed.astype(np.uint8), connectivity=8)
        reached = np.unique(parts[changed & near])
        return bool((changed & ~np.isin(parts, reached)).any())


def _differs(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Where two pictures of one size differ by over DIFFERS in some channel: each channel's difference
    made 0 or 255, then their grey, over 0 where any is 255 (a maximum over the channels took 8 ms a
    click on an expert board's region in numpy, 0.8-1.2 in OpenCV over its strided channels, this 0.13)."""
    h, w = now.shape[:2]
    diff = cv2.absdiff(now, before).reshape(h, w * 3)
    marked = cv2.threshold(diff, DIFFERS, 255, cv2.THRESH_BINARY)[1].reshape(h, w, 3)
    return cv2.cvtColor(marked, cv2.COLOR_BGR2GRAY) > 0
