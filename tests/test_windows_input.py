"""Windows input (bot/devices/windows.py), run by the Windows tier (scripts/test-windows: the official
Windows CPython under Wine): the hooks count input that minebot did not send, whoever sent it, and
pass over minebot's own, told by its tag alone."""

from __future__ import annotations

import sys
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "win32", reason="Windows input: run by the Windows tier (scripts/test-windows)")

SEEN_WITHIN = 2.0  # s for the hooks' thread to be called


def _wait(until: object) -> None:
    deadline = time.perf_counter() + SEEN_WITHIN
    while not until() and time.perf_counter() < deadline:  # type: ignore[operator]
        time.sleep(0.01)


def _untagged_key(code: int) -> None:
    """A key down and up sent as another program would (a remote-control tool: injected, no tag)."""
    from bot.devices import windows

    windows.SendInput()._send(*(windows.INPUT(windows.INPUT_KEYBOARD, windows._EVENT(ki=windows.KEYBDINPUT(code, 0, flags, 0, 0)))
                                for flags in (0, windows.KEYUP)))


def test_the_hooks_count_anothers_keys_and_not_minebots_own() -> None:
    from bot.devices.windows import HookCount, SendInput

    hooks = HookCount()
    try:
        own = SendInput()
        own.keys("ctrl+f2")
        own.click(300, 200, "both")
        time.sleep(0.3)
        assert (hooks.keys, hooks.buttons, list(hooks.moves)) == (0, 0, [])  # minebot's own: not counted
        _untagged_key(0x41)  # "a", from anybody else
        _wait(lambda: hooks.keys)
        assert hooks.keys == 1
    finally:
        hooks.close()


def test_a_key_pressed_before_the_hooks_went_in_is_not_counted() -> None:
    from bot.devices.windows import HookCount

    _untagged_key(0x0D)  # the Enter that launched minebot
    time.sleep(0.2)
    hooks = HookCount()
    try:
        time.sleep(0.3)
        assert hooks.keys == 0
    finally:
        hooks.close()


def test_the_key_names_minebot_uses_have_codes() -> None:
    from bot.devices.windows import _user32, virtual_key

    user32 = _user32()
    assert [virtual_key(user32, name) for name in ("F2", "ctrl", "n", "Return", "b", "3")] == [0x71, 0x11, 0x4E, 0x0D, 0x42, 0x33]
    with pytest.raises(Exception, match="cannot type the key"):
        virtual_key(user32, "KP_3")
