"""Every test sees only the shipped skin packs: this user's learnt packs (their data folder), their
cache folder and MINEBOT_HIDE_SKINS are replaced by empty folders of the test's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.vision.pack import _load_pack


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("minebot-data")
    monkeypatch.setenv("MINEBOT_DATA", str(folder))
    monkeypatch.setenv("MINEBOT_CACHE", str(folder / "cache"))
    monkeypatch.delenv("MINEBOT_HIDE_SKINS", raising=False)
    _load_pack.cache_clear()
    yield folder
    _load_pack.cache_clear()
