from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.commands import PlayOptions
from bot.errors import MESSAGE_CHARS


def test_bench_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main("bench", "--level", "beginner", "--games", "30", "--seed", "3", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    for key in (
        "games",
        "wins",
        "win_rate",
        "ci95",
        "ms_per_game",
        "guesses_per_game",
        "strategy",
        "level",
        "rule",
    ):
        assert key in out
    assert out["games"] == 30 and 0 <= out["wins"] <= 30
    lo, hi = out["ci95"]
    assert lo <= out["win_rate"] <= hi
    assert out["lost_on_certain"] == 0


def test_bench_is_reproducible_and_independent_of_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    main("bench", "--level", "beginner", "--games", "40", "--seed", "5", "--json", "--jobs", "1")
    one = json.loads(capsys.readouterr().out)
    main("bench", "--level", "beginner", "--games", "40", "--seed", "5", "--json", "--jobs", "2")
    two = json.loads(capsys.readouterr().out)
    assert one["wins"] == two["wins"] and one["guesses_per_game"] == two["guesses_per_game"]


def test_bench_pairs_a_run_with_one_saved_over_the_same_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--save keeps each game's result by its index (whatever --jobs); --against counts the games
    only each run won: none against itself, and as many as the win counts differ at least."""
    saved = tmp_path / "best.txt"
    assert (
        main(
            "bench",
            "--level",
            "beginner",
            "--games",
            "40",
            "--seed",
            "5",
            "--save",
            str(saved),
            "--jobs",
            "2",
        )
        == 0
    )
    capsys.readouterr()
    won = saved.read_text().splitlines()[1]
    assert len(won) == 40 and set(won) <= {"0", "1"}
    assert (
        main(
            "bench",
            "--level",
            "beginner",
            "--games",
            "40",
            "--seed",
            "5",
            "--against",
            str(saved),
            "--json",
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["paired"] == {
        "against": str(saved),
        "only_here": 0,
        "only_there": 0,
        "z": 0.0,
    }
    assert (
        main(
            "bench",
            "--level",
            "beginner",
            "--games",
            "40",
            "--seed",
            "5",
            "--strategy",
            "sps-random",
            "--against",
            str(saved),
            "--json",
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["paired"]["only_there"] - out["paired"]["only_here"] == won.count("1") - out["wins"]
    assert out["paired"]["only_there"] > 0 and out["paired"]["z"] < 0
    assert (
        main(
            "bench", "--level", "beginner", "--games", "30", "--seed", "5", "--against", str(saved)
        )
        == 2
    )
    assert "other games" in capsys.readouterr().err


def test_bench_opened_solves_positions_and_counts_those_solved_exactly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(
            "bench",
            "--opened",
            "60",
            "--games",
            "3",
            "--seed",
            "1",
            "--strategy",
            "best,hints",
            "--json",
        )
        == 0
    )
    best, hints = json.loads(capsys.readouterr().out)
    assert (best["positions"], best["exact"], best["wrong"], hints["exact"]) == (3, 3, 0, 0)
    assert best["certain_cells"] >= hints["certain_cells"] > 0
    assert main("bench", "--level", "beginner", "--opened", "80") == 2  # a usage error
    assert "--opened must be from 1 to 70" in capsys.readouterr().err


def test_bench_all_prints_one_row_per_strategy(capsys: pytest.CaptureFixture[str]) -> None:
    assert main("bench", "--level", "beginner", "--games", "10", "--strategy", "all") == 0
    out = capsys.readouterr().out
    for name in (
        "sps",
        "sps-random",
        "sps-neighbour",
        "sps-corner",
        "hints",
        "hypotheses",
        "groups",
        "best",
    ):
        assert f"\n{name} " in out


def test_bench_plays_a_layouts_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "l.txt"
    assert main("layouts", str(path), "--level", "beginner", "--games", "12") == 0
    capsys.readouterr()
    assert main("bench", "--layouts", str(path), "--json") == 0
    assert json.loads(capsys.readouterr().out)["games"] == 12


def test_solve_prints_advice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.txt"
    path.write_text("01#\n01#\n12#\n##F\n")
    assert main("solve", str(path), "--mines", "3", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["safe"] == [[1, 2], [2, 2]] and out["mines"] == [[0, 2]]


def test_errors_are_one_line_with_exit_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main("bench", "--level", "huge") == 2  # a usage error, as argparse gives
    assert "COLSxROWS/MINES" in capsys.readouterr().err
    assert main("bench", "--strategy", "magic") == 2
    assert main("frobnicate") == 2
    capsys.readouterr()
    path = tmp_path / "b.txt"
    path.write_text("1F\nF#\n")
    assert main("solve", str(path), "--mines", "2") == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "shows 1 but has 2 flags" in err


def _bad_inputs(folder: Path) -> list[tuple[list[str], int, str]]:
    """The bad-input table: arguments, exit code, what the one line says."""
    import cv2
    import numpy as np

    for n in (1, 2, 3):
        cv2.imwrite(str(folder / f"{n}px.png"), np.zeros((n, n, 3), np.uint8))
    midgame = cv2.imread(
        str(Path(__file__).parents[1] / "fixtures" / "winemine" / "expert-midgame-flags.png")
    )
    # its numbers on their sides
    cv2.imwrite(str(folder / "turned.png"), cv2.rotate(midgame, cv2.ROTATE_90_CLOCKWISE))
    (folder / "binary.board").write_bytes(bytes(range(256)))
    (folder / "a-folder").mkdir()
    f = str(folder)
    return [
        *(
            (["replay", f"{f}/{n}px.png"], 1, "too small to hold a Minesweeper board")
            for n in (1, 2, 3)
        ),
        # grey and JPEG ones read: tests/test_saved.py
        (
            ["replay", f"{f}/turned.png"],
            1,
            "no skin pack reads the 16x30 board",
        ),
        (["replay", f"{f}/missing.png"], 1, "no such file"),
        (["replay", f"{f}/binary.board"], 1, "as an image; give a PNG screenshot"),
        (["solve", f"{f}/missing.board"], 1, "No such file or directory"),
        (["solve", f"{f}/a-folder"], 1, "a folder, not a file"),  # Windows says "Permission denied"
        (["solve", f"{f}/binary.board"], 1, "not a text file"),
        (["solve", f"{f}/binary.board", "--mines", "-1"], 2, "argument --mines: -1 is less than 0"),
        (["bench", "--seed", "-1"], 2, "argument --seed: -1 is less than 0"),
        (["bench", "--games", "0"], 2, "argument --games: 0 is less than 1"),
        (["bench", "--games", "-1"], 2, "argument --games: -1 is less than 1"),
        (["bench", "--jobs", "-2"], 2, "argument --jobs: -2 is less than 0"),
        (["bench", "--games", "many"], 2, "argument --games: 'many' is not a whole number"),
        (["demo", "--games", "0"], 2, "argument --games: 0 is less than 1"),
    ]


def test_bad_input_gets_a_one_line_error_and_a_non_zero_exit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each bad input of the table: an error that says what to do, never a traceback, never a wrong
    board with exit 0 (a grayscale, turned or JPEG screenshot of a real game once replayed as a 1x4
    board of empty cells)."""
    for args, code, says in _bad_inputs(tmp_path):
        assert main(*args) == code, args
        err = capsys.readouterr().err.strip().splitlines()
        assert says in err[-1], (args, err)
        assert not any(line.startswith("Traceback") for line in err)
        # one line (argparse prints its usage before its line)
        assert code == 2 or len(err) == 1, err
        assert len(err[-1]) <= MESSAGE_CHARS, err[-1]


def test_bench_vision_prints_a_row_per_skin_and_screenshot_size(
    capsys: pytest.CaptureFixture[str],
) -> None:
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    shots = [
        fixtures / "gnome-mines" / "beginner-fresh.png",
        fixtures / "gnome-mines" / "beginner-lost-wrong-flags.png",
        fixtures / "winxp" / "expert-midgame.png",
    ]
    assert main("bench-vision", *map(str, shots), "--repeat", "1") == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:-1]]
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("gnome-mines", "1280x1024", "1"),
        ("gnome-mines", "610x460", "1"),
        ("winxp", "1280x1024", "1"),
    ]
    assert all(float(r[3]) > 0 and float(r[5]) > 0 for r in rows)


