"""How a click went in a game whose looks are being learnt: told from what changed on the board.

A click opens its cell, and a 0 its neighbours: what changed is joined to the cells clicked.
Anything else that changed is the game's doing at its end (every safe cell open: won; the mines
shown: lost), or something it drew across the board (a dialog). A lost game's end names looks: the
clicked cell shows the exploded mine, the other hidden cells that changed show mines.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TextIO

import cv2
import numpy as np

from bot.board import neighbour_sum
from bot.errors import InconsistentBoard, ScreenError
from bot.learning.endface import EndFaces
from bot.learning.naming import Looks, Naming, name_looks, renamed
from bot.learning.suspect import Suspect, SuspectGuess
from bot.learning.unsure import UNSEEN, Unsure
from bot.vocabulary import CHAR_OF, EXPLODED, FLAG, MINE, NUMBERS, Cell, State

OVERLAY_CELLS = 3  # revealed cells showing other looks that say something is drawn across the board
# of the revealed cells, the share that show another look under a veil over the whole board
VEILED = 0.8
UNNAMED = 99  # the value of a look not named yet (none of the cell codes)
# more of the board than any game mines: what a lost game's end changed where the mine count is
# unknown is then every cell shown (xbomb), not its mines
DENSEST = 0.35
CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)  # a cell and the 4 beside it


def apart(clicked: list[Cell], changed: np.ndarray) -> np.ndarray:
    """The ``changed`` cells not joined to a clicked cell by changed cells: what a click (and a
    0's area) cannot have opened; the game's doing at its end."""
    _, parts = cv2.connectedComponents(changed.astype(np.uint8), connectivity=8)
    return changed & ~np.isin(parts, [parts[c] for c in clicked if changed[c]])


def opened_area(
    clicked: list[Cell],
    changed: np.ndarray,
    may_be_zero: np.ndarray,
    covered: np.ndarray,
    may_chord: np.ndarray,
    flood: int = 8,
) -> np.ndarray:
    """The ``changed`` cells the clicks can have opened: each clicked cell, and round every opened
    cell that may be a 0 (a look that may show 0, with no covered neighbour: a 0 opens them all)
    its changed neighbours, and so on. A cell that shows a number opens nothing round it, but one
    of several clicked may (where ``may_chord``: its flags account for it, or its look is not named):
    an earlier click opened it, and gnome-mines takes a click on a number whose mines are flagged as
    a chord, opening the rest round it. (A number whose flags do not account for it opens nothing:
    the 98-style page's lost guess, judged with the clicks before it, had the mines it showed taken
    as opened round a 3 clicked before, and the run stopped: "cannot tell some of this board's looks apart".)"""
    reached = np.zeros(changed.shape, np.uint8)
    for cell in clicked:
        reached[cell] = 1
    # the neighbours a 0 opens: all 8, or the 4 beside it (``flood``)
    kernel = np.ones((3, 3), np.uint8) if flood == 8 else CROSS
    spreads = may_be_zero & ~cv2.dilate(covered.astype(np.uint8), kernel).astype(bool)
    chords = reached.astype(bool) & may_chord
    spreads = (spreads | (chords if len(clicked) > 1 else False)).astype(np.uint8)
    while True:
        grown = reached | (cv2.dilate(reached & spreads, kernel) & changed.astype(np.uint8))
        if np.array_equal(grown, reached):
            return reached.astype(bool)
        reached = grown


def guess_part(clicked: list[Cell], changed: np.ndarray) -> np.ndarray:
    """Of the ``changed`` cells after a guess (``clicked[0]``; the cells after it, clicks judged with it:
    Judge.joined), those the guess's click drew: all, after the guess alone; else those not joined to
    the other clicks by changed cells."""
    return changed.copy() if len(clicked) == 1 else apart(clicked[1:], changed)


def _values(looks: np.ndarray, names: dict[int, int]) -> np.ndarray:
    """Each cell's code as ``names`` gives its look's (UNNAMED where it gives none)."""
    return np.vectorize(lambda k: names.get(int(k), UNNAMED), otypes=[np.int64])(looks)


def _first_cells(mask: np.ndarray) -> str:
    """The first four cells of ``mask``, for a message."""
    return ", ".join(str((int(r), int(c))) for r, c in np.argwhere(mask)[:4])


def changed_apart(
    clicked: list[Cell], before: np.ndarray, after: np.ndarray, flags: list[Cell] | None = None
) -> np.ndarray:
    """The cells that changed between the readings apart from the clicks (see apart), a click
    not drawn yet still joining what it opened. ``flags``: cells of ``clicked`` flagged (a right
    click), which open nothing: what changed beside them is no doing of theirs, and they join
    nothing (gnome-mines drew a lost game's other mine beside a flag placed after the guess that
    lost it; taken as the flag's, the flag the game over ignored was clicked again, and the run stopped)."""
    flagged = set(flags or [])
    opening = [cell for cell in clicked if cell not in flagged]
    changed = after != before
    for cell in flagged:
        changed[cell] = False
    for cell in opening:
        changed[cell] = True
    return apart(opening, changed)


class Judge(SuspectGuess):
    """Tells how each click went from the readings before and after it, learning into ``looks``
    what a lost game's end shows. ``save_screen`` saves the last screen for an error message."""

    def __init__(
        self,
        looks: Looks,
        mines: int | None,
        out: TextIO,
        save_screen: Callable[[], Path],
        wrong: set[int] | None = None,
    ) -> None:
        self.looks, self.mines, self.out, self.save_screen = looks, mines, out, save_screen
        # the looks found named wrongly (see unlearn)
        self.wrong = wrong if wrong is not None else set()
        # the last guess, while it may have lost the game (see Suspect)
        self.suspect: Suspect | None = None
        # the game's last guess, as judged, kept to its end (lost_after_all)
        self.last_guess: Suspect | None = None
        # the clicks last judged, the reading before them (with the flags placed since), whether a guess was among them
        self.last: tuple[list[Cell], np.ndarray, bool] | None = None
        # the last reading found whole, and its naming
        self.named: tuple[np.ndarray, Naming] | None = None
        # the game counted won on a guess whose look is not named yet (see told)
        self.unsure: Unsure | None = None

    def answered(self) -> None:
        """The game answered a click: it was not over after the suspect guess."""
        self.suspect = None

    def new_game(self) -> None:
        """A new game: no click judged in it yet."""
        self.suspect = self.last_guess = self.last = self.named = self.unsure = None

    def outcome(
        self, clicked: list[Cell], before: np.ndarray, after: np.ndarray, guess: bool
    ) -> State:
        """Won, lost or playing, from what changed. A click opens the cell, and a 0 its neighbours:
        what changed is linked to the cells clicked. Anything else that changed is the game's doing
        at the end: all cells but the mines open (won; some games then flag the mines), or the
        mines shown (lost: the clicked cell is the exploded mine). With a ``guess``, ``clicked[0]`` is
        the cell guessed (the others, if any, clicks on cells called safe judged with it: joined)."""
        self.suspect = None
        self.last = (list(clicked), before, guess)
        if guess and clicked:  # its look, and the looks as named before it
            self.last_guess = (clicked[0], int(after[clicked[0]]), dict(self.looks.possible), set())
        known = self.looks.names()
        hidden_before = int(np.isin(before, list(self.looks.hidden)).sum())
        if (
            not guess
            and hidden_before - len(clicked) == self.mines
            and all(after[c] != before[c] for c in clicked)
        ):
            # the last safe cells opened (not held back by the click guard: the game is on until they are)
            return "won"  # won, whatever the game then draws over the board (a best-times dialog)
        covered = self.looks.covered()
        if not guess and covered and not np.isin(after, covered).any():
            # every cell open or a flag: the bot flags only certain mines, and a game flags the rest only at a
            # win (gnome-mines; where its flag and the number beside it show looks never seen, the flag joins
            # the clicks, a look never named maybe being a 0: counted neither hidden nor the game's doing)
            return "won"
        changed, elsewhere = self._changes(clicked, before, after)
        if elsewhere.any() and self._floods_by_4(clicked, before, after):
            changed, elsewhere = self._changes(clicked, before, after)
        # the game's doing, or something drawn across the board at its end: told by the revealed
        # cells it covers; where every cell changed joins the clicks, only a veil over the board
        # (every look new, each maybe a 0), never a few numbers read as a twin look of their own
        if elsewhere.any() or self._veiled(before, after):
            across = self.drawn_across(clicked, before, after, guess)
            if across is not None:
                return across
        # a game may flag or show its mines at a win, but opens no cell apart from the clicks: a number
        # there is a lost game showing every cell (xbomb: its last safe cell shows a number)
        opened = elsewhere & np.isin(after, [k for k, code in known.items() if code in NUMBERS])
        hidden = np.isin(after, list(self.looks.hidden)) | elsewhere
        # a won game leaves its mines covered or changes them all (flags them): some changed and
        # some covered is a loss that shows the mines, its last safe cell still covered
        mixed = elsewhere.any() and np.isin(after, covered).any()
        if (
            int(hidden.sum()) == self.mines
            and not mixed
            and not opened.any()
            and not any(known.get(int(after[c])) == EXPLODED for c in clicked)
        ):
            if guess and clicked and self._not_its_number(clicked[0], after, hidden):
                # a last 50/50 lost, the other mines all flagged
                self.learn_end(clicked[0], after, changed)
                return "lost"
            state = self._unsure(clicked, before, after, guess, hidden)
            # the game flagged the mines itself
            for k in np.unique(after[elsewhere]) if state == "won" else ():
                self.looks.hidden.setdefault(int(k), FLAG)
            return state
        shows_mine = any(known.get(int(after[c])) in (EXPLODED, MINE) for c in clicked)
        if not guess and elsewhere.any() and not shows_mine:
            raise ScreenError(
                f"after clicks on cells called safe, {int(elsewhere.sum())} cells elsewhere on the board changed "
                f"(at {_first_cells(elsewhere)}): "
                "something is drawn over the board (a dialog?); close it and run minebot again",
                detail=f"the screen is saved in {self.save_screen()}",
            )
        if elsewhere.any() or shows_mine:
            if guess and clicked:
                self.learn_end(clicked[0], after, guess_part(clicked, changed))
            return "lost"
        if guess and clicked:
            # (a guess judged with clicks before it: the rest theirs)
            mine = guess_part(clicked, changed)
            shown = {int(k) for k in after[mine]}
            r, c = clicked[0]
            near = mine.copy()
            near[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2] = False
            # every cell that changed is next to the one clicked and shows a look never named: the mine
            # hit and mines beside it (a lost game with the others flagged), or a number's first showing
            unnamed = not shown & set(known) and not near.any()
            try:
                self.looks.named(after, self.mines)
            except InconsistentBoard as exc:
                # the guess showed a mine, and the game nothing else or only mines (next to it: the
                # others flagged); or the game showed every cell (xbomb)
                if int(changed.sum()) == 1 or unnamed or not np.isin(after, covered).any():
                    self.learn_end(clicked[0], after, mine)
                    return "lost"
                # a box drawn over the board at the end, over the cell clicked too (kmines' "You have lost.")
                across = self.drawn_across(clicked, before, after, guess)
                if across is not None:
                    return across
                if self.unlearn(after):  # a naming learnt wrongly (a pack learnt so): forgotten
                    return "playing"
                # a mine opens no area: the looks are wrong (two values taken for one)
                raise ScreenError(
                    "minebot cannot tell some of this board's looks apart; give it a skin pack for this game "
                    "(`minebot learn`)",
                    detail=f"{exc}; the screen is saved in {self.save_screen()}",
                ) from exc
            if unnamed:
                look = int(after[clicked[0]])
                self.suspect = (clicked[0], look, dict(self.looks.possible), shown - {look})
        return "playing"

    def unlearn(self, after: np.ndarray) -> bool:
        """Whether a board no naming fits with what was learnt fits one with some of it forgotten
        (naming.renamed); then that is forgotten and said, and the looks named wrongly join ``wrong``
        (their pictures leave the pack: bot/vision/writing.PackFiles)."""
        try:
            wrong = renamed(after, self.looks, self.mines)
        except InconsistentBoard:
            return False
        print(
            "minebot: this board fits no naming with what was learnt of its looks; forgotten, to be learnt again: "
            f"{', '.join(CHAR_OF[code] for code in wrong.values()) or 'what was left open of them'}",
            file=self.out,
        )
        self.wrong.update(wrong)
        return True

    def whole(self, clicked: list[Cell], before: np.ndarray, after: np.ndarray) -> bool:
        """Whether a reading shows all that the clicks drew, as far as can be told: everything that
        changed joins the clicks, and the rules admit a naming of it (a 0 drawn before its
        neighbours were opened admits none)."""
        if self.elsewhere(clicked, before, after).any():
            return False
        try:
            self.named = (
                after,
                self.looks.named(after, self.mines),
            )
        except InconsistentBoard:
            return False
        return True

    def flagged(self, cells: list[Cell], after: np.ndarray) -> None:
        """Flags were placed on ``cells`` since the clicks last judged: where those are judged again
        (joined), it is from a reading with the flags in it."""
        if self.last is not None:
            before = self.last[1].copy()
            for cell in cells:  # none where the guard held them all back
                before[cell] = after[cell]
            self.last = (self.last[0], before, self.last[2])

    def joined(
        self, clicked: list[Cell], before: np.ndarray, after: np.ndarray, guess: bool
    ) -> tuple[list[Cell], np.ndarray, bool]:
        """What to judge, as (clicks, the reading before them, whether a guess is among them): where
        what changed apart from ``clicked`` joins the clicks last judged, those with these, from the
        reading before them (the game was still drawing them when they were judged); else these. A guess's
        cell comes first (see outcome): a guess judged with the clicks before it is still told as a guess
        (a drawn game judged a lost guess with a click before it as no guess at all, and played on, taking the mine
        hit and the mine shown beside it for numbers, till the game ignored its clicks)."""
        if self.last is not None and self.elsewhere(clicked, before, after).any():
            cells, first, guessed = self.last
            if not self.elsewhere(clicked + cells, first, after).any():
                return (
                    (cells + clicked if guessed and not guess else clicked + cells),
                    first,
                    guess or guessed,
                )
        return clicked, before, guess

    def elsewhere(self, clicked: list[Cell], before: np.ndarray, after: np.ndarray) -> np.ndarray:
        """The hidden cells that changed between the readings and that the clicks cannot have
        opened (see opened_area): the game's doing, or what the game drew of earlier clicks after
        the last reading (see joined)."""
        return self._changes(clicked, before, after)[1]

    def _changes(
        self, clicked: list[Cell], before: np.ndarray, after: np.ndarray, flood: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The hidden cells that changed between the readings, and those of them the clicks cannot
        have opened (a 0 opening the neighbours ``flood`` says: the looks' own, unless given)."""
        known = self.looks.names()
        # only hidden cells change in a game (a revealed one may move to a look found since, a twin of its own),
        # and only to another value: gnome-mines' flags, read on a busy machine, moved from one flag look to
        # another between readings, no click near them (learning at intermediate beside two busy cores
        # stopped so in 4 runs of 5: "cells elsewhere on the board changed")
        hidden = self.looks.hidden
        changed = (
            (after != before)
            & np.isin(before, list(hidden))
            & (_values(after, hidden) != _values(before, hidden))
        )
        # joined to a click only through cells that may be 0s (and, in a batch, cells clicked: a chord;
        # see opened_area): winemine showed a lost game's mines next to the mine hit and one next to
        # those, all of them looks never named, and a naming of them as numbers fit: the run played
        # on and stopped on a flag the game ignored
        zero = [
            k
            for k in np.unique(after)
            if int(k) not in known and 0 in self.looks.possible.get(int(k), NUMBERS)
        ]
        may_be_zero = np.isin(after, [*zero, *(k for k, code in known.items() if code == 0)])
        # a number clicked chords (gnome-mines) only where its flags account for it
        shown = _values(after, known)
        may_chord = (shown == UNNAMED) | (
            np.isin(shown, list(NUMBERS)) & (neighbour_sum(shown == FLAG) == shown)
        )
        return changed, changed & ~opened_area(
            clicked,
            changed,
            may_be_zero,
            np.isin(after, self.looks.covered()),
            may_chord,
            self.looks.flood if flood is None else flood,
        )

    def _floods_by_4(self, clicked: list[Cell], before: np.ndarray, after: np.ndarray) -> bool:
        """Whether what changed apart from the clicks, were a 0 to open all 8 neighbours, is what
        the clicks opened where a 0 opens only the 4 beside it, and the board then has a naming:
        the game's flood fill is so (a 0 beside covered diagonal cells), learnt into the looks."""
        if self.looks.flood != 8 or self._changes(clicked, before, after, flood=4)[1].any():
            return False
        try:
            name_looks(after, self.looks.hidden, self.looks.possible, self.mines, flood=4)
        except InconsistentBoard:
            return False
        self.looks.flood = 4
        print(
            "minebot: learnt the game's flood fill: a 0 opens only the 4 cells beside it",
            file=self.out,
        )
        return True

    def _veiled(self, before: np.ndarray, after: np.ndarray) -> bool:
        """Whether VEILED of the revealed cells before now show another value or none: a veil over
        the whole board (a number's twin look, cut at another pixel, shows on a few cells only)."""
        names = self.looks.names()
        was = np.isin(_values(before, names), list(NUMBERS))
        moved = was & (_values(after, names) != _values(before, names))
        return bool(was.any()) and float(moved.sum()) >= VEILED * float(was.sum())

    def drawn_across(
        self, clicked: list[Cell], before: np.ndarray, after: np.ndarray, guess: bool
    ) -> State | None:
        """Whether the game drew something across the board after the clicks (kmines' "Congratulations!
        You have won!"): at least OVERLAY_CELLS revealed cells, which never change in a game, now
        show a look of another value or none. Then the game is over, and the board outside the
        smallest box round those cells tells how (a game ends on a mine clicked or on its last safe
        cell opened): won if every clicked cell shows a number there; else lost if a clicked cell or a
        cell hidden before shows a mine there, or if the clicks opened no area (each has a hidden
        neighbour unchanged, so is no 0) and left more cells hidden than there are mines (a single
        cell clicked then shows the exploded mine, and its look is learnt so); else, after
        a ``guess`` among the clicks, lost if hidden cells apart from the clicks show a look that is
        no hidden one (the mines of a lost game, in a look not learnt yet); else won. After clicks on
        cells called safe, looks never named are no sign of a loss: kmines flags the mines left at a
        win, and a flag where none was seen before may read as a new look. None where nothing is
        drawn across it."""
        names = self.looks.names()
        was, now = _values(before, names), _values(after, names)
        over = np.isin(was, list(NUMBERS)) & (now != was)
        if int(over.sum()) < OVERLAY_CELLS:
            return None
        rows, cols = np.flatnonzero(over.any(axis=1)), np.flatnonzero(over.any(axis=0))
        outside = np.ones(over.shape, dtype=bool)
        outside[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1] = False
        if clicked and all(outside[c] and now[c] in NUMBERS for c in clicked):
            # a game ends on a mine clicked or on its last safe cell opened: numbers on every click say the latter
            # (a click opening an area may leave hidden cells beyond the box showing looks never named)
            return self._over("won", f"the {len(clicked)} cells clicked last show numbers")
        mines = np.isin(now, [MINE, EXPLODED]) & outside
        hidden_before = np.isin(before, list(self.looks.hidden))
        if any(mines[c] for c in clicked):
            return self._over("lost", "a cell clicked shows a mine")
        if (mines & hidden_before).any():
            return self._over(
                "lost", f"{int((mines & hidden_before).sum())} cells hidden before show mines"
            )
        # a cell with a hidden neighbour unchanged is no 0, so it opened itself alone; clicks that all did
        # leave the cells hidden before but them, and while those are more than the mines the game is not won
        alone = cv2.dilate(
            (hidden_before & (after == before) & outside).astype(np.uint8),
            np.ones((3, 3), np.uint8),
        )
        left = int(hidden_before.sum()) - len(clicked)
        if (
            clicked
            and self.mines is not None
            and all(outside[c] and alone[c] for c in clicked)
            and left > self.mines
        ):
            # the cell clicked is the mine hit
            if len(clicked) == 1 and int(after[clicked[0]]) not in names:
                self.looks.ends[int(after[clicked[0]])] = EXPLODED
            return self._over(
                "lost",
                f"the cells clicked opened no area, and {left - self.mines} or more safe cells are "
                "still hidden",
            )
        if not guess:
            return self._over(
                "won", "the cells clicked were called safe, and no mine shows round it"
            )
        # hidden cells outside the box that show something new apart from the clicks (joined to them
        # by no cell of the band: it may join mines to a click under it): the mines of a lost game, in
        # a look not learnt yet (a won game leaves its mines covered, or flags them; numbers are no mines)
        band = np.isin(after, np.unique(after[over]))
        kept = band | np.isin(
            after, [*self.looks.hidden, *(k for k, code in names.items() if code in NUMBERS)]
        )
        moved = (after != before) & ~band
        for cell in clicked:
            moved[cell] = True
        shown = apart(clicked, moved) & hidden_before & outside & ~kept
        if shown.any():
            return self._over(
                "lost",
                f"{int(shown.sum())} cells hidden before show looks never named apart from the clicks, "
                f"at {_first_cells(shown)}",
            )
        # the cells clicked drawn over too (a panel over the whole board)
        if clicked and not any(outside[c] for c in clicked):
            # counted won, told by the face, else said unsure
            self.unsure = Unsure(clicked[0], UNSEEN, before, None)
            return self._over("won", "not sure: nothing of the board tells how the guess went")
        # were the game won, every cell hidden before but those clicked
        mines_if_won = hidden_before.copy()
        for cell in clicked:
            mines_if_won[cell] = False
        # (kmines, intermediate; clicked[0]: the guess)
        if clicked and self._not_its_number(clicked[0], after, mines_if_won):
            self.learn_end(clicked[0], after, np.zeros_like(hidden_before))
            return self._over(
                "lost",
                f"the cell clicked, {clicked[0]}, shows a look never named where it would show "
                "a number named already",
            )
        state = self._unsure(clicked, before, after, guess, mines_if_won)
        return self._over(
            state,
            "no mine shows round it"
            if state == "won"
            else f"were the guess at {clicked[0]} safe, the numbers round it would not be those shown",
        )

    def _unsure(
        self,
        clicked: list[Cell],
        before: np.ndarray,
        after: np.ndarray,
        guess: bool,
        mines: np.ndarray,
    ) -> State:
        """Won, after clicks that left as many cells hidden as there are mines were they safe
        (``mines``); but a last guess whose cell shows a look never named is kept unsure (see Unsure)
        to be told once the looks say more, and lost at once where the looks named already say the
        cells round it show other numbers than a win would leave (the cell is then the mine hit)."""
        if guess and clicked and int(after[clicked[0]]) not in self.looks.names():
            self.unsure = Unsure(
                clicked[0],
                int(after[clicked[0]]),
                before,
                mines if int(mines.sum()) == self.mines else None,
            )
            if self.unsure.ended(self.looks) == "lost":
                self.unsure = None
                self.learn_end(clicked[0], after, np.zeros_like(mines))
                return "lost"
        return "won"

    def told(self, unsure: dict[int, Unsure], faces: EndFaces | None = None) -> list[int]:
        """Of games counted won on a guess whose look was not named (``unsure``, by game), those the
        looks named since, or the game's ``faces`` learnt since, settle (Unsure.ended) are taken out
        of ``unsure``; returned, those lost."""
        ends = {game: u.ended(self.looks, faces) for game, u in unsure.items()}
        for game, end in ends.items():
            if end is not None:
                del unsure[game]
        return [game for game, end in ends.items() if end == "lost"]

    def _over(self, state: State, why: str) -> State:
        """``state``, said with ``why`` on the judge's output."""
        print(
            f"minebot: something is drawn across the board: the game is over ({state}: {why})",
            file=self.out,
        )
        return state

    def learn_end(self, clicked: Cell, after: np.ndarray, changed: np.ndarray) -> None:
        """A lost game's end: the clicked cell shows the exploded mine; the other hidden cells that
        ``changed`` show mines. (The bot flags only certain mines: a flag of its own that a game
        redraws at the end, as kmines does, shows a mine too; wrong flags are never its own, so never
        learnt here. A game that shows every cell at the end (xbomb) shows numbers too: there only
        the exploded mine is learnt.)"""
        known = self.looks.names()
        self.looks.ends.setdefault(int(after[clicked]), EXPLODED)
        if int(changed.sum()) > (self.mines if self.mines is not None else DENSEST * changed.size):
            print("minebot: learnt the exploded mine of a lost game", file=self.out)
            return
        for r, c in np.argwhere(changed):
            look = int(after[r, c])
            if (r, c) == clicked or look in known:
                continue
            self.looks.ends.setdefault(look, MINE)
        print(
            f"minebot: learnt the end of a lost game ({len(self.looks.ends)} looks)", file=self.out
        )


def besides(flags: list[Cell], after: np.ndarray, before: np.ndarray) -> bool:
    """Whether cells other than the ``flags`` placed differ between the readings ``before`` and
    ``after`` them."""
    changed = after != before
    for cell in flags:
        changed[cell] = False
    return bool(changed.any())
