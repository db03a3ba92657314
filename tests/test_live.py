"""The live loop's pure parts: what counts as a contradiction, a new game, a win; the clock rule."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import Board, contradiction
from bot.commands import PlayOptions
from bot.devices.actuator import DryRunMouse
from bot.devices.capture import Region
from bot.errors import (
    BoardGone,
    ClicksIgnored,
    InconsistentBoard,
    NoBoardFound,
    ScreenError,
    UnreadableCell,
    VisionError,
)
from bot.live.place import park_point
from bot.live.table import LiveTable, _new_board, wait_for_new_second
from bot.userdata import cache_dir
from bot.vision import Geometry, load_image, load_packs, read
from bot.vision.labels import read_label
from bot.vision.pack import SkinPack, pack_named
from bot.vision.reading import board_state, find_face
from bot.vocabulary import COVERED, FLAG, MINE


def test_a_revealed_cell_that_changes_is_a_contradiction() -> None:
    before = Board.parse("1#\n##")
    assert contradiction(before, Board.parse("1F\n2#")) is None  # hidden cells may change
    assert "cell (0,0) was 1 and now reads 2" in (
        contradiction(before, Board.parse("2#\n##")) or ""
    )


def test_new_board_after_a_game() -> None:
    won = Board.parse("1F\n11")
    assert _new_board(won, Board.parse("##\n##"))  # all covered
    assert _new_board(won, Board.parse("1#\n##"))  # a game that opens an area itself
    assert not _new_board(won, won)  # still the old board
    assert not _new_board(None, Board.parse("1F\n##"))  # flags left: not a new game


def test_won_needs_every_mine_flagged_where_the_game_says_so() -> None:
    unflagged = Board.parse("1#\n11", mines=1)
    assert board_state(unflagged) == "won"
    assert board_state(unflagged, flags_to_win=True) == "playing"
    assert board_state(Board.parse("1F\n11", mines=1), flags_to_win=True) == "won"
    assert board_state(Board.parse("1*\n11", mines=1)) == "lost"


def test_each_first_click_gets_a_second_of_its_own() -> None:
    last = int(time.time())
    wait_for_new_second(last)
    assert int(time.time()) > last


class FakeScreen:
    """A still screenshot standing in for the screen."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.whole = Region(0, 0, image.shape[1], image.shape[0])

    def settled(self, region: Region, quiet: float = 0.0, done: object = None) -> np.ndarray:
        return _crop(self.image, region)

    def grab(self, region: Region) -> np.ndarray:  # what a click checks first
        return _crop(self.image, region)


def _crop(image: np.ndarray, region: Region) -> np.ndarray:
    return image[region.top : region.top + region.height, region.left : region.left + region.width]


FIXTURE = (
    Path(__file__).resolve().parents[1]
    / "fixtures"
    / "xdemineur"
    / "custom-10x12-55mines-seven.png"
)


def _table(image: np.ndarray, pack: SkinPack, geometry: Geometry) -> LiveTable:
    return LiveTable(FakeScreen(image), DryRunMouse(), pack, geometry, 55)  # type: ignore[arg-type]


def test_an_unknown_tile_is_named_as_such_and_a_moved_board_as_moved() -> None:
    image = load_image(FIXTURE)
    pack = pack_named(load_packs(["xdemineur"]), "xdemineur")
    geometry = read(image, [pack], mines=55).geometry
    assert _table(image, pack, geometry).board()[5, 7] == 7
    without_seven = replace(pack, tiles=tuple(t for t in pack.tiles if t.code != 7))
    with pytest.raises(UnreadableCell, match=r"cell \(5,7\).*matches no xdemineur tile") as unread:
        _table(image, without_seven, geometry)
    assert "the screen is saved in" in unread.value.detail
    moved = np.full_like(image, 200)
    moved[40:, 30:] = image[:-40, :-30]
    with pytest.raises(ScreenError, match="no longer where it was"):
        _table(moved, pack, geometry)


def test_mine_count_comes_from_flag_then_counter_then_level() -> None:

    from bot.commands import mine_count
    from bot.errors import UsageError

    assert mine_count(PlayOptions(mines=77), "winemine", 12, 14, counted=30) == 77  # --mines wins
    # a custom game's counter
    assert mine_count(PlayOptions(), "winemine", 12, 14, counted=30) == 30
    assert mine_count(PlayOptions(), "winxp", 16, 30) == 99  # a standard size
    with pytest.raises(UsageError, match="give its mine count with --mines"):
        mine_count(PlayOptions(), "winemine", 12, 14)
    with pytest.raises(UsageError, match="not expert"):
        mine_count(PlayOptions(level="expert"), "winemine", 9, 9)


@pytest.mark.parametrize(
    ("skin", "rows", "cols"),
    [
        ("gnome-mines", 8, 8),
        ("minegauler", 8, 8),
        ("xdemineur", 9, 12),
        ("winemine", 9, 9),
        ("classic98", 9, 9),
    ],
)
def test_level_is_checked_against_the_games_own_size(skin: str, rows: int, cols: int) -> None:
    """--level beginner is each game's own beginner (8x8, 9x12, 9x9), with or without --dry-run."""

    from bot.commands import mine_count
    from bot.errors import UsageError

    for dry_run in (False, True):
        assert mine_count(PlayOptions(level="beginner", dry_run=dry_run), skin, rows, cols) == 10
    with pytest.raises(UsageError, match="--dry-run does not switch levels"):
        mine_count(PlayOptions(level="expert", dry_run=True), skin, rows, cols)


class SlowScreen(FakeScreen):
    """Shows ``before`` for the first ``lag`` grabs, then ``after``: a game slow to draw a click."""

    def __init__(self, before: np.ndarray, after: np.ndarray, lag: int) -> None:
        super().__init__(after)
        self.before, self.lag, self.grabs = before, lag, 0

    def settled(self, region: Region, quiet: float = 0.0, done: object = None) -> np.ndarray:
        self.grabs += 1
        shown = self.before if self.grabs <= self.lag else self.image
        return _crop(shown, region)


def _covered(
    image: np.ndarray, geometry: Geometry, cell: tuple[int, int], covered: tuple[int, int]
) -> np.ndarray:
    """A copy of the screenshot with ``cell`` drawn as the covered cell ``covered``: before a click."""
    before = image.copy()
    x, y, w, h = geometry.box(*cell)
    cx, cy, _, _ = geometry.box(*covered)
    before[y : y + h, x : x + w] = image[cy : cy + h, cx : cx + w]
    return before


