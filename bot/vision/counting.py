"""Learning a mines-left counter's digits by watching it count (for a look learnt by playing).

Nearly every game shows how many mines are left, the mine count less the flags placed, above its
board (below it in Windows 7's Minesweeper and xbomb). While the learner plays, it keeps the strips
above and below the board (the bands that reading.py reads counters in) from readings whose every
look it has named, by that number. The counter's last digit is then the part of a strip that is the
same in every picture whose number ends in the same digit, and differs between numbers that end in
different digits but share the digits before: a timer beside it changes with time, not with the
number; a face changes with the game's state; the digits before the last change with the tens. Cut
where that part lies, the ten pictures are the counter's digits, drawn the same in each place of the
counter (seven-segment lights; text drawn at whole pixels). They are kept only where every last
digit was seen and the ten pictures read every strip kept back to its own number, on the left or the
right (counter.py's picture_counter), with leading zeros or without; else nothing is learnt and a
board of a size minebot does not know needs ``--mines``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bot.vision.counter import picture_counter

SAMPLES_PER_COUNT = 2  # pictures of the strip kept per number shown
EAGER_PER_DIGIT = 2  # until this many strips of numbers ending in a digit are kept, flags go one at a time
# and per last digit: a strip above or below an expert board of 31 px cells is some 0.5 MB, and a
# game with no counter that counts the mines left fills this up (40 MB at 4)
SAMPLES_PER_DIGIT = 4
# s between the two pictures of one number: a timer beside the counter ticks in between, so that
# its digits are not taken for the counter's
SAMPLE_GAP = 1.05


GAP = 2  # columns with no telling pixel within a digit's run of columns (see _boxes)

PLACES = ("above", "below")  # the bands looked in: reading.py's band_above and band_below


@dataclass(frozen=True, eq=False)
class LearntCounter:
    """A counter learnt: its ten digits, and where it is (a pack's ``counter`` settings)."""

    digits: dict[int, np.ndarray]
    side: str  # "left" or "right" of the numbers in its band
    place: str = "above"  # the band: above or below the board
    shortest: int = 2  # the fewest digits it shows (1: it drops leading zeros)

    def settings(self) -> dict[str, str | int]:
        """Its pack.json settings (bot/vision/pack.py)."""
        return {"counter": self.side, "counter_at": self.place, "counter_shortest": self.shortest}


def learn_digits(samples: dict[int, list[np.ndarray]], place: str = "above") -> LearntCounter | None:
    """The pictures of the ten digits and which counter counts the mines, from pictures of the strip
    at ``place`` by the number the counter showed (all of one size); None where they cannot be told
    for certain."""
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
    shown = [(count, band) for count, bands in samples.items() for band in bands]
    for box in _boxes(same & varies):
        digits: dict[int | str, np.ndarray] = {d: first[d][box].copy() for d in range(10)}
        if len({picture.tobytes() for picture in digits.values()}) < 10:
            continue
        for shortest in (2, 1):  # a lone digit is taken only where no counter reads without it
            for side in ("left", "right"):
                if all(picture_counter(band, 1.0, digits, side, shortest) == count for count, band in shown):
                    return LearntCounter({int(d): picture for d, picture in digits.items()}, side, place, shortest)
    return None


def _boxes(mask: np.ndarray) -> list[tuple[slice, slice]]:
    """Where the last digit may be, from the pixels ``mask`` holds (the same for numbers ending alike,
    differing between last digits): round each run of columns with such pixels (runs GAP or fewer
    columns apart joined), most pixels first, then round them all. A timer beside the counter shows
    the same second in two strips of one number now and then (strips of one number come from
    different games), and leaves a few pixels of its own (minegauler's counter was learnt in half
    of 20-game runs with one box round them all)."""
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return []
    columns = np.flatnonzero(mask.any(axis=0))
    breaks = np.flatnonzero(np.diff(columns) > GAP + 1) + 1
    runs = sorted(np.split(columns, breaks), key=lambda run: -int(mask[:, run].sum()))
    boxes = []
    for run in runs if len(runs) > 1 else []:
        rows = np.flatnonzero(mask[:, run[0] : run[-1] + 1].any(axis=1))
        boxes.append(np.s_[rows[0] : rows[-1] + 1, run[0] : run[-1] + 1])
    return [*boxes, np.s_[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]]


class CounterWatch:
    """The strips above and below the board as the learner saw them, by the number of mines left
    then (SAMPLES_PER_COUNT pictures of each number at most, SAMPLE_GAP apart, SAMPLES_PER_DIGIT of
    the numbers ending in each digit, each from the second reading in a row with that number or a
    later one)."""

    def __init__(self, mines: int) -> None:
        self.mines = mines
        self.samples: dict[str, dict[int, list[np.ndarray]]] = {place: {} for place in PLACES}
        self._kept_at: dict[int, list[float]] = {}  # by number, when each of its strips was kept
        self._last: int | None = None  # the number of the last reading
        self._per_digit = [0] * 10
        self.learnt = False  # the digits are known (the pack's, or learnt here): nothing left to watch

    def see(self, bands: Callable[[], dict[str, np.ndarray]], left: int) -> None:
        """Keep the strips ``bands()`` gives (by place) as showing ``left`` mines left, unless enough
        of that number are kept, or the number changed since the last reading: a game may draw its
        counter after the flags (minegauler's showed the last number in one picture of six).
        ``bands`` is called only for strips that are kept."""
        kept = self._kept_at.setdefault(left, [])
        now = time.monotonic()
        steady, self._last = left == self._last, left
        if not steady or not self.wants(left) or (kept and now - kept[-1] < SAMPLE_GAP):
            return
        for place, band in bands().items():
            self.samples[place].setdefault(left, []).append(band.copy())
        kept.append(now)
        self._per_digit[left % 10] += 1

    def wants(self, left: int) -> bool:
        """Whether a strip showing ``left`` mines left could still be kept."""
        return (not self.learnt and len(self._kept_at.get(left, ())) < SAMPLES_PER_COUNT
                and self._per_digit[left % 10] < SAMPLES_PER_DIGIT)

    def eager(self, left: int) -> bool:
        """Whether a strip showing ``left`` mines left is wanted enough that the learner places one
        flag at a time and reads the board twice after each, so that every number shows (flags in
        batches skip numbers): until EAGER_PER_DIGIT strips of numbers ending in its last digit are
        kept (a game with no counter that counts the mines left then costs some 20 such flags)."""
        return self.wants(left) and self._per_digit[left % 10] < EAGER_PER_DIGIT

    def learn(self) -> LearntCounter | None:
        """The counter, the first time it can be told (see learn_digits) above the board or below,
        once it was seen with no flag placed: it must read the mine count there (a count of the
        flags placed, counting up, reads its numbers back digit by digit in some games)."""
        if self.learnt:
            return None
        for place, samples in self.samples.items():
            found = learn_digits(samples, place) if self.mines in samples else None
            if found is not None:
                self.learnt, self.samples = True, {place: {} for place in PLACES}  # the strips are not needed again
                return found
        return None

    def account(self) -> str:
        """What was seen of the counter, for a run that learnt none: how many strips, of which
        numbers, the last digits never seen, and whether the mine count itself (no flag placed) was."""
        counts = sorted((n for n, kept in self._kept_at.items() if kept), reverse=True)
        missing = sorted(set(range(10)) - {n % 10 for n in counts})
        shown = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}" if counts else ""
        strips = sum(self._per_digit)
        return (f"{strips} strip{'' if strips == 1 else 's'} of {len(counts)} number{'' if len(counts) == 1 else 's'}"
                + (f" ({shown})" if shown else "")
                + (f"; no number ending in {', '.join(map(str, missing))}" if missing
                   else "; every last digit, but no digits cut from them read every strip back")
                + ("" if self.mines in counts else f"; not the mine count, {self.mines}"))
