"""The named strategies. Each can be benchmarked alone; ``best`` is the default.

Every strategy opens a fresh board with a first click and then applies the single-point
rules; they differ in what they do when those are stuck:

=============  ==============================================================================
sps            nothing: stuck means the game is given up (counted as a loss)
sps-random     a random unknown cell
sps-neighbour  a random unknown cell next to a number (random if there is none)
sps-corner     a random unknown corner, then random
hints          set reasoning over overlapping rules, then a random guess
hypotheses     assume mine / safe per cell and propagate; then a random guess
groups         the group-probability approximation; guess the lowest
best           exact probabilities with the global mine count; look-ahead guess choice
=============  ==============================================================================
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod

import numpy as np

from bot.board import Board
from bot.errors import InconsistentBoard, UsageError
from bot.solver import approx, deduce, endgame, exact, guess
from bot.solver.analysis import Analysis, Move
from bot.solver.rules import Problem, problem, single_point
from bot.vocabulary import COVERED, EXPLODED, MINE, Cell, FirstClickRule, kept_clear


class Strategy(ABC):
    name: str = ""
    random_first_click = False

    def analyse(
        self,
        board: Board,
        rule: FirstClickRule = "safe",
        rng: np.random.Generator | None = None,
        full: bool = False,
        flags_first: bool = False,
    ) -> Analysis:
        """Certain cells, probabilities (where the strategy has them) and the move to make.

        With ``full`` False the strategy may stop once it found certain safe cells (what the play
        loop needs); ``deeper`` is asked even where the single-point rules found some, so that a
        strategy whose next rules are cheap runs them first (best's pairs: the single-point rules
        alone leave cells those see at once, and each left costs the play loop another
        click-and-read round; Expert, simulated: 47 decisions a won game against 29). With ``full``
        True it reports everything it can. With
        ``flags_first`` the caller flags the certain mines it is told of and asks again before it
        guesses: where some are not flagged yet and no cell is safe, no guess is worked out.
        """
        rng = rng if rng is not None else np.random.default_rng()
        if np.isin(board.cells, (MINE, EXPLODED)).any():
            return self._result(
                set(), set(), None, note="the game is over (a mine is shown): no move"
            )
        if board.is_fresh():
            return self._first(board, rule, rng)
        try:
            safe, mines = single_point(board)
            return self.deeper(board, safe, mines, rng, full, flags_first)
        except InconsistentBoard as exc:
            if board.mines is not None and not exc.count and _fits_without_count(board):
                raise InconsistentBoard(
                    f"the numbers fit, but not with {board.mines} mines in all ({board.flags()} flagged); check the mine count",
                    count=True,
                ) from exc
            raise

    @abstractmethod
    def deeper(
        self,
        board: Board,
        safe: set[Cell],
        mines: set[Cell],
        rng: np.random.Generator,
        full: bool,
        flags_first: bool = False,
    ) -> Analysis:
        """Everything after the single-point rules."""

    def _first(self, board: Board, rule: FirstClickRule, rng: np.random.Generator) -> Analysis:
        """A board with every cell covered: the first click, and every cell's chance of a mine once
        the game has laid them by its rule (none under the click where the rule keeps it clear)."""
        cells = board.unknown()
        if board.mines is not None and board.mines > len(cells):
            raise InconsistentBoard(
                f"{board.mines} mines do not fit on a board of {len(cells)} cells; check the mine count",
                count=True,
            )
        if board.mines == len(cells):
            return self._result(set(), set(cells), None, note="stuck: every cell is a mine")
        if board.mines == 0:
            return self._result(set(cells), set(), _reveal(set(cells)))
        cell = (
            _random_cell(cells, rng) if self.random_first_click else guess.first_click(board, rule)
        )
        clear = kept_clear(board.shape, cell, rule, board.mines or 0)
        grid = np.full(board.shape, np.nan)
        if board.mines is not None:
            grid[~clear] = board.mines / int((~clear).sum())
            grid[clear] = 0.0
        return self._result(
            set(),
            set(),
            Move(cell, probability=float(grid[cell]), reason="first"),
            probabilities=grid,
        )

    def _result(
        self, safe: set[Cell], mines: set[Cell], move: Move | None, **kw: object
    ) -> Analysis:
        return Analysis(frozenset(safe), frozenset(mines), move, strategy=self.name, **kw)  # type: ignore[arg-type]


def _reveal(safe: set[Cell]) -> Move:
    return Move(min(safe))


def _fits_without_count(board: Board) -> bool:
    """Whether some mine layout fits the numbers and flags, whatever the mine count (False where
    that is too much work to tell)."""
    try:
        exact.probabilities(problem(Board(board.cells, None)), budget=exact.Budget())
    except (InconsistentBoard, exact.TooComplex):
        return False
    return True


def _random_cell(cells: list[Cell], rng: np.random.Generator) -> Cell:
    return cells[int(rng.integers(len(cells)))]


class SinglePoint(Strategy):
    """``sps`` and its guessing variants."""

    def __init__(self, name: str, guess_with: str | None) -> None:
        self.name = name
        self.guess_with = guess_with
        self.random_first_click = guess_with != "corner"

    def deeper(
        self,
        board: Board,
        safe: set[Cell],
        mines: set[Cell],
        rng: np.random.Generator,
        full: bool,
        flags_first: bool = False,
    ) -> Analysis:
        if safe:
            return self._result(safe, mines, _reveal(safe))
        unknown = [c for c in board.unknown() if c not in mines]
        if self.guess_with is None or not unknown:
            return self._result(safe, mines, None, note="stuck: no certain safe cell")
        pool = unknown
        if self.guess_with == "neighbour":
            near = [c for c in unknown if any(board[nb] >= 0 for nb in board.neighbours(c))]
            pool = near or unknown
        elif self.guess_with == "corner":
            last_r, last_c = board.rows - 1, board.cols - 1
            corners = [
                c for c in unknown if c in {(0, 0), (0, last_c), (last_r, 0), (last_r, last_c)}
            ]
            pool = corners or unknown
        return self._result(
            safe, mines, Move(_random_cell(pool, rng), reason="guess", probability=float("nan"))
        )


class Deductive(Strategy):
    """``hints`` and ``hypotheses``: certain cells by reasoning, otherwise a random guess."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.method = deduce.hints if name == "hints" else deduce.hypotheses

    def deeper(
        self,
        board: Board,
        safe: set[Cell],
        mines: set[Cell],
        rng: np.random.Generator,
        full: bool,
        flags_first: bool = False,
    ) -> Analysis:
        if safe and not full:  # its own rules only past the single-point ones (hypotheses are dear)
            return self._result(safe, mines, _reveal(safe))
        p = problem(board)
        s, m = self.method(p)
        safe |= set(p.cells_of(s))
        mines |= set(p.cells_of(m))
        if safe:
            return self._result(safe, mines, _reveal(safe))
        unknown = [c for c in p.cells if c not in mines]
        if not unknown:
            return self._result(safe, mines, None, note="stuck: every unknown cell is a mine")
        return self._result(
            safe, mines, Move(_random_cell(unknown, rng), reason="guess", probability=float("nan"))
        )


