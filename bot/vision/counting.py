"""Learning a mines-left counter's digits by watching it count (for a look learnt by playing).

Nearly every game shows how many mines are left, the mine count less the flags placed, above its
board (below it in Windows 7's Minesweeper and xbomb), or the flags placed over the mine count
("3/10": gnome-mines beside the board, kmines and sgt-mines below it). While the learner plays, it
keeps the strips above, below and beside the board (the strips that reading.py reads counters in)
from readings whose every look it has named, by the mines left then. Two ways to learn from them:

* Pictures (learn_digits): the counter's last digit is the part of a strip that is the same in
  every picture whose number ends in the same digit, and differs between numbers that end in
  different digits but share the digits before: a timer beside it changes with time, not with the
  number; a face changes with the game's state; the digits before the last change with the tens.
  Cut where that part lies, the ten pictures are the counter's digits, drawn the same in each place
  of the counter (seven-segment lights; text drawn at whole pixels).
* Text (learn_text), whose glyphs shift as its numbers widen and whose anti-aliasing changes with
  where a glyph falls: the strips are cut into glyphs, glyphs alike are one character, and which
  character is which digit (and "/") follows from what each strip must show, the mines left or
  "flags/mines".

Either is kept only where every last digit was seen and the pictures read every strip kept back to
its own number, as a pack reads it (counter.py); else nothing is learnt and a board of a size
minebot does not know needs ``--mines``.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from bot.vision.counter import (
    GLYPH_LIMIT,
    UNREAD,
    Colours,
    chosen_number,
    describe,
    glyph_boxes,
    glyph_distance,
    glyph_ink,
    ink_amount,
    label_value,
    numbers_of,
    picture_numbers,
    read_glyphs,
    text_numbers,
    text_value,
)

SAMPLES_PER_COUNT = 2  # pictures of the strip kept per number shown
# until this many strips of numbers ending in a digit are kept, flags go one at a time
EAGER_PER_DIGIT = 2
# and per last digit: a strip above or below an expert board of 31 px cells is some 0.5 MB, and a
# game with no counter that counts the mines left fills this up (40 MB at 4)
SAMPLES_PER_DIGIT = 4
# s between the two pictures of one number: a timer beside the counter ticks in between, so that
# its digits are not taken for the counter's
SAMPLE_GAP = 1.05


GAP = 2  # columns with no telling pixel within a digit's run of columns (see _boxes)

PLACES = ("above", "below", "beside")  # the strips looked in: reading.py's counter_strip
SEARCH_LIMIT = 20_000  # spellings of a text counter's numbers tried, at most (see _spellings)
# Seconds of tries to learn a counter in one run, at most: past them the learner goes on without
# one (a web game's "🚩: N" once kept it at full CPU for ten minutes, every stack sample in learn).
LEARN_BUDGET = 5.0


@dataclass(frozen=True, eq=False)
class LearntCounter:
    """A counter learnt: its ten digits (and the "/" of a label), and where it is (a pack's
    ``counter`` settings)."""

    digits: dict[int | str, np.ndarray]
    side: str  # "left" or "right" of the numbers in its band; "label": a "flags/mines" label
    place: str = "above"  # the strip: above, below or beside the board
    shortest: int = 2  # the fewest digits it shows (1: it drops leading zeros)
    text: Colours | None = None  # drawn as text: its ink and paper
    counters: int = 1  # the numbers its strip showed in every picture (2: a timer beside it)

    def settings(self) -> dict[str, object]:
        """Its pack.json settings (bot/vision/pack.py)."""
        text = (
            {}
            if self.text is None
            else {"counter_text": {"ink": list(self.text[0]), "paper": list(self.text[1])}}
        )
        return {
            "counter": self.side,
            "counter_at": self.place,
            "counter_shortest": self.shortest,
            "counters": self.counters,
            **text,
        }

    def __str__(self) -> str:
        return describe(self.side, self.place)


def learn_digits(
    samples: dict[int, list[np.ndarray]], place: str = "above"
) -> LearntCounter | None:
    """The pictures of the ten digits and which counter counts the mines, from pictures of the strip
    at ``place`` by the number the counter showed (all of one size); None where they cannot be told
    for certain."""
    if {count % 10 for count in samples} != set(range(10)):
        return None
    first: dict[int, np.ndarray] = {}  # a picture per last digit
    # the same for every number ending alike
    same = np.ones(next(iter(samples.values()))[0].shape[:2], dtype=bool)
    for count, bands in samples.items():
        for band in bands:
            if band.shape != same.shape + (3,):
                return None
            reference = first.setdefault(count % 10, band)
            same &= (band == reference).all(axis=2)
    # differs between numbers with the same tens and another last digit
    varies = np.zeros_like(same)
    by_tens: dict[int, np.ndarray] = {}
    for count, bands in sorted(samples.items()):
        reference = by_tens.setdefault(count // 10, bands[0])
        varies |= (bands[0] != reference).any(axis=2)
    shown = [(count, band) for count, bands in samples.items() for band in bands]
    for box in _boxes(same & varies):
        digits: dict[int | str, np.ndarray] = {d: first[d][box].copy() for d in range(10)}
        if len({picture.tobytes() for picture in digits.values()}) < 10:
            continue
        words = [picture_numbers(band, 1.0, digits, 1) for _, band in shown]
        for shortest in (2, 1):  # a lone digit is taken only where no counter reads without it
            for side in ("left", "right"):
                if all(
                    chosen_number(numbers_of(found, shortest), side) == count
                    for (count, _), found in zip(shown, words, strict=True)
                ):
                    shortest, counters = _as_drawn(
                        words, side, [count for count, _ in shown], shortest
                    )
                    return LearntCounter(
                        {int(d): picture for d, picture in digits.items()},
                        side,
                        place,
                        shortest,
                        counters=counters,
                    )
    return None


def learn_text(
    samples: dict[int, list[np.ndarray]], mines: int, place: str = "below"
) -> LearntCounter | None:
    """A counter written as text, from pictures of the strip at ``place`` by the mines left then (all
    of one size): its digits, its ink and paper, and whether it is the leftmost or rightmost number
    or a "flags/mines" label (kmines' "Mines: 3/10", sgt-mines' "Marked: 3 / 10", gnome-mines'
    "3/10"), whose flags count up. Text shifts as its numbers widen, and its anti-aliasing with
    where it falls, so no pixel is the same in every picture of a digit: the strips are cut into
    glyphs (blots of the ink), and glyphs that look alike are one character. Which character is
    which digit follows from what each strip must show (see _spellings); a spelling is kept only
    where its digit pictures read every strip back to its own number, as the pack will read it."""
    shown = [(left, band) for left, bands in sorted(samples.items()) for band in bands]
    if {left % 10 for left, _ in shown} != set(range(10)) or len(
        {band.shape for _, band in shown}
    ) > 1:
        return None
    colours = _text_colours([band for _, band in shown])
    if colours is None:
        return None
    pictures = _glyph_pictures([band for _, band in shown], colours)
    if len(pictures) < 10:
        return None
    inks = {char: glyph_ink(picture, colours) for char, picture in pictures.items()}
    alike = _alike(inks)
    lines = [
        [text.translate(alike) for text in read_glyphs(band, colours, inks)] for _, band in shown
    ]
    for side in ("label", "left", "right"):
        targets = [f"{mines - left}/{mines}" if side == "label" else str(left) for left, _ in shown]
        for spelling in _spellings(lines, targets, side == "label"):
            digits: dict[int | str, np.ndarray] = {
                int(d) if d.isdigit() else d: pictures[c] for d, c in spelling.items()
            }
            glyphs = {d: inks[spelling[str(d)]] for d in digits}
            read = [read_glyphs(band, colours, glyphs) for _, band in shown]
            for shortest in (2,) if side == "label" else (2, 1):
                if all(
                    (label_value(text) if side == "label" else text_value(text, side, shortest))
                    == left
                    for (left, _), text in zip(shown, read, strict=True)
                ):
                    if side == "label":
                        return LearntCounter(digits, side, place, shortest, colours)
                    words = [text_numbers(text, 1) for text in read]
                    shortest, counters = _as_drawn(
                        words, side, [left for left, _ in shown], shortest
                    )
                    return LearntCounter(digits, side, place, shortest, colours, counters)
    return None


def _as_drawn(
    words: list[list[str]], side: str, counts: list[int], shortest: int
) -> tuple[int, int]:
    """A counter's fewest digits and the numbers its strip shows, as every strip drew them (``words``:
    the numbers in each, left to right; ``counts``: what each showed; ``shortest``: the fewest digits
    that read them all): the counter is as wide as in the narrowest strip where that still reads each
    one (winemine's "010": 3, so that one with its last digit covered is not read as 1 or 0), and
    ``counters`` is the numbers in the strip with the fewest (2 where a timer stands beside it)."""
    chosen = [numbers_of(found, shortest)[0 if side == "left" else -1] for found in words]
    width = min(map(len, chosen))
    if width > shortest and all(
        chosen_number(numbers_of(found, width), side) == count
        for found, count in zip(words, counts, strict=True)
    ):
        shortest = width
    return shortest, min(len(numbers_of(found, shortest)) for found in words)


def _text_colours(bands: list[np.ndarray]) -> Colours | None:
    """The ink and paper of the text that changes between ``bands``: the paper is the commonest
    colour round the pixels that change, the ink the commonest of the colours furthest from it."""
    changes = np.zeros(bands[0].shape[:2], dtype=bool)
    for band in bands[1:]:
        changes |= (band != bands[0]).any(axis=2)
    if not changes.any():
        return None
    near = cv2.dilate(changes.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    colours, counts = np.unique(
        np.concatenate([band[near] for band in bands]), axis=0, return_counts=True
    )
    paper = colours[counts.argmax()]
    distance = np.linalg.norm(colours.astype(np.float32) - paper, axis=1)
    far = distance >= 0.7 * distance.max()
    ink = colours[far][counts[far].argmax()]
    return (int(ink[0]), int(ink[1]), int(ink[2])), (int(paper[0]), int(paper[1]), int(paper[2]))


def _glyph_pictures(bands: list[np.ndarray], colours: Colours) -> dict[str, np.ndarray]:
    """A picture of each glyph seen in ``bands`` (blots of ink as high as text: at most twice the
    median blot, and not wider than twice their height), glyphs alike (as counter.py's read_glyphs
    matches them) taken once, each under a stand-in character (Unicode's private use area)."""
    pictures: dict[str, np.ndarray] = {}
    inks: dict[str, np.ndarray] = {}
    for band in bands:
        amount = ink_amount(band, *colours)
        boxes = glyph_boxes(amount)
        if not boxes:
            continue
        tall = float(np.median([h for _, _, _, h in boxes]))
        for x, y, w, h in boxes:
            if h > 2 * tall or w > 2 * h:
                continue
            crop = amount[y : y + h, x : x + w]
            if any(glyph_distance(crop, ink) < GLYPH_LIMIT for ink in inks.values()):
                continue
            char = chr(0xE000 + len(pictures))
            pictures[char] = band[max(y - 1, 0) : y + h + 1, max(x - 1, 0) : x + w + 1].copy()
            inks[char] = glyph_ink(pictures[char], colours)
    return pictures


def _alike(inks: dict[str, np.ndarray]) -> dict[int, str]:
    """Stand-ins for one character: glyphs read as one another (within GLYPH_LIMIT) are one
    character drawn at two sub-pixel positions, whose reading picks the closer picture. As a
    str.translate table to the first stand-in of each such group."""
    first = {char: char for char in inks}

    def root(char: str) -> str:
        while first[char] != char:
            char = first[char]
        return char

    for a, b in itertools.combinations(sorted(inks), 2):
        if glyph_distance(inks[a], inks[b]) < GLYPH_LIMIT:
            first[max(root(a), root(b))] = min(root(a), root(b))
    return {ord(char): root(char) for char in inks}


def _spellings(lines: list[list[str]], targets: list[str], label: bool) -> Iterator[dict[str, str]]:
    """Each way of spelling the characters of ``targets`` (digits, and "/" in a label) with the
    stand-in characters of ``lines`` (a strip's lines of text), one stand-in per character and a
    character per stand-in, such that every strip shows its target: as a word of its own, or for a
    label as flags, "/", mines, with a space either side of the "/" or none. Characters are spelt
    fewest choices first (a digit's choices: the glyphs in every strip whose target holds it), and a
    strip is checked as soon as its target is spelt."""
    shown = [set("".join(text)) - {" ", UNREAD} for text in lines]
    chars = sorted(set("".join(targets)))
    choices = {
        c: set.intersection(*(shown[i] for i, t in enumerate(targets) if c in t)) for c in chars
    }
    order = sorted(chars, key=lambda c: len(choices[c]))
    # the strip is spelt once order[k] is
    done_at = [max(order.index(c) for c in set(t)) for t in targets]
    tries = 0

    def fits(i: int, spelling: dict[str, str]) -> bool:
        if not label:
            return any(
                "".join(spelling[c] for c in targets[i]) in text.split() for text in lines[i]
            )
        flags, _, mines = targets[i].partition("/")
        word = re.compile(
            r"(?<![^ ])"
            + "".join(spelling[c] for c in flags)
            + " ?"
            + spelling["/"]
            + " ?"
            + "".join(spelling[c] for c in mines)
            + r"(?![^ ])"
        )
        return any(word.search(text) for text in lines[i])

    def spell(k: int, spelling: dict[str, str]) -> Iterator[dict[str, str]]:
        nonlocal tries
        if k == len(order):
            yield dict(spelling)
            return
        for stand_in in sorted(choices[order[k]] - set(spelling.values())):
            tries += 1
            if tries > SEARCH_LIMIT:
                return
            spelling[order[k]] = stand_in
            if all(fits(i, spelling) for i, at in enumerate(done_at) if at == k):
                yield from spell(k + 1, spelling)
            del spelling[order[k]]

    return spell(0, {})


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

    def __init__(self, mines: int | None) -> None:
        # None while the count is unknown: nothing is watched (Looks.mines_left is None)
        self.mines = mines
        self.samples: dict[str, dict[int, list[np.ndarray]]] = {place: {} for place in PLACES}
        self._kept_at: dict[int, list[float]] = {}  # by number, when each of its strips was kept
        self._last: int | None = None  # the number of the last reading
        self._per_digit = [0] * 10
        # the digits are known (the pack's, or learnt here): nothing left to watch
        self.learnt = False
        self._tried = 0  # strips kept when learn last tried
        self.spent = 0.0  # seconds learn has taken this run (LEARN_BUDGET)

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
        """Whether a strip showing ``left`` mines left could still be kept: the mine count itself
        (no flag placed) whatever else ends in its digit, as learn needs it (a CI run of
        ace-minesweeper, 200 mines, kept 40 strips, four of the numbers ending in each digit and
        none of 200, and learnt no counter)."""
        return (
            not self.learnt
            and len(self._kept_at.get(left, ())) < SAMPLES_PER_COUNT
            and (self._per_digit[left % 10] < SAMPLES_PER_DIGIT or left == self.mines)
        )

    def eager(self, left: int) -> bool:
        """Whether a strip showing ``left`` mines left is wanted enough that the learner places one
        flag at a time and reads the board twice after each, so that every number shows (flags in
        batches skip numbers): until EAGER_PER_DIGIT strips of numbers ending in its last digit are
        kept (a game with no counter that counts the mines left then costs some 20 such flags)."""
        return self.wants(left) and self._per_digit[left % 10] < EAGER_PER_DIGIT

    def learn(self) -> LearntCounter | None:
        """The counter, the first time it can be told above, below or beside the board (each time
        strips were kept since the last try): its digits as pictures (learn_digits), once it was
        seen with no flag placed (it must read the mine count there: a count of the flags placed,
        counting up, reads its numbers back digit by digit in some games), else as text
        (learn_text)."""
        kept = sum(
            len(bands) for by_number in self.samples.values() for bands in by_number.values()
        )
        if self.learnt or kept == self._tried or self.over_budget or self.mines is None:
            return None
        self._tried = kept
        start = time.perf_counter()
        try:
            for place, samples in self.samples.items():
                found = learn_digits(samples, place) if self.mines in samples else None
                found = found or learn_text(samples, self.mines, place)
                if found is not None:
                    # the strips are not needed again
                    self.learnt, self.samples = (
                        True,
                        {place: {} for place in PLACES},
                    )
                    return found
            return None
        finally:
            self.spent += time.perf_counter() - start

    @property
    def over_budget(self) -> bool:
        """Whether learning the counter has taken its LEARN_BUDGET: no more tries this run."""
        return self.spent >= LEARN_BUDGET

    def account(self) -> str:
        """What was seen of the counter, for a run that learnt none: how many strips, of which
        numbers, the last digits never seen, and whether the mine count itself (no flag placed) was."""
        counts = sorted((n for n, kept in self._kept_at.items() if kept), reverse=True)
        missing = sorted(set(range(10)) - {n % 10 for n in counts})
        shown = (
            f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}" if counts else ""
        )
        strips = sum(self._per_digit)
        return (
            f"{strips} strip{'' if strips == 1 else 's'} of {len(counts)} number{'' if len(counts) == 1 else 's'}"
            + (f" ({shown})" if shown else "")
            + (
                f"; no number ending in {', '.join(map(str, missing))}"
                if missing
                else "; every last digit, but no digits cut from them read every strip back"
            )
            + ("" if self.mines in counts else f"; not the mine count, {self.mines}")
        )
