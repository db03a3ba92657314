"""A newcomer's path, as the README gives it, from a clean clone of the repository (its last
commit: what is not committed is not in it): `pip install .` into a virtual environment of its
own, then `minebot --version` and `minebot replay` on a fixture; and the README's first command,
`scripts/run`, on a machine with no screen (it sets up `.venv/` and plays real winemine on a
virtual display)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.games import GAMES, installed

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (REPO / ".git").exists():
        pytest.skip("not a git repository: nothing to clone")
    where = tmp_path_factory.mktemp("newcomer") / "minebot"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(where)], check=True, timeout=300)
    return where


def test_pip_install_of_a_clone_gives_the_minebot_command(clone: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(clone)],
        check=True,
        capture_output=True,
        timeout=900,
        cwd=tmp_path,
    )
    minebot = str(venv / "bin" / "minebot")
    version = subprocess.run(
        [minebot, "--version"], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert version.returncode == 0 and version.stdout.startswith("minebot "), version.stderr
    shot = clone / "fixtures" / "winemine" / "custom-30x16-140mines-midgame.png"
    replay = subprocess.run(
        [minebot, "replay", str(shot)], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.startswith("skin winemine, 30x16,") and "move:" in replay.stdout


def test_scripts_run_plays_real_winemine_on_a_machine_with_no_screen(clone: Path) -> None:
    if not all(
        installed(p) for p in ("Xvfb", "xdotool", *GAMES["winemine"].programs)
    ) and not os.environ.get("MINEBOT_REQUIRE_E2E"):
        pytest.skip("Xvfb, xdotool or wine missing: run scripts/install-games")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "VIRTUAL_ENV")
    }
    env.update(GAMES="1", LEVEL="beginner")
    done = subprocess.run(
        [str(clone / "scripts" / "run")],
        capture_output=True,
        text=True,
        timeout=1500,
        cwd=clone,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "started winemine at beginner" in done.stderr and "game 1/1: " in done.stdout, (
        done.stderr[-2000:]
    )
    assert (clone / ".venv" / "bin" / "minebot").exists() and (
        clone / "minebot-final.png"
    ).stat().st_size > 0
