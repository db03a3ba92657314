"""``minebot bench-world``: minebot against the generated world, judged by the world's own state.

For each seed (and scale), the world's page (bot/games/pages/world.html) in Chromium on a virtual
display, and minebot playing it as a user would run it: ``minebot play --games N --json`` with an
empty data folder and nothing told; then a second run from what the first learnt. The judge reads
the page's true state (each game's end, each press and where it fell) through Chromium's
debugging port, after each run; minebot never reads it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bot.errors import UsageError
from bot.games import devtools
from bot.games.launchers import WEB_SCREEN, World
from bot.games.x11 import virtual_display
from bot.play import wilson

START_WAIT = 60.0  # s for minebot to find the board and finish its first game, beyond GAME_WAIT
GAME_WAIT = 90.0  # s a game may take, learning included
# what a press may fall on: a cell, the face, the new-game control, the end's own button
ON_PURPOSE = {"cell", "face", "new", "close"}
RUNS = ("learning", "learnt")  # an empty data folder, then what the first run learnt
SEEDS_MAX = 10_000  # seeds in one bench (each takes a minute or two)
MAX_GAMES = 100  # games in one run
MAX_SCALE = 2.5  # device scale: the screen holds the page up to this


@dataclass
class Run:
    """One ``minebot play`` on one seed, and what the page says of it."""

    run: str  # "learning" or "learnt"
    exit: int | None  # minebot's exit code; None where the judge ended it at its time limit
    said: str  # minebot's last line on stderr
    games: int = 0  # games minebot told an end of
    won: int = 0  # of those, won as the page says
    lost: int = 0
    unsure: int = 0  # told as won, not sure
    false_verdicts: int = 0  # minebot's word on a game's end that the page's state contradicts
    presses_off: int = 0  # presses on nothing a player presses
    off: list[str] = field(default_factory=list)  # where they fell (what the page says), a few
    seconds: list[float] = field(default_factory=list)  # each game's, as minebot timed it
    verdicts: list[tuple[str, str]] = field(default_factory=list)  # (minebot's, the page's) each

    @property
    def stopped(self) -> bool:
        return self.exit != 0


@dataclass
class SeedResult:
    seed: int
    scale: float
    spec: dict[str, Any]
    runs: list[Run]

    def row(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "scale": self.scale,
            "spec": self.spec,
            "runs": [asdict(run) | {"stopped": run.stopped} for run in self.runs],
        }


def parse_seeds(text: str) -> list[int]:
    """``A-B`` (both included), ``A,B,C`` or one seed."""
    seeds: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise UsageError(f"--seeds {text!r}: give A-B, A,B,C or one seed (whole numbers >= 0)")
        seeds += range(int(low), int(high) + 1) if dash else [int(low)]
    if not seeds or len(seeds) > SEEDS_MAX:
        raise UsageError(f"--seeds {text!r}: from 1 to {SEEDS_MAX} seeds")
    return seeds


def verdicts(out: str) -> dict[int, dict[str, Any]]:
    """minebot's last word on each game it told of (a later line on a game retells it)."""
    told: dict[int, dict[str, Any]] = {}
    for line in out.splitlines():
        try:
            said = json.loads(line)
        except ValueError:
            continue
        if isinstance(said, dict) and "game" in said and "state" in said:
            told[int(said["game"])] = told.get(int(said["game"]), {}) | said
    return told


def judge(
    run: str, exit: int | None, err: str, out: str, world: dict[str, Any], since: dict[str, int]
) -> Run:
    """minebot's games of this run held against the page's: its n-th game told is the page's n-th
    game since the run began that took a press on its board."""
    lines = [line for line in err.strip().splitlines() if line.strip()]
    result = Run(run, exit, lines[-1] if lines else "")
    pages = [g for g in world["games"][since["games"] :] if g["boardClicks"] > 0]
    for number, said in sorted(verdicts(out).items()):
        truth = pages[number - 1]["state"] if number - 1 < len(pages) else "none"
        state = "unsure" if said.get("unsure") else str(said["state"])
        result.verdicts.append((state, truth))
        result.games += 1
        if "seconds" in said:
            result.seconds.append(float(said["seconds"]))
        if state == "unsure":
            result.unsure += 1
        elif state != truth:
            result.false_verdicts += 1
        elif state == "won":
            result.won += 1
        elif state == "lost":
            result.lost += 1
    allowed = ON_PURPOSE | ({"veil"} if world["spec"]["end"] == "dim" else set())
    for press in world["clicks"][since["clicks"] :]:
        if press["what"] not in allowed:
            result.presses_off += 1
            if len(result.off) < 5:
                result.off.append(f"{press['what']}@{press['x']},{press['y']}")
    return result


