"""The Windows tier, end to end: minebot run by the official Windows CPython under Wine
(scripts/setup-windows) against Wine's winemine, a real Windows program, on Xvfb. The bot's Windows
path runs for real: mss's GDI capture, the low-level input hooks, SendInput (bot/devices/windows.py).

Clicks sent with SendInput go into wineserver, not the X server, so they are counted in the game
itself: winemine runs with Wine's message trace (WINEDEBUG=+message), whose "WM_xBUTTONDOWN
dispatched" lines are the presses it took, in order with the WM_KEYDOWN of a key typed into it and
the WM_MOVE of its window moved. Run alone with -m e2e (these run on Linux and drive Windows Python).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.games import RunningGame, installed, start_game, virtual_display, xdotool
from tests.figures import record
from tests.test_faults import Faults

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

REPO = Path(__file__).resolve().parents[1]
RIG = Path(os.environ.get("MINEBOT_WINDOWS") or Path.home() / ".cache" / "minebot-windows")
WINDOWS_PYTHON = REPO / "scripts" / "windows-python"
PRESS = re.compile(r"\] WM_[LRMX]BUTTONDOWN dispatched")
FAULT_AFTER = 6  # presses: past winemine's first click (a corner) and into the batches after it
PITCH = 16  # px: winemine's cells


def _require() -> None:
    ready = (RIG / "python" / "python.exe").is_file() and all(
        installed(p) for p in ("Xvfb", "xdotool", "wine")
    )
    # scripts/test sets the rig up: there a failure
    if not ready and not os.environ.get("MINEBOT_REQUIRE_E2E"):
        pytest.skip("the Windows rig is missing: run scripts/setup-windows")


class Trace:
    """winemine's message trace: the presses it took, from a point in the trace on."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def mark(self) -> int:
        return self.path.stat().st_size

    def lines(self, since: int = 0) -> list[str]:
        with self.path.open("rb") as log:
            log.seek(since)
            return log.read().decode("utf-8", "replace").splitlines()

    @staticmethod
    def _first(lines: list[str], message: str) -> int | None:
        return next(
            (
                i
                for i, line in enumerate(lines)
                if f"] {message} " in line and "spy_enter_message" in line
            ),
            None,
        )

    def holds(self, message: str, since: int = 0) -> bool:
        return self._first(self.lines(since), message) is not None

    def waits_for(self, message: str, since: int, seconds: float) -> bool:
        """Whether the trace holds ``message`` from ``since`` on within ``seconds``: the game writes its
        trace on its own time, so a fault's message may come a little after the fault."""
        deadline = time.monotonic() + seconds
        while not self.holds(message, since):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        return True

    def presses(self, since: int = 0, after: str | None = None) -> int:
        """Presses from ``since`` (a mark) on; with ``after``, only those after the first line from
        there that holds it (the fault's own message: the key typed, the window moved, the pointer
        moved over its frame)."""
        lines = self.lines(since)
        if after is not None:
            first = self._first(lines, after)
            assert first is not None, f"{after} is not in the game's trace after the fault"
            lines = lines[first:]
        return sum(bool(PRESS.search(line)) for line in lines)


def _wine(*args: str, done_if: str = "") -> None:
    """A Wine command in the rig's prefix, tried again where it fails (`wine reg add` failed once as
    the wineserver of the game before went away), then the prefix's wineserver waited for; ``done_if``:
    what it says where an earlier try did it after all."""
    env = {**os.environ, "WINEPREFIX": str(RIG / "prefix"), "WINEDEBUG": "-all"}
    for _ in range(3):
        done = subprocess.run(
            ["wine", *args], env=env, capture_output=True, text=True, errors="replace", timeout=120
        )
        if done.returncode == 0 or (done_if and done_if in done.stdout + done.stderr):
            break
        time.sleep(2)
    else:
        raise AssertionError(
            f"wine {' '.join(args)}: exit {done.returncode}: {done.stdout[-500:]}{done.stderr[-500:]}"
        )
    subprocess.run(["wineserver", "-w"], env=env, timeout=120, check=True)  # written to the prefix


