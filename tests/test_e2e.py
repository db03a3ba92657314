"""End to end: the bot plays real games on a virtual display (run alone: -m e2e).

Each test starts Xvfb and a real game (Wine's winemine, Debian's xdemineur, gnome-mines, xbomb,
kmines, sgt-mines and ace-minesweeper, minegauler and pygame-minesweeper from PyPI, and
nicegui-minesweeper from PyPI, a web game, in Chromium) through
``minebot demo`` or ``minebot play``, plays whole games, and checks that every game ends in a win or
a loss and that no loss came on a cell the bot called safe. Where a pack ships for the game, each
game's end is also told by the game itself (tests/judges.py) and every press is seen where it lands
(tests/xpresses.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from bot.errors import VisionError
from bot.games import GAMES, GNOME_MINES_WINDOW, installed, start_game, virtual_display, xdotool
from bot.vision.geometry import Geometry
from bot.vision.pack import SkinPack
from bot.vocabulary import FLAG, WRONG_FLAG
from tests.figures import record

# python-xlib leaves its Xauthority file open (a ResourceWarning when collected): the presses' listener
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

# the games a pack ships for, and those only ever learnt
PACKED = [name for name, launcher in GAMES.items() if launcher.pack]
UNPACKED = [name for name, launcher in GAMES.items() if not launcher.pack and not launcher.ours]
# nicegui-minesweeper, in Chromium
WEB_GAME = next(name for name, launcher in GAMES.items() if launcher.web)


def _require(game: str) -> None:
    if not all(
        installed(p) for p in ("Xvfb", "xdotool", *GAMES[game].programs)
    ) and not os.environ.get("MINEBOT_REQUIRE_E2E"):
        pytest.skip(
            f"Xvfb, xdotool or {' '.join(GAMES[game].programs)} missing: run scripts/install-games"
        )


def _demo(
    game: str,
    games: int,
    tmp_path: Path,
    again: bool = False,
    shipped: bool = False,
    level: str = "beginner",
    scale: float = 1.0,
    shift: int = 0,
    wins: Callable[[Path], int] | None = None,
) -> list[dict[str, object]]:
    """``games`` games of ``game`` learnt from nothing (its pack hidden, no learnt pack), in a
    folder of the test's own, as ``minebot demo`` plays them: the test starts a virtual display
    and the game (a web game at device scale ``scale``, its window ``shift`` px off), then runs
    ``minebot play``; its JSON lines, once it exited 0. ``again``: a later run in the same folder,
    which plays with the pack the first one learnt; ``shipped``: played with the shipped pack, which
    must read it from the first reading to the last. Every mouse press that reached the X server
    (tests/xpresses.py) fell on the board or above it over its columns, where the learner looks for
    what starts a new game (a face, a "Restart" button): none beside or below it (a chord tried
    with a button the game does not chord with lands on a number, too). On a build broken on
    purpose (2026-11-29: a click 20 px left of the board's region before each new game), xdemineur's
    learning failed so: "presses off the board (116, 181, 252, 189) and the strip above it: [(75, 74), ...]".
    ``wins``: the game's own count of games won, from the folder it was started in (tests/judges.py):
    it must grow by the games minebot says it won."""
    from bot.vision.grid import find_grid
    from tests.xpresses import ButtonPresses, outside

    launcher = GAMES[game]
    look = launcher.look_of or launcher.skin
    command = [
        sys.executable,
        "-m",
        "bot",
        "play",
        "--games",
        str(games),
        "--json",
        "--mines",
        str(launcher.levels[level].mines),
        "--save-final",
        str(tmp_path / f"{'again-' if again else ''}final-{{game}}.png"),
        *(("--skin", look) if shipped else ()),
        *(("--new-game-key", launcher.new_game_key) if launcher.new_game_key else ()),
        *(() if launcher.flags else ("--no-flags",)),
    ]
    (tmp_path / "game").mkdir(exist_ok=True)
    with virtual_display(launcher.screen), start_game(game, level, tmp_path / "game", scale, shift):
        env = {
            **os.environ,
            "MINEBOT_DATA": str(tmp_path / "data"),
            "MINEBOT_CACHE": str(tmp_path / "cache"),
        }
        if not shipped:
            env.update(MINEBOT_HIDE_SKINS=look)
        x, y, w, h = _board_shown(find_grid)
        recorded = wins(tmp_path / "game") if wins is not None else 0
        presses = ButtonPresses()
        try:
            out = subprocess.run(command, capture_output=True, text=True, timeout=900, env=env)
        finally:
            presses.close()
        recorded = wins(tmp_path / "game") - recorded if wins is not None else 0
    # kept for a failure's cause,
    (tmp_path / f"demo-{'again' if again else 'learn'}.log").write_text(out.stderr)
    # with each game's line
    (tmp_path / f"demo-{'again' if again else 'learn'}.json").write_text(out.stdout)
    assert out.returncode == 0, out.stderr[-2000:]
    if shipped:
        assert f"found {look} " in out.stderr and "learning" not in out.stderr, out.stderr[-2000:]
    else:
        # pygame-minesweeper's new board is read by classic98's pack, which cannot read it once opened:
        # the look is learnt in the game in play ("learning its look by playing on")
        assert (
            "playing with learnt pack" if again else "learning its look by playing"
        ) in out.stderr, out.stderr[-2000:]
    off = outside(presses.points, [(x, y, w, h), (x, 0, w, y)])
    assert presses.points and off == [], (
        f"presses off the board ({x}, {y}, {w}, {h}) and the strip above it: {off[:5]}"
    )
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    # a game counted won whose last guess showed a look never named is retold lost once the looks named say so, or
    # said unsure at the end where none does (kept won, marked unsure)
    retold = {r["game"]: r for r in lines if r.get("retold")}
    results = [
        {**r, "state": retold[r["game"]]["state"], "unsure": retold[r["game"]].get("unsure", False)}
        if r["game"] in retold
        else r
        for r in lines
        if not r.get("retold")
    ]
    assert len(results) == games
    assert all(r["state"] in ("won", "lost") and not r["lost_on_certain"] for r in results)
    if wins is not None:
        from tests.judges import LOSS_RECORDED

        # an unsure win may be either
        told = [r["state"] + "?" * bool(r.get("unsure")) for r in results]
        may_count = told.count("won?") + told.count("lost") * (game in LOSS_RECORDED)
        assert told.count("won") <= recorded <= told.count("won") + may_count, (
            f"the game's own record counts {recorded} won, minebot {told}"
        )
    return results


BOARD_SHOWN = 60.0  # s: a browser's first paint on a busy machine (in CI, Chromium showed a black screen at first)


def _board_shown(find_grid: Callable[[np.ndarray], Geometry]) -> tuple[int, int, int, int]:
    """The region of the board on the virtual screen, once the game has drawn it: the same in two
    screenshots 0.5 s apart (within BOARD_SHOWN s; ace-minesweeper's 32x32 board was once located
    half drawn, 12 columns wide, and every press on the rest counted off the board)."""
    from bot.errors import NoBoardFound

    until, last = time.monotonic() + BOARD_SHOWN, None
    while True:
        try:
            region = find_grid(_screenshot()).region()
            if region == last or time.monotonic() > until:
                return region
            last = region
        except NoBoardFound:
            if time.monotonic() > until:
                raise
        time.sleep(0.5)


def _screenshot() -> np.ndarray:
    """The whole virtual screen, taken by the test itself (BGR)."""
    import mss

    with mss.MSS() as shooter:
        return np.asarray(shooter.grab(shooter.monitors[0]))[..., :3].copy()


@pytest.mark.parametrize(
    "game,level,games",
    [
        (game, level, {"beginner": 4, "expert": 2}[level])
        for game in PACKED
        for level in ("beginner", "expert")
    ],
)
def test_plays_real_game_to_the_end_as_the_game_itself_tells(
    game: str, level: str, games: int, tmp_path: Path
) -> None:
    """Each game's end as minebot tells it equals the end as the game tells it (tests/judges.py: its
    face on the test's own screenshot, or its own record of wins), and every mouse press that
    reached the X server (tests/xpresses.py) fell on the board or on the face. One ``minebot play``
    a game, so that the judge sees each game's end before the next game starts.

    Run on three builds broken on purpose (2026-11-28), it failed each time: every win reported
    lost ("minebot told ['lost', ...], the game ['won', ...]"); a click beside the board before
    gnome-mines' new-game key ("presses off the board ... [(507, 542), ...]"); every click one cell
    to the right (minebot stopped: its board contradicted itself). A lost game's mine hit, where the
    game shows it (judges.mine_hit), must be the last cell minebot clicked not calling it safe
    ("guessed"): on a build that opened a mine it had found instead of flagging it, and did not
    notice (2026-11-29, winemine beginner), every verdict equalled the game's, and this failed:
    "[((8, 7), [(0, 0), (0, 8)]), ((1, 4), [(0, 0)]), ...]"."""
    from bot.vision import load_packs, read
    from tests.judges import FaceJudge, judge_for, mine_hit
    from tests.xpresses import ButtonPresses, outside

    _require(game)
    launcher, size = GAMES[game], GAMES[game].levels[level]
    command = [
        sys.executable,
        "-m",
        "bot",
        "play",
        "--games",
        "1",
        "--json",
        "--skin",
        launcher.skin,
        "--mines",
        str(size.mines),
        *(("--new-game-key", launcher.new_game_key) if launcher.new_game_key else ()),
        *(() if launcher.flags else ("--no-flags",)),
    ]
    results, verdicts, hits = [], [], []
    with virtual_display(launcher.screen), start_game(game, level, tmp_path) as running:
        judge = judge_for(game, tmp_path, _screenshot)
        fresh = _screenshot()
        # where the board is, once
        boxes = [read(fresh, load_packs([launcher.skin])).geometry.region()]
        face = judge if isinstance(judge, FaceJudge) else judge.face
        if face is not None and face.shows_play:
            assert face.verdict() == "playing" and face.box is not None
            boxes.append(face.box)
        elif face is not None:  # (gnome-mines: only the mine hit of a lost game)
            assert face.verdict() is None
        presses = ButtonPresses()
        try:
            for index in range(games):
                out = subprocess.run(command, capture_output=True, text=True, timeout=300)
                assert out.returncode == 0, out.stderr[-2000:]
                results.append(json.loads(out.stdout.splitlines()[-1]))
                time.sleep(0.3)  # the game's last redraw
                verdicts.append(judge.verdict())
                # kept for a failure's cause
                cv2.imwrite(str(tmp_path / f"end-{index + 1}.png"), end := _screenshot())
                if results[-1]["state"] == "lost":  # where the game shows its mine hit
                    hits.append(
                        (
                            mine_hit(game, end, boxes[0], size.rows, size.cols),
                            [tuple(c) for c in results[-1]["guessed"]],
                        )
                    )
        finally:
            presses.close()
        assert running.process.poll() is None, "the game is gone"
    told = [r["state"] for r in results]
    # lost on a guess, as the game shows where: its mine hit is the last cell minebot clicked not calling it safe
    on_last = [hit is not None and bool(guessed) and hit == guessed[-1] for hit, guessed in hits]
    record(
        f"{game} {level}: minebot told {told}, the game {verdicts}; {len(presses.points)} presses reached the server, "
        f"{sum(r['presses'] for r in results)} sent by minebot's count; the mine hit shown on its last guess in "
        f"{sum(on_last)} of {len(hits)} lost"
    )
    assert told == verdicts, (
        f"minebot told {told}, the game {verdicts} (screens: {tmp_path}/end-*.png)"
    )
    assert all(on_last), hits
    assert all(r["state"] in ("won", "lost") and not r["lost_on_certain"] for r in results)
    assert all(len(r["board"]) == size.rows for r in results)
    assert presses.points and outside(presses.points, boxes) == [], (
        f"presses off the board {boxes[0]} and the face: {outside(presses.points, boxes)}"
    )


def _play_after_start(
    game_name: str, level: str, tmp_path: Path, window: tuple[int, int] | None = None
) -> subprocess.CompletedProcess[str]:
    """Start ``game_name`` at ``level``, optionally resize its window, and run ``minebot play --level expert``."""
    _require(game_name)
    with virtual_display():
        game = start_game(game_name, level, tmp_path)
        try:
            if window is not None:
                xdotool("windowsize", "--sync", game.window, *(str(n) for n in window))
                time.sleep(1)
            return subprocess.run(
                [sys.executable, "-m", "bot", "play", "--level", "expert", "--json"],
                capture_output=True,
                text=True,
                timeout=300,
            )
        finally:
            game.close()


@pytest.mark.parametrize(
    "game_name,window", [("minegauler", None), ("gnome-mines", GNOME_MINES_WINDOW["expert"])]
)
def test_play_switches_the_game_to_the_level_asked(
    game_name: str, window: tuple[int, int] | None, tmp_path: Path
) -> None:
    out = _play_after_start(game_name, "beginner", tmp_path, window)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.splitlines()[-1])
    assert len(result["board"]) == 16 and len(result["board"][0]) == 30  # it was 8x8
    assert result["state"] in ("won", "lost")


def test_a_window_too_small_for_the_level_is_reported(tmp_path: Path) -> None:
    # its 610x460 window shows part of expert
    out = _play_after_start("gnome-mines", "beginner", tmp_path)
    assert out.returncode != 0
    assert "make the window larger" in out.stderr.splitlines()[-1]


LEARN_GAMES = 20
AGAIN_GAMES = 3  # played by the run after, with the pack learnt
SHIPPED_GAMES = 4  # expert games of a web game at a fractional zoom with a shipped pack
# games won of LEARN_GAMES by a player that works: half. Learning from nothing, the bot won 24 to 30
# of 30 beginner games of each game (docs/measurements.md); at 80% a run of 20 wins fewer than 10
# once in some 1,700 runs, at 70% once in 60. ace-minesweeper has one size, 32x32 with 200 mines,
# whose first click may be a mine (simulated 35.1%; 9 of 30 won learning): at least one (at 30%,
# none of 20 once in 1,250 runs)
LEARN_WINS = {"ace-minesweeper": 1}
# games whose mines counter the learning run must learn (while it is unlearnt the bot flags one mine
# at a time, so the counter counts through every number: learnt in 2 to 4 beginner games of 10,
# xbomb's below the board; gnome-mines', kmines' and sgt-mines' are text labels counting the flags
# up, "0/10", beside or below the board); the web game has none
# intermediate games of winemine in which its counter must be learnt: in 8, learnt in 14 runs of 15
# (10 of them here on 11-24, 4 CI runs before) and the 15th, in CI, learnt none (why is not known)
COUNTER_GAMES = 12
COUNTER_LEARNT = {
    "winemine",
    "xdemineur",
    "minegauler",
    "xbomb",
    "ace-minesweeper",
    "pygame-minesweeper",
    "gnome-mines",
    "kmines",
    "sgt-mines",
}
COUNTER_GONE_AT_END = {"sgt-mines"}  # writes "COMPLETED!" or "DEAD!" where its counter was
# games that keep the 3x3 round a first click clear: every first click opens an area, and the learnt
# pack says so within 9 of their 8x8 beginner games. gnome-mines and minegauler ship packs with that
# rule; the others' first clicks opened an area every time (CI, 2026-11-26: 23 of 23 or 22 of 22
# each; xbomb at expert, 20 of 20, where a safe corner opens one about half the time)
# judged by what the game shows at its end (tests/judges.py); minegauler and gnome-mines by their records (the games won),
# not pygame-minesweeper (its face lags a click)
FACE_JUDGED = {
    "winemine",
    "xdemineur",
    "sgt-mines",
    "ace-minesweeper",
    "kmines",
    "nicegui-minesweeper",
    "xbomb",
}
# won games of a run whose last screen may show no end: kmines' banner and nicegui's toast can come
# more than the learner's 100 ms of stillness after the last cell is drawn (kmines: 1 game in 120
# here, 2026-11-28, every cell open and every mine flagged); a lost end's sign (the mine hit, or
# the words sgt-mines keeps) is on every last screen, so such a game is taken for won only
UNSHOWN_WINS = 2
# games of a run minebot may end unsure of: a last 50/50 lost, every other mine flagged, the mine hit
# in a look never named and the number a win leaves there in a look named, in a game whose values show
# several looks (kmines: its 0 shows three, by where the cell is), where no later game names that look
# (1 game in 160 of 8 runs, 2026-11-28); or where the game draws nothing else at a loss (the 98-style page at
# 1.25, a 5 never seen yet: 1 game in 440, 22 runs of 20 beside busy cores, 2026-11-29)
UNSURE_ENDS = 2
# games that show where a lost game's mine was hit (tests/judges.py: mine_hit; xbomb shows every mine alike)
MINE_HIT_SHOWN = {
    "winemine",
    "xdemineur",
    "minegauler",
    "gnome-mines",
    "kmines",
    "nicegui-minesweeper",
}
# (a face, or sgt-mines' status line, is drawn with the last cell)
LATE_ENDS = {
    "kmines",
    "nicegui-minesweeper",
}
OPENING_GAMES = {"gnome-mines", "minegauler", "xbomb", "kmines", "sgt-mines", "pygame-minesweeper"}


@pytest.mark.parametrize("game", [*PACKED, *UNPACKED])
def test_learns_a_hidden_look_by_playing_it(game: str, tmp_path: Path) -> None:
    """Leave one out: the game's own pack hidden (xbomb has none) and no learnt pack,
    minebot finds the board by its lattice, learns the look by playing LEARN_GAMES beginner games
    (never losing on a cell it called safe, never stopping), and the pack it learnt reads the screenshots of that
    game at the size it learnt it (a pointer's highlight over the board, which the bot never sees
    while it plays, excepted): no cell misread, nine in ten cells read (the rest show values or
    looks it never saw), and a screenshot whose every cell it knows read exactly by `read`; each game
    ended as the game's own pack, where one ships, reads its last screen, and as the game itself tells
    where it keeps a record, draws a face or writes a status line (tests/judges.py), but for games
    minebot says it ended unsure of (UNSURE_ENDS at most); a lost game's mine hit, where the game shows
    it, on one of the learner's guesses (a build that told a won xbomb game lost, 2026-11-29, failed on the
    game's end: 19 of 20 agreed). The next
    run plays with the pack it learnt (a pointer left on the board, gnome-mines' fit of its lattice a
    pixel off the first run's, and sgt-mines' half-pixel cell centres each made it learn from nothing
    again, or stop)."""
    from tests.judges import FaceJudge, gnome_mines_wins, minegauler_wins, pygame_minesweeper_wins

    _require(game)
    wins_before = minegauler_wins() if game == "minegauler" else None
    records = {"gnome-mines": gnome_mines_wins, "pygame-minesweeper": pygame_minesweeper_wins}
    results = _demo(game, LEARN_GAMES, tmp_path, wins=records.get(game))
    won = sum(r["state"] == "won" for r in results)
    told = [r["state"] for r in results]
    faces = None
    # the game's face (sgt-mines, kmines, nicegui: its words) on each game's last screen
    if game in FACE_JUDGED:
        judge = FaceJudge(game)
        faces = [judge.face(cv2.imread(str(tmp_path / f"final-{r['game']}.png"))) for r in results]
    record(
        f"{game} learnt from nothing: {won} of {LEARN_GAMES} beginner games won"
        + (
            f"; the game's own end agrees on {sum(a == b for a, b in zip(told, faces, strict=True))} of them"
            f" ({faces.count(None)} showed none; minebot unsure of {sum(bool(r.get('unsure')) for r in results)})"
            if faces
            else ""
        )
    )
    assert won >= LEARN_WINS.get(game, LEARN_GAMES // 2)
    # a game minebot says it is not sure of is not judged
    sure = [r.get("unsure") is not True for r in results]
    assert sure.count(False) <= UNSURE_ENDS, sure
    if GAMES[game].pack:
        wrong = _ends_not_as_shown(
            game, [r for r, certain in zip(results, sure, strict=True) if certain], tmp_path
        )
        # with each such game's own line: a CI run (2026-11-29) failed here on a minegauler game judged won that
        # the pack read lost, and CI keeps no screens; whether minebot had said it was unsure is not known
        assert wrong == [], (wrong, [r for r in results if r["game"] in {end[0] for end in wrong}])
    if game in MINE_HIT_SHOWN:  # lost on a guess, as the game shows where
        assert _lost_off_the_guesses(game, results, tmp_path) == []
    # minegauler's own record of the games won (an unsure win may be either)
    if wins_before is not None:
        assert won - sure.count(False) <= minegauler_wins() - wins_before <= won, (told, sure)
    # a won end may show nothing yet (see UNSHOWN_WINS); a lost one always shows its sign
    if faces is not None:
        assert all(
            face == end or (face is None and end == "won") or not certain
            for end, face, certain in zip(told, faces, sure, strict=True)
        ), (told, faces, sure)
        assert faces.count(None) <= (UNSHOWN_WINS if game in LATE_ENDS else 0), faces
    assert set("#0123" + "F" * GAMES[game].flags) <= set(str(results[-1]["looks_named"]))
    _demo(game, AGAIN_GAMES, tmp_path, again=True)

    packs = list((tmp_path / "data" / "skins").glob("*/pack.json"))
    assert len(packs) == 1
    # the test's own folder (conftest restores it)
    os.environ["MINEBOT_DATA"] = str(tmp_path / "data")
    from bot.vision import load_image, load_packs, read
    from bot.vision.labels import read_label
    from bot.vision.pack import _load_pack
    from tests.looks import known_share

    _load_pack.cache_clear()
    (pack,) = load_packs([packs[0].parent.name])
    known = []
    for label in sorted(
        (Path(__file__).parents[1] / "fixtures" / GAMES[game].skin).glob("*.board")
    ):
        truth = read_label(label)
        if "hover" not in label.stem and abs(truth.pitch[0] - pack.pitch[0]) < 0.02 * pack.pitch[0]:
            known.append(known_share(pack, label.with_suffix(".png"), truth))
            if known[-1] == 1 and np.isin(truth.board.cells, pack.codes()).all():
                reading = read(
                    load_image(label.with_suffix(".png")), [pack], mines=truth.board.mines
                )
                assert (reading.board.cells == truth.board.cells).all(), label.stem
    assert len(known) >= 3 and np.mean(known) > 0.9 and 1 in known, known
    # (a safe game may pass for one: 1 in 130)
    assert pack.rule == "opening" or game not in OPENING_GAMES, pack.rule
    assert pack.has_counter or game not in COUNTER_LEARNT, _counter_line(tmp_path)
    if pack.has_counter:  # learnt by watching it count: it reads each screenshot's counter as it is
        assert _counters(game, pack, learnt=True) == _counters(game, pack, learnt=False)


def _ends_not_as_shown(
    game: str, results: list[dict[str, object]], tmp_path: Path
) -> list[tuple[object, object, str]]:
    """The games of a learning run whose end, as the learner judged it from looks it was learning,
    is not what the game's own pack (hidden from the bot) reads on that game's last screen: (game,
    judged, shown). Its first runs (2026-11-26) found a winemine last guess lost judged won and an
    xdemineur game judged won with safe cells held back by the click guard; once both were fixed,
    160 beginner games of the four games, none. (kmines has no pack: there the screens, checked by
    hand, showed 6 of 11 losses under its box judged won.)"""
    from bot.vision import load_image, load_packs, read

    (pack,) = load_packs([GAMES[game].look_of or GAMES[game].skin])
    ends = [
        (r["game"], r["state"], read(load_image(tmp_path / f"final-{r['game']}.png"), [pack]).state)
        for r in results
    ]
    return [end for end in ends if end[1] != end[2]]


def _lost_off_the_guesses(
    game: str, results: list[dict[str, Any]], tmp_path: Path
) -> list[tuple[object, object, object]]:
    """The games of a learning run told lost whose mine hit, as the game shows it on the last screen
    (tests/judges.py: mine_hit), is none of the cells the learner clicked not calling them safe
    ("guessed"): (game, the mine hit or None where none shows, the guesses). (Any of them, not only the
    last: a learner may guess again before it knows a look never seen is the mine hit, and the game
    takes no click once over; nicegui's first click lost, in CI, 2026-11-29.) The board is where the
    lattice of most cells on any of the run's last screens has it (its size as the game draws it:
    nicegui's beginner is 10x10): on a lost winemine board the lattice found missed the top row
    once, and the mine hit on the last guess, (7, 1), was taken for (6, 1), a cell called safe."""
    from bot.errors import NoBoardFound
    from bot.vision.grid import find_grids
    from tests.judges import mine_hit

    lost = [r for r in results if r["state"] == "lost" and not r.get("unsure")]
    if not lost:
        return []
    shots = {r["game"]: cv2.imread(str(tmp_path / f"final-{r['game']}.png")) for r in results}
    lattices = [grid.geometry for shot in shots.values() for grid in find_grids(shot)[:1]]
    if not lattices:
        raise NoBoardFound("no board on any of the run's last screens")
    board = max(lattices, key=lambda geometry: geometry.rows * geometry.cols)
    wrong = []
    for r in lost:
        hit = mine_hit(game, shots[r["game"]], board.region(), board.rows, board.cols)
        guessed = [tuple(cell) for cell in r["guessed"]]
        if hit is None or hit not in guessed:
            wrong.append((r["game"], hit, guessed))
    return wrong


@pytest.mark.parametrize("game", ["winemine"])
def test_the_mines_counter_is_learnt_by_watching_it_count(game: str, tmp_path: Path) -> None:
    """Learning winemine at intermediate (40 mines, its pack hidden), the bot watches the counter
    count down through every last digit and saves its digits: the learnt pack then reads the
    counter of each screenshot of the game as the shipped pack does (custom sizes among them,
    where it gives the mine count that no standard level would)."""
    _require(game)
    _demo(game, COUNTER_GAMES, tmp_path, level="intermediate")
    # the test's own folder (conftest restores it)
    os.environ["MINEBOT_DATA"] = str(tmp_path / "data")
    from bot.vision import load_packs
    from bot.vision.pack import _load_pack

    _load_pack.cache_clear()
    (pack,) = load_packs([next((tmp_path / "data" / "skins").glob("*/pack.json")).parent.name])
    assert pack.has_counter, _counter_line(tmp_path)
    assert _counters(game, pack, learnt=True) == _counters(game, pack, learnt=False)


INTERMEDIATE_GAMES = 6


@pytest.mark.parametrize("game", ["gnome-mines", "kmines"])
def test_a_hidden_look_is_learnt_at_intermediate_to_the_end(game: str, tmp_path: Path) -> None:
    """Learning at intermediate runs to its last game. gnome-mines' 34.2 px cells, laid out at whole
    pixels, stopped learning in 4 runs of 4 ("the board keeps changing": the same screen
    sorted again started a new look); kmines stopped after a lost game with its Help menu open
    over the board (the restarter clicked the menu bar before pressing the game's Ctrl+N). The
    gnome-mines pack learnt reads a grab of a board at that size."""
    _require(game)
    _demo(game, INTERMEDIATE_GAMES, tmp_path, level="intermediate")
    if game == "gnome-mines":
        # the test's own folder (conftest restores it)
        os.environ["MINEBOT_DATA"] = str(tmp_path / "data")
        from bot.vision import load_packs
        from bot.vision.labels import read_label
        from bot.vision.pack import _load_pack
        from tests.looks import known_share

        _load_pack.cache_clear()
        (pack,) = load_packs([next((tmp_path / "data" / "skins").glob("*/pack.json")).parent.name])
        label = Path(__file__).parents[1] / "fixtures/gnome-mines/region/intermediate-midgame.board"
        assert known_share(pack, label.with_suffix(".png"), read_label(label)) > 0.9


def _counter_line(tmp_path: Path) -> str:
    """What the learning run said of a counter it did not learn (which last digits it never saw)."""
    log = (tmp_path / "demo-learn.log").read_text()
    return next(
        (line for line in log.splitlines() if "no mines counter learnt" in line), log[-1000:]
    )


def _counters(game: str, pack: SkinPack, learnt: bool) -> dict[str, int | None]:
    """The mines counter of each screenshot of ``game`` at the ``pack``'s cell size: as the pack
    reads it (``learnt``), else as it is (the shipped pack's reading where one ships, else the mines
    less the flags)."""
    from bot.vision import load_image, load_packs, read
    from bot.vision.grid import find_grid
    from bot.vision.labels import read_label
    from bot.vision.lineup import line_up
    from bot.vision.reading import board_state, read_counter

    counters: dict[str, int | None] = {}
    for label in sorted(
        (Path(__file__).parents[1] / "fixtures" / GAMES[game].skin).glob("*.board")
    ):
        truth, image = read_label(label), load_image(label.with_suffix(".png"))
        if abs(truth.pitch[0] - pack.pitch[0]) >= 0.02 * pack.pitch[0]:
            continue
        if learnt:
            grid = find_grid(image)
            geometry, _ = line_up(image, grid, pack, grid.pitch[0] / pack.pitch[0])
            counters[label.stem] = None if geometry is None else read_counter(image, geometry, pack)
        elif GAMES[game].pack:
            counters[label.stem] = read(image, load_packs([GAMES[game].skin])).counter
        elif game in COUNTER_GONE_AT_END and board_state(truth.board) != "playing":
            counters[label.stem] = None
        else:
            counters[label.stem] = (truth.board.mines or 0) - int(
                np.isin(truth.board.cells, (FLAG, WRONG_FLAG)).sum()
            )
    return counters


@pytest.mark.parametrize("scale, shift", [(1.5, 1), (2.0, 2)])
def test_a_web_game_is_learnt_at_any_browser_zoom_and_alignment(
    scale: float, shift: int, tmp_path: Path
) -> None:
    """The web game in Chromium at a device scale (browser zoom) and a window offset that puts the
    board's corner on another pixel phase: learnt from nothing, no stop, no loss on a safe cell."""
    _require(WEB_GAME)
    results = _demo(WEB_GAME, 6, tmp_path, scale=scale, shift=shift)
    assert any(r["state"] == "won" for r in results)


@pytest.mark.parametrize("scale", [1.25, 1.5, 1.75])
def test_a_98_style_web_game_is_learnt_at_a_fractional_zoom(scale: float, tmp_path: Path) -> None:
    """A web page drawing its 16x17 px cells with classic98's tile pictures (bot/games/pages), in
    Chromium at a fractional device scale, where rows of cells lie a fraction of a pixel apart
    (24x25.5 px at 1.5, each drawn at whole pixels): learnt from nothing (classic98 hidden), LEARN_GAMES games with
    no stop and no loss on a cell called safe, and every game's end as its last screen shows it (a
    98-style web game at 1.5 was once learnt with a second look of covered cells named a mine: ten
    first openings judged lost, none lost). The pack learnt then reads those last screens. (The
    shipped classic98 pack plays it: the next test.)"""
    game = "sprites98-web"
    _require(game)
    results = _demo(game, LEARN_GAMES, tmp_path, scale=scale)
    # 16 to 19 of 20 won in six runs
    assert sum(r["state"] == "won" for r in results) >= LEARN_GAMES // 2
    from bot.vision import load_image, load_packs, read
    from bot.vision.grid import find_grid

    shown = {
        r["game"]: _page_end(load_image(tmp_path / f"final-{r['game']}.png"), find_grid)
        for r in results
    }
    # a game minebot says it is not sure of is not judged (UNSURE_ENDS)
    sure = [r for r in results if not r.get("unsure")]
    record(
        f"sprites98-web at {scale:g}x, learnt from nothing: {sum(r['state'] == 'won' for r in results)} of {LEARN_GAMES} "
        f"won; ends as the last screens show: {sum(shown[r['game']] == r['state'] for r in results)} of {LEARN_GAMES}"
        f" (minebot unsure of {len(results) - len(sure)})"
    )
    assert [(r["game"], r["state"]) for r in sure] == [(r["game"], shown[r["game"]]) for r in sure]
    assert len(results) - len(sure) <= UNSURE_ENDS
    # the test's own folder (conftest restores it)
    os.environ["MINEBOT_DATA"] = str(tmp_path / "data")
    from bot.vision.pack import _load_pack

    _load_pack.cache_clear()
    (learnt,) = load_packs([next((tmp_path / "data" / "skins").glob("*/pack.json")).parent.name])
    read_whole = 0
    for r in results:
        # a look its learning never saw (a wrong flag) is not read
        with contextlib.suppress(VisionError):
            read_whole += (
                read(load_image(tmp_path / f"final-{r['game']}.png"), [learnt]).state == r["state"]
            )
    assert read_whole >= LEARN_GAMES // 2, read_whole


@pytest.mark.parametrize("scale", [1.25, 1.5, 1.75])
def test_a_98_style_web_game_at_a_fractional_zoom_is_played_with_the_shipped_pack(
    scale: float, tmp_path: Path
) -> None:
    """The 98-style page in Chromium at a fractional device scale, with the shipped classic98 pack:
    every reading of every game by the pack (no stop, no learning: Chromium draws each cell at whole
    pixels of a fractional lattice, and the pack read 4 of 20 boards at 1.75 before their lines were
    measured one by one, vision/locate.py), no loss on a cell called safe, and each game's end as
    its last screen shows it (_page_end, the test's own judge)."""
    game = "sprites98-web"
    _require(game)
    results = _demo(game, SHIPPED_GAMES, tmp_path, scale=scale, shipped=True, level="expert")
    from bot.vision import load_image
    from bot.vision.grid import find_grid

    shown = {
        r["game"]: _page_end(load_image(tmp_path / f"final-{r['game']}.png"), find_grid)
        for r in results
    }
    won = sum(r["state"] == "won" for r in results)
    record(
        f"sprites98-web at {scale:g}x, expert, shipped classic98 pack: {won} of {SHIPPED_GAMES} won; "
        f"ends as the last screens show: {sum(shown[r['game']] == r['state'] for r in results)} of {SHIPPED_GAMES}"
    )
    assert [(r["game"], r["state"]) for r in results] == list(shown.items())


@pytest.mark.parametrize("shipped", [False, True], ids=["learnt", "shipped"])
def test_a_game_that_draws_its_end_over_the_whole_board_ends_that_game_not_the_run(
    shipped: bool, tmp_path: Path
) -> None:
    """over98-web, the 98-style page drawing a panel ("You win!" or "Game over") over the whole board
    as soon as a game ends, as some web games do (issue 45: a Google-style game stopped at its win
    screen): learnt from nothing (classic98 hidden), and with the shipped pack, LEARN_GAMES beginner
    games with no stop, each game's end as the page's own face tells it (tests/judges.py; its faces
    cut from such a run's screens), but for games minebot says it is not sure of (UNSURE_ENDS at
    most). Before (2026-11-29): with the pack, the run stopped in its first game ("the board is no
    longer where it was"); learnt, a guess lost under the panel was counted won (the face said lost)."""
    from tests.judges import FaceJudge

    game = "over98-web"
    _require(game)
    results = _demo(game, LEARN_GAMES, tmp_path, shipped=shipped)
    judge = FaceJudge(game)
    faces = [judge.face(cv2.imread(str(tmp_path / f"final-{r['game']}.png"))) for r in results]
    sure = [not r.get("unsure") for r in results]
    told = [r["state"] for r in results]
    record(
        f"{game} ({'shipped classic98 pack' if shipped else 'learnt from nothing'}): {told.count('won')} of "
        f"{LEARN_GAMES} won; the page's face agrees on {sum(a == b for a, b in zip(told, faces, strict=True))} "
        f"(minebot unsure of {sure.count(False)})"
    )
    assert sure.count(False) <= UNSURE_ENDS
    assert [end for end, certain in zip(told, sure, strict=True) if certain] == [
        face for face, certain in zip(faces, sure, strict=True) if certain
    ], (told, faces, sure)


def _page_end(image: np.ndarray, find_grid: Callable[[np.ndarray], Geometry]) -> str:
    """How a game of the 98-style page ended, from its last screen and not from minebot's looks:
    lost where a quarter of a cell of the board is red (classic98's exploded mine: 0.3-0.4 of the
    cell at 1.25-1.75, its red 3 under a fifth), else won."""
    geometry = find_grid(image)
    # resampled at a fractional zoom: nearly pure
    red = (image[..., 2] > 200) & (image[..., 1] < 60) & (image[..., 0] < 60)
    for r in range(geometry.rows):
        for c in range(geometry.cols):
            x, y, w, h = geometry.box(r, c)
            if red[max(y, 0) : y + h, max(x, 0) : x + w].sum() >= 0.25 * w * h:
                return "lost"
    return "won"


BEATABLE_BEST_TIMES = """
import subprocess, sys
import bot.games.launchers as launchers
from bot.cli import entry
from bot.games.x11 import which

seeded = launchers.Winemine.command

def command(self, level, workdir, env, scale):  # best times of 999 s: a win opens the name dialog
    line = seeded(self, level, workdir, env, scale)
    for name in ("Time1", "Time2", "Time3"):
        subprocess.run([which("wine"), "reg", "add", r"HKCU\\Software\\Microsoft\\WinMine", "/v", name,
                        "/t", "REG_DWORD", "/d", "999", "/f"], env=env, capture_output=True, timeout=120, check=True)
    return line

launchers.Winemine.command = command
sys.argv = ["minebot", *sys.argv[1:]]
entry()
"""


def test_a_win_under_winemines_best_times_dialogs_is_reported_and_play_goes_on(
    tmp_path: Path,
) -> None:
    """Best times a win beats (the launcher seeds unbeatable ones): winemine asks for a name over the
    board, then shows the best times. The game is reported won on its line ("the game drew its end over it;
    won" where the dialog came before the win was read), Return answers each dialog, and the run plays all
    its games (before: it stopped at the first dialog)."""
    _require("winemine")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(MINEBOT_DATA=str(tmp_path / "data"), MINEBOT_CACHE=str(tmp_path / "cache"))
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            BEATABLE_BEST_TIMES,
            "demo",
            "--game",
            "winemine",
            "--level",
            "beginner",
            "--games",
            "8",
            "--json",
            "--save-final",
            str(tmp_path / "final.png"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    results = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(results) == 8 and all(
        r["state"] in ("won", "lost") and not r["lost_on_certain"] for r in results
    )
    # every win beats the seeded times, so its dialogs come, before the win was read or after it (under load;
    # CI, 2026-11-29: the run stopped before game 2); either way the next game is played
    assert any(r["state"] == "won" for r in results[:-1]), results
