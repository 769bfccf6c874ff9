"""The incremental reader: complete lines only, offsets, truncation and replacement."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from claude_tui.core.index import extract
from claude_tui.core.reader import Reader, ReadError


def test_partial_last_line_waits_for_its_newline(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\n{"b":')
    reader = Reader(str(path))
    started_over, lines = reader.read()
    assert not started_over
    assert [(line.data, line.line_no, line.offset) for line in lines] == [(b'{"a":1}', 1, 0)]
    assert reader.pending == 5
    with path.open("ab") as f:
        f.write(b'2}\n{"c":3}\n')
    _, lines = reader.read()
    assert [(line.data, line.line_no, line.offset) for line in lines] == [(b'{"b":2}', 2, 8), (b'{"c":3}', 3, 16)]
    assert reader.offset == path.stat().st_size
    assert reader.read() == (False, [])


def test_a_last_record_without_newline_is_read_once(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\n{"b":2}')
    reader = Reader(str(path))
    _, lines = reader.read()
    assert [(line.data, line.line_no, line.offset) for line in lines] == [(b'{"a":1}', 1, 0), (b'{"b":2}', 2, 8)]
    assert reader.pending == 0 and reader.offset == path.stat().st_size
    assert reader.read() == (False, [])
    with path.open("ab") as f:
        f.write(b'\n{"c":3}\n')
    assert [(line.data, line.line_no, line.offset) for line in reader.read()[1]] == [(b'{"c":3}', 3, 16)]
    assert reader.offset == path.stat().st_size and reader.line_no == 3


def test_a_record_written_after_a_last_record_without_newline_continues_its_line(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}')
    reader = Reader(str(path))
    assert [line.data for line in reader.read()[1]] == [b'{"a":1}']
    with path.open("ab") as f:
        f.write(b'{"b":2}\n{"c":3}\n')  # the known bug: two records with no newline between
    started_over, lines = reader.read()
    assert not started_over
    assert [(line.data, line.line_no, line.offset, line.glued) for line in lines] == [
        (b'{"b":2}', 1, 7, True),  # the rest of line 1: a record with no newline before it
        (b'{"c":3}', 2, 15, False),
    ]


@pytest.mark.parametrize("tail", [b'{"b":', b'{"b":{"c":1}', b"[1]", b'"x"', b"  "])
def test_a_last_line_that_is_no_whole_object_waits(tail: bytes, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\n' + tail)
    reader = Reader(str(path))
    assert [line.data for line in reader.read()[1]] == [b'{"a":1}']
    assert reader.pending == len(tail)


def test_a_rewrite_after_a_last_line_without_newline_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}')
    reader = Reader(str(path))
    reader.read()
    path.write_bytes(b'{"a":[]\n{"b":2}\n')  # in place: the byte where we stopped is no longer the record's end
    started_over, lines = reader.read()
    assert started_over and [line.data for line in lines] == [b'{"a":[]', b'{"b":2}']


def test_read_all_takes_a_last_line_without_newline(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\n{"b":2}')
    _, lines = Reader(str(path)).read_all()
    assert [line.data for line in lines] == [b'{"a":1}', b'{"b":2}']


def test_blank_lines_count_as_lines(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'\n\n{"a":1}\n')
    _, lines = Reader(str(path)).read()
    assert [line.line_no for line in lines] == [1, 2, 3]


def test_truncated_file_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\n{"b":2}\n')
    reader = Reader(str(path))
    reader.read()
    path.write_bytes(b'{"z":9}\n')
    started_over, lines = reader.read()
    assert started_over
    assert [line.data for line in lines] == [b'{"z":9}']


def test_replaced_file_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\n')
    reader = Reader(str(path))
    reader.read()
    other = tmp_path / "new.jsonl"
    other.write_bytes(b'{"a":1}\n{"b":2}\n')
    os.replace(other, path)
    started_over, lines = reader.read()
    assert started_over
    assert len(lines) == 2


def test_rewritten_in_place_at_same_size_is_noticed(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\n')
    reader = Reader(str(path))
    reader.read()
    with path.open("r+b") as f:  # same inode, longer, but no newline where we stopped
        f.write(b'{"a":1234}\n')
    started_over, lines = reader.read()
    assert started_over
    assert [line.data for line in lines] == [b'{"a":1234}']


@pytest.mark.parametrize("partial", [b"", b'{"c":'])
def test_rewritten_in_place_on_the_old_line_boundary_is_noticed(tmp_path: Path, partial: bytes) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\n' + partial)
    reader = Reader(str(path))
    reader.read()
    with path.open("r+b") as f:  # same inode, longer, and a newline still where the lines read ended
        f.write(b'{"b":2}\n{"c":3}\n{"d":4}\n')
    started_over, lines = reader.read()
    assert started_over
    assert [line.data for line in lines] == [b'{"b":2}', b'{"c":3}', b'{"d":4}']


def test_appending_is_not_taken_for_a_rewrite(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    reader = Reader(str(path))
    with path.open("ab") as f:
        for piece in (b'{"a":1}\n{"b":', b"2}\n", b"x" * 100, b"\n", b'{"c":3}'):
            f.write(piece)
            f.flush()
            assert not reader.read()[0]
    assert reader.line_no == 4 and reader.offset == path.stat().st_size  # the last one is a whole record


def test_batches_respect_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(b'{"n":%d}\n' % i for i in range(1000)))
    reader = Reader(str(path))
    batches = list(reader.iter_batches(batch=1000))
    assert len(batches) > 5
    assert sum(len(b) for b in batches) == 1000


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "file not found"),
        (lambda p: p.mkdir(), "a directory"),
        (lambda p: os.mkfifo(p), "not a regular file"),
        (lambda p: (p.parent / "loop").symlink_to(p) or p.symlink_to(p.parent / "loop"), "symbolic link loop"),
    ],
)
def test_unreadable_files_raise_a_clear_error(tmp_path: Path, make, message: str) -> None:
    path = tmp_path / "s.jsonl"
    make(path)
    with pytest.raises(ReadError, match=message):
        Reader(str(path)).read()


def test_a_missing_file_is_told_by_the_error_not_its_wording(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    reader = Reader(str(path))
    with pytest.raises(ReadError) as caught:
        reader.read()
    assert caught.value.missing and reader.missing
    path.mkdir()
    with pytest.raises(ReadError) as caught:
        reader.read()
    assert not caught.value.missing and not reader.missing


#: Reads the file named by its argument, and prints why it cannot.
READ = """
import sys
from claude_tui.core.reader import Reader, ReadError
try:
    Reader(sys.argv[1]).read()