def torn(trace: Trace) -> list[str]:
    """Presses let go at another point than they were pressed at (the game saw the pointer jump
    between a button's down and up), each told by the trace's lines from its down to its up. A
    release one pixel beside its press is minebot's own (bot/devices/windows.py's SendInput)."""
    pressed: dict[str, tuple[str, int]] = {}
    found_torn = []
    lines = trace.lines()
    for at, line in enumerate(lines):
        found = re.search(r"\] WM_([LRM])BUTTON(DOWN|UP) dispatched .* lp=([0-9a-f]+)", line)
        if found:
            button, kind, point = found.groups()
            if kind == "DOWN":
                pressed[button] = (point, at)
            else:
                down, since = pressed.pop(button, (point, at))
                if _apart(down, point) > 1:
                    found_torn.append("\n".join(lines[since : at + 1][-40:]))
    return found_torn


def _apart(first: str, second: str) -> int:
    """Pixels apart, most along either axis, of two points as a trace's lParam gives them (hex, y << 16 | x)."""
    (x1, y1), (x2, y2) = ((int(lp, 16) & 0xFFFF, int(lp, 16) >> 16) for lp in (first, second))
    return max(abs(x1 - x2), abs(y1 - y2))


@contextmanager
def display_scale(dpi: int) -> Iterator[None]:
    """Windows' display scaling for the prefix (96 dpi is 100%, 144 is 150%), as Wine takes it: the
    LogPixels value, read by each program as it starts; back to 100% afterwards."""
    if dpi == 96:
        yield
        return
    desktop = r"HKCU\Control Panel\Desktop"
    _wine("reg", "add", desktop, "/v", "LogPixels", "/t", "REG_DWORD", "/d", str(dpi), "/f")
    try:
        yield
    finally:
        _wine("reg", "delete", desktop, "/v", "LogPixels", "/f", done_if="Unable to find")


@contextmanager
def winemine(tmp_path: Path, level: str, dpi: int = 96) -> Iterator[tuple[RunningGame, Trace]]:
    """winemine on Xvfb, in the prefix the Windows Python runs in (one wineserver for both), with its
    message trace, focused and with the pointer over it, as a user's game would be; at ``dpi``."""
    _require()
    with virtual_display(), display_scale(dpi):
        game = start_game(
            "winemine",
            level,
            tmp_path,
            env={"WINEPREFIX": str(RIG / "prefix"), "WINEDEBUG": "+message"},
        )
        try:
            xdotool("windowfocus", "--sync", game.window)
            # Wine's hooks see input over its windows only
            xdotool("mousemove", "--window", game.window, "20", "10")
            yield game, Trace(tmp_path / "winemine.log")
        finally:
            game.close()


def _bot(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(WINDOWS_PYTHON), "-m", "bot", *args],
        cwd=REPO,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )


def _games(out: str) -> list[dict[str, object]]:
    """The game lines of ``play --json``: not the error line a stopped run ends with."""
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return [line for line in lines if "game" in line]


