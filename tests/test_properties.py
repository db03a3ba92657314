"""Property-based tests of what a user hands minebot (Hypothesis): any text as a board, any bytes
as a screenshot, any words as the command line. Each gives a result or one of minebot's own
errors, never another exception."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.board import Board
from bot.cli import main
from bot.errors import MESSAGE_CHARS, MinebotError
from bot.solver import solve
from bot.vision import load_image

CELLS = "#F?012345678*Xx"
QUICK = settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


@QUICK
@given(st.text(alphabet=CELLS + " \n\t\r\ufeffé", max_size=120), st.none() | st.integers(-3, 40))
def test_any_text_is_a_board_or_a_board_error(text: str, mines: int | None) -> None:
    try:
        board = Board.parse(text, mines=mines)
    except MinebotError as exc:
        assert len(str(exc)) <= MESSAGE_CHARS and "\n" not in str(exc)
        return
    assert Board.parse(str(board), mines=mines).cells.tolist() == board.cells.tolist()


@QUICK
@given(
    st.lists(st.text(alphabet=CELLS, min_size=4, max_size=4), min_size=1, max_size=4),
    st.none() | st.integers(0, 16),
)
def test_any_board_of_cells_is_solved_or_said_to_contradict_itself(
    rows: list[str], mines: int | None
) -> None:
    try:
        board = Board.parse("\n".join(rows), mines=mines)
        analysis = solve(board, "best", "safe", np.random.default_rng(0))
    except MinebotError as exc:
        assert len(str(exc)) <= MESSAGE_CHARS
        return
    assert not analysis.safe & analysis.mines


@QUICK
@given(st.binary(max_size=300), st.sampled_from([".png", ".jpg", ".bmp", ".txt", ""]))
def test_any_bytes_as_a_screenshot_are_refused_in_one_line(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, suffix: str
) -> None:
    path = tmp_path_factory.mktemp("shot") / f"shot{suffix}"
    path.write_bytes(data)
    try:
        load_image(path)
    except MinebotError as exc:
        assert len(str(exc)) <= MESSAGE_CHARS and "\n" not in str(exc)


WORDS = st.sampled_from(
    [
        "solve",
        "bench",
        "replay",
        "skins",
        "layouts",
        "--games",
        "--mines",
        "--level",
        "--seed",
        "--jobs",
        "--json",
        "--remove",
        "-1",
        "0",
        "1",
        "99999999",
        "expert",
        "30x16/99",
        "x",
        "--",
        "-",
        "..",
        "/",
        "--strategy",
        "all",
        "--rule",
        "none",
        "--at",
        "3,4",
    ]
)


@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,  # the same examples every run: CI asserts what it asserted here
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(words=st.lists(WORDS, max_size=5))
def test_any_command_line_gets_an_exit_code_and_no_traceback(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    words: list[str],
) -> None:
    """Within what runs in a moment: a benchmark is cut to a few games, and no command reads
    standard input."""
    if "bench" in words[:1]:
        words = [*words, "--games", "3"]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", None)
    code = main(*words)
    err = capsys.readouterr().err
    assert code in (0, 1, 2, 130), (words, code)
    assert "Traceback" not in err, (words, err)
