"""The index: a SQLite cache of every session file's facts, and a full-text table of its text.

One database in the user's cache folder (`cache_dir()`):

- `files`: per file its size, mtime, inode, the byte offset read so far, its facts (JSON)
  and the state needed to read on from that offset (see extract.State);
- `summaries`: summary records by leaf, for titles;
- `marks`: the uuids of each file that a summary may name (see extract.Extractor.marks), so that a summary
  read after the file that holds its message titles that file's session without reading the file again;
- `usage`, `usage_sums`, `usage_dups`: each assistant message's usage once per file, and sums of it, so that a
  total over the whole history counts a message once however many files hold it (see usage_index.py).

Beside it, one text database per worker process (`index-text-N.sqlite3`, attached as `textN`),
so that workers fill the full-text index side by side rather than in turns:

- `rows` and `fts`: one row per searchable part of a message (prompt, answer, thinking,
  tool input, tool output), keyed by the order text arrived (see extract.Extractor), with its
  record's time (NULL for a record without one: no date filter lets it through). `fts` is
  a contentless FTS5 table (no copy of the text, no positions): snippets and phrase checks
  read the session file itself, at the row's byte offset, when a hit is shown. Its segments are
  merged only once 64 pile up at a level (not a few at every commit, as by default): that made
  a quarter of the cost of filling it, and a query over many segments still takes a millisecond;
- `reads`: per read of a file, its lowest row id and its newest timestamp, so that search can
  tell when no row below an id can be newer than the hits it holds (search.newest_first).

A worker commits a file's rows to its text database first, then the file's new offset to the
index. Stopped between the two (killed), the rows are written again by the next read, and
search drops the duplicates.

It is a cache: a missing, old, corrupt or locked database is rebuilt or replaced by one in
memory, never fatal; so is one on a full disk. A file replaced or deleted leaves its rows behind as dead weight
(a contentless FTS5 table cannot forget a row without its text); search ignores them,
and the database is rebuilt from scratch when they outnumber the live ones.

Nothing is ever written under a projects folder.
"""

from __future__ import annotations

import contextlib
import os
import queue
import sqlite3
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import orjson

from claude_tui.core import usage_index
from claude_tui.core.extract import MAX_LEAVES, Extractor, State, read_chunks
from claude_tui.core.files import is_under, leading_leaves, root_hint, transcript_entries
from claude_tui.core.reader import ReadError, open_readonly
from claude_tui.core.sanitize import undecoded

SCHEMA_VERSION = 29
DB_NAME = "index.sqlite3"
TEXT_NAME = "index-text-{}.sqlite3"
#: A result is cut once this many bytes of a file have been read (memory stays bounded).
EMIT_BYTES = 16 * 1024 * 1024
#: Below this many bytes to read, indexing stays in this process (starting workers costs more).
POOL_MIN_BYTES = 24 * 1024 * 1024
#: Commit at least this often (seconds), so Ctrl-C keeps nearly everything read.
COMMIT_EVERY = 1.0
#: Report progress at most this often (seconds).
REPORT_EVERY = 0.1
#: Commit, too, once this many bytes were read since the last commit (memory stays bounded).
COMMIT_BYTES = 32 * 1024 * 1024
#: Rebuild from scratch when dead rows exceed both this and the live rows.
DEAD_ROWS_LIMIT = 200_000
#: How the error of a file that claude-tui failed on (an exception, not the file's fault) begins.
DEFECT = "claude-tui failed on it: "
#: Seconds to wait for another process's write to finish.
BUSY_TIMEOUT = 30.0
#: Seconds an update waits to start writing while another process writes (claude-tui's own writes take
#: about a second); then the index is used as it is.
WRITE_WAIT = 5.0
#: Seconds of each try to start writing: Ctrl-C is answered between two.
WRITE_TRY = 0.1

T = TypeVar("T")

