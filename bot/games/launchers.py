"""One launcher per real game: how to start it at a level, what it needs once its window shows,
how to stop it, and what minebot must know to play it (its skin, its key for a new game, whether
it takes flags).

Nobody here wrote these games; they come from Debian's packages (``scripts/install-games``) and
PyPI. Each starts with settings of its own in the run's folder, and with ten best times of 0 s where
it keeps best times, so that no win opens a name dialog over the board.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from bot.errors import ScreenError
from bot.games.x11 import which, xdotool
from bot.vocabulary import GAME_LEVELS, LEVELS, Level, level_of

# the virtual display: a web game at twice the scale needs room
WEB_SCREEN, SCREEN = (
    (1800, 1600),
    (1280, 1024),
)
REG_TRIES = 3  # CI once saw `wine reg add` fail while Wine was still making the new prefix
REG_PAUSE = 2.0  # s between tries
SETTLE_AFTER_FOCUS = 2.0  # s gnome-mines takes to load its best times in the background


class Launcher:
    """A real game minebot can start on a virtual display (``minebot demo``, the end-to-end tests)."""

    name: str
    window_name: (
        str  # a regular expression xdotool can search for (the window's title, or else its class)
    )
    # keyboard shortcut for a new game, where the face cannot be clicked
    new_game_key: str | None = None
    programs: tuple[str, ...] = ()  # what must be installed to run it
    pack: bool = True  # a skin pack for it ships with minebot (else its look is learnt by playing)
    web: bool = False  # played in Chromium, at a device scale of the caller's choice
    flags: bool = True  # whether to flag mines (a right click)
    # started again once where it exits by itself before its window shows (else only where it showed none in time)
    start_again_on_exit: bool = False
    # a page written for minebot's tests (bot/games/pages), not a game nobody here wrote
    ours: bool = False
    # the shipped pack whose pictures it draws (hidden while it is learnt)
    look_of: str | None = None

    @property
    def skin(self) -> str:
        return self.name

    @property
    def levels(self) -> dict[str, Level]:
        """Its beginner, intermediate and expert: its own sizes (bot/vocabulary.py)."""
        return GAME_LEVELS.get(self.name, LEVELS)

    @property
    def screen(self) -> tuple[int, int]:
        return WEB_SCREEN if self.web else SCREEN

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        """The command line that starts it at ``level``, its settings written into ``workdir`` and
        ``env``; ``scale``: a web game's device scale."""
        raise NotImplementedError

    def after_start(self, window: str, level: str) -> None:
        """What it needs once its window is up, before the window is moved into place."""

    def stop(self, env: dict[str, str]) -> None:
        """What stopping it needs beyond ending its process."""


def focus(window: str) -> None:
    xdotool("windowfocus", "--sync", window)  # no window manager gives it the keyboard


class Winemine(Launcher):
    """Wine's own Minesweeper (Wine 8 as Debian ships it; drawn green and black there)."""

    name, window_name, new_game_key, programs = "winemine", "^WineMine$", "F2", ("wine",)
    # Wine's loader exited with code 1 before the window showed in 2 of some 60 starts in the Windows
    # tier on a busy machine (2026-11-28), the prefix's wineserver ended and waited for first
    start_again_on_exit = True

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        # a prefix of the run's own, unless the caller gave one (the Windows tier: the prefix its
        # Windows Python runs in, so that both share one wineserver)
        env.setdefault("WINEPREFIX", str(workdir / "wine"))
        env.setdefault("WINEDEBUG", "-all")
        size = LEVELS[level]
        values = {
            "Difficulty": list(LEVELS).index(level),
            "Height": size.rows,
            "Width": size.cols,
            "Mines": size.mines,
            # best times of 0 s cannot be beaten (the bot wins beginner in under a second), so the
            # name dialog never covers the board after a win
            "Time1": 0,
            "Time2": 0,
            "Time3": 0,
        }
        _stop_wine(env)
        for name, value in values.items():
            command = [
                which("wine"),
                "reg",
                "add",
                r"HKCU\Software\Microsoft\WinMine",
                "/v",
                name,
                "/t",
                "REG_DWORD",
                "/d",
                str(value),
                "/f",
            ]
            for _ in range(REG_TRIES):
                done = subprocess.run(
                    command,
                    env=env,
                    capture_output=True,
                    text=True,
                    errors="replace",
                    timeout=120,
                    check=False,
                )
                if done.returncode == 0:
                    break
                time.sleep(REG_PAUSE)
            else:
                said = " ".join((done.stdout + done.stderr).split())[-300:]
                raise ScreenError(
                    f"Wine could not set winemine's {name} (wine reg add: exit {done.returncode}: {said})"
                )
        return [which("wine"), "winemine"]

    def stop(self, env: dict[str, str]) -> None:
        _stop_wine(env)


