"""Reading back what the model keeps only a preview of: a record's raw JSON, a tool's whole output.

The model keeps byte spans instead of megabytes; these read one line again with
os.pread, on demand (the detail view, raw JSON, search in long outputs), or the file in the
session's `tool-results/` folder that Claude Code moved a large output to.
"""

from __future__ import annotations

import os
from typing import Any

import orjson

from claude_tui.core.content import persisted_note, record_content, result_content
from claude_tui.core.files import persisted_file, read_persisted
from claude_tui.core.model import Span, ToolCall
from claude_tui.core.reader import ReadError, open_readonly
from claude_tui.core.records import parse_line


def read_span(path: str, span: Span) -> bytes:
    """The bytes of one line, as they are in the file now."""
    fd = open_readonly(path)
    try:
        return os.pread(fd, span.length, span.offset)
    finally:
        os.close(fd)


def read_records(path: str, span: Span) -> list[dict[str, Any]]:
    """The record(s) on the line at `span` (empty if the file changed under us)."""
    try:
        return parse_line(read_span(path, span)).objects
    except (ReadError, OSError):
        return []


def raw_json(path: str, spans: list[Span], limit: int = 1_000_000) -> str:
    """The records of a message, pretty-printed, at most about `limit` characters."""
    parts = []
    for span in spans:
        for obj in read_records(path, span) or [{"note": f"line {span.line_no} could not be read again"}]:
            parts.append(orjson.dumps(obj, option=orjson.OPT_INDENT_2).decode())
    text = "\n".join(parts)
    return text if len(text) <= limit else text[:limit] + f"\n… {len(text) - limit:,} more characters"


def full_output(path: str, call: ToolCall) -> str:
    """The whole text of a tool call's result (the model keeps a preview)."""
    result = call.result
    if result is None:
        return ""
    if result.persisted is not None:
        return _moved_output(path, result.persisted, result.text, result.size)
    if not result.truncated or result.span is None:
        return result.text
    for obj in read_records(path, result.span):
        data = obj.get("data")
        if obj.get("type") == "progress" and isinstance(data, dict) and isinstance(data.get("message"), dict):
            obj = data["message"]  # a subagent record copied into a progress record
        content = record_content(obj)
        for item in content if isinstance(content, list) else []:
            if isinstance(item, dict) and item.get("tool_use_id") == call.id:
                return result_content(item.get("content"))[0]
    return result.text


def persisted_text(path: str, text: str) -> str:
    """The whole of an output that Claude Code moved out of the transcript of the session file `path` (a tool's, a
    hook's), given the `<persisted-output>` note that stands for it; any other text as it is."""
    note = persisted_note(text)
    return text if note is None else _moved_output(path, note.path, note.preview, note.size)


def _moved_output(path: str, recorded: str, preview: str, size: int) -> str:
    """A moved output read from the session's `tool-results/` folder; its preview, and a word that the rest is
    not here, when the file is gone."""
    whole = read_persisted(path, recorded)
    if whole is not None:
        return whole
    name = persisted_file(path, recorded).name
    gone = f"Claude Code saved it to {name}, which is not in the session's tool-results folder"
    return f"{preview}\n\n[the rest of this output ({size:,} bytes in all) is not here: {gone}]"