@pytest.mark.parametrize("dpi", [96, 144], ids=["100%", "150%"])
def test_windows_python_plays_winemine_at_expert(dpi: int, tmp_path: Path) -> None:
    """Whole games, at 100% and at 150% display scaling; every press the bot says it sent reached
    the game, and none more; none let go at another point than it was pressed at. A release on the
    cell clicked before, under load, was Wine queueing a move between a press and its release (found
    and mended 2026-11-30, docs/live.md; 2 of 4 busy runs before, 0 of 6 after). Where one is still
    seen, the games are played once more, and that run must have none; the first run's trace is printed."""
    for attempt in (1, 2):
        (tmp_path / str(attempt)).mkdir()
        with winemine(tmp_path / str(attempt), "expert", dpi) as (_, trace):
            bot = _bot("play", "--level", "expert", "--games", "3", "--json")
            out, err = bot.communicate(timeout=600)
            taken, jumped = trace.presses(), torn(trace)
        assert bot.returncode == 0, err[-2000:]
        games = _games(out)
        assert len(games) == 3 and all(
            g["state"] in ("won", "lost") and not g["lost_on_certain"] for g in games
        )
        # sent; a chord is one press as winemine takes it (WM_MBUTTONDOWN)
        made = sum(int(g["presses"]) for g in games)
        new_games = len(games) - 1  # the face, clicked between games
        record(
            f"windows at {dpi * 100 // 96}% scaling: {sum(g['state'] == 'won' for g in games)} of 3 expert games won, "
            f"{[g['seconds'] for g in games]} s, {made} clicks, {taken} presses in the game's trace"
            + (
                f"; {len(jumped)} let go elsewhere, the trace from the first's press to its release:\n{jumped[0]}"
                if jumped
                else ""
            )
        )
        assert taken == made + new_games
        if not jumped:
            return
    raise AssertionError(
        f"{len(jumped)} presses let go at another point than they were pressed at, two runs in a row"
    )


def test_windows_dry_run_clicks_nothing(tmp_path: Path) -> None:
    with winemine(tmp_path, "expert") as (_, trace):
        bot = _bot("play", "--dry-run")
        out, err = bot.communicate(timeout=120)
        taken = trace.presses()
    assert bot.returncode == 0, err[-2000:]
    assert "found winemine 30x16 (99 mines)" in err, err
    assert out.splitlines()[:16] == ["#" * 30] * 16 and "would play: reveal (0,0)" in out, out
    assert taken == 0


def test_a_key_pressed_just_before_start_does_not_stop_it(tmp_path: Path) -> None:
    """The Enter that launched it, an F2: GetAsyncKeyState keeps such a press until somebody asks,
    and the first run under Windows stopped before its first click on it. A hook sees only what
    happens once it is in place."""
    with winemine(tmp_path, "beginner") as (game, trace):
        faults = Faults(game, PITCH)
        try:
            faults.key_tap()
        finally:
            faults.close()
        bot = _bot("play", "--level", "beginner", "--games", "2", "--json")
        out, err = bot.communicate(timeout=300)
        taken = trace.presses()
    assert bot.returncode == 0, err[-2000:]
    assert len(_games(out)) == 2 and taken > 0


FAULTS = {  # what the bot says then, and the game's own message for the fault, where it has one
    "key_tap": ("a key was pressed", "WM_KEYDOWN"),
    # Wine hands a move to the hooks only once the window under the pointer has read it from X,
    # just before it queues that window's message: the move over the frame is its WM_NCMOUSEMOVE
    # (minebot's own moves are over cells, WM_MOUSEMOVE). Counted from the point the trace had
    # reached, a CI run (two cores, busy) saw 2 presses: Wine had not yet delivered the move.
    "pointer_moved": ("the mouse was moved", "WM_NCMOUSEMOVE"),
    "window_moved_one_cell": ("no longer where it was", "WM_MOVE"),
    "window_covered": ("no longer where it was", None),
    # a window of another Windows program (tests/wincover.py) over the middle of the board only:
    # the cells round it still look as they did; Windows itself says whose window is there
    "window_partly_covered": ("a window of another program is over it", None),
    "game_killed": ("no longer where it was", None),
}


