"""The devices minebot touches, per platform. Today: the Windows input (``windows.py``: the user's
input through low-level hooks, minebot's own through SendInput, tagged). The screen capture
(bot/capture.py) and the mouse (bot/actuator.py) are to move in here (issue 46)."""
