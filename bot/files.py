"""The commands on files, which need no screen: replay a saved screenshot, cut a skin pack from
one (learn), list the packs (skins), time vision over screenshots (bench-vision)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from bot.errors import InconsistentBoard, SkinPackError, UsageError, VisionError
from bot.solver import solve
from bot.userdata import check_picture_path, write_picture


def replay(ns: argparse.Namespace) -> int:
    from bot import vision
    from bot.vision.saved import describe, read_saved

    if ns.annotate:
        check_picture_path(ns.annotate)  # before the work, not after it
    image = vision.load_image(ns.image)
    saved = describe(ns.image, image)
    packs = vision.load_packs([ns.skin] if ns.skin else None)
    try:
        read = read_saved(saved, packs, mines=ns.mines, at=ns.at)
    except VisionError as exc:
        if saved.lossy:  # its compression blurs the pixels packs are cut from
            raise type(exc)(f"{exc}; or save the screenshot as PNG", detail=exc.detail) from exc
        raise
    reading = read.reading
    geo, board = reading.geometry, reading.board
    rule = ns.rule or vision.pack_named(packs, geo.skin).rule
    analysis, contradiction = None, None
    try:
        analysis = (
            solve(board, "best", rule, np.random.default_rng(0))
            if reading.state == "playing"
            else None
        )
    except InconsistentBoard as exc:
        contradiction = exc
    if ns.annotate and analysis is not None:
        write_picture(ns.annotate, vision.annotate(image, geo, analysis))
    if ns.json:
        told = (
            analysis.as_dict()
            if analysis
            else {"safe": [], "mines": [], "move": None, "probabilities": None}
        )
        move = told.pop("move")
        print(
            json.dumps(
                {
                    "skin": geo.skin,
                    "rows": geo.rows,
                    "cols": geo.cols,
                    "origin": [round(v, 2) for v in geo.origin],
                    "pitch": [round(v, 2) for v in geo.pitch],
                    "cell_px": round(geo.cell_px, 2),
                    "state": reading.state,
                    "mines_total": board.mines,
                    "counter": reading.counter,
                    "board": str(board).splitlines(),
                    "forgiving": read.forgiving,
                    "others": [
                        {"cols": g.cols, "rows": g.rows, "at": list(g.region()[:2])}
                        for g in read.others
                    ],
                    "contradiction": None
                    if contradiction is None
                    else {
                        "cells": [list(c) for c in contradiction.cells],
                        "why": str(contradiction),
                    },
                    "guess": move
                    if isinstance(move, dict) and move["reason"] in ("guess", "first")
                    else None,
                    **told,
                }
            )
        )
        return 0 if contradiction is None else 1
    x, y = geo.origin
    print(
        f"skin {geo.skin}, {geo.cols}x{geo.rows}, cell (0,0) at ({x:.0f},{y:.0f}), "
        f"pitch {geo.pitch[0]:g}x{geo.pitch[1]:g} px, scale {geo.scale:g}, state {reading.state}, "
        f"mines {board.mines if board.mines is not None else 'unknown'}"
        + (
            f" (counter {reading.counter})"
            if reading.counter is not None
            else " (no counter read: the standard count for this size; --mines M gives another)"
            if ns.mines is None and board.mines is not None
            else ""
        )
    )
    note = read.note()
    if note:
        print(f"note: {note}")
    print(board)
    if contradiction is not None:
        marked = " ".join(f"({r},{c})" for r, c in contradiction.cells) or "-"
        # before the error line, on the terminal too
        print(f"contradicts itself at: {marked}", flush=True)
        raise contradiction
    if analysis is None:
        print(f"the game is {reading.state}: nothing to advise")
    else:
        print(analysis.text())
    if ns.annotate and analysis is not None:
        print(f"annotated picture: {ns.annotate}")
    return 0


def learn(ns: argparse.Namespace) -> int:
    from bot import vision
    from bot.userdata import learnt_skins
    from bot.vision.labels import read_label
    from bot.vision.writing import cut_pack, write_json

    label = read_label(ns.board)
    skin = ns.skin or label.game
    folder = (ns.templates or learnt_skins()) / skin
    face = tuple(int(v) for v in ns.face.split(",")) if ns.face else None
    if face is not None and len(face) != 4:
        raise UsageError("--face takes X,Y,W,H")
    written = cut_pack(vision.load_image(ns.image), label, folder, face)
    if not (folder / "pack.json").exists():  # last: a pack is one once its pictures are in
        write_json(
            folder / "pack.json",
            {
                "cell_px": label.cell_px,
                "pitch": list(label.pitch),
                "rule": "safe",
                "scales": [1, 1.5, 2],
            },
        )
    print(f"wrote {len(written)} pictures to {folder}: {' '.join(written)}")
    return 0


def remove_learnt_pack(name: str) -> Path:
    """Delete the learnt pack ``name``: only a folder directly in this user's learnt-skins folder,
    named as ``skins`` lists it, is ever deleted (a path, ``..`` or a shipped pack's name is refused);
    a pack that is a link to a folder elsewhere loses the link, never what it points at. Where."""
    import shutil

    from bot.userdata import learnt_skins
    from bot.vision.pack import skin_names, templates_root

    learnt = learnt_skins()
    names = skin_names(learnt) if learnt.is_dir() else []
    if name not in names or Path(name).name != name or name in (".", ".."):
        where = (
            "shipped with minebot (it stays)"
            if name in skin_names(templates_root())
            else "not the name of a learnt pack"
        )
        raise UsageError(
            f"{name!r} is {where}; learnt packs (`minebot skins` lists them): "
            f"{', '.join(names) or 'none'}"
        )
    folder = learnt / name
    if folder.is_symlink():
        folder.unlink()
    else:
        shutil.rmtree(folder)
    return folder


def skins(ns: argparse.Namespace) -> int:
    from bot.userdata import hidden_skins, learnt_skins
    from bot.vision.counter import describe
    from bot.vision.pack import load_pack, skin_names, templates_root

    learnt = learnt_skins()
    if ns.remove:
        print(f"removed {remove_learnt_pack(ns.remove)}")
        return 0
    shipped = set(skin_names(templates_root()))
    hidden = hidden_skins()
    for name in dict.fromkeys(sorted(shipped) + skin_names(learnt)):
        source = "shipped" if name in shipped else "learnt"
        if name in hidden:
            print(f"{name:16} {source:8} hidden (MINEBOT_HIDE_SKINS)")
            continue
        try:
            pack = load_pack(name)
        except SkinPackError as exc:
            print(
                f"{name:16} {source:8} cannot load ({exc}); remove it with `minebot skins --remove {name}`"
            )
            continue
        scales = (
            "any size" if pack.scales is None else ",".join(f"{s:g}" for s in pack.scales) + "x"
        )
        kinds = sorted({t.file.partition("-")[0].removesuffix(".png") for t in pack.tiles})
        counter = (
            f"mines counter: {describe(pack.counter, pack.counter_at)}"
            if pack.has_counter
            else "no mines counter"
        )
        print(
            f"{name:16} {source:8} {pack.cell_px:3d} px cells at {scales}; {len(pack.tiles)} pictures ({' '.join(kinds)}); {counter}; {pack.path}"
        )
    print(f"learnt packs are kept in {learnt}")
    return 0


def bench_vision(ns: argparse.Namespace) -> int:
    from bot.vision import bench

    images = ns.images or sorted(Path("fixtures").glob("*/*.png"))
    if not images:
        raise UsageError(
            "no screenshots given and no fixtures/*/*.png here; run from the repository or name images"
        )
    if ns.saved:
        ways = [w.strip() for w in ns.saved.split(",") if w.strip()]
        for way in ways:
            bench.way_of_saving(way)  # a way it does not know: said before any work
        return 1 if bench.saved_ways(images, ways) else 0
    bench.bench_vision(images, ns.repeat)
    return 0
