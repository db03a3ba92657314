"""Real Minesweeper games on a virtual X display: start them, place their window, stop them.

For the end-to-end tests, ``minebot demo`` on a machine with no screen, and recording fixtures.
``GAMES`` is the registry of the launchers (bot/games/launchers.py), by name; the X side is
bot/games/x11.py. Linux only: needs Xvfb and xdotool.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.errors import ScreenError, UsageError
from bot.games.launchers import GNOME_MINES_WINDOW, LAUNCHERS, Launcher, World, world_seed
from bot.games.x11 import GAMES_HOME, installed, virtual_display, wait_window, xdotool

__all__ = [
    "GAMES",
    "GAMES_HOME",
    "GNOME_MINES_WINDOW",
    "Launcher",
    "RunningGame",
    "installed",
    "launcher_of",
    "start_game",
    "virtual_display",
    "xdotool",
]

GAMES: dict[str, Launcher] = {launcher.name: launcher for launcher in LAUNCHERS}
WINDOW_AT = (100, 100)  # where games are placed, clear of the screen's corners
PLACED = 0.5  # s for a moved window to be drawn where it now is
PLACE_TRIES = 3  # moves of a window that shows elsewhere after a move
STOP_WAIT = 5.0  # s a game has to end once asked to


@dataclass
class RunningGame:
    launcher: Launcher
    process: subprocess.Popen[bytes]
    window: str
    env: dict[str, str]

    def close(self) -> None:
        self.launcher.stop(self.env)
        self.process.terminate()
        try:
            self.process.wait(STOP_WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(STOP_WAIT)  # reaped: no process left behind, nor a warning of one

    def __enter__(self) -> RunningGame:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def launcher_of(name: str) -> Launcher:
    """The launcher of game ``name``: one of GAMES, or a generated world, ``world:SEED``."""
    seed = world_seed(name)
    if seed is not None:
        return World(seed)
    if name not in GAMES:
        raise UsageError(
            f"unknown game {name!r}; choose one of {', '.join(GAMES)}, or world:SEED (a generated one)"
        )
    return GAMES[name]


def start_game(
    name: str,
    level: str,
    workdir: Path,
    scale: float = 1.0,
    shift: int = 0,
    env: dict[str, str] | None = None,
) -> RunningGame:
    """Start a game at a standard level on the current DISPLAY and move its window to WINDOW_AT
    plus ``shift`` px each way; a web game at device scale ``scale`` (browser zoom). ``env``: settings
    of the caller's for its environment (winemine's WINEPREFIX and WINEDEBUG)."""
    launcher = launcher_of(name)
    if level not in launcher.levels:
        raise UsageError(
            f"{name} has no level {level!r}; choose one of {', '.join(launcher.levels)}"
        )
    if scale != 1.0 and not launcher.web:
        raise UsageError(
            f"{name} is not a web game: its scale is its own (--scale is for web games)"
        )
    # not what importing OpenCV points Qt at (its own plugins): a Qt game would load those and fail
    env = {
        **{
            k: v
            for k, v in os.environ.items()
            if k not in ("QT_QPA_PLATFORM_PLUGIN_PATH", "QT_QPA_FONTDIR", "QT_PLUGIN_PATH")
        },
        **(env or {}),
    }
    workdir.mkdir(parents=True, exist_ok=True)
    argv = launcher.command(level, workdir, env, scale)
    log = workdir / f"{name}.log"
    # once a gnome-mines showed no window in a minute; the next start was fine
    for attempt in (
        1,
        2,
    ):
        with log.open("wb") as out:
            process = subprocess.Popen(
                argv, env=env, cwd=workdir, stdout=out, stderr=subprocess.STDOUT
            )
        try:
            window = wait_window(launcher.window_name, process, log)
            break
        except ScreenError as exc:
            process.kill()
            process.wait(STOP_WAIT)
            # exited by itself
            if attempt == 2 or (process.returncode != -9 and not launcher.start_again_on_exit):
                raise
            print(f"minebot: {exc}; starting it again", file=sys.stderr)
    launcher.after_start(window, level)
    window = place(
        window,
        (WINDOW_AT[0] + shift, WINDOW_AT[1] + shift),
        lambda: wait_window(launcher.window_name, process, log),
    )
    return RunningGame(launcher, process, window, env)


def place(window: str, at: tuple[int, int], find: Callable[[], str]) -> str:
    """Move ``window`` to ``at``, again while it is elsewhere once drawn (in one pygame-minesweeper run
    of ten its board showed at (644,566), not by WINDOW_AT, with nothing to say why: the winxp pack
    read its look there, and nothing was learnt), and the game's window, found anew by ``find``,
    where the window is no more (pygame-minesweeper, in a CI-like run: it sets its window up anew
    once shown, and the window moved had gone). A window still elsewhere after PLACE_TRIES moves is
    played where it is. Returns the game's window."""
    for _ in range(PLACE_TRIES):
        xdotool("windowmove", "--sync", window, str(at[0]), str(at[1]))
        time.sleep(PLACED)
        shell = dict(
            line.split("=", 1) for line in xdotool("getwindowgeometry", "--shell", window).split()
        )
        # nothing where xdotool failed
        if (shell.get("X"), shell.get("Y")) == (
            str(at[0]),
            str(at[1]),
        ):
            return window
        if not shell:  # no such window now
            window = find()
    print(
        f"minebot: the game's window is at {shell.get('X')},{shell.get('Y')}, not at {at[0]},{at[1]}, after "
        f"{PLACE_TRIES} moves; playing it there",
        file=sys.stderr,
    )
    return window
