"""Real Minesweeper games on a virtual X display: start them, place their window, stop them.

For the end-to-end tests, ``minebot demo`` on a machine with no screen, and recording fixtures.
Nobody here wrote these games; they come from Debian's packages (``scripts/install-games``) and
PyPI. Linux only: needs Xvfb and xdotool.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.actuator import NO_COOKIE
from bot.errors import ScreenError, UsageError
from bot.userdata import cache_dir
from bot.vocabulary import GAME_LEVELS, LEVELS, Level, level_of

WINDOW_AT = (100, 100)  # where games are placed, clear of the screen's corners


@dataclass(frozen=True)
class GameInfo:
    name: str
    skin: str
    window_name: str  # a regular expression xdotool can search for (the window's title, or else its class)
    new_game_key: str | None  # keyboard shortcut for a new game, where the face cannot be clicked
    web: bool = False  # played in Chromium, at a device scale of the caller's choice
    flags: bool = True  # whether to flag mines (a right click)

    @property
    def levels(self) -> dict[str, Level]:
        """Its beginner, intermediate and expert: its own sizes (bot/vocabulary.py)."""
        return GAME_LEVELS.get(self.name, LEVELS)

    @property
    def screen(self) -> tuple[int, int]:
        """The virtual display's size: a web game at twice the scale needs room."""
        return (1800, 1600) if self.web else (1280, 1024)


GAMES: dict[str, GameInfo] = {
    "winemine": GameInfo("winemine", "winemine", "^WineMine$", "F2"),
    # xdemineur's board is at least 12 columns wide: its beginner is 9x12 with beginner's 10 mines
    "xdemineur": GameInfo("xdemineur", "xdemineur", "mineur$", None),
    # gnome-mines: Ctrl+R plays again once a game is over (Ctrl+N goes back to choosing a size);
    # it pauses when it loses focus, so the launcher gives it the focus
    "gnome-mines": GameInfo("gnome-mines", "gnome-mines", "^Mines$", "ctrl+r"),
    # minegauler's beginner is the old 8x8 with 10 mines
    "minegauler": GameInfo("minegauler", "minegauler", "^Minegauler$", "F2"),
    # xbomb: no pack ships for it (its look is learnt by playing); "s" starts a new game
    "xbomb": GameInfo("xbomb", "xbomb", "^XBomb V[0-9.a-z]+$", "s"),
    # kmines (KDE): no pack either; cells drawn over a background picture; Ctrl+N for a new game
    "kmines": GameInfo("kmines", "kmines", "^kmines$", "ctrl+n"),
    # Simon Tatham's Mines (Debian's sgt-puzzles): no pack; every board it deals can be solved
    # with no guess once the first click opens its area; N for a new game
    "sgt-mines": GameInfo("sgt-mines", "sgt-mines", "^Mines$", "n"),
    # a web game (PyPI's nicegui-minesweeper) in Chromium: one size at every level, 10x10 with 10 mines, no
    # counter, no face, no key; a "Restart" button above the board; the first click may be a mine.
    # No flags: a right click opens Chromium's menu over the board (the script that turns the menu
    # off runs 0.5 s after the server starts, for the pages open then: none)
    "nicegui-minesweeper": GameInfo(
        "nicegui-minesweeper", "nicegui-minesweeper", "^Minesweeper$", None,
        web=True, flags=False,
    ),
}


# Games from PyPI live in their own virtual environments here (scripts/install-games makes them),
# apart from minebot's: minegauler brings PyQt6, nicegui-minesweeper a web server.
GAMES_HOME = Path(os.environ.get("MINEBOT_GAMES", Path.home() / ".cache" / "minebot-games"))


def _which(program: str, venv: str | None = None) -> str:
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
        raise ScreenError(f"{program} is not installed; run scripts/install-games (apt-get and pip, as root)")
    return found


@contextmanager
def virtual_display(size: tuple[int, int] = (1280, 1024)) -> Iterator[str]:
    """Start Xvfb (no window manager) on a display number it finds free, and point DISPLAY at it
    for the duration (never another user's or a previous run's server, still going or going away)."""
    xvfb = _which("Xvfb")
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        # -noreset: by default the server resets when its last client leaves (each xdotool call while
        # a game starts), and a game connecting just then fails with "cannot open display"
        [xvfb, "-displayfd", str(write_end), "-screen", "0", f"{size[0]}x{size[1]}x24", "-nolisten", "tcp", "-noreset"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write_end,),
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
    try:
        yield display
    finally:
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


def xdotool(*args: str) -> str:
    out = subprocess.run([_which("xdotool"), *args], capture_output=True, text=True, timeout=30)
    return out.stdout.strip()