def _grid(board: Board, p: Problem, prob: np.ndarray) -> np.ndarray:
    grid = np.full(board.shape, np.nan)
    for cell, value in zip(p.cells, prob):
        grid[cell] = value
    return grid


class Groups(Strategy):
    name = "groups"

    def deeper(
        self,
        board: Board,
        safe: set[Cell],
        mines: set[Cell],
        rng: np.random.Generator,
        full: bool,
        flags_first: bool = False,
    ) -> Analysis:
        if safe:
            return self._result(safe, mines, _reveal(safe))
        p = problem(board)
        prob = approx.group_probabilities(p)
        for cell in mines:
            prob[p.index[cell]] = 1.0
        i = int(np.argmin(prob))
        move = Move(p.cells[i], reason="guess", probability=float(prob[i]))
        return self._result(safe, mines, move, probabilities=_grid(board, p, prob), exact=False)


class Best(Strategy):
    """Exact probabilities with the global mine count, look-ahead guesses, bounded work."""

    name = "best"

    def __init__(
        self,
        budget: int = exact.DEFAULT_BUDGET,
        lookahead: bool = True,
        endgame: bool = True,
        name: str = "best",
        **guess_options: float | int | str,
    ) -> None:
        self.name = name
        self.budget = budget
        self.lookahead = lookahead
        self.endgame = endgame
        self.guess_options = guess_options

    def deeper(
        self,
        board: Board,
        safe: set[Cell],
        mines: set[Cell],
        rng: np.random.Generator,
        full: bool,
        flags_first: bool = False,
    ) -> Analysis:
        p = problem(board)
        s, m = deduce.hints(p)
        safe |= set(p.cells_of(s))
        mines |= set(p.cells_of(m))
        if safe and not full:
            return self._result(safe, mines, _reveal(safe))
        budget = exact.Budget(self.budget)  # one allowance for the whole decision
        try:
            known = (
                sum(1 << p.index[cell] for cell in safe),
                sum(1 << p.index[cell] for cell in mines),
            )
            sol = exact.probabilities(p, deduce.settled(p.rules, *known), budget=budget)
            prob, is_exact, note = sol.probability, True, ""
            safe |= set(p.cells_of(sol.safe))
            mines |= set(p.cells_of(sol.mines))
        except exact.TooComplex:
            prob = approx.group_probabilities(p)
            is_exact = False
            note = "approximate: a frontier component is too large to enumerate in time (group method used)"
        for cell in safe:
            prob[p.index[cell]] = 0.0
        for cell in mines:
            prob[p.index[cell]] = 1.0
        grid = _grid(board, p, prob)
        if safe:
            return self._result(
                safe, mines, _reveal(safe), probabilities=grid, exact=is_exact, note=note
            )
        if all(cell in mines for cell in p.cells):
            return self._result(
                safe,
                mines,
                None,
                probabilities=grid,
                exact=is_exact,
                note="stuck: every unknown cell is a mine",
            )
        if flags_first and any(board[cell] == COVERED for cell in mines):
            # flagged, then asked again
            return self._result(safe, mines, None, probabilities=grid, exact=is_exact, note=note)
        if is_exact and self.endgame and sol.log_weight <= math.log(endgame.MAX_LAYOUTS):
            lays = endgame.layouts(p)
            if lays:
                try:
                    found = endgame.search(board, p, lays)
                    move = Move(
                        p.cells[found.index], reason="guess", probability=float(prob[found.index])
                    )
                    return self._result(
                        safe,
                        mines,
                        move,
                        probabilities=grid,
                        details={"probability": move.probability, "win": found.win},
                    )
                except endgame.SearchTooBig:
                    pass
        certain = sum(1 << p.index[cell] for cell in mines)
        forced = guess.forced_pair(board, p, certain)
        if forced is not None:
            move = Move(p.cells[forced], reason="guess", probability=float(prob[forced]))
            return self._result(
                safe,
                mines,
                move,
                probabilities=grid,
                exact=is_exact,
                note=note,
                details={"probability": 0.5, "forced": 1.0},
            )
        if is_exact:
            try:
                pseudo = guess.pseudo_pair(board, p, list(p.rules), certain, prob, budget)
            except exact.TooComplex:
                pseudo = None
            if pseudo is not None:
                move = Move(p.cells[pseudo], reason="guess", probability=float(prob[pseudo]))
                return self._result(
                    safe,
                    mines,
                    move,
                    probabilities=grid,
                    exact=is_exact,
                    note=note,
                    details={"probability": move.probability, "pseudo": 1.0},
                )
        masked = prob.copy()
        # Without the total mine count, cells touching no number get an assumed density.
        masked[np.isnan(masked)] = approx.DEFAULT_DENSITY
        masked[[p.index[cell] for cell in mines]] = np.inf
        i, details = guess.best_guess(
            board,
            p,
            list(p.rules),
            masked,
            budget,
            lookahead=self.lookahead and is_exact,
            **self.guess_options,  # type: ignore[arg-type]
        )
        move = Move(p.cells[i], reason="guess", probability=float(prob[i]))
        return self._result(
            safe, mines, move, probabilities=grid, exact=is_exact, note=note, details=details
        )


STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        SinglePoint("sps", None),
        SinglePoint("sps-random", "random"),
        SinglePoint("sps-neighbour", "neighbour"),
        SinglePoint("sps-corner", "corner"),
        Deductive("hints"),
        Deductive("hypotheses"),
        Groups(),
        Best(),
    )
}


def get_strategy(name: str) -> Strategy:
    try:
        return STRATEGIES[name]
    except KeyError:
        raise UsageError(f"strategy {name!r} is not one of {', '.join(STRATEGIES)}") from None
