"""Actuator: clicks, through pyautogui (imported here only, and only when a live mouse is made).

Coordinates are screen points. On a Retina-style display where screenshots have more pixels
than the mouse has points, ``ratio`` divides screenshot pixels into mouse points.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Literal, Protocol

from bot.devices import interrupts
from bot.devices.windowing import x_authority
from bot.errors import ScreenError

if TYPE_CHECKING:
    from bot.devices.windows import SendInput
    from bot.devices.xtest import XTestInput

KEYS_SEEN_WITHIN = 0.5  # s for the press listener to see the bot's own key presses
# The bot's own pointer moves a move the listener heard may be (PressCount.moves): it hears them
# late on a busy machine. With the last 16, ace-minesweeper's learning run (1,400 clicks in 22 s,
# both cores busy with the test suite) stopped on one of its own moves ("the mouse was moved (to
# 474,284)": a cell of its board). A user's move stops it all the same: a move elsewhere is heard,
# and before each click the pointer must be where the bot left it.
OWN_MOVES = 256
# of the bot's own button presses, those the listener may be behind before it counts as deaf
UNHEARD = 64

Button = Literal["left", "right", "middle", "both"]  # both: left and right pressed together


class Mouse(Protocol):
    def click(self, x: float, y: float, button: Button = "left") -> None: ...

    def park(self, x: float, y: float) -> None: ...

    def park_if_within(
        self, region: tuple[float, float, float, float], x: float, y: float
    ) -> bool: ...

    def press(self, keys: str) -> None: ...


@dataclass
class DryRunMouse:
    """Records the clicks it is asked for and performs none."""

    clicks: list[tuple[float, float, Button]] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)

    def click(self, x: float, y: float, button: Button = "left") -> None:
        self.clicks.append((x, y, button))

    def park(self, x: float, y: float) -> None:
        pass

    def park_if_within(self, region: tuple[float, float, float, float], x: float, y: float) -> bool:
        return False

    def press(self, keys: str) -> None:
        self.keys.append(keys)


def pyautogui() -> ModuleType:
    """pyautogui, imported on first use: it opens the display at import."""
    x_authority()
    import pyautogui as gui

    return gui


class PressCount:
    """Key and mouse-button presses that reach the X server from any client, counted as they happen,
    and where the pointer moved, by a thread listening through the RECORD extension: a key tapped
    between two clicks is seen though it is up again by the next click (a poll of the keyboard's
    state misses it), and so is a pointer moved just before the bot moves it to its next cell. It
    sees the bot's own presses too (``sees_own``): the mouse counts those it makes."""

    sees_own = True
    # the pointer is asked for too before a click (a belt to the listener's braces)
    sees_every_move = False

    @property
    def heard_own(self) -> int:
        """The bot's own button presses heard: all heard, where none is the user's (else it stopped)."""
        return self.buttons

    def __init__(self) -> None:
        from Xlib import X
        from Xlib.display import Display
        from Xlib.ext import record
        from Xlib.protocol import rq

        x_authority()
        self.keys = self.buttons = 0
        # where the pointer went, not yet looked at
        self.moves: deque[tuple[int, int]] = deque(maxlen=256)
        # kept: the context lives with it; recording blocks its own connection
        self._control, data = (
            Display(),
            Display(),
        )
        if not self._control.has_extension("RECORD"):
            self._control.close()
            data.close()
            raise LookupError("the X server has no RECORD extension")
        spec = {
            "core_requests": (0, 0),
            "core_replies": (0, 0),
            "ext_requests": (0, 0, 0, 0),
            "ext_replies": (0, 0, 0, 0),
            "delivered_events": (0, 0),
            "device_events": (X.KeyPress, X.MotionNotify),
            "errors": (0, 0),
            "client_started": False,
            "client_died": False,
        }
        self._context = self._control.record_create_context(0, [record.AllClients], [spec])
        self._control.sync()  # the context must exist before the other connection enables it

        def count(reply: object) -> None:
            if reply.category != record.FromServer or reply.client_swapped:  # type: ignore[attr-defined]
                return
            raw = reply.data  # type: ignore[attr-defined]
            while raw:
                event, raw = rq.EventField(None).parse_binary_value(raw, data.display, None, None)
                self.keys += event.type == X.KeyPress
                self.buttons += event.type == X.ButtonPress
                if event.type == X.MotionNotify:
                    self.moves.append((event.root_x, event.root_y))

        threading.Thread(
            target=data.record_enable_context, args=(self._context, count), daemon=True
        ).start()


class Listener(Protocol):
    """Key and button presses counted as they happen, and where the pointer went: PressCount (X11),
    HookCount (Windows, bot/devices/windows.py), which counts only the user's (``sees_own`` False)."""

    sees_own: bool
    sees_every_move: bool
    keys: int
    buttons: int
    moves: deque[tuple[int, int]]

    @property
    def heard_own(self) -> int:
        """The bot's own button presses it heard: falling behind those sent, it no longer hears."""


