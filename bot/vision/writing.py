"""Writing skin packs: cut from a labelled screenshot (``minebot learn``, bot/cli.py), or learnt by
playing (bot/learning/learn.py) into this user's data folder. A picture is added only where the pack lacks
it, and nothing is overwritten; what a pack's files mean: bot/vision/pack.py.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from bot.errors import SkinPackError
from bot.userdata import learnt_skins
from bot.vision.geometry import Geometry
from bot.vision.grid import find_grids, same_board
from bot.vision.labels import Labelled
from bot.vision.pack import _load_pack
from bot.vocabulary import CHAR_OF, TILE_NAMES


def cut_pack(
    image: np.ndarray,
    label: Labelled,
    folder: Path,
    face_box: tuple[int, int, int, int] | None = None,
) -> list[str]:
    """Save one picture of every kind of cell the labelled screenshot shows (1x screenshots only).

    A kind whose cells do not all look the same gets a numbered variant per distinct look. What the
    folder holds already stays: a picture it has is not written again, and new variants are numbered
    after the ones there. Returns the names of the files written.
    """
    n, (ox, oy), (px, py) = label.cell_px, label.origin, label.pitch
    crops: dict[str, list[np.ndarray]] = {}
    seen: dict[bytes, tuple[int, int]] = {}  # each picture: the first cell that shows it
    for r, c in label.board:
        x, y = round(ox + c * px), round(oy + r * py)
        crop = image[y : y + n, x : x + n]
        if crop.shape[:2] != (n, n):
            raise SkinPackError(
                f"cell ({r},{c}) lies outside the image; check origin and pitch in the .board file"
            )
        other = seen.setdefault(crop.tobytes(), (r, c))
        if label.board[other] != label.board[r, c]:
            raise SkinPackError(
                f"cells {other} and ({r},{c}) look the same in the screenshot but the .board file gives them "
                f"different values ({CHAR_OF[label.board[other]]}, {CHAR_OF[label.board[r, c]]}); correct it"
            )
        crops.setdefault(TILE_NAMES[CHAR_OF[label.board[r, c]]], []).append(crop)
    _check_lattice(image, label)
    folder.mkdir(parents=True, exist_ok=True)
    if face_box is not None:
        x, y, w, h = face_box
        crops[f"face-{label.state}"] = [image[y : y + h, x : x + w]]
    return add_tiles(folder, crops)


def write_png(path: Path, picture: np.ndarray) -> None:
    """Write a picture whole or not at all: a run cut short leaves no half-written file in a pack."""
    _replace(path, _png(path, picture))


def write_json(path: Path, value: dict[str, object]) -> None:
    """Write a pack.json whole or not at all (see write_png)."""
    _replace(path, (json.dumps(value) + "\n").encode())


def _replace(path: Path, data: bytes) -> None:
    part = _part(path, data)
    os.replace(part, path)


def write_new_png(path: Path, picture: np.ndarray) -> bool:
    """Write a picture whole as ``path`` unless a file of that name is there already, even one
    another run wrote a moment ago: whether it was written."""
    part = _part(path, _png(path, picture))
    try:
        os.link(part, path)  # fails where the name is taken: never overwrites
    except FileExistsError:
        return False
    except OSError:  # a file system with no links: an exclusive create instead
        try:
            with path.open("xb") as out:
                out.write(part.read_bytes())
        except FileExistsError:
            return False
    finally:
        part.unlink(missing_ok=True)
    return True


def _png(path: Path, picture: np.ndarray) -> bytes:
    """``picture`` encoded as PNG, for ``path``."""
    ok, data = cv2.imencode(".png", picture)
    if not ok:
        raise SkinPackError(f"cannot encode a {picture.shape} picture as PNG for {path}")
    return data.tobytes()


def _part(path: Path, data: bytes) -> Path:
    """``data`` written beside ``path`` under a name of this process's own; no part is left where
    that fails (a full disk, a read-only folder): a SkinPackError that says so."""
    part = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.part")
    try:
        part.write_bytes(data)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise SkinPackError(
            f"cannot write {path} ({exc.strerror or exc}); free some space or make the folder writable"
        ) from None
    return part


def _check_lattice(image: np.ndarray, label: Labelled) -> None:
    """Refuse a .board file whose board is not one the screenshot shows: where the screenshot shows
    board-like lattices, one of them must have the file's pitch, and cells where the file puts them."""
    said = Geometry(
        label.game, label.rows, label.cols, label.origin, label.pitch, label.cell_px, 1.0
    )
    grids = [g.geometry for g in find_grids(image)]
    if grids and not any(same_board(said, g) for g in grids):
        shown = ", ".join(
            f"{g.cols}x{g.rows} at {g.region()[:2]} ({g.pitch[0]:g} px apart)" for g in grids[:3]
        )
        raise SkinPackError(
            f"the .board file puts a {label.cols}x{label.rows} board of cells {label.pitch[0]:g} px apart at {label.origin}, "
            f"but the screenshot shows {shown}; give the screenshot's own .board file (`minebot record` writes one)"
        )


