"""End to end: the bot plays real games on a virtual display (run alone: -m e2e).

Each test starts Xvfb and a real game (Wine's winemine, Debian's xdemineur and gnome-mines, minegauler from PyPI) through ``minebot demo``,
plays whole games, and checks
that every game ends in a win or a loss, that no loss came on a cell the bot called safe, and that
the bot's final reading equals what the game's final screen shows.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.games import GAMES, GAMES_HOME, GNOME_MINES_WINDOW, start_game, virtual_display, xdotool

pytestmark = pytest.mark.e2e

PROGRAMS = {"winemine": "wine", "xdemineur": "xdemineur", "minegauler": "minegauler", "gnome-mines": "gnome-mines"}


def _installed(*programs: str) -> bool:
    places = (None, "/usr/games", str(GAMES_HOME / "minegauler" / "bin"))
    return all(any(shutil.which(p, path=place) for place in places) for p in programs)


@pytest.mark.parametrize(
    "game,level,games",
    [(game, level, {"beginner": 4, "expert": 2}[level]) for game in PROGRAMS for level in ("beginner", "expert")],
)
def test_plays_real_game_to_the_end(game: str, level: str, games: int, tmp_path: Path) -> None:
    if not _installed("Xvfb", "xdotool", PROGRAMS[game]) and not os.environ.get("MINEBOT_REQUIRE_E2E"):
        pytest.skip(f"Xvfb, xdotool or {PROGRAMS[game]} missing: run scripts/install-games")
    final = tmp_path / "final.png"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--game", game, "--level", level,
         "--games", str(games), "--json", "--save-final", str(final)],
        capture_output=True, text=True, timeout=600, env=env,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    results = [json.loads(line) for line in out.stdout.splitlines()]  # nothing but JSON lines on stdout
    assert len(results) == games
    rows = GAMES[game].levels[level][0]
    for game in results:
        assert game["state"] in ("won", "lost")
        assert not game["lost_on_certain"]
        assert game["final_matches_screen"]
        assert len(game["board"]) == rows
    assert final.is_file()


def _play_after_start(game_name: str, level: str, tmp_path: Path, window: tuple[int, int] | None = None) -> subprocess.CompletedProcess[str]:
    """Start ``game_name`` at ``level``, optionally resize its window, and run ``minebot play --level expert``."""
    if not _installed("Xvfb", "xdotool", PROGRAMS[game_name]) and not os.environ.get("MINEBOT_REQUIRE_E2E"):
        pytest.skip(f"Xvfb, xdotool or {PROGRAMS[game_name]} missing: run scripts/install-games")
    with virtual_display():
        game = start_game(game_name, level, tmp_path)
        try:
            if window is not None:
                xdotool("windowsize", "--sync", game.window, *(str(n) for n in window))
                time.sleep(1)
            return subprocess.run(
                [sys.executable, "-m", "bot", "play", "--level", "expert", "--json"],
                capture_output=True, text=True, timeout=300,
            )
        finally:
            game.close()


@pytest.mark.parametrize("game_name,window", [("minegauler", None), ("gnome-mines", GNOME_MINES_WINDOW["expert"])])
def test_play_switches_the_game_to_the_level_asked(game_name: str, window: tuple[int, int] | None, tmp_path: Path) -> None:
    out = _play_after_start(game_name, "beginner", tmp_path, window)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.splitlines()[-1])
    assert len(result["board"]) == 16 and len(result["board"][0]) == 30  # it was 8x8
    assert result["state"] in ("won", "lost")


def test_a_window_too_small_for_the_level_is_reported(tmp_path: Path) -> None:
    out = _play_after_start("gnome-mines", "beginner", tmp_path)  # its 610x460 window shows part of expert
    assert out.returncode != 0
    assert "make the window larger" in out.stderr.splitlines()[-1]
