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
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO, cast

import cv2
import numpy as np

from bot.actuator import Mouse
from bot.board import Board, dilate
from bot.capture import Region, Screen
from bot.errors import ClicksIgnored, InconsistentBoard, ScreenError
from bot.live import LATENCY_FACTOR, SLOW_GAME, ClickGuard, board_region, park_point, wait_for_new_second
from bot.naming import Naming, name_looks
from bot.play import GameResult
from bot.solver import get_strategy
from bot.solver.guess import first_click
from bot.userdata import cache_dir, learnt_skins
from bot.vision.geometry import Geometry
from bot.vision.looks import LOOK_LIMIT, LookBook
from bot.vision.pack import SkinPack, add_tiles, start_learnt_pack
from bot.vocabulary import CHAR_OF, COVERED, EXPLODED, FLAG, MINE, NUMBERS, TILE_NAMES, WRONG_FLAG, Cell, FirstClickRule, State

SETTLE = 0.1  # s the board must stay unchanged before a reading (an unseen game may animate)
STABLE_TRIES = 5  # readings that may show a look that then goes away, before the learner stops
NEW_GAME_KEYS = ("F2", "ctrl+r", "n", "ctrl+n")  # tried in turn after a game (see Learner.new_game)
LAST_KEY = "ctrl+n"  # tried after clicks on the face and buttons: a browser opens a new window on it
BUTTONS_WITHIN = 2.0  # cells above the board where new_game looks for buttons to click
BUTTONS_TRIED = 4  # of those, the nearest the board
DRAWN_OVER = 0.02  # share of the board's pixels changed by a key that says something covers it
OVERLAY_CELLS = 3  # revealed cells showing other looks that say something is drawn across the board
UNNAMED = 99  # the value of a look not named yet (none of the cell codes)


@dataclass
class Looks:
    """What is known of one skin's looks (ids of a LookBook): hidden ones, end-of-game ones, and
    for each revealed look the numbers it may still show."""

    hidden: dict[int, int] = field(default_factory=dict)  # look -> COVERED or FLAG
    ends: dict[int, int] = field(default_factory=dict)  # look -> MINE, EXPLODED or WRONG_FLAG
    possible: dict[int, frozenset[int]] = field(default_factory=dict)

    def names(self) -> dict[int, int]:
        """Every look named for certain, and its cell code."""
        named = {k: next(iter(v)) for k, v in self.possible.items() if len(v) == 1}
        return {**self.hidden, **self.ends, **named}

    def covered(self) -> list[int]:
        return [k for k, code in self.hidden.items() if code == COVERED]