except ReadError as exc:
    print(f"ReadError: {exc}")
"""


def test_permission_denied(unprivileged: tuple[list[str], Path]) -> None:
    """As a user the file's modes deny (root reads everything: as root, the read runs as nobody)."""
    as_user, folder = unprivileged
    path = folder / "s.jsonl"
    path.write_bytes(b"{}\n")
    path.chmod(0)
    out = subprocess.run([*as_user, sys.executable, "-c", READ, str(path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("ReadError: ") and "permission denied" in out.stdout, out


def test_reading_never_changes_the_file(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\n')
    os.utime(path, (1_000_000, 1_000_000))
    before = path.stat()
    Reader(str(path)).read_all()
    after = path.stat()
    assert (after.st_mtime_ns, after.st_size, after.st_ino) == (before.st_mtime_ns, before.st_size, before.st_ino)


def test_iter_lines_gives_what_read_all_gives(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\n\n' + b'{"b":"' + b"x" * 5000 + b'"}\n{"c":3}')
    whole = [(line.data, line.line_no, line.offset) for line in Reader(str(path)).read_all()[1]]
    batched = [(line.data, line.line_no, line.offset) for line in Reader(str(path)).iter_lines(batch=1000)]
    assert batched == whole
    assert len(whole) == 4


def test_iter_lines_refuses_a_file_replaced_while_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\n' * 300)
    lines = Reader(str(path)).iter_lines(batch=1000)
    next(lines)
    other = tmp_path / "other.jsonl"
    other.write_bytes(b'{"b":2}\n' * 10)
    other.replace(path)
    with pytest.raises(ReadError, match="replaced"):
        list(lines)


def _copies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, bytes read by os.pread count the bytes of every concatenation (`a + b`) they are in."""
    copied: list[int] = []

    class Counted(bytes):
        def __add__(self, other: bytes) -> bytes:
            copied.append(len(self) + len(other))
            return bytes(self) + other

        def __radd__(self, other: object) -> bytes:
            if not isinstance(other, bytes):
                return NotImplemented
            copied.append(len(other) + len(self))
            return other + bytes(self)

    pread = os.pread
    monkeypatch.setattr(os, "pread", lambda fd, n, offset: Counted(pread(fd, n, offset)))
    return copied


LONG = b'{"a":1}\n{"b":"' + b"x" * (4 << 20) + b'"}\n{"c":3}\n'
SIZE = len(LONG)


def test_a_long_line_read_in_many_batches_is_copied_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Growing it by `partial += chunk` copied it once per batch: 14.6 s for a 200 MB line in 1 MB batches."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(LONG)
    copied = _copies(monkeypatch)
    lines = [line.data for line in Reader(str(path)).iter_lines(batch=64 << 10)]
    assert lines == LONG.split(b"\n")[:3]
    assert sum(copied) <= 2 * SIZE


def test_the_index_reads_a_long_line_copying_it_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(LONG[:-1])  # and its last line with no newline
    monkeypatch.setattr(extract, "CHUNK", 64 << 10)
    copied = _copies(monkeypatch)
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = list(extract.read_chunks(fd, 0, SIZE - 1))
    finally:
        os.close(fd)
    assert b"\n".join(lines for lines, _, _ in chunks) == LONG[:-1]
    assert [(off, end) for _, off, end in chunks] == [(0, 8), (8, SIZE - 8), (SIZE - 8, SIZE - 1)]
    assert sum(copied) <= 2 * SIZE