_SCHEMA = f"""
CREATE TABLE meta(key TEXT PRIMARY KEY, value);
CREATE TABLE files(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    path TEXT NOT NULL UNIQUE,
    root TEXT NOT NULL,
    folder TEXT NOT NULL,
    agent INTEGER NOT NULL,
    size INTEGER NOT NULL DEFAULT -1,
    mtime_ns INTEGER NOT NULL DEFAULT -1,
    inode INTEGER NOT NULL DEFAULT -1,
    offset INTEGER NOT NULL DEFAULT 0,
    nrows INTEGER NOT NULL DEFAULT 0,
    project TEXT,
    facts BLOB,
    state BLOB,
    tail BLOB,
    error TEXT
);
-- covers the check of every file for changes: it reads this index, not the rows and their blobs
CREATE INDEX files_stamp ON files(root, path, size, mtime_ns, inode, offset, id);
-- the few files that could not be read: each update tries them again
CREATE INDEX files_unreadable ON files(root, path) WHERE error IS NOT NULL;
CREATE TABLE summaries(file INTEGER NOT NULL, folder TEXT NOT NULL, leaf TEXT NOT NULL, summary TEXT NOT NULL);
CREATE INDEX summaries_file ON summaries(file);
CREATE INDEX summaries_leaf ON summaries(folder, leaf);
CREATE TABLE marks(file INTEGER NOT NULL, uuid TEXT NOT NULL);
CREATE INDEX marks_file ON marks(file);
CREATE INDEX marks_uuid ON marks(uuid);
{usage_index.SCHEMA}
INSERT INTO meta VALUES ('schema', {SCHEMA_VERSION}), ('dead', 0), ('top', 1);
"""
_TEXT_SCHEMA = """
CREATE TABLE {s}.rows(
    id INTEGER PRIMARY KEY, file INTEGER, off INTEGER, kind INTEGER, blk INTEGER, tool TEXT, err INTEGER, ts INTEGER
);
CREATE TABLE {s}.reads(lo INTEGER, ts INTEGER);
CREATE VIRTUAL TABLE {s}.fts USING fts5(text, content='', detail=none, columnsize=0);
INSERT INTO {s}.fts(fts, rank) VALUES ('hashsize', 8388608);
INSERT INTO {s}.fts(fts, rank) VALUES ('automerge', 0);
INSERT INTO {s}.fts(fts, rank) VALUES ('crisismerge', 64);
"""


def cache_dir() -> Path:
    """$CLAUDE_TUI_CACHE_DIR, else $XDG_CACHE_HOME/claude-tui, else ~/.cache/claude-tui."""
    own = os.environ.get("CLAUDE_TUI_CACHE_DIR")
    if own:
        return Path(own).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "claude-tui"


@dataclass
class Progress:
    """How far an update has got."""

    files_done: int = 0
    files_total: int = 0
    bytes_done: int = 0
    bytes_total: int = 0
    started: float = field(default_factory=time.monotonic)
    waiting: bool = False  #: for another process to finish writing the index

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    @property
    def eta(self) -> float | None:
        """Seconds left, estimated from the bytes read so far."""
        if self.bytes_done <= 0 or self.elapsed < 0.2:
            return None
        return self.elapsed * (self.bytes_total - self.bytes_done) / self.bytes_done


@dataclass
class UpdateResult:
    """What an update did."""

    files_read: int = 0
    bytes_read: int = 0
    removed: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    waited: float = 0.0  #: seconds of `seconds` spent waiting for another process's write
    busy: bool = False  #: another process kept writing: nothing was updated


@dataclass(slots=True)
class DiskFile:
    """A session or subagent file found on disk."""

    path: str
    root: str
    folder: str
    agent: bool
    size: int
    mtime_ns: int
    inode: int


class IndexBusy(Exception):
    """Another process kept writing the database; the caller may use it as it is."""


class DiskFull(Exception):
    """A worker could not write the index: its disk is full."""


def scan(roots: list[Path], notices: list[str]) -> list[DiskFile]:
    """Every session file and subagent transcript under `roots`, with its stat."""
    found: list[DiskFile] = []
    for root in roots:
        try:
            projects = [e for e in os.scandir(root) if e.is_dir()]
        except FileNotFoundError:
            notices.append(f"no projects folder at {root}")
            continue
        except OSError as exc:
            notices.append(f"cannot read {root}: {exc.strerror or exc}")
            continue
        before = len(found)
        for project in projects:
            _scan_folder(project.path, str(root), project.path, found)
        if len(found) == before and (hint := root_hint(root)):
            notices.append(hint)
    odd = [f.path for f in found if undecoded(f.path)]  # a name the database cannot hold
    if odd:
        shown = os.fsencode(odd[0]).decode("utf-8", "backslashreplace")
        notices.append(f"files whose names are not UTF-8 are left out of the index: {len(odd)}, {shown}")
        found = [f for f in found if not undecoded(f.path)]
    return found


