"""The game's chord, learnt by trying it: which button, pressed on a number whose flags account for
it, opens the number's other covered neighbours at once (a shipped pack says so in its ``chord``:
bot/vision/pack.py).

While no button is known, the learner tries one where a chord would open cells it is about to
click anyway (every covered neighbour of the number certainly safe, its flags on certain mines):
pressed on an opened number, a button that does not chord does nothing, and the cells are then
clicked one by one. The buttons are tried in the order of BUTTONS, each until it fails once; the
tries are kept in the learnt pack, summed over runs, so a button is tried in no later run once it
failed, and a pack whose chord opened cells every time it was tried chords from the next run on
(bot/live/table.py), as fast as a shipped pack.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TextIO

import numpy as np

from bot.board import neighbours
from bot.learning.sight import Sight
from bot.live.table import LATENCY_FACTOR
from bot.play import pick_chords
from bot.vocabulary import COVERED, FLAG, Cell

# in the order tried: a left click on an opened number does nothing where a game chords with another
# button; the middle button last (a browser may take it to scroll or paste)
BUTTONS = ("left", "both", "middle")
# s a chord tried is given to show (or LATENCY_FACTOR x the slowest redraw seen, if longer)
TRY_WAIT = 0.5


def chord_button(counts: list[float]) -> dict[str, object]:
    """A learnt pack's ``chord`` from its tries summed over runs (per button of BUTTONS: the tries that
    opened cells, those that did not): the first button that opened cells every time it was tried.

    >>> chord_button([0, 1, 3, 0, 0, 0]), chord_button([0, 1, 2, 1, 0, 0]), chord_button([0] * 6)
    ({'chord': 'both'}, {'chord': None}, {'chord': None})
    """
    for index, button in enumerate(BUTTONS):
        opened, failed = counts[2 * index : 2 * index + 2]
        if opened and not failed:
            return {"chord": button}
    return {"chord": None}


def chord_options(
    looks: np.ndarray, hidden: dict[int, int], safe: Iterable[Cell]
) -> dict[Cell, set[Cell]]:
    """Where a chord would open only ``safe`` cells: each opened cell with a flag around it whose
    other hidden neighbours are all covered and in ``safe`` (its number is then its flags' count,
    whatever the number's look is named), with the cells a chord there opens. ``hidden``: the looks
    of hidden cells, COVERED or FLAG (a question mark beside a number rules it out: games differ)."""
    rows, cols = looks.shape
    left = set(safe)
    options: dict[Cell, set[Cell]] = {}
    for cell in {n for s in left for n in neighbours(rows, cols, s)}:
        if int(looks[cell]) in hidden:
            continue
        around = neighbours(rows, cols, cell)
        shown = [hidden.get(int(looks[n])) for n in around]
        covered = {n for n, code in zip(around, shown, strict=True) if code == COVERED}
        if (
            FLAG in shown
            and covered
            and covered <= left
            and all(code in (None, COVERED, FLAG) for code in shown)
        ):
            options[cell] = covered
    return options


class Chording:
    """The chord button as known or tried so far (``known``), and this run's tries (``tries``, as
    chord_button counts them) since the last save."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.known: str | None = None
        self.tries = [0] * 2 * len(BUTTONS)
        self.failed: set[str] = set()  # buttons that did not chord, in this run or one before

    def seed(self, chord: str | None, tries: list[float]) -> None:
        """Start from a pack's chord and the tries it keeps (chord_button's counts)."""
        self.known = chord
        self.failed |= {
            b
            for index, b in enumerate(BUTTONS)
            if len(tries) == len(self.tries) and tries[2 * index + 1]
        }

    def saved(self) -> tuple[int, ...]:
        """This run's tries since the last save, to add to the pack's; counted from zero again."""
        tries, self.tries = tuple(self.tries), [0] * len(self.tries)
        return tries

    def _trying(self) -> str | None:
        return (
            next((b for b in BUTTONS if b not in self.failed), None) if self.known is None else None
        )

    def plan(
        self, looks: np.ndarray, hidden: dict[int, int], safe: Iterable[Cell]
    ) -> tuple[list[Cell], list[Cell]]:
        """The numbers to chord on and the cells to click one by one, to open ``safe``: chords where
        they save clicks (bot/play.pick_chords) with a known button; with none, one chord to try."""
        safe = sorted(safe)
        if self.known is None and self._trying() is None:
            return [], safe
        options = chord_options(looks, hidden, safe)
        chords, singles = pick_chords(options, safe)
        if self.known is None and chords:
            return chords[:1], sorted(set(safe) - options[chords[0]])
        return chords, singles

    def press(
        self, sight: Sight, chords: list[Cell], looks: np.ndarray, hidden: dict[int, int]
    ) -> tuple[list[Cell], list[Cell]]:
        """Press ``chords`` (as the guard allows): the cells they open, and the cells a chord tried
        did not open, to click one by one."""
        button = self.known or self._trying()
        if not chords or button is None:
            return [], []
        pressed = sight.click(chords, button)
        cells = list(
            dict.fromkeys(
                n
                for number in pressed
                for n in neighbours(*looks.shape, number)
                if hidden.get(int(looks[n])) == COVERED
            )
        )
        if self.known is not None or not pressed:
            return cells, []
        index = 2 * BUTTONS.index(button)
        deadline = time.perf_counter() + max(TRY_WAIT, LATENCY_FACTOR * sight.latency)
        while time.perf_counter() < deadline:
            if any(sight.read(counted=True)[cell] != looks[cell] for cell in cells):
                self.known = button
                self.tries[index] += 1
                print(
                    f"minebot: learnt the game's chord: the {button} button on a number",
                    file=self.out,
                )
                return cells, []
        self.failed.add(button)
        self.tries[index + 1] += 1
        return [], cells
