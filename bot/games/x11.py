"""The X side of running a game: a virtual display (Xvfb), xdotool, a game's programs, its window.

Linux only: needs Xvfb and xdotool (``scripts/install-games``).
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bot.devices.windowing import NO_COOKIE
from bot.errors import ScreenError
from bot.userdata import cache_dir

GAMES_HOME = Path(os.environ.get("MINEBOT_GAMES", Path.home() / ".cache" / "minebot-games"))
WINDOW_WAIT = 60.0  # s a game may take to show its window
POLL = 0.2  # s between looks for it
FOCUS_POLL = 0.1  # s between looks whether DialogFocus should stop


def which(program: str, venv: str | None = None) -> str:
    """A game's program: in its own virtual environment under GAMES_HOME where it has one (named
    ``venv``: only there, since the name may be another program's too), else on PATH or in /usr/games."""
    if venv is not None:
        found = shutil.which(program, path=str(GAMES_HOME / venv / "bin"))
    else:
        found = (
            shutil.which(program)
            or shutil.which(program, path="/usr/games")
            or shutil.which(program, path=str(GAMES_HOME / program / "bin"))
        )
    if not found:
        raise ScreenError(
            f"{program} is not installed; run scripts/install-games (apt-get and pip, as root)"
        )
    return found


def installed(program: str) -> bool:
    """Whether ``which`` finds the program (in a game's own environment too)."""
    places = (None, "/usr/games", *(str(d / "bin") for d in GAMES_HOME.glob("*")))
    return any(shutil.which(program, path=place) for place in places)


@contextmanager
def virtual_display(size: tuple[int, int] = (1280, 1024)) -> Iterator[str]:
    """Start Xvfb (no window manager) on a display number it finds free, and point DISPLAY at it
    for the duration (never another user's or a previous run's server, still going or going away)."""
    xvfb = which("Xvfb")
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        # -noreset: by default the server resets when its last client leaves (each xdotool call while
        # a game starts), and a game connecting just then fails with "cannot open display"
        [
            xvfb,
            "-displayfd",
            str(write_end),
            "-screen",
            "0",
            f"{size[0]}x{size[1]}x24",
            "-nolisten",
            "tcp",
            "-noreset",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write_end,),
    )
    os.close(write_end)
    with os.fdopen(read_end) as chosen:  # Xvfb writes the number once it accepts clients
        number = chosen.readline().strip()
    if not number.isdigit():
        proc.kill()
        raise ScreenError(f"Xvfb did not start (exit code {proc.wait(5)})")
    display = f":{number}"
    saved = {k: os.environ.get(k) for k in ("DISPLAY", "XAUTHORITY")}
    # python-xlib (pyautogui) insists on a file, and prints a warning on stdout when it holds no entry
    # (into --json output); Xvfb here needs no cookie, so one entry of a kind no client uses
    handle, auth = tempfile.mkstemp(prefix="minebot-", suffix=".Xauthority")
    os.write(handle, NO_COOKIE)
    os.close(handle)
    os.environ["DISPLAY"], os.environ["XAUTHORITY"] = display, auth
    keeper = DialogFocus(display)
    try:
        yield display
    finally:
        keeper.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        Path(auth).unlink(missing_ok=True)


