"""Reading a screenshot with a learnt pack cell by cell, for tests that check what a pack learnt."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bot.vision import load_image
from bot.vision.grid import find_grid
from bot.vision.labels import Labelled
from bot.vision.looks import LOOK_LIMIT
from bot.vision.pack import SkinPack
from bot.vision.read import _line_up, read_cells


def known_share(pack: SkinPack, screenshot: Path, truth: Labelled) -> float:
    """The share of a screenshot's cells showing values a learnt pack holds that it reads, once its
    pictures are lined up with the cells; fails the test if any cell it reads is not the true value.
    A cell whose look the pack never saw (a value it never learnt; or one drawn a little
    differently: gnome-mines lays a board out anew in each window) matches no picture within the
    limits and is not read."""
    image = load_image(screenshot)
    grid = find_grid(image)
    assert (grid.rows, grid.cols) == (truth.rows, truth.cols), screenshot.stem
    codes, scores = read_cells(image, _line_up(image, grid, pack, grid.pitch[0] / pack.pitch[0]), pack)
    within = scores < LOOK_LIMIT
    wrong = np.argwhere(within & (codes != truth.board.cells))
    assert not len(wrong), f"{screenshot.stem}: cells {wrong.tolist()[:5]} misread"
    held = np.isin(truth.board.cells, pack.codes())
    return float(within[held].mean()) if held.any() else 1.0
