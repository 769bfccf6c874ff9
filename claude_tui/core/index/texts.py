"""What text of a record is searchable, as rows of the full-text index: the row kinds and their roles, the cap of
each, and the parts of prompts, answers, tool inputs and outputs, commands and system records, read as the session
reads them (core/content.py), so that what search finds is what the session shows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from claude_tui.core.content import (
    PERSISTED_TAG,
    api_error_text,
    as_text,
    content_blocks,
    content_items,
    first_text,
    is_api_error,
    persisted_note,
    prompt_text,
    queued_message,
    recap_text,
    record_content,
    result_content,
    system_kind,
    user_kind,
)
from claude_tui.core.files import read_persisted
from claude_tui.core.model import Block, Kind, Message
from claude_tui.core.notices import peer_parts, task_text
from claude_tui.core.sanitize import without_markup
from claude_tui.core.times import parse_time

#: Row kinds of the full-text index, by code; and the role each belongs to (an API error and a
#: compaction's summary: Claude's side; what a `!` or slash command printed: a tool's).
ROW_KINDS = (
    "prompt", "answer", "thinking", "tool_input", "tool_output", "api_error", "summary", "command_output", "recap",
    "notification", "peer",
)  # fmt: skip
ROLES = (
    "user", "assistant", "assistant", "tool", "tool", "assistant", "assistant", "tool", "assistant", "tool", "assistant"
)  # fmt: skip
PROMPT, ANSWER, THINKING, TOOL_INPUT, TOOL_OUTPUT, API_ERROR, SUMMARY, COMMAND_OUTPUT, RECAP, NOTIFICATION, PEER = (
    range(11)
)
#: Characters of text indexed per row. Tool and command outputs and inputs are cut at 2 KB: their
#: heads hold what people search for (names, errors, commands); the rest is bulk.
CAPS = (16_384, 16_384, 16_384, 2_048, 2_048, 2_048, 16_384, 2_048, 16_384, 2_048, 16_384)
#: A row's block index says too which record of its line holds the part, for a line of records written with
#: no newline between them (Claude Code's known bug): block b of the line's n-th record is stored as
#: b + n * LINE_RECORD, so the rows of an ordinary line keep their block as it is.
LINE_RECORD = 1 << 32


def epoch(stamp: str) -> int | None:
    """Whole epoch seconds of an ISO timestamp (naive: UTC); None when it is not a time (times.plausible)."""
    seconds = parse_time(stamp)
    return None if seconds is None else int(seconds)


def input_text(value: Any, cap: int) -> str:
    """The string values of a tool input, joined, up to `cap` characters."""
    if type(value) is dict:
        values = value.values()
        if all(type(v) is str for v in values):  # the usual input: a few strings
            return " ".join(values)[:cap]
    parts: list[str] = []
    left = cap
    stack = [value]
    while stack and left > 0:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item[:left])
            left -= len(item) + 1
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return " ".join(parts)


def result_text(content: Any, cap: int, path: str = "") -> str:
    """The text of a tool_result's content as the session reads it (session.result_content), up to `cap` characters;
    of an output Claude Code moved out of the transcript, the output, read from the `tool-results/` folder of the
    session file `path` (its preview when it is not there)."""
    text = content if type(content) is str else result_content(content)[0]
    if not text.startswith(PERSISTED_TAG) or (note := persisted_note(text)) is None:
        return text[:cap]
    whole = read_persisted(path, note.path, cap) if path else None
    return (note.preview if whole is None else whole)[:cap]


def assistant_parts(content: Any, said: int) -> Iterator[tuple[int, int, Any]]:
    """(row kind, block index, text) of each searchable part of an assistant message's content, read as the session
    reads it (content.content_items); a tool call's part is (TOOL_INPUT, index, its tool_use block), a server call's
    result's (TOOL_OUTPUT, index, its tool_result block). `said` is the
    kind of its text: ANSWER, or API_ERROR. A string content is block -1."""
    if type(content) is str:
        yield said, -1, content
        return
    for i, item in enumerate(content_items(content)[0]):
        if type(item) is str:
            yield said, i, item
            continue
        btype = item.get("type")
        if btype == "text":
            yield said, i, as_text(item.get("text"))
        elif btype == "thinking":
            yield THINKING, i, as_text(item.get("thinking"))
        elif btype in ("tool_use", "server_tool_use"):
            yield TOOL_INPUT, i, item
        elif btype == "tool_result":  # a server call's result
            yield TOOL_OUTPUT, i, item


def result_parts(content: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    """(block index, block) of each tool_result of a user record's content (content.content_items)."""
    for i, item in enumerate(content_items(content)[0]):
        if type(item) is dict and item.get("type") == "tool_result":
            yield i, item


