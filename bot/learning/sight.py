"""The board of a game being learnt, as the learner sees and touches it.

It is read once it has stayed still (bot/learning/settling.py), its cells sorted into looks
(bot/vision/looks.py), and each covered cell's picture kept: a cell not as it was when last seen
covered is not covered (cells over a background picture). A look not seen before counts only once
a second reading shows it on the same cells. Cells are clicked only as the guard allows
(bot/live/guard.py), and a click's answer is waited for as long as the game has shown it needs.
What the looks are worth is not known here: that is the learner's (bot/learning/learn.py).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TextIO

import numpy as np

from bot.devices.actuator import Mouse
from bot.devices.capture import Region, Screen
from bot.errors import BoardGone, ClicksIgnored, ScreenError
from bot.learning.naming import Looks
from bot.learning.outcome import changed_apart
from bot.learning.settling import SETTLE, Settler
from bot.live.guard import ClickGuard
from bot.live.place import board_region, park_point
from bot.live.table import LATENCY_FACTOR, SLOW_GAME
from bot.play import Spent
from bot.userdata import save_screen
from bot.vision.counting import CounterWatch
from bot.vision.geometry import Geometry
from bot.vision.looks import MOVED, LookBook
from bot.vision.reading import bands
from bot.vocabulary import Cell

STABLE_TRIES = 5  # readings that may show a look that then goes away, before the learner stops


class Sight:
    """The board at ``geometry`` (its lattice in screen coordinates) on ``screen``, its cells
    sorted into the looks of ``looks`` (shared with the learner, who names them)."""

    def __init__(
        self,
        screen: Screen,
        mouse: Mouse,
        geometry: Geometry,
        looks: Looks,
        mines: int | None,
        out: TextIO,
    ) -> None:
        self.screen, self.mouse, self.geometry, self.looks, self.mines, self.out = (
            screen,
            mouse,
            geometry,
            looks,
            mines,
            out,
        )
        self.region: Region = board_region(geometry, screen)
        self.local = geometry.moved(-self.region.left, -self.region.top)
        self.book = LookBook(self.local)
        # each cell's picture when it last showed covered (NaN before): a cell not so is not covered
        self.covered_pictures = np.full(
            (geometry.rows * geometry.cols, self.book.size, self.book.size, 3),
            np.nan,
            dtype=np.float32,
        )
        self.park = park_point(geometry, screen)
        self.guard = ClickGuard(screen, self.region, self.local)
        self.latency = 0.0  # the slowest redraw after a click seen so far, seconds
        x, y, w, h = self.local.region()
        self.settler = Settler(
            screen, self.region, (slice(max(y, 0), y + h), slice(max(x, 0), x + w))
        )
        self.image: np.ndarray | None = None
        self.shown: np.ndarray | None = None  # the looks of the last reading
        # the strip above the board by the mines left, to learn a counter from
        self.counter = CounterWatch(mines)
        self.spent = Spent()  # where this game's time went (the commands give each game its own)
        self.clicked: list[Cell] = []  # the cells the last click() clicked

    def read(
        self, quiet: float | None = None, counted: bool = False, must: list[Cell] | None = None
    ) -> np.ndarray:
        """The look of every cell, once the board has stayed still for ``quiet`` seconds (SETTLE, or
        QUICK for a pack whose game draws a click at once; its redraws ``counted`` after clicks:
        bot/learning/settling.py); with QUICK, as soon as the cells clicked (``must``) show the clicks
        and two grabs are alike, as a live table reads (what the game still draws then reads covered,
        and the learner checks a reading before it judges clicks from it). A look not seen before
        counts only once a second reading shows it on the same cells: a pressed cell, a highlight or a
        frame of an animation is gone by then (and is then forgotten)."""
        for _ in range(STABLE_TRIES):
            self.mouse.park(*self.park)
            with self.spent.on("wait"):
                self.image = self.settler.settled(
                    self.image if counted else None,
                    self.settler.quiet if quiet is None else quiet,
                    (lambda image: self.guard.shown(image, must)) if must else None,
                )
            if (
                gone := self.guard.gone(self.image)
            ) is not None:  # the window moved, is covered or closed;
                # or a frame of something drawn across the board read so: gone if still so
                time.sleep(SETTLE)
                self.image = self.screen.settled(self.region, quiet=SETTLE)
                gone = self.guard.gone(self.image)
            if gone is not None:
                raise BoardGone(
                    f"the board is no longer where it was: {gone}; bring the game back, or start it again, and run minebot again",
                    detail=f"the screen is saved in {self.save_screen()}",
                )
            known = len(self.book)
            with self.spent.on("read"):
                looks = self._assign(self.image)
            if len(self.book) == known:
                return self.shown_as(looks)
            time.sleep(SETTLE)
            again = self._assign(self.screen.settled(self.region, quiet=SETTLE))
            if np.array_equal(again, looks):
                return self.shown_as(looks)
            self.book.forget(known)  # it changed: forget what it showed
        raise ScreenError(
            f"the board keeps changing ({STABLE_TRIES} readings): is something moving over it? Stop it and run minebot again",
            detail=f"the screen is saved in {self.save_screen()}",
        )

    def _assign(self, image: np.ndarray) -> np.ndarray:
        """The looks of a screenshot's cells; a cell not as it was when last seen covered is not
        covered (cells over a background picture: see LookBook.assign)."""
        covered = self.looks.covered()
        looks = self.book.assign(image, self.covered_pictures, covered)
        if covered:  # a cell as it was when last seen covered is covered, like no look or not
            with np.errstate(invalid="ignore"):
                same = (self.book.drift(self.book.shown, self.covered_pictures) < MOVED).reshape(
                    looks.shape
                )
            looks[same & ~np.isin(looks, covered)] = covered[0]
        return looks

    def sort(self, image: np.ndarray) -> np.ndarray:
        """The looks of a grab of the board's region, taken as the reading now."""
        self.image = image
        return self._assign(image)

    def shown_as(self, looks: np.ndarray) -> np.ndarray:
        """Take a stable reading: keep its looks, and the picture of every covered cell in it."""
        self.shown = looks
        assert self.image is not None
        # value looks: opened cells
        self.guard.seen(self.image, ~np.isin(looks, list(self.looks.possible)))
        covered = np.isin(looks, self.looks.covered()).ravel()
        self.covered_pictures[covered] = self.book.shown[covered]
        self.book.tally(looks)
        if (
            not self.counter.learnt
            and (left := self.looks.mines_left(looks, self.mines)) is not None
        ):
            image, whole = self.image, self.screen.whole
            self.counter.see(
                lambda: bands(
                    image,
                    self.local,
                    self.screen.grab(),
                    self.geometry.moved(-whole.left, -whole.top),
                ),
                left,
            )
        return looks

    def read_after(
        self,
        cells: list[Cell],
        before: np.ndarray,
        button: str = "right",
        flagged: list[Cell] | None = None,
    ) -> np.ndarray:
        """Read until every cell clicked (with ``button``; ``flagged``: with the right one, before
        them) shows another look than before (the game drew the click);
        a game is given max(SLOW_GAME, LATENCY_FACTOR x its slowest redraw so far). Clicks not shown by
        then are clicked once more, then given as long again: a first click may only focus the window,
        and winemine left a flag unanswered for 2 s in one of eight 20-game runs. (Not where cells
        away from the clicks changed, or a lost game's mine shows where none did: the game may be over.) A second left click on an opened cell
        chords a number with no flags around it: nothing; a flag drawn late shows as a question mark
        over a mine, no worse."""
        start = time.perf_counter()
        limit = max(SLOW_GAME, LATENCY_FACTOR * self.latency)
        retried, flagged = False, flagged or []
        cells = flagged + cells
        while True:
            looks = self.read(counted=True, must=cells)
            if all(looks[cell] != before[cell] for cell in cells):
                self.latency = max(self.latency, time.perf_counter() - start)
                return looks
            if (overdue := time.perf_counter() - start > limit) and self._end_shown(before, looks):
                return looks  # a lost game's mine drawn late beside the clicks (gnome-mines): over, not ignoring them
            if overdue and not retried:
                if changed_apart(
                    cells, before, looks, cells if button == "right" else flagged
                ).any():
                    # the game drew something away from the clicks (a game over): no click on a board
                    # that may be over (kmines then asks "Reset the game?" over it)
                    return looks
                again = [c for c in cells if looks[c] == before[c]]
                print(
                    f"minebot: cell {again[0]} did not change within {limit:.1f} s; clicking it again "
                    f"({'right' if again[0] in flagged else button})",
                    file=self.out,
                )
                self.click([c for c in again if c in flagged], "right")
                self.click([c for c in again if c not in flagged], button)
                retried, start = True, time.perf_counter()
                continue
            if overdue:
                cell = next(c for c in cells if looks[c] == before[c])
                raise ClicksIgnored(
                    f"cell {cell} was clicked ({'right' if cell in flagged else button}) and looks the same {limit:.1f} s later: the game ignores the "
                    "clicks (paused, or behind another window?); bring it to the front and run minebot again",
                    detail=f"the screen is saved in {self.save_screen()}",
                )

    def _end_shown(self, before: np.ndarray, looks: np.ndarray) -> bool:
        """Whether a cell shows a look of a lost game's end (a mine, the mine hit) that it did not show before."""
        ends = list(self.looks.ends)
        return bool((np.isin(looks, ends) & ~np.isin(before, ends)).any())

    def click(self, cells: list[Cell], button: str) -> list[Cell]:
        """Click ``cells`` as the guard allows (see ClickGuard); those dealt with: all but the ones
        left once the board changed. ``clicked`` keeps those clicked: not a cell that changed before
        its click (an area a click before opened it; or the game drew its end there, a mine: a
        98-style page, learnt on a busy machine, drew the mines of a lost guess after the reading,
        and the cell called safe that showed one was judged as opened by its click, the game won)."""
        self.clicked = []
        for index, (r, c) in enumerate(cells):
            if not (0 <= r < self.geometry.rows and 0 <= c < self.geometry.cols):
                raise ScreenError(
                    f"refusing to click ({r},{c}): outside the {self.geometry.cols}x{self.geometry.rows} board"
                )

            def press(cell: Cell = (r, c)) -> None:
                self.mouse.click(*self.geometry.centre(cell), button)  # type: ignore[arg-type]

            if self.guard.press_checked((r, c), press, self.spent.on):
                self.clicked.append((r, c))
            if self.guard.halted:
                return cells[:index]
        return cells

    def save_screen(self) -> Path:
        """Save the last screen read in this user's cache folder; where."""
        return save_screen(self.image, "learn-last-screen.png")
