"""Where the game is on the screen: its board found, the region grabbed round it, the pointer's
resting place, its face clicked. Used by the live table (bot/live/table.py), the level picker
and the learner."""

from __future__ import annotations

import numpy as np

from bot.devices.actuator import Mouse, pyautogui
from bot.devices.capture import Region, Screen
from bot.vision import Geometry, Reading, read
from bot.vision.pack import SkinPack, pack_named
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


def find_game(
    screen: Screen, packs: list[SkinPack], mines: int | None
) -> tuple[SkinPack, Geometry, Reading]:
    """Locate the board on the whole screen; its geometry in screen coordinates."""
    image = screen.grab()
    reading = read(image, packs, mines=mines)
    # into screen coordinates
    geometry = reading.geometry.moved(screen.whole.left, screen.whole.top)
    pack = pack_named(packs, geometry.skin)
    return pack, geometry, reading


def mouse_ratio(screen: Screen) -> float:
    """Screenshot pixels per mouse point (2 on a Retina-style display, else 1)."""
    return screen.whole.width / pyautogui().size().width
