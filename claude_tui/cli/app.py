"""`claude-tui [SESSION] [--projects-dir DIR...] [--follow] [--demo]`: parse, then run the app."""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import tempfile
from pathlib import Path

from claude_tui.cli.commands import top_parser
from claude_tui.cli.common import ERROR, CommandError, add_roots, dashed_paths, takes_escapes, warn

#: The bundled demo history (its plans sit beside it in `demo/plans`).
DEMO_PROJECTS = Path(__file__).resolve().parents[1] / "demo" / "projects"
#: File times of the demo's copy (2026-01-01, before its first session): its order and its
#: live markers then come from what its records say, not from when the package was installed.
DEMO_MTIME = 1_767_225_600.0


def parser() -> argparse.ArgumentParser:
    p = top_parser()
    p.add_argument("session", nargs="?", metavar="SESSION", help="a session file, id or unique id prefix to open")
    add_roots(p)
    p.add_argument("--follow", action="store_true", help="open SESSION (or the newest session) at its end")
    p.add_argument("--demo", action="store_true", help="open a small bundled demo history (takes no --projects-dir)")
    return p


def run_app(argv: list[str]) -> int:
    """Parse `argv` and run the app; returns the exit status."""
    gc.disable()  # start-up makes many objects and little garbage: no passes before the first frame (screens/main.py)
    from claude_tui.ui.prefetch import Prefetch

    args = parser().parse_args(dashed_paths(argv))
    if args.demo and args.projects_dir:
        raise CommandError("--demo and --projects-dir cannot go together: the demo is a history of its own")
    streams = (("stdin", sys.stdin), ("stdout", sys.stdout))
    if not_one := next((name for name, stream in streams if not stream.isatty()), None):
        warn(f"the app needs a terminal ({not_one} is not one); for scripts see search, stats and export")
        return ERROR
    if not takes_escapes(sys.stdout):
        warn(
            "the app needs a terminal that takes escape sequences (TERM is dumb);"
            " for scripts see search, stats and export"
        )
        return ERROR
    demo = demo_roots() if args.demo else None
    prefetch = Prefetch(lambda: demo or _roots(args))  # first of all: see prefetch.py
    from claude_tui.core.files import SessionNotFound, find_session

    roots = demo or _roots(args)
    session = None
    if args.session is not None:
        try:
            session = find_session(args.session, roots)
        except SessionNotFound as exc:
            warn(str(exc))
            return ERROR
    from claude_tui.ui.app import ClaudeTUI
    from claude_tui.ui.config import load_config

    app = ClaudeTUI(roots, session=session, follow=args.follow, config=load_config(), prefetch=prefetch)
    app.run()
    return app.return_code or 0


def _roots(args: argparse.Namespace) -> list[Path]:
    from claude_tui.core.files import default_roots

    return default_roots(args.projects_dir)


def demo_roots() -> list[Path]:
    """The demo history, copied afresh to one temporary folder per user with old file times
    (a fresh install's file times would make every session look live, in no order)."""
    target = Path(tempfile.gettempdir()) / f"claude-tui-demo-{os.getuid() if hasattr(os, 'getuid') else 0}"
    try:
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(DEMO_PROJECTS, target / "projects")
        shutil.copytree(DEMO_PROJECTS.parent / "plans", target / "plans")
        for path in target.rglob("*"):
            os.utime(path, (DEMO_MTIME, DEMO_MTIME))
    except OSError:
        return [DEMO_PROJECTS]
    return [target / "projects"]
