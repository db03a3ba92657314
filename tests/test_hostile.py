"""Hostile but ordinary inputs: what a user names, leaves on disk or does to the process never
makes minebot delete, click or report what it should not."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.cli import main
from bot.commands import find_grid_on
from bot.devices import interrupts
from bot.devices.capture import Region
from bot.errors import BoardCutOff
from bot.live.guard import ClickGuard
from bot.live.place import find_game
from bot.userdata import learnt_skins
from bot.vision import load_image
from bot.vision.pack import load_packs, templates_root
from bot.vocabulary import Cell


def _pack(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "pack.json").write_text(json.dumps({"cell": 16}))
    return folder


@pytest.mark.parametrize(
    "setting", [{"new_game": "F2"}, {"new_game": {"at": [1]}}, {"flood": 6}, {"mines": {"9": 3}}]
)
def test_a_learnt_setting_of_the_wrong_shape_leaves_the_pack_out_saying_why(
    setting: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pack.json edited by hand (a new-game way, a flood or a mine count of the wrong shape)
    is one pack left out with a line naming its file, never a traceback in the middle of a run."""
    import shutil

    shutil.copytree(templates_root() / "winemine", tmp_path / "plain")
    name = f"edited-{tmp_path.name}"  # warned once a run, by name
    folder = shutil.copytree(templates_root() / "winemine", tmp_path / name)
    meta = json.loads((folder / "pack.json").read_text())
    (folder / "pack.json").write_text(json.dumps({**meta, **setting}))
    assert [p.name for p in load_packs(root=tmp_path)] == ["plain"]
    assert f"skipped the skin pack {name!r}" in capsys.readouterr().err


