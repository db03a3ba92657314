"""The ``minebot`` command. ``main(*args)`` returns an exit code so tests can call it."""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bot import files
from bot.board import Board
from bot.errors import InputFileError, MinebotError, UsageError
from bot.games import GAMES
from bot.sim import bench
from bot.sim.game import make_layout, read_layouts, write_layouts
from bot.solver import STRATEGIES, solve
from bot.solver.guess import first_click
from bot.vocabulary import FIRST_CLICK_RULES, LEVELS, parse_level


def _game_name(name: str) -> str:
    """A game ``demo`` can start: one of GAMES, or ``world:SEED``."""
    from bot.games.launchers import world_seed

    if name in GAMES or world_seed(name) is not None:
        return name
    raise argparse.ArgumentTypeError(
        f"unknown game {name!r}: choose one of {', '.join(GAMES)}, or world:SEED"
    )


def _at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number, ``low`` or more."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is less than {low}")
        return value

    return parse


COUNT, NATURAL = _at_least(1), _at_least(0)  # games, repeats; seeds, mines, jobs, pixels


def _point(text: str) -> tuple[int, int]:
    """An argparse type: X,Y in pixels."""
    x, _, y = text.partition(",")
    if not (x.strip().isdigit() and y.strip().isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not X,Y (two whole numbers of pixels)")
    return int(x), int(y)


def _version() -> str:
    """minebot's version as installed (pip install . or -e .), else "(not installed)"."""
    from importlib import metadata

    try:
        return metadata.version("minebot")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="minebot", description="Plays Minesweeper by looking at the screen."
    )
    parser.add_argument("--version", action="version", version=f"minebot {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    b = sub.add_parser("bench", help="win rate of a strategy over seeded simulated games")
    b.add_argument(
        "--level", default="expert", help="beginner, intermediate, expert or COLSxROWS/MINES"
    )
    b.add_argument(
        "--rule", default="safe", choices=FIRST_CLICK_RULES, help="first-click rule (default safe)"
    )
    b.add_argument("--games", type=COUNT, default=1000)
    b.add_argument("--seed", type=NATURAL, default=1)
    b.add_argument(
        "--strategy", default="best", help=f"one of {', '.join(STRATEGIES)}; a comma list; or all"
    )
    b.add_argument("--jobs", type=NATURAL, default=1, help="processes to use (0: all cores)")
    b.add_argument("--layouts", type=Path, help="play the games of a layouts file instead")
    b.add_argument("--no-flags", action="store_true", help="do not flag certain mines")
    b.add_argument(
        "--opened",
        type=COUNT,
        metavar="CELLS",
        help="instead of playing: solve one position per game, "
        "CELLS of its safe cells opened at random (no cascades); count those solved exactly",
    )
    b.add_argument("--json", action="store_true", help="print the figures as JSON")
    b.add_argument(
        "--save", type=Path, metavar="FILE", help="write each game's result to FILE (one strategy)"
    )
    b.add_argument(
        "--against",
        type=Path,
        metavar="FILE",
        help="pair this run with one saved by --save over the same games: the games only each won",
    )

    s = sub.add_parser("solve", help="analyse a board given as text (a file, or - for stdin)")
    s.add_argument("board", help="board text file: rows of # F ? 0-8 * X x")
    s.add_argument("--mines", type=NATURAL, help="total mines in the game")
    s.add_argument("--strategy", default="best")
    s.add_argument("--rule", default="safe", choices=FIRST_CLICK_RULES)
    s.add_argument("--json", action="store_true")

    rp = sub.add_parser("replay", help="read a saved screenshot and print the board and the advice")
    rp.add_argument("image", type=Path)
    rp.add_argument("--skin", help="only try this skin pack")
    rp.add_argument(
        "--mines", type=NATURAL, help="total mines, when the board is not a standard level"
    )
    rp.add_argument(
        "--rule", choices=FIRST_CLICK_RULES, help="first-click rule (default: the skin's game)"
    )
    rp.add_argument("--json", action="store_true", help="print one JSON object")
    rp.add_argument(
        "--annotate",
        type=Path,
        metavar="OUT.png",
        help="write the screenshot with the advice drawn on it",
    )
    rp.add_argument(
        "--at",
        type=_point,
        metavar="X,Y",
        help="read the board at this point of the picture (where it shows several)",
    )

    pl = sub.add_parser("play", help="find the Minesweeper game on the screen and play it")
    pl.add_argument(
        "--games",
        type=COUNT,
        default=1,
        help="games to play in a row (starts each new game itself)",
    )
    pl.add_argument(
        "--level",
        choices=tuple(LEVELS),
        help="switch the game to this level where it has keys for it "
        "(winemine, minegauler), else check the size",
    )
    pl.add_argument("--mines", type=NATURAL, help="total mines, for a custom game")
    pl.add_argument("--skin", help="only look for this skin pack")
    pl.add_argument("--no-flags", action="store_true", help="never flag mines (fewer clicks)")
    pl.add_argument(
        "--new-game-key",
        metavar="KEY",
        help="the game's key for a new game, e.g. F2 or ctrl+n (default: tries F2, N, the face, buttons above the board; "
        "never a key a browser or desktop takes for itself, Ctrl+N, Ctrl+R, F5, unless given here)",
    )
    pl.add_argument(
        "--dry-run", action="store_true", help="read and decide once, print the move, click nothing"
    )
    pl.add_argument(
        "--save-final",
        type=Path,
        metavar="OUT.png",
        help="save the board's last screenshot here ({game} in the name: the game's number, a file per game)",
    )
    pl.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per game (with the ms each part took)",
    )
    pl.add_argument(
        "--profile",
        action="store_true",
        help="at the end, say where the games' time went: waiting for "
        "the game to draw, reading, solving, the guard's checks, clicking",
    )
    pl.add_argument(
        "--learn",
        nargs="?",
        const="",
        metavar="NAME",
        help="learn the game's look by playing it, with no skin pack (automatic when no pack reads the board); "
        "saved as pack NAME (default: a name of its own) in this user's data folder",
    )

    ad = sub.add_parser(
        "advise", help="watch the screen and print the advice each time the board changes"
    )
    ad.add_argument("--mines", type=NATURAL)
    ad.add_argument("--skin")
    ad.add_argument("--once", action="store_true", help="print one reading and stop")

    rc = sub.add_parser(
        "record",
        help="save a screenshot and the bot's reading of it (OUT.png, OUT.board) to check by eye",
    )
    rc.add_argument("out", type=Path, help="file name without extension")
    rc.add_argument("--mines", type=NATURAL)
    rc.add_argument("--skin")

    dm = sub.add_parser(
        "demo", help="on a machine with no screen: start Xvfb and a real game, play it"
    )
    dm.add_argument(
        "--game",
        default="winemine",
        type=_game_name,
        metavar="GAME",
        help=f"the game to start: {', '.join(GAMES)}, or world:SEED, a generated one (xbomb, kmines, sgt-mines, ace-minesweeper, pygame-minesweeper, nicegui-minesweeper: no pack ships "
        "for them, their look is learnt by playing; nicegui-minesweeper is a web game, in Chromium; a world is played with "
        "nothing told, its level its own)",
    )
    dm.add_argument(
        "--level",
        default="expert",
        choices=tuple(LEVELS),
        help="(nicegui-minesweeper has one size: 10x10, 10 mines; ace-minesweeper 32x32, 200 mines)",
    )
    dm.add_argument("--games", type=COUNT, default=1)
    dm.add_argument(
        "--save-final",
        type=Path,
        default=Path("minebot-final.png"),
        metavar="OUT.png",
        help="as for play",
    )
    dm.add_argument("--json", action="store_true")
    dm.add_argument("--profile", action="store_true", help="as for play")
    dm.add_argument(
        "--learn",
        nargs="?",
        const="",
        metavar="NAME",
        help="learn the game's look with no skin pack (see play)",
    )
    dm.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="a web game's device scale in Chromium (browser zoom: 1 to 2)",
    )
    dm.add_argument(
        "--shift",
        type=NATURAL,
        default=0,
        help="px to move the game's window right and down (pixel alignment)",
    )

    ln = sub.add_parser(
        "learn", help="cut a skin pack's tiles from a screenshot and its checked .board file"
    )
    ln.add_argument("image", type=Path)
    ln.add_argument(
        "board", type=Path, help="the true board (minebot record writes one to correct)"
    )
    ln.add_argument("--skin", help="pack name (default: the game named in the .board file)")
    ln.add_argument(
        "--face", help="X,Y,W,H of the face button in the screenshot, saved as face-<state>.png"
    )
    ln.add_argument(
        "--templates", type=Path, help="folder of skin packs (default: this user's learnt packs)"
    )

    sk = sub.add_parser(
        "skins",
        help="list the skin packs minebot reads (shipped and learnt), or remove a learnt one",
    )
    sk.add_argument("--remove", metavar="NAME", help="delete this learnt pack (shipped packs stay)")

    bv = sub.add_parser(
        "bench-vision", help="time locating and reading boards in screenshots, per skin"
    )
    bv.add_argument("images", nargs="*", type=Path, help="screenshots (default: fixtures/*/*.png)")
    bv.add_argument("--repeat", type=COUNT, default=20)
    bv.add_argument(
        "--saved",
        metavar="WAYS",
        help="instead of timing: read each labelled screenshot saved these ways "
        "(comma list of qN: JPEG at quality N, gray, xS: scaled S times; or edited round the board: cells, margin, room, "
        "half, end, third, row: cut there, band, box, corner: a grey box over it, spotN: a box of one colour at random, textN: a box of text, pointN: a mouse pointer, "
        "seed N; or both: cells+q80) and count those "
        "read right, refused and wrong",
    )

    bw = sub.add_parser(
        "bench-world",
        help="play the generated world (a web game drawn from each seed) with nothing told, judged by its own state",
    )
    bw.add_argument("--seeds", default="1-5", help="A-B, A,B,C or one seed (default 1-5)")
    bw.add_argument(
        "--games", type=COUNT, default=3, help="games in each of a seed's two runs (default 3)"
    )
    bw.add_argument(
        "--scale",
        default="1",
        help="Chromium's device scale, or a comma list: each seed at each (default 1)",
    )
    bw.add_argument("--json", action="store_true", help="one JSON object: seeds and summary")

    lay = sub.add_parser(
        "layouts", help="write seeded mine layouts to a file other programs can replay"
    )
    lay.add_argument("out", type=Path)
    lay.add_argument("--level", default="expert")
    lay.add_argument("--rule", default="safe", choices=FIRST_CLICK_RULES)
    lay.add_argument("--games", type=COUNT, default=1000)
    lay.add_argument("--seed", type=NATURAL, default=1)
    for command in sub.choices.values():  # what every command takes
        command.add_argument(
            "--verbose",
            "-v",
            action="store_true",
            help="on an error, also print what was measured on the way",
        )
    return parser


