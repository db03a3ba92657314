"""How long the learner lets the board stay still before it reads it, and what tells it.

A game nobody cut a pack for may animate what a click opens, so the learner reads the board once it
has stayed unchanged for SETTLE. It takes that wait in two steps, to count the redraws of the cells
after clicks (not a new game's board: gnome-mines animates it) and how many of them still changed
after QUICK unchanged, every click drawn by then (late). A pack learnt so reads its game after QUICK from its next game on (in
the learning run too) where, over QUICK_TRIED redraws, at most LATE_SHARE were late (settle_ms):
winemine, xdemineur, minegauler and gnome-mines draw a click within 30 ms; kmines' end banner comes in 41 ms steps, the
web game's cells fade in with pauses up to 97 ms and sgt-mines flashes its board 107 ms apart at a
game's end (measured 2026-11-25). A reading after QUICK may still be taken while the game draws (a
busy machine): the learner checks each one before it judges a click from it (Learner._reveal:
Judge.whole, Judge.joined). A busy machine also makes redraws late: winemine at expert, learnt
beside a test run, had 12 of 489 late and a pack that reads after SETTLE; 20 games more on the
machine idle, 0 of 857. The counts are summed over runs, so such a pack reads after QUICK once
later runs bring its share under LATE_SHARE.
"""

from __future__ import annotations

import numpy as np

from bot.devices.capture import Done, Region, Screen

SETTLE = 0.1  # s the board must stay unchanged before a reading (an unseen game may animate)
QUICK = 0.03  # s of it after which the learner looks whether the cells still change
QUICK_TRIED = 30  # redraws watched before a learnt pack may read its game after QUICK, not SETTLE
LATE_SHARE = 0.01  # the share of them that may still change after QUICK (a busy machine), for that
# waits of QUICK more for a game that has not drawn the clicks yet, before the rest of SETTLE
SLOW_STARTS = 3


def settle_ms(redraws: int, late: int) -> int:
    """How long a learnt pack has the board stay unchanged before a reading (ms), from the redraws
    of its cells counted while it was learnt or played, and how many of them still changed after
    QUICK: QUICK where over QUICK_TRIED redraws at most LATE_SHARE did, else SETTLE.

    >>> settle_ms(30, 0), settle_ms(29, 0), settle_ms(200, 2), settle_ms(200, 3)
    (30, 100, 30, 100)
    """
    return round(
        1000 * (QUICK if redraws >= QUICK_TRIED and late <= LATE_SHARE * redraws else SETTLE)
    )


class Settler:
    """Grabs the board's ``region`` once it has stayed unchanged for ``quiet`` seconds (SETTLE until
    a pack says its game draws a click within QUICK), counting the redraws of its ``cells`` (a
    slice of the region) and the late ones."""

    def __init__(self, screen: Screen, region: Region, cells: tuple[slice, slice]) -> None:
        self.screen, self.region, self.cells = screen, region, cells
        self.quiet = SETTLE
        # the cells drawn anew after clicks; of those, still changing after QUICK
        self.redraws = self.late = 0

    def settled(
        self, last: np.ndarray | None, quiet: float, done: Done | None = None
    ) -> np.ndarray:
        """The region once unchanged for ``quiet`` (or, where ``quiet`` is under SETTLE, as soon as two
        grabs alike are ``done``: they show the clicks waited for); a redraw counted where its cells
        differ from ``last`` (the grab before), late where they changed after QUICK of a wait of SETTLE
        from the first grab ``done``. A game that had not drawn every click after QUICK (a slow start:
        winemine under Wine drew nothing, or only the flags placed before the clicks, for 40-80 ms now
        and then) is waited for QUICK more, SLOW_STARTS times at most: a quick reading waits for the
        clicks too (``done``), so only what changes after they show puts it at risk. Counted from the
        first grab, such waits made learning runs keep SETTLE (one of three: 10 of 526 redraws late,
        2026-11-29)."""
        if quiet < SETTLE:
            final = early = self.screen.settled(self.region, quiet=quiet, done=done)
        else:
            early = self.screen.settled(self.region, quiet=QUICK)
            for _ in range(SLOW_STARTS):
                if done is None or done(early):
                    break
                early = self.screen.settled(self.region, quiet=QUICK)
            final = self.screen.settled(self.region, quiet=quiet - QUICK)
            # it changed after QUICK: unchanged for ``quiet`` from the last change
            if not np.array_equal(final, early):
                final = self.screen.settled(self.region, quiet=quiet)
        if last is not None and last.shape == final.shape:
            late = not np.array_equal(early[self.cells], final[self.cells]) and (
                done is None or done(early)
            )
            if late or not np.array_equal(final[self.cells], last[self.cells]):
                self.redraws += 1
                self.late += late
        return final

    def counted(self) -> tuple[int, int]:
        """The redraws and late ones counted since the last call."""
        counts = self.redraws, self.late
        self.redraws = self.late = 0
        return counts
