"""The README and docs/ stay short, linked and true to the command line: a link to a page or a heading that
is gone, or an option `--help` names that docs/cli.md does not, fails here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CLI_PAGE = ROOT / "docs" / "cli.md"


def anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {anchor(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}


def help_text(*words: str) -> str:
    run = [sys.executable, "-m", "claude_tui", *words, "--help"]
    return subprocess.run(run, capture_output=True, text=True, check=True, cwd=ROOT, timeout=60).stdout


def test_the_readme_is_at_most_200_lines() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_between_the_pages_leads_somewhere(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    links = [link for link in re.findall(r"\]\(([^)\s]+)\)", text) if "://" not in link]
    for link in links:
        path, _, heading = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert target.exists(), f"{page.name}: {link}"
        assert not heading or heading in anchors(target), f"{page.name}: {link}"


def test_the_cli_page_names_every_subcommand_and_every_option() -> None:
    page = CLI_PAGE.read_text(encoding="utf-8")
    sections = {anchor(h): body for h, body in re.findall(r"^## ([^\n]+)\n(.*?)(?=^## |\Z)", page, flags=re.M | re.S)}
    shared = sections["what-every-command-shares"]
    listed = re.search(r"Subcommands: ([\w, ]+)", " ".join(help_text().split()))
    assert listed is not None
    commands = listed.group(1).strip().split(", ")
    assert {"stats", "export", "index", "search", "usage"} <= set(commands)
    for command in ["", *commands]:
        text = help_text(command) if command else help_text()
        section = next(body for name, body in sections.items() if name.startswith(command or "the-app"))
        options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text)) - {"--help", "--projects-dir"}
        choices = {c for group in re.findall(r"\{([\w,]+)\}", text) for c in group.split(",")}
        missing = [word for word in options | choices if word not in section and word not in shared]
        assert not missing, f"docs/cli.md says nothing of {command or 'the app'}'s {', '.join(sorted(missing))}"
