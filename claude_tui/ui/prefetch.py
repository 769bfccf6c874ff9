"""The library's projects, read from the index in a forked process while the app starts.

Starting Textual is ~200 ms of imports; reading the facts of every session from the index is ~40 µs a
session of Python more (half a second at 15,000). A child forked before anything else is imported does
that on another core during the start and hands the projects over pickled, in two parts: first the front
page saved beside the index (core/front.py: every project's row in the tree and the newest project's
sessions, read in a few ms whatever the history's size), so that the tree and the list are in the first
frame; then the whole library. Where fork is missing, or anything fails, the app simply reads the index
itself a moment later.
"""

from __future__ import annotations

import os
import pickle
import select
import struct
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from claude_tui.core.library import Project

#: Each part on the pipe: its length, then its pickle.
_LENGTH = struct.Struct("<Q")


class Prefetch:
    """Starts reading at construction; `result()` collects what was read."""

    def __init__(self, roots: Callable[[], list[Path]]) -> None:
        """Fork now; the child works out the roots (`roots()`) and reads them."""
        self._pid = 0
        self._fd = -1
        if not hasattr(os, "fork"):
            return
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: read, send, leave without running any of the parent's exit handlers
            os.close(read)
            code = 1
            try:
                from claude_tui.core.library import Library

                library = Library(roots())
                with os.fdopen(write, "wb") as pipe:
                    early = library.front()
                    if early:
                        _send(pipe, (early, [], True))
                        os.nice(10)  # the whole library (CPU in proportion to the history) yields to the first frame
                    library.reload()
                    _send(pipe, (library.projects, library.notices, False))
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        self._pid, self._fd = pid, read

    def ready(self) -> bool:
        """Whether the child has begun to send a part (it sends each once it has read it whole)."""
        return self._fd >= 0 and bool(select.select([self._fd], [], [], 0)[0])

    def result(self, timeout: float = 3.0) -> tuple[list[Project], list[str], bool] | None:
        """The next part: the projects, the notices, and whether they are the front page (the whole library comes
        next); None when it could not be read in time."""
        if self._fd < 0:
            return None
        deadline = time.monotonic() + timeout
        part = None
        try:
            head = self._read(_LENGTH.size, deadline)
            part = _loads(self._read(_LENGTH.unpack(head)[0], deadline)) if head is not None else None
            return part
        finally:
            if part is None or not part[2]:  # the whole library, or nothing more to wait for
                self._close()

    def _read(self, size: int, deadline: float) -> bytes | None:
        """`size` bytes from the child, or None when they do not all come by `deadline`."""
        chunks, left = [], size
        while left and time.monotonic() < deadline:
            if not select.select([self._fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                break
            chunk = os.read(self._fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return None if left else b"".join(chunks)

    def _close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        if self._pid:
            try:
                if os.waitpid(self._pid, os.WNOHANG)[0] == 0:
                    os.kill(self._pid, 9)
                    os.waitpid(self._pid, 0)
            except OSError:
                pass
            self._pid = 0


def _send(pipe: Any, part: tuple[list[Project], list[str], bool]) -> None:
    data = pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL)
    pipe.write(_LENGTH.pack(len(data)))
    pipe.write(data)
    pipe.flush()


def _loads(data: bytes | None) -> Any:
    if data is None:
        return None
    try:
        projects, notices, front = pickle.loads(data)  # our own child's output, never a file
    except Exception:
        return None
    return list(projects), list(notices), bool(front)
