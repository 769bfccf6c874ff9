"""Property tests on the parser, the reader and the session model.

Random bytes and mutated real lines never raise, and every string that comes out is valid
Unicode; real files (and the small hostile file) appended in random pieces give exactly the
lines, records, notes and messages of reading them at once. The default profile is quick;
`pytest tests/test_fuzz.py --hypothesis-profile=soak` runs a long one (profiles: tests/conftest.py).
"""

from __future__ import annotations

import functools
import itertools
import os
import random
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from hypothesis import given
from hypothesis import strategies as st

from claude_tui.core.export import export_session
from claude_tui.core.index.extract import Extractor, State
from claude_tui.core.index.texts import record_texts
from claude_tui.core.notices import is_peer, is_task
from claude_tui.core.reader import Line, Reader
from claude_tui.core.records import parse_line
from claude_tui.core.session import Session
from claude_tui.core.stats import format_stats, session_stats
from claude_tui.core.tail import SessionTail
from tests.hostile import hostile_session
from tests.test_session import describe

#: Real lines longer than this are not mutated (the long-line path has its own tests).
MAX_LINE = 64 * 1024
#: Real files are fuzzed on a prefix of at most this many bytes, to keep each example quick.
MAX_FILE = 96 * 1024
#: Byte strings that damage a line in the ways real files are damaged.
TOKENS = [
    b"\\ud83d",
    b"\\udc00",
    b"\xff",
    b"\xe2\x82",
    b"\x00",
    b"NaN",
    b"1e400",
    b"-",
    b"[" * 1100,
    b"{",
    b"}",
    b"]",
    b'"',
    b"\\",
    b",",
    b":",
    b"\n",
    b"\r",
    b'{"type":"user"}',
    b"\x1b]52;c;eA==\x07",
    b"9" * 400,
]
#: Keys whose values the model reads; mutations aim at them.
KEYS = [
    "type",
    "message",
    "content",
    "uuid",
    "parentUuid",
    "id",
    "tool_use_id",
    "usage",
    "input",
    "text",
    "subtype",
    "data",
    "toolUseResult",
    "isSidechain",
    "timestamp",
    "durationMs",
    "model",
    "name",
    "source",
    "logicalParentUuid",
    "compactMetadata",
    "agentId",
    "parentToolUseID",
    "customTitle",
    "summary",
    "leafUuid",
    "attachment",
    "prompt",
    "commandMode",
    "operation",
    "agentName",
    "permissionMode",
    "prNumber",
    "prUrl",
    "worktreeSession",
    "remoteSessionId",
    "relocatedCwd",
    "parentSessionId",
    "hookName",
    "speed",
    "server_tool_use",
    "web_search_requests",
]
TYPES = [
    "user",
    "assistant",
    "system",
    "progress",
    "attachment",
    "summary",
    "custom-title",
    "ai-title",
    "tool_use",
    "tool_result",
    "text",
    "thinking",
    "image",
    "compact_boundary",
    "turn_duration",
    "agent_progress",
    "queued_command",
    "queue-operation",
    "saved_hook_context",
    "agent-name",
    "pr-link",
    "local_command",
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | st.sampled_from(TYPES + KEYS),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner),
    max_leaves=12,
)


@functools.cache
def corpus_files(root: Path) -> tuple[Path, ...]:
    return tuple(sorted(root.rglob("*.jsonl")))


@functools.cache
def corpus_lines(root: Path) -> tuple[bytes, ...]:
    lines = (line for path in corpus_files(root) for line in path.read_bytes().splitlines())
    return tuple(line for line in lines if 0 < len(line) <= MAX_LINE)


