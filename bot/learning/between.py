"""The learner between games: the end of one (its last flags; its face, bot/learning/endface.py), whether a
new one shows (bot/learning/restart.py starts it), and its last screen (a mixin of Learner, bot/learning/learn.py)."""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from bot.learning.endface import EndFaces
from bot.learning.naming import Looks
from bot.learning.outcome import Judge
from bot.learning.restart import Restarter
from bot.learning.settling import SETTLE
from bot.learning.sight import Sight
from bot.live.place import board_region
from bot.live.table import SLOW_GAME
from bot.play import Tally
from bot.vision.geometry import Geometry
from bot.vocabulary import EXPLODED, MINE, State


class BetweenGames:
    """What the learner does between games."""

    looks: Looks
    sight: Sight
    judge: Judge
    restarter: Restarter
    faces: EndFaces
    geometry: Geometry
    flags: bool

    def read(self, quiet: float | None = None) -> np.ndarray:
        raise NotImplementedError  # Learner.read

    def _finish(self, looks: np.ndarray) -> None:
        """Flag the covered cells left when every other cell is open: they are mines, and some games (xdemineur) are
        won only once every mine is flagged. (Not where flags are off.)"""
        left = [(int(r), int(c)) for r, c in np.argwhere(np.isin(looks, self.looks.covered()))]
        if left and self.flags:
            left = self.sight.click(left, "right")
            # the end as the game shows it (xdemineur's face changes now);
            deadline = time.perf_counter() + SLOW_GAME
            while time.perf_counter() < deadline:  # a game over may also ignore the flags
                if all(self.read()[cell] != looks[cell] for cell in left):
                    break

    def _told_by_the_face(self, state: State, looks: np.ndarray, tally: Tally) -> State:
        """How the game ended as its face says (EndFaces): learnt from an end the learner is sure of (won with no
        guess; lost with the mine hit in sight in a look named), asked at one it is not (Judge.unsure: counted won)."""
        unsure = state == "won" and self.judge.unsure is not None
        hit = self.looks.names().get(int(looks[tally.guessed[-1]])) if tally.guessed else None
        sure = (state == "won" and not tally.guesses and not unsure) or (
            state == "lost" and hit in (EXPLODED, MINE)
        )
        if not unsure and not (sure and self.faces.wanted(state)):
            return state
        strip = self.restarter.strip(self.sight.screen.settled(self.sight.region, quiet=SETTLE))
        if sure:
            self.faces.learn(self.restarter.band_playing, strip, state)
            return state
        told = self.faces.tell(strip)
        if told is None:  # asked again as the faces learn more ends (Judge.told)
            self.judge.unsure = (
                dataclasses.replace(self.judge.unsure, strip=strip) if self.judge.unsure else None
            )
            return state
        print(
            f"minebot: the board does not show how the last guess went; the game's face says {told}",
            file=self.sight.out,
        )
        self.judge.unsure = None
        return told

    def over(self) -> bool:
        """Whether the board shows a game that is over, by looks already named (a mine or a flag in sight): a run
        started on the last run's lost game starts a new one. With nothing named yet, no board can be told over."""
        return bool(self.looks.hidden) and not self.looks.could_be_new(self.read())

    def fresh_within(self, seconds: float) -> bool:
        """Whether a new game shows within ``seconds``: a board that can be a new game's (see Looks.could_be_new)
        with a cell covered that the last reading showed open (a game like xdemineur opens an area of a new
        game itself). Not merely another board: nicegui-minesweeper's "You won!", drawn over a won board
        with no flags after the last reading, made it look new; what is drawn over a board covers no cell."""
        last, covered = self.sight.shown, self.looks.covered()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            looks = self.read()
            if self.looks.could_be_new(looks) and (
                last is None or (np.isin(looks, covered) & ~np.isin(last, covered)).any()
            ):
                return True
            time.sleep(0.1)
        return False

    def final_screen(self) -> np.ndarray:
        """The board's region and the band below it once it stays still: a game's end as the game drew it (the last
        reading may come before the last click is drawn, where the count of cells told the win), with what the game
        says of it above and below the board."""
        return self.sight.screen.settled(
            board_region(self.geometry, self.sight.screen, below=True), quiet=SETTLE
        )
