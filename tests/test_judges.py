"""The end-to-end tests' own judges (tests/judges.py, tests/xpresses.py), checked where they can be
without a game running: a judge that cannot tell a won game from a lost one, or a press off the
board from one on it, would let a wrong verdict or a click shifted off the board pass."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from tests.judges import FaceJudge, RecordJudge, gnome_mines_wins, pygame_minesweeper_wins
from tests.xpresses import outside

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize("game,shot,state", [
    ("winemine", "beginner-won", "won"), ("winemine", "custom-30x16-140mines-lost", "lost"), ("winemine", "expert-fresh", "playing"),
    ("xdemineur", "custom-10x12-12mines-won", "won"), ("xdemineur", "expert-lost-wrong-flags", "lost"),
    ("xdemineur", "expert-flags-question-mark", "playing"),
    ("minegauler", "expert-lost-wrong-flags", "lost"), ("minegauler", "expert-midgame-five", "playing"),
])
def test_the_face_judge_tells_the_games_end_from_its_face(game: str, shot: str, state: str) -> None:
    image = cv2.imread(str(FIXTURES / game / f"{shot}.png"))
    assert FaceJudge(game, lambda: image).verdict() == state


@pytest.mark.parametrize("shot", sorted(p.stem for p in (FIXTURES / "sgt-mines").glob("*.board")))
def test_the_status_judge_tells_sgt_mines_end_from_its_status_line(shot: str) -> None:
    """The words were cut from other screens than these fixtures (a learning run's, 2026-11-28)."""
    from bot.vision.labels import read_label

    image = cv2.imread(str(FIXTURES / "sgt-mines" / f"{shot}.png"))
    assert FaceJudge("sgt-mines", lambda: image).verdict() == read_label(FIXTURES / "sgt-mines" / f"{shot}.board").state


@pytest.mark.parametrize("game", ["ace-minesweeper"])
def test_the_face_judge_tells_games_with_no_pack_by_faces_of_its_own(game: str) -> None:
    """Its faces were cut from three of these fixtures; every fixture of the game, as labelled."""
    from bot.vision.labels import read_label

    judge, states = FaceJudge(game), {}
    for label in sorted((FIXTURES / game).glob("*.board")):
        states[label.stem] = (judge.face(cv2.imread(str(label.with_suffix(".png")))), read_label(label).state)
    assert all(judged == truth for judged, truth in states.values()) and {"won", "lost"} <= {t for _, t in states.values()}, states


@pytest.mark.parametrize("shot", sorted(p.stem for p in (FIXTURES / "nicegui-minesweeper").glob("zoom100-*.board")))
def test_the_toast_judge_tells_the_web_games_end_at_1x(shot: str) -> None:
    """nicegui-minesweeper says "You won!" or "You lost!" in a toast below the board (cut from a
    learning run's screen and from a game lost by random clicks, 2026-11-28: not these fixtures)."""
    from bot.vision.labels import read_label

    image = cv2.imread(str(FIXTURES / "nicegui-minesweeper" / f"{shot}.png"))
    state = read_label(FIXTURES / "nicegui-minesweeper" / f"{shot}.board").state
    assert FaceJudge("nicegui-minesweeper", lambda: image).verdict() == (None if state == "playing" else state)


@pytest.mark.parametrize("shot", sorted(p.stem for p in (FIXTURES / "kmines").glob("*.board")))
def test_the_banner_judge_sees_no_end_on_kmines_in_play(shot: str) -> None:
    """kmines' banners ("won" cut from one learning run's last screen, "lost" from a game lost by
    random clicks, 2026-11-28) are told apart on the learning e2e's screens; its fixtures are all in play."""
    image = cv2.imread(str(FIXTURES / "kmines" / f"{shot}.png"))
    assert FaceJudge("kmines", lambda: image).verdict() is None


def test_the_face_judge_says_nothing_where_no_face_is_shown() -> None:
    image = cv2.imread(str(FIXTURES / "gnome-mines" / "beginner-won.png"))
    assert FaceJudge("winemine", lambda: image).verdict() is None


def test_a_record_judge_counts_a_new_record_as_a_win_and_asks_the_face_otherwise(tmp_path: Path) -> None:
    scores = tmp_path / "data" / "gnome-mines" / "scores"
    scores.mkdir(parents=True)
    (scores / "8-8-10").write_text("0 0 minebot\n" * 10)
    judge = RecordJudge(lambda: gnome_mines_wins(tmp_path))
    assert judge.verdict() == "lost"
    (scores / "8-8-10").write_text("0 0 minebot\n" * 10 + "4 1764000000 root\n")
    assert judge.verdict() == "won"
    assert judge.verdict() == "lost"  # the same record again is no second win
    lost = cv2.imread(str(FIXTURES / "minegauler" / "expert-lost-wrong-flags.png"))
    assert RecordJudge(lambda: 3, FaceJudge("minegauler", lambda: lost)).verdict() == "lost"


def test_pygame_minesweepers_record_counts_every_time_it_keeps(tmp_path: Path) -> None:
    """Its best-times file as the game writes it (json.dump of a list of times a level, every win
    appended): a win more is a time more, and a folder it never wrote counts none."""
    assert pygame_minesweeper_wins(tmp_path) == 0
    folder = tmp_path / "data" / "pygame-minesweeper"
    folder.mkdir(parents=True)
    (folder / "high-score.json").write_text("{}")
    assert pygame_minesweeper_wins(tmp_path) == 0
    (folder / "high-score.json").write_text('{"basic": [2.481, 3.09], "expert": [81.5]}')
    assert pygame_minesweeper_wins(tmp_path) == 3


def test_a_press_shifted_off_the_board_is_found() -> None:
    board = (100, 50, 160, 160)  # 8x8 cells of 20 px
    face = (165, 10, 30, 30)
    on = [(110, 60), (259, 209), (170, 25)]
    assert outside(on, [board, face]) == []
    assert outside([(x + 20, y) for x, y in on], [board, face]) == [(279, 209)]  # the last column's press, a cell right