def main(*args: str) -> int:
    parser = _parser()
    try:
        ns = parser.parse_args(list(args))
    except SystemExit as exit:
        return int(exit.code or 0)
    try:
        if ns.command in _COMMANDS:
            return _COMMANDS[ns.command](ns)
        if ns.command in ("play", "demo"):
            # the live commands: screen and mouse imports stay out of the rest
            from bot import (
                commands,
            )

            if ns.command == "demo":
                options = commands.PlayOptions(
                    games=ns.games,
                    save_final=ns.save_final,
                    json=ns.json,
                    learn=ns.learn,
                    profile=ns.profile,
                )
                return commands.demo(ns.game, ns.level, options, ns.scale, ns.shift)
            return commands.play(
                commands.PlayOptions(
                    games=ns.games,
                    skin=ns.skin,
                    mines=ns.mines,
                    level=ns.level,
                    dry_run=ns.dry_run,
                    flags=not ns.no_flags,
                    save_final=ns.save_final,
                    json=ns.json,
                    learn=ns.learn,
                    new_game_key=ns.new_game_key,
                    profile=ns.profile,
                )
            )
        if ns.command in ("advise", "record"):
            from bot.live import watch  # they watch the screen and never click

            return int(getattr(watch, ns.command)(ns))
    except MinebotError as err:
        _report(err, ns.verbose)
        code = 2 if isinstance(err, UsageError) else 1  # as argparse's own usage errors
        if getattr(ns, "json", False):  # a program reading the JSON lines learns of it too
            said = {"error": str(err), "kind": type(err).__name__, "exit": code}
            print(json.dumps(said | ({"detail": err.detail} if err.detail else {})), flush=True)
        return code
    except KeyboardInterrupt:
        print("minebot: stopped", file=sys.stderr)
        return 130
    return 2


