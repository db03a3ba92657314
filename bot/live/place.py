"""Where the game is on the screen: its board found, the region grabbed round it, the pointer's
resting place, its face clicked. Used by the live table (bot/live/table.py), the level picker
and the learner."""

from __future__ import annotations

import numpy as np

from bot.devices.actuator import Mouse, pyautogui
from bot.devices.capture import Region, Screen
from bot.errors import BoardCutOff, CutBoard, NoBoardFound
from bot.vision import Geometry, Reading, read
from bot.vision.grid import find_grid, overlap
from bot.vision.pack import SkinPack, pack_named
from bot.vision.parts import CUT_SHOWN, check_cut, runs_off
from bot.vision.reading import BAND_PITCHES, face_centre


def board_region(geometry: Geometry, screen: Screen, below: bool = False) -> Region:
    """The board plus the band above it (face, counters), clipped to the screen; with ``below``,
    the band below it too (a status line: sgt-mines' "COMPLETED!", Windows 7's counters)."""
    x, y, w, h = geometry.region(margin=round(geometry.pitch[0]))
    band = round(BAND_PITCHES * geometry.pitch[1])
    left, top = max(x, screen.whole.left), max(y - band, screen.whole.top)
    right = min(x + w, screen.whole.left + screen.whole.width)
    bottom = min(y + h + (band if below else 0), screen.whole.top + screen.whole.height)
    return Region(left, top, right - left, bottom - top)


def park_point(geometry: Geometry, screen: Screen) -> tuple[float, float]:
    """Where the pointer waits during readings: just past the board's bottom-right corner, off every
    cell (no hover highlight) but still over the game. A pointer that leaves the game's window
    between readings makes gnome-mines lose the next click now and then (9 clicks in 42 runs of
    four beginner games parked 50 px out, none in 42 runs parked here)."""
    x = geometry.origin[0] + geometry.cols * geometry.pitch[0] + 3
    y = geometry.origin[1] + geometry.rows * geometry.pitch[1] + 3
    if x >= screen.whole.left + screen.whole.width or y >= screen.whole.top + screen.whole.height:
        return geometry.origin[0] - 4, geometry.origin[
            1
        ] - 4  # the board touches the screen's corner
    return x, y


def click_face(
    mouse: Mouse, image: np.ndarray, local: Geometry, pack: SkinPack, at: tuple[int, int]
) -> bool:
    """Click the game's face (for a new game; it also gives the game the keyboard), found in
    ``image`` above the board at ``local``; ``at``: the image's top-left corner on the screen.
    Whether there was a face to click."""
    face = face_centre(image, local, pack)
    if face is not None:
        mouse.click(at[0] + face[0], at[1] + face[1])
    return face is not None


# px between a board's cells and the screen's edge at which they may run on past it
TOUCHES = 1
# of a cell: a board this near the screen's edge may run on past it, by a sliver of a cell too
# thin for check_cut to see (CUT_SHOWN)
SLIVER = CUT_SHOWN
SLIVER_ALIKE = 12.0  # colour levels: a sliver's profile this near a cell's is a part of a cell
SLIVER_LINES = 3  # lines of cells in from the edge whose strips a sliver is held against
SLIVER_SHARE = 0.5  # of the cells of the edge line, those beside a sliver of a cell: a cut
WHOLE_VIEW = "move the game's window so that all of its board shows, then run minebot again"


def check_in_view(
    image: np.ndarray, geo: Geometry, cells: np.ndarray | None = None, pack: SkinPack | None = None
) -> None:
    """Refuse a board not all in view on the screen ``image``: cells that touch its edge (within
    TOUCHES px), or, read by a pack, come within a SLIVER of a cell of it, where a part of a cell
    too thin for check_cut can hide; a board less than a pitch from it where what lies between
    looks like the same strip of its own edge line (a fresh board's covered cells); or, read by
    ``pack``, a line of cells past a side that the pack's look still shows, cut by the edge or
    whole (something over the board there: check_cut)."""
    x, y, w, h = geo.region()
    near = max(TOUCHES, SLIVER * geo.cell_px)
    gaps = {"left": x, "top": y, "right": image.shape[1] - x - w, "bottom": image.shape[0] - y - h}
    sides = tuple(
        side
        for side, gap in gaps.items()
        if gap <= TOUCHES
        or (gap <= near and pack is not None)
        or (gap < max(geo.pitch) and _sliver_of_cells(image, geo, side, gap))
    )
    if sides:
        raise BoardCutOff(
            f"the board runs off the screen's {' and '.join(sides)} edge: {WHOLE_VIEW}", sides
        )
    if min(gaps.values()) > max(geo.pitch):
        return  # a whole line of cells would show past the board: the reading has it
    if geo.skin and _lattice_runs_off(image, geo):
        raise BoardCutOff(f"the board runs off the screen's edge: {WHOLE_VIEW}")
    if pack is None or cells is None:
        return
    try:
        check_cut(image, geo, cells, pack)
    except CutBoard as cut:
        raise BoardCutOff(
            f"the board runs off the screen's edge: {WHOLE_VIEW}", detail=str(cut)
        ) from None
    except NoBoardFound as part:
        raise BoardCutOff(
            f"only a part of the board shows (something over it?): {WHOLE_VIEW}", detail=str(part)
        ) from None


