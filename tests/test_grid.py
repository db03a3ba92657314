"""The board is found by its lattice alone, with no skin pack, on every real screenshot we have."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.errors import NoBoardFound
from bot.vision import load_image
from bot.vision.geometry import Geometry
from bot.vision.grid import find_grid, find_grids
from bot.vision.ink import Hint, InkCheck
from bot.vision.labels import Labelled, read_label
from bot.vision.looks import LOOK_LIMIT, LookBook
from bot.vision.pack import SkinPack
from bot.vision.tiles import read_cells
from bot.vocabulary import CHAR_OF, CODE_OF, COVERED
from tests.looks import fresh_board

ROOT = Path(__file__).resolve().parents[1]
CASES = sorted(ROOT.glob("fixtures/*/*.board"))


def _same_cells(geo: Geometry, truth: Labelled) -> bool:
    """Same rows and columns, and the first and last cells' centres within 2 px of the truth's."""
    if (geo.rows, geo.cols) != (truth.rows, truth.cols):
        return False
    for r, c in ((0, 0), (truth.rows - 1, truth.cols - 1)):
        x = truth.origin[0] + c * truth.pitch[0] + truth.cell_px / 2
        y = truth.origin[1] + r * truth.pitch[1] + truth.cell_px / 2
        gx, gy = geo.centre((r, c))
        if max(abs(gx - x), abs(gy - y)) > 2:
            return False
    return True


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_board_found_with_no_pack(path: Path) -> None:
    truth = read_label(path)
    geo = find_grid(load_image(path.with_suffix(".png")))
    assert geo.skin == ""
    assert _same_cells(geo, truth), (
        f"found {geo}, true {truth.rows}x{truth.cols} at {truth.origin} pitch {truth.pitch}"
    )
    assert abs(geo.pitch[0] - truth.pitch[0]) < 0.15 and abs(geo.pitch[1] - truth.pitch[1]) < 0.15


SHIFTED = [
    "winxp/expert-fresh",
    "winxp/beginner-won",
    "classic98/hidpi2x-beginner-won",
    "gnome-mines/expert-midgame-four",
]


@pytest.mark.parametrize("name", SHIFTED)
@pytest.mark.parametrize("dx, dy", [(1, 0), (2, 2), (3, 1), (0, 3)])
def test_any_pixel_phase(name: str, dx: int, dy: int) -> None:
    """The same real screen moved by 1-3 px: every phase mod 4 (the quarter-size colour search of
    the packs lost winxp's fresh board at x or y = 2 mod 4)."""
    path = ROOT / "fixtures" / f"{name}.board"
    truth = read_label(path)
    image = load_image(path.with_suffix(".png"))
    moved = cv2.copyMakeBorder(image, dy, 0, dx, 0, cv2.BORDER_REPLICATE)
    geo = find_grid(moved).moved(-dx, -dy)
    assert _same_cells(geo, truth)


def test_two_monitors() -> None:
    """A capture of two screens side by side (mss's monitor 0): the board on the right-hand one."""
    left = load_image(ROOT / "fixtures/xdemineur/expert-fresh.png")[:, :, :]
    left[:] = left[0, 0]  # the left screen shows no game
    path = ROOT / "fixtures/winxp/expert-midgame.board"
    right = load_image(path.with_suffix(".png"))
    both = np.hstack([left[: right.shape[0]], right])
    geo = find_grid(both).moved(-left.shape[1], 0)
    assert _same_cells(geo, read_label(path))


def test_covered_board_loses_to_the_whole_one_on_top() -> None:
    """Four games on one screen: gnome-mines partly hidden behind winemine, whose whole 9x9 board
    is found first although the board behind it is larger."""
    path = ROOT / "fixtures/winemine/custom-9x9-64mines-seven.board"
    grids = find_grids(load_image(path.with_suffix(".png")))
    assert _same_cells(grids[0].geometry, read_label(path))
    behind = [g for g in grids if g.geometry.pitch[0] > 19]
    assert (
        behind
        and behind[0].geometry.rows * behind[0].geometry.cols > 81
        and behind[0].filled < grids[0].filled
    )


def test_no_board_in_browser_chrome() -> None:
    """The tab strip and address bar of a real browser screenshot hold no board."""
    image = load_image(ROOT / "fixtures/winxp/expert-fresh.png")[:85]
    with pytest.raises(NoBoardFound, match="no lattice"):
        find_grid(image)


def test_no_board_on_a_plain_screen() -> None:
    with pytest.raises(NoBoardFound):
        find_grid(np.full((300, 400, 3), 40, dtype=np.uint8))


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_look_holds_two_values(path: Path) -> None:
    """Cells grouped by how they look, with no pack: every look shows one value only (a value may
    show as a few looks: hover highlights, cells a pixel off a fractional lattice). Where the same
    game was recorded fresh at the same place, that board comes first, as the learner sees a new
    game first: a cell unlike its own covered picture there is no covered cell (kmines draws its
    cells over a background picture, and an empty cell there is nearer a covered cell elsewhere
    than any covered cell is to an empty one)."""
    truth = read_label(path)
    image = load_image(path.with_suffix(".png"))
    book = LookBook(find_grid(image))
    reference, covered = fresh_board(book, path, truth)
    looks = book.assign(image, reference, covered)
    for k in np.unique(looks):
        shown = {CHAR_OF[int(v)] for v in np.unique(truth.board.cells[looks == k])}
        assert len(shown) == 1, f"look {k} holds {shown}"
    values = len(np.unique(truth.board.cells))
    assert values <= len(np.unique(looks)) <= 2 * values + 2


def test_a_look_a_learnt_pack_never_saw_is_not_read_as_one_it_did() -> None:
    """xbomb's 7, violet and 13 pixels on a 51 px cell, is 3.1 RMS from a blank cell as a whole:
    a pack learnt from that board's other looks (as a learning run holds them before a 7 shows)
    reads no look there, not a 0, and every other cell as it is."""
    from dataclasses import replace

    from bot.vision.bench import _learnt_pack

    path = ROOT / "fixtures/xbomb/expert-lost-seven-51px.board"
    truth, image = read_label(path), load_image(path.with_suffix(".png"))
    grid = find_grid(image)
    learnt = _learnt_pack(path, image, grid)  # a picture per look, named by the look's first cell
    pack = replace(learnt, tiles=tuple(t for t in learnt.tiles if t.code != CODE_OF["7"]))
    seven = truth.board.cells == CODE_OF["7"]
    codes, rms = read_cells(image, grid, pack)
    assert seven.sum() == 1 and np.isinf(rms[seven]).all()
    assert (codes[~seven] == truth.board.cells[~seven]).all() and np.isfinite(rms[~seven]).all()


def test_looks_persist_across_screenshots() -> None:
    """A second screenshot of the same game is sorted into the looks of the first where it can be."""
    fresh, played = (
        ROOT / f"fixtures/winemine/{n}.png" for n in ("expert-fresh", "intermediate-fresh")
    )
    image = load_image(fresh)
    book = LookBook(find_grid(image))
    assert len(np.unique(book.assign(image))) == 1 and len(book) == 1
    other = load_image(played)
    book2 = LookBook(find_grid(other))
    book2.prototypes, book2.pictures = book.prototypes, book.pictures
    assert (book2.assign(other) == 0).all() and len(book2) == 1


SORTED_TWICE = ROOT / "fixtures/gnome-mines/region/intermediate-midgame.board"


@pytest.mark.parametrize(
    "path", [*CASES[::6], SORTED_TWICE], ids=lambda p: f"{p.parent.name}/{p.stem}"
)
def test_a_second_reading_sorts_cells_as_the_first(path: Path) -> None:
    """Sorting the same screenshot again, once its looks are known, gives every cell the same look
    and starts no new one (each cell goes to its nearest look, not the first near enough): else a
    learner would take a still board for a changing one. gnome-mines' 34.2 px cells (the learner
    stopped there in most intermediate runs, "the board keeps changing") hold cells unlike their
    nearest look in a window but alike a look the first sorting started after it: each takes the
    nearest look it is alike."""
    image = load_image(path.with_suffix(".png"))
    book = LookBook(find_grid(image))
    first = book.assign(image)
    looks = len(book)
    assert (book.assign(image) == first).all() and len(book) == looks
    assert (first >= 0).all()


@pytest.mark.slow  # several seconds
@pytest.mark.parametrize("game", sorted({p.parent.name for p in CASES}))
def test_a_pack_learnt_from_some_screenshots_reads_the_others(game: str) -> None:
    """A learnt pack holds a picture per look, cut where the lattice put the cells of the screen it
    was learnt on (as bot/learning/learn.py cuts them). For each cell size a game was recorded at (twice or
    more), learnt from the screenshot showing the most values (and covered cells), it reads each
    screenshot of that game at that size wherever the lattice falls on it (a pixel or two off the
    cells where it was learnt): the cells lined up with its pictures, no cell is misread, and a
    look it never saw (gnome-mines draws a mine under a "?" as neither) is out of the limits."""
    from bot.userdata import learnt_skins
    from bot.vision import load_packs
    from bot.vision.writing import add_tiles, start_learnt_pack
    from bot.vocabulary import TILE_NAMES
    from tests.looks import known_share

    cases = [(p, read_label(p)) for p in CASES if p.parent.name == game and "hover" not in p.stem]

    # a game may draw its cells anew at another size; a browser's fractional pitch is measured a little
    # differently on each screen (25.494 and 25.495 px): the same size to a quarter pixel
    def size(label: Labelled) -> tuple[float, ...]:
        return tuple(round(p * 4) / 4 for p in label.pitch)

    sizes = sorted({size(t) for _, t in cases})
    groups = [[(p, t) for p, t in cases if size(t) == s] for s in sizes]
    groups = [
        g
        for g in groups
        if len(g) >= 2 and any((t.board.cells == CODE_OF["#"]).any() for _, t in g)
    ]
    assert groups
    for n, group in enumerate(groups):
        shown = [(p, t) for p, t in group if (t.board.cells == CODE_OF["#"]).any()]
        path, truth = max(shown, key=lambda case: len(np.unique(case[1].board.cells)))
        image = load_image(path.with_suffix(".png"))
        book = LookBook(find_grid(image))
        tiles: dict[str, list[np.ndarray]] = {}
        looks = book.assign(image)
        for k in range(len(book)):  # a picture per look, as the learner keeps them
            r, c = np.argwhere(looks == k)[0]
            tiles.setdefault(TILE_NAMES[CHAR_OF[int(truth.board.cells[r, c])]], []).append(
                book.pictures[k]
            )
        folder = learnt_skins() / f"learnt-{game}-{n}"
        start_learnt_pack(folder, book.cut, book.geometry.pitch, "safe", 100, 16.0)
        add_tiles(folder, tiles)
        (pack,) = load_packs([folder.name])
        known = [known_share(pack, p.with_suffix(".png"), t) for p, t in group]
        assert np.mean(known) > 0.9, (path.stem, known)


@pytest.mark.parametrize(
    "skin", ["gnome-mines", "xbomb", "nicegui-minesweeper", "winemine", "kmines"]
)
def test_cells_cut_all_at_once_are_each_cut_alone(skin: str) -> None:
    """Looks compares every cell shrunk to at most COMPARE_PX, all of a board's cells resized as
    one tall picture: the same pixels as each cell resized alone."""
    for path in sorted((ROOT / "fixtures" / skin).glob("*.png"))[:3]:
        image = load_image(path)
        book = LookBook(find_grid(image))
        pictures, crops = book.cut_cells(image)
        cells = [(r, c) for r in range(book.geometry.rows) for c in range(book.geometry.cols)]
        np.testing.assert_array_equal(
            np.stack(pictures), np.stack([book.picture(image, cell) for cell in cells])
        )
        alone = np.stack([book._compared(p) for p in pictures])
        # winemine's 16 px cells are not shrunk
        assert book.size < book.cut or skin == "winemine", path.name
        np.testing.assert_array_equal(crops, alone, err_msg=path.name)
        np.testing.assert_array_equal(book.crops(image, cells[::7]), alone[::7], err_msg=path.name)


def _window_differences_cell_by_cell(book: LookBook, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The definition of InkCheck.differences, one pair, one shift and one window at a time."""
    from bot.vision.ink import INK_WINDOW
    from bot.vision.looks import SHIFT

    n = book.cut
    w, m = max(2, round(INK_WINDOW * n)), max(1, round(SHIFT * n / book.size))
    out = []
    for x, y in zip(a, b, strict=True):
        best = np.inf
        for dy in range(-m, m + 1):
            for dx in range(-m, m + 1):
                # each pixel's difference in its worst colour channel
                d2 = (
                    np.abs(
                        x[m : n - m, m : n - m] - y[m + dy : n - m + dy, m + dx : n - m + dx]
                    ).max(axis=2)
                ) ** 2
                k = n - 2 * m
                top = max(
                    d2[i : i + w, j : j + w].sum()
                    for i in range(k - w + 1)
                    for j in range(k - w + 1)
                )
                best = min(best, float(np.sqrt(top / (w * w))))
        out.append(best)
    return np.array(out)


def test_window_differences_as_defined() -> None:
    """The windows' check, summed over all pairs as one picture, gives each pair's own figure."""
    image = load_image(ROOT / "fixtures/xbomb/beginner-five.png")
    book = LookBook(find_grid(image))
    pictures, _ = book.cut_cells(image)
    rng = np.random.default_rng(3)
    i, j = rng.integers(0, len(pictures), 6), rng.integers(0, len(pictures), 6)
    a, b = (np.stack([pictures[k] for k in ij]).astype(np.float32) for ij in (i, j))
    np.testing.assert_allclose(
        book.ink.differences(a, b),
        _window_differences_cell_by_cell(book, a, b),
        rtol=1e-4,
        atol=1e-3,
    )


@pytest.mark.slow
def test_cells_alike_by_their_windows_as_defined() -> None:
    """``alike`` decides the windows' check with less work (shifts nearest first, a shift ruled out
    round where a pair differed most; or first round where the cell's own look differs from the
    other, for rivals): the same answers as the check at every shift in full, for
    every cell of gnome-mines' 114 px cells against every look (alike or not), xbomb's thin digits
    on 50 px cells, and the web game's cells at 2x, each also cut as far off as a cell may sit."""
    from bot.vision.ink import INK_LIMIT

    for name in (
        "gnome-mines/beginner-lost-window-1200x1000.png",
        "xbomb/beginner-five.png",
        "nicegui-minesweeper/zoom200-shift3-game1-end.png",
    ):
        image = load_image(ROOT / "fixtures" / name)
        book = LookBook(find_grid(image))
        book.assign(image)
        pictures, _ = book.cut_cells(image)
        # and every cell cut as far off as a cell may sit: alike only at the farthest shift
        pictures = (
            pictures
            + LookBook(book.geometry.moved(book.ink.reach, -book.ink.reach)).cut_cells(image)[0]
        )[::3]
        cells, looks = (
            v.ravel() for v in np.meshgrid(np.arange(len(pictures)), np.arange(len(book)))
        )
        a = np.stack([pictures[i] for i in cells]).astype(np.float32)
        b = np.stack([book.pictures[k] for k in looks]).astype(np.float32)
        expected = book.ink.differences(a, b) < INK_LIMIT
        assert expected.sum() > 10 and (~expected).sum() > 10 and book.ink.reach > 1, name
        # and bounded first by where a cell's own look differs from the other (the rivals' check),
        # with the look each cell is nearest as its own, and with the next look (any look bounds it)
        nearest = np.maximum(book.nearest(book.compared(pictures), pictures)[0], 0)[cells]
        for own in (None, nearest, (looks + 1) % len(book)):
            fresh = LookBook(book.geometry)
            fresh.prototypes, fresh.pictures = book.prototypes, book.pictures
            got = fresh.alike(cells, looks, pictures, own=own)
            np.testing.assert_array_equal(got, expected, err_msg=name)


def test_a_learnt_pack_reads_covered_cells_over_a_picture_by_its_new_board() -> None:
    """kmines draws its cells over a background picture, so a covered cell looks different at each
    position: some are as near its empty cell (0) as its covered one, and a pack cannot tell them
    apart by its pictures. The new board a learnt pack keeps (boards/covered-RxC.png) says how each
    position looks covered: with it, every covered cell of the same game's screenshots is read, and
    none of them is read wrong (known_share checks)."""
    from bot.userdata import learnt_skins
    from bot.vision import load_packs
    from bot.vision.tiles import read_cells
    from bot.vision.writing import add_board, add_tiles, start_learnt_pack
    from tests.looks import known_share

    fresh = ROOT / "fixtures" / "kmines" / "beginner-fresh.png"
    image = load_image(fresh)
    book = LookBook(find_grid(image))
    pictures, _ = book.cut_cells(image)
    folder = learnt_skins() / "learnt-over-a-picture"
    start_learnt_pack(folder, book.cut, book.geometry.pitch, "safe", 100, 16.0)
    opened = load_image(fresh.with_name("beginner-more.png"))
    zero = tuple(
        int(v)
        for v in np.argwhere(read_label(fresh.with_name("beginner-more.board")).board.cells == 0)[0]
    )
    add_tiles(folder, {"covered": [pictures[0]], "0": [book.picture(opened, zero)]})
    (without,) = load_packs([folder.name])
    codes, scores = read_cells(image, book.geometry, without)
    assert (
        scores < LOOK_LIMIT
    ).mean() < 0.9  # the covered picture of one position reads too few of them
    assert add_board(folder, pictures, 9, 9) == "boards/covered-9x9.png"
    assert add_board(folder, pictures[::-1], 9, 9) is None  # kept, not overwritten
    (pack,) = load_packs([folder.name])
    np.testing.assert_array_equal(pack.new_board(9, 9), np.stack(pictures))
    codes, scores = read_cells(image, book.geometry, pack)
    assert (codes == COVERED).all() and (scores < LOOK_LIMIT).all()
    # opened cells are no covered cell's picture
    for other in (
        "beginner-midgame",
        "beginner-more",
    ):
        truth = read_label(fresh.with_name(f"{other}.board"))
        known_share(pack, fresh.with_name(f"{other}.png"), truth)
        codes, scores = read_cells(load_image(fresh.with_name(f"{other}.png")), book.geometry, pack)
        assert ((codes == COVERED) == (truth.board.cells == COVERED))[scores < LOOK_LIMIT].all()
        _as_on_new_board_is_every_cell_compared(
            pack, book.geometry, load_image(fresh.with_name(f"{other}.png"))
        )


def _as_on_new_board_is_every_cell_compared(
    pack: SkinPack, grid: Geometry, image: np.ndarray
) -> None:
    """A reading compares with the new board only the cells whose distances from the looks leave it
    in doubt: it finds what comparing every cell finds, on the screenshot and on it with a little
    noise (then no covered cell is its new-board self to the pixel)."""
    from bot.vision.looks import MOVED
    from bot.vision.tiles import _as_on_new_board, _look_book

    book = _look_book(grid, pack)
    noise = np.random.default_rng(5).integers(-4, 5, image.shape)
    for shot in (image, np.clip(image + noise, 0, 255).astype(np.uint8)):
        pictures = book.board_pictures(shot)
        plain, _ = book.known_distances(pictures)
        every = (
            book.drift(book.compared(pictures), book.compared(pack.new_board(grid.rows, grid.cols)))
            < MOVED
        )
        assert 0 < every.sum() < len(every)
        np.testing.assert_array_equal(_as_on_new_board(book, pack, pictures, plain), every)


@pytest.mark.parametrize("skin", ["gnome-mines", "kmines", "nicegui-minesweeper"])
def test_a_reading_compares_each_distinct_picture_once(
    skin: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading with a learnt pack, each distinct cell picture is compared with the looks once and
    remembered (most of a board is as it was at the last reading): the same distances as comparing
    every cell, and none worked out again on the next reading; a look added forgets them."""
    paths = sorted((ROOT / "fixtures" / skin).glob("*.png"))[:2]
    book = LookBook(find_grid(load_image(paths[0])))
    book.assign(load_image(paths[0]))
    compared: list[int] = []
    distances = LookBook.distances

    def counted(
        self: LookBook, crops: np.ndarray, prototypes: np.ndarray | None = None, shifts: bool = True
    ) -> np.ndarray:
        compared.append(len(crops))
        return distances(self, crops, prototypes, shifts)

    monkeypatch.setattr(LookBook, "distances", counted)
    for path in paths:
        image = load_image(path)
        here = LookBook(find_grid(image))
        if here.cut != book.cut:
            continue
        placed = book.placed(here.geometry)
        pictures, crops = placed.cut_cells(image)
        plain, shifted = placed.known_distances(np.stack(pictures))
        # float32 products come out a hair apart with how many rows are multiplied together
        np.testing.assert_allclose(
            plain, distances(placed, crops, shifts=False), atol=0.2, err_msg=path.name
        )
        np.testing.assert_allclose(shifted, distances(placed, crops), atol=0.2, err_msg=path.name)
        compared.clear()
        placed.known_distances(np.stack(pictures))
        assert compared == []
    book.add(pictures[0])
    book.known_distances(np.stack(pictures))
    assert sum(compared) == 2 * len({p.tobytes() for p in pictures})


def test_pictures_are_numbered_by_all_their_bytes_not_only_those_they_are_looked_up_by(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A picture is looked up by a sample of its bytes: pictures that share it but differ elsewhere
    get numbers of their own, the same picture (also a view into a bigger image) its own number
    again, and past KEPT_MOST pictures a forgotten one gets a number never given before."""
    from bot.vision import memo

    monkeypatch.setattr(memo, "KEPT_MOST", 3)
    numbers = memo.Numbers()
    picture = np.random.default_rng(3).integers(0, 256, (9, 9, 3), dtype=np.uint8)
    other = picture.copy()
    other.reshape(-1)[1] ^= 1  # a byte off the sample
    assert other.tobytes()[:: memo.SAMPLE] == picture.tobytes()[:: memo.SAMPLE]
    board = np.zeros((20, 20, 3), dtype=np.uint8)
    board[5:14, 7:16] = picture
    assert [numbers.of(p) for p in (picture, other, board[5:14, 7:16], other)] == [0, 1, 0, 1]
    third, fourth = picture // 2, picture // 3
    assert [numbers.of(p) for p in (third, fourth, picture)] == [2, 3, 4]


def test_a_learnt_pack_checks_a_picture_window_by_window_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """gnome-mines lays its cells out at a fractional pitch, so nearly every cell is a little off its
    look and is checked window by window: once per distinct picture and look in a reading, and not
    again in the next readings of the game (it took 300-470 ms per reading of 480 cells)."""
    from bot.vision.bench import _learnt_pack
    from bot.vision.tiles import read_cells

    path = ROOT / "fixtures/gnome-mines/expert-fresh-window-1650x850.png"
    image = load_image(path)
    grid = find_grid(image)
    pack = _learnt_pack(path, image, grid)
    pairs: list[int] = []
    checked = InkCheck.alike

    def counted(
        ink: InkCheck, a: np.ndarray, b: np.ndarray, hint: Hint | None = None
    ) -> np.ndarray:
        pairs.append(len(a))
        return checked(ink, a, b, hint)

    monkeypatch.setattr(InkCheck, "alike", counted)
    codes, _ = read_cells(image, grid, pack)
    np.testing.assert_array_equal(codes, read_label(path.with_suffix(".board")).board.cells)
    distinct = len({p.tobytes() for p in LookBook(grid).cut_cells(image)[0]})
    assert 0 < sum(pairs) <= 2 * distinct < grid.rows * grid.cols
    pairs.clear()
    again, _ = read_cells(image, grid.moved(0, 0), pack)
    np.testing.assert_array_equal(again, codes)
    assert sum(pairs) == 0


@pytest.mark.slow
@pytest.mark.parametrize(
    "shot", ["gnome-mines/expert-fresh-hover-window-1150x640", "sgt-mines/beginner-fresh"]
)
def test_a_learnt_pack_is_lined_up_with_its_new_board(shot: str) -> None:
    """A learnt pack keeps the picture of its covered look, the first cell that showed it: an edge
    cell, with the board's border in it (sgt-mines), or one from any row, and gnome-mines lays its
    cells out in whole pixels at a fractional pitch (30.937 px). Such a picture may match most cells
    of the board exactly a pixel off where the learner cut them (and its new board): gnome-mines'
    from rows 0, 14 and 15 lined up 1-3 px low, sgt-mines' from (0,0) 1 px left, and the learner,
    seeing every cell off its new board, took none for covered ("the look of cell (0,0) can show no
    number"; "minebot learns and plays from a new game"). A pack that keeps its new board is lined
    up where that board's cells are, whichever cell its covered picture came from."""
    from bot.userdata import learnt_skins
    from bot.vision import load_packs, locate
    from bot.vision.writing import add_board, add_tiles, start_learnt_pack

    fresh = load_image(ROOT / "fixtures" / f"{shot}.png")
    # the lattice fitted to a screen may sit a pixel off another's
    for dx, dy in (
        (0, 0),
        (1, 0),
        (0, 1),
    ):
        grid = find_grid(fresh).moved(dx, dy)
        book = LookBook(grid)
        pictures, _ = book.cut_cells(fresh)
        for row in range(grid.rows):
            for col in (0, 3):
                folder = (
                    learnt_skins()
                    / f"learnt-lined-up-{shot.replace('/', '-')}-{dx}{dy}-{row}-{col}"
                )
                start_learnt_pack(folder, book.cut, grid.pitch, "safe", 100, 16.0)
                add_tiles(folder, {"covered": [pictures[row * grid.cols + col]]})
                add_board(folder, pictures, grid.rows, grid.cols)
                (pack,) = load_packs([folder.name])
                geo = locate(fresh, [pack])
                assert (
                    max(abs(a - b) for a, b in zip(geo.origin, grid.origin, strict=True)) < 0.01
                ), (dx, dy, row, col, geo.origin)


def test_cells_are_cut_at_the_same_pixels_whatever_rounding_noise_the_fit_leaves() -> None:
    """A lattice fitted to a screen leaves float noise: sgt-mines' cells came out 19.999999999999986
    px on one screen, a hair over 20 on the next. Centres half a pixel off the pixels' centres were
    cut a pixel apart from one run to the next at some columns, so a learnt pack's new board did not
    match the next run's board there (the learner took none of those cells for covered: "minebot
    learns and plays from a new game")."""
    from dataclasses import replace

    image = load_image(ROOT / "fixtures/sgt-mines/beginner-fresh.png")
    grid = find_grid(image)
    assert grid.origin[0] % 1 == 0.5  # cell centres between pixels: where noise decides
    cut = LookBook(grid).cut_cells(image)[0]
    for noise in (-3e-14, -1e-14, 1e-14, 3e-14):
        for moved in (
            replace(grid, cell_px=grid.cell_px + noise),
            replace(grid, pitch=(grid.pitch[0] + noise, grid.pitch[1] + noise)),
            replace(grid, origin=(grid.origin[0] + noise, grid.origin[1] + noise)),
        ):
            again = LookBook(moved).cut_cells(image)[0]
            assert all(np.array_equal(a, b) for a, b in zip(cut, again, strict=True)), moved


def test_a_learnt_pack_is_lined_up_where_most_of_its_new_board_is() -> None:
    """A pack learnt before cells were cut at the same pixels whatever the noise (the test above)
    may hold a new board whose first two columns were cut a pixel left of the others, and the
    covered picture of cell (0,0): sgt-mines' picture then matched every cell a pixel left, and the
    pack lined up there, off its new board in seven columns of nine. Cells as on the new board count
    first: it lines up where they are most."""
    from bot.userdata import learnt_skins
    from bot.vision import load_packs, locate
    from bot.vision.writing import add_board, add_tiles, start_learnt_pack

    image = load_image(ROOT / "fixtures/sgt-mines/beginner-fresh.png")
    grid = find_grid(image)
    book = LookBook(grid)
    here, left = book.cut_cells(image)[0], LookBook(grid.moved(-1, 0)).cut_cells(image)[0]
    board = [left[i] if i % grid.cols < 2 else here[i] for i in range(len(here))]
    folder = learnt_skins() / "learnt-before-the-rounding-fix"
    start_learnt_pack(folder, book.cut, grid.pitch, "safe", 100, 16.0)
    add_tiles(folder, {"covered": [board[0]]})
    add_board(folder, board, grid.rows, grid.cols)
    (pack,) = load_packs([folder.name])
    assert locate(image, [pack]).origin == grid.origin


@pytest.mark.parametrize(
    "shot", ["classic98/beginner-fresh", "gnome-mines/expert-fresh-hover-window-1150x640"]
)
def test_a_look_is_kept_as_the_picture_it_showed_most_often(shot: str) -> None:
    """A look's first picture is the first cell that showed it: (0,0), which in these shots is not
    drawn like most covered cells (classic98's has the board's border in it; gnome-mines lays its
    cells out in whole pixels). The learner keeps the picture tallied most often; a look forgotten
    forgets its tally."""
    image = load_image(ROOT / "fixtures" / f"{shot}.png")
    book = LookBook(find_grid(image))
    looks = book.assign(image)
    book.tally(looks)
    covered = int(looks[0, 0])
    pictures = book.cut_cells(image)[0]
    counts = Counter(p.tobytes() for p in pictures)
    assert not np.array_equal(book.typical(covered), book.pictures[covered])
    assert counts[book.typical(covered).tobytes()] == max(counts.values())
    book.forget(0)
    book.add(pictures[0])
    assert np.array_equal(book.typical(0), pictures[0])


def test_a_learnt_pack_that_reads_a_new_board_as_well_as_a_shipped_one_is_taken() -> None:
    """pygame-minesweeper's new board is read by classic98's or winxp's colours (its covered tile
    is theirs), its opened board is not: a pack learnt on the game reads the new board as well and is
    taken, so that the next run plays with what it learnt (it learnt from nothing again, in the
    end-to-end test); where the learnt pack reads less, the shipped one stays."""
    from dataclasses import replace

    from bot.vision import load_packs, locate
    from bot.vision.bench import _learnt_pack

    played = ROOT / "fixtures" / "pygame-minesweeper" / "beginner-play.png"
    image = load_image(played)
    grid = find_grid(image)
    learnt = replace(_learnt_pack(played, image, grid), name="learnt-pygame")
    shipped = load_packs(["classic98", "winxp"])  # the web looks of Windows 98 and XP
    fresh = load_image(played.with_name("beginner-fresh.png"))
    assert locate(fresh, shipped).skin in ("classic98", "winxp")
    assert locate(fresh, [*shipped, learnt]).skin == "learnt-pygame"
    assert locate(image, [*shipped, learnt]).skin == "learnt-pygame"  # they cannot read it opened
    covered_only = replace(
        learnt, name="learnt-covered", tiles=tuple(t for t in learnt.tiles if t.code == COVERED)[:1]
    )
    winxp = load_image(ROOT / "fixtures" / "winxp" / "expert-midgame.png")
    assert locate(winxp, [*load_packs(["winxp"]), covered_only]).skin == "winxp"


@pytest.mark.parametrize(
    "shot",
    [
        "winxp/hidpi2x-expert-midgame",
        "winxp/hidpi2x-beginner-lost",
        "classic98/hidpi2x-beginner-won",
        "classic98/hidpi2x-expert-midgame",
        "gnome-mines/beginner-lost-window-1200x1000",
        "gnome-mines/beginner-lost-window-900x700",
        "gnome-mines/expert-fresh-window-1650x850",
    ],
)
def test_a_pack_is_lined_up_where_trying_every_offset_puts_it(
    shot: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At scales over 1 a shipped pack is lined up on its lattice by offsets a few pixels apart and
    then every offset round the best of them (a tenth of the work at 2x): it ends where trying every
    offset within reach puts it. gnome-mines' pack compares its 42 px tiles at 21 px, so its blur
    spans twice as many screen pixels: at its 47 and 76 px cells too (1.03x and 1.65x) the offsets
    tried first are 2 and 3 px apart."""
    from bot.vision import lineup, load_packs

    image = load_image(ROOT / f"fixtures/{shot}.png")
    grid = find_grid(image)
    (pack,) = load_packs([shot.split("/")[0]])
    scale = grid.pitch[0] / pack.pitch[0]
    assert lineup._step(pack, scale) > 1
    coarse, _ = lineup.line_up(image, grid, pack, scale)
    monkeypatch.setattr(lineup, "_step", lambda pack, scale: 1)
    every, _ = lineup.line_up(image, grid, pack, scale)
    assert coarse is not None and every is not None
    assert coarse.origin == every.origin


def test_a_board_laid_out_anew_is_not_where_it_was() -> None:
    """mfranceschi-minesweeper's cells are Tk buttons sized to their text: after the first click the
    columns that show a digit are 39 px wide, not 34. The learner read the new cells at the old
    places and stopped with "this board's looks admit no naming"; it must say the board moved."""
    from bot.vision.grid import lattice_moved

    fresh, later = (
        load_image(ROOT / f"fixtures/mfranceschi-minesweeper/relaid/{n}.png")
        for n in ("fresh", "first-click")
    )
    grid = find_grid(fresh)
    assert lattice_moved(fresh, grid) is None
    assert lattice_moved(later, grid) == "its cells are 39x31 px apart now, not 34x31"
    moved = np.full((fresh.shape[0] + 40, fresh.shape[1] + 40, 3), fresh[0, 0], np.uint8)
    moved[5 : 5 + fresh.shape[0], 7 : 7 + fresh.shape[1]] = fresh
    assert lattice_moved(
        moved, grid
    ) is not None and "about +7 px across and +5 px down" in lattice_moved(moved, grid)


def test_a_board_under_kmines_won_banner_is_where_it_was() -> None:
    """A CI run (2026-11-27) learning kmines at intermediate stopped at the end of its second game,
    won, with "its cells are 17.149x17.984 px apart now, not 18x18": its "Congratulations! You have
    won!" read as a lattice of 8x5 cells, found before the board's own 16x16 where it was (the two
    grabs here: the end of game 1, and the learner's last screen in game 2)."""
    from bot.vision.grid import lattice_moved

    before, banner = (
        load_image(ROOT / f"fixtures/kmines/won-banner/{n}.png")
        for n in ("game-1-end", "game-2-end")
    )
    assert lattice_moved(banner, find_grid(before)) is None


@pytest.mark.slow
def test_no_screenshot_of_a_board_says_it_moved_from_where_another_of_the_same_board_position_was() -> (
    None
):
    """Fresh, in play, won, lost, under the game's end drawn over it (kmines' "You have lost.", a
    pointer's highlight): every pair of screenshots whose boards lie at one place keeps the board
    where it was, so the learner never stops a game for a move that did not happen."""
    from itertools import permutations

    from bot.vision.grid import lattice_moved

    places: dict[tuple[object, ...], list[tuple[np.ndarray, Geometry]]] = {}
    for label in CASES:
        truth, image = read_label(label), load_image(label.with_suffix(".png"))
        places.setdefault(
            (label.parent.name, truth.origin, truth.pitch, truth.rows, truth.cols), []
        ).append((image, find_grid(image)))
    pairs = [(a, b) for shots in places.values() for a, b in permutations(shots, 2)]
    assert len(pairs) > 300
    assert not [
        said for (_, grid), (image, _) in pairs if (said := lattice_moved(image, grid)) is not None
    ]