def _scan_folder(path: str, root: str, folder: str, found: list[DiskFile]) -> None:
    """The session files of a project folder, and the subagent transcripts beside them and in their own folders."""
    try:
        entries = list(os.scandir(path))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.name.endswith(".jsonl"):
                _add_file(entry, root, folder, entry.name.startswith("agent-"), found)
            elif entry.is_dir():
                for transcript in transcript_entries(entry.path):
                    _add_file(transcript, root, folder, True, found)
        except OSError:
            continue


def _add_file(entry: os.DirEntry[str], root: str, folder: str, agent: bool, found: list[DiskFile]) -> None:
    if entry.is_file():
        st = entry.stat()
        found.append(DiskFile(entry.path, root, folder, agent, st.st_size, st.st_mtime_ns, st.st_ino))


# ---------------------------------------------------------------- reading files (in workers)


Job = tuple[int, str, bool, int, int, int, bytes | None, int]  #: (file id, path, agent, start, end, inode, state, base)


class Result(NamedTuple):
    """What a read of one file found between two byte offsets, as `write_batch` writes it."""

    file: int  #: the file's id
    start: int  #: the offset read from: the result is written only if the index still has the file there
    end: int  #: the offset read to
    final: bool  #: the last result of the read
    size: int
    mtime_ns: int
    inode: int
    rows: list[tuple[int, int, int, int, int, str | None, int, int | None]]  #: see Extractor.rows
    texts: list[tuple[int, str]]  #: (row id, text) for the full-text table
    summaries: list[tuple[str, str]]  #: (leafUuid, summary)
    marks: list[str]  #: see Extractor.marks
    usages: list[tuple[Any, ...]]  #: see Extractor.usages
    state: bytes | None  #: extract.State, to read on from `end`
    facts: bytes | None  #: the session's facts (JSON); None leaves them as they were
    project: str | None  #: the first working folder
    tail: bytes | None  #: the last bytes before `end` (see TAIL_BYTES)
    error: str | None  #: why the file could not be read


#: Bytes before a file's offset kept to tell, when it grows, that it was appended to and not rewritten.
TAIL_BYTES = 64


def run_job(job: Job, leaves: frozenset[str]) -> Iterator[Result]:
    """Read one file from its offset; yield a result every EMIT_BYTES and at the end."""
    fid, path, agent, start, stop, inode, blob, base = job
    try:
        fd = open_readonly(path)
    except ReadError as exc:
        yield _failure(job, str(exc))
        return
    try:
        st = os.fstat(fd)
        if st.st_ino != inode or st.st_size < stop:
            return  # replaced since the scan: the next update reads it again
        state = State.load(blob) if blob else State(agent)
        ex = Extractor(state, fid, base, leaves, path)
        begin = end = start
        tail = None
        for lines, off, end in read_chunks(fd, start, stop):  # not past `stop`: ids above belong to other reads
            ex.feed(lines, off)
            tail = _tail(lines, end - off)
            if end - begin >= EMIT_BYTES:
                yield _result(ex, begin, end, False, st, stop, tail)
                begin = end
        yield _result(ex, begin, end, True, st, stop, tail)
    except OSError as exc:
        yield _failure(job, exc.strerror or str(exc))
    except Exception as exc:  # a defect of ours, met in one file, must not stop the others
        yield _failure(job, f"{DEFECT}{exc!r}")
    finally:
        os.close(fd)


def _tail(lines: bytes, span: int) -> bytes:
    """The last TAIL_BYTES of the file before a chunk's end: `lines` is the chunk's `span` bytes
    without its last newline, which a finished last line may not have."""
    if span > len(lines):
        return lines[-TAIL_BYTES + 1 :] + b"\n"
    return lines[-TAIL_BYTES:]


def _result(
    ex: Extractor, begin: int, end: int, final: bool, st: os.stat_result, stop: int, tail: bytes | None
) -> Result:
    state = ex.state
    rows, texts, summaries, marks = ex.rows, ex.texts, ex.summaries, ex.marks
    ex.rows, ex.texts, ex.summaries, ex.marks = [], [], [], []
    usages = [(ex.file_id, mid, *usage) for mid, usage in ex.usages.items()]
    ex.usages = {}
    project = state.cwds[0] if state.cwds else None
    return Result(ex.file_id, begin, end, final, stop, st.st_mtime_ns, st.st_ino, rows, texts, summaries, marks,
                  usages, state.dump(), orjson.dumps(state.facts()), project, tail, None)  # fmt: skip


