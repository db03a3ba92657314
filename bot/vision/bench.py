"""``minebot bench-vision``: how long finding and reading a board takes, per look and screenshot size."""

from __future__ import annotations

import contextlib
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from bot.errors import NoBoardFound, UsageError, VisionError
from bot.vision import load_image, load_packs, locate, pack_named
from bot.vision.geometry import Geometry
from bot.vision.grid import find_grid
from bot.vision.labels import read_label
from bot.vision.looks import LookBook
from bot.vision.pack import SkinPack, Tile
from bot.vision.saved import Saved, read_saved
from bot.vision.tiles import read_cells


def bench_vision(images: list[Path], repeat: int) -> None:
    """Print a table: for each look and screenshot size, the median and worst over the shots of
    each shot's median time of ``repeat`` runs (ms) to locate and read the board, with its pack
    and with none."""
    packs = load_packs()

    def timed(work: Callable[[], object]) -> float:
        """Median ms of ``repeat`` runs."""
        runs = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            work()
            runs.append(time.perf_counter() - t0)
        return 1000 * statistics.median(runs)

    def give_up(image: np.ndarray) -> None:
        with contextlib.suppress(NoBoardFound):
            locate(image, packs)

    # (skin, size): figures; a look no pack reads ("no pack"): the time every pack takes to give up
    per_shot: dict[tuple[str, str], list[tuple[float, float, float, float, float, int]]] = {}
    # the first shot is measured twice and its first figures dropped: the first of a process took
    # twice as long throughout its runs (classic98's first shot read in 8.0 ms, after another 4.1)
    for index, path in enumerate([images[0], *images]):
        image = load_image(path)
        grid = find_grid(image)
        gx, gy, gw, gh = grid.region(margin=2)
        grid_crop = np.ascontiguousarray(image[max(gy, 0) : gy + gh, max(gx, 0) : gx + gw])
        local_grid = grid.moved(-max(gx, 0), -max(gy, 0))
        learnt = _learnt_pack(path, grid_crop, local_grid)
        try:
            geo = locate(image, packs)
        except NoBoardFound:
            skin, with_pack = "no pack", (timed(lambda: give_up(image)), float("nan"))  # noqa: B023
        else:
            x, y, w, h = geo.region(margin=2)
            crop = np.ascontiguousarray(image[max(y, 0) : y + h, max(x, 0) : x + w])
            local, pack = geo.moved(-max(x, 0), -max(y, 0)), pack_named(packs, geo.skin)
            skin = geo.skin
            # the lambdas run at once, inside this pass of the loop
            with_pack = (
                timed(lambda: locate(image, packs)),  # noqa: B023
                timed(lambda: read_cells(crop, local, pack)),  # noqa: B023
            )
        figures = (
            per_shot.setdefault((skin, f"{image.shape[1]}x{image.shape[0]}"), []) if index else []
        )
        first = timed(lambda: read_cells(grid_crop, local_grid, replace(learnt)))  # noqa: B023 (a new pack: nothing remembered)
        figures.append(
            (
                *with_pack,
                timed(lambda: find_grid(image)),  # noqa: B023
                first,
                timed(lambda: read_cells(grid_crop, local_grid, learnt)),  # noqa: B023
                grid.rows * grid.cols,
            )
        )
    print(
        f"{'skin':12} {'screenshot':>10} {'shots':>5} {'locate, packs':>15} {'read, pack':>12} "
        f"{'locate, no pack':>16} {'learnt, 1st':>12} {'read, learnt':>12}  cells"
    )
    for (skin, size), rows in sorted(per_shot.items(), key=lambda kv: (kv[0][0], -len(kv[1]))):
        cols = [
            f"{statistics.median(v):6.1f} {max(v):6.1f}"
            for v in zip(*(r[:5] for r in rows), strict=True)
        ]
        print(
            f"{skin:12} {size:>10} {len(rows):5d} {cols[0]:>15} {cols[1]:>12} {cols[2]:>16} {cols[3]:>12} {cols[4]:>12}  "
            f"up to {max(r[5] for r in rows)}"
        )
    print(
        f"ms, median and max over the shots of each shot's median of {repeat} runs. locate, packs: find the board "
        "in the whole screenshot with every pack; read, pack: every cell from a capture of the board region; "
        "locate, no pack: find the board by its lattice alone; read, learnt: every cell from a capture of the "
        "board's region with a pack learnt from the shot's own looks, as every reading after a run's first (each "
        "picture compared once, then remembered); learnt, 1st: the same, a run's first reading (nothing remembered); "
        "skin 'no pack': screenshots no pack reads (locate, packs: "
        "until every pack gave up; nan: no figure)"
    )


