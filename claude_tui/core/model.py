"""The parts of a session: messages, their content blocks, tool calls and results, forks.

Plain data, kept compact: a 100 MB session holds tens of thousands of these.
Large payloads (tool outputs, images) keep a bounded preview and the byte span
of their line, from which `source.py` reads the full content when asked.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from claude_tui.core.times import parse_time
from claude_tui.core.usage import Tokens

if TYPE_CHECKING:
    from claude_tui.core.session import Session

#: Characters of a tool output kept in memory; the rest is read from the file on demand.
PREVIEW_CHARS = 16_000


class Kind(StrEnum):
    """What a message is, as a reader sees it."""

    PROMPT = "prompt"  #: something the user typed
    ASSISTANT = "assistant"
    TOOL_RESULT = "tool_result"  #: a user record carrying tool results (shown under their call)
    COMMAND = "command"  #: a slash command or `!` shell command the user ran
    COMMAND_OUTPUT = "command_output"
    INTERRUPT = "interrupt"  #: "[Request interrupted by user]"
    META = "meta"  #: isMeta user records: caveats, injected context
    COMPACT_SUMMARY = "compact_summary"
    COMPACT_BOUNDARY = "compact_boundary"
    API_ERROR = "api_error"
    WARNING = "warning"  #: a system record of level "warning": the model fell back, a command is unknown
    SYSTEM = "system"
    HOOK = "hook"
    RECAP = "recap"  #: Claude's recap of the session for a user who was away (a system record, `away_summary`)
    TASK = "task"  #: a background task's notification (`<task-notification>`): Claude Code's word, not a prompt
    PEER = "peer"  #: a message from a teammate or another Claude session (core/notices.py): not a prompt
    ATTACHMENT = "attachment"
    PROGRESS = "progress"
    UNKNOWN = "unknown"  #: a record type we do not know: kept, shown inert


class AgentRole(StrEnum):
    """What ran a subagent: a Task or Agent call, a workflow run, or Claude Code itself (files.agent_role reads it
    from where its transcript is and how it is named)."""

    TASK = "task"
    WORKFLOW = "workflow"  #: one agent of a workflow run (the Workflow tool), several per call
    COMPACTION = "compaction"  #: the run that wrote a compaction's summary
    SIDE_QUESTION = "side_question"  #: a `/btw` question, answered beside the conversation

    @property
    def replays(self) -> bool:
        """Its transcript opens with a copy of its session's messages (the context it was given); its own part
        begins at its last prompt."""
        return self in (AgentRole.COMPACTION, AgentRole.SIDE_QUESTION)


#: How a prompt typed while Claude worked is marked, in the app and in exports.
QUEUED = "queued while Claude worked"

#: What stands for a lost call's input.
LOST_CALL = "its call is not in the file (a damaged line?)"

#: Kinds shown as dim one-line rows that a user can hide.
QUIET_KINDS = frozenset(
    {Kind.META, Kind.SYSTEM, Kind.HOOK, Kind.ATTACHMENT, Kind.PROGRESS, Kind.UNKNOWN, Kind.COMMAND_OUTPUT}
)


#: What Claude Code's session ids look like (it names each session's file by its id).
_SESSION_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def is_session_id(text: str) -> bool:
    """Whether `text` is a session id as Claude Code makes them (a UUID)."""
    return _SESSION_ID.fullmatch(text) is not None


def own_session_id(stem: str, named: Collection[str]) -> str:
    """The id of the session in a file named `stem` whose records name the sessionIds `named` (in order): the
    file's name, as Claude Code names its files, unless no record names it; then the latest session id (see
    model.is_session_id) they name."""
    if stem in named:
        return stem
    return next((sid for sid in reversed(list(named)) if is_session_id(sid)), stem)


@dataclass(slots=True)
class Span:
    """Where a record's line is in its file."""

    offset: int
    length: int
    line_no: int