@pytest.mark.slow
def test_a_plain_pip_install_ships_the_skin_packs(tmp_path: Path) -> None:
    """`pip install .` (not editable) puts the packs inside the package: replay works from anywhere."""
    import importlib.util
    import subprocess
    import sys

    # its sys.path comes from python311._pth alone: no PYTHONPATH either
    if importlib.util.find_spec("pip") is None:
        pytest.skip(
            "this Python has no pip: the Windows tier's embeddable CPython (scripts/setup-windows)"
        )
    repo = Path(__file__).resolve().parents[1]
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            str(repo),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    shipped = {
        p.relative_to(target / "bot" / "templates")
        for p in (target / "bot" / "templates").glob("*/*.*")
    }
    assert shipped == {
        p.relative_to(repo / "templates") for p in (repo / "templates").glob("*/*.*")
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "replay",
            str(repo / "fixtures" / "winxp" / "expert-midgame.png"),
            "--json",
        ],
        cwd=tmp_path,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert (
        '"skin": "winxp"' in done.stdout
        and str(target)
        in subprocess.run(
            [sys.executable, "-c", "import bot; print(bot.__file__)"],
            cwd=tmp_path,
            env={"PYTHONPATH": str(target)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )


def test_mine_count_of_a_known_games_board_size_and_of_an_unknown_one() -> None:
    """With no --mines and no counter read: the count of the level of that size (standard, the old
    8x8 beginner, Google's three), either way round; another size asks for --mines."""

    from bot.commands import mine_count
    from bot.errors import UsageError

    options = PlayOptions()
    assert [
        mine_count(options, "", r, c)
        for r, c in ((9, 9), (16, 30), (8, 8), (8, 10), (18, 14), (20, 24))
    ] == [10, 99, 10, 10, 40, 99]
    with pytest.raises(UsageError, match="--mines"):
        mine_count(options, "", 13, 17)


def test_bench_vision_times_a_look_no_pack_reads_beside_one_a_pack_reads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A screenshot no pack reads (xbomb) gets a row of its own, "no pack", with the time the packs
    took to give up and no figure for reading with a pack; one a pack reads gets every figure."""
    root = Path(__file__).resolve().parents[1] / "fixtures"
    assert (
        main(
            "bench-vision",
            "--repeat",
            "1",
            str(root / "xbomb" / "beginner-fresh.png"),
            str(root / "winemine" / "beginner-fresh.png"),
        )
        == 0
    )
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[1:3]}
    assert (
        rows["no"][4:6] != ["nan"] * 2
        and rows["no"][6:8] == ["nan"] * 2
        and "nan" not in rows["winemine"]
    )


def test_bench_of_a_layouts_file_opens_each_game_where_its_layout_was_made_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """start=8,8 with a mine in the corner the strategy would open first: the game starts at (8,8)."""
    path = tmp_path / "one.txt"
    path.write_text(
        "game 0 rows=9 cols=9 mines=10 rule=safe start=8,8\n"
        + "*" * 9
        + "\n*"
        + "." * 8
        + "\n"
        + ("." * 9 + "\n") * 7
    )
    assert main("bench", "--layouts", str(path), "--json") == 0
    assert json.loads(capsys.readouterr().out)["wins"] == 1


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main("--version") == 0
    assert capsys.readouterr().out.startswith("minebot ")


def test_play_and_demo_get_typed_options_from_the_command_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Below the CLI the live commands take a PlayOptions, never the argparse namespace."""
    from bot import commands

    got: list[tuple[object, ...]] = []
    monkeypatch.setattr(commands, "play", lambda options: got.append((options,)) or 0)
    monkeypatch.setattr(commands, "demo", lambda *args: got.append(args) or 0)
    assert (
        main(
            "play", "--games", "3", "--no-flags", "--learn", "--mines", "40", "--new-game-key", "F2"
        )
        == 0
    )
    assert (
        main(
            "demo",
            "--game",
            "xdemineur",
            "--level",
            "beginner",
            "--games",
            "2",
            "--json",
            "--scale",
            "1.5",
        )
        == 0
    )
    assert got[0] == (PlayOptions(games=3, mines=40, flags=False, learn="", new_game_key="F2"),)
    assert got[1] == (
        "xdemineur",
        "beginner",
        PlayOptions(games=2, json=True, save_final=Path("minebot-final.png")),
        1.5,
        0,
    )


BLAS_THREADS = r"""
import ctypes
{imports}
import numpy
lib = next(line.split()[-1] for line in open("/proc/self/maps") if "openblas" in line.lower())
blas = ctypes.CDLL(lib)
names = ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_", "openblas_get_num_threads")
print(next(getattr(blas, name) for name in names if hasattr(blas, name))())
"""


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.cpu_count() == 1,
    reason="/proc/self/maps; more than one core",
)
def test_the_minebot_command_does_its_matrix_products_on_one_thread() -> None:
    """The minebot command's numpy does its matrix products on one OpenBLAS thread (bot/__init__.py):
    its own default, a thread a core, read a board in twice the time beside two busy processes. The
    same check without minebot imported first counts every core."""

    def threads(imports: str) -> int:
        done = subprocess.run(
            [sys.executable, "-c", BLAS_THREADS.format(imports=imports)],
            capture_output=True,
            text=True,
            env={k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"},
            check=True,
        )
        return int(done.stdout)

    assert threads("import bot.cli  # as the minebot command does") == 1
    assert threads("") > 1
