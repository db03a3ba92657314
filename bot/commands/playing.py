"""``minebot play`` and ``demo``: the game found on the screen and played with a pack that
reads it, or learnt by playing; a dry run that only prints the moves."""

from __future__ import annotations

import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bot.commands.learning import learn_by_playing
from bot.commands.options import PlayOptions, mine_count
from bot.commands.report import print_profile, print_summary, report_game, say_interrupted
from bot.devices.actuator import DryRunMouse, LiveMouse, Mouse
from bot.devices.capture import MssScreen, Screen
from bot.errors import (
    BoardGone,
    MinebotError,
    NoBoardFound,
    UnreadableCell,
    VisionError,
)
from bot.games import launcher_of, start_game, virtual_display
from bot.games.launchers import World
from bot.live.levels import switch_level
from bot.live.place import check_in_view, check_unobstructed, find_game, mouse_ratio, park_point
from bot.live.table import LiveTable
from bot.play import GameProgress, GameResult, Spent, play_game
from bot.solver import get_strategy, solve
from bot.userdata import (
    check_picture_path,
    hidden_skins,
)
from bot.vision import load_packs
from bot.vision.geometry import Geometry
from bot.vision.grid import find_grid
from bot.vision.pack import SkinPack, skin_names

HOVER_GONE = 0.3  # s for a game to redraw a cell the pointer has left


def play(options: PlayOptions, screen: Screen | None = None) -> int:
    if options.save_final:
        check_picture_path(options.save_final)  # before the games, not after them
    if screen is None:
        with MssScreen() as own:
            return play(options, own)
    new_game_key, learn = options.new_game_key, options.learn
    mouse: Mouse = DryRunMouse() if options.dry_run else LiveMouse(ratio=mouse_ratio(screen))
    if learn is not None:
        return learn_by_playing(
            options, screen, mouse, find_grid_on(screen), learn or None, new_game_key
        )
    # every pack hidden (MINEBOT_HIDE_SKINS): none to try, the board is learnt
    packs = load_packs([options.skin]) if options.skin else load_packs() if skin_names() else []
    if not options.dry_run:
        _pointer_off_the_board(screen, mouse)
    try:
        pack, geometry, reading = find_game(screen, packs, options.mines)
    except (NoBoardFound, UnreadableCell) as missed:
        # a learnt pack that finds the board but cannot read all of it has not seen this size of
        # it (kmines draws its cells to fit the window): learnt on, into NAME-<size>px
        learnt = [
            p.name
            for p in packs
            if p.learnt and isinstance(missed, UnreadableCell) and p.name == missed.skin
        ]
        if not isinstance(missed, NoBoardFound) and not learnt:
            raise
        try:
            grid = find_grid_on(screen)
        except NoBoardFound:
            raise missed from None
        # how near a learnt pack came (xdemineur's once missed by the next run)
        tried = [
            part
            for part in (missed.tried if isinstance(missed, NoBoardFound) else ())
            if any(part.startswith(f"{p.name}@") for p in packs if p.learnt)
        ]
        print(
            f"minebot: {f'learnt pack {learnt[0]} does not read' if learnt else 'no skin pack reads'} this board "
            f"({missed}{'; ' if tried else ''}{'; '.join(tried)}); learning its look by playing it",
            file=sys.stderr,
        )
        return learn_by_playing(
            options, screen, mouse, grid, learnt[0] if learnt else None, new_game_key
        )
    # a learnt pack may not know every look yet: play on learning
    if pack.learnt and not options.dry_run:
        # where its pictures line up with the cells, so that what it learns now is cut as they were
        return learn_by_playing(
            options,
            screen,
            mouse,
            geometry,
            pack.name,
            new_game_key,
            known=pack,
            counted=reading.counted,
        )
    if options.level and options.level in pack.level_keys and not options.dry_run:
        pack, geometry, reading = switch_level(
            screen, pack, geometry, reading, mouse, options.level
        )
    mines = mine_count(
        options,
        pack.name,
        geometry.rows,
        geometry.cols,
        reading.counted,
        pack.mines.get((geometry.rows, geometry.cols)),
    )
    table = LiveTable(screen, mouse, pack, geometry, mines)
    print(
        f"found {pack.name} {geometry.cols}x{geometry.rows} ({mines} mines) at "
        f"({geometry.origin[0]:.0f},{geometry.origin[1]:.0f}), {geometry.cell_px:g} px cells; state {table.state}",
        file=sys.stderr,
    )
    if options.dry_run:
        return _dry_run(table, pack, options.json)
    # a shipped pack that has read only a new board's covered cells may know another look's covered
    # tile: the new board is kept, to learn its look from should the pack not read it once opened
    fresh = (
        screen.grab() if not pack.learnt and not table.proven and table.state == "playing" else None
    )
    try:
        results = _play_games(options, table, pack, new_game_key, learnable=fresh is not None)
    except _LearnOn as other:
        assert fresh is not None
        print(
            f"minebot: skin pack {pack.name} read the new board but not the opened one ({other.__cause__}); "
            "learning its look by playing on",
            file=sys.stderr,
        )
        return learn_by_playing(options, screen, mouse, other.grid, None, new_game_key, fresh=fresh)
    if not options.json:
        print_summary(results)
    return 1 if any(r.lost_on_certain for r in results) else 0


