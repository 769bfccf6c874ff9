"""Writing the files a user asks for (exports): the only writes claude-tui makes outside its cache.

The core only reads; callers check that the path is not under a projects folder.
"""

from __future__ import annotations

import os
import stat
import tempfile
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
    umask = os.umask(0)
    os.umask(umask)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~umask)  # as a file opened for writing would have (mkstemp's is 0600)
        with open(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise
