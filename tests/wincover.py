"""A window of another Windows program, with words in it, shown over part of a game when asked:
run by the Windows Python under Wine (tests/test_windows.py, the partly covered fault), as
``scripts/windows-python tests/wincover.py LEFT TOP WIDTH HEIGHT``. It makes the window hidden and
prints "ready"; a line on its input shows it (topmost, not taking the focus, as a notification
does) and it prints "shown"; it ends when its input closes."""

from __future__ import annotations

import ctypes
import sys
import threading
import time
from ctypes import wintypes

WS_POPUP, WS_BORDER, ES_MULTILINE = 0x80000000, 0x00800000, 0x0004
WS_EX_TOPMOST, WS_EX_NOACTIVATE = 0x00000008, 0x08000000
SW_SHOWNOACTIVATE, PM_REMOVE = 4, 0x0001
WS_VISIBLE = 0x10000000
WORDS = "New message: are we still on for lunch today?\r\n" * 4


def popup(
    kind: str, text: str, style: int, extended: int, left: int, top: int, width: int, height: int
) -> int:
    """A top-level window of this process of the window class ``kind`` (a control's: "EDIT",
    "BUTTON"), at that place on the screen; its handle, 0 where it could not be made."""
    user32 = ctypes.windll.user32  # type: ignore[attr-defined]
    user32.CreateWindowExW.restype = wintypes.HWND
    user32.CreateWindowExW.argtypes = [
        wintypes.DWORD,
        wintypes.LPCWSTR,
        wintypes.LPCWSTR,
        wintypes.DWORD,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        wintypes.HWND,
        wintypes.HMENU,
        wintypes.HINSTANCE,
        wintypes.LPVOID,
    ]
    user32.DestroyWindow.argtypes = [wintypes.HWND]
    return (
        user32.CreateWindowExW(
            extended, kind, text, WS_POPUP | style, left, top, width, height, None, None, None, None
        )
        or 0
    )


def main(left: int, top: int, width: int, height: int) -> None:
    user32 = ctypes.windll.user32  # type: ignore[attr-defined]
    window = popup(
        "EDIT",
        WORDS,
        WS_BORDER | ES_MULTILINE,
        WS_EX_TOPMOST | WS_EX_NOACTIVATE,
        left,
        top,
        width,
        height,
    )
    if not window:
        sys.exit("wincover: the window could not be made")
    asked, closed = threading.Event(), threading.Event()

    def listen() -> None:
        if sys.stdin.readline():
            asked.set()
            sys.stdin.read()
        closed.set()

    threading.Thread(target=listen, daemon=True).start()
    print("ready", flush=True)
    message = wintypes.MSG()
    shown = False
    while not closed.is_set():
        if asked.is_set() and not shown:
            user32.ShowWindow(window, SW_SHOWNOACTIVATE)
            user32.UpdateWindow(window)
            shown = True
            print("shown", flush=True)
        while user32.PeekMessageW(ctypes.byref(message), None, 0, 0, PM_REMOVE):
            user32.TranslateMessage(ctypes.byref(message))
            user32.DispatchMessageW(ctypes.byref(message))
        time.sleep(0.001)
    user32.DestroyWindow(window)


if __name__ == "__main__":
    main(*(int(v) for v in sys.argv[1:5]))
