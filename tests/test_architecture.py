"""The house rules of docs/architecture.md: which modules may import which, and room sizes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[1] / "bot"
MAX_LINES = 400


def _module(path: Path) -> str:
    parts = path.relative_to(BOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The bot modules a file imports (``from bot.x import y`` counts as bot.x, and as bot.x.y
    where that is a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "bot":
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names if (BOT.parent / node.module.replace(".", "/") / f"{a.name}.py").exists())
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "bot")
    return found


MODULES = {_module(p): p for p in sorted(BOT.rglob("*.py"))}


def _allowed(module: str, imported: str, prefixes: tuple[str, ...]) -> bool:
    return imported == module or any(imported == p or imported.startswith(p + ".") for p in prefixes)


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("bot.solver")])
def test_the_solver_imports_no_screen_mouse_vision_or_simulator(module: str) -> None:
    wrong = {m for m in _imports(MODULES[module]) if not _allowed(module, m, ("bot.board", "bot.errors", "bot.vocabulary", "bot.solver"))}
    assert not wrong, f"{module} imports {sorted(wrong)}"


@pytest.mark.parametrize("module", ["bot.vocabulary", "bot.errors", "bot.capture", "bot.actuator", "bot.board", "bot.devices.windows"])
def test_the_ground_floors_import_nothing_above_them(module: str) -> None:
    ground = {"bot.vocabulary": ("bot.errors",), "bot.errors": (), "bot.capture": ("bot.errors",),
              "bot.actuator": ("bot.errors", "bot.userdata", "bot.devices"), "bot.board": ("bot.errors", "bot.vocabulary"),
              "bot.devices.windows": ("bot.errors",)}[module]
    wrong = {m for m in _imports(MODULES[module]) if not _allowed(module, m, ground)}
    assert not wrong, f"{module} imports {sorted(wrong)}"


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("bot.vision")])
def test_vision_imports_no_mouse_live_learning_or_commands(module: str) -> None:
    above = ("bot.actuator", "bot.live", "bot.guard", "bot.learn", "bot.sight", "bot.outcome", "bot.restart", "bot.commands", "bot.watch",
             "bot.cli", "bot.play", "bot.games")
    wrong = {m for m in _imports(MODULES[module]) if _allowed(module, m, above)}
    assert not wrong, f"{module} imports {sorted(wrong)}"


def test_the_commands_that_never_click_import_no_mouse() -> None:
    clicking = ("bot.actuator", "bot.live", "bot.guard", "bot.learn", "bot.sight", "bot.restart", "bot.commands", "bot.games")
    wrong = {m for m in _imports(MODULES["bot.watch"]) if _allowed("bot.watch", m, clicking)}
    assert not wrong, f"bot.watch imports {sorted(wrong)}"


def test_no_module_is_over_400_lines() -> None:
    big = {m: n for m, p in MODULES.items() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not big, f"over {MAX_LINES} lines: {big}"


def test_the_rules_catch_a_wrong_import(tmp_path: Path) -> None:
    """The checker itself: a solver file importing the simulator is caught."""
    path = tmp_path / "bad.py"
    path.write_text("from bot.sim import Game\nfrom bot.vision import read\n")
    assert {m for m in _imports(path) if not _allowed("bot.solver.bad", m, ("bot.board", "bot.solver"))} == {"bot.sim", "bot.vision"}


def test_every_package_is_installed() -> None:
    """pyproject.toml lists the packages `pip install .` copies: bot/devices/ was left out of it
    when it was made, and an installed minebot could not import its actuator."""
    import re

    text = (BOT.parent / "pyproject.toml").read_text()  # no tomllib: Python 3.10 runs minebot too
    listed = set(re.findall(r'"([\w.-]+)"', text.partition("packages = [")[2].partition("]")[0]))
    packages = {_module(p) for p in BOT.rglob("__init__.py")}
    assert packages <= listed, f"not in pyproject.toml's packages: {sorted(packages - listed)}"
