"""What a learnt game's first clicks say of its rule: whether it keeps the round of a first click clear."""

from __future__ import annotations

import math

from bot.board import neighbours
from bot.vision.geometry import Geometry
from bot.vocabulary import Cell

# the chance, were only the cell clicked kept clear, that every first click opened an area, under
# which a game is taken to open one at every first click (its rule "opening": the first click is
# then made where that opens most, bot/solver/guess.first_click)
OPENING_EVIDENCE = math.log(0.01)


def first_click_rule(counts: list[float]) -> dict[str, object]:
    """A learnt pack's rule from its first clicks on new boards, summed over runs (clicks, areas
    opened, the log of the chance that each of those areas opened were only the cell clicked kept
    clear): "opening" where every one opened an area and that chance is under 1%, else "safe".
    One first click that shows a number (or a mine) settles it: "safe" from then on.

    >>> first_click_rule([7, 7, -4.9]), first_click_rule([3, 3, -2.0]), first_click_rule([9, 8, -9.0])
    ({'rule': 'opening'}, {'rule': 'safe'}, {'rule': 'safe'})
    """
    clicks, areas, log_chance = counts
    return {"rule": "opening" if clicks == areas and log_chance < OPENING_EVIDENCE else "safe"}


def count_first_click(
    counts: tuple[int, int, float], geometry: Geometry, mines: int, cell: Cell, area: bool
) -> tuple[int, int, float]:
    """``counts`` (as first_click_rule takes them) with one more first click on a new board of
    ``geometry``'s size, at ``cell``, that opened an area or not."""
    n = geometry.rows * geometry.cols
    k = len(neighbours(geometry.rows, geometry.cols, cell))
    # its neighbours all clear
    chance = max(math.comb(n - 1 - k, mines) / math.comb(n - 1, mines), 1e-300)
    clicks, areas, log_chance = counts
    return clicks + 1, areas + area, log_chance + (math.log(chance) if area else 0.0)