@functools.cache
def corpus_groups(root: Path) -> tuple[tuple[bytes, ...], ...]:
    """The real lines grouped by shape (record type; subtype, data.type, attachment type or queue operation; first
    block type; what its text is, for a user's: a task's notification, a peer's message): rare shapes get drawn too."""
    groups: dict[tuple[str, ...], list[bytes]] = {}
    for line in corpus_lines(root):
        obj = orjson.loads(line)
        message, data, attachment = obj.get("message"), obj.get("data"), obj.get("attachment")
        content = message.get("content") if isinstance(message, dict) else None
        first = content[0] if isinstance(content, list) and content else None
        said = content if isinstance(content, str) else first.get("text") if isinstance(first, dict) else None
        said = attachment.get("prompt") if isinstance(attachment, dict) else said
        shape = (
            str(obj.get("type")),
            str(
                obj.get("subtype")
                or (data.get("type") if isinstance(data, dict) else "")
                or (attachment.get("type") if isinstance(attachment, dict) else "")
                or obj.get("operation")
                or ""
            ),
            str(first.get("type") if isinstance(first, dict) else type(content).__name__),
            "task"
            if isinstance(said, str) and is_task(said)
            else "peer"
            if isinstance(said, str) and is_peer(said)
            else "",
        )
        groups.setdefault(shape, []).append(line)
    return tuple(tuple(lines) for _, lines in sorted(groups.items()))


@functools.cache
def file_prefixes(root: Path) -> tuple[bytes, ...]:
    """Each real file cut after its last complete line within MAX_FILE bytes, and the small hostile file."""
    out = []
    for path in corpus_files(root):
        data = path.read_bytes()[:MAX_FILE]
        cut = data.rfind(b"\n") + 1
        if cut:
            out.append(data[:cut])
    return (*out, hostile_session(big=False)[0])


def assert_valid_unicode(value: Any) -> None:
    """Every string in `value` encodes to UTF-8 (no lone surrogates escaped the parser)."""
    if isinstance(value, str):
        value.encode("utf-8")
    elif isinstance(value, dict):
        for k, v in value.items():
            assert_valid_unicode(k)
            assert_valid_unicode(v)
    elif isinstance(value, list):
        for v in value:
            assert_valid_unicode(v)


def index(data: bytes) -> None:
    """What the index makes of the lines: its rows and facts, and each record's texts for a hit's snippet."""
    extractor = Extractor(State(), 1, 0)
    extractor.feed(data, 0)
    assert_valid_unicode([text for _, text in extractor.texts])
    orjson.dumps(extractor.state.facts())
    for line in data.split(b"\n"):
        for obj in parse_line(line).objects:
            assert_valid_unicode(list(record_texts(obj)))


def exercise(session: Session) -> None:
    """Everything a view or a command asks of a session."""
    for m in session.visible():
        assert_valid_unicode(m.plain_text)
        for call in m.tool_calls:
            _ = (call.status, call.duration)
    session.title()
    facts = session_stats(session)
    format_stats(facts)
    orjson.dumps(facts)
    for fmt in ("markdown", "html", "json"):
        export_session(session, fmt)


@contextmanager
def scratch_file() -> Iterator[Path]:
    """A fresh empty file in a temporary folder (a fixture's tmp_path would be shared by all examples)."""
    with tempfile.TemporaryDirectory(prefix="claude-tui-fuzz-") as folder:
        path = Path(folder) / "s.jsonl"
        path.write_bytes(b"")
        yield path


def lines_of(data: bytes) -> list[Line]:
    out, offset = [], 0
    for n, line in enumerate(data.split(b"\n"), 1):
        out.append(Line(line, n, offset))
        offset += len(line) + 1
    return out


# ---------------------------------------------------------------- random bytes


@given(st.binary(max_size=2048))
def test_parse_line_never_raises_on_random_bytes(raw: bytes) -> None:
    result = parse_line(raw)
    assert all(type(o) is dict for o in result.objects)
    assert result.objects or result.note
    assert_valid_unicode(result.objects)


@given(st.lists(st.binary(max_size=300) | st.sampled_from(TOKENS), max_size=30))
def test_parse_line_never_raises_on_damaged_json(parts: list[bytes]) -> None:
    raw = b"".join(parts).replace(b"\n", b" ")
    result = parse_line(raw)
    assert all(type(o) is dict for o in result.objects)
    assert_valid_unicode(result.objects)