def _stop_wine(env: dict[str, str]) -> None:
    """End the prefix's wineserver and wait until it is gone: `wineserver -k` returns before, and a
    program started against a server going away exits with code 1 now and then (once in some 30
    starts of winemine in the Windows tier, 2026-11-28)."""
    subprocess.run([which("wineserver"), "-k"], env=env, timeout=30, check=False)
    subprocess.run([which("wineserver"), "-w"], env=env, timeout=30, check=False)


class Xdemineur(Launcher):
    """Debian's xdemineur: at least 12 columns wide (its beginner is 9x12); opens an area itself."""

    name, window_name, programs = "xdemineur", "mineur$", ("xdemineur",)

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        size = level_of(self.name, level)
        return [which("xdemineur"), "-geometry", f"{size.cols}x{size.rows}", "-m", str(size.mines)]


class Minegauler(Launcher):
    """minegauler (PyPI), in its own environment; its beginner is the old 8x8."""

    name, window_name, new_game_key, programs = "minegauler", "^Minegauler$", "F2", ("minegauler",)

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        program = which("minegauler")
        prepare = Path(__file__).with_name("minegauler_prepare.py")
        size = level_of(self.name, level)
        subprocess.run(
            [
                str(Path(program).with_name("python")),
                str(prepare),
                str(size.rows),
                str(size.cols),
                str(size.mines),
            ],
            env=env,
            timeout=120,
            check=True,
        )
        # it writes runtime.log into its working directory, workdir
        env.update(QT_QPA_PLATFORM="xcb")
        return [program]


# gnome-mines starts at 610x460 whatever the level: too small for expert
# px
GNOME_MINES_WINDOW = {
    "beginner": (610, 460),
    "intermediate": (800, 640),
    "expert": (1150, 640),
}


class GnomeMines(Launcher):
    """Debian's gnome-mines: its cells follow its window; Ctrl+R plays again once a game is over
    (Ctrl+N goes back to choosing a size); it pauses when it loses the focus."""

    name, window_name, new_game_key, programs = "gnome-mines", "^Mines$", "ctrl+r", ("gnome-mines",)

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        # its own defaults, nothing saved between runs; and ten best times of 0 s per size
        env.update(GSETTINGS_BACKEND="memory", XDG_DATA_HOME=str(workdir / "data"))
        scores = workdir / "data" / "gnome-mines" / "scores"
        scores.mkdir(parents=True, exist_ok=True)
        for size in self.levels.values():
            for key in (
                f"{size.cols}-{size.rows}-{size.mines}",
                f"{size.rows}-{size.cols}-{size.mines}",
            ):
                (scores / key).write_text("0 0 minebot\n" * 10)
        option = {"beginner": "--small", "intermediate": "--medium", "expert": "--big"}[level]
        return [which("gnome-mines"), option]

    def after_start(self, window: str, level: str) -> None:
        # cells follow it
        xdotool("windowsize", "--sync", window, *(str(n) for n in GNOME_MINES_WINDOW[level]))
        focus(window)  # it pauses itself without the focus
        # it loads the best times in the background; a win before that opens the dialog
        time.sleep(SETTLE_AFTER_FOCUS)


class Xbomb(Launcher):
    """Debian's xbomb: no pack ships (learnt by playing); its covered cells are dithered; "s" starts a new game."""

    name, window_name, new_game_key, programs, pack = (
        "xbomb",
        "^XBomb V[0-9.a-z]+$",
        "s",
        ("xbomb",),
        False,
    )

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        return [which("xbomb"), "-square", f"-{list(LEVELS).index(level) + 1}"]


KMINES_LEVELS = {"beginner": "Easy", "intermediate": "Medium", "expert": "Hard"}


