"""The README stays a user's page: short, its links alive, its commands real (issue 46)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli import _parser

REPO = Path(__file__).resolve().parents[1]
README_BYTES = 16_000  # the history of measurements goes to docs/measurements.md, not here
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def test_the_readme_stays_short() -> None:
    size = len((REPO / "README.md").read_bytes())
    assert size <= README_BYTES, (
        f"README.md is {size} bytes: move measurements to docs/measurements.md"
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text())
    dead = [
        link
        for link in links
        if not link.startswith(("http://", "https://")) and not (page.parent / link).exists()
    ]
    assert not dead, f"{page.name} links to {dead}"


def test_every_command_the_readme_names_exists() -> None:
    commands = set(_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    named = set(re.findall(r"`minebot ([a-z][a-z-]*)", (REPO / "README.md").read_text()))
    assert named and named <= commands, (
        f"the README names {sorted(named - commands)}, not minebot commands"
    )


def test_the_readme_has_a_users_sections_and_no_diary() -> None:
    """What a user looks for, in order: install (on each system), a first run, the commands, how it
    works, the figures; and no dated log of measurements (it grew back into one before: 39 dated
    entries, 65 KB)."""
    text = (REPO / "README.md").read_text()
    sections = re.findall(r"^## (.+)$", text, re.M)
    wanted = ["Install", "First run", "Commands", "How it works", "Figures"]
    assert [s for s in sections if s in wanted] == wanted, sections
    install = text.partition("## Install")[2].partition("\n## ")[0]
    assert all(f"**{system}**" in install for system in ("Windows", "Linux", "macOS")), (
        "install on each system"
    )
    assert len(re.findall(r"\b20\d\d-\d\d-\d\d\b", text)) <= 3, (
        "dated measurements go to docs/measurements.md"
    )