def _learnt_pack(path: Path, image: np.ndarray, grid: Geometry) -> SkinPack:
    """A learnt pack of a screenshot's own looks, a picture each, as the learner keeps them: each
    named by the screenshot's true board where it has one, else by its number."""
    book = LookBook(grid)
    looks = book.assign(image)
    label = path.with_suffix(".board")
    truth = read_label(label).board.cells if label.is_file() else None
    tiles = []
    for k, picture in enumerate(book.pictures):
        where = np.argwhere(looks == k)
        code = (
            k
            if truth is None or truth.shape != looks.shape or not len(where)
            else int(truth[tuple(where[0])])
        )
        tiles.append(Tile(code, picture, f"look-{k}"))
    return SkinPack(
        name="bench",
        cell_px=book.cut,
        pitch=grid.pitch,
        rule="safe",
        scales=None,
        tiles=tuple(tiles),
        learnt=True,
    )


EDITS = {  # what a user may do to a screenshot before saving it (saved_ways): cut it, or leave something over the board
    "cells": "cut to the board's cells",
    "margin": "cut 3 px round the cells",
    "room": "cut 0.7 of a cell round the cells",
    "half": "cut half a cell into the top row and left column",
    "end": "cut half a cell into the bottom row and right column",
    "third": "cut a third of a cell into the outer columns",
    "row": "cut through the third row",
    "band": "a grey band across the middle fifth of the board",
    "box": "a grey box over the middle of the board",
    "corner": "a grey box over the board's bottom-right corner",
    "spotN": "a box of one colour (dark, mid-grey, light or white), of a random size and place over the board, drawn by seed N",
    "textN": "a box of text (a chat window: dark lines on white), of a random size and place over the board, drawn by seed N",
    "pointN": "a mouse pointer (a white arrow edged in black) over a random cell, at 1x or the game's scale, drawn by seed N",
}
SPOT_SHADES = (60, 128, 200, 240)
CHAT_LINES = (
    "New message: are we still on for lunch?",
    "ok",
    "1 2 3 4 5 6 7 8",
    "Meeting moved to 14:30, room 5",
    "||| --- ::: ###",
    "lol",
    "see you at 8",
)
# an arrow's outline at 1x
POINTER = np.array([(0, 0), (0, 16), (4, 12), (7, 19), (9, 18), (6, 11), (11, 11)], np.float32)


def _edit_named(name: str) -> str | None:
    """The key in EDITS of an edit (``spot3``: ``spotN``), or None for a name that is no edit."""
    seeded = f"{name.rstrip('0123456789')}N"
    return (
        name
        if name in EDITS
        else seeded
        if seeded in EDITS and name[len(seeded) - 1 :].isdigit()
        else None
    )