def _failure(job: Job, error: str) -> Result:
    """The result of a file that could not be read: kept as it is. The next update that can open it reads it
    again (Index._plan), unless the error was claude-tui's own (DEFECT): then only once it changes."""
    fid, path, _, start, stop, inode, state, _ = job
    try:
        mtime_ns = os.stat(path).st_mtime_ns
    except OSError:
        mtime_ns = -1
    return Result(fid, start, start, True, stop, mtime_ns, inode, [], [], [], [], [], state, None, None, None, error)


def write_batch(db: sqlite3.Connection, text: sqlite3.Connection, schema: str, batch: list[Result]) -> tuple[int, int]:
    """Write results: their rows to the text database `schema` of `text`, then the files' progress
    to the index `db`; return (bytes, files) written.

    A result counts only if its file is still where it was read from (`offset` = its start):
    another process may have got there first.
    """
    batch = _still_wanted(db, batch)
    _transaction(text, lambda: _insert_text(text, schema, batch))
    return _transaction(db, lambda: _record_progress(db, batch))


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


def _transaction(db: sqlite3.Connection, work: Callable[[], Any]) -> Any:
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


class _Batcher:
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
        batcher = _Batcher(connect(path), connect(str(text_path(Path(path), shard))), "main")
        while not stopping and (job := _next_job(tasks, parent)) is not None:
            for item in run_job(job, leaves):
                if (written := batcher.add(item)) is not None:
                    events.put(written)
                if stopping:
                    return
        if not stopping and (written := batcher.flush()) is not None:
            events.put(written)
    except sqlite3.Error as exc:
        events.put(DiskFull(str(exc)) if _full(exc) else f"index: {exc}")
    finally:
        if os.getppid() != parent:
            events.cancel_join_thread()  # no reader: exit without waiting for the queue to empty
        events.put(None)


def _next_job(tasks: Any, parent: int) -> Job | None:
    """The next job from the parent; None when there is no more, or no parent."""
    while os.getppid() == parent:
        try:
            return tasks.get(timeout=1.0)
        except queue.Empty:
            continue
    return None


def connect(path: str) -> sqlite3.Connection:
    """A connection for writing to the index file, waiting while another writer finishes."""
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("PRAGMA cache_size=-8192")
    return db


def _context() -> Any:
    import multiprocessing

    if sys.platform == "linux" and threading.active_count() == 1:
        return multiprocessing.get_context("fork")  # cheap, and safe with no other thread
    return multiprocessing.get_context("spawn")


@contextlib.contextmanager
def _spawnable() -> Iterator[None]:
    """Make starting workers safe from inside an app.

    Hide the main module from spawned workers, which would import (and so run) it again: they
    need only this module (fork-started workers do not look). And give multiprocessing the real
    stderr: a TUI replaces sys.stderr with an object whose fileno() is -1, which the resource
    tracker would pass on ("bad value(s) in fds_to_keep").
    """
    main = sys.modules.get("__main__")
    saved = {k: v for k, v in vars(main).items() if k in ("__spec__", "__file__")} if main else {}
    if main is not None:
        main.__spec__ = None
        vars(main).pop("__file__", None)
    try:
        with contextlib.redirect_stderr(sys.__stderr__ or sys.stderr):
            yield
    finally:
        if main is not None:
            vars(main).update(saved)


def worker_count() -> int:
    return max(1, min(os.cpu_count() or 1, 4))


def text_path(index_path: Path, shard: int) -> Path:
    return index_path.with_name(TEXT_NAME.format(shard))


def text_schemas(db: sqlite3.Connection) -> list[str]:
    """The text databases attached to a connection: text0, text1, ..."""
    return [name for _, name, _ in db.execute("PRAGMA database_list") if name.startswith("text")]


def _has_text(db: sqlite3.Connection, schema: str) -> bool:
    return db.execute(f"SELECT 1 FROM {schema}.sqlite_master WHERE name='fts'").fetchone() is not None


def _shards(db: sqlite3.Connection) -> int:
    row = db.execute("SELECT value FROM meta WHERE key='shards'").fetchone()
    return row[0] if row else 0


