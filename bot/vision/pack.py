"""Skin packs: the tile pictures of one game's look, cut from real screenshots.

A pack is a folder ``templates/<skin>/`` with a ``pack.json`` and PNG files::

    pack.json      {"cell_px": 16, "pitch": [16, 17], "rule": "safe", "scales": [1, 1.5, 2]}
    covered.png    one picture per cell kind, cell_px x cell_px, at 1x
    flag.png question.png 0.png ... 8.png mine.png exploded.png wrong_flag.png
    1-2.png        further pictures of the same kind, when the game draws it more than one way
    face-playing.png face-won.png face-lost.png   the face button, where the game has one
    digit-0.png ... digit-9.png   the counters' digits, where the game has them
    digit-slash.png                a '/' for counters written "flags/mines" (gnome-mines)

``pitch`` is the distance between neighbouring cells at 1x (some looks leave a gap between rows).
``scales`` lists the screen scales to look for; ``"any"`` means the cell size follows the window.
``tolerance`` is the match limit for cells read at another scale (default 16; see tiles.py).
``match_px`` is the size cells are compared at (default ``cell_px``): gnome-mines' 42 px tiles are
compared at 21, a quarter of the work, with the same margins between tiles.
``settle_ms`` is how long the board must stay still before a live reading (default 30: Wine and
Qt paint a revealed area in pieces; gnome-mines animates its reveals). A learnt pack sets it from
``redraws``: [redraws of the cells watched while playing it, how many still changed after 30 ms].
``level_keys`` maps a level to the keys that switch the running game to it, combinations separated
by spaces (winemine: ``"alt+g e"``, its Game menu); the game's own size for that level counts.
``counter`` says which of the counters above the board counts the mines left: ``"left"`` or ``"right"``;
``"label"``: a text label "flags/mines" (kmines' "Mines: 0/10"). ``counter_at``: ``"below"`` where
the counters are below the board instead, ``"beside"`` where right of its upper half (gnome-mines'
label; default ``"above"``). ``counter_shortest``: the fewest
digits the counter shows (default 2; 1 where it drops its leading zeros: a lone digit is taken then;
3 or 4 where it always shows so many, "010": a shorter run has a digit covered, and is not read).
``counters``: how many numbers the game shows in that strip (default 1; 2 where a timer stands
beside the counter: with one covered, the other is not read as the counter).
``counter_text`` marks counters drawn as text, whose pixels shift with their position:
``{"ink": [b, g, r], "paper": [b, g, r]}``; their digit pictures are single glyphs, read one by one.
``counter_leds`` marks seven-segment counters read by which segments are lit, with no digit pictures:
``{"lit": [b, g, r]}``, the colour of a lit segment on the black of the display (the web looks).
``chord`` is the click that opens the other neighbours of a number whose flags account for it:
``"middle"`` (winemine, xdemineur), ``"both"`` (left and right together: minegauler) or ``"left"``
on the number (gnome-mines); no ``chord``, no chording.
``"win": "flags"`` marks a game that is only won once every mine is flagged (xdemineur).
``"learnt": true`` marks a pack learnt by playing (bot/learning/learn.py): its tiles are pitch squares centred
on the cells, and it is located by the board's lattice only. Its ``boards/covered-RxC.png`` is a new
board of R x C cells as it learnt it, each cell's picture tiled row by row: where covered cells are
drawn over a background picture (kmines), each position looks different, and a cell that looks as
it did there is covered. Its ``mines`` maps a board size, ``"RxC"``, to the mine count a won game
of that size showed (its hidden cells), for a game that shows no counter. ``flood``: 4 where a 0
opens only the 4 cells beside it (default 8). ``new_game``: how a new game started, ``{"key": "F2"}``
or ``{"at": [x, y]}``, a point in cells from the board's top-left corner (a button's).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import TypedDict

import cv2
import numpy as np

from bot.errors import SkinPackError
from bot.userdata import hidden_skins, learnt_skins
from bot.vocabulary import CODE_OF, TILE_CHARS, FirstClickRule, State, check_rule

FACE_STATES: tuple[State, ...] = ("playing", "won", "lost")


@dataclass(frozen=True)
class Tile:
    code: int
    image: np.ndarray  # cell_px x cell_px x 3, BGR uint8
    file: str


@dataclass(frozen=True)
class Interior:
    """The flat middle of the covered tile: its colour and where it sits in the cell (1x pixels)."""

    colour: tuple[int, int, int]
    x: int
    y: int
    w: int
    h: int


@dataclass(frozen=True, eq=False)
class SkinPack:
    name: str
    cell_px: int
    pitch: tuple[float, float]
    rule: FirstClickRule
    scales: tuple[float, ...] | None  # None: any scale (the cell size follows the window)
    tiles: tuple[Tile, ...]
    faces: dict[State, tuple[np.ndarray, ...]] = field(default_factory=dict)
    path: Path | None = None
    flags_to_win: bool = False  # the game is won only when every mine is flagged
    tolerance: float = 16.0  # match limit away from 1x
    match_px: int = 0  # the size cells are compared at; 0: cell_px
    settle: float = 0.03  # seconds the board must stay unchanged before a live reading
    level_keys: dict[str, str] = field(default_factory=dict)  # level -> keys that switch to it
    # the counters' digits (and "/")
    digits: dict[int | str, np.ndarray] = field(default_factory=dict)
    counter: str = "left"  # which counter above the board counts the mines left
    counter_at: str = "above"  # where the counters are: "above", "below" or "beside" the board
    counter_shortest: int = 2  # the fewest digits the counter shows
    # the numbers the game shows in the counter's strip (2: a timer beside the counter)
    counters: int = 1
    # the button that chords: "middle", "both" or "left"; None: the bot does not chord
    chord: str | None = None
    # text counters: ink, paper
    counter_text: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None
    # seven-segment counters decoded by segment: lit colour
    counter_leds: tuple[int, int, int] | None = None
    learnt: bool = False  # learnt by playing (bot/learning/learn.py): located by its lattice, not by flat colours
    # (rows, cols): a new board, tiled
    boards: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    # read pictures saved lossily (JPEG, rescaled) by margins: bot/vision/saved.py
    lossy: bool = False
    # (rows, cols): the mine count a won game of that size showed (a learnt pack)
    mines: dict[tuple[int, int], int] = field(default_factory=dict)
    flood: int = 8  # the neighbours a 0 opens: 8, or only the 4 beside it
    # how a new game started: {"key": name} or {"at": [x, y]} in cells from the board's corner
    new_game: dict[str, object] | None = None

    @property
    def has_counter(self) -> bool:
        """Whether the mines counter can be read: the pack has all ten digits, or decodes segments."""
        return self.counter_leds is not None or sum(isinstance(d, int) for d in self.digits) == 10

    @cached_property
    def anchors(self) -> list[tuple[Tile, Interior]]:
        """Tiles the locator looks for (covered and empty), each with its flat middle."""
        wanted = (CODE_OF["#"], CODE_OF["0"])
        return [(t, _interior(t.image)) for t in self.tiles if t.code in wanted]

    def codes(self) -> np.ndarray:
        return np.array([t.code for t in self.tiles], dtype=np.int8)

    def new_board(self, rows: int, cols: int) -> np.ndarray | None:
        """A learnt pack's new board of that size, cell by cell (rows * cols, cell_px, cell_px, 3), if it has one."""
        board = self.boards.get((rows, cols))
        n = self.cell_px
        return (
            None
            if board is None
            else board.reshape(rows, n, cols, n, 3).swapaxes(1, 2).reshape(-1, n, n, 3)
        )