def _press_count() -> Listener | None:
    """A listener counting every key and button press and following the pointer (X11 with RECORD,
    Windows' low-level hooks), or None (with a word on stderr where hooks were expected)."""
    if sys.platform == "win32":
        from bot.devices.windows import HookCount

        try:
            return HookCount()
        except OSError as exc:
            print(
                f"minebot: the input hooks could not be installed ({exc}); a key is seen only by polling "
                "now, and a tap between two clicks may be missed",
                file=sys.stderr,
            )
            return None
    if not sys.platform.startswith("linux"):
        return None
    try:
        return PressCount()
    except LookupError:
        return None


def _key_watch() -> Callable[[], bool] | None:
    """Where no listener counts presses: a function telling whether any key is down, or was pressed
    since it last asked (Windows; macOS, by the system's count of key presses), or held now (X11
    with no RECORD); None where none can be had."""
    if sys.platform == "darwin":
        try:
            import Quartz  # type: ignore[import-not-found]  # pyobjc's, which pyautogui uses on macOS
        except ImportError:
            return None

        # key presses (and modifier changes) from the keyboard since the system started
        def presses() -> int:
            return sum(
                Quartz.CGEventSourceCounterForEventType(
                    Quartz.kCGEventSourceStateHIDSystemState, kind
                )
                for kind in (Quartz.kCGEventKeyDown, Quartz.kCGEventFlagsChanged)
            )

        seen = [presses()]

        def pressed() -> bool:
            now = presses()
            new, seen[0] = now != seen[0], now
            return new

        return pressed
    if sys.platform.startswith("linux"):
        from Xlib.display import Display  # python-xlib, which pyautogui uses on X11

        x_authority()
        display = Display()
        return lambda: any(display.query_keymap())
    if sys.platform == "win32":  # where the hooks could not be installed
        import ctypes

        state = ctypes.windll.user32.GetAsyncKeyState  # type: ignore[attr-defined]
        # bit 15: down now; bit 0: pressed since the last call (a tap between two clicks). The latter is
        # kept from before minebot started until somebody asks (the Enter that launched it): asked once
        # here, and a key held since the start counts only once it was let go and pressed again
        held = {code for code in range(8, 256) if state(code) & 0x8000}

        def pressed() -> bool:
            new = False
            for code in range(8, 256):
                now = state(code)
                if now & 0x8000 == 0:
                    held.discard(code)
                new |= bool(now & 0x0001) or (bool(now & 0x8000) and code not in held)
            return new

        return pressed
    return None


def _sender() -> SendInput | None:
    """On Windows, minebot's own input sent with SendInput and tagged, so that the hooks tell it from
    the user's (bot/devices/windows.py); elsewhere None: pyautogui sends it."""
    if sys.platform != "win32":
        return None
    from bot.devices.windows import SendInput

    return SendInput()


def _xtest() -> XTestInput | None:
    """On X11, minebot's clicks and moves through XTest, one round trip each (bot/devices/xtest.py);
    elsewhere (macOS) None: pyautogui sends them."""
    if not sys.platform.startswith("linux"):
        return None
    from bot.devices.xtest import XTestInput

    return XTestInput()