def test_a_click_the_game_has_not_drawn_yet_is_waited_for() -> None:
    path = (
        Path(__file__).resolve().parents[1]
        / "fixtures"
        / "xdemineur"
        / "expert-flags-question-mark.png"
    )
    flagged = load_image(path)  # (0,0) is flagged
    pack = pack_named(load_packs(["xdemineur"]), "xdemineur")
    geometry = read(flagged, [pack], mines=99).geometry
    unflagged = _covered(flagged, geometry, (0, 0), (5, 5))  # (5,5) is covered
    screen = SlowScreen(unflagged, flagged, lag=3)
    table = LiveTable(screen, DryRunMouse(), pack, geometry, 99)  # type: ignore[arg-type]
    assert table.board()[0, 0] == COVERED
    table.flag((0, 0))
    assert table.board()[0, 0] == FLAG  # read again until the flag showed, not clicked twice
    assert screen.grabs == 4


def test_a_chord_is_clicked_with_the_packs_button_and_a_game_that_ignores_clicks_stops_the_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("bot.live.table.SLOW_GAME", 0.3)  # a click is waited for that long here
    image = load_image(FIXTURE)
    pack = pack_named(load_packs(["xdemineur"]), "xdemineur")
    geometry = read(image, [pack], mines=55).geometry
    mouse = DryRunMouse()
    table = LiveTable(FakeScreen(image), mouse, pack, geometry, 55)  # type: ignore[arg-type]
    board = table.board()
    number = next(
        cell
        for cell in board
        if board[cell] > 0 and COVERED in [board[n] for n in board.neighbours(cell)]
    )
    # it never changes
    with pytest.raises(ScreenError, match="covered 0.6 s later: the game ignores the clicks"):
        table.reveal_many([], [number])
    # clicked once more
    assert [button for _, _, button in mouse.clicks] == [pack.chord] * 2 == ["middle"] * 2


class ClickScreen(FakeScreen):
    """Shows ``before`` until the mouse has clicked ``clicks`` times, then ``after``."""

    def __init__(
        self, before: np.ndarray, after: np.ndarray, mouse: DryRunMouse, clicks: int
    ) -> None:
        super().__init__(before)
        self.before, self.after, self.mouse, self.clicks = before, after, mouse, clicks

    def settled(self, region: Region, quiet: float = 0.0, done: object = None) -> np.ndarray:
        return self.grab(region)

    def grab(self, region: Region) -> np.ndarray:
        self.image = self.after if len(self.mouse.clicks) >= self.clicks else self.before
        return super().grab(region)