def learnt_pack_folder(name: str, cell_px: int) -> Path:
    """Where this user's learnt pack ``name`` of cells ``cell_px`` square goes: its folder, or
    NAME-<size>px where that holds another size (a game whose cells follow its window draws them
    anew at each size)."""
    folder = learnt_skins() / name
    meta = folder / "pack.json"
    if meta.is_file() and json.loads(meta.read_text()).get("cell_px") != cell_px:
        return learnt_skins() / f"{name}-{cell_px}px"
    return folder


def start_learnt_pack(
    folder: Path,
    cell_px: int,
    pitch: tuple[float, float],
    rule: str,
    settle_ms: int,
    tolerance: float,
) -> None:
    """Make ``folder`` a learnt pack (its pack.json), unless it is one already: its tiles are
    ``cell_px`` squares cut around the centres of a lattice of ``pitch`` (bot/vision/looks.py)."""
    folder.mkdir(parents=True, exist_ok=True)
    meta = folder / "pack.json"
    if not meta.is_file():
        write_json(
            meta,
            {
                "cell_px": cell_px,
                "pitch": list(pitch),
                "rule": rule,
                "scales": "any",
                "settle_ms": settle_ms,
                "tolerance": tolerance,
                "learnt": True,
            },
        )


def add_counts(
    folder: Path,
    key: str,
    counts: tuple[float, ...],
    derive: Callable[[list[float]], dict[str, object]],
) -> dict[str, object]:
    """Add ``counts`` to a learnt pack's ``key`` in pack.json, summed over every run, and set what
    ``derive`` makes of the sums (the redraws watched, and its ``settle_ms``: bot/learning/settling.py; the
    first clicks, and its ``rule``: bot/learning/learn.py). What was set."""
    meta = folder / "pack.json"
    settings = json.loads(meta.read_text())
    summed = [n + m for n, m in zip(settings.get(key, [0] * len(counts)), counts, strict=True)]
    derived = derive(summed)
    write_json(meta, {**settings, key: summed, **derived})
    _load_pack.cache_clear()
    return derived


def learnt_counts(folder: Path | None, key: str) -> list[float]:
    """A learnt pack's counts ``key`` as add_counts summed them (none: an empty list)."""
    meta = folder / "pack.json" if folder is not None else None
    return (
        list(json.loads(meta.read_text()).get(key, []))
        if meta is not None and meta.is_file()
        else []
    )


def add_counter(
    folder: Path, digits: dict[int | str, np.ndarray], settings: dict[str, object]
) -> list[str]:
    """Give a learnt pack its counter's digit pictures (and a label's "/") and the settings that say
    which counter counts the mines (``counter``, ``counter_at``, ``counter_shortest``, ``counters``,
    ``counter_text``), unless it has digits already. Returns the files written."""
    if any(folder.glob("digit-*.png")):
        return []
    meta = folder / "pack.json"
    write_json(meta, {**json.loads(meta.read_text()), **settings})
    return add_tiles(
        folder,
        {f"digit-{'slash' if d == '/' else d}": [digits[d]] for d in sorted(digits, key=str)},
    )


