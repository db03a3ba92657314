"""Learning an unseen look by playing it (``minebot play --learn``, or when no pack reads the board).

The board is found by its lattice (bot/vision/grid.py) and its cells grouped into looks
(bot/vision/looks.py). A fresh board shows only covered cells: its looks are "covered". After the
first click every new look is a revealed number, named by the rules alone (bot/naming.py); the bot
clicks only cells that are safe under every naming still possible, flags cells that are mines
under every naming (the look a flagged cell takes is "flag"), and guesses by the chance of a mine
mixed over the namings. A lost game's end screen names the rest: the clicked cell shows the
exploded mine, hidden cells that change show mines (the bot's flags are all on mines, so it never
sees a wrong flag of its own).

Every look named is saved as a skin pack in this user's data folder (bot/userdata.py), merged with
what was learnt before (nothing overwritten), and read like any shipped pack next time.
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path
from typing import TextIO

import numpy as np

from bot.actuator import Mouse
from bot.board import Board
from bot.capture import Region, Screen
from bot.errors import BoardGone, ClicksIgnored, CoverUndecided, InconsistentBoard, ScreenError
from bot.guard import ClickGuard
from bot.live import LATENCY_FACTOR, SLOW_GAME, board_region, park_point, wait_for_new_second
from bot.naming import Looks, Naming, covered_looks, name_looks, probe_cells
from bot.outcome import Judge, changed_apart
from bot.play import GameResult, Tally
from bot.restart import Restarter
from bot.settling import SETTLE, Settler, settle_ms
from bot.solver import get_strategy
from bot.solver.guess import first_click
from bot.userdata import save_screen
from bot.vision.counting import CounterWatch
from bot.vision.geometry import Geometry
from bot.vision.looks import LOOK_LIMIT, MOVED, LookBook
from bot.vision.pack import SkinPack, add_board, add_counter, add_redraws, add_tiles, learnt_pack_folder, start_learnt_pack
from bot.vision.reading import bands
from bot.vocabulary import CHAR_OF, COVERED, FLAG, NUMBERS, TILE_NAMES, Cell, FirstClickRule, State

STABLE_TRIES = 5  # readings that may show a look that then goes away, before the learner stops


class Learner:
    """Plays the game on screen with no skin pack, learning its looks. ``geometry`` is the board's
    lattice in screen coordinates (find_grid's, moved onto the screen)."""

    def __init__(
        self, screen: Screen, mouse: Mouse, geometry: Geometry, mines: int, rule: FirstClickRule = "safe",
        name: str | None = None, out: TextIO | None = None, flags: bool = True,
    ) -> None:
        self.screen, self.mouse, self.mines, self.rule = screen, mouse, mines, rule
        self.flags = flags  # flag certain mines (a right click); else leave them covered
        self.geometry = geometry
        self.region: Region = board_region(geometry, screen)
        self.local = geometry.moved(-self.region.left, -self.region.top)
        self.book = LookBook(self.local)
        # each cell's picture when it last showed covered (NaN before): a cell not so is not covered
        self.covered_pictures = np.full((geometry.rows * geometry.cols, self.book.size, self.book.size, 3), np.nan, dtype=np.float32)
        self.looks = Looks()
        self.park = park_point(geometry, screen)
        self.guard = ClickGuard(screen, self.region, self.local)
        self.latency = 0.0  # the slowest redraw after a click seen so far, seconds
        x, y, w, h = self.local.region()
        self.settler = Settler(screen, self.region, (slice(max(y, 0), y + h), slice(max(x, 0), x + w)))
        self.strategy = get_strategy("best")
        self.rng = np.random.default_rng()
        self.name = name
        self.out = out if out is not None else sys.stderr
        self.image: np.ndarray | None = None
        self.shown: np.ndarray | None = None  # the looks of the last reading
        self.new_board: list[np.ndarray] | None = None  # the cells of the last new board read, as cut
        self._first_click_second: int | None = None
        self.restarter = Restarter(mouse, self.region, self.local)
        self.judge = Judge(self.looks, mines, self.out, self.save_screen)
        self.counter = CounterWatch(mines)  # the strip above the board by the mines left, to learn a counter from

    def seed(self, pack: SkinPack) -> None:
        """Start from what a pack learnt before: each tile a look, named as the pack names it."""
        self.counter.learnt = pack.has_counter
        self.settler.quiet = min(pack.settle, SETTLE)  # QUICK where the game showed it draws a click within QUICK
        for tile in pack.tiles:
            self.looks.name(self.book.add(tile.image), int(tile.code))
        board = pack.new_board(self.geometry.rows, self.geometry.cols)
        if board is not None:  # each cell as it showed covered there (cells over a background picture)
            self.covered_pictures[:] = self.book.compared(board)

    def prime(self, shot: np.ndarray) -> None:
        """Start from a grab of the whole screen (as Screen.grab gives it) on this game's new board,
        taken before its first click: its cells are the covered ones (play learns on from there when
        a shipped pack read the new board but not the opened one: another look's covered tile)."""
        top, left = self.region.top - self.screen.whole.top, self.region.left - self.screen.whole.left
        self.image = shot[top : top + self.region.height, left : left + self.region.width]
        self.new_board = self.book.cut_cells(self.image)[0]
        self._cover(self._assign(self.image))

    def _cover(self, looks: np.ndarray) -> np.ndarray:
        """Take the looks of a new game's board as the covered ones; the looks now."""
        try:
            covered = covered_looks(looks, self.mines)
        except CoverUndecided as exc:
            covered, looks = self._probe(looks, exc)
        self.looks.hidden.update({k: COVERED for k in covered})
        return self._shown(looks)

    def _probe(self, looks: np.ndarray, undecided: CoverUndecided) -> tuple[list[int], np.ndarray]:
        """Which look is covered where the rules allow two (an area the game opened along the board's
        edge, about as big as the covered part): a cell safe were each of them covered is clicked
        (were the other one covered, it is an open cell, and with no flag placed yet a click on it
        does nothing); the look whose cell changes is covered. The covered look, and the looks now."""
        cells = probe_cells(looks, undecided.options, self.mines)
        if cells is not None:
            self._click(cells, "left")
            deadline = time.perf_counter() + SLOW_GAME
            while time.perf_counter() < deadline:
                now = self.read()
                changed = [k for k, cell in zip(undecided.options, cells, strict=True) if now[cell] != looks[cell]]
                if changed:
                    return changed[:1], now
        raise ScreenError(f"{undecided} (the screen is saved in {self.save_screen()})") from undecided

    # -- reading ----------------------------------------------------------------------------
    def read(self, quiet: float | None = None, counted: bool = False) -> np.ndarray:
        """The look of every cell, once the board has stayed still for ``quiet`` seconds (SETTLE, or
        QUICK for a pack whose game draws a click at once; its redraws ``counted`` after clicks:
        bot/settling.py). A look not seen before counts only once a second reading shows it on the
        same cells: a pressed cell, a highlight or a frame of an animation is gone by then (and is then forgotten)."""
        for _ in range(STABLE_TRIES):
            self.mouse.park(*self.park)
            self.image = self.settler.settled(self.image if counted else None, self.settler.quiet if quiet is None else quiet)
            if (gone := self.guard.gone(self.image)) is not None:  # the window moved, is covered or closed
                raise BoardGone(f"the board is no longer where it was: {gone} (the screen is saved in {self.save_screen()}); "
                                "bring the game back, or start it again, and run minebot again")
            known = len(self.book)
            looks = self._assign(self.image)
            if len(self.book) == known:
                return self._shown(looks)
            time.sleep(SETTLE)
            again = self._assign(self.screen.settled(self.region, quiet=SETTLE))
            if np.array_equal(again, looks):
                return self._shown(looks)
            self.book.forget(known)  # it changed: forget what it showed
        raise ScreenError(
            f"the board keeps changing ({STABLE_TRIES} readings): is something moving over it? "
            f"(the screen is saved in {self.save_screen()})"
        )

    def _assign(self, image: np.ndarray) -> np.ndarray:
        """The looks of a screenshot's cells; a cell not as it was when last seen covered is not
        covered (cells over a background picture: see LookBook.assign)."""
        covered = self.looks.covered()
        looks = self.book.assign(image, self.covered_pictures, covered)
        if covered:  # a cell as it was when last seen covered is covered, like no look or not
            with np.errstate(invalid="ignore"):
                same = (self.book.drift(self.book.shown, self.covered_pictures) < MOVED).reshape(looks.shape)
            looks[same & ~np.isin(looks, covered)] = covered[0]
        return looks

    def _shown(self, looks: np.ndarray) -> np.ndarray:
        """Take a stable reading: keep its looks, and the picture of every covered cell in it."""
        self.shown = looks
        assert self.image is not None
        self.guard.seen(self.image, ~np.isin(looks, list(self.looks.possible)))  # value looks: opened cells
        covered = np.isin(looks, self.looks.covered()).ravel()
        self.covered_pictures[covered] = self.book.shown[covered]
        self.book.tally(looks)
        if not self.counter.learnt and (left := self.looks.mines_left(looks, self.mines)) is not None:
            image, whole = self.image, self.screen.whole
            self.counter.see(lambda: bands(image, self.local, self.screen.grab(), self.geometry.moved(-whole.left, -whole.top)), left)
        return looks

    def read_after(self, cells: list[Cell], before: np.ndarray, button: str = "right") -> np.ndarray:
        """Read until every cell clicked shows another look than before (the game drew the click);
        a game is given max(SLOW_GAME, LATENCY_FACTOR x its slowest redraw so far). Clicks not shown by
        then are clicked once more, then given as long again: a first click may only focus the window,
        and winemine left a flag unanswered for 2 s in one of eight 20-game runs. (Not where cells
        away from the clicks changed: the game may be over.) A second left click on an opened cell
        chords a number with no flags around it: nothing; a flag drawn late shows as a question mark
        over a mine, no worse."""
        start = time.perf_counter()
        limit = max(SLOW_GAME, LATENCY_FACTOR * self.latency)
        retried = False
        while True:
            looks = self.read(counted=True)
            if all(looks[cell] != before[cell] for cell in cells):
                self.latency = max(self.latency, time.perf_counter() - start)
                if cells:
                    self.judge.answered()  # not over after all
                return looks
            if time.perf_counter() - start > limit and not retried:
                if changed_apart(cells, before, looks).any():
                    # the game drew something away from the clicks (a game over): no click on a board
                    # that may be over (kmines then asks "Reset the game?" over it)
                    return looks
                again = [c for c in cells if looks[c] == before[c]]
                print(f"minebot: cell {again[0]} did not change within {limit:.1f} s; clicking it again ({button})",
                      file=self.out)
                self._click(again, button)
                retried, start = True, time.perf_counter()
                continue
            if time.perf_counter() - start > limit:
                cell = next(c for c in cells if looks[c] == before[c])
                raise ClicksIgnored(
                    f"cell {cell} was clicked ({button}) and looks the same {limit:.1f} s later: the game ignores the "
                    f"clicks (paused, or behind another window?) (the screen is saved in {self.save_screen()}); "
                    "bring it to the front and run minebot again"
                )

    def _click(self, cells: list[Cell], button: str) -> list[Cell]:
        """Click ``cells`` as the guard allows (see ClickGuard); those dealt with: all but the ones
        left once the board changed."""
        for index, (r, c) in enumerate(cells):
            if not (0 <= r < self.geometry.rows and 0 <= c < self.geometry.cols):
                raise ScreenError(f"refusing to click ({r},{c}): outside the {self.geometry.rows}x{self.geometry.cols} board")
            if self.guard.check((r, c)):
                self.mouse.click(*self.geometry.centre((r, c)), button)  # type: ignore[arg-type]
            if self.guard.halted:
                return cells[:index]
        return cells

    # -- one game ---------------------------------------------------------------------------
    def play_game(self) -> GameResult:
        start = time.perf_counter()
        looks = self.read(SETTLE)  # a new board whole: its cells are the covered ones
        if not self.looks.hidden:  # nothing known: a new game's board says what covered cells look like
            looks = self._cover(looks)
        opened = not np.isin(looks, self.looks.covered()).all()
        if not opened and self.image is not None:
            self.new_board = self.book.cut_cells(self.image)[0]
        if not self.looks.could_be_new(looks):
            raise ScreenError("minebot learns and plays from a new game: start one and run it again")
        assert self.image is not None
        self.restarter.playing(self.image)
        tally = Tally()
        on_safe = False
        state: State = "playing"
        self.judge.new_game()
        if not opened:  # some games open an area themselves (xdemineur): no first click there
            wait_for_new_second(self._first_click_second)
            cell = first_click(Board.covered(self.geometry.rows, self.geometry.cols), self.rule)
            self._first_click_second = int(time.time())
            state, looks, _ = self._reveal([cell], looks, guess=True)
            tally.clicks += 1
            tally.guesses += self.rule == "none"
        try:
            state, looks, on_safe = self._play_on(state, looks, tally)
        except ClicksIgnored:
            if not self.judge.lost_on_suspect():
                raise
            state = "lost"
        if state == "won":
            self._finish(looks)
        self.save()
        return tally.result(state, time.perf_counter() - start, on_safe)

    def _play_on(self, state: State, looks: np.ndarray, tally: Tally) -> tuple[State, np.ndarray, bool]:
        """Play a game from ``looks`` to its end, counting in ``tally``: the state, the last looks,
        and whether it was lost on a cell called safe."""
        on_safe, entry = False, looks
        while state == "playing":
            tally.readings += 1
            try:
                naming = self._name(looks)
            except InconsistentBoard:
                cells, before, guessed = self.judge.last or ([], entry, True)  # the clicks last judged
                across = self.judge.drawn_across(cells, before, looks)  # drawn after the reading that ended the game
                if across is None:
                    raise
                state, on_safe = across, across == "lost" and not guessed
                break
            board = self.looks.board(looks, self.mines)
            if board is not None:  # every look named: the board is known, decide as on a known skin
                analysis = self.strategy.analyse(board, self.rule, self.rng, full=False)
                certain_mines, certain_safe = analysis.mines, analysis.safe
                pick = analysis.move.cell if analysis.move is not None else None
            else:
                certain_mines, certain_safe, pick = naming.mines, naming.safe, None
            flags = sorted(c for c in certain_mines if self.flags and looks[c] in self.looks.covered())
            if flags:
                # while the counter is watched, one flag at a time, read twice: it shows every number
                left = self.looks.mines_left(looks, self.mines)
                watch = left is not None and self.counter.eager(left - 1)
                flags = self._click(flags[:1] if watch else flags, "right")
                tally.clicks += len(flags)
                after = self.read_after(flags, looks)
                self.judge.flagged(flags, after)
                for k in np.unique(after[[c[0] for c in flags], [c[1] for c in flags]]):
                    if int(k) not in self.looks.names():
                        self.looks.hidden[int(k)] = FLAG
                looks = self.read() if watch else after
                continue
            if certain_safe:
                safe = sorted(certain_safe)
                state, looks, guessed = self._reveal(safe, looks, guess=False)
                tally.clicks += len(safe)
                on_safe = state == "lost" and not guessed
                continue
            if not np.isin(looks, self.looks.covered()).any():
                # nothing covered and no loss shown: every safe cell is open (xdemineur is won once
                # its last mine is flagged, and the flags' clicks do not report a win); no guess
                state = "won"
                break
            cell = pick if pick is not None else naming.safest(np.isin(looks, self.looks.covered()))
            tally.guesses += 1
            tally.clicks += 1
            state, looks, _ = self._reveal([cell], looks, guess=True)
        return state, looks, on_safe

    def _name(self, looks: np.ndarray) -> Naming:
        try:
            naming = name_looks(looks, self.looks.hidden, self.looks.possible, self.mines)
        except InconsistentBoard as exc:
            raise InconsistentBoard(f"{exc} (the screen is saved in {self.save_screen()})") from exc
        for k, values in naming.possible.items():
            if len(values) == 1 and len(self.looks.possible.get(k, NUMBERS)) > 1:
                print(f"minebot: learnt a look: {CHAR_OF[next(iter(values))]}", file=self.out)
        self.looks.possible.update(naming.possible)
        return naming

    def _reveal(self, cells: list[Cell], looks: np.ndarray, guess: bool) -> tuple[State, np.ndarray, bool]:
        """Click cells, read what the game drew, and tell how the game stands: the state, the looks
        now, and whether a guess is among the clicks judged (with those before: Judge.joined, where
        a quick reading, bot/settling.py, did not show all the clicks before drew)."""
        clicked = self._click(cells, "left")  # all but what the guard held back (the game may be over: see Judge.outcome)
        after = self.read_after(clicked, looks, "left")
        if self.settler.quiet < SETTLE and not self.judge.whole(cells, looks, after):
            again = self.read(SETTLE)
            self.settler.late += not np.array_equal(again, after)  # not where the game drew its end at once
            after = again
            cells, looks, guess = self.judge.joined(cells, looks, after, guess)
        return self.judge.outcome(cells, looks, after, guess), after, guess

    # -- between games ----------------------------------------------------------------------
    def _finish(self, looks: np.ndarray) -> None:
        """Flag the covered cells left when every other cell is open: they are mines, and some
        games (xdemineur) are won only once every mine is flagged. (Not where flags are off.)"""
        left = [(int(r), int(c)) for r, c in np.argwhere(np.isin(looks, self.looks.covered()))]
        if left and self.flags:
            left = self._click(left, "right")
            deadline = time.perf_counter() + SLOW_GAME  # the end as the game shows it (xdemineur's face changes now);
            while time.perf_counter() < deadline:  # a game over may also ignore the flags
                if all(self.read()[cell] != looks[cell] for cell in left):
                    break

    def new_game(self, key: str | None = None) -> None:
        """Start the next game (see bot/restart.py); ``key``: the game's own key for it, if known."""
        self.restarter.start(self, key)

    def over(self) -> bool:
        """Whether the board shows a game that is over, by looks already named (a mine or a flag in
        sight): a run started on the last run's lost game starts a new one. With nothing named
        yet, no board can be told over."""
        return bool(self.looks.hidden) and not self.looks.could_be_new(self.read())

    def fresh_within(self, seconds: float) -> bool:
        """Whether a new game shows within ``seconds``: a board that can be a new game's (see Looks.could_be_new)
        and is not the last game's (a game like xdemineur opens an area of a new game itself)."""
        last = self.shown
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            looks = self.read()
            if self.looks.could_be_new(looks) and (last is None or not np.array_equal(looks, last)):
                return True
            time.sleep(0.1)
        return False

    def save_screen(self) -> Path:
        """Save the last screen read in this user's cache folder; where."""
        return save_screen(self.image, "learn-last-screen.png")

    # -- what was learnt --------------------------------------------------------------------
    def pack_name(self) -> str:
        if self.name:
            return self.name
        covered = self.book.pictures[self.looks.covered()[0]]
        return "learnt-" + hashlib.sha1(covered.tobytes()).hexdigest()[:8]

    def save(self) -> list[str]:
        """Write every named look into this user's pack for the skin (merged, nothing overwritten;
        pictures of another size than the pack's go to a pack of their own: learnt_pack_folder)."""
        folder = learnt_pack_folder(self.pack_name(), n := self.book.cut)
        start_learnt_pack(folder, n, self.geometry.pitch, self.rule, round(1000 * SETTLE), LOOK_LIMIT)
        add_redraws(folder, *self.settler.counted(), settle_ms)
        tiles: dict[str, list[np.ndarray]] = {}
        for look, code in self.looks.names().items():
            tiles.setdefault(TILE_NAMES[CHAR_OF[code]], []).append(self.book.typical(look))
        board = add_board(folder, self.new_board, self.geometry.rows, self.geometry.cols) if self.new_board else None
        counter = self.counter.learn()
        if counter is not None:
            print(f"minebot: learnt the mines counter ({counter})", file=self.out)
        return (add_tiles(folder, tiles) + ([board] if board else [])
                + (add_counter(folder, counter.digits, counter.settings()) if counter else []))


