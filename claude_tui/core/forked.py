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
        payload = _read_all(self._fd)  # whole once the child closes its end: it does so once it has sent it all
        self._let_go(self._pid)
        if payload:
            try:
                return pickle.loads(payload)
            except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError):
                pass
        return self._fn(*self._args)

    def close(self) -> None:
        """Stop listening and reap the child (one still writing fails on the closed pipe)."""
        _reap_exited()
        if self._pid is None:
            return
        os.close(self._fd)
        os.waitpid(self._pid, 0)
        self._pid = None

    def _let_go(self, pid: int) -> None:
        """Stop listening to child `pid`, which has sent its value: it is reaped once it has exited, now or at the next
        fork, not waited for (tearing down a big child's memory takes milliseconds the result need not wait)."""
        os.close(self._fd)
        _EXITING.append(pid)
        self._pid = None
        _reap_exited()


def can_fork() -> bool:
    """A fork is possible and safe here: the OS has it and this process runs one thread."""
    return hasattr(os, "fork") and threading.active_count() == 1


#: Children that have sent their value, not yet reaped (see Forked._let_go).
_EXITING: list[int] = []


def _reap_exited() -> None:
    """Reap the children let go that have exited since."""
    for pid in list(_EXITING):
        try:
            done = os.waitpid(pid, os.WNOHANG)[0] != 0
        except ChildProcessError:  # reaped already (by a caller's own wait)
            done = True
        if done:
            _EXITING.remove(pid)


def _start(fn: Callable[..., object], args: tuple[object, ...]) -> tuple[int | None, int]:
    _reap_exited()
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
            os.close(write_end)  # all sent: the parent reads on at once, while this process's memory is let go
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
