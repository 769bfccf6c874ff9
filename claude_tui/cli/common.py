"""What every subcommand shares: errors as one line, the output's encoding, the projects folders.

Every failure a user can cause (a missing file, an unknown id, an unreadable file, a bad value)
prints one line on stderr and exits with status 2 (ERROR), never a traceback. As with grep, status 1
is search's "no matches", not an error.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

if TYPE_CHECKING:
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
    parser.add_argument(
        "--demo", action="store_true", help="read a small bundled demo history (takes no --projects-dir)"
    )


def date_arg(value: str) -> str:
    """A --since or --until value, which may not be empty (it would be no filter at all)."""
    if not value.strip():
        raise argparse.ArgumentTypeError("an empty date: give one (2026-01-31) or an age (3d)")
    return value


def resolve(spec: str, dirs: list[str] | None) -> Path:
    from claude_tui.core.files import SessionNotFound, default_roots, find_session

    try:
        return find_session(spec, default_roots(dirs))
    except SessionNotFound as exc:
        raise CommandError(str(exc)) from exc


def read(path: Path) -> Session:
    from claude_tui.core.loader import read_session

    with reading(path):
        return read_session(path)


@contextmanager
def reading(path: Path) -> Iterator[None]:
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
    from claude_tui.core.sanitize import visible_on_one_line

    print(f"claude-tui: {visible_on_one_line(message)}", file=sys.stderr)


def exit_now(code: int) -> NoReturn:
    """End the process once its output is out, without freeing every object one by one."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def dashed_paths(words: list[str]) -> list[str]:
    """`words` with each one before `--` that starts with - and names a file or folder, or reads as a path (a
    `/` in it, a `.jsonl` name), written `./` first, so that argparse takes it for a path, not an option:
    every project folder's name starts with - (`-home-me-app/ID.jsonl`, given in the projects folder)."""
    end = words.index("--") if "--" in words else len(words)
    return [f"./{word}" if at < end and _dashed_path(word) else word for at, word in enumerate(words)]


def _dashed_path(word: str) -> bool:
    """Whether `word`, which may look like an option, is a path: it exists, or only a path has its shape."""
    from claude_tui.core.files import is_session_name

    return bool(re.match(r"-[^-]", word)) and ("/" in word or is_session_name(word) or os.path.exists(word))
