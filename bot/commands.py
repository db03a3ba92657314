"""The live commands behind ``minebot play``, ``advise``, ``record`` and ``demo``.

Kept apart from :mod:`bot.cli` so that the simulated commands never import the screen stages.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TextIO

import numpy as np

from bot.devices.actuator import DryRunMouse, LiveMouse, Mouse
from bot.devices.capture import MssScreen, Screen
from bot.errors import (
    BoardGone,
    FirstClickIgnored,
    MinebotError,
    NoBoardFound,
    UnreadableCell,
    UsageError,
    VisionError,
)
from bot.games import launcher_of, start_game, virtual_display
from bot.games.launchers import World
from bot.learning.learn import Learner
from bot.learning.unsure import Unsure
from bot.live.levels import switch_level
from bot.live.place import check_in_view, check_unobstructed, find_game, mouse_ratio, park_point
from bot.live.table import LiveTable
from bot.play import GameProgress, GameResult, Spent, play_game, wilson
from bot.solver import get_strategy, solve
from bot.userdata import (
    check_picture_path,
    check_writable,
    hidden_skins,
    learnt_skins,
    write_picture,
)
from bot.vision import load_packs
from bot.vision.geometry import Geometry
from bot.vision.grid import find_grid
from bot.vision.pack import SkinPack, skin_names
from bot.vocabulary import CHAR_OF, STANDARD_MINES, level_of

HOVER_GONE = 0.3  # s for a game to redraw a cell the pointer has left


@dataclasses.dataclass(frozen=True)
class PlayOptions:
    """What ``minebot play`` is asked to do (bot/cli.py makes it from the command line, ``demo`` from its game)."""

    games: int = 1
    skin: str | None = None  # only this pack
    mines: int | None = None
    level: str | None = None  # switch to it (or check the size)
    dry_run: bool = False
    flags: bool = True
    save_final: Path | None = None
    json: bool = False
    # learn the look by playing, into this pack ("": a name of its own); None: where no pack reads it
    learn: str | None = None
    new_game_key: str | None = None
    profile: bool = False  # say where the games' time went


def _mines(
    options: PlayOptions,
    skin: str,
    rows: int,
    cols: int,
    counted: int | None = None,
    remembered: int | None = None,
) -> int:
    """The game's mine count: as told (_mines_told), else ``remembered`` (a learnt pack's count
    for this size), else the standard level's for the board's size."""
    told = _mines_told(options, skin, rows, cols, counted)
    mines = told if told is not None else remembered or STANDARD_MINES.get((rows, cols))
    if mines is None:
        raise UsageError(
            f"a {cols}x{rows} board is not a standard level: give its mine count with --mines"
        )
    return int(mines)


def _mines_told(
    options: PlayOptions, skin: str, rows: int, cols: int, counted: int | None = None
) -> int | None:
    """The game's mine count as told: --mines, else what its counter says (``counted``), else
    --level's in that game (its size checked); None where nothing tells it."""
    if options.mines is not None:
        if not 0 < options.mines < rows * cols:
            raise UsageError(
                f"--mines {options.mines}: a {cols}x{rows} board holds from 1 to {rows * cols - 1}"
            )
        return int(options.mines)
    level = options.level
    if level:
        want = level_of(skin, level)
        if (rows, cols) != (want.rows, want.cols):
            how = (
                "--dry-run does not switch levels"
                if options.dry_run
                else "minebot does not know how to switch this game's level"
            )
            raise UsageError(
                f"the game on screen is {cols}x{rows}, not {level} ({want.cols}x{want.rows}), and {how}: "
                "change it in the game or leave out --level"
            )
    if counted is not None:
        return counted
    return level_of(skin, level).mines if level else None


def _describe(result: GameResult) -> str:
    if result.won:
        how = "won"
    elif result.state == "lost":
        how = (
            "LOST ON A CELL CALLED SAFE (a misreading or a bug)"
            if result.lost_on_certain
            else "lost on a guess"
        )
    else:
        how = "stopped (no move)"
    return (
        f"{how} in {result.seconds:.1f} s, {result.guesses} guesses, {result.decisions} readings, "
        f"{result.clicks} clicks ({result.chords} chords)"
    )


