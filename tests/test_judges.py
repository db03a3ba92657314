"""The end-to-end tests' own judges (tests/judges.py, tests/xpresses.py), checked where they can be
without a game running: a judge that cannot tell a won game from a lost one, or a press off the
board from one on it, would let a wrong verdict or a click shifted off the board pass."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.judges import FaceJudge, RecordJudge, gnome_mines_wins, mine_hit, pygame_minesweeper_wins
from tests.xpresses import outside

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize(
    "game,shot,state",
    [
        ("winemine", "beginner-won", "won"),
        ("winemine", "custom-30x16-140mines-lost", "lost"),
        ("winemine", "expert-fresh", "playing"),
        ("xdemineur", "custom-10x12-12mines-won", "won"),
        ("xdemineur", "expert-lost-wrong-flags", "lost"),
        ("xdemineur", "expert-flags-question-mark", "playing"),
        ("minegauler", "expert-lost-wrong-flags", "lost"),
        ("minegauler", "expert-midgame-five", "playing"),
    ],
)
def test_the_face_judge_tells_the_games_end_from_its_face(game: str, shot: str, state: str) -> None:
    image = cv2.imread(str(FIXTURES / game / f"{shot}.png"))
    assert FaceJudge(game, lambda: image).verdict() == state


@pytest.mark.parametrize("shot", sorted(p.stem for p in (FIXTURES / "sgt-mines").glob("*.board")))
def test_the_status_judge_tells_sgt_mines_end_from_its_status_line(shot: str) -> None:
    """The words were cut from other screens than these fixtures (a learning run's, 2026-11-28)."""
    from bot.vision.labels import read_label

    image = cv2.imread(str(FIXTURES / "sgt-mines" / f"{shot}.png"))
    assert (
        FaceJudge("sgt-mines", lambda: image).verdict()
        == read_label(FIXTURES / "sgt-mines" / f"{shot}.board").state
    )


@pytest.mark.parametrize("game", ["ace-minesweeper"])
def test_the_face_judge_tells_games_with_no_pack_by_faces_of_its_own(game: str) -> None:
    """Its faces were cut from three of these fixtures; every fixture of the game, as labelled."""
    from bot.vision.labels import read_label

    judge, states = FaceJudge(game), {}
    for label in sorted((FIXTURES / game).glob("*.board")):
        states[label.stem] = (
            judge.face(cv2.imread(str(label.with_suffix(".png")))),
            read_label(label).state,
        )
    assert all(judged == truth for judged, truth in states.values()) and {"won", "lost"} <= {
        t for _, t in states.values()
    }, states


@pytest.mark.parametrize(
    "shot", sorted(p.stem for p in (FIXTURES / "nicegui-minesweeper").glob("zoom100-*.board"))
)
def test_the_toast_judge_tells_the_web_games_end_at_1x(shot: str) -> None:
    """nicegui-minesweeper says "You won!" or "You lost!" in a toast below the board (cut from a
    learning run's screen and from a game lost by random clicks, 2026-11-28: not these fixtures)."""
    from bot.vision.labels import read_label

    image = cv2.imread(str(FIXTURES / "nicegui-minesweeper" / f"{shot}.png"))
    state = read_label(FIXTURES / "nicegui-minesweeper" / f"{shot}.board").state
    assert FaceJudge("nicegui-minesweeper", lambda: image).verdict() == (
        None if state == "playing" else state
    )


@pytest.mark.parametrize("shot", sorted(p.stem for p in (FIXTURES / "kmines").glob("*.board")))
def test_the_banner_judge_sees_no_end_on_kmines_in_play(shot: str) -> None:
    """kmines' banners ("won" cut from one learning run's last screen, "lost" from a game lost by
    random clicks, 2026-11-28) are told apart on the learning e2e's screens; its fixtures are all in play."""
    image = cv2.imread(str(FIXTURES / "kmines" / f"{shot}.png"))
    assert FaceJudge("kmines", lambda: image).verdict() is None


@pytest.mark.parametrize("shot", sorted(p.stem for p in (FIXTURES / "gnome-mines").glob("*.board")))
def test_the_mine_hit_judge_tells_gnome_mines_lost_games_and_nothing_else(shot: str) -> None:
    """gnome-mines' mine hit (cut from a game lost by clicks at random, 2026-11-29) on every lost
    fixture at the window size the tests start it at; no end on the others (a won game is told by
    its scores file: RecordJudge)."""
    from bot.vision.labels import read_label

    state = read_label(FIXTURES / "gnome-mines" / f"{shot}.board").state
    judged = FaceJudge(
        "gnome-mines", lambda: cv2.imread(str(FIXTURES / "gnome-mines" / f"{shot}.png"))
    ).verdict()
    # larger cells than the picture's
    resized = shot in (
        "beginner-lost-window-1200x1000",
        "beginner-lost-window-900x700",
    )
    assert judged == ("lost" if state == "lost" and not resized else None)


def test_the_mine_hit_judge_tells_gnome_mines_lost_at_expert_size() -> None:
    """At the expert window the tests start, gnome-mines' cells are smaller: its mine hit there was cut
    from a CI-like run's lost game (2026-11-29), and is found on another, lost by clicks at random."""
    image = cv2.imread(str(FIXTURES / "gnome-mines" / "ends" / "expert-lost.png"))
    assert FaceJudge("gnome-mines", lambda: image).verdict() == "lost"


@pytest.mark.parametrize(
    "shot,state",
    [
        *((p.stem, "playing") for p in sorted((FIXTURES / "xbomb").glob("beginner-*.png"))),
        ("ends/beginner-won", "won"),
        ("ends/beginner-lost", "lost"),
    ],
)
def test_the_judge_tells_xbomb_end_from_its_bombs_covered_cells_and_counter(
    shot: str, state: str
) -> None:
    """xbomb's red bombs, covered cell and "UXB :   0" were cut from other screens than these (see
    tests/judges.py); fixtures/xbomb/ends holds a learning run's last screens of a won and a lost game."""
    image = cv2.imread(str(FIXTURES / "xbomb" / f"{shot}.png"))
    assert FaceJudge("xbomb", lambda: image).verdict() == state


@pytest.mark.parametrize(
    "game,shot",
    [
        ("winemine", "custom-30x16-140mines-lost"),
        ("xdemineur", "expert-lost-wrong-flags"),
        ("minegauler", "expert-lost-wrong-flags"),
        ("gnome-mines", "beginner-lost-wrong-flags"),
        ("gnome-mines", "custom-12x16-77mines-lost-six"),
        ("winemine", "beginner-won"),
    ],
)
def test_the_mine_hit_is_found_on_the_cell_the_fixture_says(game: str, shot: str) -> None:
    """The packed end-to-end test checks that a lost game's mine hit, where the game shows it, is
    minebot's last guess: found here on each lost fixture's exploded mine, and on a won one nowhere."""
    from bot.vision.labels import read_label
    from bot.vocabulary import EXPLODED

    truth = read_label(FIXTURES / game / f"{shot}.board")
    box = (*truth.origin, round(truth.cols * truth.pitch[0]), round(truth.rows * truth.pitch[1]))
    hit = mine_hit(
        game, cv2.imread(str(FIXTURES / game / f"{shot}.png")), box, truth.rows, truth.cols
    )
    assert [hit] == (
        [tuple(int(v) for v in c) for c in np.argwhere(truth.board.cells == EXPLODED)] or [None]
    )


def test_the_face_judge_says_nothing_where_no_face_is_shown() -> None:
    image = cv2.imread(str(FIXTURES / "gnome-mines" / "beginner-won.png"))
    assert FaceJudge("winemine", lambda: image).verdict() is None


def test_a_record_judge_counts_a_new_record_as_a_win_and_asks_the_face_otherwise(
    tmp_path: Path,
) -> None:
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
    fresh, lost = (
        cv2.imread(str(FIXTURES / "gnome-mines" / f"{shot}.png"))
        for shot in ("beginner-fresh", "beginner-lost-wrong-flags")
    )
    # gnome-mines with its judge of a lost game: no record, no mine hit, no end; then one
    shots = iter([fresh, lost])
    judge = RecordJudge(
        lambda: gnome_mines_wins(tmp_path), FaceJudge("gnome-mines", lambda: next(shots)), wait=0
    )
    assert judge.verdict() is None and judge.verdict() == "lost"


def test_a_record_judge_waits_for_a_record_written_after_the_end_is_drawn() -> None:
    """minegauler opens the last cell, then draws its won face, then writes the record (a CI run,
    2026-11-30: a game won, its sunglasses on the test's screen, its record not yet written 0.3 s
    after minebot exited, so the judge said None). The fixture is such a moment: every safe cell
    open, the face still smiling. A record that comes on the fourth look is a win; with no record,
    the face's word once the wait is over."""
    counts = iter([0, 0, 0, 1])
    won = cv2.imread(str(FIXTURES / "minegauler" / "beginner-won.png"))
    assert (
        RecordJudge(lambda: next(counts), FaceJudge("minegauler", lambda: won)).verdict() == "won"
    )
    assert (
        RecordJudge(lambda: 0, FaceJudge("minegauler", lambda: won), wait=0.3).verdict()
        == "playing"
    )


def test_a_record_judge_of_one_record_a_second_answers_a_second_after_it_was_asked() -> None:
    """minegauler keeps one row for two wins started in one second (a run here, 2026-11-30: four games
    won, four highscores inserted, three rows): the judge holds the next game back past that second."""
    started = time.monotonic()
    assert RecordJudge(lambda: 0, apart=1.0).verdict() == "lost"
    assert time.monotonic() - started >= 1.0


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
    # the last column's press, a cell right
    assert outside([(x + 20, y) for x, y in on], [board, face]) == [(279, 209)]