@dataclass(slots=True, eq=False)
class ToolResult:
    """The outcome of one tool call."""

    text: str  #: at most PREVIEW_CHARS of the output
    size: int  #: characters of the whole output
    is_error: bool
    timestamp: str | None
    span: Span | None
    images: list[tuple[str, int]] = field(default_factory=list)  #: (media type, bytes)
    structured: Any = None  #: toolUseResult: Edit patches, Bash stdout/stderr, ...
    #: an output Claude Code moved out of the transcript: the path it recorded (`text` is its preview, `size` the
    #: whole's; files.persisted_file says where it is now)
    persisted: str | None = None

    @property
    def truncated(self) -> bool:
        return self.size > len(self.text)

    @property
    def exit_meaning(self) -> str | None:
        """What Claude Code read in a command's exit status ("No matches found" for grep's 1), when it said."""
        meaning = self.structured.get("returnCodeInterpretation") if isinstance(self.structured, dict) else None
        return (meaning.strip() or None) if isinstance(meaning, str) else None


@dataclass(slots=True, eq=False)
class Hook:
    """One hook run as a hook record tells it (an attachment, a hook_progress or a stop_hook_summary; see hooks.py)."""

    what: str  #: the record's shape: hook_success, hook_non_blocking_error, ..., hook_progress, stop_hook_summary
    event: str  #: PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, ...
    name: str  #: the hook's name: "PostToolUse:Bash", "SessionStart:startup"
    run: str | None = None  #: toolUseID: the call it ran for, or an id the records of one event's run share
    command: str = ""
    exit_code: int | None = None
    duration_ms: int | None = None
    output: str = ""  #: what it printed or passed on (stdout, its content, its response), capped
    errors: str = ""  #: what it printed on stderr, or why it blocked, capped
    failed: bool = False  #: it failed or blocked: a row of its own, in the warning colour
    blocked: bool = False  #: it stopped what it ran for (a blocking error, a denial, Claude stopped from going on)
    count: int = 1  #: hooks it reports: a summary's count; 0 for what a hook passed on (context, a message)


@dataclass(slots=True, eq=False)
class ToolCall:
    """A tool_use block, paired with its result by id."""

    id: str
    name: str
    input: Any  #: as written: an object, or (not as Claude Code writes it) any other JSON value
    message: Message
    started: str | None = None  #: timestamp of the record that holds the call
    result: ToolResult | None = None
    subagent: Session | None = None
    span: Span | None = None  #: the line of the record that holds the call
    lost: bool = False  #: a stand-in for a call not in the file (see LOST_CALL): its result is all there is
    run: list[Session] | None = None  #: a Workflow call's: the agents of the run it started
    notes: list[Message] | None = None  #: the records folded into its row: hook runs, Claude Code's notices
    progress: str = ""  #: what the latest progress record said while it ran (a command's last output)

    @property
    def subagents(self) -> list[Session]:
        """The subagents this call started: a Task or Agent call's one, a Workflow call's run."""
        return [self.subagent] if self.subagent is not None else list(self.run or ())

    @property
    def args(self) -> dict[str, Any]:
        """Its input's arguments by name: none when the input is not an object (see `input`)."""
        return self.input if isinstance(self.input, dict) else {}

    @property
    def spans(self) -> list[Span]:
        """The lines of the call and of its result."""
        return [s for s in (self.span, self.result.span if self.result else None) if s is not None]

    @property
    def status(self) -> str:
        """ "running", "error" or "ok"."""
        if self.result is None:
            return "running"
        return "error" if self.result.is_error else "ok"

    @property
    def duration(self) -> float | None:
        """Seconds from the call to its result, where both carry timestamps and are in records of their own (a
        server's call and its result come in one answer, which says nothing of how long it ran)."""
        if self.result is None or self.lost or (self.span is not None and self.result.span is self.span):
            return None
        start, end = parse_time(self.started or self.message.timestamp), parse_time(self.result.timestamp)
        if start is None or end is None or end < start:
            return None
        return end - start


