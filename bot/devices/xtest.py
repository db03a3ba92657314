"""minebot's own pointer moves and clicks on X11, sent through the XTest extension on a connection
of its own (keys still go through pyautogui, see actuator.LiveMouse.press)."""

from __future__ import annotations

# both: left and right together (a chord)
BUTTONS = {
    "left": (1,),
    "middle": (2,),
    "right": (3,),
    "both": (1, 3),
}


class XTestInput:
    """A click as one motion, its presses and releases, and one round trip to the server: pyautogui
    waits for the server after each move, press and release (five round trips a click, with the
    moves it makes before each press and release): 1.8 ms a click on Xvfb beside two busy
    processes, against 0.27. The round trip is kept: the click has reached the server before the
    next grab."""

    def __init__(self) -> None:
        from Xlib import X
        from Xlib.display import Display
        from Xlib.ext import xtest

        self._display = Display()
        self._fake, self._x = xtest.fake_input, X

    def move(self, x: int, y: int) -> None:
        self._fake(self._display, self._x.MotionNotify, x=x, y=y)
        self._display.sync()

    def click(self, x: int, y: int, button: str) -> None:
        """A click at the screen pixel (x, y); "both": left and right down together, then up in
        reverse (a chord)."""
        self._fake(self._display, self._x.MotionNotify, x=x, y=y)
        for code in BUTTONS[button]:
            self._fake(self._display, self._x.ButtonPress, code)
        for code in reversed(BUTTONS[button]):
            self._fake(self._display, self._x.ButtonRelease, code)
        self._display.sync()
