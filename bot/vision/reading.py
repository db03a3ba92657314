"""From pixels to a board: a screenshot read whole (the board located unless its place is known,
every cell, the face and the mines-left counter, the game's state)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import Board
from bot.errors import ImpossibleReading, NoBoardFound, UnreadableCell
from bot.vision.counter import label_counter, led_counter, picture_counter, text_counter
from bot.vision.geometry import Geometry
from bot.vision.grid import find_grids
from bot.vision.locate import locate_cells
from bot.vision.pack import SkinPack, pack_named
from bot.vision.tiles import classifier_for, read_cells, zeros_beside_covered
from bot.vocabulary import (
    COVERED,
    EXPLODED,
    FLAG,
    HIDDEN,
    MINE,
    QUESTION,
    STANDARD_MINES,
    WRONG_FLAG,
    State,
)

# the face and the counters sit within this many cell pitches above (or below) the board
BAND_PITCHES = 6


@dataclass(frozen=True, eq=False)
class Reading:
    """One screenshot read: geometry, board, game state, the counter."""

    geometry: Geometry
    board: Board
    state: State
    counter: int | None = None  # the mines-left counter, read when the mine count was not given

    @property
    def counted(self) -> int | None:
        """The mine count as the counter gave it (mines left plus flags), or None."""
        return self.board.mines if self.counter is not None else None


def check_cells(
    image: np.ndarray,
    geometry: Geometry,
    scores: np.ndarray,
    limit: float,
    save_to: str | None = None,
) -> None:
    """Raise :class:`UnreadableCell` for the worst cell that matches no tile."""
    if scores.max() < limit:
        return
    r, c = (int(v) for v in np.unravel_index(np.argmax(scores), scores.shape))
    x, y, w, h = geometry.box(r, c)
    where = ""
    if save_to:
        cv2.imwrite(save_to, image[max(y, 0) : y + h, max(x, 0) : x + w])
        where = f"; its picture is in {save_to}"
    what = f"cell ({r},{c}) at ({x},{y}) in the screenshot matches no {geometry.skin} tile"
    raise UnreadableCell(
        f"{what}; move anything covering the board (the pointer?) and read it again",
        geometry.skin,
        what=what,
        detail=f"best RMS difference {scores[r, c]:.0f}, limit {limit:.0f}{where}",
        at=(x + w // 2, y + h // 2),
    )


def check_zeros(geometry: Geometry, codes: np.ndarray) -> None:
    """Raise :class:`ImpossibleReading` for a cell read as 0 beside a covered one: every game opens a
    0's neighbours, so the picture is something else (a hover highlight, a pressed cell, a cell
    half drawn) that looks like an empty cell."""
    beside = zeros_beside_covered(codes)
    if beside.any():
        r, c = (int(v) for v in np.argwhere(beside)[0])
        x, y, _, _ = geometry.box(r, c)
        raise ImpossibleReading(
            f"cell ({r},{c}) at ({x},{y}) reads as empty (0) beside a covered cell, which no game shows: something "
            "is drawn over it (the pointer's highlight? a pressed cell?); move the pointer off the board and read again",
            geometry.skin,
        )


def face_centre(
    image: np.ndarray, geometry: Geometry, pack: SkinPack
) -> tuple[float, float] | None:
    """The middle of the face button in image pixels (where to click for a new game), or None."""
    face = find_face(image, geometry, pack)
    if face is None:
        return None
    x, y, w, h = face[1]
    return x + w / 2, y + h / 2


def find_face(
    image: np.ndarray, geometry: Geometry, pack: SkinPack
) -> tuple[State, tuple[int, int, int, int]] | None:
    """The face button above the board: the state it shows and its box, or None (no face). Looked
    for first where it was last found above such a board (a live game reads its board some 40 times
    a game: the whole band took 17 ms of a winemine expert reading, this a tenth of one)."""
    if not pack.faces:
        return None
    band, left, top = band_above(image, geometry)
    pictures = [
        (
            state,
            picture
            if geometry.scale == 1
            else cv2.resize(
                picture, None, fx=geometry.scale, fy=geometry.scale, interpolation=cv2.INTER_LINEAR
            ),
        )
        for state, faces in pack.faces.items()
        for picture in faces
    ]
    key = (pack.name, geometry.pitch, geometry.rows, geometry.cols, band.shape)
    seen = _FACE_SEEN.get(key)
    found = None if seen is None else _best_face(band, pictures, seen)
    if found is None:
        found = _best_face(band, pictures, None)
    if found is None:
        return None
    state, (x, y, w, h) = found
    if len(_FACE_SEEN) > FACES_KEPT:
        _FACE_SEEN.clear()
    _FACE_SEEN[key] = (x, y)
    return state, (left + x, top + y, w, h)


FACE_SLACK = 2  # px round the face's last place where it is looked for first
FACES_KEPT = 64  # places remembered (each board size and pack has one)
_FACE_SEEN: dict[
    tuple[object, ...], tuple[int, int]
] = {}  # where a face was last found, in its band


def _best_face(
    band: np.ndarray, pictures: list[tuple[State, np.ndarray]], near: tuple[int, int] | None
) -> tuple[State, tuple[int, int, int, int]] | None:
    """The face picture that best matches ``band`` (within FACE_SLACK of ``near``, or anywhere), if
    it matches: its state and its box in the band."""
    best: tuple[float, State, tuple[int, int, int, int]] | None = None
    for state, picture in pictures:
        ph, pw = picture.shape[:2]
        x0 = y0 = 0
        part = band
        if near is not None:
            x0, y0 = max(near[0] - FACE_SLACK, 0), max(near[1] - FACE_SLACK, 0)
            part = band[y0 : near[1] + ph + FACE_SLACK, x0 : near[0] + pw + FACE_SLACK]
        if part.shape[0] < ph or part.shape[1] < pw:
            continue
        score, _, (fx, fy), _ = cv2.minMaxLoc(
            cv2.matchTemplate(part, picture, cv2.TM_SQDIFF_NORMED)
        )
        if best is None or score < best[0]:
            best = (score, state, (x0 + fx, y0 + fy, pw, ph))
    return (best[1], best[2]) if best is not None and best[0] < 0.1 else None


def band_above(image: np.ndarray, geometry: Geometry) -> tuple[np.ndarray, int, int]:
    """The strip above the board where games put the face and the counters, and its top-left."""
    x, y, w, h = geometry.region()
    top, left = max(round(y - BAND_PITCHES * geometry.pitch[1]), 0), max(x, 0)
    return image[top:y, left : x + w], left, top


def band_below(image: np.ndarray, geometry: Geometry) -> np.ndarray:
    """The strip below the board, as high as band_above's: some games put their counters there
    (Windows 7's Minesweeper, xbomb)."""
    x, y, w, h = geometry.region()
    bottom = round(y + h + BAND_PITCHES * geometry.pitch[1])
    return image[max(y + h, 0) : max(bottom, 0), max(x, 0) : x + w]


def bands(
    region: np.ndarray, local: Geometry, screen: np.ndarray, geometry: Geometry
) -> dict[str, np.ndarray]:
    """The strips above, below and beside the board, where counters are (bot/vision/counting.py): the
    first from a grab of the board's ``region`` (``local``: the lattice there), the others from one of
    the whole ``screen`` (``geometry``: the lattice there), as they are not in the region."""
    return {
        "above": band_above(region, local)[0],
        "below": band_below(screen, geometry),
        "beside": band_beside(screen, geometry),
    }


def band_beside(image: np.ndarray, geometry: Geometry) -> np.ndarray:
    """The strip right of the board's upper half, where gnome-mines writes its "flags/mines"."""
    x, y, w, h = geometry.region()
    return image[
        max(y, 0) : y + h // 2, max(x + w, 0) : x + w + max(round(8 * geometry.pitch[0]), 300)
    ]


def counter_strip(image: np.ndarray, geometry: Geometry, place: str) -> np.ndarray:
    """The strip a counter is looked for in: ``place`` is "above", "below" or "beside" the board."""
    if place == "beside":
        return band_beside(image, geometry)
    return band_below(image, geometry) if place == "below" else band_above(image, geometry)[0]


def read_counter(image: np.ndarray, geometry: Geometry, pack: SkinPack) -> int | None:
    """The mines-left counter, or None where the pack cannot read one or none shows
    (how each kind of counter is read: bot/vision/counter.py)."""
    if not pack.has_counter:
        return None
    strip = counter_strip(image, geometry, pack.counter_at)
    # the board at the picture's edge (a screenshot cut to the board): no counter shows
    if strip.size == 0:
        return None
    if pack.counter_text is not None:
        count = label_counter if pack.counter == "label" else text_counter
        return count(strip, pack, geometry.scale)
    if pack.counter_leds is not None:
        return led_counter(strip, pack, geometry.scale)
    return picture_counter(strip, geometry.scale, pack)


def board_state(board: Board, flags_to_win: bool = False) -> State:
    """The state a board shows by itself: lost with a mine showing, won when only mines are left
    (and, where the game asks for it, all of them are flagged)."""
    cells = board.cells
    if np.isin(cells, (MINE, EXPLODED, WRONG_FLAG)).any():
        return "lost"
    hidden = int(np.isin(cells, HIDDEN).sum())
    flagged = int((cells == FLAG).sum())
    if (
        board.mines is not None
        and hidden == board.mines
        and (flagged == hidden or not flags_to_win)
    ):
        return "won"
    return "playing"


def read(
    image: np.ndarray,
    packs: list[SkinPack],
    geometry: Geometry | None = None,
    mines: int | None = None,
    save_unreadable: str | None = None,
    face: bool = True,
) -> Reading:
    """Read a screenshot: locate the board (unless ``geometry`` is given), every cell, the state
    (from the face above the board where the cells leave it open, unless not ``face``: a live
    table whose game shows no face of its pack spares the search, 40-70 ms at Expert at 1.5x)."""
    if geometry is None:
        geometry, codes, scores = locate_cells(image, packs)
        pack = pack_named(packs, geometry.skin)
    else:
        pack = pack_named(packs, geometry.skin)
        codes, scores = read_cells(image, geometry, pack)
    check_cells(
        image, geometry, scores, classifier_for(pack).limit(geometry.scale), save_unreadable
    )
    check_zeros(geometry, codes)
    counter = None
    if mines is None:  # the live loop passes the count it found once: no counter on every reading
        counter = read_counter(image, geometry, pack)
        # Mines left plus the flags placed; unless more mines are left than cells that could hold
        # them (minegauler flags every mine when it is won but leaves its counter alone).
        unflagged = int(np.isin(codes, (COVERED, QUESTION, MINE, EXPLODED)).sum())
        if counter is not None and 0 <= counter <= unflagged:
            mines = counter + int(np.isin(codes, (FLAG, WRONG_FLAG)).sum())
        else:
            mines = STANDARD_MINES.get((geometry.rows, geometry.cols))
    board = Board(codes, mines)
    # what the cells show settles it; otherwise the face tells (a win with mines left covered)
    state = board_state(board, pack.flags_to_win)
    if state == "playing" and face:
        shown = find_face(image, geometry, pack)
        state = shown[0] if shown else state
    return Reading(geometry, board, state, counter)


def read_partly(
    image: np.ndarray, packs: list[SkinPack]
) -> tuple[Geometry, np.ndarray, np.ndarray]:
    """What can be read of a board that no pack reads whole (for ``minebot record``): its geometry,
    the codes of its cells, and which of them were read (a tile within the pack's limit, and no 0
    beside a covered cell). Where no pack reads the board at all: the lattice, no cell read."""
    try:
        geometry, codes, scores = locate_cells(image, packs)
    except NoBoardFound:
        grids = find_grids(image)
        if not grids:
            raise
        geometry = grids[0].geometry
        shape = (geometry.rows, geometry.cols)
        return geometry, np.full(shape, COVERED, dtype=np.int8), np.zeros(shape, dtype=bool)
    known = scores < classifier_for(pack_named(packs, geometry.skin)).limit(geometry.scale)
    return geometry, codes, known & ~zeros_beside_covered(codes)
