"""The registry of real games (bot/games): what each launcher says of itself agrees with the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import GAMES
from bot.vocabulary import LEVELS

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


@pytest.mark.parametrize("name", list(GAMES))
def test_a_launcher_says_truly_whether_a_pack_ships_for_it(name: str) -> None:
    launcher = GAMES[name]
    assert launcher.name == name and launcher.programs
    assert launcher.pack == (TEMPLATES / launcher.skin / "pack.json").is_file()
    assert set(launcher.levels) == set(LEVELS)


def test_a_window_gone_once_moved_is_found_again_and_moved(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that sets its window up anew once shown (pygame-minesweeper, once): the window first
    found is gone, so its place cannot be read; the game's window is found again and moved, and is
    the one played."""
    import bot.games as games

    monkeypatch.setattr(games, "PLACED", 0)
    moved: list[str] = []

    def xdotool(*args: str) -> str:
        if args[0] == "windowmove":
            moved.append(args[2])
            return ""
        # getwindowgeometry --shell: the old one is gone
        return "X=100\nY=100" if args[-1] == "new" else ""

    monkeypatch.setattr(games, "xdotool", xdotool)
    assert games.place("old", (100, 100), lambda: "new") == "new"
    assert moved == ["old", "new"]
