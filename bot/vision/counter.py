"""Mines-left counters: the number a game shows above, below or beside its board.

Games draw them three ways, and a pack says which (bot/vision/pack.py):

* seven-segment digits drawn the same everywhere (winemine, xdemineur): the pack's digit pictures are
  matched over the band above (or below) the board (:func:`picture_counter`);
* seven-segment lights whose pack has no pictures of all ten digits (the web looks: their screens
  never show every digit): each light is decoded from which of its segments are lit
  (:func:`led_counter`);
* text (minegauler, gnome-mines), whose pixels shift with its position: read glyph by glyph
  (:func:`read_text`).

Each reader gets the strip of the screenshot to look in and gives the counter's value, or None when
no counter shows there. A counter left of the others or right of them: the pack's ``counter``. A game
that shows a timer beside its counter shows two numbers there (the pack's ``counters``): with one of
them covered, the one left is not taken for the counter, as which one it is cannot be told.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from weakref import WeakKeyDictionary

import cv2
import numpy as np

from bot.vision.pack import SkinPack

DIGIT_LIMIT = 0.05  # counter digits match their picture this well (SQDIFF_NORMED; 0 at 1x)
# Scaled or saved lossily, a digit is the picture it matches within DIGIT_LOOSE, where every other
# digit there lies DIGIT_MARGIN times further (xdemineur's 9 enlarged 1.5x: 0.035-0.069, the next
# digit 0.16-0.19; winemine's 1 in JPEG at quality 80, grey: 0.031, the next 0.31).
DIGIT_LOOSE, DIGIT_MARGIN = 0.15, 2.0
# A text glyph matches its picture when their ink (0 paper .. 1 ink) differs by less than this on
# average, the glyph resized to the picture's size (text drawn at sub-pixel positions shifts its
# anti-aliasing from one place to the next, so no pixel-exact match is possible).
GLYPH_LIMIT = 0.15
UNREAD = "?"  # a glyph of the counter's ink that matches no digit picture
TEXT_HEIGHT = (0.7, 1.4)  # a blot this many times as high as the pack's glyphs is text too
SPACE = 0.4  # glyphs further apart than this many glyph heights are two words ("Marked: 0 / 10")
# Seven-segment lights: a pixel is part of a light when it shows at least LED_INK of the lit colour
# over black. A segment is lit when its sample shows LIT_INK on average: unlit segments are drawn
# in dotted dark red (0.25 on average), lit ones in full red (1, a little less where a browser
# smooths a zoomed page).
LED_INK = 0.2
# Every light of a counter is as wide as the others (lit and unlit segments draw a full 8): one this
# much narrower has something over a side of it (a dark box over the left of winxp's "090" at 2x read 30)
LIGHT_SHARE = 0.85
LIT_INK = 0.6
# A segment showing between UNSURE_INK and LIT_INK is neither: the light is not read. Lights of seven
# segments show none there at any scale; sprites98-web's dotted zeros, a font of their own, show their
# dot at 0.57 at 1.5x and at 0.59-0.6 enlarged 2x, where "000" was read 999.
UNSURE_INK = 0.45
# Where each segment is sampled, as fractions of the light's box (x0, x1, y0, y1), a..g clockwise
# from the top, g the middle bar.
SEGMENTS = {
    "a": (0.3, 0.7, 0.0, 0.1),
    "b": (0.85, 1.0, 0.2, 0.35),
    "c": (0.85, 1.0, 0.65, 0.8),
    "d": (0.3, 0.7, 0.9, 1.0),
    "e": (0.0, 0.15, 0.65, 0.8),
    "f": (0.0, 0.15, 0.2, 0.35),
    "g": (0.3, 0.7, 0.45, 0.55),
}
# The lit segments of each character (6, 7 and 9 are drawn with or without their extra bar).
SHAPES = {
    "abcdef": "0",
    "bc": "1",
    "abdeg": "2",
    "abcdg": "3",
    "bcfg": "4",
    "acdfg": "5",
    "acdefg": "6",
    "cdefg": "6",
    "abc": "7",
    "abcf": "7",
    "abcdefg": "8",
    "abcdfg": "9",
    "abcfg": "9",
    "g": "-",
}


Colours = tuple[tuple[int, int, int], tuple[int, int, int]]  # a text's ink and paper (BGR)


def describe(counter: str, place: str) -> str:
    """Where a pack's counter is, in words (its ``counter`` and ``counter_at``)."""
    what = "the flags/mines label" if counter == "label" else f"the {counter} one"
    return f"{what} {'right of' if place == 'beside' else place} the board"