def saved_ways(images: list[Path], ways: list[str]) -> int:
    """Print, for each way a user may save a screenshot (``q80``: JPEG at quality 80; ``gray``;
    ``x1.7``: scaled 1.7 times; one of EDITS), how many of the labelled ``images`` that read right
    as they are read right saved that way, are refused, read another board and say so, and are
    read wrong (a part of the board, a cell misread, or a counter read as another number than the
    picture as it is shows: each named). Cut through cells or covered in part, no picture can read
    right: refused is the right answer. Returns the number read wrong."""
    packs = load_packs()
    # right, refused, another board said to be another, wrong
    counts = {way: [0, 0, 0, 0] for way in ways}
    wrong = 0
    for path in images:
        label = path.with_suffix(".board")
        if not label.is_file():
            continue
        truth, image = read_label(label).board.cells, load_image(path)
        try:
            as_it_is = read_saved(saved_as(image, None), packs)
        except VisionError:
            continue  # no pack reads it as it is: not a case for this table
        if (
            as_it_is.reading.board.cells.shape != truth.shape
            or not (as_it_is.reading.board.cells == truth).all()
        ):
            continue
        board, shown = as_it_is.reading.geometry, as_it_is.reading.counter
        for way in ways:
            picture = _saved_so(image, way, board)
            try:
                read = read_saved(picture, packs)
            except VisionError:
                counts[way][1] += 1
                continue
            cells = read.reading.board.cells
            right = cells.shape == truth.shape and bool((cells == truth).all())
            counted = read.reading.counter in (shown, None)
            column = 0 if right and counted else 2 if not read.biggest else 3
            counts[way][column] += 1
            if column == 3:
                wrong += 1
                print(
                    f"read wrong: {path} saved as {way}"
                    + ("" if counted else f" (counter {read.reading.counter}, not {shown})")
                )
    print(f"{'saved as':10} {'read right':>10} {'refused':>8} {'another':>8} {'wrong':>6}")
    for way, (good, refused, other, bad) in counts.items():
        print(f"{way:10} {good:10d} {refused:8d} {other:8d} {bad:6d}")
    print(
        "screenshots with a .board file that read right as they are, saved each way: read right, refused with "
        "one line, another board read and said to be another (the biggest did not read), or "
        "read wrong (a part of the board, a cell misread, or the counter as another number)"
    )
    for edit in dict.fromkeys(_edit_named(edit) for edit, _ in map(_edit_and_way, ways) if edit):
        print(f"{edit}: {EDITS[str(edit)]}")
    return wrong