def _interior(tile: np.ndarray) -> Interior:
    """Find the largest flat region of the covered tile (its face, inside the bevel or border)."""
    colours, counts = np.unique(tile.reshape(-1, 3), axis=0, return_counts=True)
    colour = colours[np.argmax(counts)]
    mask = np.all(tile == colour, axis=2).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[best, :4])
    return Interior((int(colour[0]), int(colour[1]), int(colour[2])), x, y, w, h)


def templates_root() -> Path:
    """Where the skin packs are: the package's own copy (installed), else the source tree's."""
    installed = Path(str(resources.files("bot"))) / "templates"
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parents[2] / "templates"


def skin_names(root: Path | None = None) -> list[str]:
    """The packs in ``root``; by default the shipped ones and this user's learnt ones (a shipped
    pack first where both have the name), less those hidden with MINEBOT_HIDE_SKINS."""
    if root is not None:
        return sorted(p.parent.name for p in root.glob("*/pack.json"))
    hidden = hidden_skins()
    names = dict.fromkeys(skin_names(templates_root()) + skin_names(learnt_skins()))
    return [n for n in names if n not in hidden]


def pack_folder(name: str, root: Path | None = None) -> Path:
    """The folder of pack ``name``: in ``root``, else shipped, else learnt by this user."""
    if root is not None:
        return root / name
    shipped = templates_root() / name
    return shipped if (shipped / "pack.json").is_file() else learnt_skins() / name


def load_pack(name: str, root: Path | None = None) -> SkinPack:
    if root is None and name in hidden_skins():
        raise SkinPackError(
            f"skin pack {name!r} is hidden by MINEBOT_HIDE_SKINS; unset it to use the pack"
        )
    return _load_pack(name, pack_folder(name, root))


