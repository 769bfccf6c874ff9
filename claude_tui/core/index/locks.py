"""Writers of one database: the busy timeout, the wait for another process's write (in short tries, so that Ctrl-C
answers at once), transactions, and what a locked or full database says."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from claude_tui.core.index.jobs import Progress

#: Seconds to wait for another process's write to finish.
BUSY_TIMEOUT = 30.0
#: Seconds an update waits to start writing while another process writes (claude-tui's own writes take
#: about a second); then the index is used as it is.
WRITE_WAIT = 5.0
#: Seconds of each try to start writing: Ctrl-C is answered between two.
WRITE_TRY = 0.1


class IndexBusy(Exception):
    """Another process kept writing the database; the caller may use it as it is."""


class DiskFull(Exception):
    """A worker could not write the index: its disk is full."""


def transaction(db: sqlite3.Connection, work: Callable[[], Any]) -> Any:
    """Run `work` in a transaction. Deferred: `work` writes first, which locks only the database it
    writes to (BEGIN IMMEDIATE would lock every attached one), waiting while another writer finishes."""
    db.execute("BEGIN")
    try:
        result = work()
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # sqlite has rolled back already after some errors (a full disk)
            db.execute("ROLLBACK")
        raise
    return result


#: The page cache of each of a worker's two connections, in KiB: what a batch's writes touch fits in it; twice as
#: much (the app's own connection's) put the tree of processes of a 15,000-session cold index over 300 MB.
WORKER_CACHE_KIB = 4096


def connect(path: str) -> sqlite3.Connection:
    """An index worker's connection for writing to the index file, waiting while another writer finishes."""
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA synchronous=OFF")
    db.execute(f"PRAGMA cache_size=-{WORKER_CACHE_KIB}")
    return db


@contextlib.contextmanager
def waiting_at_most(db: sqlite3.Connection, seconds: float) -> Iterator[None]:
    """Statements of `db` wait `seconds` at most for another writer (BUSY_TIMEOUT again after)."""
    db.execute(f"PRAGMA busy_timeout={seconds * 1000:.0f}")
    try:
        yield
    finally:
        db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT * 1000:.0f}")


def probe_writable(db: sqlite3.Connection) -> None:
    """Raise if the database cannot be written (a read-only file or folder). One that another process
    is writing is writable: no waiting for it here."""
    with waiting_at_most(db, 0):
        try:
            db.execute("INSERT INTO meta VALUES ('probe', 0) ON CONFLICT(key) DO NOTHING")
        except sqlite3.OperationalError as exc:
            if not locked(exc):
                raise


def begin_writing(
    db: sqlite3.Connection, progress: Callable[[Progress], None] | None, cancel: threading.Event | None
) -> float:
    """Start a write transaction; return the seconds waited for another process's write to end.

    The wait is made of short tries, so that Ctrl-C and `cancel` stop it at once; `progress` is told
    that it is waiting. After WRITE_WAIT seconds, the "locked" error (IndexBusy for `Index.update`'s caller).
    """
    started = time.monotonic()
    with waiting_at_most(db, WRITE_TRY):
        while True:
            try:
                db.execute("BEGIN IMMEDIATE")
                return time.monotonic() - started
            except sqlite3.OperationalError as exc:
                waited = time.monotonic() - started
                if not locked(exc) or waited >= WRITE_WAIT or (cancel is not None and cancel.is_set()):
                    raise
            if progress is not None:
                progress(Progress(started=started, waiting=True))


def locked(exc: Exception) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def disk_full(exc: sqlite3.Error) -> bool:
    """Whether `exc` says the disk (or the database's allowed size) is full."""
    return error_code(exc) == sqlite3.SQLITE_FULL


def error_code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code of `exc` (0 for an error of Python's sqlite3 module itself)."""
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF
