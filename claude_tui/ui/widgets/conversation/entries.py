"""The rows of the conversation pane: what a message becomes (entries). How each is drawn is painter.py's.

An entry is one thing the cursor can rest on: a message header, a text block,
a thinking block, a tool call, a dim one-line row, a compaction, a fork marker.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_tui.core.model import QUIET_KINDS, Block, Kind, Message, Problem, ToolCall
from claude_tui.core.usage import anthropic_id
from claude_tui.ui.clock import Clock, epoch_of
from claude_tui.ui.text import one_line

if TYPE_CHECKING:
    from claude_tui.core.session import Session
    from claude_tui.ui import lines

#: A model id (claude-opus-4-5-20251101, claude-3-5-sonnet-20241022): its family and version, for `short_model`.
_MODEL = re.compile(r"^claude-(?:(\d+)-(\d+)-)?([a-z]+)(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:-\d{8})?$")


#: Seconds with no result and nothing written after which a call is shown as not running (the tools time out
#: well before; a subagent at work writes its records).
ABANDONED_AFTER = 3600
#: The mark before an attached image's, document's or IDE context's row (content.attached says the rest).
ATTACHED_MARKS = {"image": "▣", "document": "▤", "ide": "+"}


@dataclass(eq=False, slots=True)
class Entry:
    """One selectable row group of the pane."""

    kind: str  #: header, text, thinking, tool, image, block, row, compact, summary, recap, fork, problem, agent
    message: Message
    top: int  #: index of the top-level message it belongs to, in the pane's message list
    depth: int = 0  #: subagent nesting
    block: Block | None = None
    call: ToolCall | None = None
    pad: int = 0  #: blank lines above
    height: int = 0  #: lines, the blank ones above included
    body: int = 0  #: lines without the blank ones
    measured: int = -1  #: the width `body` was measured at
    md: lines.Markdown | None = None  #: text and thinking: parsed once
    problem: Problem | None = None  #: a damaged line of the file, shown where it was
    agent: Session | None = None  #: the marker above a subagent that no call started: that subagent

    @property
    def key(self) -> object:
        """What expanding this entry is remembered by."""
        return self.call or self.block or self.message

    @property
    def expandable(self) -> bool:
        if self.kind == "thinking":
            return self.block is not None and thinking_note(self.block) is None
        return self.kind in ("tool", "summary", "agent") or (self.kind == "compact" and self.message.agent is not None)


def is_error(entry: Entry) -> bool:
    """A failed call's row, or an API error's."""
    if entry.call is not None:
        return entry.call.status == "error"
    return entry.message.kind is Kind.API_ERROR and entry.kind == "row"


def abandoned(call: ToolCall, clock: Clock) -> bool:
    """A call with no result, and no sign of life (its subagent's records) for an hour: not running."""
    if call.status != "running":
        return False
    stamps = [sub.last_timestamp for sub in call.subagents if sub.last_timestamp]
    last = epoch_of(max(stamps, key=lambda s: epoch_of(s) or 0) if stamps else call.started)
    return last is not None and clock.now() - last > ABANDONED_AFTER


def thinking_note(block: Block) -> str | None:
    """What stands for a thinking block with no text to open (redacted, or signed with none saved, as
    Claude Code 2.1 writes it); None when it has text."""
    if block.type == "thinking" and block.text.strip():
        return None
    return f"∴ Thinking ({'redacted' if block.type == 'redacted_thinking' else 'no text saved'})"


#: What an assistant turn is made of (tool results are shown on their own only when their call is lost).
_TURN = (Kind.ASSISTANT, Kind.API_ERROR, Kind.TOOL_RESULT)


def continues_turn(message: Message, previous: Message | None) -> bool:
    """An assistant message right after another one belongs to the same turn (one header)."""
    return previous is not None and message.kind in _TURN and previous.kind in _TURN


def build(
    message: Message,
    top: int,
    depth: int,
    previous: Message | None,
    expanded: set[object],
    hide_quiet: bool,
) -> list[Entry]:
    """The entries of one message (and of the subagent transcripts expanded under its calls)."""
    kind = message.kind
    gap = 0 if top == 0 and depth == 0 else 1  #: a blank line above, but at the top of the pane
    if kind in QUIET_KINDS:
        return [] if hide_quiet else [Entry("row", message, top, depth)]
    if kind is Kind.COMPACT_BOUNDARY:
        run = message.agent if message.agent is not None and message in expanded else None  # wrote its summary
        nested = _nested(run, top, depth, expanded, hide_quiet) if run is not None else []
        return [Entry("compact", message, top, depth, pad=gap), *nested]
    if kind is Kind.COMPACT_SUMMARY:
        return [Entry("summary", message, top, depth)]
    if kind is Kind.RECAP:
        return [Entry("recap", message, top, depth, pad=gap)]
    if kind in (Kind.INTERRUPT, Kind.COMMAND, Kind.WARNING, Kind.TASK):
        return [Entry("row", message, top, depth, pad=gap if kind is Kind.COMMAND else 0)]
    out: list[Entry] = []
    if message.fork is not None and depth == 0:
        out.append(Entry("fork", message, top, depth, pad=gap))
    if not continues_turn(message, previous):
        pad = 0 if out or (previous is None and depth == 0) else 1
        out.append(Entry("header", message, top, depth, pad=pad))
    if kind is Kind.API_ERROR:  # its text, the record's or its blocks', is one error row (for `e` and `!` too)
        out.append(Entry("row", message, top, depth))
    last = out[-1].kind if out else "tool"
    for block in message.blocks:
        btype = block.type
        if btype == "text":
            if kind is Kind.API_ERROR or not block.text.strip():
                continue
            entry = Entry("text", message, top, depth, block, pad=1 if last not in ("header", "text") else 0)
        elif btype in ("thinking", "redacted_thinking"):
            entry = Entry("thinking", message, top, depth, block, pad=1 if last == "text" else 0)
        elif btype == "tool_use" and block.call is not None:
            entry = Entry("tool", message, top, depth, block, block.call, pad=1 if last == "text" else 0)
        elif btype in ("image", "document", "ide"):
            entry = Entry("image", message, top, depth, block)
        else:
            entry = Entry("block", message, top, depth, block)
        out.append(entry)
        last = entry.kind
        call = entry.call
        if call is not None and call in expanded:
            for sub in call.subagents:
                out += _nested(sub, top, depth, expanded, hide_quiet)
    return out


def _nested(sub: Session, top: int, depth: int, expanded: set[object], hide_quiet: bool) -> list[Entry]:
    """The entries of a subagent's transcript, opened under the row that holds it."""
    out: list[Entry] = []
    previous: Message | None = None
    for message in sub.visible():
        out += build(message, top, depth + 1, previous, expanded, hide_quiet)
        previous = message
    return out


def dates_its_time(entry: Entry) -> bool:
    """A header, or a row that is not a dim one: its time shows the date when it is the first of the day."""
    return entry.kind in ("header", "recap") or (entry.kind == "row" and entry.message.kind not in QUIET_KINDS)


def first_of_day(entries: Sequence[Entry], index: int, clock: Clock) -> bool:
    """Whether entry `index` (one that `dates_its_time`) shows its date: the last such entry above it in its
    transcript (the conversation, or the subagent it is in) is of another day in the clock's zone, or there is
    none. Only rows shown count: after rows that a filter hides, or a turn that ran past midnight without a
    header, the next time shown says that the day changed."""
    entry = entries[index]
    for at in range(index - 1, -1, -1):
        above = entries[at]
        if above.depth < entry.depth:  # the first row of a subagent
            return True
        if above.depth == entry.depth and dates_its_time(above):
            return clock.date(above.message.timestamp) != clock.date(entry.message.timestamp)
    return True


def short_model(model: str) -> str:
    """ "claude-opus-4-1-20250805" (or its Bedrock or Vertex AI id) -> "opus-4.1"; other names unchanged."""
    match = _MODEL.match(anthropic_id(model))
    if not match:
        return one_line(model.strip("<>"), 60)  # a name from the file: controls made visible
    major, minor, family, new_major, new_minor = match.groups()
    if new_major:
        return f"{family}-{new_major}" + (f".{new_minor}" if new_minor else "")
    if major:
        return f"{family}-{major}.{minor}"
    return family