@cache
def _load_pack(name: str, folder: Path) -> SkinPack:
    meta_path = folder / "pack.json"
    if not meta_path.is_file():
        known = ", ".join(skin_names()) or "none"
        raise SkinPackError(f"no skin pack {name!r} (packs: {known})")
    settings = _settings(meta_path)
    tiles, faces, digits = _pictures(folder, settings["cell_px"])
    boards = _boards(folder, settings["cell_px"])
    return SkinPack(
        name=name, tiles=tiles, faces=faces, digits=digits, path=folder, boards=boards, **settings
    )


def _boards(folder: Path, cell_px: int) -> dict[tuple[int, int], np.ndarray]:
    """A learnt pack's new boards by size (boards/covered-RxC.png)."""
    found: dict[tuple[int, int], np.ndarray] = {}
    for png in sorted((folder / "boards").glob("covered-*x*.png")):
        rows, _, cols = png.stem.removeprefix("covered-").partition("x")
        image = cv2.imread(str(png), cv2.IMREAD_COLOR)
        if (
            not (rows.isdigit() and cols.isdigit())
            or image is None
            or image.shape[:2] != (int(rows) * cell_px, int(cols) * cell_px)
        ):
            raise SkinPackError(
                f"{png}: not a new board of {cell_px} px cells named covered-ROWSxCOLS.png; delete it"
            )
        found[int(rows), int(cols)] = image
    return found


class _Settings(TypedDict):
    cell_px: int
    pitch: tuple[float, float]
    scales: tuple[float, ...] | None
    rule: FirstClickRule
    flags_to_win: bool
    tolerance: float
    match_px: int
    settle: float
    level_keys: dict[str, str]
    counter: str
    counter_at: str
    counter_shortest: int
    counters: int
    counter_text: tuple[tuple[int, int, int], tuple[int, int, int]] | None
    counter_leds: tuple[int, int, int] | None
    learnt: bool
    chord: str | None
    mines: dict[tuple[int, int], int]
    flood: int
    new_game: dict[str, object] | None


def _settings(meta_path: Path) -> _Settings:
    """A pack.json's settings, as SkinPack's keyword arguments (the format: this module's docstring)."""
    try:
        meta = json.loads(meta_path.read_text())
        cell_px = int(meta["cell_px"])
        pitch = tuple(float(p) for p in meta.get("pitch", (cell_px, cell_px)))
        text, leds, chord = meta.get("counter_text"), meta.get("counter_leds"), meta.get("chord")
        if chord not in (None, "middle", "both", "left"):
            raise ValueError(f"chord must be middle, both or left, not {chord!r}")
        if meta.get("counter", "left") not in ("left", "right", "label"):
            raise ValueError(f"counter must be left, right or label, not {meta['counter']!r}")
        if meta.get("counter_at", "above") not in ("above", "below", "beside"):
            raise ValueError(
                f"counter_at must be above, below or beside, not {meta['counter_at']!r}"
            )
        return {
            "cell_px": cell_px,
            "pitch": (pitch[0], pitch[1]),
            "scales": None
            if meta.get("scales") == "any"
            else tuple(float(s) for s in meta.get("scales", (1,))),
            "rule": check_rule(str(meta.get("rule", "safe"))),
            "flags_to_win": meta.get("win", "cleared") == "flags",
            "tolerance": float(meta.get("tolerance", 16)),
            "match_px": int(meta.get("match_px", cell_px)),
            "settle": float(meta.get("settle_ms", 30)) / 1000,
            "level_keys": {str(k): str(v) for k, v in meta.get("level_keys", {}).items()},
            "counter": str(meta.get("counter", "left")),
            "counter_at": str(meta.get("counter_at", "above")),
            "counter_shortest": int(meta.get("counter_shortest", 2)),
            "counters": int(meta.get("counters", 1)),
            "counter_text": None
            if text is None
            else (_colour(text["ink"]), _colour(text["paper"])),
            "counter_leds": None if leds is None else _colour(leds["lit"]),
            "learnt": bool(meta.get("learnt", False)),
            "chord": chord,
            "mines": {_size(key): int(n) for key, n in meta.get("mines", {}).items()},
            "flood": _flood(meta.get("flood", 8)),
            "new_game": _new_game(meta.get("new_game")),
        }
    except (OSError, ValueError, KeyError, TypeError) as exc:  # unreadable, not JSON, wrong fields
        raise SkinPackError(f"{meta_path}: {exc!r}; see bot/vision/pack.py for the format") from exc


