"""How a real game ended, told by the game, not by minebot: the end-to-end tests' own judge.

- winemine and xdemineur draw a face above the board: smiling in play, sunglasses once won,
  dead once lost. The judge finds the game's own face pictures (templates/GAME/face-*.png, cut
  from the game's screen and checked by eye) on a screenshot of the test's own, by a template
  match of its own: nothing of minebot's reading is used, only those pictures.
- minegauler writes a row into its own highscores database for every game won (at a standard
  level; bot/games/minegauler_prepare.py keeps the best time out of reach, so no window opens);
  a game not won is lost where its face is the dead one, else still in play.
- pygame-minesweeper and ace-minesweeper draw faces too (a smile, sunglasses, a dead face; ace's
  Tux with eyes open, sunglasses, eyes shut), but no pack ships for them: the judge's own
  pictures (tests/judge-pictures/GAME/face-*.png) are cut from their fixtures and checked by eye.
- nicegui-minesweeper (a web page) says "You won!" or "You lost!" in a toast below the board
  (tests/judge-pictures/nicegui-minesweeper/face-*.png, at 1x, matched by colour as a face).
- kmines writes "Congratulations! You have won!" or "You have lost." on a band over the board
  (tests/judge-pictures/kmines/banner-*.png, cut from its screens); nothing while it is played.
- sgt-mines writes how the game stands in its status line below the board: "COMPLETED!" once won,
  "DEAD!" once lost, "Marked: n / m" in play. The judge finds those words as the game draws them
  (tests/judge-pictures/sgt-mines/status-*.png, cut from its screen and checked by eye), as it
  finds a face.
- gnome-mines appends a line to its scores file (libgnome-games-support) for every game won; the
  launcher writes ten best times of 0 s there first, so no dialog opens. It draws no face: a game
  not won is taken for lost (a game still in play that minebot called lost is not caught there).

A judge is asked once a game has ended and minebot has exited: ``verdict()`` says "won", "lost",
"playing", or None (no face found).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from bot.games import GAMES_HOME

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
PICTURES = Path(__file__).resolve().parent / "judge-pictures"  # the judges' own pictures of a game's words
WORDS = {"sgt-mines": "status", "kmines": "banner"}  # games judged by the words they write (no face)
FACE_MATCH = 0.02  # TM_SQDIFF_NORMED: the game's own face picture on its own screen is ~0.000
PAPER = 160  # grey level: words are matched by how much darker than this each pixel is (kmines' banner lets the
# board show through faintly: 0.015 of the match limit on its won games matched by colour, 0.001 so)


class FaceJudge:
    """The face the game shows on a screenshot: one given (``face``), or one ``shoot`` takes
    (``verdict``); for a game in WORDS, the words it writes instead, matched by their ink alone
    (PAPER)."""

    def __init__(self, game: str, shoot: Callable[[], np.ndarray] | None = None) -> None:
        folder = PICTURES / game if (PICTURES / game).is_dir() else TEMPLATES / game  # no pack ships for it: its own
        kind = WORDS.get(game, "face")
        self.words = kind != "face"
        found = {state: folder / f"{kind}-{state}.png" for state in ("playing", "won", "lost")}
        self.faces = {state: self._seen(cv2.imread(str(p))) for state, p in found.items() if p.is_file()}
        assert "lost" in self.faces, f"no {kind} pictures for {game} in {folder}"
        self.shoot = shoot
        self.box: tuple[int, int, int, int] | None = None  # where the face was last seen: left, top, width, height

    def _seen(self, image: np.ndarray) -> np.ndarray:
        if not self.words:
            return image
        return np.clip(PAPER - cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32), 0, None)

    def face(self, shot: np.ndarray) -> str | None:
        """What the face (or the words) on ``shot`` say: "playing", "won", "lost"; None where none shows."""
        best: tuple[float, str, tuple[int, int, int, int]] | None = None
        seen = self._seen(shot)
        for state, picture in self.faces.items():
            score, _, at, _ = cv2.minMaxLoc(cv2.matchTemplate(seen, picture, cv2.TM_SQDIFF_NORMED))
            if best is None or score < best[0]:
                best = (score, state, (at[0], at[1], picture.shape[1], picture.shape[0]))
        if best is None or best[0] > FACE_MATCH:
            return None
        self.box = best[2]
        return best[1]

    def verdict(self) -> str | None:
        assert self.shoot is not None, "a judge that takes its own screenshots needs shoot"
        return self.face(self.shoot())


class RecordJudge:
    """A game won is a new record in the game's own files (``count`` counts them now); one not won
    is what ``face`` says, or lost where the game has no face."""

    def __init__(self, count: Callable[[], int], face: FaceJudge | None = None) -> None:
        self.count, self.face = count, face
        self.seen = self.count()

    def verdict(self) -> str | None:
        now = self.count()
        won, self.seen = now > self.seen, now
        return "won" if won else self.face.verdict() if self.face is not None else "lost"


def minegauler_wins() -> int:
    databases = list(GAMES_HOME.glob("minegauler/lib/python3*/site-packages/minegauler/app/data/highscores.db"))
    assert len(databases) == 1, f"minegauler's highscores database: {databases}"
    with sqlite3.connect(databases[0]) as db:
        return int(db.execute("SELECT COUNT(*) FROM regular").fetchone()[0])


def gnome_mines_wins(workdir: Path) -> int:
    """The lines of all its scores files (the launcher's ten of 0 s each included)."""
    return sum(len(p.read_text().splitlines()) for p in (workdir / "data" / "gnome-mines" / "scores").glob("*"))


def judge_for(game: str, workdir: Path, shoot: Callable[[], np.ndarray]) -> FaceJudge | RecordJudge:
    """The judge of ``game`` started in ``workdir``; ``shoot()`` takes a screenshot of the whole screen."""
    if game == "minegauler":
        return RecordJudge(minegauler_wins, FaceJudge(game, shoot))
    if game == "gnome-mines":
        return RecordJudge(lambda: gnome_mines_wins(workdir))
    return FaceJudge(game, shoot)
