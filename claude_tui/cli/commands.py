"""The subcommands: each one's arguments (its parser) and the module that runs it.

A subcommand's module is imported only when it runs, so that each command starts fast (`search` without
the stats, `stats` without the index). A new subcommand is a module beside this one, its parser here and
a line in COMMANDS.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from claude_tui import __version__
from claude_tui.cli.common import add_roots, date_arg


def _stats_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("stats", help="facts of one or more sessions")
    p.add_argument(
        "sessions",
        nargs="*",
        metavar="SESSION",
        help="a session file, id or unique id prefix (with --demo: its newest)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per session per line")
    add_roots(p)


def _run_stats(args: argparse.Namespace) -> int:
    from claude_tui.cli.stats import run_stats

    return run_stats(args)


def _export_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="a session as Markdown, HTML or JSON")
    p.add_argument(
        "session", nargs="?", metavar="SESSION", help="a session file, id or unique id prefix (with --demo: its newest)"
    )
    p.add_argument(
        "--format",
        choices=("markdown", "html", "json"),
        help="the document's format (default: from FILE's name, .html or .json, else markdown)",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output (-)")
    add_roots(p)


def _run_export(args: argparse.Namespace) -> int:
    from claude_tui.cli.export import run_export

    return run_export(args)


def _index_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("index", help="build or refresh the index of every session (progress on stderr)")
    add_roots(p)


def _run_index(args: argparse.Namespace) -> int:
    from claude_tui.cli.library import run_index

    return run_index(args)


def _search_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("search", help="full-text search over every session, newest first")
    p.add_argument(
        "query",
        nargs="*",
        metavar="QUERY",
        help='words that must all match; "quoted words" as a phrase, word* as a prefix;'
        " none: every message the filters let through (search --errors --since 7d)",
    )
    add_roots(p)
    p.add_argument("--json", action="store_true", help="one JSON object per hit per line")
    p.add_argument("--limit", type=int, default=50, metavar="N", help="at most N hits (default: 50)")
    p.add_argument("--project", metavar="TEXT", help="only projects whose path contains TEXT")
    p.add_argument("--role", choices=("user", "assistant", "tool"), help="only messages of this role")
    p.add_argument(
        "--since",
        type=date_arg,
        metavar="DATE",
        help="only messages since DATE (2026-01-31, or an age: 12h, 3d, 2w, 6m = months)",
    )
    p.add_argument(
        "--until", type=date_arg, metavar="DATE", help="only messages before DATE (a date: up to the end of that day)"
    )
    p.add_argument("--tool", metavar="NAME", help="only calls of this tool and their output (Bash, Edit, ...)")
    p.add_argument("--errors", action="store_true", help="only errors: failed tool calls and API errors")


def _run_search(args: argparse.Namespace) -> int:
    from claude_tui.cli.library import run_search

    return run_search(args)


def _usage_parser(sub: argparse._SubParsersAction) -> None:
    from claude_tui.core.usage_report import REPORTS

    p = sub.add_parser("usage", help="tokens and cost by day, week, month, session or 5-hour block")
    p.add_argument("report", nargs="?", choices=REPORTS, default="daily", help="the report (default: daily)")
    p.add_argument("--json", action="store_true", help="one JSON object per period per line")
    p.add_argument(
        "--since", type=date_arg, metavar="DATE", help="only days from DATE (2026-01-31, 20260131, or an age: 7d, 2w)"
    )
    p.add_argument("--until", type=date_arg, metavar="DATE", help="only days up to DATE, included")
    p.add_argument("--timezone", metavar="TZ", help="the time zone of the days (Europe/Paris, UTC; default: local)")
    p.add_argument("--project", metavar="TEXT", help="only projects whose path contains TEXT")
    p.add_argument("--breakdown", action="store_true", help="a row per model under each period")
    add_roots(p)


def _run_usage(args: argparse.Namespace) -> int:
    from claude_tui.cli.usage import run_usage

    return run_usage(args)


#: Subcommands: name -> (add its parser, run it).
COMMANDS: dict[str, tuple[Callable[[argparse._SubParsersAction], None], Callable[[argparse.Namespace], int]]] = {
    "stats": (_stats_parser, _run_stats),
    "export": (_export_parser, _run_export),
    "index": (_index_parser, _run_index),
    "search": (_search_parser, _run_search),
    "usage": (_usage_parser, _run_usage),
}


def top_parser() -> argparse.ArgumentParser:
    """What the app's command line and the subcommands' share: the name, the description, --version."""
    parser = argparse.ArgumentParser(
        prog="claude-tui",
        description="Browse, follow and search Claude Code history. "
        f"Subcommands: {', '.join(COMMANDS)} (claude-tui COMMAND --help).",
    )
    parser.add_argument("--version", action="version", version=f"claude-tui {__version__}")
    return parser


def command_parser(name: str) -> argparse.ArgumentParser:
    """The parser of the subcommand `name`, alone: a mistake in its arguments shows its own usage line."""
    sub = top_parser().add_subparsers(metavar="COMMAND")
    COMMANDS[name][0](sub)
    return sub.choices[name]
