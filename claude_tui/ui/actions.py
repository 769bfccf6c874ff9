"""What the user can do with a session beyond reading it: copy, resume, export, page."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path

from textual.app import App

from claude_tui.core.session import Session


def resume_command(session: Session) -> str:
    """`cd <cwd> && claude --resume <id>`: how to carry on with this session in Claude Code."""
    cwd = session.project_path
    resume = f"claude --resume {shlex.quote(session.id)}"
    return f"cd {shlex.quote(cwd)} && {resume}" if cwd else resume


def plan_path(roots: list[Path], slug: str) -> Path | None:
    """The plan file of a plan-mode `slug`: `plans/<slug>.md` beside a projects root."""
    for root in roots:
        path = root.parent / "plans" / f"{slug}.md"
        if path.is_file():
            return path
    return None


def export_path(session: Session, fmt: str, folder: Path | None = None) -> Path:
    """Where an export goes by default: `<id>.md` or `<id>.html` in the current folder."""
    suffix = {"markdown": "md", "html": "html", "json": "json"}[fmt]
    return (folder or Path.cwd()) / f"{session.id}.{suffix}"


def open_in_pager(app: App[object], text: str) -> None:
    """Show `text` in $PAGER (less by default), the app suspended meanwhile."""
    pager = os.environ.get("PAGER") or "less -R"
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write(text)
        name = f.name
    try:
        with app.suspend():
            subprocess.run([*shlex.split(pager), name], check=False)
    except Exception as exc:  # SuspendNotSupported (tests, web), or no such pager
        app.notify(f"Cannot open the pager: {exc}", severity="warning", markup=False)
    finally:
        os.unlink(name)
