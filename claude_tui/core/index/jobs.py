"""What an update reads: the session files on disk, one job per file to read from its offset, and the results a
job yields (its rows, facts and state, every EMIT_BYTES and at the end); the progress it reports."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from claude_tui.core.files import is_agent_name, is_session_name, root_hint, transcript_entries
from claude_tui.core.index.extract import Extractor, State, read_chunks
from claude_tui.core.reader import ReadError, open_readonly
from claude_tui.core.sanitize import undecoded

#: A result is cut once this many bytes of a file have been read (memory stays bounded).
EMIT_BYTES = 16 * 1024 * 1024
#: How the error of a file that claude-tui failed on (an exception, not the file's fault) begins.
DEFECT = "claude-tui failed on it: "


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
    #: with nothing to do (every file read already): (projects, sessions, bytes) as Index.totals counts them,
    #: from the files' stat (see disk_totals)
    totals: tuple[int, int, int] | None = None


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


def disk_totals(disk: list[DiskFile]) -> tuple[int, int, int]:
    """(projects, sessions, bytes) of the files found: what Index.totals gives once they are all read."""
    sessions = [f for f in disk if not f.agent]
    return len({f.folder for f in sessions}), len(sessions), sum(max(0, f.size) for f in disk)


def _scan_folder(path: str, root: str, folder: str, found: list[DiskFile]) -> None:
    """The session files of a project folder, and the subagent transcripts beside them and in their own folders."""
    try:
        entries = list(os.scandir(path))
    except OSError:
        return
    for entry in entries:
        try:
            if is_session_name(entry.name):
                _add_file(entry, root, folder, is_agent_name(entry.name), found)
            elif entry.is_dir():
                for transcript in transcript_entries(entry.path):
                    _add_file(transcript, root, folder, True, found)
        except OSError:
            continue


def _add_file(entry: os.DirEntry[str], root: str, folder: str, agent: bool, found: list[DiskFile]) -> None:
    if entry.is_file():
        st = entry.stat()
        found.append(DiskFile(entry.path, root, folder, agent, st.st_size, st.st_mtime_ns, st.st_ino))


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


def opens(path: str) -> bool:
    """Whether `path` can be opened for reading now."""
    try:
        os.close(open_readonly(path))
    except ReadError:
        return False
    return True


def still_ends(path: str, offset: int, tail: bytes | None) -> bool:
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
