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