class Kmines(Launcher):
    """KDE's kmines: no pack; cells drawn partly transparent over a background picture; Ctrl+N for a new game."""

    name, window_name, new_game_key, programs, pack = (
        "kmines",
        "^kmines$",
        "ctrl+n",
        ("kmines",),
        False,
    )

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        # its settings and best times in folders of its own: the level asked for; no "Reset the Game?"
        # after a loss (its answer, Yes, plays the same board again: a run would deal its lost boards
        # again and again); and ten best times of 0 s, so that no win opens the best-times dialog
        for name in ("config", "data", "cache"):
            (workdir / name).mkdir(parents=True, exist_ok=True)
        env.update(
            XDG_CONFIG_HOME=str(workdir / "config"),
            XDG_DATA_HOME=str(workdir / "data"),
            XDG_CACHE_HOME=str(workdir / "cache"),
            QT_QPA_PLATFORM="xcb",
        )
        difficulty = KMINES_LEVELS[level]
        scores = "".join(f"{n}_Name=minebot\n{n}_Score=0\n{n}_Time=00:00\n" for n in range(1, 11))
        (workdir / "config" / "kminesrc").write_text(
            f"[General]\nkmines_reset=false\n\n[KgDifficulty]\nLevel={difficulty}\n\n[KHighscore_{difficulty}]\n{scores}"
        )
        # it waits for a session bus without one
        return [
            which("dbus-run-session"),
            which("kmines"),
        ]

    def after_start(self, window: str, level: str) -> None:
        focus(window)


class SgtMines(Launcher):
    """Simon Tatham's Mines (Debian's sgt-puzzles): no pack; every board it deals can be solved with
    no guess once the first click opens its area; N for a new game."""

    name, window_name, new_game_key, programs, pack = (
        "sgt-mines",
        "^Mines$",
        "n",
        ("sgt-mines",),
        False,
    )

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        size = LEVELS[level]
        # sgt-puzzles' own way to set a game's parameters
        env.update(MINES_DEFAULT=f"{size.cols}x{size.rows}n{size.mines}")
        return [which("sgt-mines")]


PAGE_SERVER = (sys.executable, "-m", "bot.games.page_server")  # a page of bot/games/pages


def web_game(
    scale: float, size: str, workdir: Path, server: list[str], debug_port: int | None = None
) -> list[str]:
    """The command that serves a web game with ``server`` and shows it in a Chromium window of its
    own (bot/games/web_game.py) at device scale ``scale``, ``size`` (W,H) page pixels; with
    ``debug_port``, Chromium's remote debugging there."""
    debug = ["--debug-port", str(debug_port)] if debug_port else []
    return [
        sys.executable,
        "-m",
        "bot.games.web_game",
        "--scale",
        f"{scale:g}",
        "--size",
        size,
        "--profile",
        str(workdir / "chromium"),
        *debug,
        "--",
        *server,
    ]


class NiceguiMinesweeper(Launcher):
    """A web game (PyPI's nicegui-minesweeper) in Chromium: one size at every level, 10x10 with 10
    mines, no counter, no face, no key; a "Restart" button above the board; the first click may be
    a mine. No flags: a right click opens Chromium's menu over the board (the script that turns the
    menu off runs 0.5 s after the server starts, for the pages open then: none)."""

    name, window_name, programs, pack = (
        "nicegui-minesweeper",
        "^Minesweeper$",
        ("chromium", "minesweeper"),
        False,
    )
    web, flags = True, False

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        # its server and a Chromium window on it, as one process (bot/games/web_game.py)
        cols = level_of(self.name, level).cols
        # page pixels: its 40 px cells, the button row, margins, and room below the board for the
        # "You won!" note it shows at the bottom of the window, clear of the board as in a usual window
        size = f"{40 * cols + 120},{40 * cols + 300}"
        return web_game(scale, size, workdir, [which("minesweeper", venv="nicegui-minesweeper")])


class Bevel98(Launcher):
    """A web page in Windows 98's look, written for minebot's tests (bot/games/pages/bevel98.html):
    3-D bevels on 16x17 CSS px cells, which Chromium at a fractional device scale (1.25, 1.5, 1.75)
    draws at alternating pixel phases, as 98-style web games nobody here wrote do at those zooms
    (issue 45). A face starts a new game (F2 too); first click safe; mines counter; flags."""

    name, window_name, new_game_key, programs, pack = (
        "bevel98-web",
        "^Bevel98$",
        "F2",
        ("chromium",),
        False,
    )
    web, ours = True, True

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        size = level_of(self.name, level)
        window = f"{16 * size.cols + 140},{17 * size.rows + 200}"
        level_args = [
            "--cols",
            str(size.cols),
            "--rows",
            str(size.rows),
            "--mines",
            str(size.mines),
        ]
        return web_game(scale, window, workdir, [*PAGE_SERVER, "bevel98", *level_args])


