"""Windows input: the user's keys, buttons and pointer moves seen as they happen by low-level hooks,
and minebot's own input sent with SendInput under a tag of its own, so that the hooks tell the two
apart by the tag alone (an "injected" flag would also pass over a remote-control tool's input, which
is a person's). Nothing typed or clicked before the hooks are in place is seen: a key pressed just
before minebot starts (the Enter that launched it) does not stop it.

Only imported on Windows (ctypes' windll); runs under Wine too, which is how it is tested here
(scripts/setup-windows, tests/test_windows.py).
"""

from __future__ import annotations

import ctypes
import functools
import sys
import threading
from collections import deque
from ctypes import wintypes

from bot.errors import ScreenError

TAG = 0x6D696E65  # dwExtraInfo of every event minebot sends ("mine")
HOOKS_READY = 5.0  # s for the hooks' thread to say whether they are in place

WH_KEYBOARD_LL, WH_MOUSE_LL, HC_ACTION, WM_QUIT = 13, 14, 0, 0x0012
KEY_DOWNS = {0x0100, 0x0104}  # WM_KEYDOWN, WM_SYSKEYDOWN
# left, right, middle, X down; the wheels
BUTTON_DOWNS = {
    0x0201,
    0x0204,
    0x0207,
    0x020B,
    0x020A,
    0x020E,
}
WM_MOUSEMOVE = 0x0200
INPUT_MOUSE, INPUT_KEYBOARD = 0, 1
MOVE, ABSOLUTE, VIRTUALDESK = 0x0001, 0x8000, 0x4000
DOWN_UP = {"left": (0x0002, 0x0004), "right": (0x0008, 0x0010), "middle": (0x0020, 0x0040)}
KEYUP = 0x0002
SM_VIRTUAL = (76, 77, 78, 79)  # the virtual screen's left, top, width, height

LRESULT = ctypes.c_ssize_t
ULONG_PTR = ctypes.c_size_t


class KBDLLHOOKSTRUCT(ctypes.Structure):
    _fields_ = [
        ("vkCode", wintypes.DWORD),
        ("scanCode", wintypes.DWORD),
        ("flags", wintypes.DWORD),
        ("time", wintypes.DWORD),
        ("dwExtraInfo", ULONG_PTR),
    ]


class MSLLHOOKSTRUCT(ctypes.Structure):
    _fields_ = [
        ("pt", wintypes.POINT),
        ("mouseData", wintypes.DWORD),
        ("flags", wintypes.DWORD),
        ("time", wintypes.DWORD),
        ("dwExtraInfo", ULONG_PTR),
    ]


class MOUSEINPUT(ctypes.Structure):
    _fields_ = [
        ("dx", wintypes.LONG),
        ("dy", wintypes.LONG),
        ("mouseData", wintypes.DWORD),
        ("dwFlags", wintypes.DWORD),
        ("time", wintypes.DWORD),
        ("dwExtraInfo", ULONG_PTR),
    ]


class KEYBDINPUT(ctypes.Structure):
    _fields_ = [
        ("wVk", wintypes.WORD),
        ("wScan", wintypes.WORD),
        ("dwFlags", wintypes.DWORD),
        ("time", wintypes.DWORD),
        ("dwExtraInfo", ULONG_PTR),
    ]


class _EVENT(ctypes.Union):
    _fields_ = [("mi", MOUSEINPUT), ("ki", KEYBDINPUT), ("pad", ctypes.c_byte * 32)]


class INPUT(ctypes.Structure):
    _fields_ = [("type", wintypes.DWORD), ("event", _EVENT)]


# Windows' calling convention; elsewhere (pytest's doctest run imports every module) CFUNCTYPE stands in, never called
HOOKPROC = getattr(ctypes, "WINFUNCTYPE", ctypes.CFUNCTYPE)(
    LRESULT, ctypes.c_int, wintypes.WPARAM, wintypes.LPARAM
)


@functools.cache  # loaded and its signatures set once a run
def _user32() -> ctypes.WinDLL:  # type: ignore[name-defined]
    if sys.platform != "win32":
        raise ScreenError("Windows input is for Windows only")
    user32 = ctypes.WinDLL("user32", use_last_error=True)
    user32.SetWindowsHookExW.argtypes = (ctypes.c_int, HOOKPROC, wintypes.HINSTANCE, wintypes.DWORD)
    user32.SetWindowsHookExW.restype = wintypes.HHOOK
    user32.CallNextHookEx.argtypes = (
        wintypes.HHOOK,
        ctypes.c_int,
        wintypes.WPARAM,
        wintypes.LPARAM,
    )
    user32.CallNextHookEx.restype = LRESULT
    user32.GetMessageW.argtypes = (
        ctypes.POINTER(wintypes.MSG),
        wintypes.HWND,
        wintypes.UINT,
        wintypes.UINT,
    )
    user32.PostThreadMessageW.argtypes = (
        wintypes.DWORD,
        wintypes.UINT,
        wintypes.WPARAM,
        wintypes.LPARAM,
    )
    user32.SendInput.argtypes = (wintypes.UINT, ctypes.POINTER(INPUT), ctypes.c_int)
    user32.SendInput.restype = wintypes.UINT
    user32.VkKeyScanW.argtypes = (wintypes.WCHAR,)
    user32.VkKeyScanW.restype = ctypes.c_short
    return user32