class WindowsCover:
    """A window of another Windows program over the middle of the board, made hidden before the bot
    starts (a Windows Python takes seconds to start) and shown when asked (tests/wincover.py)."""

    def __init__(self, faults: Faults) -> None:
        at = faults.window.get_geometry()  # Wine's screen is the X screen (no virtual desktop)
        area = (at.x + at.width // 4, at.y + at.height // 2, at.width // 2, at.height // 4)
        self.process = subprocess.Popen(
            [str(WINDOWS_PYTHON), "tests/wincover.py", *map(str, area)],
            cwd=REPO,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.process.stdout is not None and self.process.stdout.readline().strip() == "ready"

    def show(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("show\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline().strip() == "shown"

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(30)


def _moved_again(faults: Faults, trace: Trace, before: int, tries: int = 3) -> list[str]:
    """Wine drops an X move of its window now and then: in a CI run of 2026-12-01 the game never had
    its WM_MOVE, and the bot played on through 20 games, its clicks right where Windows had the window.
    A user's move on Windows always reaches the game: the window is moved again (a cell further) until
    the game's trace shows it; what X said of each move dropped is given back, for the figures."""
    dropped = []
    for _ in range(tries):
        if trace.waits_for("WM_MOVE", before, 1):
            break
        dropped.append(
            f"no WM_MOVE in 1 s (X has the window at x={faults.window.get_geometry().x})"
        )
        faults.window_moved_one_cell()
    return dropped


@pytest.mark.parametrize("learning", [False, True], ids=["packed", "learning"])
@pytest.mark.parametrize("fault", FAULTS)
def test_a_fault_mid_game_stops_the_windows_bot_before_its_next_click(
    fault: str, learning: bool, tmp_path: Path
) -> None:
    """A key tap, the pointer moved (over the game's window, where Wine's hooks see it, as a user's
    hand would), the window moved one cell, covered (by an X window over all of it, or by another
    Windows program's window over the middle of its board), or the game killed, between two clicks: of the
    presses the game took after it (after its own message for the fault where it has one, else after
    the point the trace had reached), at most one. With the shipped pack, and learning winemine's
    look (its pack hidden, an empty data folder), where the learner's own reading checks the board."""
    said, message = FAULTS[fault]
    hidden = (
        {
            "MINEBOT_HIDE_SKINS": "winemine",
            "MINEBOT_DATA": str(tmp_path / "data"),
            "MINEBOT_CACHE": str(tmp_path / "cache"),
        }
        if learning
        else {}
    )
    with winemine(tmp_path, "expert") as (game, trace):
        faults = Faults(game, PITCH)
        cover = WindowsCover(faults) if fault == "window_partly_covered" else None
        try:
            bot = _bot("play", "--level", "expert", "--games", "20", "--json", env=hidden)
            deadline = time.monotonic() + 60
            while (
                trace.presses() < FAULT_AFTER and bot.poll() is None and time.monotonic() < deadline
            ):
                time.sleep(0.001)
            assert bot.poll() is None, "the bot ended before the fault"
            assert trace.presses() >= FAULT_AFTER, "the bot never clicked"
            before = trace.mark()
            if fault == "pointer_moved":
                at = faults.window.get_geometry()
                # the window's top edge: no cell there
                xdotool("mousemove", str(at.x + 8), str(at.y + 3))
            elif cover is not None:
                cover.show()
            else:
                getattr(faults, fault)()
            after = trace.mark()
            dropped = (
                _moved_again(faults, trace, before) if fault == "window_moved_one_cell" else []
            )
            out, err = bot.communicate(timeout=60)
            # from the fault's own message; where the game's trace never shows it (WM_NCMOUSEMOVE, once in a full
            # run of 2026-11-30, after the pointer moved over the frame), from when the fault was made
            shown = bool(message) and trace.waits_for(message, before, 5)
            # after the fault was made, whenever Wine delivered it
            sent_after = trace.presses(after)
            late = trace.presses(before, message) if shown else sent_after
            taken = trace.presses() - sent_after
        finally:
            faults.close()
            if cover is not None:
                cover.close()
    last = err.strip().splitlines()[-1] if err.strip() else ""
    record(
        f"windows {fault}{' learning' if learning else ''}: {taken} presses before it, {late} after"
        + (
            f" its {message} ({sent_after} after it was made)"
            if shown
            else f" it was made{f' (no {message} in the trace)' if message else ''}"
        )
        + (f"; moved again after {', '.join(dropped)}" if dropped else "")
        + f"; the bot said: {last}"
    )
    assert bot.returncode != 0, err[-2000:]
    assert said in last, err[-2000:]
    assert late <= 1, f"{late} presses reached the game after the fault ({fault})"
    assert not any(g["lost_on_certain"] for g in _games(out))
