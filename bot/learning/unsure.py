"""A learning game counted won on a last guess whose cell showed a look never named, kept unsure
until the looks named later tell how it ended (bot/learning/outcome.py, Judge.told)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.board import neighbour_sum
from bot.learning.endface import EndFaces
from bot.learning.naming import Looks
from bot.vocabulary import EXPLODED, MINE, NUMBERS, Cell, State

UNSEEN = -1  # the look of a guessed cell the game drew its end over: no look, never named


@dataclass(frozen=True, eq=False)
class Unsure:
    """The guessed cell showed a number first seen, or the mine hit of a last 50/50 lost, every
    other mine flagged (minegauler, kmines). Were it won, the cells hidden before the guess but the
    one guessed are the mines (``mines``; None where they are not as many as the mines), and each
    revealed cell of ``before`` shows how many are round it."""

    cell: Cell
    look: int  # the look the guessed cell showed
    before: np.ndarray  # the looks before the guess
    mines: np.ndarray | None
    # the strip above the board at its end, where its face did not tell then
    strip: np.ndarray | None = None

    def ended(self, looks: Looks, faces: EndFaces | None = None) -> State | None:
        """How the game ended, as ``looks`` named now tell (_by_looks); else as its face at its end
        tells now that ``faces`` has learnt more ends (EndFaces.tell); None while nothing tells."""
        told = self._by_looks(looks)
        return (
            told
            if told is not None or faces is None or self.strip is None
            else faces.tell(self.strip)
        )

    def _by_looks(self, looks: Looks) -> State | None:
        """How the game ended, as ``looks`` named now tell: lost where the guessed cell's look is a
        mine, or where a win's mines would leave a number round it other than its look may show
        (kmines: a 50/50 lost beside a 4 whose look was named a game later, where a win leaves a 3);
        won where the look is the number a win leaves there; None while nothing tells."""
        code = looks.names().get(self.look)
        if code in (EXPLODED, MINE):
            return "lost"
        if self.mines is None:
            return None if code is None else "won"
        counts = neighbour_sum(self.mines)
        if code is not None:
            return "won" if code == counts[self.cell] else "lost"
        revealed = ~np.isin(self.before, list(looks.hidden))
        revealed[self.cell] = False
        for look in np.unique(self.before[revealed]):
            shows = looks.possible.get(int(look), NUMBERS)
            if not np.isin(counts[revealed & (self.before == look)], list(shows)).all():
                return "lost"
        return None