def _attach(db: sqlite3.Connection, index_path: Path | None, shards: int, read_only: bool = False) -> None:
    """Attach the text databases beside the index (in memory with an index in memory)."""
    for k in range(shards):
        if index_path is None:
            target = ":memory:"
        else:
            path = text_path(index_path, k)
            target = _read_only(path) if read_only else str(path)
        db.execute("ATTACH DATABASE ? AS ?", (target, f"text{k}"))
        if not read_only:
            _tune(db, f"text{k}", wal=index_path is not None)


def _tune(db: sqlite3.Connection, schema: str, wal: bool) -> None:
    """A cache needs no durability: a lost write is read again."""
    if wal:
        db.execute(f"PRAGMA {schema}.journal_mode=WAL")
    db.execute(f"PRAGMA {schema}.synchronous=OFF")
    db.execute(f"PRAGMA {schema}.cache_size=-8192")


def _read_only(path: Path) -> str:
    return f"file:{urllib.parse.quote(str(path))}?mode=ro"


# ---------------------------------------------------------------- the database


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
                reason = "busy (another process holds it)" if _locked(exc) else f"not writable ({exc})"
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
            timeout=BUSY_TIMEOUT,
            isolation_level=None,
            check_same_thread=False,
        )
        try:
            _tune(db, "main", wal=path is not None)
            db.execute("PRAGMA temp_store=MEMORY")
            version = None
            if db.execute("SELECT 1 FROM sqlite_master WHERE name='meta'").fetchone():
                row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                version = row[0] if row else None
            shards = _shards(db) if version == SCHEMA_VERSION else 0
            _attach(db, path, shards)
            if not shards or not all(_has_text(db, schema) for schema in text_schemas(db)):
                self._create(db, worker_count() if path is not None else 1)
            else:
                _probe_writable(db)
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
            _attach(db, self.path, shards)
            attached = text_schemas(db)
        db.execute("BEGIN IMMEDIATE")
        for schema in ("main", *attached):
            if _has_text(db, schema):
                db.execute(f"DROP TABLE {schema}.fts")  # the FTS table first: it drops its own shadow tables
            for (name,) in db.execute(
                f"SELECT name FROM {schema}.sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
            ).fetchall():
                db.execute(f'DROP TABLE {schema}."{name}"')
        script = _SCHEMA + "".join(_TEXT_SCHEMA.format(s=schema) for schema in attached)
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
                if _locked(exc):
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
        db = sqlite3.connect(_read_only(self.path), uri=True, timeout=BUSY_TIMEOUT, check_same_thread=False)
        try:
            _attach(db, self.path, _shards(db), read_only=True)
            yield db
        finally:
            db.close()

    def files(self, roots: list[Path]) -> list[tuple[str, str, bool, int, int, bytes | None, str | None]]:
        """(path, folder, agent, size, mtime_ns, facts JSON, error) of every indexed file under `roots`."""
        sql = "SELECT path, folder, agent, size, mtime_ns, facts, error FROM files WHERE root IN ({})"
        return self._under(roots, sql)

    def state(self, roots: list[Path]) -> tuple[Any, ...]:
        """A value that changes whenever a file under `roots` is added, read again or removed (its count, highest
        id, sizes, times, rows and errors): what the library read from the index stands for."""
        sql = "SELECT count(*), max(id), total(size), total(mtime_ns), total(nrows), count(error) FROM files"
        return tuple(self._under(roots, sql + " WHERE root IN ({})")[0])

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
                if _locked(exc):
                    raise IndexBusy(str(exc)) from exc
                if _full(exc):
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
            if _code(exc) not in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
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
            result.seconds = time.monotonic() - started
            return result
        result.waited = _begin_writing(db, progress, cancel)
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
                if f.path in failed and _opens(f.path):
                    grown.append((fid, f, offset))  # read on from where it failed
                continue  # unchanged: the common case costs one stat
            if inode == f.inode and f.size >= offset and (f.size > size or mtime_ns == -1):
                grown.append((fid, f, offset))  # appended to, or its last read was stopped
            else:
                new.append(f)  # shrank, replaced, or written over at the same size: read again under a new id
        kept = self._kept([g[0] for g in grown]) if grown else {}
        for fid, f, offset in grown:
            state, tail = kept.get(fid, (None, None))
            if _still_ends(f.path, offset, tail):
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
        found = {}
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
        jobs = []
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
            written = _pool(jobs, leaves, str(self.path), workers, cancel, self.notices)
        else:
            batcher = _Batcher(self.db, self.db, shards[0])
            written = _here(jobs, leaves, cancel, batcher)
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
        if updates:  # written first in the transaction (see _transaction); a file read meanwhile is left as it is
            sql = "UPDATE files SET state=?, facts=? WHERE id=? AND offset=?"
            _transaction(self.db, lambda: self.db.executemany(sql, updates))

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


