from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.errors import LayoutFileError, UsageError
from bot.sim.game import Game, make_layout, read_layouts, write_layouts
from bot.vocabulary import COVERED, EXPLODED, FLAG, LEVELS, MINE, WRONG_FLAG, Level, parse_level

EXPERT = LEVELS["expert"]


@pytest.mark.parametrize("seed", range(30))
def test_safe_rule_never_loses_on_the_first_click(seed: int) -> None:
    game = Game(LEVELS["beginner"], "safe", seed)
    game.reveal((4, 4))
    assert game.state != "lost"
    assert game.mines is not None and int(game.mines.sum()) == 10


@pytest.mark.parametrize("seed", range(30))
def test_opening_rule_first_click_is_a_zero(seed: int) -> None:
    game = Game(EXPERT, "opening", seed)
    game.reveal((0, 29))
    assert game.view[0, 29] == 0
    assert np.count_nonzero(game.view >= 0) >= 4


def test_none_rule_places_mines_before_the_first_click() -> None:
    game = Game(EXPERT, "none", 3)
    assert game.mines is not None
    r, c = (int(v) for v in np.argwhere(game.mines)[0])
    game.reveal((r, c))
    assert game.state == "lost" and game.view[r, c] == EXPLODED


def test_same_seed_same_game_different_seed_different_game() -> None:
    a, b, c = (Game(EXPERT, "safe", s) for s in ((1, 5), (1, 5), (1, 6)))
    for g in (a, b, c):
        g.reveal((0, 0))
    assert np.array_equal(a.mines, b.mines) and np.array_equal(a.view, b.view)
    assert not np.array_equal(a.mines, c.mines)


def _tiny() -> Game:
    layout = np.array([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]], dtype=bool)
    return Game(Level("custom", 3, 4, 2), "none", 0, layout=layout)


def test_zero_opens_its_area_recursively() -> None:
    game = _tiny()
    game.reveal((0, 3))
    assert game.board().cells.tolist() == [[-1, 1, 0, 0], [-1, 1, 1, 1], [-1, -1, -1, -1]]


def test_win_when_every_safe_cell_is_revealed() -> None:
    game = _tiny()
    for cell in [(0, 3), (2, 0), (2, 1), (2, 2)]:
        game.reveal(cell)
    assert game.state == "won"


def test_loss_shows_mines_exploded_and_wrong_flags() -> None:
    game = _tiny()
    game.flag((2, 0))  # wrong
    game.flag((0, 0))  # right
    game.reveal((2, 3))
    view = game.board().cells
    assert game.state == "lost"
    assert view[2, 3] == EXPLODED and view[2, 0] == WRONG_FLAG and view[0, 0] == FLAG
    game2 = _tiny()
    game2.reveal((2, 3))
    assert game2.board().cells[0, 0] == MINE


def test_chord_reveals_around_a_satisfied_number() -> None:
    game = _tiny()
    game.reveal((1, 1))
    game.flag((0, 0))
    assert game.view[0, 1] == COVERED
    game.chord((1, 1))
    # (2,0) is a 0 and opens the rest: every safe cell is revealed, the flag stays.
    assert game.view[0, 1] == 1 and game.view[2, 2] == 1 and game.view[0, 0] == FLAG
    assert game.state == "won"


def test_flags_toggle_and_are_never_revealed() -> None:
    game = _tiny()
    game.flag((1, 1))
    assert game.reveal((1, 1)) == "playing" and game.view[1, 1] == FLAG
    game.toggle_flag((1, 1))
    assert game.view[1, 1] == COVERED


def test_chord_with_a_wrong_flag_loses() -> None:
    game = _tiny()
    game.reveal((1, 1))
    game.flag((1, 0) if game.view[1, 0] == COVERED else (2, 0))
    game.chord((1, 1))
    assert game.state == "lost"


def test_layouts_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    made = [make_layout(EXPERT, "safe", (0, 0), (9, i)) for i in range(3)]
    assert write_layouts(path, made) == 3
    back = read_layouts(path)
    assert [b.level for b in back] == [EXPERT] * 3
    for m, b in zip(made, back):
        assert np.array_equal(m.mines, b.mines) and b.start == (0, 0) and b.rule == "safe"
        assert not b.mines[0, 0]
    # The same seeded game gets the same layout as the file holds.
    game = Game(EXPERT, "safe", (9, 1))
    game.reveal((0, 0))
    assert np.array_equal(game.mines, back[1].mines)


def test_layouts_file_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("game 0 rows=2 cols=2 mines=1 rule=safe start=0,0\n*.\n.*\n")
    with pytest.raises(LayoutFileError, match=r"bad.txt:1: header says 1 mines, the grid holds 2"):
        read_layouts(path)


def test_custom_levels_parse_and_bad_ones_say_how() -> None:
    assert parse_level("30x16/99") == Level("custom", 16, 30, 99)
    with pytest.raises(UsageError, match="COLSxROWS/MINES"):
        parse_level("huge")