def _dry_run(table: LiveTable, pack: SkinPack, as_json: bool = False) -> int:
    """Read the board once and print what would be played (``as_json``: one JSON object, as replay's)."""
    board = table.board()
    analysis = solve(board, "best", pack.rule, np.random.default_rng())
    if as_json:
        print(
            json.dumps({"skin": pack.name, "board": str(board).splitlines(), **analysis.as_dict()})
        )
        return 0
    print(board)
    print(f"would play: {analysis.move if analysis.move else 'nothing (game over or stuck)'}")
    print(f"certain safe: {len(analysis.safe)}, certain mines: {len(analysis.mines)}")
    return 0


class _LearnOn(MinebotError):
    """The pack read a new board but not the opened one, which stands on its lattice at ``grid``."""

    def __init__(self, grid: Geometry) -> None:
        super().__init__(f"a board on its lattice at {grid.origin}")
        self.grid = grid


def _play_games(
    options: PlayOptions,
    table: LiveTable,
    pack: SkinPack,
    new_game_key: str | None,
    learnable: bool = False,
) -> list[GameResult]:
    """Play ``options.games`` games on the table, a line for each; where a run stops, say where. Where
    the pack (``learnable``: a shipped one, on a new board) cannot read the first game once opened,
    and the same board stands on its lattice, _LearnOn."""
    strategy = get_strategy("best")
    rng = np.random.default_rng()
    results: list[GameResult] = []
    profiles: list[dict[str, float]] = []
    for index in range(options.games):
        progress = GameProgress(f"game {index + 1}/{options.games}")
        where = f"before game {index + 1} of {options.games}"
        try:
            if table.state != "playing" or (index > 0 and not table.board().is_fresh()):
                table.new_game(new_game_key)
            where = f"in game {index + 1} of {options.games} (in play at its last reading)"
            table.spent = Spent()
            result = play_game(
                table,
                strategy,
                pack.rule,
                rng,
                flags=options.flags,
                must_flag=pack.flags_to_win,
                progress=progress,
                spent=table.spent,
            )
        except KeyboardInterrupt:
            progress.clear()
            say_interrupted(options, results, where)
            raise
        except MinebotError as exc:
            progress.clear()
            grid = _unread_look(exc, table) if learnable and not results else None
            if grid is not None:
                raise _LearnOn(grid) from exc
            won = sum(r.won for r in results)
            print(
                f"minebot: stopped {where}; {len(results)} finished before it ({won} won)",
                file=sys.stderr,
            )
            raise
        progress.clear()
        results.append(result)
        profiles.append(table.spent.of(result.seconds))
        report_game(options, index, table, result, results, profiles[-1])
    if options.profile and results:
        print_profile(results, profiles, sys.stderr if options.json else sys.stdout)
    return results


