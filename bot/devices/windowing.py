"""Which window shows at a point of the screen, and which program it belongs to: the window system's
own word on whether the game's window is still the one over its board. Pixels alone can be fooled:
a notification with words in it over the middle of a board looks like a game's end drawn there,
and a learner that takes it so learns the notification's pixels as the game's.

X11 through python-xlib (pyautogui's backend there), Windows through user32; elsewhere (macOS)
nothing is told (``open_windows`` gives None).
"""

from __future__ import annotations

import os
import struct
import sys
import threading
from pathlib import Path
from typing import Protocol

from bot.userdata import cache_dir

# an Xauthority entry: family FamilyWild, no address, any display, an auth name nobody offers
NO_COOKIE = (
    struct.pack(">HH", 0xFFFF, 0)
    + struct.pack(">H", 0)
    + struct.pack(">H", 4)
    + b"none"
    + struct.pack(">H", 0)
)


def x_authority() -> None:
    """python-xlib (pyautogui's X11 backend) dies at import with no Xauthority file, where libX11
    (mss) connects without one: on a bare Xvfb, say. Point it at a file of this user's cache
    holding one entry of a kind no client uses (an empty file makes it print a warning on stdout)."""
    if not sys.platform.startswith("linux"):
        return
    named = os.environ.get("XAUTHORITY")
    if (Path(named) if named else Path.home() / ".Xauthority").is_file():
        return
    path = cache_dir() / "no-cookie.Xauthority"
    path.write_bytes(NO_COOKIE)
    os.environ["XAUTHORITY"] = str(path)


class Windows(Protocol):
    """The window at a screen pixel: ``top`` is the top-level window there (0: none, the bare
    desktop), cheap enough to ask at every reading; ``owner`` is the program the window there
    belongs to (0: none), asked only when the top-level window changed: a game's own dialog is
    another window of the same program. ``stirs``: how many times windows were shown, moved or
    closed so far, where that is heard (each caller keeps the count it last saw: where it is the
    same before a click, nothing need be asked of the window system); a new count each time where
    asking is cheap anyway."""

    def stirs(self) -> int: ...

    def top(self, x: int, y: int) -> int: ...

    def owner(self, x: int, y: int) -> int: ...

    def close(self) -> None: ...


class X11Windows:
    """On X11: the top-level window is the root's child there (with a window manager, its frame);
    the owner is the client that made the deepest window there (its resource base: every window a
    client makes carries it), so a frame (the window manager's) never counts as the owner. Each
    question is a round trip to the server (about 0.3-0.4 ms under Xvfb): too dear for every click,
    so a thread of its own hears every window the server shows, moves, restacks or closes on the
    root (SubstructureNotify), and counts them (``stirs``)."""

    def __init__(self) -> None:
        from Xlib import X
        from Xlib.display import Display

        x_authority()
        # questions; the events, read by the thread
        self._display, self._events = (
            Display(),
            Display(),
        )
        self._root = self._display.screen().root
        self._mask = self._display.display.info.resource_id_mask
        self._events.screen().root.change_attributes(event_mask=X.SubstructureNotifyMask)
        self._events.sync()
        self._heard = 0
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self) -> None:
        while True:
            try:
                self._events.next_event()
            except Exception:  # the server went away
                return
            self._heard += 1

    def stirs(self) -> int:
        return self._heard

    def top(self, x: int, y: int) -> int:
        return _id(self._root.translate_coords(self._root, x, y).child)

    def owner(self, x: int, y: int) -> int:
        window, deepest = self._root, 0
        for _ in range(32):  # the depth of any real window tree is far less
            child = window.translate_coords(self._root, x, y).child
            if not _id(child):
                break
            window, deepest = child, _id(child)
        return deepest & ~self._mask

    def close(self) -> None:
        self._display.close()  # not the thread's: python-xlib may block closing a connection another thread reads


def _id(window: object) -> int:
    """A python-xlib window's id; where there is none, python-xlib gives 0 itself."""
    return int(getattr(window, "id", window))  # type: ignore[call-overload]


class Win32Windows:
    """On Windows: the top-level window (the root ancestor) of the window at the point, and the
    process that made it. Screen pixels as mss grabs them: minebot is DPI-aware (capture.check_display)."""

    def __init__(self) -> None:
        import ctypes
        from ctypes import wintypes

        user32 = ctypes.windll.user32  # type: ignore[attr-defined]
        user32.WindowFromPoint.argtypes = [wintypes.POINT]
        user32.WindowFromPoint.restype = wintypes.HWND
        user32.GetAncestor.argtypes = [wintypes.HWND, wintypes.UINT]
        user32.GetAncestor.restype = wintypes.HWND
        user32.GetWindowThreadProcessId.argtypes = [wintypes.HWND, ctypes.POINTER(wintypes.DWORD)]
        self._user32, self._point, self._pid = user32, wintypes.POINT, wintypes.DWORD
        self._asked = 0

    def stirs(self) -> int:
        self._asked += 1  # a new count each time: asking is cheap here (no round trip to a server)
        return self._asked

    def top(self, x: int, y: int) -> int:
        window = self._user32.WindowFromPoint(self._point(x, y))
        return int(self._user32.GetAncestor(window, 2) or 0) if window else 0  # GA_ROOT

    def owner(self, x: int, y: int) -> int:
        import ctypes

        top = self.top(x, y)
        pid = self._pid(0)
        if top:
            self._user32.GetWindowThreadProcessId(top, ctypes.byref(pid))
        return int(pid.value)

    def close(self) -> None:
        pass


def open_windows() -> Windows | None:
    """The window system's word where it can be had (X11, Windows); None elsewhere or where it
    cannot be opened."""
    try:
        if sys.platform == "win32":
            return Win32Windows()
        if sys.platform.startswith("linux"):
            return X11Windows()
    except Exception:  # python-xlib raises its own errors for a display it cannot open
        return None
    return None
