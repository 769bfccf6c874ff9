"""`--demo`: the bundled demo history, for the app and every subcommand.

The demo is copied to a folder of claude-tui's own (see demo_roots) and read from there as the projects folder;
its index is the normal one, in the cache (core/index/schema.py: cache_dir), as for any projects folder.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from claude_tui.cli.common import CommandError

#: The bundled demo history (its plans sit beside it in `demo/plans`).
DEMO_PROJECTS = Path(__file__).resolve().parents[1] / "demo" / "projects"
#: File times of the demo's copy (2026-01-01, before its first session): its order and its
#: live markers then come from what its records say, not from when the package was installed.
DEMO_MTIME = 1_767_225_600.0


def demo_asked(args: argparse.Namespace) -> bool:
    """Whether --demo was given; with --projects-dir too, a CommandError."""
    if args.demo and args.projects_dir:
        raise CommandError("--demo and --projects-dir cannot go together: the demo is a history of its own")
    return bool(args.demo)


def demo_roots() -> list[Path]:
    """The demo history, copied afresh to one temporary folder per user with old file times
    (a fresh install's file times would make every session look live, in no order)."""
    import shutil  # here, not at the top: every subcommand imports this module to ask for --demo
    import tempfile

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


def use_demo(args: argparse.Namespace) -> None:
    """A subcommand's arguments with --demo: the demo's copy as the projects folder, and for stats or export
    given no SESSION the demo's newest session (the one the app opens first)."""
    roots = demo_roots()
    args.projects_dir = [str(root) for root in roots]
    if getattr(args, "sessions", None) == []:
        args.sessions = [str(newest_session(roots))]
    elif "session" in args and args.session is None:
        args.session = str(newest_session(roots))


def newest_session(roots: list[Path]) -> Path:
    """The most recently active session under `roots` that the session list shows (not empty nor a warmup),
    from the index brought up to date."""
    from claude_tui.cli.library import print_notices, updated_index
    from claude_tui.core.facts import quiet
    from claude_tui.core.library import build_projects

    index = updated_index(roots, "choosing from")
    print_notices(index, roots)
    projects = build_projects(index.files(roots), index.summaries(roots))
    shown = [info for project in projects for info in project.sessions if not (quiet(info) or info.no_file)]
    if not shown:
        raise CommandError(f"no session in {', '.join(map(str, roots))}")
    return Path(max(shown, key=lambda info: info.last_activity).file)