class DialogFocus:
    """What a window manager does for a dialog, on a display with none: a window that shows for
    another one (WM_TRANSIENT_FOR: "Reset the game?", a best-times dialog) gets the keyboard, so
    that Return answers it as on a desktop; when it goes, the window that had the keyboard gets it
    back. A thread of its own with its own connection, until ``stop``."""

    def __init__(self, display: str) -> None:
        from Xlib import X, Xatom, Xutil
        from Xlib.display import Display

        self._x, self._atoms, self._input_hint = X, Xatom, Xutil.InputHint
        # python-xlib reads the Xauthority file and leaves it to be closed
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            self.conn = Display(display)
        self.conn.screen().root.change_attributes(event_mask=X.SubstructureNotifyMask)
        self.conn.flush()
        self.before: dict[int, object] = {}  # a dialog's window id: the focus before it showed
        self._stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="dialog-focus", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        from Xlib.error import CatchError, XError

        X = self._x
        while not self._stopping.is_set():
            if (
                not select.select([self.conn], [], [], FOCUS_POLL)[0]
                and not self.conn.pending_events()
            ):
                continue
            try:
                while self.conn.pending_events():
                    event = self.conn.next_event()
                    if event.type == X.MapNotify and not event.override:
                        if self._dialog(event.window):
                            self.before[event.window.id] = self.conn.get_input_focus().focus
                            event.window.set_input_focus(
                                X.RevertToPointerRoot, X.CurrentTime, onerror=CatchError()
                            )
                    elif (
                        event.type in (X.UnmapNotify, X.DestroyNotify)
                        and event.window.id in self.before
                    ):
                        back = self.before.pop(event.window.id)
                        if hasattr(back, "set_input_focus"):
                            back.set_input_focus(
                                X.RevertToPointerRoot, X.CurrentTime, onerror=CatchError()
                            )
                self.conn.flush()
            except XError:  # the window went before it was asked about
                continue
            except (OSError, ConnectionError):  # the server went
                return

    def _dialog(self, window: Any) -> bool:
        """Whether a window is a dialog: shown for another window, of the dialog type (not a menu or
        a tooltip), taking keys: by its input hint, or by taking the focus itself when offered
        (WM_TAKE_FOCUS: Wine's windows, whose input hint says no)."""
        kind = window.get_full_property(
            self.conn.intern_atom("_NET_WM_WINDOW_TYPE"), self._x.AnyPropertyType
        )
        # python-xlib's get_wm_hints fails on 3.11
        hints = window.get_full_property(self._atoms.WM_HINTS, self._atoms.WM_HINTS)
        takes_keys = (
            hints is None
            or len(hints.value) < 2
            or not hints.value[0] & self._input_hint
            or hints.value[1]
            or self.conn.intern_atom("WM_TAKE_FOCUS") in (window.get_wm_protocols() or ())
        )
        return bool(
            window.get_wm_transient_for() is not None
            and takes_keys
            and kind is not None
            and self.conn.intern_atom("_NET_WM_WINDOW_TYPE_DIALOG") in kind.value
        )

    def stop(self) -> None:
        self._stopping.set()
        self.thread.join(2 * FOCUS_POLL + 1)
        try:
            self.conn.close()
        except Exception:  # the server is going: nothing to close cleanly
            pass


def xdotool(*args: str) -> str:
    out = subprocess.run([which("xdotool"), *args], capture_output=True, text=True, timeout=30)
    return out.stdout.strip()


def wait_window(
    pattern: str, process: subprocess.Popen[bytes], log: Path, timeout: float = WINDOW_WAIT
) -> str:
    """The window's id, once the game shows it; an error with what the game printed if it never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        # by its title, else its class (kmines' title is only in _NET_WM_NAME, which xdotool does not search)
        ids = (
            xdotool("search", "--onlyvisible", "--name", pattern).split()
            or xdotool("search", "--onlyvisible", "--class", pattern).split()
        )
        if ids:
            return ids[-1]
        if process.poll() is not None:
            raise ScreenError(
                f"the game exited (code {process.returncode}) before its window appeared{tail(log)}"
            )
        time.sleep(POLL)
    raise ScreenError(f"no window matching {pattern!r} appeared within {timeout:.0f} s{tail(log)}")


def tail(log: Path) -> str:
    """The end of what the game printed, and where all of it is kept (this user's cache folder: the
    game's own folder goes with the run)."""
    said = " ".join(log.read_text(errors="replace").split()) if log.is_file() else ""
    if not said:
        return "; it printed nothing"
    kept = cache_dir() / log.name
    shutil.copyfile(log, kept)
    return f"; it said: ...{said[-400:]} (all it printed: {kept})"
