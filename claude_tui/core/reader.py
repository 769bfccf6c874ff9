"""Incremental, read-only reader of one append-only JSONL file.

Opening a session is reading it from offset 0; a live update is reading it from
the offset reached before. The reader hands out complete lines, keeps a partial
last line until its newline arrives (unless it is already a whole JSON object: a
finished file whose last newline was lost, see `finished_last_line`), and notices
a file that shrank, was replaced (new inode) or was rewritten under it (the last bytes
read are no longer there), in which case it starts over.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field

import orjson

CHUNK = 8 * 1024 * 1024
#: How many of the last bytes read are checked before reading on (a rewrite rarely keeps them).
TAIL_BYTES = 64
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_NOATIME = getattr(os, "O_NOATIME", 0)


class ReadError(Exception):
    """The file cannot be read as a session file; the message says why, for a person."""

    def __init__(self, message: str, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing  #: the file is not there


def open_readonly(path: str | os.PathLike[str]) -> int:
    """Open `path` for reading only, without touching its access time where allowed.

    Non-blocking so that a FIFO never hangs us; anything but a regular file is refused.
    """
    try:
        try:
            fd = os.open(path, _OPEN_FLAGS | _NOATIME)
        except PermissionError:
            if not _NOATIME:
                raise
            fd = os.open(path, _OPEN_FLAGS)  # O_NOATIME needs ownership
    except FileNotFoundError as exc:
        raise ReadError("file not found", missing=True) from exc
    except PermissionError as exc:
        raise ReadError("permission denied") from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ReadError("symbolic link loop") from exc
        raise ReadError(exc.strerror or str(exc)) from exc
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise ReadError(kind)
    return fd


def finished_last_line(data: bytes | bytearray) -> bool:
    """True when a file's last line, with no newline after it, is to be read now.

    Only a whole JSON object is: a record whose newline was lost in a finished file. A line
    still being written never is (no proper prefix of a JSON object is one), so it waits.
    """
    end = data[-TAIL_BYTES:].rstrip(b" \t\r") or data.rstrip(b" \t\r")  # not a copy of a long line
    if not end.endswith(b"}"):  # cheap: most partial lines end elsewhere
        return False
    try:
        return isinstance(orjson.loads(data), dict)
    except orjson.JSONDecodeError:
        return False


@dataclass(slots=True)
class Line:
    """One line of the file (the last may have no newline yet)."""

    data: bytes  #: without the newline
    line_no: int  #: 1-based
    offset: int  #: byte offset of its first byte
    #: the rest of the line before it (same line_no), which was handed out when it had no newline yet: two
    #: records written with no newline between them
    glued: bool = False


@dataclass
class Reader:
    """Reads the complete lines added to `path` since the last call."""

    path: str
    offset: int = 0  #: bytes consumed: everything before is lines handed out
    line_no: int = 0  #: lines consumed
    inode: int | None = None
    size: int = 0  #: file size at the last read
    missing: bool = False  #: the file was gone at the last read
    #: an unfinished last line, grown in place: a line read in many pieces costs its length, not its square
    _partial: bytearray = field(default_factory=bytearray, repr=False)
    #: the last byte of a last line handed out before its newline (empty when none)
    _open: bytes = field(default=b"", repr=False)
    #: the next line continues the open one (see Line.glued)
    _glued: bool = field(default=False, repr=False)
    #: the last bytes read (up to TAIL_BYTES, the partial line's included), to tell a rewrite from an append
    _tail: bytes = field(default=b"", repr=False)

    @property
    def pending(self) -> int:
        """Bytes of an unfinished last line waiting for their newline."""
        return len(self._partial)

    def reset(self) -> None:
        self.offset = self.line_no = self.size = 0
        self._partial = bytearray()
        self._open = self._tail = b""
        self._glued = False

    def read(self, limit: int | None = None) -> tuple[bool, list[Line]]:
        """Return (started_over, new lines), reading at most about `limit` bytes.

        A last line with no newline is handed out only when `finished_last_line` says so;
        its newline, when it comes, is then skipped. `started_over` is true when the file
        shrank or was replaced: the caller must drop what it built from earlier lines.
        Raises ReadError when the file cannot be read.
        """
        return self._read(limit, final=False)

    def read_all(self) -> tuple[bool, list[Line]]:
        """Like `read`, to the end, treating any last line with no newline as complete."""
        return self._read(None, final=True)

    def iter_batches(self, batch: int = CHUNK, stop: int | None = None) -> Iterator[list[Line]]:
        """Read to the end in batches of about `batch` bytes, the last line even with no newline;
        or only up to byte `stop`, the start of a line.

        A batch may be empty: a line longer than `batch` takes several reads. Raises ReadError
        when the file shrinks or is replaced meanwhile: its lines would not add up.
        """
        while stop is None or self.offset < stop:
            before = self.offset + len(self._partial)
            started_over, lines = self.read(batch if stop is None else min(batch, stop - before))
            if started_over:
                raise ReadError("the file was cut or replaced while it was read")
            if self.offset + len(self._partial) == before:
                break
            yield lines
        if stop is not None:
            return
        started_over, lines = self.read_all()
        if started_over:
            raise ReadError("the file was cut or replaced while it was read")
        if lines:
            yield lines

    def iter_lines(self, batch: int = 1 << 20, stop: int | None = None) -> Iterator[Line]:
        """Every line to the end (or to `stop`), holding one batch in memory (see `iter_batches`)."""
        for lines in self.iter_batches(batch, stop):
            yield from lines

    def _read(self, limit: int | None, final: bool) -> tuple[bool, list[Line]]:
        try:
            fd = open_readonly(self.path)
        except ReadError as exc:
            self.missing = exc.missing
            raise
        partial, held = self._partial, len(self._partial)  # _take grows it in place: cut back on failure
        state = self.offset, self.line_no, self.inode, self.size, self._open, self._tail, self._glued
        try:
            st = os.fstat(fd)
            started_over = self._check_same_file(fd, st)
            self.missing = False
            self.inode, self.size = st.st_ino, st.st_size
            start = self.offset + len(self._partial)
            end = st.st_size if limit is None else min(st.st_size, start + limit)
            lines = self._take(fd, start, end, final, end == st.st_size)
        except OSError as exc:  # EIO from a failing disk, a network file system gone away
            self.offset, self.line_no, self.inode, self.size, self._open, self._tail, self._glued = state  # no line
            del partial[held:]
            self._partial = partial
            raise ReadError(exc.strerror or str(exc)) from exc
        finally:
            os.close(fd)
        return started_over, lines

    def _check_same_file(self, fd: int, st: os.stat_result) -> bool:
        """Start over when the file shrank, has a new inode, or no longer ends its read part with the bytes
        read last."""
        if self.inode is None:
            return False
        seen = self.offset + len(self._partial)
        tail = self._tail
        replaced = st.st_ino != self.inode or st.st_size < seen
        if not replaced and tail and os.pread(fd, len(tail), seen - len(tail)) != tail:
            replaced = True
        if replaced:
            self.reset()
        return replaced

    def _take(self, fd: int, start: int, end: int, final: bool, to_eof: bool) -> list[Line]:
        lines: list[Line] = []
        pos = start
        partial = self._partial
        while pos < end:
            chunk = os.pread(fd, min(CHUNK, end - pos), pos)
            if not chunk:
                break
            pos += len(chunk)
            self._tail = (self._tail + chunk[-TAIL_BYTES:])[-TAIL_BYTES:]
            if self._open:
                chunk = self._after_open_line(chunk)
            first = chunk.find(b"\n")
            if first < 0:
                partial += chunk
                continue
            if partial:
                partial += chunk[:first]
                self._add_line(lines, bytes(partial))
            else:
                self._add_line(lines, chunk[:first])
            partial = bytearray(self._split_into(lines, chunk, first + 1))
        if partial and to_eof and pos == end and (final or finished_last_line(partial)):
            self._add_line(lines, bytes(partial), ended=False)
            partial = bytearray()
        self._partial = partial
        return lines

    def _after_open_line(self, chunk: bytes) -> bytes:
        """The bytes that follow a line handed out before its newline: skip that newline, or
        (two records written with no newline between) let them continue its line number."""
        self._open = b""
        if chunk.startswith(b"\n"):
            self.offset += 1
            return chunk[1:]
        self.line_no -= 1
        self._glued = True
        return chunk

    def _split_into(self, lines: list[Line], chunk: bytes, begin: int) -> bytes:
        """Append the complete lines of chunk[begin:]; return the unfinished rest."""
        offset, line_no = self.offset, self.line_no
        find = chunk.find
        while True:
            end = find(b"\n", begin)
            if end < 0:
                break
            line_no += 1
            lines.append(Line(chunk[begin:end], line_no, offset))
            offset += end - begin + 1
            begin = end + 1
        self.offset, self.line_no = offset, line_no
        return chunk[begin:]

    def _add_line(self, lines: list[Line], data: bytes, ended: bool = True) -> None:
        """Hand out one line; one with no newline (`ended` false) remembers its last byte."""
        self.line_no += 1
        lines.append(Line(data, self.line_no, self.offset, self._glued))
        self._glued = False
        self.offset += len(data) + int(ended)
        if not ended:
            self._open = data[-1:]
