"""`claude-tui index` and `claude-tui search`: the library on the command line.

Imported only when one of them runs, so the other commands start fast.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path
from typing import TextIO

import orjson

from claude_tui.cli.common import ERROR, CommandError, argument_text, takes_escapes, warn, write_utf8
from claude_tui.core.files import default_roots
from claude_tui.core.index.jobs import Progress, UpdateResult
from claude_tui.core.index.locks import WRITE_WAIT, IndexBusy
from claude_tui.core.index.store import Index
from claude_tui.core.sanitize import folded, inert_json, visible_controls
from claude_tui.core.search import CUT_SHORT, MARK_END, MARK_START, SearchHit, left_out_note, search

BAR_WIDTH = 24


class ProgressBar:
    """Files, MB and ETA on one line of a terminal's stderr; nothing when stderr is not a terminal that
    takes escape sequences."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr  # the one of the moment, not of the import
        self.shown = takes_escapes(self.stream)
        self.drawn = False

    def __call__(self, p: Progress) -> None:
        if self.shown and p.waiting:
            self._draw(f"waiting {p.elapsed:.0f}s for another process to finish writing the index (ctrl+c stops)")
        if not self.shown or not p.bytes_total:
            return
        done = min(1.0, p.bytes_done / p.bytes_total)
        filled = round(done * BAR_WIDTH)
        eta = p.eta
        line = (
            f"indexing [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {p.files_done}/{p.files_total} files"
            f"  {p.bytes_done / 1e6:,.0f}/{p.bytes_total / 1e6:,.0f} MB"
            + (f"  ETA {eta:.0f}s" if eta is not None else "")
        )
        self._draw(line)

    def _draw(self, line: str) -> None:
        self.stream.write("\r" + line[: self._width() - 1] + "\x1b[K")  # a wrapped line is not drawn over
        self.stream.flush()
        self.drawn = True

    def _width(self) -> int:
        """The terminal's columns (now: it may have been resized)."""
        try:
            return os.get_terminal_size(self.stream.fileno()).columns
        except (OSError, ValueError):  # not a file (a test's stream): $COLUMNS or stdout's terminal
            import shutil

            return shutil.get_terminal_size().columns

    def clear(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False


def roots_of(args: argparse.Namespace) -> list[Path]:
    return [r.expanduser().absolute() for r in default_roots(args.projects_dir)]


def update_index(index: Index, roots: list[Path]) -> UpdateResult:
    """Refresh the index with a progress bar; Ctrl-C stops it and keeps what was read."""
    bar = ProgressBar()
    try:
        return index.update(roots, bar)
    except IndexBusy:
        index.note(
            f"another process kept writing the index for {WRITE_WAIT:.0f} s: using it without the latest changes"
        )
        return UpdateResult(busy=True)
    finally:
        bar.clear()


def updated_index(roots: list[Path], doing: str) -> Index:
    """The index, brought up to date for `roots`; Ctrl-C stops the update, and what is `doing` goes on with what it
    holds."""
    index = Index(None, roots)
    try:
        update_index(index, roots)
    except KeyboardInterrupt:
        warn(f"indexing interrupted: {doing} what was indexed")
    return index


def print_notices(index: Index, roots: list[Path]) -> None:
    """The index's notices, and one line for the files it could not read (kept out of search)."""
    for notice in dict.fromkeys(index.notices):
        warn(notice)
    unreadable = index.unreadable(roots)
    if unreadable:
        path, error = unreadable[0]
        count = f"{len(unreadable)} session file{'s' if len(unreadable) > 1 else ''}"
        warn(f"{count} could not be read: {path} ({error})" + (", …" if len(unreadable) > 1 else ""))


def run_index(args: argparse.Namespace) -> int:
    roots = roots_of(args)
    index = Index(None, roots)
    started = time.monotonic()
    try:
        result = update_index(index, roots)
    except KeyboardInterrupt:
        print_notices(index, roots)
        kept = "indexed so far" if index.path is not None else "read so far, not saved: the index could not be written"
        print(f"interrupted: {_totals(index, roots)} {kept}")
        return 130
    print_notices(index, roots)
    totals = _totals(index, roots, result.totals)
    took = f"in {time.monotonic() - started:.2f} s"
    if index.path is None:  # held in memory only: nothing was kept for next time
        print(f"{totals} read {took}, not saved: the index could not be written")
        return ERROR
    read = f" (read {result.bytes_read / 1e6:,.1f} MB)" if result.bytes_read else " (nothing new)"
    print(f"{totals} {took}{read}")
    return 0


def _totals(index: Index, roots: list[Path], known: tuple[int, int, int] | None = None) -> str:
    """ "2 projects, 5 sessions, 3.1 MB": projects (folders with a session), sessions and history under `roots`
    (`known` when the update had them: see UpdateResult.totals)."""
    from claude_tui.core.humanize import plural  # `index` only: `search` starts without it

    projects, sessions, size = known or index.totals(roots)
    return f"{plural(projects, 'project')}, {plural(sessions, 'session')}, {size / 1e6:,.1f} MB"


def run_search(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise CommandError("--limit must be at least 1")
    query = argument_text(" ".join(args.query), "QUERY")
    project = args.project and argument_text(args.project, "--project")
    tool = args.tool and argument_text(args.tool, "--tool")
    roots = roots_of(args)
    index = updated_index(roots, "searching")
    try:
        hits = index.read(roots, lambda db: search(
            db, roots, query, limit=args.limit, project=project, role=args.role,
            since=args.since, until=args.until, tool=tool, errors_only=args.errors,
        ))  # fmt: skip
    except ValueError as exc:
        raise CommandError(str(exc)) from exc
    finally:
        print_notices(index, roots)
    out = sys.stdout
    if args.json:
        write_utf8(inert_json("".join(orjson.dumps(hit_json(h)).decode() + "\n" for h in hits)))
    else:
        color = takes_escapes(out) and not os.environ.get("NO_COLOR")
        out.write("".join(format_hit(h, color) for h in hits))
    if hits.cut_short:
        warn(f"{CUT_SHORT}: narrow it with --since, --until or --project")
    if hits.left_out:
        warn(left_out_note(hits.left_out))
    if not hits:
        print("no matches", file=sys.stderr)
    return 0 if hits else 1


def hit_json(hit: SearchHit) -> dict[str, object]:
    """A hit for scripts: the snippet without markers, and where its matches are in it."""
    plain, spans = unmark(hit.snippet)
    return {
        "session_id": hit.session_id,
        "path": str(hit.path),
        "file": str(hit.file),
        "project": hit.project,
        "title": hit.title,
        "message_uuid": hit.message_uuid,
        "role": hit.role,
        "kind": hit.kind,
        "tool": hit.tool,
        "is_error": hit.is_error,
        "timestamp": hit.timestamp,
        "snippet": plain,
        "matches": spans,
    }


def unmark(snippet: str) -> tuple[str, list[tuple[int, int]]]:
    """The snippet's text, and the [start, end) of each marked match in it."""
    text: list[str] = []
    spans: list[tuple[int, int]] = []
    length = start = 0
    for piece in re.split(f"([{MARK_START}{MARK_END}])", snippet):
        if piece == MARK_START:
            start = length
        elif piece == MARK_END:
            spans.append((start, length))
        else:
            text.append(piece)
            length += len(piece)
    return "".join(text), spans


def format_hit(hit: SearchHit, color: bool) -> str:
    """Two lines: when, project, title and what matched; then the snippet, indented."""
    when = _local_time(hit.timestamp)
    name = visible_controls(Path(hit.project.replace("\\", "/")).name or hit.project or "?")
    failed = " error" if hit.is_error and hit.kind != "api_error" else ""
    what = hit.kind.replace("_", " ") + (f" ({hit.tool})" if hit.tool else "") + failed
    what = visible_controls(what)
    title = visible_controls(folded(hit.title or "(untitled)", 80))
    snippet = hit.snippet
    if color:
        dim, bold, hi, off = "\x1b[2m", "\x1b[1m", "\x1b[1;33m", "\x1b[0m"
        return (
            f"{dim}{when}{off}  {bold}{name}{off}  {title}  {dim}{what}{off}\n"
            f"    {snippet.replace(MARK_START, hi).replace(MARK_END, off)}\n"
        )
    return f"{when}  {name}  {title}  [{what}]\n    {snippet.replace(MARK_START, '').replace(MARK_END, '')}\n"


def _local_time(stamp: str | None) -> str:
    from claude_tui.core.times import parse_time

    seconds = parse_time(stamp)
    if seconds is None:
        return "????-??-?? ??:??"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))
