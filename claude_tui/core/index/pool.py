"""Running jobs: in this process (a small update, an index in memory) or in worker processes, one per text
database, that write what they read themselves; and the batches of results written about once a second."""

from __future__ import annotations

import contextlib
import os
import queue
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from claude_tui.core.index import locks
from claude_tui.core.index import usage as usage_index
from claude_tui.core.index.jobs import Job, Result, run_job
from claude_tui.core.index.locks import DiskFull, connect, disk_full, transaction
from claude_tui.core.index.schema import text_path

#: Commit at least this often (seconds), so Ctrl-C keeps nearly everything read.
COMMIT_EVERY = 1.0
#: Commit, too, once this many bytes were read since the last commit (memory stays bounded).
COMMIT_BYTES = 32 * 1024 * 1024


def write_batch(db: sqlite3.Connection, text: sqlite3.Connection, schema: str, batch: list[Result]) -> tuple[int, int]:
    """Write results: their rows to the text database `schema` of `text`, then the files' progress
    to the index `db`; return (bytes, files) written.

    A result counts only if its file is still where it was read from (`offset` = its start):
    another process may have got there first.
    """
    batch = _still_wanted(db, batch)
    transaction(text, lambda: _insert_text(text, schema, batch))
    return transaction(db, lambda: _record_progress(db, batch))


def _insert_text(text: sqlite3.Connection, schema: str, batch: list[Result]) -> None:
    """The results' rows, reads and texts, sorted: FTS5 flushes its pending terms whenever a rowid goes backwards."""
    rows = sorted(row for item in batch for row in item.rows)
    texts = sorted(pair for item in batch for pair in item.texts)
    # a read's first row id, and its rows' latest time: its ids rise
    reads = [(item.rows[0][0], max(r[7] or 0 for r in item.rows)) for item in batch if item.rows]
    text.executemany(f"INSERT INTO {schema}.rows VALUES (?,?,?,?,?,?,?,?)", rows)
    text.executemany(f"INSERT INTO {schema}.reads VALUES (?,?)", reads)
    text.executemany(f"INSERT INTO {schema}.fts(rowid, text) VALUES (?,?)", texts)


def _still_wanted(db: sqlite3.Connection, batch: list[Result]) -> list[Result]:
    """The results that continue their file from where the index has it, in order."""
    ids = sorted({item.file for item in batch})
    offsets: dict[int, int] = {}
    for i in range(0, len(ids), 500):
        part = ids[i : i + 500]
        offsets.update(db.execute(f"SELECT id, offset FROM files WHERE id IN ({','.join('?' * len(part))})", part))
    wanted = []
    for item in batch:
        if offsets.get(item.file) == item.start:
            wanted.append(item)
            offsets[item.file] = item.end
    return wanted


def _record_progress(db: sqlite3.Connection, batch: list[Result]) -> tuple[int, int]:
    """Each file's new offset, state and facts, its summaries and marks; (bytes, files) recorded."""
    done = files = 0
    for item in batch:
        fid = item.file
        mtime_ns = item.mtime_ns if item.final else -1  # a read stopped short: the next update reads on
        cur = db.execute(
            "UPDATE files SET offset=?, size=?, mtime_ns=?, inode=?, nrows=nrows+?, state=?, facts=coalesce(?, facts),"
            " project=coalesce(?, project), tail=coalesce(?, tail), error=? WHERE id=? AND offset=?",
            (item.end, item.size, mtime_ns, item.inode, len(item.rows), item.state, item.facts, item.project,
             item.tail, item.error, fid, item.start),
        )  # fmt: skip
        if cur.rowcount != 1:
            continue  # written meanwhile by another process: its rows here are duplicates, which search drops
        if item.summaries:
            db.executemany(
                "INSERT INTO summaries SELECT ?, folder, ?, ? FROM files WHERE id=?",
                [(fid, leaf, summary, fid) for leaf, summary in item.summaries],
            )
        db.executemany("INSERT INTO marks VALUES (?, ?)", [(fid, uuid) for uuid in item.marks])
        usage_index.record(db, fid, item.start > 0, item.usages)
        done += item.end - item.start
        files += item.final
    return done, files


class Batcher:
    """Collects results and writes them about once a second, or sooner when much was read."""

    def __init__(self, db: sqlite3.Connection, text: sqlite3.Connection, schema: str) -> None:
        self.db, self.text, self.schema = db, text, schema
        self.batch: list[Result] = []
        self.waiting = 0
        self.last = time.monotonic()

    def add(self, item: Result) -> tuple[int, int] | None:
        self.batch.append(item)
        self.waiting += item.end - item.start
        if self.waiting >= COMMIT_BYTES or time.monotonic() - self.last >= COMMIT_EVERY:
            return self.flush()
        return None

    def flush(self) -> tuple[int, int] | None:
        if not self.batch:
            return None
        written = write_batch(self.db, self.text, self.schema, self.batch)
        self.batch, self.waiting, self.last = [], 0, time.monotonic()
        return written