@pytest.mark.parametrize("how", ["absolute", "dotdot", "nested", "dot"])
def test_skins_remove_never_deletes_outside_the_learnt_folder(
    how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`skins --remove` once took an absolute or ``../`` name and deleted any folder holding a
    pack.json (a shipped pack's too), printing "removed". Only a learnt pack's own name is taken."""
    outside = _pack(tmp_path / "elsewhere" / "victim")
    _pack(learnt_skins() / "mine")
    name = {
        "absolute": str(outside),
        "dotdot": f"../../{outside.relative_to(tmp_path)}",
        "nested": "mine/../mine",
        "dot": ".",
    }[how]
    assert main("skins", "--remove", name) == 2
    err = capsys.readouterr().err
    assert "not the name of a learnt pack" in err and "mine" in err and len(err.splitlines()) == 1
    assert (outside / "pack.json").is_file() and (learnt_skins() / "mine" / "pack.json").is_file()


def test_skins_remove_keeps_the_shipped_packs(capsys: pytest.CaptureFixture[str]) -> None:
    shipped = templates_root() / "winemine" / "pack.json"
    for name in ("winemine", str(shipped.parent), "../" * 12 + str(shipped.parent)[1:]):
        assert main("skins", "--remove", name) == 2
    assert shipped.is_file()
    assert "shipped with minebot (it stays)" in capsys.readouterr().err


@pytest.mark.skipif(sys.platform == "win32", reason="links to folders need privileges on Windows")
def test_skins_remove_of_a_linked_pack_removes_the_link_only(tmp_path: Path) -> None:
    target = _pack(tmp_path / "kept")
    learnt_skins().mkdir(parents=True)
    (learnt_skins() / "linked").symlink_to(target, target_is_directory=True)
    assert main("skins", "--remove", "linked") == 0
    assert not (learnt_skins() / "linked").exists() and (target / "pack.json").is_file()


def test_a_press_after_a_pause_is_checked_again_first() -> None:
    """Stopped with SIGTSTP between its check and its click, and resumed after the user had started
    a new game, minebot once sent a right-click meant for the old board. A press now rests on a
    check at most FRESH s old; past that, the cell is checked again before anything is sent."""
    checks: list[Cell] = []
    sent: list[int] = []
    guard = ClickGuard.__new__(ClickGuard)
    guard.halted = False
    guard.check = lambda cell: checks.append(cell) is None  # type: ignore[method-assign]

    def press() -> None:
        if len(checks) == 1:
            time.sleep(interrupts.FRESH * 1.5)  # paused between the check and the press
        with interrupts.sending():
            sent.append(len(checks))

    assert guard.press_checked((2, 3), press)
    assert checks == [(2, 3), (2, 3)] and sent == [2]


def test_a_press_that_stays_stale_is_never_sent() -> None:
    guard = ClickGuard.__new__(ClickGuard)
    guard.halted = False
    guard.check = lambda cell: True  # type: ignore[method-assign]
    sent: list[Cell] = []

    def press() -> None:
        time.sleep(interrupts.FRESH * 1.2)
        with interrupts.sending():
            sent.append((0, 0))

    assert not guard.press_checked((0, 0), press) and not sent and guard.halted


def test_a_press_with_no_check_pending_is_sent() -> None:
    """Presses no check stands behind (a new game's face, a key) are not held to a deadline."""
    with interrupts.sending():
        pass


@pytest.mark.skipif(sys.platform == "win32", reason="os.kill(SIGINT) ends the process on Windows")
def test_a_swallowed_ctrl_c_stops_the_next_press() -> None:
    """Once in some 40 tries a KeyboardInterrupt landed in a screen-capture finalizer, was
    reported "ignored", and the bot pressed on. The stop is remembered: the next press raises it."""
    previous = signal.getsignal(signal.SIGINT)
    try:
        interrupts.watch_stops()
        interrupts.stop_requested()  # nothing asked yet
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.1)
        with pytest.raises(KeyboardInterrupt):  # as though the first had been swallowed
            interrupts.stop_requested()
    finally:
        signal.signal(signal.SIGINT, previous)
        interrupts.watch_stops()  # forget it
        signal.signal(signal.SIGINT, previous)


def test_no_key_a_browser_or_desktop_takes_is_ever_guessed_for_a_new_game() -> None:
    """In a browser Ctrl+N, the last new-game try, opened a window over the game: 7 of 9 runs on
    web clones ended after a game or two. Guessed keys are the games' own only."""
    from bot.learning.restart import NEW_GAME_KEYS

    taken = {"ctrl+n", "ctrl+t", "ctrl+w", "ctrl+r", "f5", "alt+f4", "ctrl+q", "escape"}
    assert not {key.lower() for key in NEW_GAME_KEYS} & taken


class _Still:
    """A screenshot standing in for the whole screen."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.whole = Region(0, 0, image.shape[1], image.shape[0])

    def grab(self, region: Region | None = None) -> np.ndarray:
        return self.image


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize("cut", [0.1, 0.3, 0.5, 0.7, 0.9, 1.0])
@pytest.mark.parametrize("side", ["left", "right", "top", "bottom"])
def test_a_board_cut_off_by_the_screens_edge_is_refused_not_played_as_a_part(
    side: str, cut: float
) -> None:
    """A board cut off by the screen's edge was taken for a smaller board ("a 17x16 board is not
    a standard level"; given --mines 99, some 150 clicks on the part). Cut through any line of
    cells, or flush with a line's edge, it is refused in one line that says what to do."""
    image = load_image(FIXTURES / "xdemineur" / "beginner-fresh.png")
    packs = load_packs()
    _, geo, _ = find_game(_Still(image), packs, None)
    x, y, w, h = geo.region()
    px, py = geo.pitch
    edge = {
        "left": (slice(None), slice(x + round(cut * px), None)),
        "right": (slice(None), slice(None, x + w - round(cut * px))),
        "top": (slice(y + round(cut * py), None), slice(None)),
        "bottom": (slice(None, y + h - round(cut * py)), slice(None)),
    }[side]
    screen = _Still(np.ascontiguousarray(image[edge]))
    with pytest.raises(BoardCutOff, match="move the game's window so that all of its board shows"):
        find_game(screen, packs, None)
    with pytest.raises(BoardCutOff):  # the look unknown: its lattice alone
        find_grid_on(screen)  # type: ignore[arg-type]


def test_a_board_in_full_view_near_the_screens_edge_is_played() -> None:
    """Its frame between it and the edge, every fixture a pack or the lattice reads is in view."""
    image = load_image(FIXTURES / "xdemineur" / "beginner-fresh.png")
    _, geo, _ = find_game(_Still(image), load_packs(), None)
    x, y, _, _ = geo.region()
    near = _Still(np.ascontiguousarray(image[y - 12 :, x - 8 :]))
    _, moved, _ = find_game(near, load_packs(), None)
    assert (moved.cols, moved.rows) == (12, 9)
    assert (find_grid_on(near).cols, find_grid_on(near).rows) == (12, 9)  # type: ignore[arg-type]


def test_two_runs_adding_to_one_pack_at_once_lose_no_picture(tmp_path: Path) -> None:
    """Two `learn` runs into one pack both picked the same next number, and os.replace
    overwrote one's picture with the other's; both exited 0. A new picture never replaces a file."""
    import threading

    from bot.vision.writing import add_tiles

    folder = tmp_path / "pack"
    folder.mkdir()
    pictures = [np.full((8, 8, 3), n, np.uint8) for n in range(40)]
    start = threading.Barrier(2)

    def add(mine: list[np.ndarray]) -> None:
        start.wait()
        for picture in mine:
            add_tiles(folder, {"1": [picture]})

    runs = [threading.Thread(target=add, args=(pictures[k::2],)) for k in (0, 1)]
    for run in runs:
        run.start()
    for run in runs:
        run.join()
    kept = {int(cv2.imread(str(f))[0, 0, 0]) for f in folder.glob("1*.png")}
    assert kept == set(range(40)) and not list(folder.glob(".*.part"))


def test_a_pack_that_cannot_be_written_leaves_no_part_and_says_so(tmp_path: Path) -> None:
    from bot.errors import SkinPackError
    from bot.vision.writing import write_png

    with pytest.raises(SkinPackError, match="cannot write"):
        write_png(tmp_path / "no-such-folder" / "1.png", np.zeros((4, 4, 3), np.uint8))


def test_a_pack_json_that_cannot_be_read_is_skipped_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One unreadable pack.json (mode 000, for a user who is not root) made every command fail
    with a traceback, replays of shipped looks included."""
    from bot.vision import pack

    _pack(learnt_skins() / "locked")
    real = Path.read_text

    def read_text(self: Path, *args: object, **kwargs: object) -> str:
        if self.parent.name == "locked":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", read_text)
    pack._load_pack.cache_clear()
    packs = pack.load_packs()
    assert "winemine" in {p.name for p in packs} and "locked" not in {p.name for p in packs}
    err = capsys.readouterr().err
    assert "locked" in err and "skins --remove locked" in err


@pytest.mark.parametrize(
    "args,says",
    [
        (["bench", "--jobs", "1000000"], "--jobs 1000000: at most"),
        (["bench", "--games", "100000000"], "--games 100000000: at most 1,000,000"),
        (["bench", "--level", "99999x99999/10"], "at most 300 cells a side"),
    ],
)
def test_numbers_from_the_user_are_bounded_before_work_starts(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """bench --jobs 1000000 forked without limit (608 processes in 15 s); --games 100000000 took
    3.7 GB before its first game; a 99999x99999 level asked for 9.3 GiB."""
    assert main(*args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0], err


def test_a_huge_jpeg_is_refused_from_its_header_before_it_is_decoded(tmp_path: Path) -> None:
    """A 20000x20000 JPEG was decoded (2.4 GB) before being refused as too big."""
    from bot.errors import VisionError

    data = bytearray(cv2.imencode(".jpg", np.zeros((16, 16, 3), np.uint8))[1].tobytes())
    at = next(i for i in range(2, len(data) - 9) if data[i] == 0xFF and data[i + 1] == 0xC0)
    data[at + 5 : at + 9] = (20000).to_bytes(2, "big") * 2
    path = tmp_path / "huge.jpg"
    path.write_bytes(bytes(data))
    decoded: list[str] = []
    real = cv2.imread
    cv2.imread = lambda *a, **k: decoded.append("yes") or real(*a, **k)  # type: ignore[assignment]
    try:
        with pytest.raises(VisionError, match="20000x20000 px, larger than any screen"):
            load_image(path)
    finally:
        cv2.imread = real  # type: ignore[assignment]
    assert not decoded


@pytest.mark.parametrize(
    "out,says",
    [("no/such/dir/out.png", "there is no folder"), ("out.txt", "give a name ending in .png")],
)
def test_an_output_that_cannot_be_written_fails_before_the_work_not_after(
    out: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`replay --annotate /no/such/dir/out.png` and `demo --save-final ...` printed the path and
    exited 0 having written nothing; `--annotate out.txt` gave a cv2.error traceback."""
    shot = FIXTURES / "winemine" / "custom-30x16-140mines-lost.png"
    target = tmp_path / out
    for args in (
        ["replay", str(shot), "--annotate", str(target)],
        ["demo", "--game", "world:1", "--save-final", str(target)],
    ):
        assert main(*args) == 2, args
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and says in err[0], err
        assert not target.exists()


def test_a_picture_that_cannot_be_written_is_an_error_not_a_path(tmp_path: Path) -> None:
    from bot.errors import OutputError
    from bot.userdata import write_picture

    with pytest.raises(OutputError, match="cannot write"):
        write_picture(tmp_path / "x.png", np.zeros((0, 0, 3), np.uint8))


def test_a_text_board_with_a_byte_order_mark_or_no_stdin_is_read_or_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A board saved by an editor with a UTF-8 BOM was refused as "'\\ufeff' is not a cell"."""
    board = tmp_path / "bom.txt"
    board.write_bytes(b"\xef\xbb\xbf1#\n##\n")
    assert main("solve", str(board), "--mines", "1") == 0
    assert "ufeff" not in capsys.readouterr().err


@pytest.mark.skipif(sys.platform == "win32", reason="/dev/full and closed descriptors: Unix")
@pytest.mark.parametrize(
    "out,says",
    [("full", "cannot write the output (No space left on device)"), ("closed", "output is closed")],
)
def test_output_that_cannot_be_written_is_a_failure_not_a_success(
    out: str, says: str, tmp_path: Path
) -> None:
    """stdout to /dev/full gave a traceback; any command with stdout closed exited 0."""
    import subprocess

    board = tmp_path / "b.txt"
    board.write_text("1#\n##\n")
    command = [sys.executable, "-m", "bot", "solve", str(board), "--mines", "1"]
    if out == "full":
        with open("/dev/full", "w") as full:
            done = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, text=True)
    else:
        done = subprocess.run(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: os.close(1),
        )
    assert done.returncode == 1 and says in done.stderr and "Traceback" not in done.stderr


def test_a_data_folder_that_cannot_be_written_stops_learning_before_a_game_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`play --learn` played a whole game, then crashed on saving it: the learning was lost."""
    from bot.commands import PlayOptions, learn_by_playing
    from bot.errors import OutputError
    from bot.vision.grid import find_grid
    from tests.test_learn import DrawnGame

    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("MINEBOT_DATA", str(blocked))
    drawn = DrawnGame("classic98", "beginner", 3)
    with pytest.raises(OutputError, match="cannot write the look it learns into"):
        learn_by_playing(
            PlayOptions(games=1, mines=10), drawn, drawn, find_grid(drawn.grab()), None, None
        )  # type: ignore[arg-type]
    assert not drawn.clicks


def test_a_cache_folder_that_cannot_be_made_gives_way_to_one_of_the_runs_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play` would not start with a read-only cache folder."""
    from bot import userdata

    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("MINEBOT_CACHE", str(blocked / "cache"))
    monkeypatch.setattr(userdata, "_FALLBACK_CACHE", None)
    folder = userdata.cache_dir()
    assert folder.is_dir() and folder.name.startswith("minebot-cache-")
    assert "cannot use the cache folder" in capsys.readouterr().err
    assert userdata.cache_dir() == folder  # said once, kept for the run
    folder.rmdir()


def test_a_mine_count_the_board_cannot_hold_is_refused_not_ignored() -> None:
    """`--mines 0` was silently ignored (the standard level's count used instead)."""
    from bot.commands import PlayOptions, mine_count
    from bot.errors import UsageError

    for mines in (0, 81, 500):
        with pytest.raises(UsageError, match=f"--mines {mines}: a 9x9 board holds from 1 to 80"):
            mine_count(PlayOptions(mines=mines), "", 9, 9)
    assert mine_count(PlayOptions(mines=12), "", 9, 9) == 12


def test_with_json_an_error_is_a_json_line_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --json an error printed no JSON: a program reading the lines saw nothing at all."""
    board = tmp_path / "b.txt"
    board.write_text("1F\nF#\n")
    assert main("solve", str(board), "--mines", "2", "--json") == 1
    out, err = capsys.readouterr()
    said = json.loads(out.strip().splitlines()[-1])
    assert said["kind"] == "InconsistentBoard" and said["exit"] == 1
    assert said["error"] in err
