"""The commands that watch the screen and never click: ``minebot advise`` and ``minebot record``."""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from bot.board import Board
from bot.devices.capture import MssScreen, Screen
from bot.errors import InconsistentBoard, VisionError
from bot.solver import solve
from bot.userdata import check_picture_path, write_picture
from bot.vision import load_packs, read
from bot.vision.geometry import Geometry
from bot.vision.labels import UNREAD, Labelled, write_label
from bot.vision.pack import pack_named
from bot.vision.reading import read_partly
from bot.vocabulary import STANDARD_MINES


def advise(ns: argparse.Namespace, screen: Screen | None = None) -> int:
    """Watch the screen and print the advice for each new board. Watching, a board that cannot be
    read or cannot be right (a wrong flag of the player's, a window over the game) is said once, in
    a line, and the watch goes on; with ``--once`` it is the error."""
    if screen is None:
        with MssScreen() as own:
            return advise(ns, own)
    packs = load_packs([ns.skin] if ns.skin else None)
    last: Board | None = None
    trouble = ""  # the last problem said
    while True:
        try:
            reading = read(screen.grab(), packs, mines=ns.mines)
            if last is None or reading.board != last:
                geo = reading.geometry
                advice = ""
                if reading.state == "playing":
                    pack = pack_named(packs, geo.skin)
                    analysis = solve(reading.board, "best", pack.rule, np.random.default_rng(0))
                    advice = analysis.text() + "\n"
                last, trouble = reading.board, ""
                print(
                    f"{geo.skin} {geo.cols}x{geo.rows}, state {reading.state}\n{reading.board}\n{advice}",
                    flush=True,
                )
        except (VisionError, InconsistentBoard) as exc:
            if ns.once:
                raise
            if str(exc) != trouble:
                trouble, last = str(exc), None
                print(f"minebot: {exc}; still watching", file=sys.stderr, flush=True)
        if ns.once:
            return 0
        time.sleep(0.25)


def record(ns: argparse.Namespace, screen: Screen | None = None) -> int:
    if screen is None:
        with MssScreen() as own:
            return record(ns, own)
    png, board_file = ns.out.with_suffix(".png"), ns.out.with_suffix(".board")
    check_picture_path(png)
    image = screen.grab()
    write_picture(png, image)
    packs = load_packs([ns.skin] if ns.skin else None)
    try:
        reading = read(
            image, packs, mines=ns.mines, save_unreadable=str(ns.out.with_suffix(".cell.png"))
        )
    except VisionError as missed:  # write what can be read, the rest marked for a person to fill in
        geo, codes, known = read_partly(image, packs)
        board = Board(
            codes, ns.mines if ns.mines is not None else STANDARD_MINES.get((geo.rows, geo.cols))
        )
        write_label(
            board_file, _label(geo, ns.skin or geo.skin or "unknown", "playing", board), known
        )
        print(
            f"minebot: {missed}\nsaved {png} and {board_file}: {int(known.sum())} of {known.size} cells read; the others "
            f"are marked {UNREAD}: replace each by what the picture shows, and check the rest, the mines and the state"
        )
        return 0
    label = _label(reading.geometry, reading.geometry.skin, reading.state, reading.board)
    write_label(board_file, label)
    print(
        f"saved {png} and {board_file}: check every cell of the .board file by eye against the picture and correct it"
    )
    return 0


def _label(geo: Geometry, game: str, state: str, board: Board) -> Labelled:
    return Labelled(
        game,
        (round(geo.origin[0]), round(geo.origin[1])),
        geo.pitch,
        round(geo.cell_px),
        state,
        board,
    )