@dataclass
class _Tally:
    """What one game took: guesses, readings and clicks."""

    guesses: int = 0
    readings: int = 0
    clicks: int = 0


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
        self.covered_pictures = np.full((geometry.rows * geometry.cols, self.book.size, self.book.size, 3), np.nan,
                                        dtype=np.float32)
        self.looks = Looks()
        self.park = park_point(geometry, screen)
        self.guard = ClickGuard(screen, self.region, self.local)
        self.latency = 0.0  # the slowest redraw after a click seen so far, seconds
        self.strategy = get_strategy("best")
        self.rng = np.random.default_rng()
        self.name = name
        self.out = out if out is not None else sys.stderr
        self.image: np.ndarray | None = None
        self.shown: np.ndarray | None = None  # the looks of the last reading
        self.band_playing: np.ndarray | None = None
        self._first_click_second: int | None = None
        self.restart: tuple[str, object] | None = None  # how a new game started last time: ("key", k) or ("face", (x, y))
        # a guess that showed only looks never named, the board still nameable: a number and the area
        # it opened, or the exploded mine of a lost game and the mines it shows beside it (winemine
        # when every other mine is flagged or next to it; sgt-mines shows none): the cell, its look,
        # what was known of the looks before, and the looks of the other cells that changed
        self._suspect: tuple[Cell, int, dict[int, frozenset[int]], set[int]] | None = None

    def seed(self, pack: SkinPack) -> None:
        """Start from what a pack learnt before: each tile a look, named as the pack names it."""
        for tile in pack.tiles:
            look = self.book.add(tile.image)
            code = int(tile.code)
            if code in (COVERED, FLAG):
                self.looks.hidden[look] = code
            elif code in (MINE, EXPLODED, WRONG_FLAG):
                self.looks.ends[look] = code
            elif code >= 0:
                self.looks.possible[look] = frozenset({code})

    # -- reading ----------------------------------------------------------------------------
    def read(self) -> np.ndarray:
        """The look of every cell, once the board has stayed still for SETTLE seconds. A look not
        seen before counts only once a second reading shows it on the same cells: a pressed cell,
        a highlight or a frame of an animation is gone by then (and is then forgotten)."""
        for _ in range(STABLE_TRIES):
            self.mouse.park(*self.park)
            self.image = self.screen.settled(self.region, quiet=SETTLE)
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
        return self.book.assign(image, self.covered_pictures, self.looks.covered())

    def _shown(self, looks: np.ndarray) -> np.ndarray:
        """Take a stable reading: keep its looks, and the picture of every covered cell in it."""
        self.shown = looks
        assert self.image is not None
        self.guard.seen(self.image, ~np.isin(looks, list(self.looks.possible)))  # value looks: opened cells
        covered = np.isin(looks, self.looks.covered()).ravel()
        self.covered_pictures[covered] = self.book.shown[covered]
        return looks

    def read_after(self, cells: list[Cell], before: np.ndarray, button: str = "right") -> np.ndarray:
        """Read until every cell clicked shows another look than before (the game drew the click);
        a game is given max(SLOW_GAME, LATENCY_FACTOR x its slowest redraw so far) for it. Clicks
        not shown by then are clicked once more, then given as long again: the first click on a
        window that does not have the focus may only give it the focus, and a flag once went
        unanswered for 2 s in winemine, in one of eight 20-game runs. (Not where cells away from the
        clicks changed: the game may be over.) A second left click on a
        cell the game did open chords a number with no flags around it, which does nothing; a flag
        drawn later than that shows as a question mark over a mine, which is no worse."""
        start = time.perf_counter()
        limit = max(SLOW_GAME, LATENCY_FACTOR * self.latency)
        retried = False
        while True:
            looks = self.read()
            if all(looks[cell] != before[cell] for cell in cells):
                self.latency = max(self.latency, time.perf_counter() - start)
                if cells:
                    self._suspect = None  # the game answered: not over after all
                return looks
            if time.perf_counter() - start > limit and not retried:
                if self._changed_apart(cells, before, looks).any():
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

    @staticmethod
    def _apart(clicked: list[Cell], changed: np.ndarray) -> np.ndarray:
        """The ``changed`` cells not joined to a clicked cell by changed cells: what a click (and a
        0's area) cannot have opened; the game's doing at its end."""
        _, parts = cv2.connectedComponents(changed.astype(np.uint8), connectivity=8)
        return changed & ~np.isin(parts, [parts[c] for c in clicked if changed[c]])

    @staticmethod
    def _changed_apart(clicked: list[Cell], before: np.ndarray, after: np.ndarray) -> np.ndarray:
        """The cells that changed between the readings apart from the clicks (see _apart), a click
        not drawn yet still joining what it opened."""
        changed = after != before
        for cell in clicked:
            changed[cell] = True
        return Learner._apart(clicked, changed)

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
        looks = self.read()
        if not self.looks.hidden:  # nothing known: a new game's board says what covered cells look like
            try:
                self.looks.hidden.update({k: COVERED for k in _covered_looks(looks, self.mines)})
            except ScreenError as exc:
                raise ScreenError(f"{exc} (the screen is saved in {self.save_screen()})") from exc
            self._shown(looks)
        opened = not np.isin(looks, self.looks.covered()).all()
        if not self._new(looks):
            raise ScreenError("minebot learns and plays from a new game: start one and run it again")
        assert self.image is not None
        self.band_playing = self._band(self.image)
        tally = _Tally()
        on_safe = False
        state: State = "playing"
        self._suspect = None
        if not opened:  # some games open an area themselves (xdemineur): no first click there
            wait_for_new_second(self._first_click_second)
            cell = first_click(Board.covered(self.geometry.rows, self.geometry.cols), self.rule)
            self._first_click_second = int(time.time())
            state, looks = self._reveal([cell], looks, guess=True)
            tally.clicks += 1
            tally.guesses += self.rule == "none"
        try:
            state, looks, on_safe = self._play_on(state, looks, tally)
        except ClicksIgnored:
            if self._suspect is None:
                raise
            cell, look, known, beside = self._suspect  # the game ended on that guess: it showed the exploded mine
            self.looks.possible = known  # and nothing learnt since, when it was taken for a number, holds
            self.looks.ends[look] = EXPLODED
            for other in beside - {look}:  # the mines a lost game shows (next to the one hit)
                self.looks.ends.setdefault(other, MINE)
            print(f"minebot: the game stopped answering after the guess at {cell} showed looks never seen: "
                  "lost there, and that look is the exploded mine", file=self.out)
            state = "lost"
        if state == "won":
            self._finish(looks)
        self.save()
        return GameResult(state, tally.guesses, tally.readings, time.perf_counter() - start, on_safe, clicks=tally.clicks)

    def _play_on(self, state: State, looks: np.ndarray, tally: _Tally) -> tuple[State, np.ndarray, bool]:
        """Play a game from ``looks`` to its end, counting in ``tally``: the state, the last looks,
        and whether it was lost on a cell called safe."""
        on_safe = False
        last: tuple[list[Cell], np.ndarray, bool] = ([], looks, True)  # the cells last opened, the looks before, a guess?
        while state == "playing":
            tally.readings += 1
            try:
                naming = self._name(looks)
            except InconsistentBoard:
                across = self._drawn_across(last[0], last[1], looks)  # drawn after the reading that ended the game
                if across is None:
                    raise
                state, on_safe = across, across == "lost" and not last[2]
                break
            board = self._board(looks)
            if board is not None:  # every look named: the board is known, decide as on a known skin
                analysis = self.strategy.analyse(board, self.rule, self.rng, full=False)
                certain_mines, certain_safe = analysis.mines, analysis.safe
                pick = analysis.move.cell if analysis.move is not None else None
            else:
                certain_mines, certain_safe, pick = naming.mines, naming.safe, None
            flags = sorted(c for c in certain_mines if self.flags and looks[c] in self.looks.covered())
            if flags:
                flags = self._click(flags, "right")
                tally.clicks += len(flags)
                after = self.read_after(flags, looks)
                for k in np.unique(after[[c[0] for c in flags], [c[1] for c in flags]]):
                    if int(k) not in self.looks.names():
                        self.looks.hidden[int(k)] = FLAG
                looks = after
                continue
            if certain_safe:
                safe = sorted(certain_safe)
                last = (safe, looks, False)
                state, looks = self._reveal(safe, looks, guess=False)
                tally.clicks += len(safe)
                on_safe = state == "lost"
                continue
            if not np.isin(looks, self.looks.covered()).any():
                # nothing covered and no loss shown: every safe cell is open (xdemineur is won once
                # its last mine is flagged, and the flags' clicks do not report a win); no guess
                state = "won"
                break
            cell = pick if pick is not None else self._guess(naming, looks)
            tally.guesses += 1
            tally.clicks += 1
            last = ([cell], looks, True)
            state, looks = self._reveal([cell], looks, guess=True)
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

    def _board(self, looks: np.ndarray) -> Board | None:
        """The board, where every look on it is named; else None."""
        names = self.looks.names()
        if not all(int(k) in names for k in np.unique(looks)):
            return None
        codes = np.vectorize(lambda k: names[int(k)], otypes=[np.int8])(looks)
        return Board(codes, self.mines)

    def _guess(self, naming: Naming, looks: np.ndarray) -> Cell:
        """The covered cell least likely to hold a mine, mixed over the namings still possible."""
        covered = np.isin(looks, self.looks.covered())
        chance = naming.probabilities if naming.probabilities is not None else np.full(looks.shape, 0.5)
        chance = np.where(covered, np.nan_to_num(chance, nan=0.5), np.inf)
        r, c = np.unravel_index(int(np.argmin(chance)), chance.shape)
        return int(r), int(c)

    def _reveal(self, cells: list[Cell], looks: np.ndarray, guess: bool) -> tuple[State, np.ndarray]:
        """Click cells, read what the game drew, and tell how the game stands."""
        clicked = self._click(cells, "left")  # all but what the guard held back (the game may be over: see _outcome)
        after = self.read_after(clicked, looks, "left")
        return self._outcome(cells, looks, after, guess), after

    def _outcome(self, clicked: list[Cell], before: np.ndarray, after: np.ndarray, guess: bool) -> State:
        """Won, lost or playing, from what changed. A click opens the cell, and a 0 its neighbours:
        what changed is linked to the cells clicked. Anything else that changed is the game's doing
        at the end: all cells but the mines open (won; some games then flag the mines), or the
        mines shown (lost: the clicked cell is the exploded mine)."""
        self._suspect = None
        known = self.looks.names()
        hidden_before = int(np.isin(before, list(self.looks.hidden)).sum())
        if not guess and hidden_before - len(clicked) == self.mines:
            return "won"  # the last safe cells: won, whatever the game then draws over the board (a best-times dialog)
        # only hidden cells change in a game (a revealed one may move to a look found since, a twin of its own)
        changed = (after != before) & np.isin(before, list(self.looks.hidden))
        elsewhere = self._apart(clicked, changed)
        if elsewhere.any():  # the game's doing, or something drawn across the board at its end
            across = self._drawn_across(clicked, before, after)
            if across is not None:
                return across
        hidden = np.isin(after, list(self.looks.hidden)) | elsewhere
        if int(hidden.sum()) == self.mines and not any(known.get(int(after[c])) == EXPLODED for c in clicked):
            for k in np.unique(after[elsewhere]):  # the game flagged the mines itself
                self.looks.hidden.setdefault(int(k), FLAG)
            return "won"
        shows_mine = any(known.get(int(after[c])) in (EXPLODED, MINE) for c in clicked)
        if not guess and elsewhere.any() and not shows_mine:
            raise ScreenError(
                "after clicks on cells called safe, cells elsewhere on the board changed: something is drawn over the "
                f"board (a dialog?) (the screen is saved in {self.save_screen()}); close it and run minebot again"
            )
        if elsewhere.any() or shows_mine:
            if guess and len(clicked) == 1:
                self._learn_end(clicked[0], after, changed)
            return "lost"
        if guess:
            shown = {int(k) for k in after[changed]}
            r, c = clicked[0]
            near = changed.copy()
            near[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2] = False
            # every cell that changed is next to the one clicked and shows a look never named: the mine
            # hit and mines beside it (a lost game with the others flagged), or a number's first showing
            unnamed = not shown & set(known) and not near.any()
            try:
                name_looks(after, self.looks.hidden, self.looks.possible, self.mines)
            except InconsistentBoard as exc:
                # the guess showed a mine, and the game nothing else or only mines (next to it: the
                # others flagged); or the game showed every cell (xbomb)
                if int(changed.sum()) == 1 or unnamed or not np.isin(after, self.looks.covered()).any():
                    self._learn_end(clicked[0], after, changed)
                    return "lost"
                # a mine opens no area: the looks are wrong (two values taken for one)
                raise ScreenError(
                    f"this board's looks admit no naming ({exc}): minebot cannot tell some of its cells apart "
                    f"(the screen is saved in {self.save_screen()})"
                ) from exc
            if unnamed:
                look = int(after[clicked[0]])
                self._suspect = (clicked[0], look, dict(self.looks.possible), shown - {look})
        return "playing"

    def _drawn_across(self, clicked: list[Cell], before: np.ndarray, after: np.ndarray) -> State | None:
        """Whether the game drew something across the board after the clicks (kmines' "Congratulations!
        You have won!"): at least OVERLAY_CELLS revealed cells, which never change in a game, now
        show a look of another value or none. Then the game is over, and the board outside the
        smallest box round those cells tells how: lost if a clicked cell or a cell hidden before
        shows a mine there, else won. None where nothing is drawn across it."""
        names = self.looks.names()
        value = np.vectorize(lambda k: names.get(int(k), UNNAMED), otypes=[np.int64])
        was, now = value(before), value(after)
        over = np.isin(was, list(NUMBERS)) & (now != was)
        if int(over.sum()) < OVERLAY_CELLS:
            return None
        rows, cols = np.flatnonzero(over.any(axis=1)), np.flatnonzero(over.any(axis=0))
        outside = np.ones(over.shape, dtype=bool)
        outside[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1] = False
        mines = np.isin(now, [MINE, EXPLODED]) & outside
        hidden_before = np.isin(before, list(self.looks.hidden))
        shows_mine = any(mines[c] for c in clicked) or bool((mines & hidden_before).any())
        print(f"minebot: something is drawn across the board: the game is over ({'lost' if shows_mine else 'won'}, "
              "from what shows around it)", file=self.out)
        return "lost" if shows_mine else "won"

    def _learn_end(self, clicked: Cell, after: np.ndarray, changed: np.ndarray) -> None:
        """A lost game's end: the clicked cell shows the exploded mine; the other hidden cells that
        ``changed`` show mines. (The bot flags only certain mines: a flag of its own that a game
        redraws at the end, as kmines does, shows a mine too; wrong flags are never its own, so never
        learnt here. A game that shows every cell at the end (xbomb) shows numbers too: there only
        the exploded mine is learnt.)"""
        known = self.looks.names()
        self.looks.ends.setdefault(int(after[clicked]), EXPLODED)
        if int(changed.sum()) > self.mines:
            print("minebot: learnt the exploded mine of a lost game", file=self.out)
            return
        for r, c in np.argwhere(changed):
            look = int(after[r, c])
            if (r, c) == clicked or look in known:
                continue
            self.looks.ends.setdefault(look, MINE)
        print(f"minebot: learnt the end of a lost game ({len(self.looks.ends)} looks)", file=self.out)

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

    def _band(self, image: np.ndarray) -> np.ndarray:
        x, y, _, _ = self.local.region()
        return image[: max(y, 0), :].astype(np.int16)

    def new_game(self, key: str | None = None) -> None:
        """Start the next game: the way that worked last time; else the key given, else F2, Ctrl+R
        and N; else a click on what changed above the board when the game ended (the face), then
        on each thing drawn just above the board (a web game's "Restart" button); else Ctrl+N
        (last: a browser opens a window on it). Done when a new game shows; the way that worked is
        kept. A key after which no new game shows but something is drawn over the board (kmines
        asks "Reset the game?") is confirmed with Return, its default button; a click after which
        something is drawn over the board (a menu) is undone with Escape. (No Escape after a key:
        xdemineur quits on it, with no prompt.)"""
        keys = [("key", k) for k in ((key,) if key else NEW_GAME_KEYS)]
        ways: list[tuple[str, object]] = [] if self.restart is None else [self.restart]
        ways += [way for way in keys if way[1] != LAST_KEY]
        face = self._face()
        if face is not None:
            ways.append(("face", face))
        ways += [("face", point) for point in self._buttons()]
        ways += [way for way in keys if way[1] == LAST_KEY]
        ended = None if self.image is None else self.image.copy()
        for way in dict.fromkeys(ways):
            how, what = way
            if how == "key":
                self.mouse.press(str(what))
            else:
                x, y = cast(tuple[float, float], what)  # a face's or a button's centre
                self.mouse.click(self.region.left + x, self.region.top + y)
            if self._fresh_within(1.5 if how == "key" else 3.0):
                self.restart = way
                return
            if how == "key" and self._drawn_over(ended):
                self.mouse.press("Return")
                if self._fresh_within(1.5):
                    self.restart = way
                    return
            elif self._drawn_over(ended):  # the click opened a menu or a popup over the board: closed
                self.mouse.press("Escape")
                time.sleep(SETTLE)
        raise ScreenError(
            "could not start a new game (tried F2, Ctrl+R, N, the face, what is drawn just above the board and Ctrl+N); "
            "start one by hand and run minebot "
            f"again (the screen is saved in {self.save_screen()})"
        )

    def _drawn_over(self, ended: np.ndarray | None) -> bool:
        """Whether something now covers part of the board that the end of the game did not show
        (over DRAWN_OVER of its pixels changed)."""
        if ended is None or self.image is None or self.image.shape != ended.shape:
            return False
        return float((np.abs(self.image.astype(np.int16) - ended).max(axis=2) > 16).mean()) > DRAWN_OVER

    def _fresh_within(self, seconds: float) -> bool:
        """Whether a new game shows within ``seconds``: a board that can be a new game's (see _new)
        and is not the last game's (a game like xdemineur opens an area of a new game itself)."""
        last = self.shown
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            looks = self.read()
            if self._new(looks) and (last is None or not np.array_equal(looks, last)):
                return True
            time.sleep(0.1)
        return False

    def _new(self, looks: np.ndarray) -> bool:
        """Whether a board can be a new game's: no flag, no mine shown, and every look known or
        still to be named as a number (a game may open an area itself)."""
        flags = [k for k, code in self.looks.hidden.items() if code == FLAG]
        return bool(not np.isin(looks, flags + list(self.looks.ends)).any() and np.isin(looks, self.looks.covered()).any())

    def _face(self) -> tuple[float, float] | None:
        """Where the picture above the board changed between the game's start and its end, nearest
        the board's middle (the face; the timer changes too, off to a side)."""
        if self.image is None or self.band_playing is None:
            return None
        band = self._band(self.image)
        if band.shape != self.band_playing.shape or band.size == 0:
            return None
        moved = (np.abs(band - self.band_playing).max(axis=2) > 40).astype(np.uint8)
        n, _, stats, centres = cv2.connectedComponentsWithStats(cv2.dilate(moved, np.ones((3, 3), np.uint8)))
        if n <= 1:
            return None
        middle = self.local.origin[0] + self.local.cols * self.local.pitch[0] / 2
        best = min(range(1, n), key=lambda i: abs(centres[i][0] - middle))
        return float(centres[best][0]), float(centres[best][1])

    def _buttons(self) -> list[tuple[float, float]]:
        """Things drawn apart from the background within BUTTONS_WITHIN cells above the board and
        over its columns, whole in that strip, nearest the board first: where a game with no face
        and no key for a new game has its button."""
        if self.image is None:
            return []
        x, y, w, _ = self.local.region()
        pitch = self.local.pitch[1]
        top, left = max(round(y - BUTTONS_WITHIN * pitch), 0), max(x, 0)
        strip = self.image[top:max(y, 0), left:x + w].astype(np.int16)
        if strip.size == 0:
            return []
        colours, counts = np.unique(strip.reshape(-1, 3), axis=0, return_counts=True)
        background = colours[counts.argmax()]
        drawn = (np.abs(strip - background).max(axis=2) > 40).astype(np.uint8)
        grown = cv2.dilate(drawn, np.ones((max(round(pitch / 6), 1),) * 2, np.uint8))
        n, _, stats, centres = cv2.connectedComponentsWithStats(grown)
        # whole things only: one cut by the strip's top is part of something larger (a menu bar)
        found = [i for i in range(1, n) if stats[i, cv2.CC_STAT_HEIGHT] >= pitch / 4 and stats[i, cv2.CC_STAT_TOP] > 0]
        found.sort(key=lambda i: -(stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT]))
        return [(left + float(centres[i][0]), top + float(centres[i][1])) for i in found[:BUTTONS_TRIED]]

    def save_screen(self) -> Path:
        """Save the last screen read in this user's cache folder; where."""
        path = cache_dir() / "learn-last-screen.png"
        if self.image is not None:
            cv2.imwrite(str(path), self.image)
        return path

    # -- what was learnt --------------------------------------------------------------------
    def pack_name(self) -> str:
        if self.name:
            return self.name
        covered = self.book.pictures[self.looks.covered()[0]]
        return "learnt-" + hashlib.sha1(covered.tobytes()).hexdigest()[:8]

    def save(self) -> list[str]:
        """Write every named look into this user's pack for the skin (merged, nothing overwritten).
        Pictures of another size than the pack's go to a pack of their own, NAME-<size>px (a game
        whose cells follow its window draws them anew at each size)."""
        n = self.book.cut
        folder = learnt_skins() / self.pack_name()
        meta = folder / "pack.json"
        if meta.is_file() and json.loads(meta.read_text()).get("cell_px") != n:
            folder = learnt_skins() / f"{self.pack_name()}-{n}px"
            meta = folder / "pack.json"
        start_learnt_pack(folder, n, self.geometry.pitch, self.rule, round(1000 * SETTLE), LOOK_LIMIT)
        tiles: dict[str, list[np.ndarray]] = {}
        for look, code in self.looks.names().items():
            tiles.setdefault(TILE_NAMES[CHAR_OF[code]], []).append(self.book.pictures[look])
        return add_tiles(folder, tiles)


