"""Writing the files a user asks for (exports): the only writes claude-tui makes outside its cache.

The core only reads; callers check that the path is not under a projects folder.
"""

from __future__ import annotations

import os
import stat
from contextlib import suppress
from pathlib import Path


def write_export(path: Path, text: str) -> None:
    """Write a document to `path`. A file there is replaced by a new one (a hard link to the old one, a
    session file say, keeps what it held, and a reader never sees half a file); a pipe, a terminal or a
    device (`/dev/stdout`, a FIFO, `>(cmd)`) is written into as it is."""
    path = path.expanduser()
    try:
        regular = stat.S_ISREG(path.stat().st_mode)
    except FileNotFoundError:
        regular = True
    if not regular:
        with path.open("w", encoding="utf-8") as f:
            f.write(text)
        return
    path = path.resolve()
    fd, temp = _new_beside(path)
    try:
        with open(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise


def _new_beside(path: Path) -> tuple[int, Path]:
    """A new file in `path`'s folder, open for writing, with the mode a file opened for writing gets (the
    umask applied by the system: reading it would mean setting it, for every thread of the process)."""
    while True:
        temp = path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")
        try:
            return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666), temp
        except FileExistsError:
            continue