def ink_amount(
    image: np.ndarray, ink: tuple[int, int, int], paper: tuple[int, int, int]
) -> np.ndarray:
    """How much ink each pixel shows: 0 paper .. 1 ink, and 0 for colours off the paper-ink line."""
    pixels = image.astype(np.float32) - np.asarray(paper, dtype=np.float32)
    axis = np.subtract(ink, paper, dtype=np.float32)
    amount = pixels @ axis / float(axis @ axis)
    off = np.linalg.norm(pixels - amount[..., None] * axis, axis=2)
    amount = np.clip(amount, 0, 1)
    amount[off > 0.25 * float(np.linalg.norm(axis))] = 0
    return amount


def glyph_boxes(amount: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The boxes (x, y, w, h) of the connected blots of ink, at least 5 px high."""
    if amount.size == 0:  # (OpenCV's connected components of an empty picture crash the process)
        return []
    mask = (amount > 0.5).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return [(int(x), int(y), int(w), int(h)) for x, y, w, h in stats[1:n, :4] if h >= 5]


_GLYPHS: WeakKeyDictionary[SkinPack, dict[int | str, np.ndarray]] = WeakKeyDictionary()


def glyph_ink(picture: np.ndarray, colours: Colours) -> np.ndarray:
    """The ink of a digit picture of a text counter, cropped to its glyph (its largest blot)."""
    amount = ink_amount(picture, *colours)
    x, y, w, h = max(glyph_boxes(amount), key=lambda b: b[2] * b[3])
    return amount[y : y + h, x : x + w]


def glyph_distance(a: np.ndarray, b: np.ndarray) -> float:
    """How unlike two glyphs' ink is, per pixel of the larger box: one brought to the other's
    height and moved so that their centres of ink meet, the ink that differs then, the smaller of
    the two ways round. Text drawn at sub-pixel positions spreads a column of ink over two columns
    in one place and not in the next, so the boxes differ by a pixel; moving the crisp one by the
    fraction draws the spread one, not the other way round."""
    return min(_moved_distance(a, b), _moved_distance(b, a))


def _moved_distance(crop: np.ndarray, glyph: np.ndarray) -> float:
    """The ink that differs, ``crop`` brought to ``glyph``'s height and centre of ink."""
    h, w = glyph.shape
    crop, glyph = crop.astype(np.float32), glyph.astype(np.float32)
    if crop.shape[0] != h:
        crop = cv2.resize(
            crop,
            (max(round(crop.shape[1] * h / crop.shape[0]), 1), h),
            interpolation=cv2.INTER_AREA,
        )
    (cx, cy), (gx, gy) = _centre(crop), _centre(glyph)
    move = np.array([[1, 0, gx - cx + 2], [0, 1, gy - cy + 2]], dtype=np.float32)
    moved = cv2.warpAffine(crop, move, (w + 4, h + 4), flags=cv2.INTER_LINEAR)
    framed = cv2.copyMakeBorder(glyph, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0)
    return float(cv2.norm(moved, framed, cv2.NORM_L1)) / (h * max(w, crop.shape[1]))


def _centre(ink: np.ndarray) -> tuple[float, float]:
    """The centre of a glyph's ink (x, y)."""
    moments = cv2.moments(ink)
    total = moments["m00"] or 1.0
    return moments["m10"] / total, moments["m01"] / total


def _glyphs(pack: SkinPack) -> dict[int | str, np.ndarray]:
    """The ink of each digit picture of a text counter, cropped to the glyph."""
    if pack not in _GLYPHS:
        assert pack.counter_text is not None
        _GLYPHS[pack] = {
            char: glyph_ink(picture, pack.counter_text) for char, picture in pack.digits.items()
        }
    return _GLYPHS[pack]


def read_text(image: np.ndarray, pack: SkinPack, scale: float = 1.0) -> list[str]:
    """The lines of digits (and '/') written in the pack's counter ink in ``image``, the game drawn at
    ``scale`` times the pack's size (see read_glyphs)."""
    assert pack.counter_text is not None
    return read_glyphs(image, pack.counter_text, _glyphs(pack), scale)


def read_glyphs(
    image: np.ndarray,
    colours: Colours,
    glyphs: Mapping[str, np.ndarray] | Mapping[int | str, np.ndarray],
    scale: float = 1.0,
) -> list[str]:
    """The lines of text written in ``colours`` (ink, paper) in ``image``, left to right, each glyph
    read as the one of ``glyphs`` (their ink) it matches, a glyph like none of them (a letter,
    another font) as UNREAD, so that a number it is part of is not taken for a shorter one, and a
    gap wider than SPACE glyph heights as a space: heights as the text is drawn, ``scale`` times the
    glyphs' (gnome-mines' "0/99" enlarged 2x was "0/9 9", read as 9 mines left)."""
    amount = ink_amount(image, *colours)
    tall = float(np.median([glyph.shape[0] for glyph in glyphs.values()])) * scale
    found: list[tuple[int, int, int, str, int]] = []  # x, y centre, height, char, right edge
    for x, y, w, h in glyph_boxes(amount):
        crop = amount[y : y + h, x : x + w]
        scores = {char: glyph_distance(crop, glyph) for char, glyph in glyphs.items()}
        best = min(scores, key=scores.__getitem__)
        if scores[best] < GLYPH_LIMIT:
            found.append((x, y + h // 2, h, str(best), x + w))
        elif TEXT_HEIGHT[0] * tall <= h <= TEXT_HEIGHT[1] * tall:  # text, not an icon or a border
            found.append((x, y + h // 2, h, UNREAD, x + w))
    lines: list[list[tuple[int, int, int, str, int]]] = []
    for glyph in sorted(found):
        line = next(
            (
                ln
                for ln in lines
                if abs(ln[-1][1] - glyph[1]) <= glyph[2] // 2
                and glyph[0] - ln[-1][0] <= 1.5 * glyph[2]
            ),
            None,
        )
        if line is None:
            lines.append([glyph])
        else:
            line.append(glyph)
    return [
        "".join(
            (" " if b[0] - a[4] > SPACE * tall else "") + b[3]
            for a, b in zip([ln[0], *ln], ln, strict=False)
        )
        for ln in lines
    ]


LABEL = re.compile(r"(?<![^ ])(\d+) ?/ ?(\d+)(?![^ ])")  # "flags/mines", a word of its own


def label_counter(strip: np.ndarray, pack: SkinPack, scale: float = 1.0) -> int | None:
    """Mines left from a "flags/mines" label (gnome-mines writes it beside the board; kmines and
    sgt-mines below it, "Mines: 0/10", "Marked: 0 / 10")."""
    return label_value(read_text(strip, pack, scale))


def label_value(lines: list[str]) -> int | None:
    """Mines left from the first "flags/mines" in ``lines``."""
    for line in lines:
        if (label := LABEL.search(line)) is not None:
            return int(label[2]) - int(label[1])
    return None


def text_counter(band: np.ndarray, pack: SkinPack, scale: float = 1.0) -> int | None:
    """A counter written as text: the leftmost or rightmost number in ``band``."""
    return chosen_number(
        text_numbers(read_text(band, pack, scale), pack.counter_shortest),
        pack.counter,
        pack.counters,
    )


def text_value(lines: list[str], side: str, shortest: int = 2) -> int | None:
    """The leftmost or rightmost number (``side``) of at least ``shortest`` characters in ``lines``."""
    return chosen_number(text_numbers(lines, shortest), side)


def text_numbers(lines: list[str], shortest: int = 2) -> list[str]:
    """The numbers of at least ``shortest`` characters in ``lines``, left to right."""
    return numbers_of([word for line in lines for word in line.split()], shortest)


def picture_counter(band: np.ndarray, scale: float, pack: SkinPack) -> int | None:
    """A counter of seven-segment digits drawn the same everywhere (picture_numbers): the number on
    the pack's side, where as many show as the game draws (its ``counters``)."""
    numbers = picture_numbers(band, scale, pack.digits, pack.counter_shortest, pack.lossy)
    return chosen_number(numbers, pack.counter, pack.counters)


def picture_numbers(
    band: np.ndarray,
    scale: float,
    digits: dict[int | str, np.ndarray],
    shortest: int = 2,
    lossy: bool = False,
) -> list[str]:
    """Seven-segment digits drawn the same everywhere: every digit picture is matched over ``band``;
    the matches form runs of neighbouring digits on one line (the counters and timers), given left
    to right where at least ``shortest`` digits long (a pack's ``counter_shortest``: 1 for a
    counter that drops its leading zeros, as xbomb's), a digit that cannot be told as UNREAD.

    At the game's own size a digit matches its picture exactly (DIGIT_LIMIT). Scaled or saved lossily
    (``lossy``: JPEG), no digit does: the pictures are scaled both ways a picture is (averaging areas,
    and linearly), JPEG's blurred colour is left out (grey: red digits on black lost their strokes in
    it), and a digit is the picture it lies clearly nearest (DIGIT_LOOSE, DIGIT_MARGIN), else unread:
    xdemineur's "099" enlarged 1.5x matched its 9s at 0.069, past DIGIT_LIMIT, and the timer's "000"
    was read as the counter."""
    exact = scale == 1 and not lossy
    if lossy:
        band = _grey(band)
    found: list[tuple[float, int, int, int, int | str]] = []  # score, x, y, width, digit
    maps: list[np.ndarray] = []  # each digit's scores over the band
    for digit, picture in digits.items():
        if lossy:
            picture = _grey(picture)
        shapes = (
            [picture]
            if scale == 1
            else [
                cv2.resize(picture, None, fx=scale, fy=scale, interpolation=how)
                for how in (cv2.INTER_AREA, cv2.INTER_LINEAR)
            ]
        )
        ph, pw = shapes[0].shape[:2]
        if band.shape[0] < ph or band.shape[1] < pw:
            return []
        scores = np.min(
            [cv2.matchTemplate(band, shape, cv2.TM_SQDIFF_NORMED) for shape in shapes], axis=0
        )
        maps.append(scores)
        for y, x in zip(
            *np.nonzero(scores < (DIGIT_LIMIT if exact else DIGIT_LOOSE * DIGIT_MARGIN)),
            strict=True,
        ):
            found.append((float(scores[y, x]), int(x), int(y), pw, digit))
    kept: list[tuple[float, int, int, int, int | str]] = []
    # best first; a weaker match overlapping a kept one is the same place
    for match in sorted(found):
        same = [k for k in kept if abs(match[1] - k[1]) < k[3] * 0.6 and abs(match[2] - k[2]) <= 2]
        if not same and (exact or match[0] < DIGIT_LOOSE):
            kept.append(match)
        elif not exact and any(k[4] != match[4] and match[0] < DIGIT_MARGIN * k[0] for k in same):
            # two digits fit that place
            kept = [(k[0], k[1], k[2], k[3], UNREAD) if k in same else k for k in kept]
    lines: list[
        list[tuple[float, int, int, int, int | str]]
    ] = []  # matches within 2 px of a line's first
    for match in sorted(kept, key=lambda m: m[2]):
        line = next((ln for ln in lines if abs(match[2] - ln[0][2]) <= 2), None)
        if line is None:
            lines.append([match])
        else:
            line.append(match)
    runs: list[list[tuple[float, int, int, int, int | str]]] = []
    for line in lines:  # (scaled, one digit may lie a pixel lower: bands of 4 px once cut a line in two, "040" read 4)
        for match in sorted(line, key=lambda m: m[1]):
            if runs and runs[-1][0] in line and match[1] - runs[-1][-1][1] <= 1.6 * runs[-1][-1][3]:
                runs[-1].append(match)
            else:
                runs.append([match])
    if not exact:  # a digit past a run's end that matched too poorly to be read: the run is not the whole number
        runs = [
            [(*m[:4], UNREAD) for m in run] if _digit_beside(run, maps) else run for run in runs
        ]
    return numbers_of(["".join(str(m[4]) for m in run) for run in runs], shortest)


def _digit_beside(
    run: list[tuple[float, int, int, int, int | str]], maps: list[np.ndarray]
) -> bool:
    """Whether a digit-like place (a score under DIGIT_LOOSE * DIGIT_MARGIN) lies one step past
    either end of a run of digit matches: a step as the run's digits lie apart, or a digit's width
    (winemine's 4 enlarged 2x matched at 0.153, and "134" was read as 13)."""
    x0, y, width = run[0][1], run[0][2], run[0][3]
    step = (run[-1][1] - x0) / (len(run) - 1) if len(run) > 1 else width
    for x in (round(x0 - step), round(run[-1][1] + step)):
        for scores in maps:
            window = scores[max(y - 2, 0) : y + 3, max(x - 2, 0) : max(x + 3, 0)]
            if window.size and float(window.min()) < DIGIT_LOOSE * DIGIT_MARGIN:
                return True
    return False


def _grey(picture: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY) if picture.ndim == 3 else picture


def led_counter(band: np.ndarray, pack: SkinPack, scale: float = 1.0) -> int | None:
    """Seven-segment lights, decoded segment by segment.

    Lit and unlit segments together draw a full "8" for every light, so each counter shows as one
    patch of red on black; black columns split it into its lights, and which segments are lit tells
    the character. A counter with a light that is no character is not read (None). Sizes are per 1x,
    times ``scale`` (classic98 at 4x: its lights, 8 px apart, were patches of their own, and "091" was read 9).
    """
    assert pack.counter_leds is not None
    amount = ink_amount(band, pack.counter_leds, (0, 0, 0))
    mask = (amount >= LED_INK).astype(np.uint8)
    # unlit segments are dotted, and lights stand 2 px apart per 1x: widen to join a counter's lights up
    patches = cv2.dilate(
        mask, np.ones((max(round(3 * scale), 3), max(round(7 * scale), 7)), np.uint8)
    )
    n, _, stats, _ = cv2.connectedComponentsWithStats(patches, connectivity=8)
    # a counter's patch is at least two lights wide (a light is 11x21 px at 1x)
    counters = sorted(
        tuple(int(v) for v in box)
        for box in stats[1:n, :4]
        if box[3] >= 9 * scale and box[2] >= box[3]
    )
    if not counters or len(counters) < pack.counters:
        return None
    x, y, w, h = counters[0] if pack.counter == "left" else counters[-1]
    text = _lights(mask[y : y + h, x : x + w], amount[y : y + h, x : x + w])
    return None if text is None else chosen_number(numbers_of([text], 2), pack.counter)


def _lights(mask: np.ndarray, amount: np.ndarray) -> str | None:
    """The characters of one counter (its patch of lights), or None when a light reads as none."""
    ys = np.nonzero(mask)[0]
    top, bottom = int(ys.min()), int(ys.max()) + 1
    used = mask[top:bottom].any(axis=0)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], used.astype(np.int8), [0]))))
    widest = int(np.max(edges[1::2] - edges[::2]))
    text = ""
    for left, right in zip(edges[::2], edges[1::2], strict=True):
        light = amount[top:bottom, left:right]
        h, w = light.shape
        # a sliver, or a light something covers in part, not a light
        if w < h // 3 or w < LIGHT_SHARE * widest:
            return None
        inks = {
            name: float(
                light[
                    int(y0 * h) : max(int(y0 * h) + 1, int(np.ceil(y1 * h))),
                    int(x0 * w) : max(int(x0 * w) + 1, int(np.ceil(x1 * w))),
                ].mean()
            )
            for name, (x0, x1, y0, y1) in SEGMENTS.items()
        }
        on = "".join(name for name, ink in inks.items() if ink > LIT_INK)
        if on not in SHAPES or any(UNSURE_INK <= ink <= LIT_INK for ink in inks.values()):
            return None
        text += SHAPES[on]
    return text


def numbers_of(words: list[str], shortest: int = 2) -> list[str]:
    """The words that are numbers of at least ``shortest`` characters (a lone digit is more often a
    stray match than a counter), a glyph that could not be read (UNREAD) taken for a digit."""
    return [t for t in words if len(t) >= shortest and t.lstrip("-").replace(UNREAD, "0").isdigit()]


def chosen_number(numbers: list[str], side: str, counters: int = 1) -> int | None:
    """The counter on ``side`` among the ``numbers`` found left to right; None where fewer show than
    the game draws (``counters``: with the counter covered, the timer beside it would be taken for
    it) or where it holds a glyph that could not be read (never a number it does not show)."""
    if not numbers or len(numbers) < counters:
        return None
    chosen = numbers[0] if side == "left" else numbers[-1]
    return None if UNREAD in chosen else int(chosen)
