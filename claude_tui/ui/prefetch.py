"""The library's projects, read from the index in a forked process while the app starts.

Starting Textual is ~200 ms of imports; reading 1,500 sessions' facts from the index
is ~100 ms more of Python (imports included). A child forked before anything else is
imported does the second on another core during the first and hands the projects over
pickled, so the tree and the session list are in the first frame. Where fork is missing,
or anything fails, the app simply reads the index itself a moment later.
"""

from __future__ import annotations

import os
import pickle
import select
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from claude_tui.core.library import Project


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
                library.reload()
                data = pickle.dumps((library.projects, library.notices), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write, "wb") as pipe:
                    pipe.write(data)
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        self._pid, self._fd = pid, read

    def ready(self) -> bool:
        """Whether the child has begun to send (it sends only once it has read everything)."""
        return self._fd >= 0 and bool(select.select([self._fd], [], [], 0)[0])

    def result(self, timeout: float = 3.0) -> tuple[list[Project], list[str]] | None:
        """The projects and notices, or None when they could not be read in time."""
        if self._fd < 0:
            return None
        chunks: list[bytes] = []
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                if not select.select([self._fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                    break
                chunk = os.read(self._fd, 1 << 20)
                if not chunk:
                    return _loads(b"".join(chunks))
                chunks.append(chunk)
            return None
        finally:
            self._close()

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


def _loads(data: bytes) -> Any:
    try:
        projects, notices = pickle.loads(data)  # our own child's output, never a file
    except Exception:
        return None
    return list(projects), list(notices)
