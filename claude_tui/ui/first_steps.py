"""The five things a newcomer does first: the top of `claude-tui --help` and of the help screen (`?`).

No Textual here: `--help` shows them without loading the app."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.text import Text

#: What to do, the bindings that do it (by id) and how, a `{}` for each binding's key.
STEPS = (
    ("Open a session", ("sessions.open",), "{} on a session in the list; Tab moves between the panes"),
    ("Search all", ("app.search_all",), "{} and type words; Enter opens a hit in its session"),
    ("Follow live", ("app.follow",), "{} follows the open session as it is written (or --follow)"),
    ("Filter, jump", ("app.filter",), "type in a list to filter it (or {}); ctrl+p jumps by name"),
    (
        "Resume, export",
        ("app.resume", "app.copy_resume", "app.export"),
        "{} resumes it in Claude Code, {} copies the command; {} exports",
    ),
)

#: The keys of those bindings before any remap, as `--help` names them (the help screen shows the user's).
DEFAULT_KEYS = {
    "sessions.open": "Enter",
    "app.search_all": "ctrl+k",
    "app.follow": "L",
    "app.filter": "/",
    "app.resume": "R",
    "app.copy_resume": "Y",
    "app.export": "x",
}


def first_steps(key: Callable[[str], str] = DEFAULT_KEYS.__getitem__) -> list[tuple[str, str]]:
    """(what, how) for each step, with the key `key` names for each binding id."""
    return [(what, how.format(*map(key, ids))) for what, ids, how in STEPS]


def first_steps_text(key: Callable[[str], str] = DEFAULT_KEYS.__getitem__) -> str:
    """The steps as lines of text, under a heading."""
    steps = first_steps(key)
    width = max(len(what) for what, _ in steps)
    return "first steps (claude-tui --demo to try them):\n" + "\n".join(
        f"  {what:<{width}}  {how}" for what, how in steps
    )


def no_history_page(roots: list[Path], notices: list[str]) -> Text:
    """The first-run page: where claude-tui looked, and what the look found wrong (a folder one level off)."""
    from rich.text import Text

    where = "\n".join(f"    {root}" for root in roots)
    hints = "".join(f"{notice}\n\n" for notice in notices)
    return Text.assemble(
        ("No Claude Code history here yet\n\n", "bold"),
        ("claude-tui looked for session files (*.jsonl) in:\n", ""),
        (where + "\n\n", "bold"),
        (hints, "bold yellow"),
        ("Claude Code writes one folder per project there as you use it.\n", "dim"),
        ("Point claude-tui elsewhere with ", "dim"),
        ("--projects-dir DIR", "bold"),
        (" (repeatable) or ", "dim"),
        ("CLAUDE_CONFIG_DIR", "bold"),
        (",\n", "dim"),
        ("or look around a made-up history with ", "dim"),
        ("claude-tui --demo", "bold"),
        (".\n\n", "dim"),
        ("q quits · ctrl+r looks again", "dim"),
    )