def _report(err: MinebotError, verbose: bool) -> None:
    """The error's one line on stderr; its detail on a second line under --verbose, else a word that it has one."""
    more = "" if not err.detail or verbose else " (more with --verbose)"
    print(f"minebot: {err}{more}", file=sys.stderr)
    if err.detail and verbose:
        print(f"minebot: detail: {err.detail}", file=sys.stderr)


# bounds on what a benchmark may ask for, checked before any work starts
MAX_JOBS_PER_CORE = 4
MAX_BENCH_GAMES = 1_000_000


def _bench(ns: argparse.Namespace) -> int:
    cores = os.cpu_count() or 1
    jobs = ns.jobs or cores
    if jobs > MAX_JOBS_PER_CORE * cores:
        raise UsageError(
            f"--jobs {ns.jobs}: at most {MAX_JOBS_PER_CORE * cores} on this machine's {cores} cores"
        )
    if ns.games > MAX_BENCH_GAMES:
        raise UsageError(f"--games {ns.games}: at most {MAX_BENCH_GAMES:,} a run")
    names = list(STRATEGIES) if ns.strategy == "all" else ns.strategy.split(",")
    for name in names:
        if name not in STRATEGIES:
            print(
                f"minebot: strategy {name!r} is not one of {', '.join(STRATEGIES)}, all",
                file=sys.stderr,
            )
            return 2
    if (ns.save or ns.against) and len(names) > 1:
        print("minebot: --save and --against take one strategy", file=sys.stderr)
        return 2
    if ns.against and not ns.against.is_file():
        print(f"minebot: {ns.against} is not a file saved by bench --save", file=sys.stderr)
        return 2
    layouts = read_layouts(ns.layouts) if ns.layouts else None
    level = layouts[0].level if layouts else parse_level(ns.level)
    rule = layouts[0].rule if layouts else ns.rule
    if ns.opened:
        runs = [
            bench.positions(
                level, ns.opened, ns.games, ns.seed, name, bench.Progress(name, unit="positions")
            )
            for name in names
        ]
        print(
            json.dumps([r.as_dict() for r in runs])
            if ns.json
            else "\n".join([bench.Positions.HEADER, *(r.row() for r in runs)])
        )
        return 1 if any(r.wrong for r in runs) else 0
    summaries = []
    for name in names:
        job = bench.Job(level, rule, name, ns.seed, flags=not ns.no_flags)
        label = f"{name} {level} {rule}"
        summaries.append(bench.run(job, ns.games, jobs, layouts, progress=bench.Progress(label)))
    if ns.save:
        bench.save_results(ns.save, summaries[0], ns.seed)
    try:
        pair = bench.paired(summaries[0], ns.seed, ns.against) if ns.against else None
    except ValueError as exc:
        print(f"minebot: {exc}", file=sys.stderr)
        return 2
    if ns.json:
        out = [s.as_dict() for s in summaries]
        if pair:
            out[0]["paired"] = {
                "against": str(ns.against),
                "only_here": pair.this_only,
                "only_there": pair.other_only,
                "z": round(pair.z, 3),
            }
        print(json.dumps(out[0] if len(out) == 1 else out))
        return 0
    print(
        f"{'strategy':<14}{'level':<22}{'rule':<9}{'games':>7}{'wins':>7}{'win rate':>10}"
        f"{'95% interval':>17}{'guesses':>9}{'ms/game':>9}"
    )
    for s in summaries:
        lo, hi = s.ci95
        print(
            f"{s.strategy:<14}{s.level:<22}{s.rule:<9}{s.games:>7}{s.wins:>7}{s.win_rate:>10.2%}"
            f"{f'{lo:.2%}-{hi:.2%}':>17}{s.guesses_per_game:>9.2f}{s.ms_per_game:>9.1f}"
        )
    worst = max(s.slowest_decision for s in summaries)
    approx = sum(s.approximate for s in summaries)
    print(
        f"slowest single decision: {1000 * worst:.0f} ms; decisions on approximate probabilities: {approx}"
    )
    if pair:
        print(pair.line(str(ns.against)))
    bad = sum(s.lost_on_certain for s in summaries)
    if bad:
        print(f"WARNING: {bad} games lost on a cell called certain - a solver bug", file=sys.stderr)
        return 1
    return 0


