"""One JSONL line -> records, tolerantly.

Claude Code writes one JSON object per line, but real files also hold lines with
two objects written back to back, a record cut off by a crash and followed by a
new one, invalid UTF-8 and lone surrogates. `parse_line` recovers every object
it can and never raises; a line that yields nothing is the caller's to count.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

import orjson

#: Lines longer than this are not searched for concatenated records (still parsed whole).
MAX_RECOVERY_BYTES = 64 * 1024 * 1024
#: A JSON escape for a surrogate that is not part of a valid pair.
_LONE_SURROGATE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
#: Controls never valid raw in JSON, in a string or between values (tab, newline and CR are whitespace there).
_RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
#: Where a record may start inside a damaged line: an object opening with a key Claude Code writes first.
_RECORD_START = re.compile(
    r'\{"(?:parentUuid|type|uuid|isSidechain|sessionId|leafUuid|summary|messageId|operation|logicalParentUuid)"'
)
#: Keys every record has one of (a content block or a tool input, which may open as a record does, has none).
_RECORD_KEYS = ("uuid", "sessionId", "leafUuid", "messageId", "timestamp")
#: How `_recover` counts the records it split a line into.
_RECOVERED = re.compile(r"\d+ record\(s\) recovered")
#: Integers longer than this are refused: beyond it, arithmetic on them overflows a float.
_MAX_INT_DIGITS = 300


def _refuse(value: str) -> Any:
    raise ValueError(f"not a JSON number: {value[:20]}")


def _finite(text: str) -> float:
    value = float(text)
    return value if math.isfinite(value) else _refuse(text)


def _int(text: str) -> int:
    return int(text) if len(text) <= _MAX_INT_DIGITS else _refuse(text)


#: The stdlib decoder, for the slow path only, refusing what orjson refuses (NaN, infinities) and
#: integers too long to compute with; it keeps other integers beyond 64 bits exact.
_decoder = json.JSONDecoder(parse_float=_finite, parse_int=_int, parse_constant=_refuse)
#: orjson's reasons, said the way a person looks for them.
_FAILURES = {"unexpected end of data": "cut off", "depth limit exceeded": "nested too deep"}
#: Control bytes that JSON text never holds raw (tab and carriage return are whitespace).
_BINARY = [bytes([c]) for c in range(0x20) if c not in (0x09, 0x0D)]


@dataclass(slots=True)
class LineResult:
    """What one line gave: its records, and a note when it needed repair or gave nothing."""

    objects: list[dict[str, Any]]
    note: str | None = None


def parse_line(raw: bytes) -> LineResult:
    """Parse one line (without its newline) into the JSON objects it holds."""
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _recover(raw)
    if isinstance(obj, dict):
        return LineResult([obj])
    return LineResult([], f"not a JSON object ({type(obj).__name__})")


def continued(result: LineResult) -> LineResult:
    """`result` of a line that continues the record before it, written with no newline between them (a reader
    handed that record out before the rest came): said as a read of the whole line says it, one record more."""
    said = _recovered(len(result.objects) + 1)
    note = result.note or ""
    note = _RECOVERED.sub(said, note) if _RECOVERED.search(note) else "; ".join(filter(None, [note, said]))
    return LineResult(result.objects, note)


def _recovered(count: int) -> str:
    return f"{count} record(s) recovered"


def _recover(raw: bytes) -> LineResult:
    """The slow path: fix the encoding, then split concatenated or cut-off records."""
    text = raw.decode("utf-8", errors="replace")
    notes = []
    if "\ufffd" in text and b"\xef\xbf\xbd" not in raw:
        notes.append("invalid UTF-8 replaced")
    fixed = _LONE_SURROGATE.sub(r"\\ufffd", text)
    if fixed != text:
        notes.append("lone surrogate replaced")
    if _RAW_CONTROL.search(fixed):  # a control character written raw into a string: JSON wants it escaped
        escaped = _RAW_CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", fixed)
        if _parses(escaped):  # else the damage is elsewhere too: recovered below as it is
            fixed = escaped
            notes.append("raw control characters escaped")
    try:
        obj = orjson.loads(fixed)
    except orjson.JSONDecodeError as exc:
        objects, dropped = _split(fixed) if len(raw) <= MAX_RECOVERY_BYTES else ([], len(fixed))
        if not objects:
            return LineResult([], _describe_failure(exc, raw))
        notes.append(_recovered(len(objects)))
        if dropped:
            notes.append(f"{dropped} damaged characters skipped")
        return LineResult(objects, "; ".join(notes))
    if isinstance(obj, dict):
        return LineResult([obj], "; ".join(notes) or None)
    return LineResult([], f"not a JSON object ({type(obj).__name__})")


def _parses(text: str) -> bool:
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return True


def _split(text: str) -> tuple[list[dict[str, Any]], int]:
    """Objects found back to back in `text`, and how many characters were skipped."""
    # Lone surrogates were replaced before, so the stdlib decoder yields valid strings only.
    objects: list[dict[str, Any]] = []
    pos, skipped, end = 0, 0, len(text)
    after_damage = False
    while pos < end:
        try:
            obj, stop = _decoder.raw_decode(text, pos)
        except (ValueError, RecursionError):
            nxt = _RECORD_START.search(text, pos + 1)
            stop = nxt.start() if nxt else end
            skipped += stop - pos
            pos, after_damage = stop, True
            continue
        # past damage, an object without a record's keys is one inside the damaged record (a content block)
        if isinstance(obj, dict) and (not after_damage or any(key in obj for key in _RECORD_KEYS)):
            objects.append(obj)
        else:
            skipped += stop - pos
        pos = stop
        while pos < end and text[pos] in " \t\r":
            pos += 1
    return objects, skipped


def _describe_failure(exc: Exception, raw: bytes) -> str:
    """A specific note for a line that gave nothing: blank, binary, cut off, nested too deep, or else invalid."""
    if not raw.strip():
        return "blank"
    reason = str(exc).split(":", 1)[0]
    sample = raw[:4096]
    if b"\0" in sample or sum(sample.count(c) for c in _BINARY) * 20 > len(sample):
        return f"invalid JSON, binary data ({len(raw):,} bytes)"
    label = _FAILURES.get(reason)
    return f"invalid JSON{', ' + label if label else ''} ({reason}, {len(raw):,} bytes)"
