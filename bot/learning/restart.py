"""Starting the next game of a game minebot has no pack for (the learner's way between games).

Games start a new game in their own ways: a key (F2, N), the face above the board, a web
page's "Restart" button; some ask to confirm first (kmines' "Reset the game?"). The learner does
not know which, so it tries them in turn, and keeps the one that worked for the next game. It never
guesses a key a browser or desktop takes for itself (Ctrl+N and Ctrl+T open a window or a tab over
the game, Ctrl+W and Alt+F4 close it, Ctrl+R and F5 reload a web page, which may come back at another
level, elsewhere, or not at all); the user may give one as the game's own (--new-game-key).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Protocol, cast

import cv2
import numpy as np

from bot.devices.actuator import Mouse
from bot.devices.capture import Region, Screen
from bot.errors import ScreenError
from bot.learning.endface import changed_part
from bot.vision.geometry import Geometry

# tried in turn after a game: keys no browser or desktop takes for itself (gnome-mines' Ctrl+R
# and kmines' Ctrl+N come from their launchers, as the user's --new-game-key does)
NEW_GAME_KEYS = ("F2", "n", "space")
ANSWER = "Return"  # what answers a game's prompt ("Reset the game?") with its default button
BUTTONS_WITHIN = 2.0  # cells above the board where buttons to click are looked for
BUTTONS_TRIED = 4  # of those, the nearest the board
# things drawn anywhere above the board, nearest over its middle: a face that did not change
CENTRED_TRIED = 2
THING_WIDTH = 3.0  # cells: wider than this is no face or button (a bevel, a menu bar)
BACKGROUNDS = 3  # the commonest colours above the board, each taken as the background in turn
DRAWN_OVER = 0.02  # share of the board's pixels changed by a key that says something covers it
KEY_WAIT, CLICK_WAIT = 1.5, 3.0  # s a new game may take to show after a key, after a click
PAUSE = 0.1  # s after Escape closed a menu
CHANGED = 16  # colour levels: a pixel that changed more than this is drawn anew
# colour levels from the background: something drawn (from the playing face: endface.DRAWN)
DRAWN = 40
# how far beside and below the board a button is looked for: this many cells, or AROUND_PX
AROUND, AROUND_PX = 5, 200
AROUND_TRIED = 3  # of the things found there, the nearest the board


class Watcher(Protocol):
    """What the restarter needs of whoever reads the board (the learner)."""

    @property
    def image(self) -> np.ndarray | None: ...  # the board's region as last read

    def fresh_within(self, seconds: float) -> bool: ...  # whether a new game shows within that time
    def save_screen(self) -> Path: ...


# ("key", name), ("face", (x, y) in the board region) or ("at", (x, y) on the screen)
Way = tuple[str, object]


class Restarter:
    """Starts new games on the board at ``local`` (in the grabbed ``region``); ``screen``, where
    given, shows what is beside and below the board (a button there)."""

    def __init__(
        self, mouse: Mouse, region: Region, local: Geometry, screen: Screen | None = None
    ) -> None:
        self.mouse, self.region, self.local, self.screen = mouse, region, local, screen
        self.way: Way | None = None  # how a new game started last time
        # the strip above the board while the game was on
        self.band_playing: np.ndarray | None = None
        # beside and below the board while the game was on (around)
        self.around_playing: np.ndarray | None = None

    def playing(self, image: np.ndarray) -> None:
        """A game is on: remember what is above the board (at its end, the face is what changed),
        and around it (what stays as it was is no counter, no timer)."""
        self.band_playing = self.strip(image)
        around = self.around()
        self.around_playing = None if around is None else self.screen.grab(around)  # type: ignore[union-attr]

    def saved(self) -> dict[str, object] | None:
        """The way that started the last new game, as a pack keeps it: ``{"key": name}``, or
        ``{"at": [x, y]}`` in cells from the board's top-left corner (a window drawn at another
        size moves its buttons with the board); None before one worked."""
        if self.way is None:
            return None
        how, what = self.way
        if how == "key":
            return {"key": str(what)}
        x, y = cast(tuple[float, float], what)
        if how == "face":
            x, y = x + self.region.left, y + self.region.top
        board = self.local.moved(self.region.left, self.region.top)
        return {
            "at": [
                round((x - board.origin[0]) / board.pitch[0], 2),
                round((y - board.origin[1]) / board.pitch[1], 2),
            ]
        }

    def remember(self, saved: dict[str, object] | None) -> None:
        """Start from a way a pack kept (saved): tried first at the next new game."""
        if saved is None:
            return
        if "key" in saved:
            self.way = ("key", str(saved["key"]))
            return
        dx, dy = cast(list[float], saved["at"])
        board = self.local.moved(self.region.left, self.region.top)
        self.way = (
            "at",
            (board.origin[0] + dx * board.pitch[0], board.origin[1] + dy * board.pitch[1]),
        )

    def around(self) -> Region | None:
        """The screen round the board, AROUND cells (or AROUND_PX) beside and below it, and as
        high as the board's region above it; None with no screen."""
        if self.screen is None:
            return None
        whole = self.screen.whole
        x, y, w, h = self.local.moved(self.region.left, self.region.top).region()
        reach = round(max(AROUND * self.local.pitch[0], AROUND_PX))
        left, right = max(x - reach, whole.left), min(x + w + reach, whole.left + whole.width)
        bottom = min(y + h + reach, whole.top + whole.height)
        top = self.region.top
        return Region(left, top, right - left, bottom - top)

    def strip(self, image: np.ndarray) -> np.ndarray:
        """The strip of ``image`` (the board's region) above the board."""
        x, y, _, _ = self.local.region()
        return image[: max(y, 0), :].astype(np.int16)

    def start(self, watcher: Watcher, key: str | None = None) -> None:
        """Start the next game: the way that worked last time; else the key given (even Ctrl+N: it is
        the game's own), else F2 and N; else Return (kmines asks "Reset the game?" by itself
        when a game is lost); else a click on what changed above the board when the game ended (the
        face), then on each thing drawn just above the board (a web game's "Restart" button), then
        on the things drawn above it nearest its middle (a face the game did not change at its end).
        Done when a new game shows; the way that
        worked is kept. A key after which no new game shows but something is drawn over the board
        (kmines asks "Reset the game?" on Ctrl+N too) is confirmed with Return, its default button;
        a click after which something is drawn over the board (a menu) is undone with Escape. (No
        Escape after a key: xdemineur quits on it, with no prompt.)"""
        keys: list[Way] = [("key", k) for k in ((key,) if key else NEW_GAME_KEYS)]
        ways: list[Way] = [] if self.way is None else [self.way]
        ways += keys
        # a prompt the game showed by itself at its end (kmines after a loss; a web page's dialog)
        ways.append(("key", ANSWER))
        ended = None if watcher.image is None else watcher.image.copy()
        if self._tried(watcher, list(dict.fromkeys(ways)), ended):
            return
        # what to click, as the board's surroundings show after the keys (a dialog they closed
        # showed the page through a veil)
        clicks: list[Way] = []
        face = self._face(watcher.image)
        if face is not None:
            clicks.append(("face", face))
        clicks += [("at", point) for point in self._beside_and_below()]
        clicks += [("face", point) for point in self._buttons(watcher.image)]
        clicks += [("face", point) for point in self._centred(watcher.image)]
        if self._tried(watcher, [w for w in dict.fromkeys(clicks) if w not in ways], ended):
            return
        tried = f"the key {key}" if key else "F2, N, Space"
        raise ScreenError(
            "could not start a new game; start one by hand and run minebot again"
            + ("" if key else " (with --new-game-key KEY if the game has a key for it)"),
            detail=f"tried {tried}, Return, the face, what is drawn above, beside and below the board; "
            f"the screen is saved in {watcher.save_screen()}",
        )

    def _tried(self, watcher: Watcher, ways: list[Way], ended: np.ndarray | None) -> bool:
        """Try ``ways`` in turn until a new game shows (see start); whether one did (kept as
        ``way``). ``ended``: the board's region as the game's end showed it."""
        for way in ways:
            how, what = way
            if how == "key":
                self.mouse.press(str(what))
            elif how == "at":
                self.mouse.click(*cast(tuple[float, float], what))
            else:
                x, y = cast(tuple[float, float], what)  # a face's or a button's centre
                self.mouse.click(self.region.left + x, self.region.top + y)
            if watcher.fresh_within(KEY_WAIT if how == "key" else CLICK_WAIT):
                self.way = way
                return True
            if how == "key" and _drawn_over(watcher.image, ended):
                self.mouse.press(ANSWER)
                if watcher.fresh_within(KEY_WAIT):
                    self.way = way
                    return True
            # the click opened a menu or a popup over the board: closed
            elif _drawn_over(watcher.image, ended):
                self.mouse.press("Escape")
                time.sleep(PAUSE)
        return False

    def _beside_and_below(self) -> list[tuple[float, float]]:
        """Things drawn beside or below the board (around), on the screen: whole there, of a
        button's size, and as they were while the game was on (a counter or a timer changes), nearest the
        board's bottom middle first, AROUND_TRIED of them; each in the board's own window where the
        screen tells windows apart."""
        region = self.around()
        if region is None or self.around_playing is None or self.screen is None:
            return []
        now = self.screen.grab(region).astype(np.int16)
        if now.shape != self.around_playing.shape:
            return []
        x, y, w, h = self.local.moved(
            self.region.left - region.left, self.region.top - region.top
        ).region()
        outside = np.ones(now.shape[:2], bool)
        outside[: y + h, max(x, 0) : x + w] = False  # the board and the band above it
        colours, counts = np.unique(now[outside].reshape(-1, 3), axis=0, return_counts=True)
        pitch = self.local.pitch[1]
        kernel = np.ones((max(round(pitch / 6), 2),) * 2, np.uint8)
        high, wide = now.shape[:2]
        middle, bottom = x + w / 2, y + h
        found: dict[tuple[int, int], float] = {}  # centre: distance from the board's bottom middle
        # the page, the game's panel on it, ... (a button on the panel is one thing with the
        # panel, seen from the page)
        for background in colours[np.argsort(-counts)[:BACKGROUNDS]]:
            drawn = (np.abs(now - background).max(axis=2) > DRAWN) & outside
            grown = cv2.dilate(drawn.astype(np.uint8), kernel)
            n, _, stats, centres = cv2.connectedComponentsWithStats(grown)
            for i in range(1, n):
                left, top, width, height = (int(v) for v in stats[i, :4])
                box = np.s_[top : top + height, left : left + width]
                if (
                    left > 0
                    and top > 0
                    and left + width < wide
                    and top + height < high
                    and min(pitch / 2, 12) <= height <= max(3 * pitch, 80)
                    and width <= max(10 * pitch, 300)
                    and outside[box].all()
                    and np.abs(now[box] - self.around_playing[box]).max() <= CHANGED
                ):
                    cx, cy = float(centres[i][0]), float(centres[i][1])
                    found[round(cx), round(cy)] = abs(cx - middle) + abs(cy - bottom)
        points = [
            (region.left + float(cx), region.top + float(cy))
            for cx, cy in sorted(found, key=found.__getitem__)
        ]
        return [p for p in points if self._in_the_games_window(p)][:AROUND_TRIED]

    def _in_the_games_window(self, point: tuple[float, float]) -> bool:
        """Whether ``point`` on the screen shows the same program's window as the board's middle
        (no word from the window system: taken as so)."""
        opener = getattr(self.screen, "windows", None)
        windows = opener() if opener is not None else None
        if windows is None:
            return True
        board = self.local.moved(self.region.left, self.region.top)
        middle = board.centre((board.rows // 2, board.cols // 2))
        return windows.owner(round(point[0]), round(point[1])) == windows.owner(
            round(middle[0]), round(middle[1])
        )

    def _face(self, image: np.ndarray | None) -> tuple[float, float] | None:
        """Where the picture above the board changed between the game's start and its end, nearest
        the board's middle (the face; the timer changes too, off to a side)."""
        if image is None:
            return None
        middle = self.local.origin[0] + self.local.cols * self.local.pitch[0] / 2
        found = changed_part(self.band_playing, self.strip(image), middle, grow=3)
        return None if found is None else found[1]

    def _buttons(self, image: np.ndarray | None) -> list[tuple[float, float]]:
        """Things drawn apart from the background within BUTTONS_WITHIN cells above the board and
        over its columns, whole in that strip, nearest the board first: where a game with no face
        and no key for a new game has its button."""
        if image is None:
            return []
        x, y, w, _ = self.local.region()
        pitch = self.local.pitch[1]
        top, left = max(round(y - BUTTONS_WITHIN * pitch), 0), max(x, 0)
        strip = image[top : max(y, 0), left : x + w].astype(np.int16)
        if strip.size == 0:
            return []
        colours, counts = np.unique(strip.reshape(-1, 3), axis=0, return_counts=True)
        background = colours[counts.argmax()]
        drawn = (np.abs(strip - background).max(axis=2) > DRAWN).astype(np.uint8)
        grown = cv2.dilate(drawn, np.ones((max(round(pitch / 6), 1),) * 2, np.uint8))
        n, _, stats, centres = cv2.connectedComponentsWithStats(grown)
        # whole things only: one cut by the strip's top is part of something larger (a menu bar)
        found = [
            i
            for i in range(1, n)
            if stats[i, cv2.CC_STAT_HEIGHT] >= pitch / 4 and stats[i, cv2.CC_STAT_TOP] > 0
        ]
        found.sort(key=lambda i: -(stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT]))
        return [
            (left + float(centres[i][0]), top + float(centres[i][1])) for i in found[:BUTTONS_TRIED]
        ]

    def _centred(self, image: np.ndarray | None) -> list[tuple[float, float]]:
        """Things drawn apart from the background anywhere above the board, whole, no wider than
        THING_WIDTH cells and centred over its columns, nearest its middle first (a face sits there,
        and pygame-minesweeper's once showed the same face at a game's end as at its start). Each of
        the BACKGROUNDS commonest colours there is taken as the background in turn: above a small
        window, more of the desktop shows than of the window's panel the face is drawn on."""
        if image is None:
            return []
        x, _, w, _ = self.local.region()
        band = self.strip(image)
        if band.size == 0:
            return []
        colours, counts = np.unique(band.reshape(-1, 3), axis=0, return_counts=True)
        pitch, middle = self.local.pitch[0], x + w / 2
        found: dict[tuple[int, int], float] = {}  # centre: distance from the middle
        # the desktop above a window, its panel, ...
        for background in colours[np.argsort(-counts)[:BACKGROUNDS]]:
            drawn = (np.abs(band - background).max(axis=2) > DRAWN).astype(np.uint8)
            n, _, stats, centres = cv2.connectedComponentsWithStats(drawn)
            for i in range(1, n):
                if (
                    stats[i, cv2.CC_STAT_TOP] > 0
                    and x <= centres[i][0] <= x + w
                    and pitch / 2 <= stats[i, cv2.CC_STAT_HEIGHT]
                    and stats[i, cv2.CC_STAT_WIDTH] <= THING_WIDTH * pitch
                ):
                    found[round(centres[i][0]), round(centres[i][1])] = abs(centres[i][0] - middle)
        return [
            (float(cx), float(cy))
            for cx, cy in sorted(found, key=found.__getitem__)[:CENTRED_TRIED]
        ]


def _drawn_over(now: np.ndarray | None, ended: np.ndarray | None) -> bool:
    """Whether something now covers part of the board that the end of the game did not show
    (over DRAWN_OVER of its pixels changed)."""
    if ended is None or now is None or now.shape != ended.shape:
        return False
    return float((np.abs(now.astype(np.int16) - ended).max(axis=2) > CHANGED).mean()) > DRAWN_OVER
