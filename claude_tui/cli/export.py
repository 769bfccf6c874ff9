"""`claude-tui export`: a session as Markdown, HTML or JSON, on standard output or in a file."""

from __future__ import annotations

import argparse
from pathlib import Path

from claude_tui.cli.common import CommandError, read, resolve, write_utf8

#: The export format a file name asks for.
_FORMAT_OF = {".html": "html", ".htm": "html", ".json": "json"}


def run_export(args: argparse.Namespace) -> int:
    from claude_tui.core.export import export_session
    from claude_tui.core.files import default_roots, is_under, protected_folders, sibling_summaries
    from claude_tui.writing import write_export

    path = resolve(args.session, args.projects_dir)
    session = read(path)
    fmt = args.format or _FORMAT_OF.get(Path(args.output or "").suffix.lower(), "markdown")
    text = export_session(session, fmt, sibling_summaries(path))
    if args.output and args.output != "-":
        out = Path(args.output)
        if is_under(out, protected_folders(default_roots(args.projects_dir), path)):
            raise CommandError(f"refusing to write under a projects folder: {out}")
        try:
            write_export(out, text)
        except OSError as exc:
            raise CommandError(f"cannot write {out}: {exc.strerror or exc}") from exc
    else:
        write_utf8(text)
    return 0
