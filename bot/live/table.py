"""A real game on the screen, as a :class:`bot.play.Table` the play loop can drive.

It reads only the board's region (and the band above it, where the face is), waits for the game
to finish drawing before each reading, parks the pointer off the board while reading, and never
clicks on a reading that contradicts itself or the reading before.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bot.board import Board, contradiction
from bot.devices.actuator import Mouse
from bot.devices.capture import Screen
from bot.errors import (
    BoardGone,
    ClicksIgnored,
    ImpossibleReading,
    InconsistentBoard,
    ScreenError,
    UnreadableCell,
    VisionError,
)
from bot.live.guard import ClickGuard
from bot.live.place import board_region, click_face, park_point
from bot.play import Spent
from bot.solver import check_layout
from bot.userdata import save_screen
from bot.vision import Geometry, Reading, read
from bot.vision.locate import locate
from bot.vision.pack import SkinPack
from bot.vision.reading import find_face
from bot.vision.tiles import classifier_for, read_cells
from bot.vocabulary import COVERED, EXPLODED, FLAG, HIDDEN, MINE, QUESTION, WRONG_FLAG, Cell, State

SLOW_GAME = 2.0  # s a click may take to show before the measured redraw time says otherwise
# share of cells that must still read beside a dialog to judge the game from them
SHOWN_AT_END = 0.25
DIALOGS_AT_END = 3  # Returns pressed, each given SLOW_GAME, for dialogs in a row at a game's end
LATENCY_FACTOR = 5  # a click not shown after this many times the slowest redraw seen is lost
READ_TRIES = 3  # readings that contradict themselves or the last one before the bot stops
BACK_OFF = 0.05  # s before the next reading after a contradiction (times the contradictions so far)
REDRAW_POLL = 0.05  # s between readings while a click does not show yet


def wait_for_new_second(last_first_click: int | None) -> None:
    """Make each game's first click fall in a wall-clock second of its own (``last_first_click``:
    the second of the last game's first click).

    Wine's winemine lays its mines at the first click after ``srand(time(NULL))``: every game
    begun in the same second gets the same mines. Fast losses would then be replayed until the
    second turns, and the games played would no longer be a fair sample of the game's boards.
    """
    if last_first_click is None:
        return
    while int(time.time()) <= last_first_click:
        time.sleep(0.01)


class LiveTable:
    """The game on screen. ``geometry`` is in screen coordinates."""

    def __init__(
        self, screen: Screen, mouse: Mouse, pack: SkinPack, geometry: Geometry, mines: int | None
    ) -> None:
        self.screen, self.mouse, self.pack, self.mines = screen, mouse, pack, mines
        self.geometry = geometry
        self.chords = pack.chord is not None
        self.region = board_region(geometry, screen)
        self.local = geometry.moved(-self.region.left, -self.region.top)
        self.state: State = "playing"
        self.reading: Reading | None = None
        self.image: np.ndarray | None = None
        self.park = park_point(geometry, screen)
        self._previous: Board | None = None
        self._first_click_second: int | None = None
        # since the last reading: (a cell that must change, the cell clicked for it, the button)
        self._acted: list[tuple[Cell, Cell, str]] = []
        self._pressed_at = 0.0  # when the last click was sent
        # clicks sent on cells this game (the guard holds back some of those planned)
        self.presses = 0
        self.spent = Spent()  # where this game's time went (the commands give each game its own)
        self.latency = 0.0  # the slowest redraw after a click seen so far, seconds
        # the game drew its end over the board (a dialog): see reveal_many
        self._covered_at_end = False
        # the pack has read a cell other than a covered one here (see commands.play)
        self.proven = False
        self.still = False  # the last reading waited for the board to stay still (see _read_once)
        # whether the game shows a face of the pack (looked for at the first reading)
        self.faced: bool | None = None
        self.guard = ClickGuard(screen, self.region, self.local)
        self.refresh()

    # -- reading ----------------------------------------------------------------------------
    def _read_once(self, still: bool) -> Reading:
        """A reading once the board stayed still for the pack's quiet time; unless ``still``, as soon
        as every cell clicked since the last one shows the click (two grabs alike). What the game is
        still drawing then reads covered (unknown, never wrong; the guard halts a batch it reaches; a
        guess waits for a still board: play_game); an early reading that cannot be read is redone."""
        self.mouse.park(*self.park)
        must = list(dict.fromkeys(cell for cell, _, _ in self._acted))
        early = not still and bool(must)
        # for the board to show the clicks and stay still: grabs of its region
        with self.spent.on("wait"):
            self.image = self.screen.settled(
                self.region,
                quiet=self.pack.settle,
                done=(lambda image: self.guard.shown(image, must)) if early else None,
            )
        try:
            with self.spent.on("read"):
                # once: a game that shows no face of the pack is read without one
                if self.faced is None:
                    self.faced = find_face(self.image, self.local, self.pack) is not None
                reading = read(
                    self.image, [self.pack], geometry=self.local, mines=self.mines, face=self.faced
                )
        except ImpossibleReading:
            raise
        except VisionError as exc:
            if early:
                return self._read_once(still=True)  # caught in the middle of drawing
            saved = f"the screen is saved in {self._save_screen()}, a grab from ({self.region.left},{self.region.top}) on"
            detail = f"{exc.whole}; {saved}"
            over = self.guard.window_over()  # the window system's word, where it has one
            if isinstance(exc, UnreadableCell) and over is None and self._board_still_here():
                raise UnreadableCell(str(exc), exc.skin, detail=detail, what=exc.what) from exc
            raise BoardGone(
                f"the board is no longer where it was: {over or 'the game window moved, closed or is covered (a dialog?)'}; "
                "bring it back and run minebot again",
                detail=detail,
            ) from exc
        self.guard.seen(self.image, np.isin(reading.board.cells, HIDDEN))
        self.still = not early
        return reading

    def _board_still_here(self) -> bool:
        """Whether the board is still where it was (so a cell that reads as nothing is a new tile)."""
        assert self.image is not None
        try:
            found = locate(self.image, [self.pack])
        except VisionError:
            return False
        return (found.rows, found.cols) == (self.local.rows, self.local.cols) and max(
            abs(a - b) for a, b in zip(found.origin, self.local.origin, strict=True)
        ) <= 2

    def refresh(self, still: bool = False) -> Reading:
        """Read the board (once it stayed still with ``still``: _read_once); read again, still, if the
        reading contradicts itself or the last one (three times at most: READ_TRIES), or while a cell
        just clicked does not show it yet (for max(SLOW_GAME, LATENCY_FACTOR x the slowest redraw
        seen): a game slow to draw must not get a second click, which would turn a flag into a
        question mark). A left or middle click still not shown by then is clicked once more
        (gnome-mines loses one now and then, see park_point); a flag, or a click lost twice, means
        the game ignores the clicks: the bot stops."""
        failures = 0
        retried = False
        wait = max(SLOW_GAME, LATENCY_FACTOR * self.latency)
        deadline = time.perf_counter() + wait
        while True:
            try:
                reading = self._read_once(still or failures > 0)
                problem = self._problem(reading)
            except (
                ImpossibleReading
            ) as exc:  # a cell pressed or highlighted for a moment: read again
                problem = str(exc)
            if problem is not None:
                failures += 1
                if failures == READ_TRIES:
                    raise VisionError(
                        f"the board read {READ_TRIES} times contradicts itself; stopped without clicking: "
                        "move anything over the board and run minebot again",
                        detail=f"{problem}; the screen is saved in {self._save_screen()}",
                    )
                with self.spent.on("wait"):
                    time.sleep(BACK_OFF * failures)
                continue
            late = [act for act in self._acted if reading.board[act[0]] == COVERED]
            if late and reading.state == "playing":
                if time.perf_counter() < deadline:
                    with self.spent.on("wait"):
                        time.sleep(REDRAW_POLL)
                    continue
                if not retried and all(button != "right" for _, _, button in late):
                    again = list(dict.fromkeys((target, button) for _, target, button in late))
                    print(
                        f"minebot: cell {late[0][0]} did not open within {wait:.1f} s; clicking "
                        f"{', '.join(str(target) for target, _ in again)} again",
                        file=sys.stderr,
                    )
                    for target, button in again:
                        self._press(target, button)
                    retried, deadline = True, time.perf_counter() + wait
                    continue
                raise ClicksIgnored(
                    f"cell {late[0][0]} was clicked and still shows covered {(2 if retried else 1) * wait:.1f} s "
                    "later: the game ignores the clicks (paused, or behind another window?); bring it to the front "
                    "and run minebot again",
                    detail=f"the screen is saved in {self._save_screen()}",
                )
            if self._acted:
                self.latency = max(self.latency, time.perf_counter() - self._pressed_at)
            self._acted = []
            self.reading, self._previous, self.state = reading, reading.board, reading.state
            self.proven = self.proven or not reading.board.is_fresh()
            return reading

    def _save_screen(self) -> Path:
        # this user's own folder, not a shared /tmp name
        return save_screen(self.image, "last-screen.png")

    def _problem(self, reading: Reading) -> str | None:
        if self._previous is not None and self._previous.shape == reading.board.shape:
            why = contradiction(self._previous, reading.board)
            if why:
                return why
        if reading.state == "playing":
            try:
                check_layout(reading.board)  # the whole board, not only each number alone
            except InconsistentBoard as exc:
                return str(exc)
        return None

    # -- the Table protocol -----------------------------------------------------------------
    def board(self, still: bool = False) -> Board:
        # stale after flags; read before the game stood still
        if self.reading is None or (still and not self.still):
            self.refresh(still)
        assert self.reading is not None
        return self.reading.board

    def _press(self, cell: Cell, button: str) -> bool:
        """Click ``cell`` unless the guard says not to; False once the board changed (ClickGuard)."""
        r, c = cell
        if not (0 <= r < self.geometry.rows and 0 <= c < self.geometry.cols):
            raise VisionError(
                f"refusing to click ({r},{c}): outside the {self.geometry.cols}x{self.geometry.rows} board"
            )
        x, y = self.geometry.centre(cell)

        def press() -> None:
            self.mouse.click(x, y, button)  # type: ignore[arg-type]

        if self.guard.press_checked(cell, press, self.spent.on):
            self._pressed_at = time.perf_counter()
            self.presses += 1
        return not self.guard.halted

    def _click(self, cell: Cell, button: str) -> None:
        if self._press(cell, button):
            self._acted.append((cell, cell, button))

    def reveal_many(
        self, cells: list[Cell], chords: Sequence[Cell] = (), guess: bool = False
    ) -> State:
        """Open ``cells`` and chord ``chords``; the state the game then shows. Where the board cannot
        be read after the clicks, the game may have drawn its end over it (a best-times dialog,
        "Congratulations"): see _end_under_a_drawing."""
        first = self.reading is not None and self.reading.board.is_fresh()
        before = self._previous
        for number in chords:
            assert self.pack.chord is not None and self._previous is not None
            if not self._press(number, self.pack.chord):
                continue
            self._acted += [
                (n, number, self.pack.chord)
                for n in self._previous.neighbours(number)
                if self._previous[n] == COVERED
            ]
        for cell in cells:
            self._click(cell, "left")
        # all the batch meant to open, clicked or not: a game that drew its end over the board in the
        # middle of the batch (the last safe cells opened by a 0's area) gets no further click (ClickGuard)
        opened = set(cells) | {
            n
            for number in chords
            if before is not None
            for n in before.neighbours(number)
            if before[n] == COVERED
        }
        try:
            self.refresh()
        except (
            VisionError,
            ScreenError,
        ) as exc:  # not readable; the game ignoring the clicks is no win
            if isinstance(exc, ClicksIgnored) or before is None or self.mines is None:
                raise
            end = self._end_under_a_drawing(before, opened, guess)
            if end is None:
                raise
            print(
                f"minebot: the board cannot be read after the last clicks: the game drew its end over it; {end}",
                file=sys.stderr,
            )
            self._acted, self.state, self._covered_at_end = [], end, True
        if first:
            self._first_click_second = int(time.time())  # the game read its clock before this
        return self.state

    def _end_under_a_drawing(self, before: Board, opened: set[Cell], guess: bool) -> State | None:
        """How a game whose board no longer reads after clicks ended, the game having drawn its end over it;
        None where not. Won where the clicks opened the last safe cells (after a ``guess``, where the cells read
        show no mine); or an area opened the rest, the drawing lies across whole rows, and the rows read (a
        quarter or more) show no mine or covered cell (winemine flags a won game's mines). Drawn over whole: as
        the game's face (the pack's pictures) says (over98-web). A window over the board or a game closed shows no
        such face (under Wine they left the screen round the board as it was), nor the rest, and the window
        system, where it has a word, says so (ClickGuard.window_over): the bot stops."""
        assert self.image is not None
        # another program's window, not the game's own drawing
        if self.guard.window_over() is not None:
            return None
        last = self._last_safe_cells(before, opened)
        if last and not guess:
            return "won"
        codes, scores = read_cells(self.image, self.local, self.pack)
        shown = scores < classifier_for(self.pack).limit(self.local.scale)
        if shown.mean() < SHOWN_AT_END:  # drawn over whole: the face tells
            face = find_face(self.image, self.local, self.pack)
            return face[0] if face is not None and face[0] != "playing" else None
        if np.isin(codes[shown], (MINE, EXPLODED, WRONG_FLAG)).any():
            return None
        if last:
            return "won"
        was_hidden = np.isin(before.cells, HIDDEN) & shown
        across = shown.all(axis=1) | ~shown.any(axis=1)  # each row wholly read or wholly drawn over
        return (
            "won"
            if across.all() and not np.isin(codes[was_hidden], (COVERED, QUESTION)).any()
            else None
        )

    def _readable_within(self, seconds: float) -> bool:
        """Whether the board reads again within ``seconds``."""
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            try:
                self._read_once(still=True)
                return True
            except (VisionError, BoardGone):  # still drawn over (it reads as gone, not as unread)
                time.sleep(0.1)
        return False

    def _last_safe_cells(self, before: Board, opened: set[Cell]) -> bool:
        """Whether opening ``opened`` leaves only the mines hidden on ``before``."""
        hidden = int(np.isin(before.cells, HIDDEN).sum())
        return hidden - len(opened) == self.mines and all(
            before[cell] == COVERED for cell in opened
        )

    def flag(self, cell: Cell) -> None:
        self._click(cell, "right")
        self.reading = None  # the next board() reads again and sees the flag

    # -- between games ----------------------------------------------------------------------
    def new_game(self, key: str | None = None) -> None:
        """Start the next game: click the face where the game has one, else press ``key``. Where the game
        drew its end over the board (a best-times dialog), Return first: its default button. A won game's
        dialog may show only after the win was read (winemine under load): then too, once."""
        assert self.image is not None
        self.presses = 0
        answered = self._covered_at_end
        if answered:  # winemine: a name for the best times, then the best times
            self._answer_dialogs()
        self._start_new(key)
        before = self.reading.board if self.reading is not None else None
        self._previous = None
        deadline = time.perf_counter() + 3
        while True:
            try:
                reading: Reading | None = self.refresh()
            except BoardGone:
                if answered or self.state != "won":
                    raise
                answered = True
                self._answer_dialogs()
                self._start_new(key)
                reading, deadline = None, time.perf_counter() + 3
            except VisionError:  # caught between the old board and the new one (an animation)
                reading = None
            if (
                reading is not None
                and reading.state == "playing"
                and _new_board(before, reading.board)
            ):
                wait_for_new_second(self._first_click_second)
                return
            if time.perf_counter() > deadline:
                raise ScreenError(
                    "asked for a new game but the board did not reset; close any dialog and run minebot again",
                    detail=f"the screen is saved in {self._save_screen()}",
                )
            self._previous = None
            time.sleep(0.1)

    def _answer_dialogs(self) -> None:
        """Return until the board reads again (DIALOGS_AT_END at most); else the face may still start a game (a web
        game's panel over the board): where none shows, stop (no key or click more into what may be the user's)."""
        assert self.image is not None
        self._covered_at_end = False
        for _ in range(DIALOGS_AT_END):
            self.mouse.press("Return")
            if self._readable_within(SLOW_GAME):
                return
        if find_face(self.image, self.local, self.pack) is None:
            raise BoardGone(
                f"the game drew its end over the board and it is still there after {DIALOGS_AT_END} "
                "presses of Return: close it and run minebot again",
                detail=f"the screen is saved in {self._save_screen()}",
            )

    def _start_new(self, key: str | None) -> None:
        """Click the face, else press ``key``."""
        assert self.image is not None
        if not click_face(
            self.mouse, self.image, self.local, self.pack, (self.region.left, self.region.top)
        ):
            if key is None:
                why = (
                    "shows no face of its pack's to click"
                    if self.pack.faces
                    else "has no face to click"
                )
                raise ScreenError(
                    f"the game (skin {self.pack.name}) {why} for a new game: start one by hand, or give "
                    "its key with --new-game-key KEY"
                )
            self.mouse.press(key)


def _new_board(before: Board | None, after: Board) -> bool:
    """Whether ``after`` is a new game: all covered, or (games that open an area themselves,
    like xdemineur) changed and with no flags or marks left."""
    if after.is_fresh():
        return True
    return (before is None or after != before) and not np.isin(after.cells, (FLAG, QUESTION)).any()
