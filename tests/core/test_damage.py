"""Hostile and damaged files: each case gets a specific note, the rest is read, nothing hangs or crashes.

The hostile file comes from tests/hostile.py. File-level damage (a directory, a FIFO, a symbolic
link loop, permission denied on a file or a folder) is checked through the API and through the
command line, which must print one clear line and exit non-zero, never a traceback.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
import pytest

from claude_tui.core import handlers
from claude_tui.core import reader as reader_module
from claude_tui.core import session as session_module
from claude_tui.core.files import session_files, sibling_summaries
from claude_tui.core.library import Library
from claude_tui.core.loader import read_session
from claude_tui.core.model import PREVIEW_CHARS
from claude_tui.core.reader import Reader, ReadError
from claude_tui.core.records import parse_line
from claude_tui.core.session import Session
from claude_tui.core.source import full_output
from claude_tui.core.stats import session_stats
from claude_tui.core.tail import SessionTail
from claude_tui.core.times import plausible
from tests.hostile import BIG_LINE_BYTES, IMAGE_BYTES, MARKER, SESSION_ID, Case, write_hostile
from tests.jsonl import Thread, text

ROOT = Path(__file__).resolve().parents[2]
#: What must never reach a terminal: C0 controls but tab and newline, DEL, C1 controls.
RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


class Hung(BaseException):
    """Raised in a call that outlived its deadline (a BaseException: `except OSError` cannot swallow it)."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail instead of hanging: a blocking open of a FIFO is interrupted too, again every second."""

    def expired(signum: int, frame: object) -> None:
        raise Hung(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def cli(*args: str, as_user: list[str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run `claude-tui ARGS` in a subprocess (after `as_user`: see conftest's `unprivileged`)."""
    cmd = [*(as_user or []), sys.executable, "-m", "claude_tui", *args]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env)


def assert_one_line_error(out: subprocess.CompletedProcess[str], message: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("claude-tui: ") and message in lines[0], out.stderr


# ---------------------------------------------------------------- the hostile file


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Case]]:
    path = tmp_path_factory.mktemp("hostile") / "projects" / "-home-u-hostile" / f"{SESSION_ID}.jsonl"
    return path, write_hostile(path)


@pytest.fixture(scope="module")
def hostile_session(hostile: tuple[Path, list[Case]]) -> Session:
    return read_session(hostile[0])


def by_name(cases: list[Case], name: str) -> Case:
    return next(c for c in cases if c.name == name)


def model_texts(session: Session) -> Iterator[str]:
    """Every string of the model that a view could show."""
    yield from (session.custom_title or "", *session.branches, *session.cwds)
    for m in session.messages:
        yield m.text
        for block in m.blocks:
            yield block.text
            if block.call is not None:
                yield block.call.name
                if block.call.result is not None:
                    yield block.call.result.text


def test_the_file_holds_every_case(hostile: tuple[Path, list[Case]]) -> None:
    path, cases = hostile
    names = [c.name for c in cases]
    assert len(set(names)) == len(names) == 33
    assert (sum(not c.damaged for c in cases), sum(c.damaged for c in cases)) == (17, 16)
    data = path.read_bytes()
    assert data.count(b"\n") + 1 == cases[-1].first_line  # the cut-off last line has no newline
    lines = data.split(b"\n")
    for case in cases:
        assert tuple(lines[n - 1] for n in case.line_numbers) == case.lines, case.name
    assert max(len(line) for line in lines) > BIG_LINE_BYTES
    assert b"NaN" in by_name(cases, "nan-infinity").lines[0]


def test_every_damaged_case_gets_its_specific_note(hostile: tuple[Path, list[Case]], hostile_session: Session) -> None:
    _, cases = hostile
    for case in (c for c in cases if c.damaged):
        notes = [p.message for p in hostile_session.problems if p.line_no in case.line_numbers]
        assert any(case.note in n for n in notes), (case.name, notes)
    blank = by_name(cases, "empty-lines")
    assert [p.line_no for p in hostile_session.problems if p.message == "blank line"] == list(blank.line_numbers)


def test_hostile_content_is_no_problem(hostile: tuple[Path, list[Case]], hostile_session: Session) -> None:
    _, cases = hostile
    damaged_lines = {n for c in cases if c.damaged for n in c.line_numbers}
    assert {p.line_no for p in hostile_session.problems} <= damaged_lines


def test_the_rest_of_the_session_is_read(hostile: tuple[Path, list[Case]], hostile_session: Session) -> None:
    _, cases = hostile
    markers = [m.plain_text for m in hostile_session.messages if m.plain_text.startswith(MARKER)]
    assert markers == [MARKER + c.name for c in cases[:-1]]
    assert hostile_session.records == 2 + len(cases) - 1 + sum(c.records for c in cases)
    assert hostile_session.malformed_lines == sum(c.malformed for c in cases) == 6
    recovered = [m.plain_text for m in hostile_session.messages if m.plain_text.endswith("of two")]
    assert recovered == ["first of two", "second of two"]
    assert "caf\ufffd\ufffd\ufffd" in model_texts(hostile_session)


def test_timestamps_that_are_not_times_are_left_out(hostile: tuple[Path, list[Case]], tmp_path: Path) -> None:
    """Year 1, year 9999 and garbage: no start in year 1, no 10,000-year session; the model, stats and
    the index agree, and the records themselves are still shown (without a time)."""
    path, _ = hostile
    facts = session_stats(read_session(path))
    assert (facts["started"], facts["ended"]) == ("2026-01-05T10:00:01.000Z", "2026-01-05T10:01:16.000Z")
    assert facts["duration_s"] == facts["active_s"] == 75.0
    session = read_session(path)
    stamped = {m.plain_text: m.timestamp for m in session.messages if m.plain_text in ("year-one", "garbage time")}
    assert stamped == {"year-one": None, "garbage time": None}
    lib = Library([path.parent.parent], tmp_path / "cache")
    lib.refresh()
    [info] = lib.projects[0].sessions
    assert (info.started, info.ended, info.duration_s, info.active_s) == (facts["started"], facts["ended"], 75.0, 75.0)


def test_hostile_text_reaches_the_model_verbatim(hostile: tuple[Path, list[Case]], hostile_session: Session) -> None:
    _, cases = hostile
    texts = "\x00".join(model_texts(hostile_session))
    for case in cases:
        if case.keep:
            assert case.keep in texts, case.name


def test_a_30_mb_line_keeps_a_preview_and_reads_back_whole(
    hostile: tuple[Path, list[Case]], hostile_session: Session
) -> None:
    path, _ = hostile
    call = hostile_session.calls["toolu_huge"]
    assert call.result is not None
    assert len(call.result.text) == PREVIEW_CHARS and call.result.size > BIG_LINE_BYTES - 200
    whole = full_output(str(path), call)
    assert len(whole) == call.result.size and whole.startswith(call.result.text)
    image = hostile_session.calls["toolu_img"].result
    assert image is not None and image.span is not None and image.span.length > IMAGE_BYTES  # base64 text
    assert image.images == [("image/png", pytest.approx(IMAGE_BYTES * 3 // 4, rel=0.01))]  # decoded bytes


def test_the_live_tail_in_small_batches_gives_the_same_notes(
    hostile: tuple[Path, list[Case]], hostile_session: Session
) -> None:
    path, cases = hostile
    tail = SessionTail(path)
    polls = 0
    with deadline(30):
        while not tail.caught_up or polls == 0:
            tail.poll(limit=4 * 1024 * 1024)
            polls += 1
    assert 8 < polls < 20
    last = cases[-1]
    assert tail.reader.pending == len(last.lines[0])  # a cut-off last line waits for its newline
    expected = [(p.line_no, p.message) for p in hostile_session.problems if p.line_no != last.first_line]
    assert [(p.line_no, p.message) for p in tail.session.problems] == expected
    assert tail.session.records == hostile_session.records


def test_stats_reports_every_case_and_prints_nothing_that_acts(hostile: tuple[Path, list[Case]]) -> None:
    path, cases = hostile
    out = cli("stats", "--json", str(path))
    assert out.returncode == 0, out.stderr
    assert not RAW_CONTROLS.search(out.stdout)
    facts = orjson.loads(out.stdout)
    assert facts["malformed_lines"] == 6
    for case in (c for c in cases if c.damaged):
        assert any(
            p.startswith(f"line {n}: ") and case.note in p for p in facts["problems"] for n in case.line_numbers
        ), case.name
    assert facts["title"] == "[red]\x1b]0;title\x07"  # JSON escapes it; the value is kept
    human = cli("stats", str(path))
    assert human.returncode == 0, human.stderr
    assert not RAW_CONTROLS.search(human.stdout)
    assert "[red]␛]0;title␇" in human.stdout and "[@click=app.quit]␛[5m" in human.stdout


@pytest.mark.parametrize("fmt", ["markdown", "html", "json"])
def test_export_of_the_hostile_file_is_inert(hostile: tuple[Path, list[Case]], tmp_path: Path, fmt: str) -> None:
    path, _ = hostile
    target = tmp_path / f"out.{fmt}"
    out = cli("export", str(path), "--format", fmt, "-o", str(target))
    assert out.returncode == 0, out.stderr
    exported = target.read_text(encoding="utf-8")
    assert not RAW_CONTROLS.search(exported)
    if fmt == "json":
        document = orjson.loads(exported)
        assert document["messages"]
    if fmt == "html":
        assert 'href="https://evil.example' not in exported and "<script" not in exported.lower()


# ---------------------------------------------------------------- the slow path keeps the fast path's values


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"system","subtype":"turn_duration","durationMs":NaN}',
        b'{"type":"system","subtype":"turn_duration","durationMs":Infinity}{"type":"user"}',
        b'{"type":"system","subtype":"turn_duration","durationMs":1e400}{"type":"user"}',
        b'{"type":"system","durationMs":' + b"9" * 400 + b'}{"type":"user"}',
    ],
)
def test_recovery_refuses_numbers_the_fast_path_refuses(line: bytes) -> None:
    result = parse_line(line)
    assert all(o.get("durationMs") is None for o in result.objects)
    Session.from_lines([reader_module.Line(line, 1, 0)])  # used to raise on NaN turn durations


def test_recovery_keeps_integers_beyond_64_bits() -> None:
    result = parse_line(b'{"type":"user","n":123456789012345678901234567890}{"type":"user"}')
    assert result.objects[0]["n"] == 123456789012345678901234567890


# ---------------------------------------------------------------- files that are not session files


def _directory(p: Path) -> None:
    p.mkdir()


def _fifo(p: Path) -> None:
    os.mkfifo(p)


def _loop(p: Path) -> None:
    partner = p.with_name(p.name + ".partner")
    partner.symlink_to(p)
    p.symlink_to(partner)


def _dangling(p: Path) -> None:
    p.symlink_to(p.parent / "gone.jsonl")


UNREADABLE: list[tuple[str, Callable[[Path], None], str, str]] = [
    ("directory", _directory, "a directory", "a directory"),
    ("fifo", _fifo, "not a regular file", "not a regular file"),
    ("symlink-loop", _loop, "symbolic link loop", "symbolic link loop"),
    ("dangling-symlink", _dangling, "file not found", "no such file"),
]


@pytest.mark.parametrize(
    ("make", "message", "cli_message"), [u[1:] for u in UNREADABLE], ids=[u[0] for u in UNREADABLE]
)
def test_unreadable_session_files(tmp_path: Path, make: Callable[[Path], None], message: str, cli_message: str) -> None:
    path = tmp_path / "-home-u-p" / "s.jsonl"
    path.parent.mkdir()
    make(path)
    with deadline(10):
        with pytest.raises(ReadError, match=message):
            Reader(str(path)).read()
        with pytest.raises(ReadError, match=message):
            read_session(path)
        tail = SessionTail(path)
        assert not tail.poll()
        assert tail.caught_up and (tail.error == message or (tail.deleted and message == "file not found"))
        assert list(session_files(path.parent)) == []
        assert sibling_summaries(path) == {}
    for command in (["stats"], ["stats", "--json"], ["export", "--format", "html"]):
        assert_one_line_error(cli(*command, str(path), timeout=20), cli_message)


def test_an_empty_file_is_an_empty_session(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"")
    session = read_session(path)
    assert (session.records, session.problems, session.malformed_lines) == (0, [], 0)
    out = cli("stats", "--json", str(path))
    assert out.returncode == 0 and orjson.loads(out.stdout)["empty"] is True


def test_strange_neighbours_never_hang_or_break_a_session(tmp_path: Path) -> None:
    """A FIFO, a directory and a link loop where subagent files, sibling sessions and the index hint live."""
    project = tmp_path / "-home-u-p"
    t = Thread(session_id="good")
    t.prompt("still read")
    t.answer(text("yes"), msg_id="m1")
    good = t.write(project / "good.jsonl")
    subagents = project / "good" / "subagents"
    subagents.mkdir(parents=True)
    for folder in (project, subagents):
        os.mkfifo(folder / "agent-fifo.jsonl")
        (folder / "agent-dir.jsonl").mkdir()
        _loop(folder / "agent-loop.jsonl")
    os.mkfifo(project / "sibling-fifo.jsonl")
    _loop(project / "sibling-loop.jsonl")
    os.mkfifo(project / "sessions-index.json")
    with deadline(10):
        session = read_session(good)
        assert [m.plain_text for m in session.messages] == ["still read", "yes"]
        notes = sorted(p.message for p in session.problems)
        assert notes == [
            "agent-dir.jsonl: a directory",
            "agent-fifo.jsonl: not a regular file",
            "agent-loop.jsonl: symbolic link loop",
        ]
        assert [p.name for p in session_files(project)] == ["good.jsonl"]
        assert sibling_summaries(good) == {}
        tail = SessionTail(good)
        tail.poll()
        assert tail.session.records == 2 and len(tail.session.problems) == 3
    out = cli("stats", "--json", "good", "--projects-dir", str(tmp_path), timeout=20)
    assert out.returncode == 0, out.stderr
    assert len(orjson.loads(out.stdout)["problems"]) == 3


# ---------------------------------------------------------------- permission denied, for real


def _session(folder: Path, name: str = "s.jsonl", session_id: str = "s") -> Path:
    t = Thread(session_id=session_id)
    t.prompt("hello")
    t.answer(text("hi"), msg_id="m1")
    path = t.write(folder / name)
    path.parent.chmod(0o755)
    path.chmod(0o644)
    return path


def test_permission_denied_on_a_file(unprivileged: tuple[list[str], Path]) -> None:
    as_user, folder = unprivileged
    path = _session(folder / "-home-u-p")
    path.chmod(0)
    for command in (["stats"], ["stats", "--json"], ["export"]):
        assert_one_line_error(cli(*command, str(path), as_user=as_user), "permission denied")


def test_permission_denied_on_a_folder(unprivileged: tuple[list[str], Path]) -> None:
    as_user, folder = unprivileged
    path = _session(folder / "-home-u-p")
    path.parent.chmod(0)
    for command in (["stats"], ["export"]):
        assert_one_line_error(cli(*command, str(path), as_user=as_user), "permission denied")
    out = cli("stats", "s", "--projects-dir", str(folder), as_user=as_user)  # the folder cannot be listed
    assert_one_line_error(out, "no session matches 's'")


def test_a_folder_that_cannot_be_listed_still_serves_its_files(unprivileged: tuple[list[str], Path]) -> None:
    as_user, folder = unprivileged
    path = _session(folder / "-home-u-p")
    path.parent.chmod(0o311)  # enter, but not list: no summaries, no index hint, the file itself is read
    out = cli("stats", "--json", str(path), as_user=as_user)
    assert out.returncode == 0, out.stderr
    assert orjson.loads(out.stdout)["records"] == 2


def test_permission_denied_on_a_subagent_file(unprivileged: tuple[list[str], Path]) -> None:
    as_user, folder = unprivileged
    path = _session(folder / "-home-u-p", "main.jsonl", "main")
    agent = _session(folder / "-home-u-p" / "main" / "subagents", "agent-a1.jsonl", "main")
    agent.parent.parent.chmod(0o755)
    agent.chmod(0)
    out = cli("stats", "--json", str(path), as_user=as_user)
    assert out.returncode == 0, out.stderr
    facts = orjson.loads(out.stdout)
    assert facts["problems"] == ["agent-a1.jsonl: permission denied"] and facts["records"] == 2


# ---------------------------------------------------------------- faults while reading


@pytest.mark.parametrize("reads_first", [0, 2])  # 2: the file's last bytes, then a piece of the unfinished line
def test_an_io_error_mid_read_hands_out_nothing_and_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reads_first: int
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(b'{"n":%d}\n' % i for i in range(100)))
    reader = Reader(str(path))
    first = reader.read(limit=300)[1]
    before = (reader.offset, reader.line_no, reader.pending)
    assert reader.pending
    pread = os.pread
    calls = []

    def failing(fd: int, n: int, offset: int) -> bytes:
        calls.append(n)
        if len(calls) > reads_first:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return pread(fd, n, offset)

    with monkeypatch.context() as patch:
        patch.setattr(reader_module, "CHUNK", 2)
        patch.setattr(reader_module.os, "pread", failing)
        with pytest.raises(ReadError, match="Input/output error"):
            reader.read()
    assert (reader.offset, reader.line_no, reader.pending) == before
    rest = reader.read()[1]
    assert [line.data for line in first + rest] == path.read_bytes().splitlines()
    assert 10 < len(first) < 100


def test_batches_go_on_past_a_line_longer_than_a_batch(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    lines = [b'{"a":1}', b'{"long":"' + b"x" * 50_000 + b'"}', b'{"b":2}']
    path.write_bytes(b"\n".join(lines) + b"\n")
    batches = list(Reader(str(path)).iter_batches(batch=4096))
    assert [line.data for batch in batches for line in batch] == lines
    assert len(batches) > 10


def test_only_the_summaries_that_open_a_sibling_file_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Claude Code writes summary records at the top of a file: a block of them longer than one read is found
    whole, and the megabytes after it are never read (stats of one session read every file of its folder)."""
    project = tmp_path / "-home-u-p"
    project.mkdir()

    def summary(n: int) -> bytes:
        return orjson.dumps({"type": "summary", "summary": f"title {n}", "leafUuid": f"leaf-{n}"})

    filler = b"\n".join(orjson.dumps({"type": "user", "n": i, "pad": "y" * 300}) for i in range(4000))
    block = b"\n".join(summary(n) for n in range(300))  # over 20 KB
    (project / "a.jsonl").write_bytes(block + b"\n" + filler + b"\n")
    (project / "c.jsonl").write_bytes(summary(300))  # only a summary, with no newline
    (project / "b.jsonl").write_bytes(summary(301) + b"\n")  # b's own: in its model, not searched for
    read: list[int] = []
    for name in ("pread", "preadv"):
        monkeypatch.setattr(os, name, _counting(getattr(os, name), read))
    found = sibling_summaries(project / "b.jsonl")
    assert found == {f"leaf-{n}": f"title {n}" for n in range(301)}
    assert sum(read) < 2 * len(block)


def _counting(read: Callable[..., Any], counts: list[int]) -> Callable[..., Any]:
    """`read` (os.pread or os.preadv), noting in `counts` how many bytes each call read."""

    def counted(*args: Any) -> Any:
        got = read(*args)
        counts.append(got if isinstance(got, int) else len(got))
        return got

    return counted


def test_stats_export_and_the_header_count_the_damage_alike(
    hostile: tuple[Path, list[Case]], hostile_session: Session
) -> None:
    from claude_tui.core.export import export_session
    from claude_tui.ui.clock import Clock
    from claude_tui.ui.widgets.header import SessionHeader

    session = hostile_session
    problems = session.all_problems()  # with the records whose parent was on an unreadable line
    said = f"{len(problems)} problems ({session.malformed_lines} unreadable lines)"
    assert session.malformed_lines and len(session.problems) > session.malformed_lines  # some lines were read
    assert len(problems) > len(session.problems)
    assert f"records   {session.records} · {said}\n" in cli("stats", str(hostile[0])).stdout
    assert f"**Damage:** {said}\n" in export_session(session, "markdown")
    assert f" · {said} · " in SessionHeader(Clock())._facts(session, session).plain


@pytest.mark.parametrize(
    ("stamp", "ok"),
    [
        ("2026-01-31T09:00:05.123Z", True),
        ("2026-01-31T09:59:59.999Z", True),
        ("2026-01-31T09:00:05Z", True),
        ("2026-01-31T09:00:05.123+02:00", True),
        ("1999-12-31T23:59:59.000Z", False),
        ("2100-01-01T00:00:00.000Z", False),
        ("0001-01-01T00:00:00Z", False),
        ("garbage-time", False),
        ("2026-13-45T99:99:99Z", False),
        ("2026-01-31T09:60:05.123Z", False),
        ("2026-01-31T09:0::05.123Z", False),
        ("2026-01-31T09:00:0:.123Z", False),  # once taken for a time, then not a number to the extractor
        ("2026-01-31T09:00:05.1a3Z", False),
    ],
)
def test_a_timestamp_is_a_time_of_this_century(stamp: str, ok: bool) -> None:
    assert plausible(stamp) is ok


def test_a_defect_met_in_one_record_is_noted_on_it_and_the_rest_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A handler that raises (a defect of ours, as a missing import was once) cost the whole session: the pane
    showed nothing and said nothing. Out of the tests (which raise it: conftest), it is a note on its record."""
    t = Thread()
    t.prompt("first")
    t.answer(text("one"))
    t.prompt("boom")
    t.answer(text("two"))
    t.prompt("last")
    path = t.write(tmp_path / "s.jsonl")
    on_user = handlers.HANDLERS["user"]

    def failing(s: Any, obj: dict[str, Any], span: Any) -> None:
        if obj["message"]["content"] == "boom":
            raise KeyError("parentUuid")
        on_user(s, obj, span)

    monkeypatch.setitem(handlers.HANDLERS, "user", failing)
    with pytest.raises(KeyError):
        read_session(path)  # the tests' way: loud
    monkeypatch.setattr(session_module, "STRICT", False)
    session = read_session(path)
    assert [m.plain_text for m in session.visible()] == ["first", "one", "two", "last"]
    [problem] = session.problems
    assert problem.line_no == 3
    assert problem.message.startswith(f"{session_module.UNREAD} (KeyError: 'parentUuid')")
