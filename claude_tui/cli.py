"""The command line: `claude-tui` opens the app; subcommands serve people and scripts.

Every failure a user can cause (a missing file, an unknown id, an unreadable file, a bad value)
prints one line on stderr and exits with status 2 (ERROR), never a traceback. As with grep, status 1
is search's "no matches", not an error.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from claude_tui import __version__

if TYPE_CHECKING:
    from claude_tui.core.files import FolderSummaries
    from claude_tui.core.session import Session


#: The exit status of an error (as grep's: search exits 0 with hits, 1 without).
ERROR = 2


class CommandError(Exception):
    """A failure to report to the user as one line."""


def takes_escapes(stream: TextIO) -> bool:
    """Whether `stream` is a terminal that acts on escape sequences (TERM=dumb does not)."""
    return stream.isatty() and os.environ.get("TERM") != "dumb"


def add_roots(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--projects-dir",
        action="append",
        metavar="DIR",
        help="a Claude Code projects folder (repeatable; default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)",
    )


# ---------------------------------------------------------------- stats


def _stats_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("stats", help="facts of one or more sessions")
    p.add_argument("sessions", nargs="+", metavar="SESSION", help="a session file, id or unique id prefix")
    p.add_argument("--json", action="store_true", help="one JSON object per session per line")
    add_roots(p)


def _run_stats(args: argparse.Namespace) -> int:
    import gc

    from claude_tui.core.session import gc_paused

    failed, printed = 0, False
    scanned: dict[Path, FolderSummaries] = {}  # the summaries of each folder's files read so far
    with gc_paused():  # no collector pass over a big model while it is read and counted
        session = None
        for spec in args.sessions:
            if session is not None:
                session = None  # the model just counted: cyclic garbage, gone in one collection
                gc.collect()
            try:
                session, facts = _stats_of(_resolve(spec, args.projects_dir), scanned)
            except CommandError as exc:  # said, and on to the next one
                warn(str(exc))
                failed = ERROR
                continue
            if printed and not args.json:
                print()  # a blank line between two sessions' facts
            _print_stats(facts, args.json)
            printed = True
        if args.whole_process:
            _exit_now(failed)  # freeing the last model would take as long as some of its stats took
    return failed


def _stats_of(path: Path, scanned: dict[Path, FolderSummaries]) -> tuple[Session, dict[str, Any]]:
    """A session's model (kept until the process ends) and its facts; the project folder's summaries are
    scanned meanwhile in a child process, each file once for all the sessions asked for (`scanned`, by folder)."""
    from claude_tui.core.files import folder_summaries, plan_file, sessions_index, sibling_summaries
    from claude_tui.core.forked import Forked
    from claude_tui.core.stats import tally_file

    folder = path.parent
    with Forked(folder_summaries, folder, path.name, scanned.get(folder)) as summaries:
        with _reading(path):
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


# ---------------------------------------------------------------- export


def _export_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="a session as Markdown, HTML or JSON")
    p.add_argument("session", metavar="SESSION", help="a session file, id or unique id prefix")
    p.add_argument(
        "--format",
        choices=("markdown", "html", "json"),
        help="the document's format (default: from FILE's name, .html or .json, else markdown)",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output (-)")
    add_roots(p)


#: The export format a file name asks for.
_FORMAT_OF = {".html": "html", ".htm": "html", ".json": "json"}


def _run_export(args: argparse.Namespace) -> int:
    from claude_tui.core.export import export_session
    from claude_tui.core.files import default_roots, is_under, protected_folders, sibling_summaries
    from claude_tui.writing import write_export

    path = _resolve(args.session, args.projects_dir)
    session = _read(path)
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


# ---------------------------------------------------------------- index and search


def _index_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("index", help="build or refresh the index of every session (progress on stderr)")
    add_roots(p)


def _run_index(args: argparse.Namespace) -> int:
    from claude_tui.library_cli import run_index

    return run_index(args)


def _date(value: str) -> str:
    """A --since or --until value, which may not be empty (it would be no filter at all)."""
    if not value.strip():
        raise argparse.ArgumentTypeError("an empty date: give one (2026-01-31) or an age (3d)")
    return value


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
        type=_date,
        metavar="DATE",
        help="only messages since DATE (2026-01-31, or an age: 12h, 3d, 2w, 6m = months)",
    )
    p.add_argument(
        "--until", type=_date, metavar="DATE", help="only messages before DATE (a date: up to the end of that day)"
    )
    p.add_argument("--tool", metavar="NAME", help="only calls of this tool and their output (Bash, Edit, ...)")
    p.add_argument("--errors", action="store_true", help="only errors: failed tool calls and API errors")


def _run_search(args: argparse.Namespace) -> int:
    from claude_tui.library_cli import run_search

    return run_search(args)


# ---------------------------------------------------------------- usage


def _usage_parser(sub: argparse._SubParsersAction) -> None:
    from claude_tui.core.usage_report import REPORTS

    p = sub.add_parser("usage", help="tokens and cost by day, week, month, session or 5-hour block")
    p.add_argument("report", nargs="?", choices=REPORTS, default="daily", help="the report (default: daily)")
    p.add_argument("--json", action="store_true", help="one JSON object per period per line")
    p.add_argument("--since", type=_date, metavar="DATE", help="only days from DATE (2026-01-31 or 20260131)")
    p.add_argument("--until", type=_date, metavar="DATE", help="only days up to DATE, included")
    p.add_argument("--timezone", metavar="TZ", help="the time zone of the days (Europe/Paris, UTC; default: local)")
    p.add_argument("--project", metavar="TEXT", help="only projects whose path contains TEXT")
    p.add_argument("--breakdown", action="store_true", help="a row per model under each period")
    add_roots(p)


def _run_usage(args: argparse.Namespace) -> int:
    from claude_tui.usage_cli import run_usage

    return run_usage(args)


# ---------------------------------------------------------------- shared helpers


def _resolve(spec: str, dirs: list[str] | None) -> Path:
    from claude_tui.core.files import SessionNotFound, default_roots, find_session

    try:
        return find_session(spec, default_roots(dirs))
    except SessionNotFound as exc:
        raise CommandError(str(exc)) from exc


def _read(path: Path) -> Session:
    from claude_tui.core.files import read_session

    with _reading(path):
        return read_session(path)


@contextmanager
def _reading(path: Path) -> Iterator[None]:
    """A file that cannot be read, said in one line."""
    from claude_tui.core.reader import ReadError

    try:
        yield
    except ReadError as exc:
        raise CommandError(f"cannot read {path}: {exc}") from exc


def write_utf8(text: str) -> None:
    """A document or JSON lines on standard output in UTF-8, their formats' encoding, whatever the locale's."""
    sys.stdout.buffer.write(text.encode(errors="replace"))


def argument_text(text: str, what: str) -> str:
    """Text typed on the command line: read as UTF-8 when the locale's encoding (C: ASCII) could not."""
    from claude_tui.core.sanitize import undecoded

    if not undecoded(text):
        return text
    try:
        return os.fsencode(text).decode()
    except UnicodeDecodeError:
        raise CommandError(f"{what} is not valid UTF-8 text") from None


