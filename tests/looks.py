"""Helpers for tests of looks: a screenshot read with a learnt pack cell by cell, and the fresh board
of the same game that a learner would have seen first."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bot.vision import load_image
from bot.vision.grid import find_grid
from bot.vision.labels import Labelled, read_label
from bot.vision.lineup import line_up
from bot.vision.looks import LOOK_LIMIT, LookBook
from bot.vision.pack import SkinPack
from bot.vision.tiles import read_cells
from bot.vocabulary import CHAR_OF, CODE_OF


def known_share(pack: SkinPack, screenshot: Path, truth: Labelled) -> float:
    """The share of a screenshot's cells showing values a learnt pack holds that it reads, once its
    pictures are lined up with the cells; fails the test if any cell it reads is not the true value.
    A cell whose look the pack never saw (a value it never learnt; or one drawn a little
    differently: gnome-mines lays a board out anew in each window) matches no picture within the
    limits and is not read."""
    image = load_image(screenshot)
    grid = find_grid(image)
    assert (grid.rows, grid.cols) == (truth.rows, truth.cols), screenshot.stem
    geo, _ = line_up(image, grid, pack, grid.pitch[0] / pack.pitch[0])
    assert geo is not None
    codes, scores = read_cells(image, geo, pack)
    within = scores < LOOK_LIMIT
    wrong = np.argwhere(within & (codes != truth.board.cells))
    misread = [
        f"{tuple(c)} {CHAR_OF[int(truth.board.cells[tuple(c)])]} as {CHAR_OF[int(codes[tuple(c)])]}"
        for c in wrong[:5]
    ]
    assert not len(wrong), f"{screenshot.stem}: {len(wrong)} cells misread: {', '.join(misread)}"
    held = np.isin(truth.board.cells, pack.codes())
    return float(within[held].mean()) if held.any() else 1.0


def fresh_board(book: LookBook, path: Path, truth: Labelled) -> tuple[np.ndarray | None, list[int]]:
    """The covered pictures of a fresh board of the same game recorded at the same place (NaN where
    it shows no covered cell), sorted into ``book`` first, and their looks; else (None, [])."""
    for other in sorted(path.parent.glob("*fresh*.board")):
        fresh = read_label(other)
        if other != path and (fresh.origin, fresh.pitch, fresh.rows, fresh.cols) == (
            truth.origin,
            truth.pitch,
            truth.rows,
            truth.cols,
        ):
            looks = book.assign(load_image(other.with_suffix(".png"))).ravel()
            hidden = fresh.board.cells.ravel() == CODE_OF["#"]
            reference = np.where(hidden[:, None, None, None], book.shown, np.nan)
            return reference, sorted({int(k) for k in looks[hidden]})
    return None, []