#: The block types a message's blocks are made of (see core/shapes.BLOCK_TYPES for where each comes from). Any other
#: type is a block Claude Code did not write when this was: kept as its JSON, and shown as its type and size.
NAMED_BLOCKS = frozenset({"text", "thinking", "redacted_thinking", "tool_use", "image", "document", "ide"})


@dataclass(slots=True, eq=False)
class Block:
    """One content block of a message."""

    type: str  #: text, thinking, redacted_thinking, tool_use, image, document, ide, or an unknown type's name
    text: str = ""  #: the text or thinking; a text document's text (a preview); an IDE's words; an unknown block's JSON
    call: ToolCall | None = None
    media_type: str = ""  #: images and documents
    size: int = 0  #: images and documents: bytes of the decoded data
    title: str = ""  #: documents: the name it was attached by (a file's); IDE context: its note (content.ide_context)


@dataclass(slots=True, eq=False)
class Message:
    """One message as shown: a user record, or all streamed chunks of one assistant message."""

    kind: Kind
    uuid: str | None
    parent: str | None  #: parentUuid, or logicalParentUuid across a compaction
    timestamp: str | None
    span: Span | None  #: the first record's line
    index: int  #: position in the session, in file order
    blocks: list[Block] = field(default_factory=list)
    text: str = ""  #: for one-line rows: system content, hook name, command, unknown type
    record_type: str = ""
    message_id: str | None = None
    model: str | None = None
    stop_reason: str | None = None
    tokens: Tokens | None = None
    sidechain: bool = False
    segment: int = 0  #: thread segment (see threads.py): which branch of which fork it is on
    fork: Fork | None = None  #: set on the first message of a branch
    extra_spans: list[Span] | None = None  #: later chunks of a streamed assistant message
    slug: str | None = None  #: plan-mode slug
    is_error: bool = False
    pre_tokens: int | None = None  #: compaction: tokens before it
    micro: bool = False  #: a microcompact boundary
    queued: bool = False  #: a prompt typed while Claude worked, taken in the middle of its turn
    sender: str | None = None  #: a peer's message: who sent it ("researcher (teammate)")
    agent: Session | None = None  #: a compaction boundary: the run that wrote its summary
    copied: bool = False  #: another session's, copied into this one's file (see copies.py): shown, not counted
    hook: Hook | None = None  #: the hook run this record tells
    notes: list[Message] | None = None  #: a prompt: the records folded into its row (its turn's hook runs)
    folded: bool = False  #: folded into a call's or a prompt's row, or away (Claude Code's bookkeeping): no row

    @property
    def spans(self) -> list[Span]:
        first = [self.span] if self.span else []
        return first + (self.extra_spans or [])

    @property
    def plain_text(self) -> str:
        """The message's prose: text blocks joined, or the row text."""
        parts = [b.text for b in self.blocks if b.type == "text"]
        return "\n\n".join(parts) if parts else self.text

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [b.call for b in self.blocks if b.call is not None]

    @property
    def synthetic(self) -> bool:
        """Written by Claude Code, not by a model: an API error, or a `<synthetic>` stand-in answer (no usage)."""
        return self.kind is Kind.API_ERROR or self.model == "<synthetic>"

    @property
    def typed(self) -> bool:
        """A prompt a person typed (shown as written), not one a model wrote for a subagent (Markdown)."""
        return self.kind is Kind.PROMPT and not self.sidechain


@dataclass(slots=True, eq=False)
class Fork:
    """A parent with two or more prompts as children: an edited or rewound prompt."""

    parent: str | None  #: the uuid both branches continue from (None: two root prompts)
    heads: list[Message]  #: the first prompt of each branch, in file order
    chosen: int | None = None  #: the user's choice; None follows the newest branch


@dataclass(slots=True)
class Problem:
    """Something in the file that could not be read as written."""

    line_no: int
    offset: int
    message: str