def play_seed(seed: int, scale: float, games: int, work: Path) -> SeedResult:
    """The two runs on one seed, in a display of their own."""
    from bot.games import start_game

    runs: list[Run] = []
    with virtual_display(WEB_SCREEN), start_game(f"world:{seed}", "beginner", work, scale) as game:
        # the display's DISPLAY and XAUTHORITY, an empty data folder of the seed's own
        env = {
            **os.environ,
            "MINEBOT_DATA": str(work / "data"),
            "MINEBOT_CACHE": str(work / "cache"),
        }
        env.pop("MINEBOT_HIDE_SKINS", None)
        launcher = game.launcher
        assert isinstance(launcher, World)
        port = launcher.debug_port
        world = _state(port)
        for run in RUNS:
            since = {"games": len(world["games"]), "clicks": len(world["clicks"])}
            if since["games"] and world["games"][-1]["boardClicks"] == 0:
                since["games"] -= 1  # the game on screen, not yet pressed, is this run's first
            command = [sys.executable, "-m", "bot", "play", "--games", str(games), "--json"]
            try:
                done = subprocess.run(
                    command,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=START_WAIT + GAME_WAIT * games,
                    check=False,
                )
                exit, out, err = done.returncode, done.stdout, done.stderr
            except subprocess.TimeoutExpired as late:
                exit, out, err = (
                    None,
                    _text(late.stdout),
                    _text(late.stderr) + "\n(ended: too long)",
                )
            world = _state(port)
            runs.append(judge(run, exit, err, out, world, since))
    return SeedResult(seed, scale, world["spec"], runs)


def _text(data: bytes | str | None) -> str:
    return data.decode(errors="replace") if isinstance(data, bytes) else data or ""


def _state(port: int) -> dict[str, Any]:
    state = devtools.evaluate(port, "JSON.stringify(window.__world)")
    return dict(json.loads(state))


def summary(results: Iterable[SeedResult]) -> dict[str, Any]:
    results = list(results)
    runs = [run for result in results for run in result.runs]
    games = sum(run.games for run in runs)
    won = sum(run.won for run in runs)
    low, high = wilson(won, games) if games else (0.0, 0.0)
    seconds = sorted(s for run in runs for s in run.seconds)
    return {
        "seeds": len(results),
        "runs": len(runs),
        "games": games,
        "finished": sum(run.won + run.lost for run in runs),
        "won": won,
        "win_rate": [round(won / games, 4) if games else 0.0, round(low, 4), round(high, 4)],
        "unsure": sum(run.unsure for run in runs),
        "false_verdicts": sum(run.false_verdicts for run in runs),
        "presses_off": sum(run.presses_off for run in runs),
        "stopped_seeds": sorted({r.seed for r in results if any(run.stopped for run in r.runs)}),
        "median_seconds": seconds[len(seconds) // 2] if seconds else None,
    }


def describe(result: SeedResult) -> str:
    """One line for a seed: what the world drew, and each run."""
    spec = result.spec
    what = (
        f"{spec['cols']}x{spec['rows']}/{spec['mines']} {spec['render']} {spec['style']}"
        f"{' field' if spec['field'] else ''} gap {spec['gap']} aspect {spec['aspect']:.2f}, end "
        f"{spec['end']}, new {spec['newGame']}, counter {spec['counter']}, first {spec['first']}, "
        f"flood {spec['flood']}, chord {spec['chord']}"
    )
    runs = "; ".join(
        f"{run.run}: {run.won}/{run.games} won, {run.false_verdicts} false, {run.presses_off} off"
        + (f", stopped: {run.said[:120]}" if run.stopped else "")
        for run in result.runs
    )
    return f"seed {result.seed} at {result.scale:g}x ({what}): {runs}"


def bench_world(seeds: list[int], games: int, scales: list[float], as_json: bool) -> int:
    """Play each seed at each scale; print a line per seed (or, with ``as_json``, one object with
    "seeds" and "summary"). Exit 1 where a verdict was false or a press fell off."""
    results: list[SeedResult] = []
    start = time.perf_counter()
    for n, (seed, scale) in enumerate((s, k) for s in seeds for k in scales):
        with tempfile.TemporaryDirectory(prefix=f"minebot-world-{seed}-") as work:
            result = play_seed(seed, scale, games, Path(work))
        results.append(result)
        done = n + 1
        left = (time.perf_counter() - start) / done * (len(seeds) * len(scales) - done)
        print(describe(result), file=sys.stderr if as_json else sys.stdout, flush=True)
        print(
            f"bench-world: {done} of {len(seeds) * len(scales)}, {left:.0f} s left",
            file=sys.stderr,
            flush=True,
        )
    total = summary(results)
    if as_json:
        print(json.dumps({"seeds": [r.row() for r in results], "summary": total}))
    else:
        rate, low, high = total["win_rate"]
        print(
            f"{total['seeds']} seeds, {total['games']} games told: {total['won']} won "
            f"({100 * rate:.1f}%, {100 * low:.1f}-{100 * high:.1f}%), {total['unsure']} unsure; "
            f"false verdicts {total['false_verdicts']}, presses off {total['presses_off']}; "
            f"stopped seeds: {total['stopped_seeds'] or 'none'}; median {total['median_seconds']} s a game"
        )
    return 1 if total["false_verdicts"] or total["presses_off"] else 0