@given(st.binary(max_size=4096))
def test_session_never_raises_on_random_bytes(data: bytes) -> None:
    session = Session.from_lines(lines_of(data))
    assert session.malformed_lines <= data.count(b"\n") + 1
    exercise(session)


@given(st.binary(max_size=3000), st.lists(st.integers(min_value=1, max_value=400), min_size=1, max_size=20))
def test_reader_hands_out_every_byte_once(data: bytes, limits: list[int]) -> None:
    """Appended in pieces and read with random limits: the lines and the pending rest are the file."""
    with scratch_file() as path:
        reader, lines, written = Reader(str(path)), [], 0
        rng = random.Random(len(data))
        for limit in limits:
            step = rng.randint(0, 300)
            with path.open("ab") as f:
                f.write(data[written : written + step])
            written = min(len(data), written + step)
            lines += reader.read(limit)[1]
        with path.open("ab") as f:
            f.write(data[written:])
        lines += reader.read()[1]
        assert b"".join(line.data + b"\n" for line in lines) + data[reader.offset :] == data
        assert reader.offset + reader.pending == len(data)
        assert [line.line_no for line in lines] == list(range(1, len(lines) + 1))
        assert all(data[line.offset : line.offset + len(line.data)] == line.data for line in lines)


# ---------------------------------------------------------------- mutations of real lines


def mutate_bytes(line: bytes, data: st.DataObject, pool: tuple[bytes, ...]) -> bytes:
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(line)))
        op = data.draw(st.sampled_from(["flip", "insert", "token", "delete", "truncate", "splice", "double"]))
        if op == "flip" and line:
            at = min(at, len(line) - 1)
            line = line[:at] + bytes([data.draw(st.integers(0, 255))]) + line[at + 1 :]
        elif op == "insert":
            line = line[:at] + data.draw(st.binary(min_size=1, max_size=16)) + line[at:]
        elif op == "token":
            line = line[:at] + data.draw(st.sampled_from(TOKENS)) + line[at:]
        elif op == "delete":
            line = line[:at] + line[at + data.draw(st.integers(1, 64)) :]
        elif op == "truncate":
            line = line[:at]
        elif op == "splice":
            other = pool[data.draw(st.integers(0, len(pool) - 1))]
            line = line[:at] + other[data.draw(st.integers(0, len(other))) :]
        elif op == "double":
            line = line + line[at:]
    return line


