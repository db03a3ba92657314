"""Every test sees only the shipped skin packs: this user's learnt packs (their data folder), their
cache folder and MINEBOT_HIDE_SKINS are replaced by empty folders of the test's own."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.vision.pack import _load_pack
from tests.figures import FIGURES


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The figures measured on real games (tests/figures.py), together at the end."""
    if FIGURES:
        terminalreporter.section("figures measured")
        for line in FIGURES:
            terminalreporter.write_line(line)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under Windows (the Windows tier: scripts/test-windows) the end-to-end tests skip: they drive
    real games on Xvfb from Linux, the Windows ones included (tests/test_windows.py)."""
    if sys.platform != "win32":
        return
    skip = pytest.mark.skip(
        reason="end to end: run from Linux, which starts Xvfb, the games and Windows Python under Wine"
    )
    for item in items:
        if item.get_closest_marker("e2e"):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _own_data_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("minebot-data")
    monkeypatch.setenv("MINEBOT_DATA", str(folder))
    monkeypatch.setenv("MINEBOT_CACHE", str(folder / "cache"))
    monkeypatch.delenv("MINEBOT_HIDE_SKINS", raising=False)
    _load_pack.cache_clear()
    yield folder
    _load_pack.cache_clear()
