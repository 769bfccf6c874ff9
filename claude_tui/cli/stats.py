"""`claude-tui stats`: the facts of one or more sessions."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_tui.cli.common import ERROR, CommandError, exit_now, reading, resolve, warn, write_utf8

if TYPE_CHECKING:
    from claude_tui.core.files import FolderSummaries
    from claude_tui.core.session import Session


def run_stats(args: argparse.Namespace) -> int:
    import gc

    from claude_tui.core.collector import gc_paused

    failed, printed = 0, False
    scanned: dict[Path, FolderSummaries] = {}  # the summaries of each folder's files read so far
    with gc_paused():  # no collector pass over a big model while it is read and counted
        session = None
        for spec in args.sessions:
            if session is not None:
                session = None  # the model just counted: cyclic garbage, gone in one collection
                gc.collect()
            try:
                session, facts = _stats_of(resolve(spec, args.projects_dir), scanned)
            except CommandError as exc:  # said, and on to the next one
                warn(str(exc))
                failed = ERROR
                continue
            if printed and not args.json:
                print()  # a blank line between two sessions' facts
            _print_stats(facts, args.json)
            printed = True
        if args.whole_process:
            exit_now(failed)  # freeing the last model would take as long as some of its stats took
    return failed


def _stats_of(path: Path, scanned: dict[Path, FolderSummaries]) -> tuple[Session, dict[str, Any]]:
    """A session's model (kept until the process ends) and its facts; the project folder's summaries are
    scanned meanwhile in a child process, each file once for all the sessions asked for (`scanned`, by folder)."""
    from claude_tui.core.files import folder_summaries, plan_file, sessions_index, sibling_summaries
    from claude_tui.core.forked import Forked
    from claude_tui.core.stats import tally_file

    folder = path.parent
    with Forked(folder_summaries, folder, path.name, scanned.get(folder)) as summaries:
        with reading(path):
            session, tally = tally_file(path)
        scanned[folder] = summaries.result()
    facts = tally.facts(sibling_summaries(path, scanned[folder]), sessions_index(folder).get(session.id))
    facts["plans"] = [str(p) for slug in facts["plan_slugs"] if (p := plan_file(slug, path))]
    return session, facts


def _print_stats(facts: dict[str, Any], as_json: bool) -> None:
    import orjson

    from claude_tui.core.sanitize import inert_json, visible_controls
    from claude_tui.core.stats import format_stats

    if as_json:
        # the path and id come from a file name, which may not be UTF-8: such bytes are shown as U+FFFD
        facts = {k: os.fsencode(v).decode(errors="replace") if isinstance(v, str) else v for k, v in facts.items()}
        write_utf8(inert_json(orjson.dumps(facts).decode()) + "\n")
    else:
        print(visible_controls(format_stats(facts)))  # a title may hold escapes: never let them act