def _here(
    jobs: list[Job], leaves: frozenset[str], cancel: threading.Event | None, batcher: _Batcher
) -> Iterator[tuple[int, int]]:
    """Read the files in this process (a small update, or an index in memory); the caller flushes last."""
    for job in jobs:
        for item in run_job(job, leaves):
            if (written := batcher.add(item)) is not None:
                yield written
        if cancel is not None and cancel.is_set():
            return


def _pool(
    jobs: list[Job],
    leaves: frozenset[str],
    path: str,
    workers: int,
    cancel: threading.Event | None,
    notices: list[str],
) -> Iterator[tuple[int, int]]:
    """Read `jobs` in worker processes, one per text database, that write to the index themselves;
    yield (bytes, files) as they commit. Stopping (Ctrl-C, `cancel`) ends the workers after their
    current write: what they had read but not written is read again next time."""
    ctx = _context()
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
            p.join(BUSY_TIMEOUT)
            if p.is_alive():
                p.kill()  # stuck: its rows may be written twice, which search tolerates
                p.join()
        tasks.cancel_join_thread()
        events.cancel_join_thread()


def _opens(path: str) -> bool:
    """Whether `path` can be opened for reading now."""
    try:
        os.close(open_readonly(path))
    except ReadError:
        return False
    return True


def _still_ends(path: str, offset: int, tail: bytes | None) -> bool:
    """Whether the bytes before `offset` are still `tail` (the last read's last bytes): the file
    was appended to, not rewritten."""
    if offset == 0:
        return True
    expected = tail or b"\n"
    try:
        fd = open_readonly(path)
    except ReadError:
        return False
    try:
        return os.pread(fd, len(expected), offset - len(expected)) == expected
    finally:
        os.close(fd)


@contextlib.contextmanager
def _waiting_at_most(db: sqlite3.Connection, seconds: float) -> Iterator[None]:
    """Statements of `db` wait `seconds` at most for another writer (BUSY_TIMEOUT again after)."""
    db.execute(f"PRAGMA busy_timeout={seconds * 1000:.0f}")
    try:
        yield
    finally:
        db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT * 1000:.0f}")


def _probe_writable(db: sqlite3.Connection) -> None:
    """Raise if the database cannot be written (a read-only file or folder). One that another process
    is writing is writable: no waiting for it here."""
    with _waiting_at_most(db, 0):
        try:
            db.execute("INSERT INTO meta VALUES ('probe', 0) ON CONFLICT(key) DO NOTHING")
        except sqlite3.OperationalError as exc:
            if not _locked(exc):
                raise


def _begin_writing(
    db: sqlite3.Connection, progress: Callable[[Progress], None] | None, cancel: threading.Event | None
) -> float:
    """Start a write transaction; return the seconds waited for another process's write to end.

    The wait is made of short tries, so that Ctrl-C and `cancel` stop it at once; `progress` is told
    that it is waiting. After WRITE_WAIT seconds, the "locked" error (IndexBusy for `Index.update`'s caller).
    """
    started = time.monotonic()
    with _waiting_at_most(db, WRITE_TRY):
        while True:
            try:
                db.execute("BEGIN IMMEDIATE")
                return time.monotonic() - started
            except sqlite3.OperationalError as exc:
                waited = time.monotonic() - started
                if not _locked(exc) or waited >= WRITE_WAIT or (cancel is not None and cancel.is_set()):
                    raise
            if progress is not None:
                progress(Progress(started=started, waiting=True))


def _locked(exc: Exception) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def _full(exc: sqlite3.Error) -> bool:
    """Whether `exc` says the disk (or the database's allowed size) is full."""
    return _code(exc) == sqlite3.SQLITE_FULL


def _code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code of `exc` (0 for an error of Python's sqlite3 module itself)."""
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF


def _inside(folder: Path, roots: list[Path]) -> bool:
    try:
        return is_under(folder, roots)
    except OSError:
        return False
