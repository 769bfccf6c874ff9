"""The tolerant line parser: every object recovered, nothing raised."""

from __future__ import annotations

import pytest

from claude_tui.core.records import parse_line


def test_plain_record() -> None:
    result = parse_line(b'{"type":"user","uuid":"a"}')
    assert result.objects == [{"type": "user", "uuid": "a"}]
    assert result.note is None


def test_two_records_on_one_line_yield_both() -> None:
    result = parse_line(b'{"type":"user","uuid":"a"}{"type":"assistant","uuid":"b"}')
    assert [o["uuid"] for o in result.objects] == ["a", "b"]
    assert "2 record(s) recovered" in (result.note or "")


def test_cut_off_record_followed_by_a_whole_one() -> None:
    line = b'{"type":"assistant","uuid":"x","message":{"content":[{"type":"te{"type":"user","uuid":"y"}'
    result = parse_line(line)
    assert result.objects == [{"type": "user", "uuid": "y"}]
    assert "damaged characters skipped" in (result.note or "")


def test_invalid_utf8_is_replaced() -> None:
    result = parse_line(b'{"type":"user","text":"caf\xe9 \xff"}')
    assert result.objects[0]["text"] == "caf\ufffd \ufffd"
    assert result.note == "invalid UTF-8 replaced"


@pytest.mark.parametrize("escape", [rb"\ud83d", rb"\ude00", rb"\ud83d\u0041"])
def test_lone_surrogates_are_replaced(escape: bytes) -> None:
    result = parse_line(b'{"t":"a' + escape + b'b"}')
    assert "\ufffd" in result.objects[0]["t"]
    result.objects[0]["t"].encode("utf-8")  # valid: would raise on a surrogate


def test_a_valid_surrogate_pair_is_kept() -> None:
    assert parse_line(rb'{"t":"\ud83d\ude00"}').objects[0]["t"] == "\U0001f600"


def test_a_control_character_written_raw_in_a_string_is_escaped() -> None:
    result = parse_line(b'{"type":"assistant","text":"before\x00after\x1b[0m"}')
    assert result.objects == [{"type": "assistant", "text": "before\x00after\x1b[0m"}]
    assert result.note == "raw control characters escaped"
    tail = parse_line(b'{"type":"user"}\x00\x00')  # garbage after a record: the record, the rest skipped
    assert tail.objects == [{"type": "user"}] and "escaped" not in (tail.note or "")


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"assistant","uuid":"x","message":{"usage":{"input_tokens":1e999},'
        b'"content":[{"type":"text","text":"bignum"}]}}',
        b'{"type":"assistant","uuid":"x","message":{"content":[{"type":"tool_use","input":'
        + b"[" * 5000
        + b"]" * 5000
        + b',"caller":{"type":"direct"}}]}}',
    ],
    ids=["huge-number", "deep-nesting"],
)
def test_an_object_inside_a_damaged_record_is_not_taken_for_a_record(line: bytes) -> None:
    """Past damage, recovery looks for the next record: a content block or a tool input is not one."""
    result = parse_line(line)
    assert result.objects == [] and "invalid JSON" in (result.note or "")


@pytest.mark.parametrize(
    ("line", "note"),
    [
        (b"[1, 2]", "not a JSON object (list)"),
        (b"42", "not a JSON object (int)"),
        (b"garbage here", "invalid JSON"),
        (b"[" * 5000 + b"]" * 5000, "invalid JSON"),
        (b'{"a":' * 5000, "invalid JSON"),
        (b"\x00\x01\x02binary", "invalid JSON"),
    ],
)
def test_lines_that_yield_nothing_say_why(line: bytes, note: str) -> None:
    result = parse_line(line)
    assert result.objects == []
    assert note in (result.note or "")
