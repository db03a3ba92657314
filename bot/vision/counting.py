"""Learning a mines-left counter's digits by watching it count (for a look learnt by playing).

Nearly every game shows how many mines are left, the mine count less the flags placed, above its
board. While the learner plays, it keeps the strip above the board (the band that reading.py reads
counters in) from readings whose every look it has named, by that number. The counter's last digit
is then the part of the strip that is the same in every picture whose number ends in the same
digit, and differs between numbers that end in different digits but share the digits before: a
timer beside it changes with time, not with the number; a face changes with the game's state; the
digits before the last change with the tens. Cut where that part lies, the ten pictures are the
counter's digits, drawn the same in each place of the counter (seven-segment lights; text drawn at
whole pixels). They are kept only where every last digit was seen and the ten pictures read every
strip kept back to its own number, on the left or the right (reading.py's picture_counter); else
nothing is learnt and a board of a size minebot does not know needs ``--mines``.
"""

from __future__ import annotations

import time

import numpy as np

from bot.vision.counter import picture_counter

SAMPLES_PER_COUNT = 2  # pictures of the strip kept per number shown
SAMPLES_PER_DIGIT = 8  # and per last digit (a strip is some 100 kB: 200 mines would keep 40 MB without it)
# s between the two pictures of one number: a timer beside the counter ticks in between, so that
# its digits are not taken for the counter's
SAMPLE_GAP = 1.05


def learn_digits(samples: dict[int, list[np.ndarray]]) -> tuple[dict[int, np.ndarray], str] | None:
    """The pictures of the ten digits and the counter's side ("left" or "right" of the numbers
    above the board), from pictures of the strip above the board by the number the counter showed
    (all of one size); None where they cannot be told for certain."""
    if {count % 10 for count in samples} != set(range(10)):
        return None
    first: dict[int, np.ndarray] = {}  # a picture per last digit
    same = np.ones(next(iter(samples.values()))[0].shape[:2], dtype=bool)  # the same for every number ending alike
    for count, bands in samples.items():
        for band in bands:
            if band.shape != same.shape + (3,):
                return None
            reference = first.setdefault(count % 10, band)
            same &= (band == reference).all(axis=2)
    varies = np.zeros_like(same)  # differs between numbers with the same tens and another last digit
    by_tens: dict[int, np.ndarray] = {}
    for count, bands in sorted(samples.items()):
        reference = by_tens.setdefault(count // 10, bands[0])
        varies |= (bands[0] != reference).any(axis=2)
    ys, xs = np.nonzero(same & varies)
    if not len(ys):
        return None
    box = np.s_[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    digits: dict[int | str, np.ndarray] = {d: first[d][box].copy() for d in range(10)}
    if len({picture.tobytes() for picture in digits.values()}) < 10:
        return None
    shown = [(count, band) for count, bands in samples.items() for band in bands]
    for side in ("left", "right"):
        if all(picture_counter(band, 1.0, digits, side) == count for count, band in shown):
            return {int(d): picture for d, picture in digits.items()}, side
    return None


class CounterWatch:
    """The strip above the board as the learner saw it, by the number of mines left then
    (SAMPLES_PER_COUNT pictures of each number at most, SAMPLE_GAP apart, SAMPLES_PER_DIGIT of the
    numbers ending in each digit, each from the second reading in a row with that number or a later
    one)."""

    def __init__(self, mines: int) -> None:
        self.mines = mines
        self.samples: dict[int, list[np.ndarray]] = {}
        self._seen_at: dict[int, float] = {}
        self._last: int | None = None  # the number of the last reading
        self._per_digit = [0] * 10
        self.learnt = False  # the digits are known (the pack's, or learnt here): nothing left to watch

    def see(self, band: np.ndarray, left: int) -> None:
        """Keep ``band`` as showing ``left`` mines left, unless enough of that number are kept, or
        the number changed since the last reading: a game may draw its counter after the flags
        (minegauler's showed the last number in one picture of six)."""
        kept = self.samples.get(left, [])
        now = time.monotonic()
        steady, self._last = left == self._last, left
        if (self.learnt or not steady or len(kept) >= SAMPLES_PER_COUNT or self._per_digit[left % 10] >= SAMPLES_PER_DIGIT
                or (kept and now - self._seen_at[left] < SAMPLE_GAP)):
            return
        self.samples[left] = [*kept, band.copy()]
        self._seen_at[left] = now
        self._per_digit[left % 10] += 1

    def learn(self) -> tuple[dict[int, np.ndarray], str] | None:
        """The digits and the counter's side, the first time they can be told (see learn_digits),
        once the counter was seen with no flag placed: it must read the mine count there (a count of
        the flags placed, counting up, reads its numbers back digit by digit in some games)."""
        if self.learnt or self.mines not in self.samples:
            return None
        found = learn_digits(self.samples)
        self.learnt = found is not None
        return found
