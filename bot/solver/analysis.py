"""The solver's small result values."""

from __future__ import annotations

import math
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
    # chance that ``cell`` holds a mine; NaN: unknown (no mine count, a first click)
    probability: float = 0.0
    reason: Reason = "safe"

    def __str__(self) -> str:
        r, c = self.cell
        chance = "unknown" if math.isnan(self.probability) else f"{self.probability:.1%}"
        risk = "" if self.reason == "safe" else f" (mine chance {chance})"
        return f"{self.action} ({r},{c}) [{self.reason}]{risk}"

    @property
    def chance(self) -> float | None:
        """The mine chance for output: None where it is unknown (JSON has no NaN)."""
        return None if math.isnan(self.probability) else self.probability


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

    def text(self) -> str:
        """The advice as every command prints it: cells as (row,col)."""
        lines = [
            f"safe:  {' '.join(f'({r},{c})' for r, c in sorted(self.safe)) or '-'}",
            f"mines: {' '.join(f'({r},{c})' for r, c in sorted(self.mines)) or '-'}",
            f"move:  {self.move if self.move else 'none'}",
        ]
        return "\n".join(lines + ([f"note:  {self.note}"] if self.note else []))

    def as_dict(self) -> dict[str, object]:
        """The advice as every ``--json`` prints it (no NaN: JSON has none)."""
        move, probs = self.move, self.probabilities
        return {
            "strategy": self.strategy,
            "safe": sorted(self.safe),
            "mines": sorted(self.mines),
            "move": None
            if move is None
            else {
                "cell": move.cell,
                "action": move.action,
                "reason": move.reason,
                "probability": move.chance,
            },
            "exact": self.exact,
            "note": self.note,
            "probabilities": None
            if probs is None
            else [[None if np.isnan(v) else round(float(v), 6) for v in row] for row in probs],
        }
