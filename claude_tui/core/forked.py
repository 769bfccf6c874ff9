"""Work done in a forked child while this process goes on: the machine's second core, for a command line.

Only for a process with one thread (a fork copies no other thread, and a lock another thread held
would stay held in the child). The result travels back through a pipe, pickled (it comes from our own
child, so reading it trusts nothing new). Whatever goes wrong in the child, the parent computes the value
itself: a fork is a speed-up, never a risk.
"""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Forked(Generic[T]):
    """`fn(*args)`, computed in a child process started now; `result()` waits for it.

    Use it as a context manager, so that a child whose result is not wanted is not left behind.
    """

    def __init__(self, fn: Callable[..., T], *args: object) -> None:
        self._fn, self._args = fn, args
        self._pid, self._fd = _start(fn, args)

    def __enter__(self) -> Forked[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def result(self) -> T:
        """The child's value, or `fn(*args)` computed here when the child could not give it."""
        if self._pid is None:
            return self._fn(*self._args)
        payload = _read_all(self._fd)
        status = self.close()
        if status == 0 and payload:
            try:
                return pickle.loads(payload)
            except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError):
                pass
        return self._fn(*self._args)

    def close(self) -> int | None:
        """Stop listening and reap the child (one still writing fails on the closed pipe); its exit status."""
        if self._pid is None:
            return None
        os.close(self._fd)
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        return status


def can_fork() -> bool:
    """A fork is possible and safe here: the OS has it and this process runs one thread."""
    return hasattr(os, "fork") and threading.active_count() == 1


def _start(fn: Callable[..., object], args: tuple[object, ...]) -> tuple[int | None, int]:
    if not can_fork():
        return None, -1
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None, -1
    if pid == 0:  # the child: compute, send, and leave without running any of the parent's exit code
        code = 1
        try:
            os.close(read_end)
            _write_all(write_end, pickle.dumps(fn(*args), pickle.HIGHEST_PROTOCOL))
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)