def entries(value: Any, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Every (container, key) pair in a JSON value."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        out.append((value, key))
        entries(child, out)
    return out


def mutate_json(obj: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """Replace, delete, retype or wrap one to three values anywhere in `obj`."""
    for _ in range(data.draw(st.integers(1, 3))):
        found = entries(obj, [])
        read = [entry for entry in found if entry[1] in KEYS]  # fields the model reads, half of the time
        found = read if read and data.draw(st.booleans()) else found
        if not found:
            break
        container, key = found[data.draw(st.integers(0, len(found) - 1))]
        value = container[key]
        op = data.draw(st.sampled_from(["replace", "delete", "retype", "wrap"]))
        if op == "delete":
            del container[key]
        elif op == "retype" and isinstance(value, dict):
            value["type"] = data.draw(st.sampled_from(TYPES) | json_values)
        elif op == "wrap":
            container[key] = data.draw(st.sampled_from([[value], {"type": "text", "text": value}, {"content": value}]))
        else:
            container[key] = data.draw(json_values)
    return obj


@given(st.data())
def test_mutated_real_lines_never_raise(real_projects: Path, data: st.DataObject) -> None:
    pool, groups = corpus_lines(real_projects), corpus_groups(real_projects)
    pick = st.integers(0, len(pool) - 1)
    context = [pool[i] for i in data.draw(st.lists(pick, max_size=6), label="context lines")]
    group = groups[data.draw(st.integers(0, len(groups) - 1), label="shape")]
    line = group[data.draw(st.integers(0, len(group) - 1), label="line")]
    if data.draw(st.integers(0, 3)):
        obj = orjson.loads(line)
        mutated = orjson.dumps(mutate_json(obj, data))
    else:
        mutated = mutate_bytes(line, data, pool)
    result = parse_line(mutated)
    assert_valid_unicode(result.objects)
    at = data.draw(st.integers(0, len(context)))
    lines = b"\n".join([*context[:at], mutated, *context[at:]])
    exercise(Session.from_lines(lines_of(lines)))
    index(lines)


# ---------------------------------------------------------------- random split points


def snapshot(session: Session) -> list:
    """Everything of a session, to compare two: describe(), every message, every note, the subagents."""
    out = [*describe(session), [(p.line_no, p.offset, p.message) for p in session.problems]]
    for m in session.messages:
        out.append((m.index, m.kind, m.uuid, m.parent, m.plain_text, [b.type for b in m.blocks], m.spans, m.tokens))
    out.append([snapshot(sub) for sub in session.subagents])
    return out


@given(st.data())
def test_appends_at_random_points_give_exactly_the_one_shot_session(real_projects: Path, data: st.DataObject) -> None:
    files = file_prefixes(real_projects)
    whole = files[data.draw(st.integers(0, len(files) - 1), label="file")]
    cuts = sorted(data.draw(st.lists(st.integers(0, len(whole)), max_size=8)))
    limit = data.draw(st.none() | st.integers(min_value=512, max_value=64 * 1024))
    with scratch_file() as path:
        path.write_bytes(whole)
        once = SessionTail(path)
        once.poll()
        expected, expected_lines = snapshot(once.session), Reader(str(path)).read()[1]
        path.write_bytes(b"")
        tail, reader, lines, written = SessionTail(path), Reader(str(path)), [], 0
        for cut in [*cuts, len(whole)]:
            start = written
            with path.open("ab") as f:
                f.write(whole[written:cut])
            written = max(written, cut)
            polls = 0
            while not tail.caught_up or polls == 0:
                tail.poll(limit)
                lines += reader.read(limit)[1]
                polls += 1
                assert polls <= (cut - start) // (limit or len(whole) + 1) + 2  # every poll makes progress
        while (more := reader.read(limit)[1]) or reader.offset + reader.pending < len(whole):
            lines += more
        assert [(x.data, x.line_no, x.offset) for x in lines] == [(x.data, x.line_no, x.offset) for x in expected_lines]
        assert snapshot(tail.session) == expected


def test_the_fuzzed_files_are_there(real_projects: Path) -> None:
    """The corpus gives the properties something to chew on (else they would pass on nothing)."""
    assert len(corpus_lines(real_projects)) > 5000
    assert len(file_prefixes(real_projects)) > 100
    assert len(corpus_groups(real_projects)) > 20


#: Values of every JSON type, and block shapes, put in place of each field in turn.
CONFUSIONS = [None, True, -1, 2**63, 1.5, "", "x", [], {}, [None], [{}], {"type": "text"}, [{"type": "tool_result"}]]


def test_every_field_of_every_shape_may_hold_any_type(real_projects: Path) -> None:
    """Systematic, not random: each field of a real record of each shape, replaced by each value above, read by the
    session model (followed by the record as it was: a saved hook context's second save, a record written twice)
    and by the index.

    One record per shape by default; three with CLAUDE_TUI_SLOW=1.
    """
    per_shape = 3 if os.environ.get("CLAUDE_TUI_SLOW") else 1
    cases = 0
    for group in corpus_groups(real_projects):
        for line in group[:per_shape]:
            count = len(entries(orjson.loads(line), []))
            for i, value in itertools.product(range(count), CONFUSIONS):
                obj = orjson.loads(line)
                container, key = entries(obj, [])[i]
                container[key] = value
                data = orjson.dumps(obj) + b"\n" + line
                exercise(Session.from_lines(lines_of(data)))
                index(data)
                cases += 1
    assert cases > 2000
