"""``minebot bench-vision``: how long finding and reading a board takes, per look and screenshot size."""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bot.errors import NoBoardFound
from bot.vision import load_image, load_packs, locate, pack_named
from bot.vision.grid import find_grid
from bot.vision.looks import LookBook
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
    per_shot: dict[tuple[str, str], list[tuple[float, float, float, float, int]]] = {}
    for path in images:
        image = load_image(path)
        grid = find_grid(image)
        gx, gy, gw, gh = grid.region(margin=2)
        grid_crop = np.ascontiguousarray(image[max(gy, 0) : gy + gh, max(gx, 0) : gx + gw])
        book = LookBook(grid.moved(-max(gx, 0), -max(gy, 0)))
        book.assign(grid_crop)  # the looks known, as while playing
        try:
            geo = locate(image, packs)
        except NoBoardFound:
            skin, with_pack = "no pack", (timed(lambda: give_up(image)), float("nan"))  # noqa: B023
        else:
            x, y, w, h = geo.region(margin=2)
            crop = np.ascontiguousarray(image[max(y, 0) : y + h, max(x, 0) : x + w])
            local, pack = geo.moved(-max(x, 0), -max(y, 0)), pack_named(packs, geo.skin)
            skin = geo.skin
            with_pack = (timed(lambda: locate(image, packs)), timed(lambda: read_cells(crop, local, pack)))  # noqa: B023 (timed at once)
        per_shot.setdefault((skin, f"{image.shape[1]}x{image.shape[0]}"), []).append((
            *with_pack, timed(lambda: find_grid(image)), timed(lambda: book.assign(grid_crop)), grid.rows * grid.cols,  # noqa: B023
        ))
    print(f"{'skin':12} {'screenshot':>10} {'shots':>5} {'locate, packs':>15} {'read, pack':>12} "
          f"{'locate, no pack':>16} {'read, looks':>12}  cells")
    for (skin, size), rows in sorted(per_shot.items(), key=lambda kv: (kv[0][0], -len(kv[1]))):
        cols = [f"{statistics.median(v):6.1f} {max(v):6.1f}" for v in zip(*(r[:4] for r in rows), strict=True)]
        print(f"{skin:12} {size:>10} {len(rows):5d} {cols[0]:>15} {cols[1]:>12} {cols[2]:>16} {cols[3]:>12}  "
              f"up to {max(r[4] for r in rows)}")
    print(f"ms, median and max over the shots of each shot's median of {repeat} runs. locate, packs: find the board "
          "in the whole screenshot with every pack; read, pack: every cell from a capture of the board region; "
          "locate, no pack: find the board by its lattice alone; read, looks: every cell sorted into its look, "
          "as a learnt look is read while playing; skin 'no pack': screenshots no pack reads (locate, packs: until "
          "every pack gave up; nan: no figure)")
