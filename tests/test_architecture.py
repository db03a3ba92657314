"""The house rules of docs/architecture.md: the rooms (bot/'s packages), which may import which, and their sizes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[1] / "bot"
# a module past this has outgrown one meaning: split it where its meaning splits, not to meet the count
MAX_LINES = 600


def _module(path: Path) -> str:
    parts = path.relative_to(BOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The bot modules a file imports: ``from bot.x import y`` counts as bot.x.y where that is a
    module or a package, else as bot.x."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "bot":
            folder = BOT.parent / node.module.replace(".", "/")
            inner = {
                f"{node.module}.{a.name}"
                for a in node.names
                if (folder / f"{a.name}.py").exists() or (folder / a.name).is_dir()
            }
            found.update(inner if len(inner) == len(node.names) else inner | {node.module})
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "bot")
    return found


MODULES = {_module(p): p for p in sorted(BOT.rglob("*.py"))}


def _allowed(module: str, imported: str, prefixes: tuple[str, ...]) -> bool:
    return imported == module or any(
        imported == p or imported.startswith(p + ".") for p in prefixes
    )


# The rooms of the house, floor by floor from the ground up: a module imports only from its own
# room and from rooms on lower floors. A room is a package of bot/ or a module at its top level.
FLOORS = (
    ("bot.errors",),
    ("bot.userdata", "bot.progress"),  # where a user's files go and how they are written
    ("bot.vocabulary", "bot.devices"),  # the devices: screen, mouse, the user's input
    ("bot.board",),
    ("bot.solver",),
    ("bot.vision", "bot.play"),
    ("bot.sim", "bot.live", "bot.files", "bot.games"),
    ("bot.learning",),
    ("bot.commands",),
    ("bot.cli",),
    ("bot.__main__",),
)
FLOOR = {room: n for n, rooms in enumerate(FLOORS) for room in rooms}
MAX_TOP_LEVEL = 12


def _room(module: str) -> str:
    return ".".join(module.split(".")[:2])


@pytest.mark.parametrize("module", list(MODULES))
def test_a_module_imports_only_its_own_room_and_the_floors_below(module: str) -> None:
    assert _room(module) in FLOOR or module == "bot", (
        f"{module}: a room of no floor; add it to FLOORS and docs/architecture.md"
    )
    wrong = _upward(module, _imports(MODULES[module]))
    assert not wrong, f"{module} imports {sorted(wrong)} from its own floor or above"


def _upward(module: str, imports: set[str]) -> set[str]:
    floor = FLOOR.get(_room(module), len(FLOORS))
    return {
        m
        for m in imports
        if _room(m) != _room(module) and FLOOR.get(_room(m), len(FLOORS)) >= floor
    }


def test_no_room_has_an_import_circle() -> None:
    """Inside a room the floor rule says nothing: its modules must still not import each other in a circle."""
    graph = {m: {i for i in _imports(p) if i in MODULES and i != m} for m, p in MODULES.items()}
    assert _circle(graph) == [], f"import circle: {' -> '.join(_circle(graph))}"
    # the finder finds one
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [
        "a",
        "b",
        "c",
        "a",
    ]


def _circle(graph: dict[str, set[str]]) -> list[str]:
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return path[path.index(module) :] + [module]
        if module not in done:
            for imported in sorted(graph[module]):
                if found := visit(imported, path + [module]):
                    return found
            done.add(module)
        return []

    return next((found for module in sorted(graph) if (found := visit(module, []))), [])


def test_each_stage_has_a_room_and_few_modules_stand_at_the_top() -> None:
    top = [m for m, p in MODULES.items() if p.parent == BOT]
    assert len(top) <= MAX_TOP_LEVEL, f"{len(top)} modules at bot/'s top level: {sorted(top)}"


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("bot.solver")])
def test_the_solver_imports_no_screen_mouse_vision_or_simulator(module: str) -> None:
    wrong = {
        m
        for m in _imports(MODULES[module])
        if not _allowed(module, m, ("bot.board", "bot.errors", "bot.vocabulary", "bot.solver"))
    }
    assert not wrong, f"{module} imports {sorted(wrong)}"


@pytest.mark.parametrize(
    "module",
    [
        m
        for m in MODULES
        if m.startswith(("bot.devices", "bot.vocabulary", "bot.errors", "bot.board"))
    ],
)
def test_the_devices_and_the_values_import_no_stage_above_them(module: str) -> None:
    ground = (
        ("bot.errors", "bot.vocabulary", "bot.userdata")
        if module.startswith("bot.devices")
        else ("bot.errors", "bot.vocabulary")
    )
    wrong = {
        m for m in _imports(MODULES[module]) if not _allowed(module, m, ground + (_room(module),))
    }
    assert not wrong, f"{module} imports {sorted(wrong)}"


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("bot.vision")])
def test_vision_imports_no_device(module: str) -> None:
    """Vision reads pixels it is given: no screen grab, no mouse (and, by the floors, no live, learning or command code)."""
    wrong = {m for m in _imports(MODULES[module]) if _allowed(module, m, ("bot.devices",))}
    assert not wrong, f"{module} imports {sorted(wrong)}"


def test_the_commands_that_never_click_import_no_mouse() -> None:
    clicking = ("bot.devices.actuator", "bot.live.table", "bot.live.place", "bot.live.guard")
    wrong = {
        m for m in _imports(MODULES["bot.live.watch"]) if _allowed("bot.live.watch", m, clicking)
    }
    assert not wrong, f"bot.live.watch imports {sorted(wrong)}"


def test_no_module_is_over_600_lines() -> None:
    big = {m: n for m, p in MODULES.items() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not big, f"over {MAX_LINES} lines: {big}"


def test_the_rules_catch_a_wrong_import(tmp_path: Path) -> None:
    """The checker itself: a solver file importing the simulator is caught, and a vision file
    importing the live table or a room on its own floor."""
    path = tmp_path / "bad.py"
    path.write_text("from bot.sim.game import Game\nfrom bot.vision import read\n")
    assert {
        m for m in _imports(path) if not _allowed("bot.solver.bad", m, ("bot.board", "bot.solver"))
    } == {"bot.sim.game", "bot.vision"}
    path.write_text(
        "from bot import play\nfrom bot.live.table import LiveTable\nfrom bot.solver import solve\nfrom bot.vision import grid\n"
    )
    assert _upward("bot.vision.bad", _imports(path)) == {"bot.play", "bot.live.table"}


def test_every_package_is_installed() -> None:
    """pyproject.toml lists the packages `pip install .` copies: bot/devices/ was left out of it
    when it was made, and an installed minebot could not import its actuator."""
    import re

    text = (BOT.parent / "pyproject.toml").read_text()  # no tomllib: Python 3.10 runs minebot too
    listed = set(re.findall(r'"([\w.-]+)"', text.partition("packages = [")[2].partition("]")[0]))
    packages = {_module(p) for p in BOT.rglob("__init__.py")}
    assert packages <= listed, f"not in pyproject.toml's packages: {sorted(packages - listed)}"
