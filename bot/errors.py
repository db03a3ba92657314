"""One base error for everything minebot reports to a user.

Each message names what was seen and what to do next, on one line.
"""

from __future__ import annotations


class MinebotError(Exception):
    """Base of every error minebot raises on purpose."""


class BoardTextError(MinebotError, ValueError):
    """Board text that cannot be parsed; the message names line and column."""


class InconsistentBoard(MinebotError, ValueError):
    """A board whose numbers, flags and mine count cannot all be true at once."""


class LayoutFileError(MinebotError, ValueError):
    """A layouts file that does not follow the documented format."""


class UsageError(MinebotError, ValueError):
    """A request that makes no sense (unknown level, strategy, cell outside the board)."""
