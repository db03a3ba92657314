"""How a real game ended, told by the game, not by minebot: the end-to-end tests' own judge.

- winemine and xdemineur draw a face above the board: smiling in play, sunglasses once won,
  dead once lost. The judge finds the game's own face pictures (templates/GAME/face-*.png, cut
  from the game's screen and checked by eye) on a screenshot of the test's own, by a template
  match of its own: nothing of minebot's reading is used, only those pictures.
- minegauler writes a row into its own highscores database for every game won (at a standard
  level; bot/games/minegauler_prepare.py keeps the best time out of reach, so no window opens);
  a game not won is lost where its face is the dead one, else still in play.
- ace-minesweeper draws a face too (Tux with eyes open, sunglasses, eyes shut), but no pack ships
  for it: the judge's own pictures (tests/judge-pictures/GAME/face-*.png) are cut from its
  fixtures and checked by eye. (pygame-minesweeper's face cannot judge: it is redrawn on a left
  button's events before the click is played, so the click that wins leaves the smile up, as on a
  learning run's 5th game, every safe cell open; minesweeper/user_interface_face.py.)
- nicegui-minesweeper (a web page) says "You won!" or "You lost!" in a toast below the board
  (judge-pictures/nicegui-minesweeper/face-*.png, at 1x, matched by colour as a face is); the
  toast may come after the last screen is taken, the red X of the mine hit does not (sign-lost.png).
- kmines writes "Congratulations! You have won!" or "You have lost." on a band over the board
  (judge-pictures/kmines/words-*.png), and nothing while it is played; the lost band may be gone
  by the time the last screen is taken, the exploded mine is not (sign-lost.png, its beginner size).
- sgt-mines writes how the game stands in its status line below the board: "COMPLETED!" once won,
  "DEAD!" once lost, "Marked: n / m" in play (judge-pictures/sgt-mines/words-*.png).
  Words are matched by their ink alone (PAPER), pictures by colour. All were cut from the games'
  screens (this project's runs and fixtures) and checked by eye.
- pygame-minesweeper appends the time of every game it counts won to its best-times file; it
  counts a last 50/50 lost won too (pygame_minesweeper_wins), so there its record only bounds
  minebot's wins from below and above by its losses.
- gnome-mines appends a line to its scores file (libgnome-games-support) for every game won; the
  launcher writes ten best times of 0 s there first, so no dialog opens. It draws no face: a game
  not won is lost where the mine hit shows (judge-pictures/gnome-mines/sign-lost*.png, a red mine, at
  the launcher's window sizes: beginner's, and expert's cut from a CI-like run's lost game), else
  still in play.
- xbomb shows every cell once a game is lost, each mine a red bomb (sign-lost.png); while it is
  played, covered cells show (sign-playing.png, their grey dither); once won, every mine is flagged
  and its counter says "UXB :   0" (words-won.png). Cut from a game lost by clicks at random and a
  learning run's won game (2026-11-29), not from the screens tests/test_judges.py checks them on.

A judge is asked once a game has ended and minebot has exited: ``verdict()`` says "won", "lost",
"playing", or None (no face found).
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from bot.games import GAMES_HOME

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
# the judges' own pictures, for games with no pack
PICTURES = Path(__file__).resolve().parent / "judge-pictures"
RECORD_WAIT = 5.0  # s a judge waits for a game's record of a win: minegauler writes it after it has drawn the won face (main_window.py, _handle_finished_game: events first), later still on a busy machine
FACE_MATCH = 0.02  # TM_SQDIFF_NORMED: the game's own face picture on its own screen is ~0.000
PAPER = 160  # grey level: words are matched by how much darker than this each pixel is (kmines' banner lets the
# board show through faintly: 0.015 of the match limit on its won games matched by colour, 0.001 so)
# a picture that tells a state: face-won.png
TELLING = re.compile(r"(face|words|sign)-(playing|won|lost)(-\w+)?")


class FaceJudge:
    """What the game shows of its end on a screenshot: one given (``face``), or one ``shoot`` takes
    (``verdict``): its face, the words it writes, or another sign (pictures named as TELLING says,
    in judge-pictures/GAME, else the game's pack in templates/GAME)."""

    def __init__(self, game: str, shoot: Callable[[], np.ndarray] | None = None) -> None:
        # no pack ships for it: its own
        folder = PICTURES / game if (PICTURES / game).is_dir() else TEMPLATES / game
        self.pictures: list[
            tuple[str, str, np.ndarray]
        ] = []  # the state each tells, its kind (face, words, sign), itself
        for path in sorted(folder.glob("*.png")):
            named = TELLING.fullmatch(path.stem)
            if named:
                picture = cv2.imread(str(path))
                self.pictures.append(
                    (named[2], named[1], _ink(picture) if named[1] == "words" else picture)
                )
        assert "lost" in {state for state, _, _ in self.pictures}, (
            f"no pictures of a lost game for {game} in {folder}"
        )
        self.shoot = shoot
        # where the face was last seen: left, top, width, height
        self.box: tuple[int, int, int, int] | None = None

    @property
    def shows_play(self) -> bool:
        """Whether the game shows something while it is played (a face); else a new board shows no end."""
        return any(state == "playing" for state, _, _ in self.pictures)

    def face(self, shot: np.ndarray) -> str | None:
        """What the pictures on ``shot`` say: "playing", "won", "lost"; None where none shows. A sign
        says it alone; else, of the pictures shown, the lowest on the screen (a web page's toasts
        stack downwards, the last game's may still show above this one's). Where the game has a
        sign of a lost game (the mine hit, drawn with the last cell), words of a loss without it
        are an earlier game's: nicegui's "You lost!" of a game lost on its first click still showed
        below the "You won!" of the next (Quasar groups a repeated toast where the first one was)."""
        shown: list[tuple[bool, int, str, tuple[int, int, int, int]]] = []
        ink = _ink(shot) if any(kind == "words" for _, kind, _ in self.pictures) else None
        for state, kind, picture in self.pictures:
            seen = ink if kind == "words" else shot
            score, _, at, _ = cv2.minMaxLoc(cv2.matchTemplate(seen, picture, cv2.TM_SQDIFF_NORMED))
            if score <= FACE_MATCH:
                shown.append(
                    (
                        kind == "sign",
                        at[1],
                        state,
                        (at[0], at[1], picture.shape[1], picture.shape[0]),
                    )
                )
        if any(kind == "sign" and state == "lost" for state, kind, _ in self.pictures) and not any(
            sign for sign, *_ in shown
        ):
            shown = [seen for seen in shown if seen[2] != "lost"]
        if not shown:
            return None
        _, _, state, self.box = max(shown)
        return state

    def verdict(self) -> str | None:
        assert self.shoot is not None, "a judge that takes its own screenshots needs shoot"
        return self.face(self.shoot())


def mine_hit(
    game: str, shot: np.ndarray, board: tuple[int, int, int, int], rows: int, cols: int
) -> tuple[int, int] | None:
    """Where the game shows the mine a lost game hit on ``shot``: the cell (row, column) of the board
    in ``board`` (left, top, width, height on the screen) under the centre of the game's own
    picture of it (judge-pictures/GAME/sign-lost*.png where the game has them, else its pack's
    exploded.png, cut from the game's screen); None where it shows none."""
    # (one a size)
    paths = sorted((PICTURES / game).glob("sign-lost*.png")) or [TEMPLATES / game / "exploded.png"]
    pictures = [cv2.imread(str(path)) for path in paths]
    (score, _, at, _), picture = min(
        (
            (cv2.minMaxLoc(cv2.matchTemplate(shot, picture, cv2.TM_SQDIFF_NORMED)), picture)
            for picture in pictures
        ),
        key=lambda found: found[0][0],
    )
    if score > FACE_MATCH:
        return None
    x, y = at[0] + picture.shape[1] / 2 - board[0], at[1] + picture.shape[0] / 2 - board[1]
    return int(y * rows // board[3]), int(x * cols // board[2])


def _ink(image: np.ndarray) -> np.ndarray:
    """How much darker than PAPER each pixel is: words as ink, whatever faint picture is under them."""
    return np.clip(PAPER - cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32), 0, None)


class RecordJudge:
    """A game won is a new record in the game's own files (``count`` counts them now); one not won
    is what ``face`` says (None where it shows no end), or lost where the game has no face. The
    record may come after the end is drawn: until ``wait`` seconds have passed, only a face showing
    the game lost ends the wait for it. A game that keeps one record a second (minegauler) needs
    its games to start in different seconds: the judge answers no sooner than ``apart`` seconds
    after it was asked, which is after the game judged started, so the next one starts later."""

    def __init__(
        self,
        count: Callable[[], int],
        face: FaceJudge | None = None,
        wait: float = RECORD_WAIT,
        apart: float = 0,
    ) -> None:
        self.count, self.face, self.wait, self.apart = count, face, wait, apart
        self.seen = self.count()

    def verdict(self) -> str | None:
        asked = time.monotonic()
        shown = self._verdict(asked + self.wait)
        time.sleep(max(0.0, asked + self.apart - time.monotonic()))
        return shown

    def _verdict(self, deadline: float) -> str | None:
        while True:
            now = self.count()
            if now > self.seen:
                self.seen = now
                return "won"
            shown = self.face.verdict() if self.face is not None else "lost"
            if shown == "lost" or time.monotonic() > deadline:
                return shown
            time.sleep(0.1)


def minegauler_wins() -> int:
    """The rows of its highscores table: one a game won, keyed by level, name and the second the
    game started (base.py: PRIMARY KEY, INSERT OR IGNORE), so two wins started in one second are one."""
    databases = list(
        GAMES_HOME.glob("minegauler/lib/python3*/site-packages/minegauler/app/data/highscores.db")
    )
    assert len(databases) == 1, f"minegauler's highscores database: {databases}"
    with sqlite3.connect(databases[0]) as db:
        return int(db.execute("SELECT COUNT(*) FROM regular").fetchone()[0])


def gnome_mines_wins(workdir: Path) -> int:
    """The lines of all its scores files (the launcher's ten of 0 s each included)."""
    return sum(
        len(p.read_text().splitlines())
        for p in (workdir / "data" / "gnome-mines" / "scores").glob("*")
    )


def pygame_minesweeper_wins(workdir: Path) -> int:
    """The times in its best-times file (minesweeper/util.py: HighScoreUpdate appends one for every
    game it counts won, at every level, no cap), in the folder the launcher gives it (XDG_DATA_HOME).
    It counts a game finished once the cells opened and the mines make the whole board, and counts
    the mine hit as opened (core/board.py, tile_open): a loss with one safe cell still covered (a
    last 50/50 lost) is counted won too (LOSS_RECORDED)."""
    path = workdir / "data" / "pygame-minesweeper" / "high-score.json"
    return (
        sum(len(times) for times in json.loads(path.read_text()).values()) if path.is_file() else 0
    )


# games whose own record may count a lost game won (see above)
LOSS_RECORDED = {"pygame-minesweeper"}


def judge_for(game: str, workdir: Path, shoot: Callable[[], np.ndarray]) -> FaceJudge | RecordJudge:
    """The judge of ``game`` started in ``workdir``; ``shoot()`` takes a screenshot of the whole screen."""
    if game == "minegauler":
        return RecordJudge(minegauler_wins, FaceJudge(game, shoot), apart=1.0)
    if game == "gnome-mines":
        return RecordJudge(lambda: gnome_mines_wins(workdir), FaceJudge(game, shoot))
    return FaceJudge(game, shoot)
