"""What the user can do with a session beyond reading it: copy, resume, export, page."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from textual.app import App, SuspendNotSupported

from claude_tui.core.sanitize import visible_controls_but_sgr
from claude_tui.core.session import Session


def resume_command(session: Session) -> str:
    """`cd <cwd> && claude --resume <id>`: how to carry on with this session in Claude Code."""
    cwd = session.project_path
    resume = f"claude --resume {shlex.quote(session.id)}"
    if not cwd:
        return resume
    option_like = "-- " if cwd.startswith("-") else ""  # cd would take `-x/y` for an option
    return f"cd {option_like}{shlex.quote(cwd)} && {resume}"


def export_path(session: Session, fmt: str, folder: Path | None = None) -> Path:
    """Where an export goes by default: `<id>.md` or `<id>.html` in the current folder."""
    suffix = {"markdown": "md", "html": "html", "json": "json"}[fmt]
    return (folder or Path.cwd()) / f"{session.id}.{suffix}"


def open_in_pager(app: App[object], text: str) -> None:
    """Show `text` in $PAGER (less by default), the app suspended meanwhile; a pager that cannot be
    run is said in a notice, the app resumed (an error inside `suspend` would leave the screen blank)."""
    setting = os.environ.get("PAGER") or "less -R"
    try:
        command = shlex.split(setting)
    except ValueError as exc:  # unbalanced quotes
        command, problem = [], str(exc)
    else:
        problem = "empty" if not command else "" if shutil.which(command[0]) else f"no program {command[0]!r}"
    if problem:
        app.notify(f"Cannot open the pager $PAGER={setting!r}: {problem}", severity="warning", markup=False)
        return
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8", errors="replace") as f:
        f.write(visible_controls_but_sgr(text))  # colours for `less -R`; no escape that acts (links, titles)
        name = f.name
    failed: Exception | None = None
    try:
        with app.suspend():
            try:
                subprocess.run([*command, name], check=False)
            except OSError as exc:  # found, but cannot be run
                failed = exc
    except SuspendNotSupported as exc:  # tests, the web
        failed = exc
    finally:
        os.unlink(name)
    if failed is not None:
        app.notify(f"Cannot open the pager: {failed}", severity="warning", markup=False)
