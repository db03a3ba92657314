"""The solver's small result values."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from bot.vocabulary import Cell

Action = Literal["reveal", "flag", "chord"]
Reason = Literal["safe", "mine", "guess", "first"]


@dataclass(frozen=True)
class Move:
    cell: Cell
    action: Action = "reveal"
    probability: float = 0.0  # chance that ``cell`` holds a mine
    reason: Reason = "safe"

    def __str__(self) -> str:
        r, c = self.cell
        risk = "" if self.reason == "safe" else f" (mine chance {self.probability:.1%})"
        return f"{self.action} ({r},{c}) [{self.reason}]{risk}"


@dataclass(frozen=True, eq=False)
class Analysis:
    """What a strategy concluded about one board.

    ``probabilities`` is a grid like the board's with the mine chance of every unknown cell and
    NaN elsewhere (``None`` for strategies that compute none). ``exact`` is False when an
    approximation stood in for enumeration; ``note`` says why.
    """

    safe: frozenset[Cell]
    mines: frozenset[Cell]
    move: Move | None
    probabilities: np.ndarray | None = None
    exact: bool = True
    note: str = ""
    strategy: str = ""
    details: dict[str, float] = field(default_factory=dict)
