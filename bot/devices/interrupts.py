"""What may befall the process between a look at the board and the click that look allows.

A click acts on a reading only while that reading is fresh: the board was checked at most
``FRESH`` seconds before the press is sent. Past that (a pause with Ctrl+Z or SIGSTOP, a signal
handler, a late thread, a machine too busy to run us) the screen is anyone's, and the board is
checked again before any press (``fresh_since``, ``StaleCheck``). A terminal stop (SIGTSTP) is
held off for the moment between that last test and the press itself.

A stop the user asks for with Ctrl+C is remembered as well as raised (``watch_stops``): the
interpreter ignores an exception raised in a finalizer, so the next click or key press raises it
again (``stop_requested``), and no more input reaches the game.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from bot.errors import StaleCheck

FRESH = 0.5  # s from a check of the board to its click (well under a person's pause); older: checked again

_deadline: float | None = None  # the time by which the pending press must be sent
_stop_asked = False


@contextmanager
def fresh_since(checked_at: float) -> Iterator[None]:
    """Within this block, a press (``sending``) rests on a check of the board made at
    ``checked_at`` (time.monotonic): it is sent only within FRESH of it."""
    global _deadline
    _deadline = checked_at + FRESH
    try:
        yield
    finally:
        _deadline = None


@contextmanager
def sending() -> Iterator[None]:
    """The moment of a press: a terminal stop is held off until the press is sent, and the press
    is refused (StaleCheck) where the check it rests on is no longer fresh."""
    held = _hold_stops()
    try:
        if _deadline is not None and time.monotonic() > _deadline:
            late = time.monotonic() - _deadline + FRESH
            raise StaleCheck(
                f"the board was checked {late:.2f} s before the click (a pause?): checked again"
            )
        yield
    finally:
        _release_stops(held)


def _hold_stops() -> bool:
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no terminal stop to hold off
        return False
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTSTP})
    return True


def _release_stops(held: bool) -> None:
    if held:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTSTP})


def watch_stops() -> None:
    """Remember each Ctrl+C (SIGINT) from now on, beside raising KeyboardInterrupt as usual. In
    the main thread only (Python runs signal handlers there); elsewhere nothing changes."""
    global _stop_asked
    _stop_asked = False
    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGINT)
    if getattr(previous, "minebot_stops", False):
        return

    def on_interrupt(signum: int, frame: FrameType | None) -> None:
        global _stop_asked
        _stop_asked = True
        if callable(previous):
            previous(signum, frame)
        raise KeyboardInterrupt

    on_interrupt.minebot_stops = True  # type: ignore[attr-defined]
    signal.signal(signal.SIGINT, on_interrupt)


def stop_requested() -> None:
    """Raise KeyboardInterrupt again where a Ctrl+C came and was swallowed on its way."""
    if _stop_asked:
        raise KeyboardInterrupt