def edited(image: np.ndarray, way: str, board: Geometry) -> Saved:
    """``image`` as a user would edit it round its ``board`` (a way in EDITS), as a PNG."""
    x, y, w, h = board.region()
    px, py = board.pitch
    cuts = {
        "cells": (x, y, x + w, y + h),
        "margin": (x - 3, y - 3, x + w + 3, y + h + 3),
        "room": (x - 0.7 * px, y - 0.7 * py, x + w + 0.7 * px, y + h + 0.7 * py),
        "half": (x + px / 2, y + py / 2, x + w, y + h),
        "end": (x - 10, y - 10, x + w - px / 2, y + h - py / 2),
        "third": (x + px / 3, y, x + w - px / 3, y + h),
        "row": (x - 10, y + 2.5 * py, x + w + 10, y + h + 10),
    }
    covers = {
        "band": (x - 20, y + 0.4 * h, x + w + 20, y + 0.6 * h),
        "box": (x + 0.25 * w, y + 0.3 * h, x + 0.75 * w, y + 0.7 * h),
        "corner": (x + 0.6 * w, y + 0.6 * h, x + w + 30, y + h + 30),
    }
    if way in cuts:
        x0, y0, x1, y1 = (max(round(v), 0) for v in cuts[way])
        return Saved(np.ascontiguousarray(image[y0:y1, x0:x1]), "PNG", False)
    covered = image.copy()
    if way in covers:
        x0, y0, x1, y1 = (max(round(v), 0) for v in covers[way])
        covered[y0:y1, x0:x1] = 200  # a dialog's grey, its top edge lit
        covered[y0 : y0 + 2, x0:x1] = 255
        return Saved(covered, "PNG", False)
    draw = random.Random(f"{way} {x},{y},{w},{h}")  # the same box for a board each run
    if way.startswith("point"):
        cx, cy, cw, ch = board.box(draw.randrange(board.rows), draw.randrange(board.cols))
        tip = (cx + draw.uniform(0.1, 0.9) * cw, cy + draw.uniform(0.1, 0.9) * ch)
        arrow = (POINTER * draw.choice((1.0, board.scale)) + tip).round().astype(np.int32)
        cv2.fillPoly(covered, [arrow], (255, 255, 255))
        cv2.polylines(covered, [arrow], True, (0, 0, 0), 1)
        return Saved(covered, "PNG", False)
    bw, bh = draw.uniform(0.1, 0.6) * w, draw.uniform(0.1, 0.6) * h
    left, top = x + draw.uniform(-0.2, 1.0) * w - bw / 2, y + draw.uniform(-0.2, 1.0) * h - bh / 2
    x0, y0, x1, y1 = (max(round(v), 0) for v in (left, top, left + bw, top + bh))
    x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
    if way.startswith("spot"):
        covered[y0:y1, x0:x1] = draw.choice(SPOT_SHADES)
        return Saved(covered, "PNG", False)
    # a chat window: dark lines of text in a grey frame
    box = np.full((max(y1 - y0, 0), max(x1 - x0, 0), 3), 255, np.uint8)
    if box.size:
        box[[0, -1], :] = box[:, [0, -1]] = 160
        for line in range(1, box.shape[0] // 16 + 1):
            cv2.putText(
                box,
                draw.choice(CHAT_LINES),
                (4, 16 * line - 3),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.45,
                (30, 30, 30),
                1,
                cv2.LINE_AA,
            )
    covered[y0:y1, x0:x1] = box
    return Saved(covered, "PNG", False)


def _saved_so(image: np.ndarray, way: str, board: Geometry) -> Saved:
    """``image`` saved one way, or edited then saved (``cells+q80``: cut to the cells, as JPEG at 80)."""
    edit, then = _edit_and_way(way)
    picture = edited(image, edit, board) if edit else saved_as(image, None)
    return saved_as(picture.image, then) if then else picture


def _edit_and_way(way: str) -> tuple[str, str]:
    """A way as its edit and its way of saving, either one "" where it has none: ``cells+q80``:
    ("cells", "q80"); ``cells``: ("cells", ""); ``q80``: ("", "q80")."""
    edit, _, then = way.rpartition("+")
    return (then, "") if not edit and _edit_named(then) else (edit, then)


def saved_as(image: np.ndarray, way: str | None) -> Saved:
    """``image`` as a user would save it: ``qN`` JPEG at quality N, ``gray``, ``xS`` scaled S times; None: as it is."""
    if way is None:
        return Saved(image, "PNG", False)
    kind, number = way_of_saving(way)
    if kind == "q":
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(number)])
        return Saved(np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR)), "JPEG", False)
    if kind == "gray":
        return Saved(
            cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR), "PNG", True
        )
    how = cv2.INTER_AREA if number < 1 else cv2.INTER_LINEAR
    return Saved(cv2.resize(image, None, fx=number, fy=number, interpolation=how), "PNG", False)


def way_of_saving(way: str) -> tuple[str, float]:
    """A way to save a screenshot, parsed: ("q", quality), ("gray", 0), ("x", scale) or (an edit, 0);
    UsageError for another (said before any work: ``x0.5`` once went to a resize of a 1x1 picture, a
    traceback). An edit then a way (``cells+q80``) is the way's."""
    edit, way = _edit_and_way(way)
    if edit and not _edit_named(edit):
        raise UsageError(f"{edit!r} is not an edit of a screenshot: one of {', '.join(EDITS)}")
    if not way:
        return edit, 0.0
    kind, number = ("gray", "0") if way == "gray" else (way[:1], way[1:])
    try:
        value = float(number)
    except ValueError:
        value = -1.0
    if (
        kind == "gray"
        or (kind == "q" and number.isdigit() and 1 <= value <= 100)
        or (kind == "x" and 0.1 <= value <= 10)
    ):
        return kind, value
    raise UsageError(
        f"{way!r} is not a way to save a screenshot: qN (JPEG, quality N from 1 to 100), gray, xS "
        f"(scaled S times, S from 0.1 to 10) or one of {', '.join(EDITS)}, or an edit then a way: cells+q80"
    )
