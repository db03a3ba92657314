"""Windows input (bot/devices/windows.py), run by the Windows tier (scripts/test-windows: the official
Windows CPython under Wine): the hooks count input that minebot did not send, whoever sent it, and
pass over minebot's own, told by its tag alone."""

from __future__ import annotations

import sys
import time

import pytest

pytestmark = pytest.mark.skipif(
    sys.platform != "win32", reason="Windows input: run by the Windows tier (scripts/test-windows)"
)

SEEN_WITHIN = 2.0  # s for the hooks' thread to be called


def _wait(until: object) -> None:
    deadline = time.perf_counter() + SEEN_WITHIN
    while not until() and time.perf_counter() < deadline:  # type: ignore[operator]
        time.sleep(0.01)


def _untagged_key(code: int) -> None:
    """A key down and up sent as another program would (a remote-control tool: injected, no tag)."""
    from bot.devices import windows

    windows.SendInput()._send(
        *(
            windows.INPUT(
                windows.INPUT_KEYBOARD, windows._EVENT(ki=windows.KEYBDINPUT(code, 0, flags, 0, 0))
            )
            for flags in (0, windows.KEYUP)
        )
    )


def test_the_hooks_count_anothers_keys_and_not_minebots_own() -> None:
    from bot.devices.windows import HookCount, SendInput

    hooks = HookCount()
    try:
        own = SendInput()
        own.keys("ctrl+f2")
        own.click(300, 200, "both")
        time.sleep(0.3)
        # minebot's own: not counted
        assert (hooks.keys, hooks.buttons, list(hooks.moves)) == (
            0,
            0,
            [],
        )
        assert hooks.heard_own == 2  # but heard: the left and right presses of the chord
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
    assert [virtual_key(user32, name) for name in ("F2", "ctrl", "n", "Return", "b", "3")] == [
        0x71,
        0x11,
        0x4E,
        0x0D,
        0x42,
        0x33,
    ]
    with pytest.raises(Exception, match="cannot type the key"):
        virtual_key(user32, "KP_3")


def test_no_two_events_in_a_row_are_sent_at_one_pixel() -> None:
    """Each button event carries a move Wine's server keeps (it drops a move to where the pointer
    is, and the button then takes the pointer's place when it is queued: SendInput's docstring)."""
    from bot.devices.windows import DOWN_UP, SendInput

    own, sent = SendInput(), []
    own._send = lambda *events: sent.extend(
        (e.event.mi.dx, e.event.mi.dy, e.event.mi.dwFlags) for e in events
    )  # type: ignore[method-assign]
    own.move(300, 200)
    own.click(300, 200, "left")
    own.click(300, 200, "both")
    own.click(340, 200, "right")
    points = [(dx, dy) for dx, dy, _ in sent]
    assert all(a != b for a, b in zip(points, points[1:])), points
    buttons = [flags & ~0xC001 for _, _, flags in sent]  # MOVE, ABSOLUTE and VIRTUALDESK taken off
    left, right = DOWN_UP["left"], DOWN_UP["right"]
    assert buttons == [0, *left, left[0], right[0], right[1], left[1], *right]
    # the pixel and the one beside it, nothing further
    assert len({dx for dx, _, _ in sent[:7]}) == 2


def test_minebot_stops_once_its_hooks_no_longer_hear_its_clicks() -> None:
    """Windows removes a low-level hook slow to answer without a word; here the hooks are taken
    out (UnhookWindowsHookEx, as HookCount.close does) and minebot clicks on: once UNHEARD of its
    own presses went unheard, it stops before the next."""
    from bot.devices import actuator
    from bot.devices.windows import HookCount
    from bot.errors import ScreenError

    hooks = HookCount()
    mouse = actuator.LiveMouse(presses=hooks)
    mouse.click(5, 5)
    _wait(lambda: hooks.heard_own)
    assert hooks.heard_own == 1
    hooks.close()
    time.sleep(0.3)
    for _ in range(actuator.UNHEARD + 1):
        mouse.click(5, 5)  # the last, UNHEARD behind
    with pytest.raises(ScreenError, match="no longer hears the mouse"):
        mouse.click(5, 5)
    assert hooks.heard_own == 1