def add_tiles(folder: Path, pictures: dict[str, list[np.ndarray]]) -> list[str]:
    """Add pictures of cell kinds (tile names: covered, flag, 0-8, ...; or face-STATE, digit-N) to a pack's folder, each
    unless the folder holds the same picture already; a kind's further pictures are numbered after
    the highest number there (``1.png``, ``1-2.png``, ...). Nothing is overwritten, by this run or
    by another adding to the same pack at once. Returns the files written."""
    written: list[str] = []
    for name, crops in pictures.items():
        have = sorted(folder.glob(f"{name}.png")) + sorted(folder.glob(f"{name}-*.png"))
        seen = [cv2.imread(str(f), cv2.IMREAD_COLOR) for f in have]
        numbers = [1] * bool(have) + [
            int(f.stem.rpartition("-")[2]) for f in have if f.stem.rpartition("-")[2].isdigit()
        ]
        top = max(numbers, default=0)
        for crop in crops:
            if any(other is not None and np.array_equal(crop, other) for other in seen):
                continue
            while True:  # another run may take a number first: the next one
                top += 1
                file = name + ("" if top == 1 else f"-{top}") + ".png"
                if write_new_png(folder / file, crop):
                    break
                taken = cv2.imread(str(folder / file), cv2.IMREAD_COLOR)
                if taken is not None and np.array_equal(crop, taken):
                    file = ""
                    break
            seen.append(crop.copy())
            if file:
                written.append(file)
    _load_pack.cache_clear()
    return written


def add_mines(folder: Path, rows: int, cols: int, mines: int) -> None:
    """Keep in a learnt pack the mine count a won game of rows x cols cells showed (pack.json's
    ``mines``, by ``"RxC"``): the count for that size from the next run on."""
    settings = json.loads((folder / "pack.json").read_text())
    set_learnt(folder, mines={**settings.get("mines", {}), f"{rows}x{cols}": mines})


def set_learnt(folder: Path, **settings: object) -> None:
    """Set ``settings`` in a learnt pack's pack.json (the rest kept)."""
    meta = folder / "pack.json"
    write_json(meta, {**json.loads(meta.read_text()), **settings})
    _load_pack.cache_clear()


def add_board(folder: Path, cells: list[np.ndarray], rows: int, cols: int) -> str | None:
    """Keep a learnt pack's new board of rows x cols cells (each cell's picture, row by row), unless it
    has one of that size; the file written."""
    path = folder / "boards" / f"covered-{rows}x{cols}.png"
    if path.is_file() or len(cells) != rows * cols:
        return None
    path.parent.mkdir(exist_ok=True)
    n = cells[0].shape[0]
    write_png(
        path,
        np.stack(cells).reshape(rows, cols, n, n, 3).swapaxes(1, 2).reshape(rows * n, cols * n, 3),
    )
    _load_pack.cache_clear()
    return path.relative_to(folder).as_posix()  # as pack.json keeps it, on Windows too


class PackFiles:
    """Which files of a learnt pack hold each look's picture (the pack a learner was seeded from, or
    what it saved), and the looks found named wrongly (``wrong``), whose files leave the pack."""

    def __init__(self) -> None:
        self.of: dict[int, list[Path]] = {}
        self.wrong: set[int] = set()

    def seeded(self, look: int, file: Path | None) -> None:
        if file is not None:
            self.of.setdefault(look, []).append(file)

    def save(
        self, folder: Path, names: dict[int, int], picture: Callable[[int], np.ndarray]
    ) -> list[str]:
        """Take the wrong looks' files out of ``folder``, then add each look named (``names``: its
        code) as ``picture`` shows it (add_tiles); the files written."""
        for look in self.wrong:
            for file in self.of.pop(look, []):
                file.unlink(missing_ok=True)
        self.wrong.clear()
        written: list[str] = []
        for look, code in names.items():
            files = add_tiles(folder, {TILE_NAMES[CHAR_OF[code]]: [picture(look)]})
            self.of.setdefault(look, []).extend(folder / f for f in files)
            written += files
        return written