def test_a_lost_left_click_is_clicked_once_more(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.live.table.SLOW_GAME", 0.3)  # a click is waited for that long here
    opened = load_image(FIXTURE)
    pack = pack_named(load_packs(["xdemineur"]), "xdemineur")
    reading = read(opened, [pack], mines=55)
    geometry, board = reading.geometry, reading.board
    number, covered = (next(cell for cell in board if board[cell] == kind) for kind in (7, COVERED))
    closed = _covered(opened, geometry, number, covered)  # the seven still covered: no click yet
    mouse = DryRunMouse()
    screen = ClickScreen(closed, opened, mouse, clicks=2)  # the first click is lost
    table = LiveTable(screen, mouse, pack, geometry, 55)  # type: ignore[arg-type]
    assert table.board()[number] == COVERED
    table.reveal_many([number])
    assert table.board()[number] == 7
    assert [button for _, _, button in mouse.clicks] == ["left", "left"]


def test_the_table_says_where_a_games_time_went(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """play --json's "ms" and --profile: the waits, readings, guard checks and clicks of the table,
    each timed where it happens, and the rest of the game's time as "other"."""
    from bot.commands import print_profile
    from bot.play import GameResult

    monkeypatch.setattr("bot.live.table.SLOW_GAME", 0.3)
    opened = load_image(FIXTURE)
    pack = pack_named(load_packs(["xdemineur"]), "xdemineur")
    reading = read(opened, [pack], mines=55)
    number, covered = (
        next(cell for cell in reading.board if reading.board[cell] == kind) for kind in (7, COVERED)
    )
    mouse = DryRunMouse()
    table = LiveTable(
        ClickScreen(_covered(opened, reading.geometry, number, covered), opened, mouse, clicks=1),
        mouse,
        pack,
        reading.geometry,
        55,
    )  # type: ignore[arg-type]
    table.reveal_many([number])
    assert all(table.spent.seconds[part] > 0 for part in ("wait", "read", "guard", "click")), (
        table.spent.seconds
    )
    assert table.spent.seconds["solve"] == 0  # the play loop's part
    spent = table.spent.of(10.0)
    assert sum(spent.values()) == pytest.approx(10_000, abs=0.5)
    print_profile([GameResult("won", 0, 2, 10.0, clicks=4)], [spent], sys.stdout)
    line = capsys.readouterr().out
    assert (
        line.startswith("time per game, 1 won games (median of each part, ms): wait ")
        and "; 2 readings and 4 clicks a game, 2500.0 ms a click" in line
    )


def test_a_new_game_with_no_face_found_and_no_key_says_how_to_go_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A web page in a shipped pack's look whose face is not the pack's (sprites98-web with classic98's
    tiles): the run stopped saying the pack "has no face to click", which it has; now it says the
    game shows none, and how to go on."""
    monkeypatch.setattr("bot.live.table.click_face", lambda *args: False)
    image = load_image(FIXTURE)
    pack = pack_named(load_packs(["xdemineur"]), "xdemineur")
    mouse = DryRunMouse()
    table = LiveTable(FakeScreen(image), mouse, pack, read(image, [pack], mines=55).geometry, 55)  # type: ignore[arg-type]
    with pytest.raises(
        ScreenError,
        match=r"shows no face of its pack's to click for a new game: .*--new-game-key KEY",
    ):
        table.new_game(None)
    assert mouse.clicks == []


def test_a_board_moved_in_the_middle_of_a_batch_gets_no_further_click() -> None:
    """A window moved one cell to the right after the first click of a batch: every later click would
    land one cell off, on a cell nobody called safe. The click checks the board first and stops."""
    image = load_image(FIXTURE)
    pack = pack_named(load_packs(["xdemineur"]), "xdemineur")
    reading = read(image, [pack], mines=55)
    covered = [cell for cell in reading.board if reading.board[cell] == COVERED]
    step = round(reading.geometry.pitch[0])
    moved = np.full_like(image, 90)
    moved[:, step:] = image[:, :-step]
    mouse = DryRunMouse()
    table = LiveTable(ClickScreen(image, moved, mouse, clicks=1), mouse, pack, reading.geometry, 55)  # type: ignore[arg-type]
    with pytest.raises(ScreenError, match=r"no longer where it was.*the game window moved"):
        table.reveal_many(covered[:3])
    # the next grab saw it moved: no more clicks, and the reading says why
    assert len(mouse.clicks) == 1


def test_a_cell_the_batch_already_opened_is_not_clicked() -> None:
    opened = load_image(FIXTURE)
    pack = pack_named(load_packs(["xdemineur"]), "xdemineur")
    reading = read(opened, [pack], mines=55)
    geometry, board = reading.geometry, reading.board
    covered = next(cell for cell in board if board[cell] == COVERED)
    seven = next(cell for cell in board if board[cell] == 7)
    one = next(
        cell
        for cell in board
        if cell != seven
        and 0 < board[cell] < 9
        and 0 not in [board[n] for n in board.neighbours(cell)]
    )
    closed = _covered(_covered(opened, geometry, seven, covered), geometry, one, covered)
    mouse = DryRunMouse()
    table = LiveTable(ClickScreen(closed, opened, mouse, clicks=1), mouse, pack, geometry, 55)  # type: ignore[arg-type]
    assert table.board()[seven] == table.board()[one] == COVERED
    table.reveal_many([one, seven])  # the first click opened both
    assert [(round(x), round(y)) for x, y, _ in mouse.clicks] == [
        tuple(round(v) for v in geometry.centre(one))
    ]
    assert table.board()[seven] == 7 and table.board()[one] == board[one]


@pytest.mark.parametrize(
    "fixture,skin,mines",
    [
        ("gnome-mines/beginner-lost-window-620x460", "gnome-mines", 10),
        ("winemine/expert-fresh", "winemine", 99),
    ],
)
def test_the_pointer_waits_off_the_cells_but_beside_the_board(
    fixture: str, skin: str, mines: int
) -> None:
    image = load_image(Path(__file__).resolve().parents[1] / "fixtures" / f"{fixture}.png")
    geometry = read(image, [pack_named(load_packs([skin]), skin)], mines=mines).geometry
    screen = FakeScreen(image)
    x, y = park_point(geometry, screen)  # type: ignore[arg-type]
    x0, y0, w, h = geometry.region()
    assert (
        x0 + w < x < x0 + w + geometry.pitch[0] / 2 and y0 + h < y < y0 + h + geometry.pitch[1] / 2
    )
    cropped = FakeScreen(image[: int(y), : int(x)])  # the board in the screen's bottom-right corner
    assert park_point(geometry, cropped) == (geometry.origin[0] - 4, geometry.origin[1] - 4)  # type: ignore[arg-type]


def test_a_level_switch_never_throws_away_a_game_in_progress() -> None:
    from bot.errors import UsageError
    from bot.live.levels import switch_level

    path = (
        Path(__file__).resolve().parents[1]
        / "fixtures"
        / "gnome-mines"
        / "beginner-flag-question-mark.png"
    )
    image = load_image(path)
    pack = pack_named(load_packs(["gnome-mines"]), "gnome-mines")
    reading = read(image, [pack], mines=10)
    mouse = DryRunMouse()
    screen = FakeScreen(image)
    assert switch_level(screen, pack, reading.geometry, reading, mouse, "beginner")[2] is reading  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="8x8 game is in progress"):
        switch_level(screen, pack, reading.geometry, reading, mouse, "expert")  # type: ignore[arg-type]
    assert mouse.clicks == [] and mouse.keys == []


def test_a_cell_pressed_for_a_moment_is_read_again_not_taken_for_empty() -> None:
    """A covered cell held under the button looks like an empty one (0) in many games; the issue saw
    one read as 0 and a game lost beside it. A 0 beside a covered cell is a reading no game shows:
    the live loop reads again, and stops without clicking if it lasts."""

    truth = read_label(FIXTURE.with_suffix(".board")).board
    image = load_image(FIXTURE)
    pack = pack_named(load_packs(["xdemineur"]), "xdemineur")
    geometry = read(image, [pack], mines=55).geometry
    zero = tuple(int(v) for v in np.argwhere(truth.cells == 0)[0])
    covered = np.isin(truth.cells, (-1,))
    inner = [
        tuple(int(v) for v in c)
        for c in np.argwhere(covered)
        if covered[max(c[0] - 1, 0) : c[0] + 2, max(c[1] - 1, 0) : c[1] + 2].all()
    ]
    pressed = _covered(image, geometry, inner[0], zero)  # the covered cell drawn as the empty one
    table = LiveTable(SlowScreen(pressed, image, lag=1), DryRunMouse(), pack, geometry, 55)  # type: ignore[arg-type]
    assert table.board() == Board(truth.cells, 55)
    with pytest.raises(VisionError, match=r"read 3 times contradicts itself") as stop:
        LiveTable(SlowScreen(pressed, image, lag=10), DryRunMouse(), pack, geometry, 55)  # type: ignore[arg-type]
    assert "empty (0) beside a covered cell" in stop.value.detail


def test_with_every_pack_hidden_play_goes_to_learning(monkeypatch: pytest.MonkeyPatch) -> None:
    """MINEBOT_HIDE_SKINS hiding every pack leaves none to try: play finds the board by its lattice
    and goes to learning (which a dry run refuses, as it needs clicks) rather than failing on packs."""

    from bot.commands import play
    from bot.errors import UsageError
    from bot.vision.pack import skin_names

    monkeypatch.setenv("MINEBOT_HIDE_SKINS", ",".join(skin_names()))

    class Whole(FakeScreen):
        def grab(self, region: Region | None = None) -> np.ndarray:
            return self.image

    options = PlayOptions(dry_run=True)
    with pytest.raises(UsageError, match="learning a look needs clicks"):
        play(options, screen=Whole(load_image(FIXTURE)))  # type: ignore[arg-type]


def test_a_dry_run_with_json_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    """`play --dry-run --json` printed plain text; now one JSON object: the board and the advice, as replay's."""
    import json

    from bot.commands import play

    class Whole(FakeScreen):
        def grab(self, region: Region | None = None) -> np.ndarray:
            return self.image

    options = PlayOptions(skin="xdemineur", mines=55, dry_run=True, json=True)
    assert play(options, screen=Whole(load_image(FIXTURE))) == 0  # type: ignore[arg-type]
    out = json.loads(capsys.readouterr().out)
    assert (
        out["skin"] == "xdemineur"
        and len(out["board"]) == 10
        and out["move"] is not None
        and "safe" in out
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 only")
def test_no_xauthority_file_is_no_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """On an X server with no Xauthority file (a bare Xvfb), python-xlib dies at import; minebot
    points it at a file of this user's cache with an entry no server asks for, and leaves an
    existing file alone."""
    from bot.devices.windowing import NO_COOKIE, x_authority

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XAUTHORITY", raising=False)
    x_authority()
    made = Path(os.environ["XAUTHORITY"])
    assert made.read_bytes() == NO_COOKIE and made.parent == cache_dir()
    own = tmp_path / "own.Xauthority"
    own.write_bytes(b"x")
    monkeypatch.setenv("XAUTHORITY", str(own))
    x_authority()
    assert os.environ["XAUTHORITY"] == str(own)


@pytest.mark.parametrize("case", ["safe", "guess", "guess-lost", "ignored", "mid-batch"])
def test_a_dialog_over_the_board_after_the_last_safe_cells_is_a_win(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game draws its end over the board (a best-times dialog, "Congratulations") once the
    last safe cells are opened: the board cannot be read, and the game is reported won, not as an
    error. After a guess, only where the cells still in sight show no mine (a lost game shows its
    mines: the same screen with one of them showing a mine is an error); and a game that never
    draws the last clicks has not been won. Drawn after the first click of a batch of two (as when
    that click's area opened the other), the second click is held back, and the game is won."""
    monkeypatch.setattr("bot.live.table.SLOW_GAME", 0.3)
    won = load_image(
        Path(__file__).resolve().parents[1] / "fixtures" / "winemine" / "beginner-won.png"
    )
    pack = pack_named(load_packs(["winemine"]), "winemine")
    reading = read(won, [pack], mines=10)
    geometry, board = reading.geometry, reading.board
    fresh = load_image(
        Path(__file__).resolve().parents[1] / "fixtures" / "winemine" / "beginner-fresh.png"
    )
    last = next(
        cell
        for cell in board
        if board[cell] > 0 and 0 not in [board[n] for n in board.neighbours(cell)]
    )
    before = won.copy()  # one safe cell still to open: its picture from the fresh board, same place
    bx, by, bw, bh = geometry.box(*last)
    before[by : by + bh, bx : bx + bw] = fresh[by : by + bh, bx : bx + bw]
    other = next(
        cell
        for cell in board
        if cell != last and board[cell] > 0 and 0 not in [board[n] for n in board.neighbours(cell)]
    )
    if case == "mid-batch":  # a second safe cell still to open
        ox, oy, ow, oh = geometry.box(*other)
        before[oy : oy + oh, ox : ox + ow] = fresh[oy : oy + oh, ox : ox + ow]
    # the face and counter of a game in play
    before[: geometry.region()[1]] = fresh[: geometry.region()[1]]
    dialog = won.copy()
    x, y, w, h = geometry.region()
    # a dialog across the board
    dialog[y + h // 4 : y + 3 * h // 4, x - 20 : x + w + 20] = (
        212,
        208,
        200,
    )
    if case == "guess-lost":  # a mine in sight, in the winemine pack's own picture of one
        mx, my, mw, mh = geometry.box(geometry.rows - 1, 0)
        dialog[my : my + mh, mx : mx + mw] = next(t.image for t in pack.tiles if t.code == MINE)
    mouse = DryRunMouse()
    after = before if case == "ignored" else dialog
    table = LiveTable(ClickScreen(before, after, mouse, clicks=1), mouse, pack, geometry, 10)  # type: ignore[arg-type]
    assert table.board()[last] == COVERED
    if case == "guess":
        assert table.reveal_many([last], guess=True) == "won"
    elif case == "guess-lost":
        with pytest.raises((ScreenError, VisionError)):
            table.reveal_many([last], guess=True)
    elif case == "ignored":
        with pytest.raises(ClicksIgnored):
            table.reveal_many([last])
    elif case == "mid-batch":
        assert table.reveal_many([last, other]) == "won" and len(mouse.clicks) == 1
    else:
        assert table.reveal_many([last]) == "won" and table.state == "won"


def test_a_misread_number_that_only_the_whole_board_refutes_gets_no_click() -> None:
    """A number drawn one off (as a mislabelled tile picture would read it) that each number alone
    accepts: the reading is refused by the whole-board check, three times, and nothing is clicked."""
    from bot.solver import check_layout
    from bot.solver.rules import check_numbers

    image = load_image(FIXTURE)
    pack = pack_named(load_packs(["xdemineur"]), "xdemineur")
    reading = read(image, [pack], mines=55)
    geometry, board = reading.geometry, reading.board
    tiles = {int(t.code): t.image for t in pack.tiles}
    for cell in board:
        if not 0 < board[cell] < 8 or board[cell] + 1 not in tiles:
            continue
        cells = board.cells.copy()
        cells[cell] += 1
        misread = Board(cells, board.mines)
        try:
            check_numbers(misread)
        except InconsistentBoard:
            continue
        try:
            check_layout(misread)
        except InconsistentBoard:
            break
    else:
        pytest.fail("no number of the fixture can be misread that way")
    drawn = image.copy()
    x, y, w, h = geometry.box(*cell)
    drawn[y : y + h, x : x + w] = tiles[board[cell] + 1][:h, :w]
    mouse = DryRunMouse()
    with pytest.raises(VisionError, match="read 3 times contradicts itself") as stop:
        LiveTable(FakeScreen(drawn), mouse, pack, geometry, 55)  # type: ignore[arg-type]
    assert "re-read the board" in stop.value.detail
    assert mouse.clicks == []


def test_a_game_that_fails_to_start_has_all_it_printed_kept(tmp_path: Path) -> None:
    """The error quotes the end of what the game printed and says where the whole of it is kept
    (the user's cache folder: the game's own folder is removed with the run)."""
    from bot.games.x11 import tail as _tail

    log = tmp_path / "kmines.log"
    log.write_text("first line of many\n" + "x" * 2000 + "\nthe cause, at the end\n")
    said = _tail(log)
    assert "the cause, at the end" in said and "first line" not in said
    kept = Path(said.rsplit("all it printed: ", 1)[1].rstrip(")"))
    assert kept.parent == cache_dir() and kept.read_text() == log.read_text()
    (tmp_path / "quiet.log").write_text("")
    assert _tail(tmp_path / "quiet.log") == "; it printed nothing"


@pytest.mark.parametrize("then", ["opened", "closed"])
def test_a_pack_that_read_only_a_new_board_hands_the_game_to_the_learner(
    monkeypatch: pytest.MonkeyPatch, then: str
) -> None:
    """winxp's covered tile is classic98's: with classic98's pack hidden, winxp reads classic98's
    new expert board (every cell covered) but not the board once opened. play then learns the look
    on in the game in play (no new game), from the board on the lattice and the new board it kept.
    A board that is gone after the click (the window closed) is no look to learn: play stops."""

    import bot.commands.playing as commands

    shots = FIXTURE.parents[1] / "classic98"
    fresh = load_image(shots / "expert-fresh.png")
    after = load_image(shots / "expert-midgame.png") if then == "opened" else np.zeros_like(fresh)
    monkeypatch.setenv("MINEBOT_HIDE_SKINS", "classic98")
    mouse = DryRunMouse()
    monkeypatch.setattr(commands, "LiveMouse", lambda ratio: mouse)
    monkeypatch.setattr(commands, "mouse_ratio", lambda screen: 1.0)
    learnt: list[tuple[Geometry, np.ndarray | None]] = []
    monkeypatch.setattr(
        commands,
        "learn_by_playing",
        lambda ns, screen, mouse, grid, name, key, fresh=None: learnt.append((grid, fresh)) or 0,
    )

    class Game(ClickScreen):
        def grab(self, region: Region | None = None) -> np.ndarray:
            return super().grab(region or self.whole)

    options = PlayOptions()
    screen = Game(fresh, after, mouse, clicks=1)
    if then == "closed":
        with pytest.raises(ScreenError, match="no longer where it was"):
            commands.play(options, screen=screen)  # type: ignore[arg-type]
        assert not learnt
        return
    assert commands.play(options, screen=screen) == 0  # type: ignore[arg-type]
    assert len(mouse.clicks) == 1  # the first click, by winxp's pack
    ((grid, kept),) = learnt
    truth = read_label(shots / "expert-midgame.board")
    assert (
        (grid.rows, grid.cols) == (truth.rows, truth.cols)
        and kept is not None
        and np.array_equal(kept, fresh)
    )


@pytest.mark.parametrize("learnt", [True, False])
def test_a_board_a_learnt_pack_finds_but_cannot_read_is_learnt_on_into_that_pack(
    monkeypatch: pytest.MonkeyPatch, learnt: bool
) -> None:
    """kmines draws its cells to fit its window: a pack learnt at beginner (29 px cells) finds the
    expert board (16 px) but reads a cell as no tile. play then learns on under that pack's name
    (its pictures of the new size go to NAME-16px). A shipped pack's unreadable cell (the pointer
    over it, say) stays the error it is."""

    import bot.commands.playing as commands
    from bot.errors import UnreadableCell

    pack = replace(
        pack_named(load_packs(["winemine"]), "winemine"), name="learnt-here", learnt=learnt
    )
    monkeypatch.setattr(commands, "load_packs", lambda names=None: [pack])
    monkeypatch.setattr(commands, "skin_names", lambda: ["learnt-here"])

    def unread(screen: object, packs: object, mines: object) -> None:
        raise UnreadableCell("cell (0,0) matches no tile of skin 'learnt-here'", "learnt-here")

    monkeypatch.setattr(commands, "find_game", unread)
    grid = Geometry("", 16, 30, (10.0, 20.0), (16.0, 16.0), 16.0, 1.0)
    monkeypatch.setattr(commands, "find_grid_on", lambda screen: grid)
    monkeypatch.setattr(commands, "lattice_on", lambda screen: grid)  # the pointer's look
    learnt_as: list[tuple[Geometry, str | None]] = []
    monkeypatch.setattr(
        commands,
        "learn_by_playing",
        lambda ns, screen, mouse, geo, name, key, **_: learnt_as.append((geo, name)) or 0,
    )
    monkeypatch.setattr(commands, "LiveMouse", lambda ratio: DryRunMouse())
    monkeypatch.setattr(commands, "mouse_ratio", lambda screen: 1.0)
    options = PlayOptions()
    if not learnt:
        with pytest.raises(UnreadableCell):
            commands.play(options, screen=FakeScreen(np.zeros((100, 100, 3), np.uint8)))  # type: ignore[arg-type]
        assert not learnt_as
        return
    assert commands.play(options, screen=FakeScreen(np.zeros((100, 100, 3), np.uint8))) == 0  # type: ignore[arg-type]
    assert learnt_as == [(grid, "learnt-here")]


def test_the_pointer_is_parked_off_the_board_before_the_first_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """gnome-mines lights up the covered cell under the pointer in a grey near its empty cell's: a pack
    it learnt read that cell as a 0 beside covered cells, a board no game shows, and the next run
    learnt the look from nothing again. Before its first reading, play parks a pointer it finds on
    the board where every reading parks it, off every cell."""

    import bot.commands.playing as commands

    shot = FIXTURE.parents[1] / "gnome-mines" / "expert-fresh-hover-window-1150x640"
    events: list[tuple[str, object]] = []

    class Pointer(DryRunMouse):
        def park_if_within(
            self, region: tuple[float, float, float, float], x: float, y: float
        ) -> bool:
            events.append(("parked", (region, (x, y))))
            return True

    def find_game(screen: object, packs: object, mines: object) -> None:
        events.append(("read", None))
        raise NoBoardFound("no pack here")

    monkeypatch.setattr(commands, "LiveMouse", lambda ratio: Pointer())
    monkeypatch.setattr(commands, "mouse_ratio", lambda screen: 1.0)
    monkeypatch.setattr(commands, "HOVER_GONE", 0.0)
    monkeypatch.setattr(commands, "find_game", find_game)
    monkeypatch.setattr(commands, "learn_by_playing", lambda *args, **kwargs: 0)
    options = PlayOptions()

    class Screen(FakeScreen):
        def grab(self, region: Region | None = None) -> np.ndarray:
            return super().grab(region or self.whole)

    assert commands.play(options, screen=Screen(load_image(shot.with_suffix(".png")))) == 0  # type: ignore[arg-type]
    assert [what for what, _ in events] == ["parked", "read"]
    (left, top, width, height), (x, y) = events[0][1]  # type: ignore[misc]
    truth = read_label(shot.with_suffix(".board"))
    assert (
        left <= truth.origin[0]
        and left + width >= truth.origin[0] + (truth.cols - 1) * truth.pitch[0] + truth.cell_px
    )
    assert (
        top <= truth.origin[1]
        and top + height >= truth.origin[1] + (truth.rows - 1) * truth.pitch[1] + truth.cell_px
    )
    assert not (left <= x < left + width and top <= y < top + height)


@pytest.mark.parametrize("case", ["won", "first-won", "guess-lost", "playing", "window"])
def test_a_panel_over_the_whole_board_ends_the_game_as_its_face_says_and_a_window_over_it_stops_the_bot(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game that draws its end over the whole board at once (a web game's "You win!" panel,
    over98-web) ends as its face, in the pack's pictures, says: won after a click on a cell called
    safe or a first click, lost after a guess. A face still playing, or a window of the user's over the
    board and round it (the face hidden), is no end: the bot stops (the Windows fault tests under Wine,
    2026-11-29, met a covered and a killed window that left the screen round the board as it was)."""
    monkeypatch.setattr("bot.live.table.SLOW_GAME", 0.3)
    shots = FIXTURE.parents[1] / "winemine"
    fresh = load_image(shots / "beginner-fresh.png")
    pack = pack_named(load_packs(["winemine"]), "winemine")
    geometry = read(fresh, [pack], mines=10).geometry
    before, cell = fresh.copy(), (4, 4)
    # a game in play: a won board with two safe cells covered again, the face of a game on
    if case != "first-won":
        won = load_image(shots / "beginner-won.png")
        board = read(won, [pack], mines=10).board
        two = [
            c for c in board if board[c] > 0 and 0 not in [board[n] for n in board.neighbours(c)]
        ][:2]
        before = won.copy()
        for r, c in two:
            bx, by, bw, bh = geometry.box(r, c)
            before[by : by + bh, bx : bx + bw] = fresh[by : by + bh, bx : bx + bw]
        before[: geometry.region()[1]] = fresh[: geometry.region()[1]]
        cell = two[0]
    panel = before.copy()
    x, y, w, h = geometry.region()
    panel[y : y + h, x : x + w] = (60, 120, 70)
    found = find_face(before, geometry, pack)
    assert found is not None
    fx, fy, fw, fh = found[1]
    # the pack's own face of the end where the game's face is
    if case in (
        "won",
        "first-won",
        "guess-lost",
    ):
        panel[fy : fy + fh, fx : fx + fw] = cv2.resize(
            pack.faces["lost" if case == "guess-lost" else "won"][0], (fw, fh)
        )
    if case == "window":
        panel[max(y - 60, 0) : y + h + 30, max(x - 30, 0) : x + w + 30] = (240, 240, 240)
    mouse = DryRunMouse()
    table = LiveTable(ClickScreen(before, panel, mouse, clicks=1), mouse, pack, geometry, 10)  # type: ignore[arg-type]
    if case in ("playing", "window"):
        with pytest.raises(ScreenError):
            table.reveal_many([cell], guess=True)
        return
    assert table.reveal_many([cell], guess=case == "guess-lost") == (
        "lost" if case == "guess-lost" else "won"
    )


def test_a_game_won_under_a_dialog_is_won(monkeypatch: pytest.MonkeyPatch) -> None:
    """winemine asks for a name over the board when a win beats its best time. A first click that
    opened the whole beginner board showed that dialog at once (real winemine under Wine: the grab of
    the screen around the board, pasted where it was taken into a real new board's screen): the
    cells still shown below it show no mine and no covered cell, so the game is won, and the next
    game starts with Return (its OK) before the face."""
    monkeypatch.setattr("bot.live.table.SLOW_GAME", 0.3)
    shots = FIXTURE.parents[1] / "winemine"
    fresh = load_image(shots / "beginner-fresh.png")
    won = fresh.copy()
    grab = load_image(
        shots / "end-dialogs" / "beginner-won-first-click-name-dialog-grab-at-89-40.png"
    )
    won[40 : 40 + grab.shape[0], 89 : 89 + grab.shape[1]] = grab
    pack = pack_named(load_packs(["winemine"]), "winemine")
    reading = read(fresh, [pack], mines=10)
    mouse = DryRunMouse()
    table = LiveTable(ClickScreen(fresh, won, mouse, clicks=1), mouse, pack, reading.geometry, 10)  # type: ignore[arg-type]
    assert table.reveal_many([(0, 0)], guess=True) == "won"
    with pytest.raises(ScreenError):  # the dialog stays on this still screen: no board to start
        table.new_game("F2")
    # a name, then the best times: Return for each, three at most
    assert mouse.keys[:3] == ["Return"] * 3


def test_a_dialog_that_shows_only_after_the_win_was_read_is_answered_before_the_next_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """winemine under load (CI, 2026-11-29): the win was read from the board (its face, every mine
    flagged), then the name dialog came over the board, and the next game's reading stopped the bot
    ("the board is no longer where it was"). A won game's board gone at the next game is answered
    with Return once, as a dialog drawn at the end is, and the next game starts; a board gone after a
    game not won still stops the bot (a window of the user's over it gets no key)."""
    monkeypatch.setattr("bot.live.table.SLOW_GAME", 0.3)
    shots = FIXTURE.parents[1] / "winemine"
    fresh, won = load_image(shots / "beginner-fresh.png"), load_image(shots / "beginner-won.png")
    pack = pack_named(load_packs(["winemine"]), "winemine")
    reading = read(won, [pack], mines=10)
    geometry, board = reading.geometry, reading.board
    cell = next(
        c for c in board if board[c] > 0 and 0 not in [board[n] for n in board.neighbours(c)]
    )
    before = won.copy()
    bx, by, bw, bh = geometry.box(*cell)
    before[by : by + bh, bx : bx + bw] = fresh[by : by + bh, bx : bx + bw]
    before[: geometry.region()[1]] = fresh[: geometry.region()[1]]  # the face of a game in play
    dialog = won.copy()
    grab = load_image(
        shots / "end-dialogs" / "beginner-won-first-click-name-dialog-grab-at-89-40.png"
    )
    dialog[40 : 40 + grab.shape[0], 89 : 89 + grab.shape[1]] = grab

    class DialogLate(FakeScreen):
        """``before`` until the click; then the won board while it is read, the dialog once it was
        (``late``) until Return, then the won board until the face is clicked: a fresh one."""

        late = False

        def settled(self, region: Region, quiet: float = 0.0, done: object = None) -> np.ndarray:
            return self.grab(region)

        def grab(self, region: Region) -> np.ndarray:
            clicks, keys = len(mouse.clicks), len(mouse.keys)
            self.image = (
                before
                if clicks == 0
                else fresh
                if keys and clicks >= 3
                else won
                if keys or not self.late
                else dialog
            )
            return super().grab(region)

    for end in ("won", "lost"):
        mouse = DryRunMouse()
        screen = DialogLate(before)
        table = LiveTable(screen, mouse, pack, geometry, 10)  # type: ignore[arg-type]
        table.board()
        assert table.reveal_many([cell]) == "won"
        screen.late, table.state = True, end
        if end == "lost":
            with pytest.raises(BoardGone):
                table.new_game("F2")
            assert mouse.keys == []
            continue
        table.new_game("F2")
        # the cell, the face under the dialog, the face
        assert mouse.keys == ["Return"] and len(mouse.clicks) == 3
        assert table.board().is_fresh()


def test_where_a_watch_tells_key_presses_since_it_last_asked_the_bots_own_keys_do_not_stop_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Windows and macOS have no listener here: a watch tells whether a key was pressed since it
    last asked (GetAsyncKeyState's low bit; the system's count of key presses). The bot's own key
    (F2 for a new game) is such a press too: it must not stop the bot at its next click, while a
    key the user taps between two clicks must."""
    import types

    import bot.devices.actuator as actuator
    from bot.errors import ScreenError

    system = {"presses": 0, "at": (0, 0)}

    def hotkey(*keys: str) -> None:
        system["presses"] += len(keys)

    def click(x: int, y: int, button: str = "left") -> None:
        system["at"] = (x, y)

    gui = types.SimpleNamespace(
        PAUSE=0.1,
        FAILSAFE=True,
        KEYBOARD_KEYS=["f2"],
        hotkey=hotkey,
        click=click,
        position=lambda: system["at"],
    )
    asked = [0]

    def pressed() -> bool:
        new, asked[0] = system["presses"] != asked[0], system["presses"]
        return new

    monkeypatch.setattr(actuator, "pyautogui", lambda: gui)
    monkeypatch.setattr(actuator, "_press_count", lambda: None)
    monkeypatch.setattr(actuator, "_key_watch", lambda: pressed)
    # the drawn system's pyautogui sends the input
    monkeypatch.setattr(actuator, "_sender", lambda: None)
    monkeypatch.setattr(actuator, "_xtest", lambda: None)
    monkeypatch.setattr(actuator, "KEYS_SEEN_WITHIN", 0.0)
    mouse = actuator.LiveMouse()
    mouse.click(10, 10)
    mouse.press("f2")
    mouse.click(20, 10)  # not stopped by its own key
    system["presses"] += 1  # a key tapped by the user
    with pytest.raises(ScreenError, match="a key was pressed"):
        mouse.click(30, 10)


def test_a_listener_that_stops_hearing_the_bots_own_clicks_stops_the_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Windows removes a low-level hook that was slow to answer, saying nothing (an X listener's
    connection may die the same way): from then on a key the user presses is not seen. The bot
    counts its own clicks the listener heard; once UNHEARD of them were not, it stops."""
    import collections
    import types

    import bot.devices.actuator as actuator
    from bot.errors import ScreenError

    sent: list[tuple[int, int]] = []
    gui = types.SimpleNamespace(
        PAUSE=0.1,
        FAILSAFE=True,
        click=lambda x, y, button="left": sent.append((x, y)),
        position=lambda: sent[-1],
    )
    listener = types.SimpleNamespace(
        sees_own=False,
        sees_every_move=True,
        keys=0,
        buttons=0,
        moves=collections.deque(),
        heard_own=0,
    )
    monkeypatch.setattr(actuator, "pyautogui", lambda: gui)
    monkeypatch.setattr(actuator, "_sender", lambda: None)
    monkeypatch.setattr(actuator, "_xtest", lambda: None)
    mouse = actuator.LiveMouse(presses=listener)  # type: ignore[arg-type]
    for _ in range(2 * actuator.UNHEARD):
        mouse.click(10, 10)
        listener.heard_own += 1  # heard, each
    listener.heard_own -= 1  # one a moment late: no stop
    for _ in range(actuator.UNHEARD):
        mouse.click(10, 10)  # then none heard
    with pytest.raises(ScreenError, match="no longer hears the mouse"):
        mouse.click(10, 10)
    assert len(sent) == 3 * actuator.UNHEARD


class DrawnInPieces(FakeScreen):
    """Shows ``before`` until the first click, then ``partial`` (the click drawn, a piece of its
    area not yet) to whoever only waits for the clicked cells to show, and ``whole`` to whoever
    waits for the board to stay still."""

    def __init__(
        self, before: np.ndarray, partial: np.ndarray, whole: np.ndarray, mouse: DryRunMouse
    ) -> None:
        super().__init__(before)
        self.before, self.partial, self.drawn, self.mouse = before, partial, whole, mouse

    def settled(self, region: Region, quiet: float = 0.0, done: object = None) -> np.ndarray:
        self.image = self.before
        if self.mouse.clicks:
            self.image = self.drawn
            if callable(done) and done(_crop(self.partial, region)):
                self.image = self.partial
        return self.grab(region)


def test_a_reading_after_clicks_waits_for_the_clicked_cells_and_a_still_one_for_the_rest() -> None:
    """Issue 47: after a batch, the board is read as soon as every clicked cell shows its click,
    not after a fixed quiet time; what the game is still drawing reads covered, and a reading asked
    for still (before a guess: play_game) waits for all of it."""
    opened = load_image(FIXTURE)
    pack = pack_named(load_packs(["xdemineur"]), "xdemineur")
    reading = read(opened, [pack], mines=55)
    geometry, board = reading.geometry, reading.board
    covered = next(cell for cell in board if board[cell] == COVERED)
    number, other = [cell for cell in board if board[cell] > 0][:2]
    partial = _covered(opened, geometry, other, covered)
    before = _covered(partial, geometry, number, covered)
    mouse = DryRunMouse()
    table = LiveTable(DrawnInPieces(before, partial, opened, mouse), mouse, pack, geometry, 55)  # type: ignore[arg-type]
    assert table.board()[number] == table.board()[other] == COVERED and table.still
    table.reveal_many([number])
    assert (
        table.board()[number] == board[number]
        and table.board()[other] == COVERED
        and not table.still
    )
    assert table.board(still=True)[other] == board[other] and table.still


@pytest.mark.parametrize("face", [True, False])
def test_a_game_that_shows_no_face_is_read_without_looking_for_one(
    face: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The face is looked for at a live table's first reading; a game that shows none of its pack's
    (a web page in a shipped look: 40-70 ms a reading at Expert at 1.5x) is read from then on without
    the search, and one that shows it at every reading where the cells leave the state open."""
    import bot.live.table
    import bot.vision.reading

    image = load_image(FIXTURE)
    pack = pack_named(load_packs(["xdemineur"]), "xdemineur")
    geometry = read(image, [pack], mines=55).geometry
    if not face:
        x, y, w, _ = geometry.region()
        image = image.copy()
        # the band above the board, face and counters, gone
        image[: int(y), int(x) : int(x + w)] = 128
    searches, search = [], bot.vision.reading.find_face

    def find_face(*args: object) -> object:
        searches.append(args)
        return search(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.live.table, "find_face", find_face)
    monkeypatch.setattr(bot.vision.reading, "find_face", find_face)
    table = _table(image, pack, geometry)
    for _ in range(3):
        table.refresh()
    assert len(searches) == (1 + 4 if face else 1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Xvfb: X11 only")
# python-xlib leaves its Xauthority file open
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_grab_is_an_array_of_its_own_with_the_screens_pixels() -> None:
    """A grab is handed on as a contiguous BGR array, pixel for pixel mss's: numpy's view of mss's
    BGRA shot made each later comparison (the click guard's, before every click; the settle loop's)
    copy it first, 4-7 ms for a 512x384 region."""
    from Xlib import X, display

    from bot.devices.capture import MssScreen
    from bot.games.x11 import virtual_display

    with virtual_display((640, 480)):
        x = display.Display()
        window = x.screen().root.create_window(
            0,
            0,
            160,
            100,
            0,
            x.screen().root_depth,
            X.InputOutput,
            X.CopyFromParent,
            background_pixel=0x3A7BD5,
        )
        window.map()
        x.sync()
        time.sleep(0.2)
        with MssScreen() as screen:
            region = Region(10, 20, 300, 200)
            shot = np.asarray(
                screen._mss.grab({"left": 10, "top": 20, "width": 300, "height": 200})
            )
            grab = screen.grab(region)
        x.close()
    assert grab.flags.c_contiguous and grab.shape == (200, 300, 3) and grab.dtype == np.uint8
    assert np.array_equal(grab, shot[:, :, :3]) and tuple(grab[0, 0]) == (0xD5, 0x7B, 0x3A)  # BGR


@pytest.mark.parametrize(
    ("fixture", "skin"),
    [
        ("winemine/expert-midgame-flags.png", "winemine"),
        ("gnome-mines/expert-midgame-five.png", "gnome-mines"),
    ],
)
def test_the_guard_holds_still_every_pixel_outside_the_hidden_cells_grown_by_their_shadow(
    fixture: str, skin: str
) -> None:
    """The pixels the guard holds still (ClickGuard.seen, worked out in one matrix product) are those
    from the board's top down outside every hidden cell's box grown by SHADOW of the pitch, as a loop
    over the cells marks them: on a regular lattice and on gnome-mines' whole-pixel one."""
    from bot.live.guard import SHADOW, ClickGuard

    image = load_image(Path(__file__).resolve().parents[1] / "fixtures" / fixture)
    reading = read(image, [pack_named(load_packs([skin]), skin)])
    g = reading.geometry
    hidden = np.random.default_rng(7).random((g.rows, g.cols)) < 0.5
    guard = ClickGuard(FakeScreen(image), Region(0, 0, image.shape[1], image.shape[0]), g)
    guard.seen(image, hidden)
    expected = np.zeros(image.shape[:2], bool)
    expected[max(0, round(g.origin[1])) :, :] = True
    pad = max(2, round(SHADOW * g.pitch[0]))
    for r, c in np.argwhere(hidden):
        x, y, w, h = g.box(int(r), int(c))
        expected[max(0, y - pad) : y + h + pad, max(0, x - pad) : x + w + pad] = False
    assert guard._steady is not None and np.array_equal(guard._steady, expected)
    assert 0 < expected.sum() < expected.size


def test_the_guard_tells_a_window_covered_or_killed_under_wine_from_a_game_end_drawn_over_the_board() -> (
    None
):
    """Grabs by Windows Python under Wine of winemine at Expert (tests/guard-screens): playing, then
    covered by a white window a little bigger than the game's, then killed. The desktop there is
    black like winemine's frame, so less than half the rim round the board changed either time
    (0.47, 0.15), and after a short lost game the pixels no click changes (winemine's opened cells
    and frame, black there too) hardly changed at all: the learner, which has no pack to fail on
    such a board, took both for a lost game's end and learnt the cover's white as an exploded mine
    (the Windows learning fault test). One flat colour where a board was tells them; the board as
    it was read is no change at all."""
    from bot.live.guard import ClickGuard

    screens = Path(__file__).resolve().parent / "guard-screens" / "winemine-wine"
    playing, covered, killed = (
        load_image(screens / f"{name}.png") for name in ("playing", "covered", "killed")
    )
    g = Geometry("winemine", 16, 30, (16.0, 112.0), (16.0, 16.0), 16.0, 1.0)
    guard = ClickGuard(FakeScreen(playing), Region(0, 0, playing.shape[1], playing.shape[0]), g)
    corner = np.ones((g.rows, g.cols), bool)
    corner[:3, :5] = False  # as if a corner were opened: its cells too are held still
    for hidden in (np.ones((g.rows, g.cols), bool), corner):
        guard.seen(playing, hidden)
        assert guard.gone(playing) is None
        for gone in (covered, killed):
            assert guard.gone(gone) == "no board shows where it was: one flat colour is there"


class ScriptedWindows:
    """The window system's word as a test sets it: the top-level window and its program at every
    point, and how many times windows stirred."""

    def __init__(self) -> None:
        self.window, self.program, self.stirred, self.asked = 7, 70, 0, 0

    def stirs(self) -> int:
        return self.stirred

    def top(self, x: int, y: int) -> int:
        self.asked += 1
        return self.window

    def owner(self, x: int, y: int) -> int:
        return self.program

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("window", "program", "said"),
    [
        (7, 70, None),  # as at the reading
        (8, 70, None),  # the game's own dialog: another window of the same program
        # a notification over the middle of the board
        (
            9,
            90,
            "a window of another program is over it",
        ),
        (0, 0, "the game's window is gone (closed?)"),
    ],
)
def test_the_guard_holds_clicks_where_the_window_system_says_another_programs_window_is_over_the_board(
    window: int,
    program: int,
    said: str | None,
) -> None:
    """The pixels of a board under a notification with words in it can pass for a game's end drawn
    over it (a learner, xdemineur, a window over the middle of its board: 8 clicks after it, and
    "the look of cell (3,21) can show no number"). The window system tells: where a window was
    shown, moved or closed since the last click (and only then: each question is a round trip to
    an X server), a window of another program at the board holds every click and says why."""
    from bot.live.guard import ClickGuard

    playing = load_image(
        Path(__file__).resolve().parent / "guard-screens" / "winemine-wine" / "playing.png"
    )
    g = Geometry("winemine", 16, 30, (16.0, 112.0), (16.0, 16.0), 16.0, 1.0)
    windows = ScriptedWindows()
    screen = FakeScreen(playing)
    screen.windows = lambda: windows  # type: ignore[attr-defined]
    guard = ClickGuard(screen, Region(0, 0, playing.shape[1], playing.shape[0]), g)
    guard.seen(playing, np.ones((g.rows, g.cols), bool))
    windows.window, windows.program = window, program
    asked = windows.asked
    assert guard.check((0, 0)) and windows.asked == asked  # nothing stirred: nothing asked
    windows.stirred += 1
    assert guard.check((0, 1)) is (said is None) and guard.halted is (said is not None)
    assert guard.gone(playing) == said


def test_settle_confirms_a_grab_that_shows_the_clicks_after_a_short_pause(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A wait for clicks polls every SETTLE_INTERVAL; a new grab that already shows them (``done``)
    is confirmed by one grab CONFIRM_INTERVAL later, then returned. A grab that shows them but then
    changes again is not taken (it was half drawn), and the pause goes back to SETTLE_INTERVAL."""
    from bot.devices import capture

    pauses: list[float] = []
    monkeypatch.setattr(capture.time, "sleep", pauses.append)
    a, b, c, d = (np.full((2, 2, 3), v, np.uint8) for v in (0, 1, 2, 3))
    grabs = iter([a, a, b, c, c])  # b and c both show the clicks; b was still being drawn
    shot = capture.settle(
        lambda: next(grabs), quiet=1.0, done=lambda image: image[0, 0, 0] in (1, 2)
    )
    assert shot is c
    assert pauses == [
        capture.SETTLE_INTERVAL,
        capture.SETTLE_INTERVAL,
        capture.CONFIRM_INTERVAL,
        capture.CONFIRM_INTERVAL,
    ]
    pauses.clear()
    grabs = iter([a, d, d, d])  # a change that does not show the clicks: the usual pause
    assert capture.settle(lambda: next(grabs), quiet=0.0, done=lambda image: False) is d
    assert pauses == [capture.SETTLE_INTERVAL, capture.SETTLE_INTERVAL]
