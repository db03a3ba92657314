"""One base error for everything minebot reports to a user.

Each message names what was seen and what to do next, on one line of at most MESSAGE_CHARS
characters; what was measured on the way (scores, what was tried, where the screen was saved) is
its ``detail``, which the command line prints under ``--verbose``.
"""

from __future__ import annotations

MESSAGE_CHARS = 200


class MinebotError(Exception):
    """Base of every error minebot raises on purpose."""

    def __init__(self, message: str, *, detail: str = "", what: str = "") -> None:
        super().__init__(message)
        self.detail = detail
        self._what = what

    @property
    def what(self) -> str:
        """What was found, without what to do about it (the message's first part), for an error
        that says it again with other advice."""
        return self._what or str(self)

    @property
    def whole(self) -> str:
        """The message with its detail, for an error that carries this one in its own detail."""
        return f"{self} ({self.detail})" if self.detail else str(self)


class BoardTextError(MinebotError, ValueError):
    """Board text that cannot be parsed; the message names line and column."""


class InconsistentBoard(MinebotError, ValueError):
    """A board whose numbers, flags and mine count cannot all be true at once; ``cells``: the
    (row, col) of the numbers that contradict, where known; ``count``: whether it is the mine
    count that does not fit (the numbers alone would)."""

    def __init__(
        self,
        message: str,
        cells: tuple[tuple[int, int], ...] = (),
        *,
        count: bool = False,
        detail: str = "",
    ) -> None:
        super().__init__(message, detail=detail)
        self.cells, self.count = cells, count


class LayoutFileError(MinebotError, ValueError):
    """A layouts file that does not follow the documented format."""


class UsageError(MinebotError, ValueError):
    """A request that makes no sense (unknown level, strategy, cell outside the board)."""


class InputFileError(MinebotError):
    """A file the user named that cannot be read (missing, a folder, not text): the run failed
    (exit 1), as opposed to a request that makes no sense (UsageError, exit 2)."""


class OutputError(MinebotError):
    """A file minebot was asked to write that could not be written (a full disk, a folder gone)."""


class LabelFileError(MinebotError, ValueError):
    """A ``.board`` file (a screenshot's true board) that does not follow the documented format."""


class SkinPackError(MinebotError):
    """A skin pack in templates/ that is missing or broken."""


class VisionError(MinebotError):
    """A screenshot that cannot be read: no board, a cell that matches no tile, a board at odds with itself."""


class NoBoardFound(VisionError):
    """No skin's board was found in the image; ``tried``: how near each pack came where a lattice
    showed the board (``"NAME@SCALE: ..."``), as the detail says too."""

    def __init__(
        self, message: str, *, detail: str = "", what: str = "", tried: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message, detail=detail, what=what)
        self.tried = tried


class NoPackReads(NoBoardFound):
    """A lattice shows a board that no pack reads (a game new to minebot, or a scaled picture)."""


class CutBoard(NoBoardFound):
    """A board that runs on past the picture's edge: any reading of it would be a part."""


class UnreadableCell(VisionError):
    """A cell whose picture matches no tile of the skin (``skin``, where known), its middle ``at`` (x, y) where known."""

    def __init__(
        self,
        message: str,
        skin: str | None = None,
        *,
        detail: str = "",
        what: str = "",
        at: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(message, detail=detail, what=what)
        self.skin, self.at = skin, at


class ImpossibleReading(UnreadableCell):
    """A reading no game can show (a 0 beside a covered cell): something drawn over a cell for a moment."""


class ScreenError(MinebotError):
    """The live screen cannot be used: no display, Wayland, the window moved or closed, the user took the mouse."""


class StaleCheck(ScreenError):
    """A press not sent: the check of the board it rests on is older than a click may trust (the
    process was paused or slow in between). The board is checked again before any press."""


class BoardCutOff(ScreenError):
    """A board on screen that is not all in view: its cells run on past the screen's edge on
    ``sides``, or something covers a part of it. Any play of it would be a play of a part."""

    def __init__(self, message: str, sides: tuple[str, ...] = (), *, detail: str = "") -> None:
        super().__init__(message, detail=detail)
        self.sides = sides


class BoardGone(ScreenError):
    """The board is no longer where it was read: the window moved, closed or is covered, or the skin
    pack no longer reads it."""


class ClicksIgnored(ScreenError):
    """Cells clicked still look as they did: the game ignores the clicks (paused, covered, or over)."""


class FirstClickIgnored(ClicksIgnored):
    """A game's first click changed nothing: the game on screen may be over (a run started on a
    finished game), or wait behind an end of its own."""


class CoverUndecided(ScreenError):
    """A new game's board opened by the game itself reads two ways by the rules: either of two looks
    may be the covered one (``options``)."""

    def __init__(self, message: str, options: list[int]) -> None:
        super().__init__(message)
        self.options = options
