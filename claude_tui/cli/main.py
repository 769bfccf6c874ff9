"""The command line: `claude-tui` opens the app; subcommands serve people and scripts (commands.py).

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
from collections.abc import Sequence
from contextlib import suppress

from claude_tui.cli.commands import COMMANDS, command_parser
from claude_tui.cli.common import ERROR, CommandError, dashed_paths, warn

#: Words that ask for the usage (`-help`: argparse would read it as `-h elp`).
HELP_WORDS = ("help", "-help")


def _past_roots(argv: list[str], start: int = 0) -> int:
    """Where the --projects-dir and --demo options that begin `argv[start:]` end."""
    i = start
    while i < len(argv) and (argv[i] in ("--projects-dir", "--demo") or argv[i].startswith("--projects-dir=")):
        i += 2 if argv[i] == "--projects-dir" else 1
    return i


def _command_first(argv: list[str]) -> list[str]:
    """`claude-tui --projects-dir DIR search X` as `claude-tui search --projects-dir DIR X`: the roots (or --demo)
    may come before a subcommand, `help` or a mistyped subcommand, as they do for the app (and stay before a `--`)."""
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


def _history(args: argparse.Namespace) -> None:
    """With --demo, the subcommand reads the demo history (cli/demo.py); without it, stats and export need a
    SESSION."""
    from claude_tui.cli.demo import demo_asked, use_demo

    if demo_asked(args):
        use_demo(args)
    elif getattr(args, "sessions", None) == [] or ("session" in args and args.session is None):
        command_parser(args.command).error("the following arguments are required: SESSION")


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
            null_stream = open(os.devnull, "w" if fd else "r")  # noqa: SIM115 (open for the process's life)
            setattr(sys, name, null_stream)
            setattr(sys, f"__{name}__", null_stream)
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
            _history(args)
            return COMMANDS[args.command][1](args)
        if argv and (meant := _command_meant(argv[0])):
            warn(f"no command {argv[0]!r}: did you mean {meant!r}? (claude-tui --help)")
            return ERROR
        from claude_tui.cli.app import run_app

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
