"""Switching the game on screen to another level with its own keys (``minebot play --level``,
where the pack knows the keys: winemine's, minegauler's), then finding its board again."""

from __future__ import annotations

import time

from bot.devices.actuator import Mouse
from bot.devices.capture import Screen
from bot.errors import ScreenError, UsageError, VisionError
from bot.live.place import click_face, find_game, park_point
from bot.vision.geometry import Geometry
from bot.vision.pack import SkinPack
from bot.vision.reading import Reading
from bot.vocabulary import level_of


def switch_level(
    screen: Screen, pack: SkinPack, geometry: Geometry, reading: Reading, mouse: Mouse, level: str
) -> tuple[SkinPack, Geometry, Reading]:
    """Switch the game on screen to ``level`` with its own keys, then find its board again."""
    size = level_of(pack.name, level)
    rows, cols = size.rows, size.cols
    if (geometry.rows, geometry.cols) == (rows, cols):
        return pack, geometry, reading
    if reading.state == "playing" and not reading.board.is_fresh():
        raise UsageError(
            f"a {geometry.cols}x{geometry.rows} game is in progress and minebot will not throw it away: "
            f"finish it or start a new one, then run minebot again with --level {level}"
        )
    at = (screen.whole.left, screen.whole.top)
    if not click_face(mouse, screen.grab(), geometry.moved(-at[0], -at[1]), pack, at):
        # beside the board, on the game's own background: the keyboard
        mouse.click(*park_point(geometry, screen))
    time.sleep(0.3)
    for keys in pack.level_keys[level].split():
        mouse.press(keys)
        time.sleep(0.2)
    deadline = time.perf_counter() + 5
    while True:  # the window resizes, or the board is drawn anew
        time.sleep(0.2)
        try:
            found, now, read_now = find_game(screen, [pack], None)
            if (now.rows, now.cols) == (rows, cols):
                return found, now, read_now
            seen = f"a {now.cols}x{now.rows} board"
        except VisionError:
            seen = "no board minebot can read"
        if time.perf_counter() > deadline:
            raise ScreenError(
                f"after the keys for {level} the game shows {seen}, not a whole {cols}x{rows} one: if its window is "
                "too small for the board (gnome-mines then shows part of it), make the window larger and run minebot again"
            )
