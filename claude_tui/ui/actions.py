"""What the user can do with a session beyond reading it: export, page, run a program in the terminal."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from textual.app import App, SuspendNotSupported

from claude_tui.core.sanitize import visible_controls_but_sgr
from claude_tui.core.session import Session


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
    try:
        ran = run_in_terminal(app, [*command, name])
    finally:
        os.unlink(name)
    if isinstance(ran, Exception):
        app.notify(f"Cannot open the pager: {ran}", severity="warning", markup=False)


def run_in_terminal(app: App[Any], argv: list[str], cwd: str | None = None) -> int | Exception:
    """Run `argv` (in folder `cwd`) with the terminal handed over, the app suspended meanwhile: its exit status, or
    what kept it from running. A ctrl+c typed to the program is its own: the app sits it out."""
    ran: int | Exception
    try:
        with app.suspend(), _sitting_out_sigint():
            try:
                ran = subprocess.run(argv, cwd=cwd, check=False).returncode
            except OSError as exc:  # found, but cannot be run
                ran = exc
    except SuspendNotSupported as exc:  # tests, the web
        ran = exc
    return ran


@contextmanager
def _sitting_out_sigint() -> Iterator[None]:
    """SIGINT (ctrl+c typed to the program that has the terminal) is that program's: the app ignores it meanwhile
    with a handler, not SIG_IGN, which the program would inherit. (Only the main thread may set one.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: None)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)  # None: set outside Python