def warn(message: str) -> None:
    """`message` as one line on stderr, whatever it holds (a path with a line break or escapes in it)."""
    from claude_tui.core.sanitize import one_line

    print(f"claude-tui: {one_line(message)}", file=sys.stderr)


def _exit_now(code: int) -> NoReturn:
    """End the process once its output is out, without freeing every object one by one."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


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


#: Words that ask for the usage (`-help`: argparse would read it as `-h elp`).
HELP_WORDS = ("help", "-help")


def _past_roots(argv: list[str], start: int = 0) -> int:
    """Where the --projects-dir options that begin `argv[start:]` end."""
    i = start
    while i < len(argv) and (argv[i] == "--projects-dir" or argv[i].startswith("--projects-dir=")):
        i += 1 if "=" in argv[i] else 2
    return i


def _command_first(argv: list[str]) -> list[str]:
    """`claude-tui --projects-dir DIR search X` as `claude-tui search --projects-dir DIR X`: the roots may come
    before a subcommand, `help` or a mistyped subcommand, as they do for the app (and stay before a `--`)."""
    i = _past_roots(argv)
    if 0 < i < len(argv) and (argv[i] in COMMANDS or argv[i] in HELP_WORDS or _command_meant(argv[i])):
        return [argv[i], *argv[:i], *argv[i + 1 :]]
    return argv


def _help_asked(argv: list[str]) -> list[str]:
    """`claude-tui help [COMMAND]` (or `-help`) as `claude-tui [COMMAND] --help`, unless a file of that name is the
    session meant."""
    if argv and argv[0] in HELP_WORDS and not os.path.exists(argv[0]):
        return [*argv[_past_roots(argv, 1) :][:1], "--help"]
    return argv


def dashed_paths(words: list[str]) -> list[str]:
    """`words` with each one before `--` that starts with - and names a file or folder, or reads as a path (a
    `/` in it, a `.jsonl` name), written `./` first, so that argparse takes it for a path, not an option:
    every project folder's name starts with - (`-home-me-app/ID.jsonl`, given in the projects folder)."""
    end = words.index("--") if "--" in words else len(words)
    return [f"./{word}" if at < end and _dashed_path(word) else word for at, word in enumerate(words)]


