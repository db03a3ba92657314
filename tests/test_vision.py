"""Golden tests: every recorded screenshot in fixtures/ reads exactly as its .board file says."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.cli import main
from bot.errors import InconsistentBoard, NoBoardFound, UnreadableCell
from bot.vision import load_image, load_packs, locate, read
from bot.vision.counter import ink_amount, led_counter, read_text
from bot.vision.labels import read_label
from bot.vision.pack import skin_names, templates_root
from bot.vision.reading import band_above, find_face
from bot.vision.tiles import _resized, classifier_for
from bot.vocabulary import COVERED, FLAG

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# at collection, before conftest hides this user's learnt packs
SHIPPED = skin_names(templates_root())
# screenshots of games a shipped pack reads (the others, xbomb's, are read with no pack: test_grid.py)
CASES = sorted(p for p in FIXTURES.glob("*/*.board") if p.parent.name in SHIPPED)


def test_every_skin_has_fixtures() -> None:
    assert {p.parent.name for p in CASES} == set(skin_names())


@pytest.mark.parametrize("skin", SHIPPED)
def test_every_skin_has_every_kind_of_fixture(skin: str) -> None:
    """Each skin's fixtures show every digit, flags mid-game, a lost game (exploded mine, revealed
    mines, a wrong flag: every game here shows one), a won game, and fresh boards at the three
    standard levels (some games' beginner is 8x8 or 9x12)."""
    labels = {p.stem: read_label(p) for p in CASES if p.parent.name == skin}
    shown = {
        s: "".join(str(t.board) for t in labels.values() if t.state == s)
        for s in ("playing", "won", "lost")
    }
    assert set("12345678") <= set("".join(shown.values()))
    assert "F" in shown["playing"] and set("X*x") <= set(shown["lost"]) and shown["won"]
    fresh = {t.cols * t.rows for name, t in labels.items() if "fresh" in name}
    assert len(fresh) >= 3 and {480, 256} <= fresh


# real screenshots of a web page drawing its cells with a shipped pack's pictures, in Chromium at
# fractional device scales (fixtures/README.md): read by that pack
ZOOMED = sorted((FIXTURES / "sprites98-web").glob("*.board"))


@pytest.mark.parametrize("path", CASES + ZOOMED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture_reads_exactly(path: Path) -> None:
    """Every cell, where the board is, and the state. (sprites98-web's at 1.25-1.75: 10 of 20 last
    screens at 1.25 and 1.5 and 4 of 20 at 1.75 read before their lines were measured one by one.)"""
    truth = read_label(path)
    image = load_image(path.with_suffix(".png"))
    reading = read(image, load_packs(), mines=truth.board.mines)
    geo = reading.geometry
    assert geo.skin == truth.game
    assert (geo.rows, geo.cols) == (truth.rows, truth.cols)
    assert np.allclose(geo.origin, truth.origin, atol=1)
    assert np.allclose(geo.pitch, truth.pitch, atol=0.05)
    wrong = np.argwhere(reading.board.cells != truth.board.cells)
    assert wrong.size == 0, f"cells read wrong: {[tuple(map(int, w)) for w in wrong[:10]]}"
    assert reading.state == truth.state


GNOME = [p for p in CASES if p.parent.name == "gnome-mines"]


@pytest.mark.parametrize("path", GNOME, ids=lambda p: p.stem)
def test_gnome_mines_cells_sit_where_the_snapped_grid_says(path: Path) -> None:
    """gnome-mines puts some columns and rows a pixel off a straight grid; once measured, every
    cell matches its tile there without being tried off it (the retry only backs up misses)."""
    image = load_image(path.with_suffix(".png"))
    pack = load_packs(["gnome-mines"])[0]
    geo = read(image, [pack], mines=read_label(path).board.mines).geometry
    assert len(geo.xs) == geo.cols and len(geo.ys) == geo.rows
    boxes = [geo.box(r, c) for r in range(geo.rows) for c in range(geo.cols)]
    _, scores = classifier_for(pack).match_exact(image, boxes)  # no retries
    assert scores.max() < pack.tolerance


COUNTED = [p for p in CASES if load_packs([p.parent.name])[0].has_counter]
# Screenshots whose counter (read by eye: this is what it shows) disagrees with the flags on the board.
# Only minegauler's: the counter shows fewer flags than the
# board (by 1, 2, 12). Live minegauler keeps them in step (checked after 20 quick flags and after
# whole games); the bot reads the counter once, before its first click.
COUNTER_OFF = {
    "minegauler/custom-16x16-80mines-seven": 29,
    "minegauler/expert-midgame-five": 58,
    "minegauler/expert-midgame-six": 45,
}
# Screenshots cut off left of gnome-mines' "flags/mines" label: no counter to read.
COUNTER_OUTSIDE = {"gnome-mines/expert-midgame-five", "gnome-mines/expert-midgame-four"}


@pytest.mark.parametrize("path", COUNTED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_mine_count_is_read_from_the_counter(path: Path) -> None:
    """Mines left on the counter plus flags placed is the game's mine count, custom games too."""
    truth = read_label(path)
    reading = read(load_image(path.with_suffix(".png")), load_packs())
    case = f"{path.parent.name}/{path.stem}"
    if case in COUNTER_OUTSIDE:
        # the standard count
        assert reading.counter is None and reading.board.mines == truth.board.mines
        return
    assert reading.counter is not None
    if case in COUNTER_OFF:
        assert reading.counter == COUNTER_OFF[case]
    else:
        assert reading.board.mines == truth.board.mines


def test_a_counter_glyph_in_another_font_leaves_the_counter_unread_not_shorter() -> None:
    """minegauler's counter on a machine with other fonts once read 0 (its 9s matched no glyph, and
    the number left was another): a glyph like none of the pack's makes the counter unread (None),
    and the mine count then comes from elsewhere, never from a number the game does not show."""
    from bot.vision.counter import glyph_boxes, ink_amount
    from bot.vision.reading import band_above

    path = FIXTURES / "minegauler" / "expert-flags.png"
    pack = load_packs(["minegauler"])[0]
    image = load_image(path)
    reading = read(image, [pack])
    assert reading.counter is not None
    band, left, top = band_above(image, reading.geometry)
    assert pack.counter_text is not None
    ink, paper = pack.counter_text
    boxes = sorted(glyph_boxes(ink_amount(band, ink, paper)))
    x, y, w, h = boxes[0] if pack.counter == "left" else boxes[-1]  # a digit of the counter
    image[top + y : top + y + h, left + x : left + x + w] = ink  # a blot of ink of the glyph's size
    assert read(image, [pack]).counter is None


def test_counters_are_read_for_the_skins_that_show_one() -> None:
    assert {p.parent.name for p in COUNTED} == set(skin_names())


# Both seven-segment counters of the web looks (mines left, seconds), read by eye; between them
# they show every digit, which no single picture of these looks does.
LIGHTS = {
    "classic98/beginner-won": (10, 1),
    "classic98/custom-30x16-190mines-midgame": (176, 7),
    "classic98/expert-lost": (91, 3),
    "classic98/expert-midgame": (90, 5),
    "classic98/hidpi2x-expert-midgame": (91, 5),
    "winxp/beginner-won": (0, 0),
    "winxp/expert-lost": (90, 2),
    "winxp/expert-midgame": (89, 6),
    "winxp/hidpi2x-beginner-lost": (7, 0),
    "winxp/hidpi2x-expert-midgame": (90, 3),
    "winxp/zoom150-intermediate-midgame": (34, 2),
}


@pytest.mark.parametrize("case", sorted(LIGHTS))
def test_seven_segment_lights_are_decoded_at_every_scale(case: str) -> None:
    skin, _, name = case.partition("/")
    pack = load_packs([skin])[0]
    image = load_image(FIXTURES / skin / f"{name}.png")
    band = band_above(image, read(image, [pack]).geometry)[0]
    shown = (led_counter(band, pack), led_counter(band, replace(pack, counter="right")))
    assert shown == LIGHTS[case]


def test_lights_cover_every_digit() -> None:
    assert set("".join(f"{m:03d}{s:03d}" for m, s in LIGHTS.values())) == set("0123456789")


def test_a_light_that_is_no_digit_leaves_the_counter_unread() -> None:
    """The mines counter with its first light half hidden is not read, and the timer is not read in its place."""
    pack = load_packs(["classic98"])[0]
    image = load_image(FIXTURES / "classic98" / "expert-midgame.png")  # mines left 090, timer 005
    geometry = read(image, [pack]).geometry
    band = band_above(image, geometry)[0].copy()
    assert led_counter(band, pack) == 90
    ys, xs = np.nonzero(ink_amount(band, (0, 0, 255), (0, 0, 0)) > 0.2)
    first = xs < xs.min() + 6  # the left half of the first light
    band[ys[first], xs[first]] = 0
    assert led_counter(band, pack) is None
    assert read(image, [pack], mines=None).counter == 90  # untouched image: read as before


FACED = [p for p in CASES if read_label(p).state in load_packs([p.parent.name])[0].faces]


@pytest.mark.parametrize("path", FACED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_face_shows_the_state(path: Path) -> None:
    """Where the game has a face and the pack a picture of it for the true state, the face reads it."""
    truth = read_label(path)
    pack = load_packs([truth.game])[0]
    image = load_image(path.with_suffix(".png"))
    face = find_face(image, read(image, [pack], mines=truth.board.mines).geometry, pack)
    assert face is not None and face[0] == truth.state


def test_faces_are_read_for_the_skins_that_have_one() -> None:
    assert {p.parent.name for p in FACED} == {
        "classic98",
        "winxp",
        "winemine",
        "xdemineur",
        "minegauler",
    }


def test_text_counter_reads_the_number_shown_not_the_timer() -> None:
    path = FIXTURES / "minegauler" / "expert-three-flags.png"  # mines left 096, timer 000
    pack = load_packs(["minegauler"])[0]
    image = load_image(path)
    geometry = read(image, [pack], mines=99).geometry
    assert read_text(image[: round(geometry.origin[1])], pack) == ["096", "000"]
    assert read(image, [pack]).counter == 96


def test_board_found_anywhere_on_a_bigger_screen() -> None:
    path = FIXTURES / "winxp" / "expert-midgame.board"
    truth = read_label(path)
    image = load_image(path.with_suffix(".png"))
    canvas = np.full((1600, 2560, 3), (90, 60, 30), dtype=np.uint8)  # a second monitor's worth
    canvas[300 : 300 + image.shape[0], 1100 : 1100 + image.shape[1]] = image
    reading = read(canvas, load_packs(), mines=99)
    assert reading.geometry.origin == pytest.approx(
        (truth.origin[0] + 1100, truth.origin[1] + 300), abs=1
    )
    assert reading.board == truth.board


def test_no_board_says_which_skins_were_tried() -> None:
    with pytest.raises(
        NoBoardFound, match="no Minesweeper board found; uncover the whole game"
    ) as none:
        read(np.zeros((300, 400, 3), dtype=np.uint8), load_packs())
    assert re.search("skins tried: .*winxp", none.value.detail)


def test_no_board_gives_the_best_score_of_the_cells_that_looked_like_one() -> None:
    """A board whose every cell has a red line drawn along its top: the lattice is still found,
    no pack's tile matches its cells, and the message says where the board is and how close each
    pack came."""
    path = FIXTURES / "classic98" / "expert-fresh.board"
    truth = read_label(path)
    image = load_image(path.with_suffix(".png"))
    for r, c in truth.board:
        x, y = (
            round(truth.origin[0] + c * truth.pitch[0]),
            round(truth.origin[1] + r * truth.pitch[1]),
        )
        image[y : y + 2, x : x + truth.cell_px] = (0, 0, 255)
    with pytest.raises(
        NoBoardFound,
        match=r"no skin pack reads the 30x16 board at \(5[45],22[34]\) in the screenshot",
    ) as none:
        read(image, load_packs())
    assert re.search(
        r"its cells are 16x17 px apart.*classic98@1x: [^;]*\(best score \d+\.\d, limit 10\)",
        none.value.detail,
    )


def test_a_covered_cell_is_reported_with_its_position(tmp_path: Path) -> None:
    path = FIXTURES / "classic98" / "expert-fresh.board"
    image = load_image(path.with_suffix(".png"))
    packs = load_packs()
    geometry = read(image, packs).geometry
    x, y, w, h = geometry.box(5, 7)
    image[y + 3 : y + h - 3, x + 3 : x + w - 3] = (255, 0, 255)  # something drawn over one cell
    crop = tmp_path / "cell.png"
    with pytest.raises(
        UnreadableCell, match=r"cell \(5,7\) at .* matches no classic98 tile"
    ) as unread:
        read(image, packs, geometry=geometry, save_unreadable=str(crop))
    assert "cell.png" in unread.value.detail
    assert crop.is_file()


def test_replay_json_gives_board_and_advice(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = FIXTURES / "winxp" / "expert-midgame.png"
    out = tmp_path / "advice.png"
    assert main("replay", str(path), "--json", "--annotate", str(out)) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["skin"] == "winxp" and (data["rows"], data["cols"]) == (16, 30)
    assert data["state"] == "playing" and len(data["board"]) == 16
    assert data["safe"] and data["mines"]
    for r, c in data["safe"]:
        assert data["board"][r][c] in "#?"
    assert cv2.imread(str(out)).shape == cv2.imread(str(path)).shape


def test_replay_of_a_lost_game_gives_no_advice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main("replay", str(FIXTURES / "classic98" / "expert-lost.png")) == 0
    out = capsys.readouterr().out
    assert "state lost" in out and "nothing to advise" in out


def test_replay_of_a_board_that_contradicts_itself_names_the_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real screenshot with two of the game's own flag tiles pasted beside a 1 that has no flag:
    replay says which cell cannot be right instead of advising on it."""
    path = FIXTURES / "winemine" / "expert-midgame-flags.png"
    truth = read_label(path.with_suffix(".board"))
    pack = load_packs(["winemine"])[0]
    flag = next(t.image for t in pack.tiles if t.code == FLAG)
    board = truth.board
    one = next(
        (r, c)
        for r, c in board
        if board[r, c] == 1
        and sum(board[n] == COVERED for n in board.neighbours((r, c))) >= 2
        and not any(board[n] == FLAG for n in board.neighbours((r, c)))
    )
    image = load_image(path)
    for r, c in [n for n in board.neighbours(one) if board[n] == COVERED][:2]:
        x, y = (
            round(truth.origin[0] + c * truth.pitch[0]),
            round(truth.origin[1] + r * truth.pitch[1]),
        )
        image[y : y + truth.cell_px, x : x + truth.cell_px] = flag
    edited = tmp_path / "edited.png"
    cv2.imwrite(str(edited), image)
    assert main("replay", str(edited)) != 0
    assert f"cell ({one[0]},{one[1]}) shows 1 but has 2 flags" in capsys.readouterr().err


def test_advise_says_what_is_wrong_and_keeps_watching(capsys: pytest.CaptureFixture[str]) -> None:
    """A real game with a player's wrong flag (two flags beside a 1 at (8,18)) between two boards
    that are right: advise says what is wrong in a line, once, and watches on. (With --once it is
    the error.)"""
    from argparse import Namespace

    from bot.live.watch import advise

    right = load_image(FIXTURES / "winemine" / "custom-30x16-140mines-midgame.png")
    wrong = load_image(FIXTURES / "winemine" / "expert-midgame-flags.png")

    class Frames:
        def __init__(self, *images: np.ndarray) -> None:
            self.images = list(images)

        def grab(self) -> np.ndarray:
            if not self.images:
                raise KeyboardInterrupt  # the user's Ctrl+C
            return self.images.pop(0)

    with pytest.raises(KeyboardInterrupt):
        advise(
            Namespace(skin="winemine", mines=None, once=False), Frames(right, wrong, wrong, right)
        )  # type: ignore[arg-type]
    out, err = capsys.readouterr()
    # before, and once it is right again
    assert out.count("state playing") == 2 and out.count("move:") == 2, err
    # the advice as replay and solve print it, not Python lists
    assert "safe:  (" in out and "[(" not in out
    assert err.count("cell (8,18) shows 1 but has 2 flags") == 1 and "still watching" in err
    with pytest.raises(InconsistentBoard, match=r"cell \(8,18\) shows 1 but has 2 flags"):
        advise(Namespace(skin="winemine", mines=None, once=True), Frames(wrong))  # type: ignore[arg-type]


def test_learn_cuts_a_pack_that_reads_its_own_screenshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shot = FIXTURES / "classic98" / "expert-lost"
    assert (
        main(
            "learn", f"{shot}.png", f"{shot}.board", "--skin", "mine", "--templates", str(tmp_path)
        )
        == 0
    )
    assert "covered.png" in capsys.readouterr().out
    from bot.vision.pack import load_pack

    pack = load_pack("mine", tmp_path)
    reading = read(load_image(f"{shot}.png"), [pack], mines=99)
    assert reading.board == read_label(f"{shot}.board").board


@pytest.mark.parametrize(
    "name",
    [
        "gnome-mines/expert-58-flags-window-1150x640",
        "classic98/hidpi2x-expert-midgame",
        "gnome-mines/beginner-lost-window-1200x1000",
    ],
)
def test_cells_resized_and_blurred_together_equal_one_by_one(name: str) -> None:
    """Classifier._match resizes all crops as one tall picture and blurs them as one; each comes out
    exactly as if resized and blurred alone (shrinking at 0.64x, 2x and 2.6x)."""
    path = FIXTURES / f"{name}.png"
    image = load_image(path)
    pack = load_packs([path.parent.name])[0]
    geometry = read(
        image, [pack], mines=read_label(path.with_suffix(".board")).board.mines
    ).geometry
    classifier = classifier_for(pack)
    n = classifier.size
    crops = np.stack(
        [
            image[y : y + h, x : x + w]
            for x, y, w, h in (
                geometry.box(r, c) for r in range(geometry.rows) for c in range(geometry.cols)
            )
        ]
    )
    together = classifier._blur_all(_resized(crops, n))
    alone = np.stack(
        [classifier._blur(cv2.resize(crop, (n, n), interpolation=cv2.INTER_AREA)) for crop in crops]
    )
    assert crops.shape[1] > n and np.array_equal(together, alone)


@pytest.mark.parametrize(
    "name", ["winxp/expert-fresh", "winxp/beginner-fresh", "classic98/expert-fresh"]
)
@pytest.mark.parametrize("dx", range(4))
@pytest.mark.parametrize("dy", range(4))
def test_every_pixel_phase_reads_exactly(name: str, dx: int, dy: int) -> None:
    """A real screen moved by 0-3 px each way reads exactly, skin and cells. The packs' colour search
    looks at a quarter-size screenshot first and lost winxp's fresh board at x or y = 2 mod 4, and
    classic98's at x = 3: the board is then found by its lattice and the pack tried on its cells."""
    path = FIXTURES / f"{name}.board"
    truth = read_label(path)
    image = cv2.copyMakeBorder(
        load_image(path.with_suffix(".png")), dy, 0, dx, 0, cv2.BORDER_REPLICATE
    )
    reading = read(image, load_packs(), mines=truth.board.mines)
    assert reading.geometry.skin == truth.game
    assert reading.geometry.box(0, 0)[:2] == (truth.origin[0] + dx, truth.origin[1] + dy)
    assert (reading.board.cells == truth.board.cells).all()


class _Still:
    """A screen that always shows one picture."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image

    def grab(self, region: object = None) -> np.ndarray:
        return self.image.copy()


def _record(image: np.ndarray, out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    import argparse

    from bot.live.watch import record

    assert record(argparse.Namespace(out=out, skin=None, mines=None), _Still(image)) == 0  # type: ignore[arg-type]
    return capsys.readouterr().out


def test_record_marks_the_cells_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cell covered by something no pack knows: the .board is still written, every other cell as
    read, that one marked ~; and the file is refused as a truth until a person fills it in."""
    from bot.errors import LabelFileError
    from bot.vision.labels import UNREAD

    path = FIXTURES / "winemine" / "custom-9x9-64mines-seven.board"
    truth = read_label(path)
    image = load_image(path.with_suffix(".png"))
    x, y = truth.origin[0] + 4 * int(truth.pitch[0]), truth.origin[1] + 2 * int(truth.pitch[1])
    # cell (2,4) hidden under a magenta patch
    image[y : y + truth.cell_px, x : x + truth.cell_px] = (
        255,
        0,
        255,
    )
    said = _record(image, tmp_path / "shot", capsys)
    assert "80 of 81 cells read" in said and UNREAD in said
    rows = (tmp_path / "shot.board").read_text().partition("\n\n")[2].split()
    expected = str(truth.board).split()
    assert rows[2][4] == UNREAD
    assert [r.replace(UNREAD, expected[2][4]) for r in rows] == expected
    with pytest.raises(LabelFileError, match=r"cell \(2,4\) is marked ~"):
        read_label(tmp_path / "shot.board")


def test_record_of_a_look_no_pack_reads_writes_its_lattice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game with no pack (xbomb): the board's size and place from its lattice, every cell marked ~."""
    truth = read_label(FIXTURES / "xbomb" / "beginner-midgame-three.board")
    said = _record(
        load_image(FIXTURES / "xbomb" / "beginner-midgame-three.png"), tmp_path / "shot", capsys
    )
    assert "0 of 64 cells read" in said
    rows = (tmp_path / "shot.board").read_text().partition("\n\n")[2].split()
    assert rows == ["~" * truth.cols] * truth.rows


@pytest.mark.parametrize("shot", ["scale1-midgame", "scale1.5-lost", "scale1.75-midgame"])
def test_a_packs_colour_in_another_looks_cells_is_not_its_board(shot: str) -> None:
    """react-minesweeper (a web game in a classic look no pack holds) shows empty cells of
    gnome-mines' grey: that pack's colours make a board of part of it, which it hardly reads (or
    reads as 0s beside covered cells). The board is the one its lattice shows, and no pack reads it,
    so that play learns the look."""
    path = FIXTURES / "react-minesweeper" / f"{shot}.board"
    truth = read_label(path)
    with pytest.raises(
        NoBoardFound, match=rf"no skin pack reads the {truth.cols}x{truth.rows} board at"
    ):
        locate(load_image(path.with_suffix(".png")), load_packs())
