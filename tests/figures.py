"""Figures the tests measure on real games (clicks after a fault, games won), printed together at the
end of the run by tests/conftest.py, so that a CI log shows them whether the tests passed or not."""

from __future__ import annotations

FIGURES: list[str] = []


def record(line: str) -> None:
    """Print ``line`` (seen with -s) and keep it for the run's summary."""
    print(line)
    FIGURES.append(line)
