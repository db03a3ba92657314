"""Capture: grab the screen, or only the board's region once it is known, with mss.

Images come back as BGR ``uint8`` arrays in screen pixels. Region coordinates are virtual-screen
coordinates: on a multi-monitor desktop they can be negative (mss ``monitors[0]`` is the union).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from bot.devices.windowing import Windows, open_windows
from bot.errors import ScreenError


def check_display() -> None:
    """Fail early, with what to do, where screenshots and clicks cannot work."""
    if sys.platform.startswith("linux"):
        wayland_only = os.environ.get("WAYLAND_DISPLAY") and not os.environ.get("DISPLAY")
        if wayland_only or os.environ.get("XDG_SESSION_TYPE") == "wayland":
            raise ScreenError(
                "this is a Wayland session: screenshots come back black and clicks are refused; log in to an X11 session"
            )
        if not os.environ.get("DISPLAY"):
            raise ScreenError(
                "no display: DISPLAY is not set; run minebot on a desktop, or, on a machine with no screen, `minebot demo` (a real game on Xvfb)"
            )
    if sys.platform == "win32":  # screenshots and clicks must agree on scaled screens
        import ctypes

        try:
            ctypes.windll.shcore.SetProcessDpiAwareness(2)  # per-monitor aware
        except (AttributeError, OSError):
            pass


@dataclass(frozen=True)
class Region:
    left: int
    top: int
    width: int
    height: int


Done = Callable[[np.ndarray], bool]  # whether a grab already shows what was waited for (see settle)


class Screen(Protocol):
    """What minebot needs of a screen: the whole of it, grabs of any region, and a grab once a
    region stopped changing. :class:`MssScreen` is the real one; tests give drawn games of their own.
    A real screen also tells which window is where (``windows``, bot/devices/windowing.py), which
    the click guard asks where a screen has it."""

    whole: Region

    def grab(self, region: Region | None = None) -> np.ndarray: ...

    def settled(
        self, region: Region, quiet: float = 0.0, done: Done | None = None
    ) -> np.ndarray: ...


SETTLE_TIMEOUT = 2.0  # s a region may keep changing before the last grab is taken as it is
SETTLE_INTERVAL = 0.008  # s between grabs while waiting for a region to settle
CONFIRM_INTERVAL = 0.002  # s before the grab that confirms a new one already ``done``


def settle(
    grab: Callable[[], np.ndarray],
    quiet: float = 0.0,
    timeout: float = SETTLE_TIMEOUT,
    done: Done | None = None,
) -> np.ndarray:
    """Grab until the picture stops changing: two grabs in a row are identical and nothing changed
    for ``quiet`` seconds either (games that animate a reveal need that), or, sooner, two identical
    grabs that are ``done`` (they show what the caller waits for); after ``timeout``, the last.
    A new grab that is ``done`` is confirmed CONFIRM_INTERVAL later, not a whole SETTLE_INTERVAL:
    one quick grab a wait, where polling every 2 ms throughout held Wine's games back (see
    docs/measurements.md, "Speed, 2026-11-29")."""
    last = grab()
    start = since = time.perf_counter()
    pause = SETTLE_INTERVAL
    while time.perf_counter() - start < timeout:
        time.sleep(pause)
        now, at = grab(), time.perf_counter()
        if not np.array_equal(now, last):
            last, since = now, at
            pause = CONFIRM_INTERVAL if done is not None and done(now) else SETTLE_INTERVAL
        elif at - since >= quiet or (done is not None and done(now)):
            return now
        else:
            pause = SETTLE_INTERVAL
    return last


class MssScreen:
    """Screenshots through mss. Create and use it in one thread (mss keeps per-thread handles);
    close it, or use it in a ``with`` block."""

    def __init__(self) -> None:
        check_display()
        import mss

        try:
            self._mss = mss.MSS() if hasattr(mss, "MSS") else mss.mss()
        except Exception as exc:  # mss raises its own ScreenShotError or XError subclasses
            raise ScreenError(
                f"cannot open the display for screenshots ({exc}); check DISPLAY"
            ) from exc
        whole = self._mss.monitors[0]
        self.whole = Region(whole["left"], whole["top"], whole["width"], whole["height"])
        self._windows: Windows | None = None
        self._windows_asked = False

    def grab(self, region: Region | None = None) -> np.ndarray:
        r = region or self.whole
        shot = self._mss.grab({"left": r.left, "top": r.top, "width": r.width, "height": r.height})
        # BGRA to a BGR array of its own: numpy's view [:, :, :3] made every later comparison copy it
        # first, 4-7 ms for a 512x384 region (the click guard's check and the settle loop, each grab)
        return cv2.cvtColor(np.asarray(shot), cv2.COLOR_BGRA2BGR)

    def settled(self, region: Region, quiet: float = 0.0, done: Done | None = None) -> np.ndarray:
        return settle(lambda: self.grab(region), quiet, done=done)

    def windows(self) -> Windows | None:
        """The window system's word on which window is where, opened on first use; None where it
        has none to give."""
        if not self._windows_asked:
            self._windows, self._windows_asked = open_windows(), True
        return self._windows

    def close(self) -> None:
        self._mss.close()
        if self._windows is not None:
            self._windows.close()

    def __enter__(self) -> MssScreen:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