def _new_game(value: object) -> dict[str, object] | None:
    """A pack's ``new_game``: None, ``{"key": name}`` or ``{"at": [x, y]}``."""
    if value is None:
        return None
    if isinstance(value, dict) and isinstance(value.get("key"), str):
        return {"key": value["key"]}
    at = value.get("at") if isinstance(value, dict) else None
    if isinstance(at, list) and len(at) == 2 and all(isinstance(v, (int, float)) for v in at):
        return {"at": [float(at[0]), float(at[1])]}
    raise ValueError(f'new_game must be {{"key": NAME}} or {{"at": [X, Y]}}, not {value!r}')


def _flood(value: object) -> int:
    """A pack's ``flood``: 4 or 8."""
    if value == 4 or value == 8:
        return 4 if value == 4 else 8
    raise ValueError(f"flood must be 4 or 8, not {value!r}")


def _size(key: str) -> tuple[int, int]:
    """A board size written ``"RxC"`` (rows, cols).

    >>> _size("9x20")
    (9, 20)
    """
    rows, _, cols = key.partition("x")
    if not (rows.isdigit() and cols.isdigit()):
        raise ValueError(f"a board size is written ROWSxCOLS, not {key!r}")
    return int(rows), int(cols)


def _pictures(
    folder: Path, cell_px: int
) -> tuple[tuple[Tile, ...], dict[State, tuple[np.ndarray, ...]], dict[int | str, np.ndarray]]:
    """A pack's pictures: its tiles, its faces by state, and its counter's digits."""
    tiles: list[Tile] = []
    faces: dict[State, list[np.ndarray]] = {}
    digits: dict[int | str, np.ndarray] = {}
    for png in sorted(folder.glob("*.png")):
        stem = png.stem
        image = cv2.imread(str(png), cv2.IMREAD_COLOR)
        if image is None:
            raise SkinPackError(f"{png}: not a readable PNG; cut it again with `minebot learn`")
        if stem.startswith("face-"):
            state = next((s for s in FACE_STATES if s == stem[5:].split("-")[0]), None)
            if state is None:
                raise SkinPackError(f"{png}: face pictures are named face-playing/won/lost[-N].png")
            faces.setdefault(state, []).append(image)
            continue
        if stem.startswith("digit-") and (stem[6:].isdigit() or stem[6:] == "slash"):
            digits[int(stem[6:]) if stem[6:].isdigit() else "/"] = image
            continue
        kind = stem.partition("-")[0]
        if kind not in TILE_CHARS:
            raise SkinPackError(
                f"{png}: unknown tile name {kind!r}; expected one of {', '.join(TILE_CHARS)}"
            )
        if image.shape[:2] != (cell_px, cell_px):
            raise SkinPackError(
                f"{png}: is {image.shape[1]}x{image.shape[0]}, the pack's cells are {cell_px}x{cell_px}"
            )
        tiles.append(Tile(CODE_OF[TILE_CHARS[kind]], image, png.name))
    if not any(t.code == CODE_OF["#"] for t in tiles):
        raise SkinPackError(
            f"{folder}: a pack needs at least covered.png; cut it with `minebot learn`"
        )
    return tuple(tiles), {k: tuple(v) for k, v in faces.items()}, digits


def _colour(value: list[int]) -> tuple[int, int, int]:
    b, g, r = (int(v) for v in value)
    return b, g, r


def pack_named(packs: list[SkinPack], name: str) -> SkinPack:
    return next(p for p in packs if p.name == name)


def load_packs(names: list[str] | None = None, root: Path | None = None) -> list[SkinPack]:
    """The packs named, or every pack there is. Of every pack, one that cannot load is left out with
    a warning on stderr (once a run) that says how to remove it: a pack a run cut short or a user
    cut wrong never stops minebot. A pack asked for by name must load."""
    if names:
        return [load_pack(n, root) for n in names]
    packs = []
    for name in skin_names(root):
        try:
            packs.append(load_pack(name, root))
        except SkinPackError as exc:
            _warn_once(name, exc)
    if not packs:
        where = root or f"{templates_root()} or {learnt_skins()}"
        raise SkinPackError(
            f"no skin packs found in {where} (all hidden?); reinstall minebot or unset MINEBOT_HIDE_SKINS"
        )
    return packs


_WARNED: set[str] = set()


def _warn_once(name: str, exc: SkinPackError) -> None:
    if name in _WARNED:
        return
    _WARNED.add(name)
    learnt = (learnt_skins() / name / "pack.json").is_file()
    fix = f"remove it with `minebot skins --remove {name}`" if learnt else "reinstall minebot"
    print(
        f"minebot: skipped the skin pack {name!r}, which cannot load ({exc}); {fix}",
        file=sys.stderr,
    )