def _dashed_path(word: str) -> bool:
    """Whether `word`, which may look like an option, is a path: it exists, or only a path has its shape."""
    return bool(re.match(r"-[^-]", word)) and ("/" in word or word.endswith(".jsonl") or os.path.exists(word))


def _parse(argv: list[str]) -> argparse.Namespace:
    """The subcommand's arguments; a query word taken for an unknown option gets a hint, as ripgrep gives."""
    parser = command_parser(argv[0])
    try:
        words = argv[1:] if argv[0] == "search" else dashed_paths(argv[1:])  # a query word stays as typed
        return parser.parse_args(words, argparse.Namespace(command=argv[0]))
    except SystemExit as exc:
        words = argv[1 : argv.index("--")] if "--" in argv else argv[1:]
        at = next((i for i, w in enumerate(words) if w.startswith("-") and not w.startswith("--") and w != "-"), None)
        if exc.code != 2 or at is None:
            raise
        dashed, option = words[at], parser._option_string_actions.get(words[at - 1]) if at else None
        if option is not None and option.nargs != 0:  # a value that starts with -, as a project folder's name
            warn(f"to give {words[at - 1]} a value that starts with -, join them with =: {words[at - 1]}={dashed}")
        elif argv[0] == "search":
            warn(f"to search for {dashed}, end the options with --: claude-tui search [OPTIONS] -- {dashed}")
        raise


def _command_meant(word: str) -> str | None:
    """The subcommand a mistyped first word stands for (`serch`), unless it may name a session: a
    file, or an id prefix (hex)."""
    import difflib

    if word.startswith("-") or re.fullmatch(r"[0-9a-fA-F-]+", word) or os.path.exists(word):
        return None
    return next(iter(difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.7)), None)


def _standard_streams() -> None:
    """A standard stream a script closed (`>&-`, `2>&-`) is /dev/null: what is written to it is gone, as
    if it had been written, and no file opened later takes its descriptor (a child would write into it).
    A character the output's encoding lacks (LC_ALL=C, PYTHONIOENCODING=latin-1) is replaced, not a crash."""
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if getattr(sys, name) is None:  # closed when Python started
            stream = open(os.devnull, "w" if fd else "r")  # noqa: SIM115 (open for the process's life)
            setattr(sys, name, stream)
            setattr(sys, f"__{name}__", stream)
    for stream, errors in ((sys.stdout, "replace"), (sys.stderr, "backslashreplace")):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=errors)


def main(argv: Sequence[str] | None = None) -> int:
    """Run a subcommand, else the app. With no `argv` this is the whole process (the script's
    entry point), which a subcommand may end itself once its output is flushed."""
    whole_process = argv is None
    _standard_streams()
    argv = _help_asked(_command_first(list(sys.argv[1:] if argv is None else argv)))
    try:
        if argv and argv[0] in COMMANDS:
            args = _parse(argv)
            args.whole_process = whole_process
            return COMMANDS[args.command][1](args)
        if argv and (meant := _command_meant(argv[0])):
            warn(f"no command {argv[0]!r}: did you mean {meant!r}? (claude-tui --help)")
            return ERROR
        from claude_tui.ui.launch import run_app

        return run_app(argv)
    except CommandError as exc:
        warn(str(exc))
        return ERROR
    except KeyboardInterrupt:
        warn("interrupted")
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # the output could not be written (a full disk, /dev/full), or another failure
        _drop_output()
        where = f": {exc.filename}" if exc.filename else ""
        warn(f"{exc.strerror or exc}{where}")
        return ERROR


def _drop_output() -> None:
    """Send what is left of standard output nowhere: flushing it at exit would fail again, with a traceback."""
    with suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
