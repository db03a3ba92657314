"""The play loop's click planning: chords where they save clicks, and never a different outcome."""

from __future__ import annotations

import numpy as np
import pytest

from bot.board import Board
from bot.play import plan_chords, play_game
from bot.sim.game import Game
from bot.solver import get_strategy
from bot.vocabulary import FLAG, LEVELS


def test_chord_goes_on_a_satisfied_number_that_opens_two_or_more() -> None:
    board = Board.parse("F1###\n11###\n00###\n")
    # (0,1) is a 1 with its flag: its covered neighbours (0,2), (1,2) are safe -> one chord.
    chords, singles = plan_chords(board, [(0, 2), (1, 2), (2, 4)])
    assert chords == [(0, 1)] and singles == [(2, 4)]


def test_no_chord_for_one_cell_unsatisfied_numbers_or_cells_not_known_safe() -> None:
    board = Board.parse("F1#\n11#\n00#\n")
    assert plan_chords(board, [(0, 2)]) == ([], [(0, 2)])  # (0,1) would open one cell: no saving
    unflagged = Board.parse("#1##\n11##\n00##")
    # the 1 lacks its flag
    assert plan_chords(unflagged, [(0, 2), (1, 2)]) == (
        [],
        [(0, 2), (1, 2)],
    )
    # (0,1)'s covered neighbours are (0,2) and (1,2): (1,2) is not known safe, so no chord.
    assert plan_chords(board, [(0, 2), (2, 2)])[0] == []


def test_no_chord_beside_a_question_mark() -> None:
    board = Board.parse("F1#\n1?#\n00#")
    assert plan_chords(board, [(0, 2), (1, 2)])[0] == []


@pytest.mark.parametrize("seed", range(6))
def test_chording_opens_exactly_what_single_clicks_open_with_fewer_clicks(seed: int) -> None:
    level = LEVELS["intermediate"]
    results = []
    for chords in (True, False):
        game = Game(level, "safe", seed)
        game.chords = chords
        result = play_game(
            game, get_strategy("best"), "safe", np.random.default_rng(seed), must_flag=True
        )
        results.append((result, game.view.copy()))
    (with_chords, view_with), (without, view_without) = results
    assert with_chords.state == without.state and with_chords.guesses == without.guesses
    assert np.array_equal(view_with, view_without)
    assert without.chords == 0
    # a chord is played only where it saves clicks: the run with chords takes fewer, or made none
    assert (
        with_chords.clicks < without.clicks
        if with_chords.chords
        else with_chords.clicks == without.clicks
    )


def test_a_lost_game_ends_on_its_last_guess_and_guessed_holds_no_cell_called_safe() -> None:
    """``guessed`` (play --json's "guessed", which the end-to-end test checks the game's mine hit
    against) holds the first click and every guess, in order: on expert games, each lost one's
    exploded mine is its last guess (a build that added safe clicks to it, or left guesses out, fails)."""
    from bot.vocabulary import EXPLODED

    lost = 0
    for seed in range(5):
        game = Game(LEVELS["expert"], "safe", seed)
        result = play_game(game, get_strategy("best"), "safe", np.random.default_rng(seed))
        # the first click, then each guess
        assert result.guessed and len(result.guessed) == result.guesses + 1
        if result.state == "lost":
            lost += 1
            assert [tuple(c) for c in np.argwhere(game.view == EXPLODED)] == [result.guessed[-1]]
    assert lost >= 2


def test_mines_are_flagged_only_where_the_game_chords_or_must_be_flagged() -> None:
    """A flag costs a click that only a chord pays back: a game that takes no chords is played with
    none (unless every mine must be flagged to win), and the game ends the same, in fewer clicks."""
    placed = {}
    for chords, must in ((True, False), (False, False), (False, True)):
        game = Game(LEVELS["intermediate"], "safe", 3)
        game.chords = chords
        result = play_game(
            game, get_strategy("best"), "safe", np.random.default_rng(3), must_flag=must
        )
        placed[chords, must] = (int((game.view == FLAG).sum()), result.clicks, result.state)
    assert placed[True, False][0] > 0 and placed[False, True][0] > 0, placed
    assert placed[False, False][0] == 0 and placed[False, False][1] < placed[False, True][1], placed
    assert len({state for _, _, state in placed.values()}) == 1, placed


