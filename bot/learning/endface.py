"""What a game shows above its board once a game ends (its face: sunglasses once won, dead once
lost), learnt by the learner from the ends it is sure of, to tell the ends it is not: a last guess
whose cell the game drew its end over (a web game's "You win!" panel over the whole board), or
showed in a look never named (a last 50/50 lost, the mine hit a look first seen).

Where the face is: the part of the strip above the board that changed between a game's start and
its end, nearest the board's middle (a timer and a counter change too, off to the sides), grown
over every sure end seen. Where the same picture ended both a won and a lost game (pygame-
minesweeper's face lags a click), the face tells nothing; nor where two pictures ended games of one
kind: a face has one picture an end, and what changes from game to game there is no face
(nicegui-minesweeper has none: what changes nearest the middle above its board is its "Time: 3 seconds").
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.vocabulary import State

DRAWN = 40  # colour levels: a pixel that changed more than this between a game's start and end
SAME = 8.0  # mean colour levels within which two end pictures are one
KEPT = 3  # sure ends a state looked at: each must show the one picture of that end
FACE_GROW = 5  # px across which changed parts of one face join

Box = tuple[int, int, int, int]  # left, top, right, bottom in the strip


class EndFaces:
    """The strips above the board at the ends the learner was sure of, by state; the face's box."""

    def __init__(self) -> None:
        # the one picture of each end
        self.strips: dict[State, np.ndarray | None] = {
            "won": None,
            "lost": None,
        }
        self.seen: dict[State, int] = {"won": 0, "lost": 0}  # sure ends looked at
        self.box: Box | None = None
        # the same picture ended a won and a lost game, or two pictures games of one kind
        self.mixed = False

    def wanted(self, state: State) -> bool:
        """Whether a sure end in ``state`` is still worth its grab."""
        return state in self.strips and self.seen[state] < KEPT and not self.mixed

    def learn(self, start: np.ndarray | None, end: np.ndarray, state: State) -> None:
        """A sure end: ``end`` the strip above the board then, ``start`` at the game's start."""
        found = changed_part(start, end, end.shape[1] / 2, FACE_GROW)
        if found is None or state not in self.strips:
            return
        box = found[0]
        self.box = (
            box
            if self.box is None
            else (
                min(self.box[0], box[0]),
                min(self.box[1], box[1]),
                max(self.box[2], box[2]),
                max(self.box[3], box[3]),
            )
        )
        self.seen[state] += 1
        other: State = "lost" if state == "won" else "won"
        kind = self.strips[state]
        if self._same(end, self.strips[other]) or (kind is not None and not self._same(end, kind)):
            self.mixed = True
        if kind is None:
            self.strips[state] = end.copy()

    def tell(self, end: np.ndarray) -> State | None:
        """How the game ended as its face in ``end`` (the strip above the board) says: the one state
        whose learnt ends show the same face; None where none, or both, or the face tells nothing."""
        if self.mixed or self.box is None:
            return None
        told = {state for state, strip in self.strips.items() if self._same(end, strip)}
        return told.pop() if len(told) == 1 else None

    def _same(self, a: np.ndarray, b: np.ndarray | None) -> bool:
        if self.box is None or b is None or a.shape != b.shape:
            return False
        left, top, right, bottom = self.box
        diff = np.abs(
            a[top:bottom, left:right].astype(np.int16) - b[top:bottom, left:right].astype(np.int16)
        )
        return bool(diff.size) and float(diff.mean()) <= SAME


def changed_part(
    start: np.ndarray | None, end: np.ndarray, middle: float, grow: int
) -> tuple[Box, tuple[float, float]] | None:
    """What changed between the strips ``start`` and ``end`` (more than DRAWN), its parts joined across
    ``grow`` pixels, nearest the column ``middle`` (a game's face; a timer and a counter change too, off
    to the sides): its box and its centre; None where nothing changed."""
    if start is None or start.shape != end.shape or end.size == 0:
        return None
    changed = (np.abs(end.astype(np.int16) - start.astype(np.int16)).max(axis=2) > DRAWN).astype(
        np.uint8
    )
    n, _, stats, centres = cv2.connectedComponentsWithStats(
        cv2.dilate(changed, np.ones((grow, grow), np.uint8))
    )
    if n <= 1:
        return None
    i = min(range(1, n), key=lambda k: abs(centres[k][0] - middle))
    x, y, w, h = (int(v) for v in stats[i, :4])
    return (x, y, x + w, y + h), (float(centres[i][0]), float(centres[i][1]))
