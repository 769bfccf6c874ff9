"""`claude-tui [SESSION] [--projects-dir DIR...] [--follow] [--demo]`: parse, then run the app."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: The bundled demo history (its plans sit beside it in `demo/plans`).
DEMO_PROJECTS = Path(__file__).resolve().parents[1] / "demo" / "projects"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="claude-tui",
        description="Browse, follow and search Claude Code history. Subcommands: stats, export (claude-tui COMMAND "
        "--help).",
    )
    p.add_argument("session", nargs="?", metavar="SESSION", help="a session file, id or unique id prefix to open")
    p.add_argument(
        "--projects-dir",
        action="append",
        metavar="DIR",
        help="a Claude Code projects folder (repeatable; default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)",
    )
    p.add_argument("--follow", action="store_true", help="open SESSION (or the newest session) at its end")
    p.add_argument("--demo", action="store_true", help="open a small bundled demo history")
    p.add_argument("--version", action="version", version=_version())
    return p


def _version() -> str:
    from claude_tui import __version__

    return f"claude-tui {__version__}"


def run_app(argv: list[str]) -> int:
    """Parse `argv` and run the app; returns the exit status."""
    from claude_tui.ui.prefetch import Prefetch

    args = parser().parse_args(argv)
    prefetch = Prefetch(lambda: _roots(args))  # first of all: see prefetch.py
    from claude_tui.core.files import SessionNotFound, find_session

    roots = _roots(args)
    session = None
    if args.session:
        try:
            session = find_session(args.session, roots)
        except SessionNotFound as exc:
            print(f"claude-tui: {exc}", file=sys.stderr)
            return 1
    from claude_tui.ui.app import ClaudeTUI
    from claude_tui.ui.config import load_config

    app = ClaudeTUI(roots, session=session, follow=args.follow, config=load_config(), prefetch=prefetch)
    app.run()
    return app.return_code or 0


def _roots(args: argparse.Namespace) -> list[Path]:
    from claude_tui.core.files import default_roots

    return [DEMO_PROJECTS] if args.demo else default_roots(args.projects_dir)
