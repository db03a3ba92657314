"""What a look book (bot/vision/looks.py) remembers of the cells' pictures it has seen.

A board holds few distinct pictures, and most of them were there at the last reading: each distinct
picture (as cut) gets a number, and what was worked out for it is kept under that number. Comparing
two pictures' bytes is cheap; hashing all of them is not (0.7 ms of a first reading of
gnome-mines' 480 cells of 47 px, at every reading). So a picture is looked up by every SAMPLE-th
byte of it, and told from the pictures that share those by all of its bytes.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

SAMPLE = 61  # a picture is looked up by every this-th byte of it (prime: every channel and column)
KEPT_MOST = 4096  # pictures a book remembers (46 px cells: 26 MB)


class Numbers:
    """The number of each distinct picture seen. Numbers are never given twice, also past
    KEPT_MOST, where the pictures seen until then are forgotten (and get new numbers when seen
    again): what is kept under an old number is then never asked for again."""

    def __init__(self) -> None:
        self._by_sample: dict[bytes, list[tuple[bytes, int]]] = {}
        self._next = 0
        self._kept = 0

    def of(self, picture: np.ndarray) -> int:
        """``picture``'s number, a new one where it was not seen before."""
        whole = picture.tobytes()
        sample = whole[::SAMPLE]
        for other, number in self._by_sample.get(sample, ()):
            if other == whole:
                return number
        if self._kept >= KEPT_MOST:  # a long run of a game drawn anew at every position
            self._by_sample.clear()
            self._kept = 0
        self._by_sample.setdefault(sample, []).append((whole, self._next))
        self._next += 1
        self._kept += 1
        return self._next - 1


class Known:
    """Pictures already compared with a book's looks, by number: each one's row of ``distances``,
    which holds its distances from every look, unshifted and at the best shift."""

    def __init__(self, looks: int) -> None:
        self.rows: dict[int, int] = {}
        self.distances = np.empty((0, 2, looks), dtype=np.float32)

    def missing(self, numbers: Iterable[int]) -> dict[int, int]:
        """Of ``numbers``, the ones not compared yet, each with where it first stands in them."""
        if len(self.rows) > KEPT_MOST:
            self.rows, self.distances = {}, self.distances[:0]
        new: dict[int, int] = {}
        for i, number in enumerate(numbers):
            if number not in self.rows and number not in new:
                new[number] = i
        return new

    def keep(self, numbers: Iterable[int], rows: np.ndarray) -> None:
        """Remember the distances ``rows`` (len(numbers), 2, looks) of the pictures ``numbers``."""
        self.rows.update({number: len(self.distances) + j for j, number in enumerate(numbers)})
        self.distances = np.concatenate([self.distances, rows])

    def of(self, numbers: Iterable[int]) -> np.ndarray:
        """The distances of the pictures ``numbers``, all compared: (len(numbers), 2, looks)."""
        return self.distances[[self.rows[number] for number in numbers]]
