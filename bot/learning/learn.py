"""Learning an unseen look by playing it (``minebot play --learn``, or when no pack reads the board).

The board is found by its lattice (bot/vision/grid.py), read and clicked through bot/learning/sight.py, and its cells
grouped into looks (bot/vision/looks.py). A fresh board shows only covered cells: its looks are "covered". After the
first click every new look is a revealed number, named by the rules alone (bot/learning/naming.py); the bot clicks
only cells that are safe under every naming still possible, flags cells that are mines under every naming (the look a
flagged cell takes is "flag"), and guesses as on a known skin, on the likeliest naming's board (Naming.likeliest;
Learner._guess). A lost game's end screen names the rest: the clicked cell shows the exploded mine, hidden cells that
change show mines (the bot's flags are all on mines, so it never sees a wrong flag of its own).

Every look named is saved as a skin pack in this user's data folder (bot/userdata.py), merged with what was learnt
before (nothing overwritten), and read like any shipped pack next time; so is the game's first-click rule, once its
first clicks show it (first_click_rule).
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path
from typing import TextIO

import numpy as np

from bot.board import Board, neighbour_sum
from bot.devices.actuator import Mouse
from bot.devices.capture import Screen
from bot.errors import (
    ClicksIgnored,
    CoverUndecided,
    FirstClickIgnored,
    InconsistentBoard,
    ScreenError,
)
from bot.learning.between import BetweenGames
from bot.learning.chording import Chording, chord_button
from bot.learning.endface import EndFaces
from bot.learning.first_clicks import count_first_click, first_click_rule
from bot.learning.naming import Looks, Naming, covered_looks, probe_cells
from bot.learning.outcome import Judge, besides
from bot.learning.restart import Restarter
from bot.learning.settling import SETTLE, settle_ms
from bot.learning.sight import Sight
from bot.live.table import SLOW_GAME, wait_for_new_second
from bot.play import GameResult, Tally
from bot.solver import get_strategy
from bot.solver.guess import TOLERANCE, first_click
from bot.vision.geometry import Geometry
from bot.vision.looks import LOOK_LIMIT
from bot.vision.pack import SkinPack
from bot.vision.writing import (
    PackFiles,
    add_board,
    add_counter,
    add_counts,
    add_mines,
    learnt_counts,
    learnt_pack_folder,
    set_learnt,
    start_learnt_pack,
)
from bot.vocabulary import (
    CHAR_OF,
    COVERED,
    FLAG,
    MINE,
    NUMBERS,
    Cell,
    FirstClickRule,
    State,
    check_rule,
)


class Learner(BetweenGames):
    """Plays the game on screen with no skin pack, learning its looks. ``geometry`` is the board's
    lattice in screen coordinates (find_grid's, moved onto the screen). ``mines``: the game's mine
    count; None where nothing told it (a size no level has, no counter), played without the
    global count until a won game shows it (count_from_win)."""

    def __init__(
        self,
        screen: Screen,
        mouse: Mouse,
        geometry: Geometry,
        mines: int | None,
        rule: FirstClickRule = "safe",
        name: str | None = None,
        out: TextIO | None = None,
        flags: bool = True,
    ) -> None:
        self.screen, self.mouse, self.mines, self.rule = screen, mouse, mines, rule
        # the count as the user or the game's counter told it (else remembered, or learnt)
        self.mines_told = False
        self.mines_learnt = False  # from a won game this run: saved with the pack
        # flags: flag certain mines (a right click); else leave them covered
        self.flags, self.geometry = (
            flags,
            geometry,
        )
        self.out = out if out is not None else sys.stderr
        self.looks = Looks()
        self.sight = Sight(screen, mouse, geometry, self.looks, mines, self.out)
        self.book = self.sight.book
        self.strategy, self.rng, self.name = get_strategy("best"), np.random.default_rng(), name
        # the cells of the last new board read, as cut
        self.new_board: list[np.ndarray] | None = None
        self._first_click_second: int | None = None
        self.restarter = Restarter(mouse, self.sight.region, self.sight.local, screen)
        # each look's pictures in the learnt pack, and the looks named wrongly (Judge.unlearn)
        self.files = PackFiles()
        self.judge = Judge(self.looks, mines, self.out, self.save_screen, self.files.wrong)
        self.first_clicks = (0, 0, 0.0)  # since the last save, as first_click_rule counts them
        # the game's chord button, learnt by trying it (bot/learning/chording.py)
        self.chording = Chording(self.out)
        # the game's face at the ends it was sure of (bot/learning/endface.py)
        self.faces = EndFaces()

    @property
    def image(self) -> np.ndarray | None:
        """The board's region as last read."""
        return self.sight.image

    def seed(self, pack: SkinPack) -> None:
        """Start from what a pack learnt before: each tile a look, named as the pack names it."""
        self.sight.counter.learnt = pack.has_counter
        self.rule = pack.rule  # "opening" where its first clicks showed it (first_click_rule)
        self.looks.flood = pack.flood
        self.restarter.remember(pack.new_game)
        # QUICK where the game showed it draws a click within QUICK
        self.sight.settler.quiet = min(pack.settle, SETTLE)
        self.chording.seed(pack.chord, learnt_counts(pack.path, "chord_tries"))
        for tile in pack.tiles:
            self.looks.name(look := self.book.add(tile.image), int(tile.code))
            self.files.seeded(look, pack.path / tile.file if pack.path else None)
        board = pack.new_board(self.geometry.rows, self.geometry.cols)
        # each cell as it showed covered there (cells over a background picture)
        if board is not None:
            self.sight.covered_pictures[:] = self.book.compared(board)

    def prime(self, shot: np.ndarray) -> None:
        """Start from a grab of the whole screen (as Screen.grab gives it) on this game's new board,
        taken before its first click: its cells are the covered ones (play learns on from there when
        a shipped pack read the new board but not the opened one: another look's covered tile)."""
        region = self.sight.region
        top, left = region.top - self.screen.whole.top, region.left - self.screen.whole.left
        image = shot[top : top + region.height, left : left + region.width]
        self.new_board = self.book.cut_cells(image)[0]
        self._cover(self.sight.sort(image))

    def _cover(self, looks: np.ndarray) -> np.ndarray:
        """Take the looks of a new game's board as the covered ones; the looks now."""
        try:
            covered = covered_looks(looks, self.mines)
        except CoverUndecided as exc:
            covered, looks = self._probe(looks, exc)
        self.looks.hidden.update({k: COVERED for k in covered})
        return self.sight.shown_as(looks)

    def _probe(self, looks: np.ndarray, undecided: CoverUndecided) -> tuple[list[int], np.ndarray]:
        """Which look is covered where the rules allow two (an area the game opened along the board's edge, about as
        big as the covered part): a cell safe were each of them covered is clicked (were the other one covered, it is
        an open cell, and with no flag placed yet a click on it does nothing); the look whose cell changes is
        covered. The covered look, and the looks now."""
        cells = probe_cells(looks, undecided.options, self.mines)
        if cells is not None:
            self.sight.click(cells, "left")
            deadline = time.perf_counter() + SLOW_GAME
            while time.perf_counter() < deadline:
                now = self.read()
                changed = [
                    k
                    for k, cell in zip(undecided.options, cells, strict=True)
                    if now[cell] != looks[cell]
                ]
                if changed:
                    return changed[:1], now
        raise ScreenError(
            str(undecided), detail=f"the screen is saved in {self.save_screen()}"
        ) from undecided

    # -- reading and clicking (bot/learning/sight.py) ----------------------------------------------------
    def read(self, quiet: float | None = None) -> np.ndarray:
        """The look of every cell, once the board has stayed still (Sight.read)."""
        return self.sight.read(quiet)

    def read_after(
        self,
        cells: list[Cell],
        before: np.ndarray,
        button: str = "right",
        flagged: list[Cell] | None = None,
    ) -> np.ndarray:
        """Read until every cell clicked shows another look than before (Sight.read_after): then the game is not over."""
        looks = self.sight.read_after(cells, before, button, flagged)
        cells = (flagged or []) + cells
        if cells and all(looks[cell] != before[cell] for cell in cells):
            self.judge.answered()
        return looks

    # -- one game ---------------------------------------------------------------------------
    def play_game(self) -> GameResult:
        start = time.perf_counter()
        looks = self.read(SETTLE)  # a new board whole: its cells are the covered ones
        # nothing known: a new game's board says what covered cells look like
        if not self.looks.hidden:
            looks = self._cover(looks)
        opened = not np.isin(looks, self.looks.covered()).all()
        if not opened and self.image is not None:
            self.new_board = self.book.cut_cells(self.image)[0]
        if not self.looks.could_be_new(looks):
            raise ScreenError(
                "minebot learns and plays from a new game: start one and run it again"
            )
        assert self.image is not None
        self.restarter.playing(self.image)
        tally = Tally()
        on_safe = False
        state: State = "playing"
        begun = looks.copy()  # the board as this game found it
        self.judge.new_game()
        if not opened:  # some games open an area themselves (xdemineur): no first click there
            wait_for_new_second(self._first_click_second)
            cell = first_click(Board.covered(self.geometry.rows, self.geometry.cols), self.rule)
            self._first_click_second = int(time.time())
            tally.guessed.append(cell)
            try:
                state, after, _ = self._reveal([cell], looks, guess=True)
            except ClicksIgnored as exc:
                raise FirstClickIgnored(str(exc), detail=exc.detail) from exc
            if self.mines is not None:  # the evidence weighs a mine count
                self.first_clicks = count_first_click(
                    self.first_clicks,
                    self.geometry,
                    self.mines,
                    cell,
                    int((after != looks).sum()) > 1,
                )
            looks = after
            tally.clicks += 1
            tally.guesses += self.rule == "none"
        try:
            state, looks, on_safe = self._play_on(state, looks, tally)
        except ClicksIgnored as exc:
            if np.array_equal(self.read(), begun):  # not one click of this game took: over?
                raise FirstClickIgnored(str(exc), detail=exc.detail) from exc
            if self.judge.lost_on_suspect():
                state = "lost"
            elif self.mines is None and self._won_count(self.read(SETTLE)) is not None:
                # with no count to tell it, a win shows as a game that takes no more clicks on a
                # board whose every number counts its hidden cells as mines
                print(
                    "minebot: the game took no more clicks, and every number counts the hidden "
                    "cells round it as mines: won",
                    file=self.out,
                )
                state = "won"
            else:
                raise
        if (
            state == "won"
            and self.judge.last_guess
            and self.judge.lost_after_all(self.read(SETTLE))
        ):
            state = "lost"  # at its last guess, as the board now still shows (Judge.lost_after_all)
        state = self._told_by_the_face(state, looks, tally)
        if state == "won":
            self._finish(looks)
            if self.judge.unsure is None:
                self.count_from_win(looks)
        self.save()
        return tally.result(state, time.perf_counter() - start, on_safe)

    def _play_on(
        self, state: State, looks: np.ndarray, tally: Tally
    ) -> tuple[State, np.ndarray, bool]:
        """Play a game from ``looks`` to its end, counting in ``tally``: the state, the last looks, and whether it
        was lost on a cell called safe."""
        on_safe, entry = False, looks
        while state == "playing":
            tally.readings += 1
            try:
                # deciding: naming the looks by the rules, then the strategy
                with self.sight.spent.on("solve"):
                    naming = self._name(looks)
            except InconsistentBoard:
                # the clicks last judged
                cells, before, guessed = self.judge.last or (
                    [],
                    entry,
                    True,
                )
                # drawn after the reading that ended the game
                across = self.judge.drawn_across(cells, before, looks, guessed)
                if across is None:
                    looks = self._unlearn()
                    continue
                state, on_safe = across, across == "lost" and not guessed
                break
            board = self.looks.board(looks, self.mines)
            if board is not None:  # every look named: the board is known, decide as on a known skin
                with self.sight.spent.on("solve"):
                    analysis = self.strategy.analyse(
                        board, self.rule, self.rng, full=False, flags_first=self.flags
                    )
                certain_mines, certain_safe = analysis.mines, analysis.safe
                pick = analysis.move.cell if analysis.move is not None else None
            else:
                certain_mines, certain_safe, pick = naming.mines, naming.safe, None
            flags = sorted(
                c for c in certain_mines if self.flags and looks[c] in self.looks.covered()
            )
            left = self.looks.mines_left(looks, self.mines) if flags else None
            # while the counter is watched, one flag at a time, read twice: it shows every number; else, once
            # the flag's look is known, flags are placed with the clicks on safe cells and read with them
            watch = left is not None and self.sight.counter.eager(left - 1)
            if flags and (watch or not certain_safe or not self.looks.flags()):
                flags = self.sight.click(flags[:1] if watch else flags, "right")
                tally.clicks += len(flags)
                after = self.read_after(flags, looks)
                self.judge.flagged(flags, after)
                self.looks.name_flags(flags, looks, after)
                before, looks = looks, self.read() if watch else after
                if (
                    (self.sight.settler.quiet < SETTLE or self.judge.suspect)
                    and self.judge.last
                    and besides(flags, looks, before)
                ):
                    state, looks, guessed = self._drawn_late()
                    on_safe = state == "lost" and not guessed
                continue
            if certain_safe:
                flags = self.sight.click(flags, "right")
                chords, safe = self.chording.plan(
                    self.looks.flagged(looks, flags), self.looks.hidden, certain_safe
                )
                state, looks, guessed = self._reveal(
                    safe, looks, guess=False, chords=chords, flags=flags
                )
                tally.clicks += len(flags) + len(safe) + len(chords)
                tally.chords += len(chords)
                on_safe = state == "lost" and not guessed
                continue
            covered = np.isin(looks, self.looks.covered())
            hidden = np.isin(looks, list(self.looks.hidden))
            if hidden.any() and all(
                (int(r), int(c)) in certain_mines for r, c in np.argwhere(covered)
            ):
                # every covered cell a mine (none: xdemineur is won once its last mine is flagged, and
                # the flags' clicks do not report a win; all, with flags off): every safe cell is open
                state = "won"
                break
            cell = pick if pick is not None else self._guess(naming, looks)
            tally.guesses += 1
            tally.clicks += 1
            tally.guessed.append(cell)
            state, looks, _ = self._reveal([cell], looks, guess=True)
        return state, looks, on_safe

    def _won_count(self, looks: np.ndarray) -> int | None:
        """The hidden cells of ``looks`` where they show a won board: every look named, every cell
        hidden (covered, a flag; a mine a game shows at its win) or a number, and each number the
        count of the hidden cells round it, as it is once they are the mines and the rest is open.
        None where the board shows no such thing."""
        names = self.looks.names()
        if not all(int(k) in names for k in np.unique(looks)):
            return None
        codes = np.vectorize(lambda k: names[int(k)], otypes=[np.int64])(looks)
        mines = np.isin(codes, [COVERED, FLAG, MINE])
        numbers = np.isin(codes, list(NUMBERS))
        won = (
            mines.any()
            and (mines | numbers).all()
            and (neighbour_sum(mines)[numbers] == codes[numbers]).all()
        )
        return int(mines.sum()) if won else None

    def count_from_win(self, looks: np.ndarray) -> None:
        """The mine count, learnt from a won game's board (``looks``: _won_count), unless the user or
        the game's counter told it: a count remembered, or none, is set so and said."""
        count = None if self.mines_told else self._won_count(looks)
        if count is None or count == self.mines:
            return
        was = "" if self.mines is None else f", not {self.mines} as remembered"
        print(f"minebot: learnt the mine count from a won game: {count}{was}", file=self.out)
        self.set_mines(count)
        self.mines_learnt = True

    def set_mines(self, mines: int) -> None:
        """The game's mine count, for everything that weighs it."""
        self.mines = self.judge.mines = self.sight.mines = self.sight.counter.mines = mines

    def _guess(self, naming: Naming, looks: np.ndarray) -> Cell:
        """A guess while some look is unnamed: the strategy's on the likeliest naming's board (with look-ahead and
        endgame), unless the likely namings mixed make it riskier than the safest cell by more than the strategy's
        own slack (other namings nearly as likely put a mine there); else the covered cell least likely a mine."""
        covered = np.isin(looks, self.looks.covered())
        safest = naming.safest(covered)
        chance = naming.probabilities  # given wherever a likeliest board is
        if naming.likeliest is not None and chance is not None:
            move = self.strategy.analyse(
                Board(naming.likeliest, self.mines), self.rule, self.rng, full=False
            ).move
            # (a NaN chance, too complex: the move stands)
            if (
                move is not None
                and move.action == "reveal"
                and covered[move.cell]
                and not (chance[move.cell] > chance[safest] + TOLERANCE)
            ):
                return move.cell
        return safest

    def _name(self, looks: np.ndarray) -> Naming:
        """What the looks of a reading may be, learnt into ``looks`` (named once: where Judge.whole
        named this very reading, that naming, nothing having been learnt since in a game going on)."""
        named = self.judge.named
        try:
            naming = (
                named[1]
                if named is not None and named[0] is looks
                else self.looks.named(looks, self.mines)
            )
        except InconsistentBoard as exc:
            raise InconsistentBoard(
                str(exc), exc.cells, detail=f"the screen is saved in {self.save_screen()}"
            ) from exc
        for k, values in naming.possible.items():
            if len(values) == 1 and len(self.looks.possible.get(k, NUMBERS)) > 1:
                print(f"minebot: learnt a look: {CHAR_OF[next(iter(values))]}", file=self.out)
        self.looks.possible.update(naming.possible)
        return naming

    def _unlearn(self) -> np.ndarray:
        """After a board no naming fits with what was learnt of its looks: a board read once still.
        Where that one fits, the other was caught mid-draw; else what was learnt wrongly is forgotten
        (Judge.unlearn). InconsistentBoard where no naming fits it even so."""
        looks = self.read(SETTLE)
        try:
            self.looks.named(looks, self.mines)
        except InconsistentBoard as exc:
            if not self.judge.unlearn(looks):
                raise InconsistentBoard(
                    str(exc), exc.cells, detail=f"the screen is saved in {self.save_screen()}"
                ) from exc
        return looks

    def _reveal(
        self,
        cells: list[Cell],
        looks: np.ndarray,
        guess: bool,
        chords: list[Cell] | None = None,
        flags: list[Cell] | None = None,
    ) -> tuple[State, np.ndarray, bool]:
        """Click cells (and chord ``chords``: bot/learning/chording.py; ``flags``: placed just before), read what the
        game drew, and tell how the game stands: the state, the looks now, and whether a guess is among the clicks
        judged (with those before: Judge.joined, where a quick reading, bot/learning/settling.py, did not show all
        the clicks before drew). The flags are judged as read before the clicks."""
        flags = flags or []
        opened, more = self.chording.press(
            self.sight, chords or [], self.looks.flagged(looks, flags), self.looks.hidden
        )
        # judged: what it clicked, not what the guard held back (see Sight.click)
        self.sight.click(cells + more, "left")
        cells = self.sight.clicked + opened  # the cells a chord opens are judged as clicked
        # cleared once the clicks show (Judge.answered), maybe showing it was lost
        suspect = self.judge.suspect
        after = self.read_after(cells, looks, "left", flags)
        if flags:
            self.judge.flagged(flags, after)
            self.looks.name_flags(flags, looks, after)
            looks, at = looks.copy(), tuple(np.array(flags).T)
            looks[at] = after[at]
        if self.judge.suspect is not None and self.judge.elsewhere(cells, looks, after).any():
            # the end of the last guess, drawn after the reading that judged it
            return self._drawn_late()
        if self.sight.settler.quiet < SETTLE and not self.judge.whole(cells, looks, after):
            again = self.read(SETTLE)
            # not where the game drew its end at once
            self.sight.settler.late += not np.array_equal(again, after)
            after = again
            cells, looks, guess = self.judge.joined(cells, looks, after, guess)
        if not guess and self.judge.ended_at_suspect(suspect, cells, looks, after):
            return "lost", after, True  # lost at the suspect guess
        return self.judge.outcome(cells, looks, after, guess), after, guess

    def _drawn_late(self) -> tuple[State, np.ndarray, bool]:
        """A reading showed more than the flags or clicks since can draw: the game still drew the clicks judged last
        (a quick reading; or a lost guess's mines, after the mine hit: Judge.suspect). Judged again after SETTLE
        from the reading before them (with the flags: Judge.flagged), what was learnt since a suspect guess
        forgotten (the mine hit taken for a number)."""
        assert self.judge.last is not None
        after = self.read(SETTLE)
        self.sight.settler.late += 1
        if self.judge.suspect is not None:
            self.looks.possible = self.judge.suspect[2]
        cells, before, guessed = self.judge.last
        return self.judge.outcome(cells, before, after, guessed), after, guessed

    def new_game(self, key: str | None = None) -> None:
        """Start the next game (see bot/learning/restart.py); ``key``: the game's own key for it, if known."""
        self.restarter.start(self, key)

    def save_screen(self) -> Path:
        """Save the last screen read in this user's cache folder; where."""
        return self.sight.save_screen()

    # -- what was learnt --------------------------------------------------------------------
    def pack_name(self) -> str:
        if self.name:
            return self.name
        covered = self.book.pictures[self.looks.covered()[0]]
        return "learnt-" + hashlib.sha1(covered.tobytes()).hexdigest()[:8]

    def save(self) -> list[str]:
        """Write every named look into this user's pack for the skin (merged, nothing overwritten;
        pictures of another size than the pack's go to a pack of their own: learnt_pack_folder)."""
        folder = learnt_pack_folder(self.pack_name(), n := self.book.cut)
        start_learnt_pack(
            folder, n, self.geometry.pitch, self.rule, round(1000 * SETTLE), LOOK_LIMIT
        )
        quick = add_counts(
            folder,
            "redraws",
            self.sight.settler.counted(),
            lambda counts: {"settle_ms": settle_ms(*map(int, counts))},
        )
        # from the next game on
        self.sight.settler.quiet = min(int(str(quick["settle_ms"])) / 1000, SETTLE)
        rule = check_rule(
            str(add_counts(folder, "first_clicks", self.first_clicks, first_click_rule)["rule"])
        )
        if rule != self.rule:
            print(
                f"minebot: this game's first clicks say its rule is {rule!r}: the next first click is at "
                f"{first_click(Board.covered(self.geometry.rows, self.geometry.cols), rule)}",
                file=self.out,
            )
        self.rule, self.first_clicks = rule, (0, 0, 0.0)
        add_counts(folder, "chord_tries", self.chording.saved(), chord_button)
        if self.looks.flood != 8:
            set_learnt(folder, flood=self.looks.flood)
        way = self.restarter.saved()
        if way is not None:
            set_learnt(folder, new_game=way)
        if self.mines_learnt and self.mines is not None:
            add_mines(folder, self.geometry.rows, self.geometry.cols, self.mines)
            self.mines_learnt = False
        written = self.files.save(folder, self.looks.names(), self.book.typical)
        board = (
            add_board(folder, self.new_board, self.geometry.rows, self.geometry.cols)
            if self.new_board
            else None
        )
        watch = self.sight.counter
        tried, counter = watch.over_budget, watch.learn()
        if counter is not None:
            print(f"minebot: learnt the mines counter ({counter})", file=self.out)
        elif watch.over_budget and not tried:
            print(
                f"minebot: stopped trying to learn the mines counter ({watch.spent:.1f} s of tries); "
                "going on without it",
                file=self.out,
            )
        return (
            written
            + ([board] if board else [])
            + (add_counter(folder, counter.digits, counter.settings()) if counter else [])
        )