def _solve(ns: argparse.Namespace) -> int:
    try:
        if ns.board == "-" and sys.stdin is None:
            raise InputFileError("no board on standard input (it is closed); give a board file")
        # a text editor's byte-order mark is no cell
        text = sys.stdin.read() if ns.board == "-" else Path(ns.board).read_text("utf-8-sig")
        text = text.removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError) as exc:
        why = (
            "a folder, not a file"
            if Path(ns.board).is_dir()
            else exc.strerror
            if isinstance(exc, OSError)
            else "not a text file"
        )
        raise InputFileError(
            f"cannot read the board {ns.board}: {why}; give a text file of rows of # F ? 0-8 * X x"
        ) from None
    board = Board.parse(text, mines=ns.mines)
    analysis = solve(board, ns.strategy, ns.rule, np.random.default_rng(0))
    if ns.json:
        print(json.dumps(analysis.as_dict()))
        return 0
    print(board)
    print(analysis.text())
    return 0


def _layouts(ns: argparse.Namespace) -> int:
    level = parse_level(ns.level)
    start = first_click(Board.covered(level.rows, level.cols), ns.rule)
    count = write_layouts(
        ns.out, (make_layout(level, ns.rule, start, (ns.seed, i)) for i in range(ns.games))
    )
    print(f"wrote {count} {level} layouts (rule {ns.rule}, first click {start}) to {ns.out}")
    return 0


