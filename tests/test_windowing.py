"""The window system's word on which window is where (bot/devices/windowing.py): on X11 against a
real X server (Xvfb) with windows of the test's own, and on Windows by the Windows tier (the
official Windows CPython under Wine, scripts/test-windows) with a window of its own."""

from __future__ import annotations

import os
import shutil
import sys
import time

import pytest

# python-xlib leaves its Xauthority file open (a ResourceWarning when collected)
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")

HEARD_WITHIN = 2.0  # s for the listening thread to hear a window shown


def _heard(windows: object, since: int) -> int:
    """Wait for the windows' count of stirs to pass ``since``, and for the server to be done: the count then."""
    deadline = time.perf_counter() + HEARD_WITHIN
    while windows.stirs() == since and time.perf_counter() < deadline:  # type: ignore[attr-defined]
        time.sleep(0.01)
    assert time.perf_counter() < deadline, "the window was not heard"
    time.sleep(0.05)
    count: int = windows.stirs()  # type: ignore[attr-defined]
    assert windows.stirs() == count  # type: ignore[attr-defined]  # nothing more: the same count
    return count


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not shutil.which("Xvfb"), reason="X11 with Xvfb only"
)
def test_x11_tells_the_window_at_a_point_its_program_and_when_windows_stirred() -> None:
    from Xlib import X
    from Xlib.display import Display

    from bot.devices.windowing import X11Windows, x_authority
    from bot.games import virtual_display

    with virtual_display():
        windows = X11Windows()
        x_authority()
        other = Display()  # another program's connection
        try:
            before = windows.stirs()
            screen = other.screen()
            window = screen.root.create_window(
                100,
                100,
                200,
                100,
                0,
                screen.root_depth,
                X.InputOutput,
                X.CopyFromParent,
                override_redirect=True,
            )
            inner = window.create_window(
                10, 10, 50, 50, 0, screen.root_depth, X.InputOutput, X.CopyFromParent
            )
            other.sync()
            made = _heard(windows, before)
            # not shown: the bare desktop
            assert (windows.top(120, 120), windows.owner(120, 120)) == (
                0,
                0,
            )
            inner.map()
            window.map()
            other.sync()
            _heard(windows, made)
            mask = other.display.info.resource_id_mask
            assert windows.top(120, 120) == windows.top(250, 150) == window.id
            # inner's program is window's
            assert windows.owner(120, 120) == windows.owner(250, 150) == window.id & ~mask
            assert windows.owner(120, 120) != 0
        finally:
            other.close()
            windows.close()


@pytest.mark.skipif(
    sys.platform != "win32", reason="Windows: run by the Windows tier (scripts/test-windows)"
)
def test_windows_tells_the_window_at_a_point_and_its_process() -> None:
    import ctypes

    from bot.devices.windowing import Win32Windows
    from tests.wincover import WS_EX_TOPMOST, WS_VISIBLE, popup

    user32 = ctypes.windll.user32  # type: ignore[attr-defined]
    windows = Win32Windows()
    made = popup("BUTTON", "minebot test", WS_VISIBLE, WS_EX_TOPMOST, 100, 100, 200, 100)
    assert made, "the test's window could not be made"
    try:
        # a new count each time: asked before every click there
        assert windows.stirs() != windows.stirs()
        assert windows.top(200, 150) == made
        assert windows.owner(200, 150) == os.getpid()
    finally:
        user32.DestroyWindow(made)
    assert windows.top(200, 150) != made
