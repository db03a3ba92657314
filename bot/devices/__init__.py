"""The devices minebot touches: the screen (``capture.py``, with mss), the mouse and the user's
input seen while it plays (``actuator.py``, with pyautogui), and on Windows the input hooks and
tagged SendInput (``windows.py``). They import no vision, solver or play code."""
