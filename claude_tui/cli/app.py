"""`claude-tui [SESSION] [--projects-dir DIR...] [--follow] [--demo]`: parse, then run the app."""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path

from claude_tui.cli.commands import top_parser
from claude_tui.cli.common import ERROR, add_roots, dashed_paths, takes_escapes, warn
from claude_tui.cli.demo import demo_asked, demo_roots
from claude_tui.ui.first_steps import first_steps_text


class _LinesKept(argparse.HelpFormatter):
    """Help whose text of several lines (the first steps) keeps its lines; the rest is filled to the width."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return text if "\n" in text else super()._fill_text(text, width, indent)


def parser() -> argparse.ArgumentParser:
    p = top_parser()
    p.epilog, p.formatter_class = first_steps_text(), _LinesKept
    p.add_argument("session", nargs="?", metavar="SESSION", help="a session file, id or unique id prefix to open")
    add_roots(p)
    p.add_argument("--follow", action="store_true", help="open SESSION (or the newest session) at its end")
    return p


def run_app(argv: list[str]) -> int:
    """Parse `argv` and run the app; returns the exit status."""
    gc.disable()  # start-up makes many objects and little garbage: no passes before the first frame (screens/main.py)
    from claude_tui.ui.prefetch import Prefetch

    args = parser().parse_args(dashed_paths(argv))
    demo_wanted = demo_asked(args)
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
    demo = demo_roots() if demo_wanted else None
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