def _unread_look(exc: MinebotError, table: LiveTable) -> Geometry | None:
    """Where the pack has read only covered cells and now reads no board (or a cell as no tile),
    while the lattice shows a board of the same size in the same place: that board, its cells in
    another look with a covered tile like the pack's (winxp's and classic98's, or react-minesweeper's).
    (Not when the window moved or closed: the lattice shows no such board then.)"""
    if table.proven or not isinstance(exc, (VisionError, BoardGone)):
        return None
    try:
        grid = lattice_on(table.screen)
    except NoBoardFound:
        return None
    was = table.geometry
    same = all(
        abs(a - b) <= p / 2 for a, b, p in zip(grid.origin, was.origin, grid.pitch, strict=True)
    )
    return grid if same and (grid.rows, grid.cols) == (was.rows, was.cols) else None


def _pointer_off_the_board(screen: Screen, mouse: Mouse) -> None:
    """A pointer the user left on a cell lights it up in most games (gnome-mines draws a covered cell
    under it a grey close to its empty cell's, which a learnt pack read as a 0 and so did not take
    the board for its own): it is moved where readings park it (park_point) before the first one."""
    try:
        grid = lattice_on(screen)
    except NoBoardFound:
        return
    if mouse.park_if_within(grid.region(), *park_point(grid, screen)):
        time.sleep(HOVER_GONE)


def find_grid_on(screen: Screen) -> Geometry:
    """The board on the whole screen found by its lattice alone, all in view (check_in_view) and
    uncovered (check_unobstructed), in screen coordinates: the board a run starts to learn."""
    image = screen.grab()
    grid = find_grid(image)
    check_in_view(image, grid)
    on_screen = grid.moved(screen.whole.left, screen.whole.top)
    check_unobstructed(screen, on_screen)
    return on_screen


def lattice_on(screen: Screen) -> Geometry:
    """The lattice of cells on the whole screen, in screen coordinates, unchecked: where the
    pointer rests before the board is looked for, or the board already found again."""
    return find_grid(screen.grab()).moved(screen.whole.left, screen.whole.top)


def demo(game: str, level: str, options: PlayOptions, scale: float = 1.0, shift: int = 0) -> int:
    """Start a virtual display and a real game at ``level``, play it (``options``: how many games,
    the final screenshot, JSON, learning), save the final screenshot."""
    launcher = launcher_of(game)
    if options.save_final:
        check_picture_path(options.save_final)  # before the game starts
    with (
        virtual_display(launcher.screen),
        tempfile.TemporaryDirectory(prefix="minebot-game-") as work,
        start_game(game, level, Path(work), scale, shift),
    ):
        if isinstance(launcher, World):
            # a generated world is played as a user's unknown game: nothing told
            print(f"started {game} (its size, look and rules drawn from its seed)", file=sys.stderr)
            told = dataclasses.replace(options, skin=None, level=None, dry_run=False)
        else:
            size = launcher.levels[level]
            print(
                f"started {game} at {level} ({size.cols}x{size.rows}, {size.mines} mines)",
                file=sys.stderr,
            )
            skin = launcher.skin
            told = dataclasses.replace(
                options,
                skin=None
                if options.learn is not None or skin in hidden_skins() or skin not in skin_names()
                else skin,
                mines=size.mines,
                level=None,
                dry_run=False,
                flags=launcher.flags,
                new_game_key=launcher.new_game_key,
            )
        code = play(told)
    if "{game}" in str(options.save_final):
        print(
            f"final screenshots: {options.save_final} (one per game, {{game}} its number)",
            file=sys.stderr,
        )
    else:
        print(f"final screenshot: {options.save_final}", file=sys.stderr)
    return code