def play(options: PlayOptions, screen: Screen | None = None) -> int:
    if options.save_final:
        check_picture_path(options.save_final)  # before the games, not after them
    if screen is None:
        with MssScreen() as own:
            return play(options, own)
    new_game_key, learn = options.new_game_key, options.learn
    mouse: Mouse = DryRunMouse() if options.dry_run else LiveMouse(ratio=mouse_ratio(screen))
    if learn is not None:
        return _learn(options, screen, mouse, find_grid_on(screen), learn or None, new_game_key)
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
        # pack came (xdemineur's once missed by the next run)
        tried = [
            part
            # how near a learnt
            for part in (line.removeprefix("packs tried: ") for line in missed.detail.split("; "))
            if any(part.startswith(f"{p.name}@") for p in packs if p.learnt)
        ]
        print(
            f"minebot: {f'learnt pack {learnt[0]} does not read' if learnt else 'no skin pack reads'} this board "
            f"({missed}{'; ' if tried else ''}{'; '.join(tried)}); learning its look by playing it",
            file=sys.stderr,
        )
        return _learn(options, screen, mouse, grid, learnt[0] if learnt else None, new_game_key)
    # a learnt pack may not know every look yet: play on learning
    if pack.learnt and not options.dry_run:
        # where its pictures line up with the cells, so that what it learns now is cut as they were
        return _learn(
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
    mines = _mines(
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
        return _learn(options, screen, mouse, other.grid, None, new_game_key, fresh=fresh)
    if not options.json:
        _summary(results)
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
            _interrupted(options, results, where)
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
        _report(options, index, table, result, results, profiles[-1])
    if options.profile and results:
        _profile(results, profiles, sys.stderr if options.json else sys.stdout)
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


def _report(
    options: PlayOptions,
    index: int,
    table: LiveTable,
    result: GameResult,
    results: list[GameResult],
    ms: dict[str, float],
) -> None:
    """A game's line (JSON with --json, with ``ms``: where its time went), and its final screen where asked."""
    # the last board read: None where the game drew its end over the board right after a flag
    board = table.reading.board if table.reading is not None else None
    if options.json:
        print(
            json.dumps(
                {
                    "game": index + 1,
                    "state": result.state,
                    "seconds": round(result.seconds, 3),
                    "guesses": result.guesses,
                    "readings": result.decisions,
                    "clicks": result.clicks,
                    "chords": result.chords,
                    "presses": table.presses,  # clicks sent: the guard holds back some planned
                    "lost_on_certain": result.lost_on_certain,
                    "ms": ms,
                    "guessed": result.guessed,  # the cells clicked not called safe (numpy's ints: default=int)
                    "board": str(board).splitlines() if board is not None else [],
                },
                default=int,
            ),
            flush=True,
        )
    else:
        wins = sum(r.won for r in results)
        print(
            f"game {index + 1}/{options.games}: {_describe(result)} ({wins} won so far)", flush=True
        )
    _save_final(options.save_final, table.image, index + 1)


def _save_final(path: Path | None, image: np.ndarray | None, game: int) -> None:
    """Save a game's last screen at ``path`` (each game over the last; a ``{game}`` in the name is
    the game's number, so that each game has a file of its own)."""
    if path is not None and image is not None:
        write_picture(Path(str(path).replace("{game}", str(game))), image)


def _interrupted(options: PlayOptions, results: list[GameResult], where: str) -> None:
    """Ctrl+C: where the run stopped, and the summary of the games it finished (not under --json,
    whose lines told each)."""
    print(f"minebot: interrupted {where}; {len(results)} finished before it", file=sys.stderr)
    if results and not options.json:
        _summary(results)


def _summary(results: list[GameResult]) -> None:
    wins = sum(r.won for r in results)
    seconds = statistics.median(r.seconds for r in results)
    low, high = wilson(wins, len(results))
    print(
        f"{wins} won, {len(results) - wins} lost of {len(results)} ({wins / len(results):.1%}, "
        f"95% interval {low:.1%}-{high:.1%}); median {seconds:.2f} s per game; "
        f"{sum(r.guesses for r in results)} guesses"
    )


def _profile(results: list[GameResult], profiles: list[dict[str, float]], out: TextIO) -> None:
    """``--profile``: where the games' time went, the median ms of each part, and per click; of the
    games won where some were (a game lost on an early guess takes a fraction of a second)."""
    won = [i for i, r in enumerate(results) if r.won] or list(range(len(results)))
    medians = {part: statistics.median(profiles[i][part] for i in won) for part in profiles[0]}
    total = sum(medians.values()) or 1.0
    clicks = statistics.median(results[i].clicks for i in won)
    games = f"{len(won)} won games" if results[won[0]].won else f"{len(won)} games"
    print(
        f"time per game, {games} (median of each part, ms): "
        + ", ".join(f"{part} {ms:.0f} ({ms / total:.0%})" for part, ms in medians.items())
        + f"; {statistics.median(results[i].decisions for i in won):.0f} readings and {clicks:.0f} clicks a game, "
        f"{total / max(clicks, 1):.1f} ms a click",
        file=out,
    )


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


def _learn(
    options: PlayOptions,
    screen: Screen,
    mouse: Mouse,
    geometry: Geometry,
    name: str | None,
    new_game_key: str | None,
    known: SkinPack | None = None,
    fresh: np.ndarray | None = None,
    counted: int | None = None,
) -> int:
    """Play ``options.games`` games learning the look (bot/learning/learn.py), from nothing or from a learnt pack;
    ``fresh``: a grab of the screen on the new board of the game in play, whose first click was played;
    ``counted``: the mine count as the learnt pack's counter gave it."""
    if options.dry_run:
        raise UsageError(
            "learning a look needs clicks: leave out --dry-run (or give the skin with --skin)"
        )
    check_writable(learnt_skins(), "the look it learns")  # before a game is played for it
    rows, cols = geometry.rows, geometry.cols
    told = _mines_told(options, "", rows, cols, counted)
    remembered = known.mines.get((rows, cols)) if known is not None else None
    # nothing tells it: played without it until a won game shows it
    mines = told if told is not None else remembered or STANDARD_MINES.get((rows, cols))
    learner = Learner(screen, mouse, geometry, mines, name=name, flags=options.flags)
    learner.mines_told = told is not None
    if known is not None:
        learner.seed(known)
    if fresh is not None:
        learner.prime(fresh)
    count = (
        f"{mines} mines"
        if mines is not None
        else "mine count unknown: learnt from the first game won"
    )
    print(
        f"{'learning a new look' if known is None else f'playing with learnt pack {known.name}, learning on'}: "
        f"{geometry.cols}x{geometry.rows} board ({count}) at "
        f"({geometry.origin[0]:.0f},{geometry.origin[1]:.0f}), {geometry.pitch[0]:g} px cells",
        file=sys.stderr,
    )
    results: list[GameResult] = []
    profiles: list[dict[str, float]] = []
    unsure: dict[int, Unsure] = {}  # games counted won on a guess whose look is not named yet
    start = time.perf_counter()
    for index in range(options.games):
        where = f"before game {index + 1} of {options.games}"
        try:
            if index > 0 or (fresh is None and learner.over()):
                learner.new_game(new_game_key)
            where = f"in game {index + 1} of {options.games}"
            learner.sight.spent = Spent()
            try:
                result = learner.play_game()
            except FirstClickIgnored:
                if index > 0 or fresh is not None:
                    raise
                # a run started on a finished game: a new one, as between games, then play
                print(
                    "minebot: the first click changed nothing: the game on screen may be over; "
                    "starting a new game",
                    file=sys.stderr,
                )
                learner.new_game(new_game_key)
                result = learner.play_game()
        except KeyboardInterrupt:
            _interrupted(options, results, where)
            raise
        except MinebotError:
            won = sum(r.won for r in results)
            print(
                f"minebot: stopped {where}; {len(results)} finished before it ({won} won)",
                file=sys.stderr,
            )
            raise
        results.append(result)
        profiles.append(learner.sight.spent.of(result.seconds))
        if result.won and learner.judge.unsure is not None:
            unsure[index] = learner.judge.unsure
        # a last guess lost, told once the looks or faces say so
        for told in learner.judge.told(unsure, learner.faces):
            results[told] = dataclasses.replace(results[told], state="lost")
            print(
                json.dumps({"game": told + 1, "state": "lost", "retold": True})
                if options.json
                else f"game {told + 1}/{options.games}: lost, not won: the looks named since, or its face, say its last guess "
                "hit a mine",
                flush=True,
            )
        named = learner.looks.names()
        line = {
            "game": index + 1,
            "state": result.state,
            "seconds": round(result.seconds, 3),
            "guesses": result.guesses,
            "clicks": result.clicks,
            "lost_on_certain": result.lost_on_certain,
            "guessed": result.guessed,
            "looks_named": "".join(sorted(CHAR_OF[c] for c in set(named.values()))),
            "seconds_learning": round(time.perf_counter() - start, 1),
            "clicks_learning": sum(r.clicks for r in results),
            "ms": profiles[-1],
        }
        if options.json:
            print(json.dumps(line, default=int), flush=True)
        else:
            wins = sum(r.won for r in results)
            print(
                f"game {index + 1}/{options.games}: {_describe(result)} ({wins} won so far); looks named: "
                f"{line['looks_named']}",
                flush=True,
            )
        if options.save_final:
            _save_final(options.save_final, learner.final_screen(), index + 1)
    # counted won, but nothing learnt since tells: said so, never passed off as sure
    for game in sorted(unsure):
        print(
            json.dumps({"game": game + 1, "state": "won", "unsure": True, "retold": True})
            if options.json
            else f"game {game + 1}/{options.games}: won or lost, not sure: its last guess showed a look no game named "
            "since (the mine hit, a number first seen), or the game drew over it, and its face told neither",
            flush=True,
        )
    print(f"learnt pack {learner.pack_name()!r} saved in {learnt_skins()}", file=sys.stderr)
    if learner.mines is None:
        print(
            "minebot: the mine count is still unknown (no game won, no counter learnt): "
            "the games were played without it; give it with --mines where you know it",
            file=sys.stderr,
        )
    elif not learner.sight.counter.learnt:
        print(
            f"minebot: no mines counter learnt (seen: {learner.sight.counter.account()})",
            file=sys.stderr,
        )
    if options.profile:
        _profile(results, profiles, sys.stderr if options.json else sys.stdout)
    if not options.json:
        _summary(results)
    return 1 if any(r.lost_on_certain for r in results) else 0


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
