"""A progress line on stderr for long runs: rewritten in place, at most every so many seconds, and
only once the run has lasted that long (short runs stay quiet). Into a file or a pipe (a log) there
is no line to rewrite: only a run's last line is written, as a plain line."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressLine:
    """Timed by time.perf_counter: Windows' time.monotonic() moves in 16 ms steps, so a run's first
    seconds may read 0."""

    def __init__(
        self, label: str, every: float, stream: TextIO | None = None, terminal: bool | None = None
    ) -> None:
        self.label, self.every = label, every
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = (
            terminal
            if terminal is not None
            else bool(getattr(self.stream, "isatty", lambda: False)())
        )
        self.start = self.last = time.perf_counter()
        self.width = 0

    def due(self, final: bool = False) -> float | None:
        """The seconds since the start if a line is due now (``final``: the run's last, due
        whenever the run has been long), else None."""
        now = time.perf_counter()
        if now - self.start < self.every or (now - self.last < self.every and not final):
            return None
        self.last = now
        return now - self.start

    def show(self, text: str, end: bool = False) -> None:
        """Write ``label: text`` over the line shown before; ``end``: and leave it there. Not on a
        terminal: only an ``end`` line, plain."""
        line = f"{self.label}: {text}"
        if not self.terminal:
            if end:
                print(line, file=self.stream, flush=True)
            return
        self.width = max(self.width, len(line))
        print(f"\r{line:<{self.width}}", end="\n" if end else "", file=self.stream, flush=True)
        if end:
            self.width = 0

    def clear(self) -> None:
        """Wipe the line (before a line of the run's own)."""
        if self.width:
            print(f"\r{'':<{self.width}}\r", end="", file=self.stream, flush=True)
            self.width = 0