def _worker(tasks: Any, events: Any, leaves: frozenset[str], path: str, shard: int, parent: int) -> None:
    """A worker process: reads files and writes what it found to its own text database and the index.

    SIGTERM (the parent stopping it) is obeyed between writes, never between the two commits of one.
    A `parent` gone (killed) stops it too: nobody is left to send it work or to wait for it.
    """
    import signal

    stopping: list[int] = []
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    signal.signal(signal.SIGTERM, lambda signum, frame: stopping.append(signum))
    try:
        batcher = Batcher(connect(path), connect(str(text_path(Path(path), shard))), "main")
        release = memory_releaser()
        while not stopping and (job := _next_job(tasks, parent)) is not None:
            for item in run_job(job, leaves):
                if (written := batcher.add(item)) is not None:
                    events.put(written)
                    release()
                if stopping:
                    return
        if not stopping and (written := batcher.flush()) is not None:
            events.put(written)
    except sqlite3.Error as exc:
        events.put(DiskFull(str(exc)) if disk_full(exc) else f"index: {exc}")
    finally:
        if os.getppid() != parent:
            events.cancel_join_thread()  # no reader: exit without waiting for the queue to empty
        events.put(None)


def memory_releaser() -> Callable[[], object]:
    """A call that gives the memory freed back to the system (glibc's malloc_trim; a no-op where there is none).
    A worker reads for minutes, and the texts of each batch are freed once written: without it, each worker kept
    the memory of its largest batches (cold index of the 15,000-session history: 332 MB at peak, 293-304 with)."""
    import ctypes  # here, not at the top: only an index's workers need it, and it takes 5 ms to import

    try:
        trim = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return lambda: None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return partial(trim, 0)


def _next_job(tasks: Any, parent: int) -> Job | None:
    """The next job from the parent; None when there is no more, or no parent."""
    while os.getppid() == parent:
        try:
            return tasks.get(timeout=1.0)
        except queue.Empty:
            continue
    return None


def mp_context() -> Any:
    import multiprocessing

    if sys.platform == "linux" and threading.active_count() == 1:
        return multiprocessing.get_context("fork")  # cheap, and safe with no other thread
    return multiprocessing.get_context("spawn")


@contextlib.contextmanager
def _spawnable() -> Iterator[None]:
    """Make starting workers safe from inside an app.

    Hide the main module from spawned workers, which would import (and so run) it again: they
    need only this module (fork-started workers do not look). Keep the current folder off their import
    path (PYTHONSAFEPATH): spawned by `python -c`, they would import a `types.py` there before the
    standard library's. And give multiprocessing the real stderr: a TUI replaces sys.stderr with an
    object whose fileno() is -1, which the resource tracker would pass on ("bad value(s) in fds_to_keep").
    """
    main = sys.modules.get("__main__")
    saved = {k: v for k, v in vars(main).items() if k in ("__spec__", "__file__")} if main else {}
    safe_path = os.environ.get("PYTHONSAFEPATH")
    if main is not None:
        main.__spec__ = None
        vars(main).pop("__file__", None)
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        with contextlib.redirect_stderr(sys.__stderr__ or sys.stderr):
            yield
    finally:
        if main is not None:
            vars(main).update(saved)
        if safe_path is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = safe_path


def run_here(
    jobs: list[Job], leaves: frozenset[str], cancel: threading.Event | None, batcher: Batcher
) -> Generator[tuple[int, int], None, None]:
    """Read the files in this process (a small update, or an index in memory); the caller flushes last."""
    for job in jobs:
        for item in run_job(job, leaves):
            if (written := batcher.add(item)) is not None:
                yield written
        if cancel is not None and cancel.is_set():
            return


def run_pool(
    jobs: list[Job],
    leaves: frozenset[str],
    path: str,
    workers: int,
    cancel: threading.Event | None,
    notices: list[str],
) -> Generator[tuple[int, int], None, None]:
    """Read `jobs` in worker processes, one per text database, that write to the index themselves;
    yield (bytes, files) as they commit. Stopping (Ctrl-C, `cancel`) ends the workers after their
    current write: what they had read but not written is read again next time."""
    ctx = mp_context()
    with _spawnable():  # queues start the resource tracker too
        tasks = ctx.Queue()
        events = ctx.Queue()
        for job in jobs:
            tasks.put(job)
        for _ in range(workers):
            tasks.put(None)
        procs = [
            ctx.Process(target=_worker, args=(tasks, events, leaves, path, k, os.getpid()), daemon=True)
            for k in range(workers)
        ]
        for p in procs:
            p.start()
    running = workers
    try:
        while running:
            if cancel is not None and cancel.is_set():
                return
            try:
                event = events.get(timeout=0.1)
            except queue.Empty:
                if any(p.is_alive() for p in procs):
                    continue
                try:  # all gone: what they sent last may still be on its way
                    event = events.get(timeout=1.0)
                except queue.Empty:
                    if failed := sorted({p.exitcode for p in procs if p.exitcode}, key=abs):
                        notices.append(
                            f"the index's workers stopped (exit status {', '.join(map(str, failed))}): what they had "
                            "left is not searchable yet, and is read again at the next refresh"
                        )
                    return
            if event is None:
                running -= 1
            elif isinstance(event, str):
                notices.append(event)
            elif isinstance(event, DiskFull):
                raise event
            else:
                yield event
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(locks.BUSY_TIMEOUT)
            if p.is_alive():
                p.kill()  # stuck: its rows may be written twice, which search tolerates
                p.join()
        tasks.cancel_join_thread()
        events.cancel_join_thread()