class HookCount:
    """The user's input since the hooks went in, counted as it happens by low-level keyboard and mouse
    hooks on a thread of their own (with the message loop they need): key and button presses, and
    where the pointer moved. Input tagged TAG (minebot's own, see :class:`SendInput`) is not counted,
    so ``sees_own`` is False: every press counted is somebody else's. Raises OSError where the hooks
    cannot be installed."""

    sees_own = False
    sees_every_move = True  # as it happens: no need to ask where the pointer is before a click

    def __init__(self) -> None:
        self.keys = self.buttons = 0
        self.heard_own = 0  # minebot's own button presses the hooks were called for: Windows removes a hook slow to answer
        self.moves: deque[tuple[int, int]] = deque(maxlen=256)
        self._user32 = _user32()
        self._ready = threading.Event()
        self._failed: str | None = None
        self._thread_id = 0
        # kept on self: a callback collected while a hook still points at it would crash the process
        self._procs = (HOOKPROC(self._keyboard), HOOKPROC(self._mouse))
        threading.Thread(target=self._run, name="minebot-input-hooks", daemon=True).start()
        if not self._ready.wait(HOOKS_READY):
            raise OSError(f"the input hooks did not start within {HOOKS_READY:.0f} s")
        if self._failed:
            raise OSError(self._failed)

    def _keyboard(self, code: int, message: int, data: int) -> int:
        if code == HC_ACTION and message in KEY_DOWNS:
            if KBDLLHOOKSTRUCT.from_address(data).dwExtraInfo != TAG:
                self.keys += 1
        return int(self._user32.CallNextHookEx(None, code, message, data))

    def _mouse(self, code: int, message: int, data: int) -> int:
        if code == HC_ACTION:
            event = MSLLHOOKSTRUCT.from_address(data)
            if event.dwExtraInfo != TAG:
                if message == WM_MOUSEMOVE:
                    self.moves.append((event.pt.x, event.pt.y))
                elif message in BUTTON_DOWNS:
                    self.buttons += 1
            elif message in BUTTON_DOWNS:
                self.heard_own += 1
        return int(self._user32.CallNextHookEx(None, code, message, data))

    def _run(self) -> None:
        user32, kernel32 = self._user32, ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
        kernel32.GetModuleHandleW.restype = wintypes.HMODULE
        module = kernel32.GetModuleHandleW(None)
        self._thread_id = kernel32.GetCurrentThreadId()
        hooks = [
            user32.SetWindowsHookExW(kind, proc, module, 0)
            for kind, proc in zip((WH_KEYBOARD_LL, WH_MOUSE_LL), self._procs)
        ]
        if not all(hooks):
            self._failed = f"SetWindowsHookExW failed (Windows error {ctypes.get_last_error()})"  # type: ignore[attr-defined]
            for hook in filter(None, hooks):
                user32.UnhookWindowsHookEx(hook)
            self._ready.set()
            return
        self._ready.set()
        message = wintypes.MSG()
        try:
            # the hooks are called from in here
            while user32.GetMessageW(ctypes.byref(message), None, 0, 0) > 0:
                pass
        finally:
            for hook in hooks:
                user32.UnhookWindowsHookEx(hook)

    def close(self) -> None:
        if self._thread_id:
            self._user32.PostThreadMessageW(self._thread_id, WM_QUIT, 0, 0)


