"""A guess that showed only looks never named (a suspect guess): the game may have been lost there,
told by what the game does next (bot/learning/outcome.py, Judge; bot/learning/learn.py)."""

from __future__ import annotations

from typing import TextIO

import numpy as np

from bot.learning.naming import Looks
from bot.vocabulary import EXPLODED, MINE, NUMBERS, Cell

# A guess that showed only looks never named, the board still nameable: a number and the area it
# opened, or the exploded mine of a lost game and the mines it shows beside it (winemine when
# every other mine is flagged or next to it; sgt-mines shows none): the cell, its look, what was
# known of the looks before, and the looks of the other cells that changed.
Suspect = tuple[Cell, int, dict[int, frozenset[int]], set[int]]


class SuspectGuess:
    """What a Judge knows of a suspect guess, and how it tells the guess lost."""

    looks: Looks
    mines: int | None
    out: TextIO
    suspect: Suspect | None
    last_guess: Suspect | None

    def lost_on_suspect(self, why: str = "the game stopped answering") -> bool:
        """The game stopped answering after a suspect guess (or ``why`` else it was over): the game
        was lost there. Its look is the exploded mine, the other new looks beside it mines, and
        nothing learnt since (the look taken for a number) holds. False where there is no such guess."""
        if self.suspect is None:
            return False
        cell, look, known, beside = self.suspect
        self.looks.possible = known
        self.looks.ends[look] = EXPLODED
        for other in beside - {look}:  # the mines a lost game shows (next to the one hit)
            self.looks.ends.setdefault(other, MINE)
        print(
            f"minebot: {why} after the guess at {cell} showed looks never seen: "
            "lost there, and that look is the exploded mine",
            file=self.out,
        )
        return True

    def ended_at_suspect(
        self, suspect: Suspect | None, clicked: list[Cell], before: np.ndarray, after: np.ndarray
    ) -> bool:
        """After a suspect guess, clicks on cells called safe that leave as many cells hidden as
        there are mines (a win, were they safe): whether one of them shows a look never named where
        the number a win leaves there has a look named already (_not_its_number, with the looks as
        named before the guess). It showed no number: the game was over at the guess, a last 50/50
        lost whose other mine the game drew after the guard's look before the click (the mine hit
        had been named a number, so that cell was called safe). gnome-mines learnt on a busy machine
        counted such a game won, 2026-11-29. Then learnt as lost_on_suspect does, the clicked
        cells' looks mines. (``suspect``: the guess as it stood before the clicks, which cleared it
        once they showed: answered.)"""
        if suspect is None or not clicked:
            return False
        mines_if_won = np.isin(before, list(self.looks.hidden))
        for cell in clicked:
            mines_if_won[cell] = False
        if int(mines_if_won.sum()) != self.mines:
            return False
        # the looks as named before the guess: the mine hit may be named a number since
        look, known = (
            suspect[1],
            suspect[2],
        )
        shown = [cell for cell in clicked if self._not_its_number(cell, after, mines_if_won, known)]
        if not shown:
            return False
        self.suspect = suspect
        self.lost_on_suspect("the last cells called safe showed no number")
        for cell in shown:
            if int(after[cell]) != look:
                self.looks.ends.setdefault(int(after[cell]), MINE)
        return True

    def _not_its_number(
        self,
        cell: Cell,
        after: np.ndarray,
        hidden: np.ndarray,
        possible: dict[int, frozenset[int]] | None = None,
    ) -> bool:
        """Whether the guessed ``cell``, the last but the mines were it safe, shows no number: a look
        never named where the number it would show (the hidden cells round it, all mines then) has
        a look named already (as ``possible`` names the numbers, if given), in a game whose values
        each show one look. It is then the exploded mine (winemine showed nothing else after such a
        loss, every other mine flagged: the hidden cells left were as many as the mines, as after a win)."""
        known = self.looks.names(possible)
        look = int(after[cell])
        values = [code for code in known.values() if code in NUMBERS]
        if look in known or len(values) != len(set(values)):
            return False
        r, c = cell
        around = int(hidden[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2].sum())
        return around in values

    def lost_after_all(self, now: np.ndarray) -> bool:
        """A game judged won, read again once still (``now``): whether the cell of its last guess
        still shows the look it showed when judged, and the looks as named before the guess say it is no
        number there (_not_its_number, the cells hidden now as many as the mines, as at a win). The
        game was lost at that guess, whatever path judged it won: gnome-mines, learnt in a clean run
        of the suite, counted such a game won again after ended_at_suspect (its last screen: the
        mine hit beside the other mine of the 50/50, the two safe cells covered), and the 98-style
        page at 1.25x once more with it, its guess not suspect then. Then learnt as lost_on_suspect does."""
        if self.last_guess is None:
            return False
        cell, look, known, _ = self.last_guess
        hidden = np.isin(now, list(self.looks.hidden))
        if (
            int(now[cell]) != look
            or int(hidden.sum()) != self.mines
            or not self._not_its_number(cell, now, hidden, known)
        ):
            return False
        self.suspect = self.last_guess
        self.lost_on_suspect("the board of a game judged won, once still, shows no number")
        return True