def test_chording_happens() -> None:
    """The test above passes as well if the bot never chords: over the same six games it must."""
    chorded = []
    for seed in range(6):
        game = Game(LEVELS["intermediate"], "safe", seed)
        game.chords = True
        chorded.append(
            play_game(game, get_strategy("best"), "safe", np.random.default_rng(seed)).chords
        )
    assert sum(c > 0 for c in chorded) >= 3, chorded


def test_a_progress_line_follows_the_game_and_is_wiped_after_it() -> None:
    import io

    from bot.play import GameProgress

    stream = io.StringIO()
    progress = GameProgress("game 1/1", every=0.0, stream=stream, terminal=True)
    seen: list[int] = []

    def both(board: Board, guesses: int) -> None:
        seen.append(int((board.cells >= 0).sum()))
        progress(board, guesses)

    game = Game(LEVELS["beginner"], "safe", 3)
    result = play_game(game, get_strategy("best"), "safe", np.random.default_rng(3), progress=both)
    assert len(seen) == result.decisions  # told of every board read
    lines = stream.getvalue().split("\r")
    # beginner: 81 cells, 10 mines
    assert "game 1/1: 0/71 cells open, 0 flags, 0 guesses" in lines[1]
    progress.clear()
    assert stream.getvalue().endswith("\r") and stream.getvalue().split("\r")[-2].strip() == ""


def test_a_benchmark_progress_line_ends_its_run_and_keeps_short_runs_quiet() -> None:
    import io

    from bot.sim.bench import Progress

    stream = io.StringIO()
    quiet = Progress("bench", every=60.0, stream=stream, terminal=True)
    quiet(1, 2, 1)
    quiet(2, 2, 1)
    assert stream.getvalue() == ""  # a run shorter than the interval says nothing
    shown = Progress("bench", every=0.0, stream=stream, terminal=True)
    shown(1, 2, 1)
    shown(2, 2, 2)
    lines = stream.getvalue().split("\r")
    assert lines[1].startswith("bench: 1/2 games, 100.0% won") and not lines[1].endswith("\n")
    assert lines[2].startswith("bench: 2/2 games, 100.0% won") and lines[2].endswith("\n")


def test_into_a_file_a_progress_line_is_only_the_last_plain() -> None:
    """Into a log, rewritten lines ran together (a game's updates on one line of \\r); now only the
    run's last line is written there, plain, and a game's line none."""
    import io

    from bot.play import GameProgress
    from bot.sim.bench import Progress

    log = io.StringIO()  # not a terminal
    bench = Progress("bench", every=0.0, stream=log)
    bench(1, 2, 1)
    bench(2, 2, 2)
    assert (
        "\r" not in log.getvalue()
        and log.getvalue().startswith("bench: 2/2 games")
        and log.getvalue().count("\n") == 1
    )
    game = GameProgress("game 1/1", every=0.0, stream=io.StringIO())
    play_game(
        Game(LEVELS["beginner"], "safe", 3),
        get_strategy("best"),
        "safe",
        np.random.default_rng(3),
        progress=game,
    )
    game.clear()
    assert game.stream.getvalue() == ""


def test_a_guess_waits_for_a_board_read_once_the_game_stood_still() -> None:
    """A live table reads the board as soon as the clicked cells show (issue 47); before a guess
    the loop asks for a reading of the still board, and decides again on it: there a cell is safe."""

    class Drawing:
        state, chords = "playing", False

        def __init__(self) -> None:
            self.opened: list[list[tuple[int, int]]] = []
            # the reading is kept until the next clicks, as a live table keeps it
            self.still = False

        def board(
            self, still: bool = False
        ) -> Board:  # the 1 at (0,1) not drawn yet, unless read still
            self.still = self.still or still
            return Board.parse("11#\n###\n###" if self.still else "1##\n###\n###", mines=2)

        def reveal_many(
            self, cells: list[tuple[int, int]], chords: object = (), guess: bool = False
        ) -> str:
            self.opened.append(cells)
            self.state = "lost"  # one move is enough to see which it was
            return self.state

        def flag(self, cell: tuple[int, int]) -> None:
            pass

    game = Drawing()
    result = play_game(game, get_strategy("best"), "safe", np.random.default_rng(0), flags=False)  # type: ignore[arg-type]
    # the 1 at (0,1) has its mine below (0,0)
    assert result.guesses == 0 and game.opened == [[(0, 2), (1, 2)]]