def _covered_looks(looks: np.ndarray, mines: int) -> list[int]:
    """The looks of covered cells on a new game's board. A game that opened an area itself
    (xdemineur) shows revealed cells too, which may outnumber the covered ones: then one look is
    covered and the rest is an opened area, 0s and the numbers beside them, that the rules can name.
    Where no look leaves such an area, every look is a covered cell's (a checkerboard's two shades;
    cells over a picture, which look different at each position)."""
    kinds, counts = np.unique(looks, return_counts=True)
    order = [int(kinds[i]) for i in np.argsort(-counts)]
    fits = [k for k in order if _opened_area(looks, k, mines)] if len(order) > 1 else []
    if not fits:
        return order
    # An area opened along the board's edge can read the other way round too (the covered cells
    # taken for the 0s of an area beyond the numbers): the look with over twice the other's cells
    # is the covered one, as a new game's 0s are few next to its covered cells; else it is not clear.
    size = dict(zip(kinds.tolist(), counts.tolist()))
    if len(fits) > 1 and size[fits[0]] < 2 * size[fits[1]]:
        raise ScreenError(
            "cannot tell which cells are covered on this board: start a new game (every cell covered) and run minebot again"
        )
    return fits[:1]


def _opened_area(looks: np.ndarray, covered: int, mines: int) -> bool:
    """Whether, with ``covered`` the covered look, the other cells are an opened area: the rules
    name some look 0, and every other cell is a 0 or beside one."""
    try:
        naming = name_looks(looks, {covered: COVERED}, mines=mines)
    except InconsistentBoard:
        return False
    zeros = np.isin(looks, [k for k, v in naming.possible.items() if v == frozenset({0})])
    return bool(zeros.any() and ((looks == covered) | zeros | dilate(zeros)).all())