class SendInput:
    """minebot's own pointer moves, clicks and keys, sent with SendInput and tagged TAG.

    No two events in a row are sent at one pixel: a button's up goes one pixel beside its down. Where
    an event's point is where the pointer already is, Wine's server drops its move and gives the
    button the pointer's place as it is when the button is queued, which is after the low-level
    hooks have passed on it; a move another program sent in between (Wine's ReleaseCapture sends one
    at the place the pointer had: the game letting go of the click before) then takes the release
    there. Found under load in winemine's trace: a release on the cell clicked before, 2 of 4 runs
    of 3 expert games at 150% scaling (docs/live.md). With a move of its own in the same request,
    each button event is queued straight after its move, at its point."""

    def __init__(self) -> None:
        self._user32 = _user32()
        self._last: tuple[int, int] | None = None  # the point of the last event sent

    def _send(self, *events: INPUT) -> None:
        sent = self._user32.SendInput(
            len(events), (INPUT * len(events))(*events), ctypes.sizeof(INPUT)
        )
        # fewer are sent when another thread's input blocks them, or a higher-integrity window (UIPI)
        if sent != len(events):
            error = ctypes.get_last_error()  # type: ignore[attr-defined]
            raise ScreenError(
                f"Windows refused minebot's input (SendInput sent {sent} of {len(events)}, error "
                f"{error}); run minebot as the same user as the game, not elevated"
            )

    def _mouse(self, flags: int, dx: int = 0, dy: int = 0) -> INPUT:
        return INPUT(INPUT_MOUSE, _EVENT(mi=MOUSEINPUT(dx, dy, 0, flags, 0, TAG)))

    def move(self, x: int, y: int) -> None:
        """The pointer to the screen pixel (x, y), by a tagged absolute move. Not SetCursorPos: under
        Wine it warps the X pointer, and the game's process hands that move back late as an untagged
        one, which moved the pointer between a click's down and up (a face click let go on a cell of
        the game before, 2026-11-28). Under Wine 8 a SendInput move leaves the X pointer where it
        was: the game and the hooks see the move, GetCursorPos may not (see LiveMouse)."""
        self._send(
            self._mouse(MOVE | ABSOLUTE | VIRTUALDESK, *self._absolute(*self._beside_last(x, y)))
        )

    def _beside_last(self, x: int, y: int) -> tuple[int, int]:
        """(x, y), or the pixel to its right where the last event was sent at (x, y)."""
        point = (x + 1, y) if self._last == (x, y) else (x, y)
        self._last = point
        return point

    def _absolute(self, x: int, y: int) -> tuple[int, int]:
        """(x, y) as SendInput's absolute coordinates: 0-65535 across the virtual screen, taken back by
        Windows as ``dx * width >> 16``, so the smallest value at or past the pixel lands on it."""
        left, top, width, height = (self._user32.GetSystemMetrics(i) for i in SM_VIRTUAL)
        return -(-(x - left) * 65536 // width), -(-(y - top) * 65536 // height)  # ceilings

    def click(self, x: int, y: int, button: str) -> None:
        """A click at the screen pixel (x, y); "both": left and right down together, then up (a
        chord). Each event carries a move to the point or the pixel beside it: a click cannot be
        taken anywhere else (see the class)."""
        flags: tuple[int, ...]
        if button == "both":
            flags = (
                DOWN_UP["left"][0],
                DOWN_UP["right"][0],
                DOWN_UP["right"][1],
                DOWN_UP["left"][1],
            )
        else:
            flags = DOWN_UP[button]
        self._send(
            *(
                self._mouse(
                    MOVE | ABSOLUTE | VIRTUALDESK | flag, *self._absolute(*self._beside_last(x, y))
                )
                for flag in flags
            )
        )

    def keys(self, combination: str) -> None:
        """A key or a combination such as ``ctrl+r``: each down in turn, then up in reverse."""
        codes = [virtual_key(self._user32, name) for name in combination.split("+")]
        events = [
            INPUT(INPUT_KEYBOARD, _EVENT(ki=KEYBDINPUT(code, 0, 0, 0, TAG))) for code in codes
        ]
        events += [
            INPUT(INPUT_KEYBOARD, _EVENT(ki=KEYBDINPUT(code, 0, KEYUP, 0, TAG)))
            for code in reversed(codes)
        ]
        self._send(*events)


NAMED_KEYS = {
    "backspace": 0x08,
    "tab": 0x09,
    "enter": 0x0D,
    "return": 0x0D,
    "shift": 0x10,
    "ctrl": 0x11,
    "control": 0x11,
    "alt": 0x12,
    "pause": 0x13,
    "esc": 0x1B,
    "escape": 0x1B,
    "space": 0x20,
    "pageup": 0x21,
    "pgup": 0x21,
    "pagedown": 0x22,
    "pgdn": 0x22,
    "end": 0x23,
    "home": 0x24,
    "left": 0x25,
    "up": 0x26,
    "right": 0x27,
    "down": 0x28,
    "insert": 0x2D,
    "delete": 0x2E,
    "del": 0x2E,
    "win": 0x5B,
    **{f"f{n}": 0x6F + n for n in range(1, 25)},
    **{f"num{n}": 0x60 + n for n in range(10)},
}


def virtual_key(user32: ctypes.WinDLL, name: str) -> int:  # type: ignore[name-defined]
    """The virtual-key code of a key named as pyautogui names it ("f2", "ctrl", "n", "3")."""
    lowered = name.lower()
    if lowered in NAMED_KEYS:
        return NAMED_KEYS[lowered]
    if len(name) == 1:
        code = int(user32.VkKeyScanW(lowered))
        if code != -1:
            return code & 0xFF
    raise ScreenError(
        f"cannot type the key {name!r} on Windows; use a key such as F2, ctrl+n or a letter"
    )