def _wait_window(pattern: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 60) -> str:
    """The window's id, once the game shows it; an error with what the game printed if it never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        # by its title, else its class (kmines' title is only in _NET_WM_NAME, which xdotool does not search)
        ids = xdotool("search", "--onlyvisible", "--name", pattern).split() or xdotool(
            "search", "--onlyvisible", "--class", pattern).split()
        if ids:
            return ids[-1]
        if process.poll() is not None:
            raise ScreenError(f"the game exited (code {process.returncode}) before its window appeared{_tail(log)}")
        time.sleep(0.2)
    raise ScreenError(f"no window matching {pattern!r} appeared within {timeout:.0f} s{_tail(log)}")


def _tail(log: Path) -> str:
    """The end of what the game printed, and where all of it is kept (this user's cache folder: the
    game's own folder goes with the run)."""
    said = " ".join(log.read_text(errors="replace").split()) if log.is_file() else ""
    if not said:
        return "; it printed nothing"
    kept = cache_dir() / log.name
    shutil.copyfile(log, kept)
    return f"; it said: ...{said[-400:]} (all it printed: {kept})"


@dataclass
class RunningGame:
    info: GameInfo
    process: subprocess.Popen[bytes]
    window: str
    env: dict[str, str]

    def close(self) -> None:
        if self.info.name == "winemine":
            subprocess.run([_which("wineserver"), "-k"], env=self.env, timeout=30, check=False)
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _winemine_settings(env: dict[str, str], level: str) -> None:
    size = LEVELS[level]
    values = {
        "Difficulty": list(LEVELS).index(level), "Height": size.rows, "Width": size.cols, "Mines": size.mines,
        # best times of 0 s cannot be beaten (the bot wins beginner in under a second), so the
        # name dialog never covers the board after a win
        "Time1": 0, "Time2": 0, "Time3": 0,
    }
    subprocess.run([_which("wineserver"), "-k"], env=env, timeout=30, check=False)
    for name, value in values.items():
        command = [_which("wine"), "reg", "add", r"HKCU\Software\Microsoft\WinMine", "/v", name,
                   "/t", "REG_DWORD", "/d", str(value), "/f"]
        for _ in range(3):  # CI once saw one fail while Wine was still making the new prefix
            done = subprocess.run(command, env=env, capture_output=True, text=True, errors="replace", timeout=120, check=False)
            if done.returncode == 0:
                break
            time.sleep(2)
        else:
            said = " ".join((done.stdout + done.stderr).split())[-300:]
            raise ScreenError(f"Wine could not set winemine's {name} (wine reg add: exit {done.returncode}: {said})")


def _winemine(level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
    env.update(WINEPREFIX=str(workdir / "wine"), WINEDEBUG="-all")
    _winemine_settings(env, level)
    return [_which("wine"), "winemine"]


def _xdemineur(level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
    size = level_of("xdemineur", level)
    return [_which("xdemineur"), "-geometry", f"{size.cols}x{size.rows}", "-m", str(size.mines)]


def _minegauler(level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
    program = _which("minegauler")
    prepare = Path(__file__).with_name("minegauler_prepare.py")
    size = level_of("minegauler", level)
    subprocess.run([str(Path(program).with_name("python")), str(prepare), str(size.rows), str(size.cols), str(size.mines)],
                   env=env, timeout=120, check=True)
    env.update(QT_QPA_PLATFORM="xcb")  # it writes runtime.log into its working directory, workdir
    return [program]


def _xbomb(level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
    return [_which("xbomb"), "-square", f"-{list(LEVELS).index(level) + 1}"]


KMINES_LEVELS = {"beginner": "Easy", "intermediate": "Medium", "expert": "Hard"}


def _kmines(level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
    # Its settings and best times in folders of its own: the level asked for, and ten best times of
    # 0 s, so that no win opens the best-times dialog over the board (keys cannot reach it here).
    for name in ("config", "data", "cache"):
        (workdir / name).mkdir(parents=True, exist_ok=True)
    env.update(XDG_CONFIG_HOME=str(workdir / "config"), XDG_DATA_HOME=str(workdir / "data"),
               XDG_CACHE_HOME=str(workdir / "cache"), QT_QPA_PLATFORM="xcb")
    difficulty = KMINES_LEVELS[level]
    scores = "".join(f"{n}_Name=minebot\n{n}_Score=0\n{n}_Time=00:00\n" for n in range(1, 11))
    (workdir / "config" / "kminesrc").write_text(
        f"[KgDifficulty]\nLevel={difficulty}\n\n[KHighscore_{difficulty}]\n{scores}"
    )
    return [_which("dbus-run-session"), _which("kmines")]  # it waits for a session bus without one


def _sgt_mines(level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
    size = LEVELS[level]
    env.update(MINES_DEFAULT=f"{size.cols}x{size.rows}n{size.mines}")  # sgt-puzzles' own way to set a game's parameters
    return [_which("sgt-mines")]


def _nicegui_minesweeper(level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
    # a web game (PyPI): its server and a Chromium window on it, as one process (bot/web_game.py)
    cols = level_of("nicegui-minesweeper", level).cols
    # page pixels: its 40 px cells, the button row, margins, and room below the board for the
    # "You won!" note it shows at the bottom of the window, clear of the board as in a usual window
    size = f"{40 * cols + 120},{40 * cols + 300}"
    return [sys.executable, "-m", "bot.web_game", "--scale", f"{scale:g}", "--size", size,
            "--profile", str(workdir / "chromium"), "--", _which("minesweeper", venv="nicegui-minesweeper")]


def _focus(window: str, level: str) -> None:
    xdotool("windowfocus", "--sync", window)  # no window manager gives it the keyboard


# gnome-mines starts at 610x460 whatever the level: too small for expert
GNOME_MINES_WINDOW = {"beginner": (610, 460), "intermediate": (800, 640), "expert": (1150, 640)}  # px


def _gnome_mines(level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
    # Its own defaults, nothing saved between runs; and ten best times of 0 s per size, so that
    # no win makes the top ten and opens the "Congratulations" dialog over the board.
    env.update(GSETTINGS_BACKEND="memory", XDG_DATA_HOME=str(workdir / "data"))
    scores = workdir / "data" / "gnome-mines" / "scores"
    scores.mkdir(parents=True, exist_ok=True)
    for size in GAME_LEVELS["gnome-mines"].values():
        for key in (f"{size.cols}-{size.rows}-{size.mines}", f"{size.rows}-{size.cols}-{size.mines}"):
            (scores / key).write_text("0 0 minebot\n" * 10)
    option = {"beginner": "--small", "intermediate": "--medium", "expert": "--big"}[level]
    return [_which("gnome-mines"), option]


def _gnome_mines_window(window: str, level: str) -> None:
    xdotool("windowsize", "--sync", window, *(str(n) for n in GNOME_MINES_WINDOW[level]))  # cells follow it
    _focus(window, level)  # it pauses itself without the focus
    time.sleep(2)  # it loads the best times in the background; a win before that opens the dialog


LAUNCHERS: dict[str, Callable[[str, Path, dict[str, str], float], list[str]]] = {
    "winemine": _winemine,
    "xdemineur": _xdemineur,
    "minegauler": _minegauler,
    "gnome-mines": _gnome_mines,
    "xbomb": _xbomb,
    "kmines": _kmines,
    "sgt-mines": _sgt_mines,
    "nicegui-minesweeper": _nicegui_minesweeper,
}
# what a game needs once its window is up, before it is moved into place
AFTER_START: dict[str, Callable[[str, str], None]] = {"gnome-mines": _gnome_mines_window, "kmines": _focus}


def start_game(name: str, level: str, workdir: Path, scale: float = 1.0, shift: int = 0) -> RunningGame:
    """Start a game at a standard level on the current DISPLAY and move its window to WINDOW_AT
    plus ``shift`` px each way; a web game at device scale ``scale`` (browser zoom)."""
    if name not in GAMES:
        raise UsageError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}")
    info = GAMES[name]
    if level not in info.levels:
        raise UsageError(f"{name} has no level {level!r}; choose one of {', '.join(info.levels)}")
    if scale != 1.0 and not info.web:
        raise UsageError(f"{name} is not a web game: its scale is its own (--scale is for web games)")
    # not what importing OpenCV points Qt at (its own plugins): a Qt game would load those and fail
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM_PLUGIN_PATH", "QT_QPA_FONTDIR", "QT_PLUGIN_PATH")}
    workdir.mkdir(parents=True, exist_ok=True)
    argv = LAUNCHERS[name](level, workdir, env, scale)
    log = workdir / f"{name}.log"
    for attempt in (1, 2):  # once a gnome-mines showed no window in a minute; the next start was fine
        with log.open("wb") as out:
            process = subprocess.Popen(argv, env=env, cwd=workdir, stdout=out, stderr=subprocess.STDOUT)
        try:
            window = _wait_window(info.window_name, process, log)
            break
        except ScreenError as exc:
            process.kill()
            process.wait(5)
            if attempt == 2 or process.returncode != -9:  # it exited by itself: starting again will not help
                raise
            print(f"minebot: {exc}; starting it again", file=sys.stderr)
    if name in AFTER_START:
        AFTER_START[name](window, level)
    xdotool("windowmove", "--sync", window, str(WINDOW_AT[0] + shift), str(WINDOW_AT[1] + shift))
    time.sleep(0.5)
    return RunningGame(info, process, window, env)
