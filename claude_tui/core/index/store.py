"""The Index: the cache database opened (rebuilt when old or corrupt, replaced by one in memory when locked or
on a full disk), brought up to date from the session files, and read from. The design is in __init__.py."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import orjson

from claude_tui.core.collector import gc_paused
from claude_tui.core.files import is_under, leading_leaves
from claude_tui.core.index import locks
from claude_tui.core.index import usage as usage_index
from claude_tui.core.index.extract import MAX_LEAVES, State
from claude_tui.core.index.jobs import (
    DEFECT,
    DiskFile,
    Job,
    Progress,
    UpdateResult,
    disk_totals,
    opens,
    scan,
    still_ends,
)
from claude_tui.core.index.locks import (
    DiskFull,
    IndexBusy,
    begin_writing,
    disk_full,
    error_code,
    locked,
    probe_writable,
    transaction,
)
from claude_tui.core.index.pool import Batcher, run_here, run_pool
from claude_tui.core.index.schema import (
    DB_NAME,
    SCHEMA,
    SCHEMA_VERSION,
    TEXT_NAME,
    TEXT_SCHEMA,
    attach_texts,
    cache_dir,
    has_text,
    read_only_uri,
    shard_count,
    text_schemas,
    tune,
)

#: Rebuild from scratch when dead rows exceed both this and the live rows.
DEAD_ROWS_LIMIT = 200_000
#: Below this many bytes to read, indexing stays in this process (starting workers costs more).
POOL_MIN_BYTES = 24 * 1024 * 1024
#: Report progress at most this often (seconds).
REPORT_EVERY = 0.1

T = TypeVar("T")


def worker_count() -> int:
    return max(1, min(os.cpu_count() or 1, 4))


class Index:
    """The cache database: open it, bring it up to date, read from it."""

    def __init__(self, cache: Path | None = None, roots: list[Path] | None = None) -> None:
        self.notices: list[str] = []
        self.folder = cache if cache is not None else cache_dir()
        self.path: Path | None = self.folder / DB_NAME
        self.lock = threading.RLock()
        if _inside(self.folder, roots or ()):
            self.notices.append(f"cache folder {self.folder} is inside a projects folder: working from memory")
            self.path = None
        self.db = self._open()

    def keep(self, name: str, data: bytes) -> None:
        """Write `data` to the file `name` beside the index (the cache, never under a projects folder), whole or not
        at all: nothing when the index works from memory because its folder is inside a projects folder, or when the
        cache cannot be written (what reads it then reads what it would have kept)."""
        if self.path is None:
            return
        path = self.folder / name
        temporary = path.with_name(f"{name}.{os.getpid()}.tmp")
        try:
            temporary.write_bytes(data)
            os.replace(temporary, path)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()

    # ---------------------------------------------------------------- opening

    def _open(self) -> sqlite3.Connection:
        if self.path is not None:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                return self._connect(self.path)
            except sqlite3.OperationalError as exc:
                reason = "busy (another process holds it)" if locked(exc) else f"not writable ({exc})"
                self.notices.append(f"the index in {self.folder} is {reason}: working from memory")
            except OSError as exc:
                self.notices.append(f"cache folder {self.folder} not writable ({exc.strerror}): working from memory")
            except sqlite3.DatabaseError:  # not a database, or damaged: it is only a cache
                self._remove_files()
                try:
                    return self._connect(self.path)
                except sqlite3.DatabaseError:
                    self.notices.append(f"cannot rebuild the index at {self.path}: working from memory")
            self.path = None
        return self._connect(None)

    def _connect(self, path: Path | None) -> sqlite3.Connection:
        db = sqlite3.connect(
            ":memory:" if path is None else str(path),
            timeout=locks.BUSY_TIMEOUT,
            isolation_level=None,
            check_same_thread=False,
        )
        try:
            tune(db, "main", wal=path is not None)
            db.execute("PRAGMA temp_store=MEMORY")
            version = None
            if db.execute("SELECT 1 FROM sqlite_master WHERE name='meta'").fetchone():
                row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                version = row[0] if row else None
            shards = shard_count(db) if version == SCHEMA_VERSION else 0
            attach_texts(db, path, shards)
            if not shards or not all(has_text(db, schema) for schema in text_schemas(db)):
                self._create(db, worker_count() if path is not None else 1)
            else:
                probe_writable(db)
        except BaseException:
            db.close()
            raise
        return db

    def _create(self, db: sqlite3.Connection, shards: int) -> None:
        """Drop whatever is there and create the current schema, with `shards` text databases."""
        attached = text_schemas(db)
        if len(attached) != shards:
            for name in attached:
                db.execute("DETACH DATABASE ?", (name,))
            attach_texts(db, self.path, shards)
            attached = text_schemas(db)
        db.execute("BEGIN IMMEDIATE")
        for schema in ("main", *attached):
            if has_text(db, schema):
                db.execute(f"DROP TABLE {schema}.fts")  # the FTS table first: it drops its own shadow tables
            for (name,) in db.execute(
                f"SELECT name FROM {schema}.sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
            ).fetchall():
                db.execute(f'DROP TABLE {schema}."{name}"')
        script = SCHEMA + "".join(TEXT_SCHEMA.format(s=schema) for schema in attached)
        for statement in script.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute("INSERT INTO meta VALUES ('shards', ?)", (shards,))
        db.execute("COMMIT")

    def _remove_files(self) -> None:
        assert self.path is not None
        for name in [DB_NAME, *(p.name for p in self.folder.glob(TEXT_NAME.format("*")))]:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.folder / f"{name}{suffix}")

    def rebuild(self) -> None:
        """Start again from an empty index (in place: readers elsewhere see an empty index, then the new one)."""
        with self.lock:
            try:
                self._create(self.db, len(text_schemas(self.db)) or 1)
            except sqlite3.DatabaseError as exc:
                if locked(exc):
                    raise
                self.db.close()
                if self.path is not None:
                    self._remove_files()
                self.db = self._connect(self.path)

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def version(self) -> int:
        """A number that changes when another connection (a worker, another process) commits."""
        with self.lock:
            return self.db.execute("PRAGMA data_version").fetchone()[0]

    def note(self, text: str) -> None:
        """Add a notice for the user, once."""
        if text not in self.notices:
            self.notices.append(text)

    # ---------------------------------------------------------------- reading

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A connection to read from, even while an update is writing (readers of a WAL file never wait)."""
        if self.path is None:
            with self.lock:
                yield self.db
            return
        db = sqlite3.connect(read_only_uri(self.path), uri=True, timeout=locks.BUSY_TIMEOUT, check_same_thread=False)
        try:
            attach_texts(db, self.path, shard_count(db), read_only=True)
            yield db
        finally:
            db.close()

    def files(self, roots: list[Path]) -> list[tuple[str, str, bool, int, int, bytes | None, str | None]]:
        """(path, folder, agent, size, mtime_ns, facts JSON, error) of every indexed file under `roots`."""
        sql = "SELECT path, folder, agent, size, mtime_ns, facts, error FROM files WHERE root IN ({})"
        return self._under(roots, sql)

    def totals(self, roots: list[Path]) -> tuple[int, int, int]:
        """(projects, sessions, bytes) of the files under `roots` that were read (or could not be): projects are
        the folders with a session; bytes count subagent files too."""
        sql = (
            "SELECT count(DISTINCT CASE WHEN NOT agent THEN folder END), total(NOT agent), total(max(0, size))"
            " FROM files WHERE root IN ({}) AND (facts IS NOT NULL OR error IS NOT NULL)"
        )
        projects, sessions, size = self._under(roots, sql)[0]
        return projects, int(sessions), int(size)

    def state(self, roots: list[Path]) -> tuple[Any, ...]:
        """A value that changes whenever a file under `roots` is added, read again or removed (its count, highest
        id, sizes, times, offsets read to and errors): what the library read from the index stands for. Read from
        the indexes files_stamp and files_unreadable alone, never the rows and their blobs (read at every start)."""
        names = [str(r) for r in roots]
        under = f"root IN ({','.join('?' * len(names))})"
        sql = (
            "SELECT count(*), max(id), total(size), total(mtime_ns), total(offset),"
            f" (SELECT count(*) FROM files WHERE {under} AND error IS NOT NULL) FROM files WHERE {under}"
        )
        return tuple(self.read(roots, lambda db: db.execute(sql, names * 2).fetchone()))

    def unreadable(self, roots: list[Path]) -> list[tuple[str, str]]:
        """(path, error) of every file under `roots` that could not be read, by path."""
        sql = "SELECT path, error FROM files WHERE root IN ({}) AND error IS NOT NULL ORDER BY path"
        return self._under(roots, sql)

    def summaries(self, roots: list[Path]) -> dict[tuple[str, str], str]:
        """(folder, leafUuid) -> summary for the summaries under `roots` (of a leaf's several: the last written)."""
        sql = (
            "SELECT s.folder, s.leaf, s.summary FROM summaries s JOIN files f ON f.id = s.file"
            " WHERE f.root IN ({}) ORDER BY s.rowid"
        )
        return {(folder, leaf): text for folder, leaf, text in self._under(roots, sql)}

    def _under(self, roots: list[Path], sql: str) -> list[Any]:
        """The rows of `sql` for the files under `roots`, whose names fill its `{}`."""
        names = [str(r) for r in roots]
        return self.read(roots, lambda db: db.execute(sql.format(",".join("?" * len(names))), names).fetchall())

    # ---------------------------------------------------------------- updating

    def update(
        self,
        roots: list[Path],
        progress: Callable[[Progress], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> UpdateResult:
        """Bring the index up to date with the files under `roots` (only new bytes are read).

        Ctrl-C (KeyboardInterrupt) or `cancel` stops it; what was read stays indexed.
        """
        with self.lock:
            try:
                return self._update(roots, progress, cancel)
            except DiskFull as exc:
                self._to_memory(str(exc))
            except sqlite3.DatabaseError as exc:
                if locked(exc):
                    raise IndexBusy(str(exc)) from exc
                if disk_full(exc):
                    self._to_memory(str(exc))
                else:
                    self._mend(exc)
            return self._update(roots, progress, cancel)

    def _to_memory(self, reason: str) -> None:
        """Go on with an index in memory: the cache folder's disk is full."""
        self.note(f"cannot write the index in {self.folder} ({reason}): working from memory")
        self.db.close()
        self.path = None
        self.db = self._connect(None)

    def _mend(self, exc: sqlite3.DatabaseError) -> None:
        self.note(f"index damaged ({exc}): rebuilt")
        self.rebuild()

    def read(self, roots: list[Path], work: Callable[[sqlite3.Connection], T]) -> T:
        """`work` done on a connection to read from. A damaged page met on the way (a cache is
        never checked whole: that would cost as much as reading it) has the index rebuilt and
        brought up to date for `roots`, and `work` done again."""
        try:
            with self.reading() as db:
                return work(db)
        except sqlite3.DatabaseError as exc:
            if error_code(exc) not in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
                raise
            with self.lock:
                self._mend(exc)
            self.update(roots)
            with self.reading() as db:
                return work(db)

    def _update(
        self, roots: list[Path], progress: Callable[[Progress], None] | None, cancel: threading.Event | None
    ) -> UpdateResult:
        started = time.monotonic()
        result = UpdateResult()
        with gc_paused():  # a stat of every file and the index's row of each: tens of thousands of objects
            found: list[str] = []
            disk = scan(roots, found)
            for notice in found:
                self.note(notice)
            db = self.db
            dead = self._dead_rows()
            if dead > DEAD_ROWS_LIMIT and dead > self._live_rows():
                self.rebuild()
                db = self.db
            root_names = [str(r) for r in roots]
            under = f"root IN ({','.join('?' * len(root_names))})"
            known = {
                path: (fid, size, mtime_ns, inode, offset)
                for fid, path, size, mtime_ns, inode, offset in db.execute(
                    f"SELECT id, path, size, mtime_ns, inode, offset FROM files WHERE {under}", root_names
                )
            }
            failed = {  # that could not be opened or read: not those that met a defect of ours, which would again
                path
                for (path,) in db.execute(
                    f"SELECT path FROM files WHERE {under} AND error IS NOT NULL AND instr(error, ?) != 1",
                    [*root_names, DEFECT],
                )
            }
            jobs, new, gone = self._plan(disk, known, failed)
        if not jobs and not gone and not new:
            result.totals = disk_totals(disk)  # every file read already: the index's totals without a query
            result.seconds = time.monotonic() - started
            return result
        result.waited = begin_writing(db, progress, cancel)
        try:
            result.removed = self._forget([known[p][0] for p in gone])
            jobs = self._place(jobs + self._add_files(new), {f.path: f.mtime_ns for f in disk})
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        self._run(jobs, result, progress, cancel)
        result.seconds = time.monotonic() - started
        return result

    def _plan(
        self, disk: list[DiskFile], known: dict[str, tuple[int, int, int, int, int]], failed: set[str]
    ) -> tuple[list[Job], list[DiskFile], list[str]]:
        """Jobs for files that grew, or that could not be read (`failed`) and open now (a `chmod` does
        not change a file's mtime); files to add (new or rewritten); paths gone from disk."""
        jobs: list[Job] = []
        new: list[DiskFile] = []
        seen = set()
        grown = []
        for f in disk:
            seen.add(f.path)
            old = known.get(f.path)
            if old is None:
                new.append(f)
                continue
            fid, size, mtime_ns, inode, offset = old
            if size == f.size and mtime_ns == f.mtime_ns and inode == f.inode:
                if f.path in failed and opens(f.path):
                    grown.append((fid, f, offset))  # read on from where it failed
                continue  # unchanged: the common case costs one stat
            if inode == f.inode and f.size >= offset and (f.size > size or mtime_ns == -1):
                grown.append((fid, f, offset))  # appended to, or its last read was stopped
            else:
                new.append(f)  # shrank, replaced, or written over at the same size: read again under a new id
        kept = self._kept([g[0] for g in grown]) if grown else {}
        for fid, f, offset in grown:
            state, tail = kept.get(fid, (None, None))
            if still_ends(f.path, offset, tail):
                jobs.append((fid, f.path, f.agent, offset, f.size, f.inode, state, 0))
            else:
                new.append(f)  # rewritten before growing
        gone = [p for p in known if p not in seen]
        gone += [f.path for f in new if f.path in known]
        return jobs, new, gone

    def _place(self, jobs: list[Job], mtimes: dict[str, int]) -> list[Job]:
        """Give each read a range of row ids above all before, the most recently written file last."""
        top = self.db.execute("SELECT value FROM meta WHERE key='top'").fetchone()[0]
        placed = []
        for fid, path, agent, start, stop, inode, state, _ in sorted(jobs, key=lambda j: mtimes.get(j[1], 0)):
            placed.append((fid, path, agent, start, stop, inode, state, top - start))
            top += stop - start + 1
        self.db.execute("UPDATE meta SET value=? WHERE key='top'", (top,))
        return placed

    def _kept(self, fids: list[int]) -> dict[int, tuple[bytes | None, bytes | None]]:
        """The reading state and the tail of files."""
        found: dict[int, tuple[bytes | None, bytes | None]] = {}
        for i in range(0, len(fids), 500):
            part = fids[i : i + 500]
            sql = f"SELECT id, state, tail FROM files WHERE id IN ({','.join('?' * len(part))})"
            found.update((fid, (state, tail)) for fid, state, tail in self.db.execute(sql, part))
        return found

    def _forget(self, fids: list[int]) -> int:
        """Remove files from the index; their rows stay behind, dead, until a rebuild."""
        db = self.db
        dead = 0
        for fid in fids:
            row = db.execute("DELETE FROM files WHERE id=? RETURNING nrows", (fid,)).fetchone()
            dead += row[0] if row else 0
            db.execute("DELETE FROM summaries WHERE file=?", (fid,))
            db.execute("DELETE FROM marks WHERE file=?", (fid,))
            usage_index.forget(db, fid)
        db.execute("UPDATE meta SET value = value + ? WHERE key='dead'", (dead,))
        return len(fids)

    def _add_files(self, files: list[DiskFile]) -> list[Job]:
        db = self.db
        jobs: list[Job] = []
        for f in files:
            row = db.execute(
                "INSERT INTO files(path, root, folder, agent, inode) VALUES (?,?,?,?,?)"
                " ON CONFLICT(path) DO NOTHING RETURNING id",
                (f.path, f.root, f.folder, int(f.agent), f.inode),
            ).fetchone()
            if row:
                jobs.append((row[0], f.path, f.agent, 0, f.size, f.inode, None, 0))
        return jobs

    def _run(
        self,
        jobs: list[Job],
        result: UpdateResult,
        progress: Callable[[Progress], None] | None,
        cancel: threading.Event | None,
    ) -> None:
        jobs.reverse()  # the most recently written first: a first index shows the latest work first
        report = Progress(files_total=len(jobs), bytes_total=sum(j[4] - j[3] for j in jobs))
        new = [path for _, path, agent, start, *_ in jobs if not start and not agent]
        known = {leaf for (leaf,) in self.db.execute("SELECT DISTINCT leaf FROM summaries")}
        leaves = frozenset(known | leading_leaves(new))  # a new file's summaries: known to the files read before it
        last_report = 0.0
        batcher = None
        shards = text_schemas(self.db)
        workers = min(worker_count(), len(shards))
        if self.path is not None and workers > 1 and len(jobs) > 1 and report.bytes_total > POOL_MIN_BYTES:
            written = run_pool(jobs, leaves, str(self.path), workers, cancel, self.notices)
        else:
            batcher = Batcher(self.db, self.db, shards[0])
            written = run_here(jobs, leaves, cancel, batcher)
        try:
            for done, files in written:
                report.bytes_done += done
                report.files_done += files
                if progress is not None and time.monotonic() - last_report >= REPORT_EVERY:
                    progress(report)
                    last_report = time.monotonic()
        except KeyboardInterrupt:
            result.interrupted = True
        finally:
            written.close()  # now, not when the traceback is freed: workers must stop writing
        if batcher is not None and (last := batcher.flush()) is not None:  # what was read is kept
            report.bytes_done += last[0]
            report.files_done += last[1]
        self._note_late_leaves(known)
        result.bytes_read, result.files_read = report.bytes_done, report.files_done
        if cancel is not None and cancel.is_set():
            result.interrupted = True
        if progress is not None:
            progress(report)
        if result.interrupted and cancel is None:
            raise KeyboardInterrupt

    def _note_late_leaves(self, known: set[str]) -> None:
        """Note the messages that summaries new to the index (not in `known`) name in the files that hold them, as
        reading those files again would: files read before the summaries, or beside them."""
        updates = list(self._late_leaves(known))
        if updates:  # written first in the transaction (see transaction); a file read meanwhile is left as it is
            sql = "UPDATE files SET state=?, facts=? WHERE id=? AND offset=?"
            transaction(self.db, lambda: self.db.executemany(sql, updates))

    def _late_leaves(self, known: set[str]) -> Iterator[tuple[bytes, bytes, int, int]]:
        """(state, facts, file id, offset) of each file whose marks hold a leaf of a summary not in `known` and
        whose noted leaves change: its marks that its folder's summaries name, in file order."""
        db = self.db
        fresh = [leaf for (leaf,) in db.execute("SELECT DISTINCT leaf FROM summaries") if leaf not in known]
        holders: set[int] = set()
        for i in range(0, len(fresh), 500):
            part = fresh[i : i + 500]
            sql = f"SELECT DISTINCT file FROM marks WHERE uuid IN ({','.join('?' * len(part))})"
            holders.update(fid for (fid,) in db.execute(sql, part))
        for fid in holders:
            named = db.execute(
                "SELECT m.uuid FROM marks m JOIN files f ON f.id = m.file"
                " JOIN summaries s ON s.folder = f.folder AND s.leaf = m.uuid WHERE m.file = ? ORDER BY m.rowid",
                (fid,),
            )
            leaves = list(dict.fromkeys(uuid for (uuid,) in named))[-MAX_LEAVES:]
            blob, offset = db.execute("SELECT state, offset FROM files WHERE id = ?", (fid,)).fetchone()
            state = State.load(blob)
            if state.leaves != leaves:
                state.leaves = leaves
                yield state.dump(), orjson.dumps(state.facts()), fid, offset

    def _dead_rows(self) -> int:
        row = self.db.execute("SELECT value FROM meta WHERE key='dead'").fetchone()
        return row[0] if row else 0

    def _live_rows(self) -> int:
        return self.db.execute("SELECT coalesce(sum(nrows), 0) FROM files").fetchone()[0]


def _inside(folder: Path, roots: Iterable[Path]) -> bool:
    try:
        return is_under(folder, roots)
    except OSError:
        return False