class LiveMouse:
    """The real pointer. Stops (ScreenError) before its next click once a person touched the mouse
    or the keyboard: any key or button pressed that the bot did not press (counted as it happens,
    see PressCount), or the pointer anywhere but where the bot left it."""

    def __init__(
        self, ratio: float = 1.0, pause: float = 0.0, presses: PressCount | None = None
    ) -> None:
        gui = pyautogui()
        gui.PAUSE = pause  # type: ignore[attr-defined]  # the default 0.1 s would cap the bot at 10 clicks a second
        gui.FAILSAFE = False  # type: ignore[attr-defined]  # windows often sit at (0,0); we check the pointer ourselves
        self._gui = gui
        self.ratio = ratio
        self._expected: tuple[int, int] | None = None
        self._presses = presses or _press_count()
        self._send = _sender()  # Windows: its keys too
        self._pointer = self._send or _xtest()  # minebot's own clicks and moves; None: pyautogui's
        self._own_keys = self._own_buttons = 0  # the presses the bot made itself
        # where the bot last moved the pointer
        self._own_moves: deque[tuple[int, int]] = deque(maxlen=OWN_MOVES)
        self._keys_down = None if self._presses else _key_watch()
        interrupts.watch_stops()

    def _point(self, x: float, y: float) -> tuple[int, int]:
        return round(x / self.ratio), round(y / self.ratio)

    def check_user(self) -> None:
        interrupts.stop_requested()
        if self._presses is not None:
            own = self._presses.sees_own  # else every press it counts is somebody else's
            if self._presses.keys > (self._own_keys if own else 0):
                raise ScreenError("a key was pressed: stopped; run minebot again to go on")
            if self._presses.buttons > (self._own_buttons if own else 0):
                raise ScreenError(
                    "a mouse button was pressed (not by minebot): stopped; run minebot again to go on"
                )
            while self._presses.moves:
                x, y = self._presses.moves.popleft()
                if not any(abs(x - a) <= 2 and abs(y - b) <= 2 for a, b in self._own_moves):
                    raise ScreenError(
                        f"the mouse was moved (to {x},{y}): stopped; run minebot again to go on"
                    )
            if (
                unheard := self._own_buttons - self._presses.heard_own
            ) > UNHEARD:  # Windows drops a hook slow to answer
                raise ScreenError(
                    f"minebot no longer hears the mouse ({unheard} of its own clicks unheard), so it would "
                    "miss yours: stopped; run minebot again"
                )
        elif self._keys_down is not None and self._keys_down():
            raise ScreenError("a key was pressed: stopped; run minebot again to go on")
        if self._expected is None:
            return
        if self._presses is not None and self._presses.sees_every_move:
            return  # Windows' hooks (under Wine the pointer the system reports may not follow minebot's moves)
        now = tuple(self._gui.position())
        if abs(now[0] - self._expected[0]) > 2 or abs(now[1] - self._expected[1]) > 2:
            raise ScreenError(
                f"the mouse was moved (to {now[0]},{now[1]}): stopped; run minebot again to go on"
            )

    def click(self, x: float, y: float, button: Button = "left") -> None:
        self.check_user()
        px, py = self._point(x, y)
        with interrupts.sending():  # a press on a check gone stale is refused here, uncounted
            # counted before they are sent: never behind
            self._own_buttons += 2 if button == "both" else 1
            self._own_moves.append((px, py))
            if self._pointer is not None:
                self._pointer.click(px, py, button)
            elif button == "both":
                self._gui.moveTo(px, py)
                self._gui.mouseDown(button="left")
                self._gui.mouseDown(button="right")
                self._gui.mouseUp(button="right")
                self._gui.mouseUp(button="left")
            else:
                self._gui.click(px, py, button=button)
        self._expected = (px, py)

    def park(self, x: float, y: float) -> None:
        self.check_user()
        px, py = self._point(x, y)
        self._own_moves.append((px, py))
        if self._pointer is not None:
            self._pointer.move(px, py)
        else:
            self._gui.moveTo(px, py)
        self._expected = (px, py)

    def park_if_within(self, region: tuple[float, float, float, float], x: float, y: float) -> bool:
        """Park the pointer at (x, y) if it lies within ``region`` (x, y, width, height); whether it
        was. Before a live game's first reading: the user may have left it on a cell."""
        left, top, width, height = region
        px, py = (v * self.ratio for v in self._gui.position())
        if not (left <= px < left + width and top <= py < top + height):
            return False
        self.park(x, y)
        return True

    def press(self, keys: str) -> None:
        """A key or a combination such as ``ctrl+r``; on X11 also a lone keysym pyautogui cannot
        type, such as ``KP_3`` (gnome-mines' size keys)."""
        self.check_user()
        self._own_keys += len(keys.split("+"))
        if self._send is not None:
            self._send.keys(keys)
        elif "+" not in keys and len(keys) > 1 and keys.lower() not in self._gui.KEYBOARD_KEYS:
            if not sys.platform.startswith("linux"):
                raise ScreenError(
                    f"cannot type the key {keys!r} here (X11 only); do it by hand and run minebot again"
                )
            _type_keysym(keys)
        else:
            self._gui.hotkey(*keys.split("+"))
        if self._keys_down is not None:  # a watch that tells presses since it last asked: not these
            time.sleep(KEYS_SEEN_WITHIN / 10)
            self._keys_down()
        # it sees them a moment later; a shifted key counts more
        if self._presses is not None and self._presses.sees_own:
            deadline = time.perf_counter() + KEYS_SEEN_WITHIN
            while self._presses.keys < self._own_keys and time.perf_counter() < deadline:
                time.sleep(0.005)
            self._own_keys = max(self._own_keys, self._presses.keys)


def _type_keysym(name: str) -> None:
    """Press and release the X keysym ``name`` through XTest. pyautogui types a keypad digit with
    the key whose first meaning is its NumLock-off one (KP_3 comes out as KP_Next), so a keysym
    that is not the first meaning of any key is lent a spare keycode for the moment."""
    import time

    from Xlib import XK, X
    from Xlib.display import Display
    from Xlib.ext import xtest

    keysym = XK.string_to_keysym(name)
    if not keysym:
        raise ScreenError(f"{name!r} is not an X keysym")
    display = Display()
    try:
        first = display.display.info.min_keycode
        mapping = display.get_keyboard_mapping(first, display.display.info.max_keycode - first + 1)
        code = next(
            (first + i for i, syms in enumerate(mapping) if syms and syms[0] == keysym), None
        )
        spare = None
        if code is None:
            spare = next((first + i for i, syms in enumerate(mapping) if not any(syms)), None)
            if spare is None:
                raise ScreenError(f"no free keycode to type {name} with; press it by hand")
            display.change_keyboard_mapping(spare, [(keysym,) * len(mapping[0])])
            display.sync()
            time.sleep(0.1)  # the game reloads its keymap on the MappingNotify
            code = spare
        xtest.fake_input(display, X.KeyPress, code)
        xtest.fake_input(display, X.KeyRelease, code)
        display.sync()
        if spare is not None:
            time.sleep(0.3)  # let it translate the key with the lent mapping before taking it back
            display.change_keyboard_mapping(spare, [(0,) * len(mapping[0])])
            display.sync()
    finally:
        display.close()