def _bench_world(ns: argparse.Namespace) -> int:
    from bot.games.world_bench import MAX_GAMES, MAX_SCALE, bench_world, parse_seeds

    seeds = parse_seeds(ns.seeds)
    try:
        scales = [float(part) for part in ns.scale.split(",")]
    except ValueError:
        raise UsageError(
            f"--scale {ns.scale!r}: give a number or a comma list, e.g. 1,1.5"
        ) from None
    if not all(1 <= scale <= MAX_SCALE for scale in scales):
        raise UsageError(f"--scale {ns.scale!r}: each from 1 to {MAX_SCALE:g}")
    if ns.games > MAX_GAMES:
        raise UsageError(f"--games {ns.games}: at most {MAX_GAMES} a run")
    return bench_world(seeds, ns.games, scales, ns.json)


_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "bench-world": _bench_world,
    "bench": _bench,
    "solve": _solve,
    "layouts": _layouts,
    "replay": files.replay,
    "learn": files.learn,
    "bench-vision": files.bench_vision,
    "skins": files.skins,
}


def entry() -> None:
    if sys.stdout is None:  # started with its output closed: print() would drop every line
        print("minebot: standard output is closed; run it with its output open", file=sys.stderr)
        sys.exit(1)
    try:
        code = main(*sys.argv[1:])
        sys.stdout.flush()  # a full disk shows here, not in a message at exit
    except BrokenPipeError:  # the output was piped into something that stopped reading (`| head`)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        sys.exit(0)
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EIO, getattr(errno, "EDQUOT", errno.ENOSPC)):
            raise
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(
            f"minebot: cannot write the output ({exc.strerror}); free some space", file=sys.stderr
        )
        sys.exit(1)
    sys.exit(code)