def _lattice_runs_off(image: np.ndarray, geo: Geometry) -> bool:
    """Whether the lattice of cells on the screen where ``geo`` is runs on past its edge (a board a
    pack reads in part, its cut line of cells flat: open, or covered in one colour)."""
    try:
        lattice = find_grid(image)
    except NoBoardFound:
        return False
    return overlap(lattice, geo) and runs_off(lattice, image.shape)


def _sliver_of_cells(image: np.ndarray, geo: Geometry, side: str, gap: int) -> bool:
    """Whether the ``gap`` px between the board and the screen's ``side`` look like the part of a
    line of cells a cut would leave: beside most cells of the board's edge line, a strip whose
    profile across the cut (its mean along the edge) is that of the same strip of some cell of
    the board's first SLIVER_LINES lines, within SLIVER_ALIKE levels everywhere. A frame or a
    margin has no cell's profile: a cell's strip holds the line or gap between cells."""
    across = side in ("left", "right")
    n = round(geo.cell_px)
    lines = geo.rows if across else geo.cols
    depth = geo.cols if across else geo.rows
    x, y, w, h = geo.region()
    px, py = geo.pitch

    def strip(line: int, start: float) -> np.ndarray:
        """The strip ``gap`` px deep from ``start`` (px across the cut) beside cell ``line``."""
        a = round(start)
        if across:
            top = round(geo.origin[1] + line * py)
            part = image[top : top + n, a : a + gap]
            return part.astype(np.float32).mean(axis=0)
        left = round(geo.origin[0] + line * px)
        part = image[a : a + gap, left : left + n]
        return part.astype(np.float32).mean(axis=1)

    pitch = px if across else py
    first = {"left": x, "top": y, "right": x + w, "bottom": y + h}[side]
    outward = -1 if side in ("left", "top") else 1
    past = [strip(line, first - gap if outward < 0 else first) for line in range(lines)]
    ins = [
        strip(line, first + k * pitch - gap if outward < 0 else first - k * pitch)
        for line in range(lines)
        for k in range(1, min(depth, SLIVER_LINES) + 1)
    ]
    ins = [p for p in ins if p.shape == past[0].shape and p.size]
    if not past[0].size or not ins:
        return False
    alike = sum(
        bool(
            p.shape == past[0].shape and min(float(np.abs(p - q).max()) for q in ins) < SLIVER_ALIKE
        )
        for p in past
    )
    return alike >= SLIVER_SHARE * lines


UNCOVER = "move it off the board, then run minebot again"
COVER_POINTS = 5  # points asked along each side of the board: COVER_POINTS x COVER_POINTS


def check_unobstructed(screen: Screen, geo: Geometry) -> None:
    """Refuse a board (``geo`` in screen coordinates) that another program's window covers in
    part: where the screen has the window system's word (X11, Windows), the windows showing at
    points spread over the board must all be one program's (a game's own dialog is its own)."""
    opener = getattr(screen, "windows", None)
    windows = opener() if opener is not None else None
    if windows is None:
        return
    steps = [
        round(k * (n - 1) / (COVER_POINTS - 1))
        for n in (geo.rows, geo.cols)
        for k in range(COVER_POINTS)
    ]
    rows, cols = set(steps[:COVER_POINTS]), set(steps[COVER_POINTS:])
    owners: dict[int, tuple[int, int]] = {}  # each program's window: the first cell it shows at
    for row in sorted(rows):
        for col in sorted(cols):
            x, y = (round(v) for v in geo.centre((row, col)))
            owners.setdefault(windows.owner(x, y), (row, col))
    if len(owners) > 1:
        cells = ", ".join(f"({r},{c})" for r, c in owners.values())
        raise BoardCutOff(
            f"another window covers a part of the board: {UNCOVER}",
            detail=f"the windows at cells {cells} are of {len(owners)} programs",
        )


def find_game(
    screen: Screen, packs: list[SkinPack], mines: int | None
) -> tuple[SkinPack, Geometry, Reading]:
    """Locate the board on the whole screen, all of it in view (check_in_view) and uncovered
    (check_unobstructed); its geometry in screen coordinates."""
    image = screen.grab()
    reading = read(image, packs, mines=mines)
    check_in_view(
        image, reading.geometry, reading.board.cells, pack_named(packs, reading.geometry.skin)
    )
    check_unobstructed(screen, reading.geometry.moved(screen.whole.left, screen.whole.top))
    check_unobstructed(screen, reading.geometry.moved(screen.whole.left, screen.whole.top))
    # into screen coordinates
    geometry = reading.geometry.moved(screen.whole.left, screen.whole.top)
    pack = pack_named(packs, geometry.skin)
    return pack, geometry, reading


def mouse_ratio(screen: Screen) -> float:
    """Screenshot pixels per mouse point (2 on a Retina-style display, else 1)."""
    return screen.whole.width / pyautogui().size().width