def line_block(stored: int) -> tuple[int, int]:
    """(rank of the record in its line, block index) of a row's stored block (see LINE_RECORD)."""
    record = (stored + 1) // LINE_RECORD  # a block is -1 or more
    return record, stored - record * LINE_RECORD


def record_texts(obj: dict[str, Any], path: str = "") -> Iterator[tuple[int, int, str]]:
    """(row kind, block index, full text) of each searchable part of one record of the file `path`.

    Block -1 is a user prompt's text blocks joined. Used to show a hit's snippet from the file. A progress record's
    parts are those of the subagent's record it holds a copy of (see copied_record).
    """
    if (copied := copied_record(obj)) is not None:
        yield from record_texts(copied, path)
        return
    content = record_content(obj)
    rtype = obj.get("type")
    if rtype == "assistant":
        failed = obj.get("isApiErrorMessage")
        if not failed and isinstance(obj.get("message"), dict) and obj["message"].get("model") == "<synthetic>":
            return  # no answer (see Extractor._assistant)
        for kind, i, part in assistant_parts(content, API_ERROR if failed else ANSWER):
            if kind == TOOL_INPUT:
                yield kind, i, input_text(part.get("input"), 1 << 20)
            elif kind == TOOL_OUTPUT:
                yield kind, i, result_text(part.get("content"), 1 << 22, path)
            else:
                yield kind, i, part
    elif rtype == "user":
        texts, first, results = user_parts(content)
        if results:
            for i, item in result_parts(content):
                yield TOOL_OUTPUT, i, result_text(item.get("content"), 1 << 22, path)
        elif part := said_part(user_kind(obj, first, False), texts):
            yield part
    elif rtype == "system":
        if (part := system_part(obj)) is not None:
            yield part
    elif (
        rtype == "attachment"
        and (queued := queued_message(obj))
        and (part := said_part(queued[0], user_parts(queued[1])[0]))
    ):
        yield part


def said_part(kind: Kind, texts: list[str]) -> tuple[int, int, str] | None:
    """(row kind, block index, text) of a message in the user's turn, of `kind` (content.user_kind), as the session
    shows it: a prompt, a command as run, a compaction's summary, a command's output, a task's notification as its
    lines (notices.task_text), a peer's message as its body (notices.peer_parts)."""
    if kind is Kind.PROMPT:
        return PROMPT, -1, "\n\n".join(texts)
    if kind is Kind.COMMAND:
        return PROMPT, -1, command_text(texts)
    if kind is Kind.COMPACT_SUMMARY:
        return SUMMARY, -1, "\n\n".join(texts)
    if kind is Kind.COMMAND_OUTPUT:
        return COMMAND_OUTPUT, -1, printed_text(texts)
    if kind is Kind.TASK:
        return NOTIFICATION, -1, task_text("\n\n".join(texts))
    if kind is Kind.PEER:
        return PEER, -1, peer_parts("\n\n".join(texts))[2]
    return None


def copied_record(obj: dict[str, Any]) -> dict[str, Any] | None:
    """The subagent's record a progress record holds a copy of (2.1.7 to 2.1.42, `agent_progress`), else None."""
    if obj.get("type") != "progress":
        return None
    data = obj.get("data")
    if type(data) is not dict or data.get("type") != "agent_progress":
        return None
    nested = data.get("message")
    return nested if type(nested) is dict else None


def system_part(obj: dict[str, Any]) -> tuple[int, int, str] | None:
    """(row kind, block index, text) of a system record's searchable part: an API error's message, a recap, a
    command and what it printed."""
    if is_api_error(obj):
        return API_ERROR, -1, api_error_text(obj)
    content = as_text(obj.get("content"))
    subtype = obj.get("subtype")
    if subtype == "away_summary" and content.strip():
        return RECAP, -1, recap_text(content)
    if subtype == "local_command":
        return said_part(system_kind(content), [content])
    return None


def printed_text(texts: list[str]) -> str:
    """What a `!` or slash command printed, without Claude Code's tags and the terminal's escape sequences."""
    return without_markup("\n\n".join(texts)).strip()


def command_text(texts: list[str]) -> str:
    """A slash or `!` command as the user ran it (`/review the parser`), without its wrapper tags."""
    return prompt_text(Message(Kind.COMMAND, None, None, None, None, 0, [Block("text", t) for t in texts]), 1 << 20)


def user_parts(content: Any) -> tuple[list[str], str | None, bool]:
    """A user record's text blocks, the text its kind is told by (content.first_text), and whether it holds results,
    as the session reads them (content.content_blocks)."""
    if type(content) is str:
        return [content], content, False
    blocks, results, _ = content_blocks(content)
    return [b.text for b in blocks if b.type == "text"], first_text(blocks), bool(results)