class Sprites98(Bevel98):
    """The same page with its cells drawn from classic98's tile pictures (cut from a real 98-style
    web game), 16x16 in 16x17 cells: at a fractional device scale Chromium enlarges each picture
    and draws it at whole pixels, rows 25 and 26 px apart at 1.5. classic98's pack plays it; it is
    hidden where the look is learnt."""

    name, window_name, look_of = "sprites98-web", "^Sprites-classic98$", "classic98"

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        return [*super().command(level, workdir, env, scale), "--sprites", "classic98"]


class Over98(Sprites98):
    """The same page drawing its end over the whole board as soon as a game ends (a panel, "You
    win!" or "Game over", a "Play again" button), as some web games do, and its face with classic98's
    faces; its face and F2 still start a new game. Issue 45: a game's own end drawn over the board
    ends that game, never the run."""

    name = "over98-web"

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        return [*super().command(level, workdir, env, scale), "--faces", "--end-over", "0"]


class AceMinesweeper(Launcher):
    """The Ace of Penguins' minesweeper (Debian's ace-of-penguins): no pack; one size, 32x32 with
    200 mines, at every level; the first click may be a mine; a penguin above the board starts a
    new game (the learner finds it)."""

    name, window_name, programs, pack = (
        "ace-minesweeper",
        "ace-minesweeper$",
        ("ace-minesweeper",),
        False,
    )

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        return [which("ace-minesweeper")]


class PygameMinesweeper(Launcher):
    """pygame-minesweeper (PyPI; pygame): no pack; 10x10 with 10 mines at beginner; a face above
    the board starts a new game (the learner finds it; Escape quits it); the first click opens an
    area. Its best times go to a folder of the run's own."""

    # its title is typed UTF-8, which xdotool does not search: found by the class SDL is told to give it
    name, window_name, programs, pack = (
        "pygame-minesweeper",
        "^pygame-minesweeper$",
        ("pygame-minesweeper",),
        False,
    )

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        env.update(
            XDG_DATA_HOME=str(workdir / "data"),
            SDL_AUDIODRIVER="dummy",
            SDL_VIDEO_X11_WMCLASS=self.name,
        )
        return [which("pygame-minesweeper"), {"beginner": "basic"}.get(level, level)]


LAUNCHERS: tuple[Launcher, ...] = (
    Winemine(),
    Xdemineur(),
    GnomeMines(),
    Minegauler(),
    Xbomb(),
    Kmines(),
    SgtMines(),
    NiceguiMinesweeper(),
    AceMinesweeper(),
    PygameMinesweeper(),
    Bevel98(),
    Sprites98(),
    Over98(),
)


class World(Launcher):
    """The generated world (bot/games/pages/world.html): a web Minesweeper whose size, cells, look,
    motion, end, new game, mines counter and rules are drawn from ``seed``. Played with no
    configuration: no pack, no mine count, no new-game key; its level is its own. Its true state is
    read by a judge through Chromium's debugging port (``debug_port``), never by the player."""

    programs, pack, web, ours = ("chromium",), False, True, True
    flags = True

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.name = f"world:{seed}"
        self.window_name = f"^World {seed}$"
        self.debug_port = 0  # chosen when started

    @property
    def skin(self) -> str:
        return "world"

    def command(self, level: str, workdir: Path, env: dict[str, str], scale: float) -> list[str]:
        from bot.games.web_game import free_port

        self.debug_port = free_port()
        # the page fills the screen but the window's place (bot/games WINDOW_AT) and a margin
        width, height = ((side - 120) / scale for side in WEB_SCREEN)
        server = [*PAGE_SERVER, "world", "--seed", str(self.seed)]
        return web_game(scale, f"{width:.0f},{height:.0f}", workdir, server, self.debug_port)


def world_seed(name: str) -> int | None:
    """The seed of a generated world's name ``world:SEED``; None for another name."""
    prefix, _, seed = name.partition(":")
    return int(seed) if prefix == "world" and seed.isdigit() else None
