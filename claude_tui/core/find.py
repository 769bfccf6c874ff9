"""Find text anywhere in a session: prompts, answers, thinking, tool inputs and outputs, subagents.

Searches what is collapsed on screen too. A generator, so a worker can stream hits
and stop at the next key press; whole tool outputs are read back from the file
only when their preview is not the whole of them. `locate` finds where a hit of the
index (a file and a line offset) is in a session read whole.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from claude_tui.core.content import as_text
from claude_tui.core.model import Block, Message, ToolCall
from claude_tui.core.session import Session

#: Hits counted at most, in one piece of text or in a whole session (a one-letter query in a big session
#: finds millions): the find bar says "50,000+".
MAX_HITS = 50_000


class Query:
    """A search: literal or regular expression; case-insensitive unless the text has a capital."""

    def __init__(self, text: str, regex: bool = False) -> None:
        self.text = text
        self.regex = regex
        self.case_sensitive = any(c.isupper() for c in text)
        flags = 0 if self.case_sensitive else re.IGNORECASE
        self.pattern = re.compile(text if regex else re.escape(text), flags)  # raises re.error when invalid

    def spans(self, text: str, limit: int = MAX_HITS, last: bool = False) -> list[tuple[int, int]]:
        """Where the query matches in `text` (empty matches skipped): the first `limit`, or the `last` ones."""
        found = self._literal(text) if not self.regex and self.text else None
        if found is None:
            found = (match.span() for match in self.pattern.finditer(text) if match.end() > match.start())
        return list(deque(found, maxlen=limit)) if last else list(islice(found, limit))

    def _literal(self, text: str) -> Iterator[tuple[int, int]] | None:
        """A plain query found with str.find: many times faster than a case-insensitive regex over
        megabytes, and each call short (a search in a thread holds the interpreter lock while it runs).
        None when lower-casing changes the text's length (a few non-ASCII letters): the regex decides."""
        hay = text if self.case_sensitive else text.lower()
        if len(hay) != len(text):
            return None
        return _occurrences(hay, self.text if self.case_sensitive else self.text.lower())


def _occurrences(hay: str, needle: str) -> Iterator[tuple[int, int]]:
    at = hay.find(needle)
    while at >= 0:
        yield at, at + len(needle)
        at = hay.find(needle, at + len(needle))


@dataclass(frozen=True, slots=True)
class Part:
    """One searchable piece of a message, and what must be expanded to show it."""

    where: str  #: text, thinking, tool_input, tool_output, row
    text: str
    call: ToolCall | None = None  #: the tool call it belongs to (also for subagent content)
    block: int | None = None  #: the block of the message (of `nested` inside a subagent)
    nested: Message | None = None  #: the subagent message, for hits inside a subagent
    tool: ToolCall | None = None  #: tool_input and tool_output: the call they are of (nested ones too)


@dataclass(frozen=True, slots=True)
class Hit:
    """A match: the visible message it is under, the part, and where in the part's text."""

    message: Message
    part: Part
    start: int
    end: int
    index: int  #: where `message` is in the messages searched
    piece: int  #: which of the message's parts `part` is

    @property
    def order(self) -> tuple[int, int, int]:
        """Where it lies among the hits of one search: by message, part and offset."""
        return self.index, self.piece, self.start


def parts(message: Message, full_output: Callable[[ToolCall], str] | None = None, depth: int = 0) -> Iterator[Part]:
    """The searchable pieces of a message, subagent transcripts included (to a sane depth)."""
    if message.text and not message.blocks:
        yield Part("row", message.text)
    for i, block in enumerate(message.blocks):
        if block.type in ("text", "thinking") and block.text:
            yield Part(block.type, block.text, block=i)
        elif block.call is not None:
            yield from _call_parts(block.call, full_output, depth)
        elif block.text:
            yield Part("row", block.text, block=i)


def _call_parts(call: ToolCall, full_output: Callable[[ToolCall], str] | None, depth: int) -> Iterator[Part]:
    yield Part("tool_input", f"{call.name} {as_text(call.input)}", call, tool=call)
    if call.result is not None:
        text = full_output(call) if full_output is not None and call.result.truncated else call.result.text
        yield Part("tool_output", text, call, tool=call)
    for sub in call.subagents if depth < 4 else ():
        for nested in sub.visible():
            for part in parts(nested, full_output, depth + 1):
                yield Part(part.where, part.text, call, part.block, part.nested or nested, part.tool)


def find(
    session: Session,
    query: Query,
    start: int = 0,
    full_output: Callable[[ToolCall], str] | None = None,
    visible: list[Message] | None = None,
    cancelled: Callable[[], bool] | None = None,
    backward: bool = False,
) -> Iterator[Hit]:
    """Hits in the messages being read (`visible`, taken from the session when not given), from
    visible message `start` on, wrapping around to the top (`backward`: the last hit first, from the
    message before `start` up, wrapping around to the bottom). `cancelled` is asked before each
    part: True ends the search."""
    visible = session.visible() if visible is None else visible
    start = min(start, len(visible))
    order = [*range(start, len(visible)), *range(start)]
    for index in reversed(order) if backward else order:
        message = visible[index]
        numbered = enumerate(parts(message, full_output))
        pieces: Iterable[tuple[int, Part]] = list(numbered)[::-1] if backward else numbered
        for piece, part in pieces:
            if cancelled is not None and cancelled():
                return
            spans = query.spans(part.text, last=backward)
            for begin, end in reversed(spans) if backward else spans:
                yield Hit(message, part, begin, end, index, piece)


def locate(
    session: Session,
    file: str,
    offset: int,
    kind: str,
    call_id: str | None = None,
    words: re.Pattern[str] | None = None,
) -> tuple[Message, ToolCall | None, Block | None] | None:
    """Where an index hit is in a session read whole: the message whose line holds `offset` of `file`
    (the session's or a subagent's), and the tool call (by `call_id`) or the text or thinking block
    (the first that `words` match) that holds the match. None when it is not there (any more).

    A line may hold several records (written with no newline between them), and the index may have read the
    second on its own, at an offset inside the line: of the line's messages, the first with a block `words`
    match is the one."""
    wanted = "thinking" if kind == "thinking" else "text"
    found: tuple[Message, None, Block | None] | None = None
    sessions: list[Session] = []
    stack = [session]
    while stack:
        sessions.append(here := stack.pop())
        stack.extend(here.subagents)
    if call_id:  # looked for in the hit's file first: a /btw side question replays its session's calls, ids and all
        owners = sorted(sessions, key=lambda s: Path(s.path) != Path(file))
        call = next((c for owner in owners if (c := owner.calls.get(call_id)) is not None), None)
        if call is not None:
            return call.message, call, None
    for here in sessions:
        if Path(here.path) != Path(file):
            continue
        for message in here.messages:
            if not any(span.offset <= offset < span.offset + max(span.length, 1) for span in message.spans):
                continue
            blocks = [b for b in message.blocks if b.type == wanted]
            block = next((b for b in blocks if words is not None and words.search(b.text)), None)
            if block is not None:
                return message, None, block
            found = found or (message, None, blocks[0] if blocks else None)
    return found
