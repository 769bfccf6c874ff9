"""The rows of the conversation pane: what a message becomes (entries), and how each is drawn.

An entry is one thing the cursor can rest on: a message header, a text block,
a thinking block, a tool call, a dim one-line row, a compaction, a fork marker.
Its height is known without drawing it (text is measured by `lines.measure`),
and drawing it gives exactly that many lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.style import Style
from rich.text import Text

from claude_tui.core.content import prompt_text
from claude_tui.core.files import plan_file
from claude_tui.core.humanize import human_count, human_size
from claude_tui.core.model import QUEUED, QUIET_KINDS, AgentRole, Block, Kind, Message, Problem, ToolCall
from claude_tui.core.sanitize import without_markup
from claude_tui.core.session import Session, agent_word
from claude_tui.core.usage import anthropic_id
from claude_tui.ui import lines, notes, tools
from claude_tui.ui.clock import Clock, epoch_of
from claude_tui.ui.palette import Palette
from claude_tui.ui.text import one_line

_QUIET_GLYPHS = {
    Kind.META: "·",
    Kind.SYSTEM: "·",
    Kind.HOOK: "↪",
    Kind.ATTACHMENT: "+",
    Kind.PROGRESS: "…",
    Kind.UNKNOWN: "?",
    Kind.COMMAND_OUTPUT: "│",
}
#: A model id (claude-opus-4-5-20251101, claude-3-5-sonnet-20241022): its family and version, for `short_model`.
_MODEL = re.compile(r"^claude-(?:(\d+)-(\d+)-)?([a-z]+)(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:-\d{8})?$")


#: Seconds with no result and nothing written after which a call is shown as not running (the tools time out
#: well before; a subagent at work writes its records).
ABANDONED_AFTER = 3600


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


#: Kinds whose text has a bar beside it: a prompt, and a peer's message.
_BARRED = (Kind.PROMPT, Kind.PEER)

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
        elif btype == "image":
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


class Painter:
    """Measures and draws entries at one width, in one palette."""

    def __init__(self, palette: Palette, clock: Clock, cwd: str | None, expanded: set[object]) -> None:
        self.palette = palette
        self.clock = clock
        self.cwd = cwd
        self.expanded = expanded
        self.session_path: Path | None = None  #: where plan files are looked for (see files.plan_file)
        self.toggle_key = "space"  #: the key the rows name for opening and closing (as remapped)
        self.branch_keys = "< >"  #: and for switching branch

    def content_width(self, entry: Entry, width: int) -> int:
        """Cells left for an entry's content after the gutter and its nesting."""
        return max(8, width - 3 - 2 * entry.depth)

    def measure(self, entry: Entry, width: int) -> int:
        """Lines of `entry` (blank lines above not counted) at pane width `width`, without drawing
        it where that can be avoided."""
        inner = self.content_width(entry, width)
        kind = entry.kind
        if kind == "text":
            body = lines.measure(self._markdown(entry), inner - self._text_indent(entry))
        elif (kind in ("thinking", "summary") and entry.key in self.expanded) or kind == "recap":
            body = 1 + lines.measure(self._markdown(entry), inner - 2)
        elif kind == "tool" and entry.key in self.expanded:
            body = len(self.draw(entry, width)) - entry.pad
        else:
            body = 1
        return body

    def _markdown(self, entry: Entry) -> lines.Markdown:
        if entry.md is None:
            if entry.kind in ("summary", "recap"):
                source = entry.message.plain_text
            else:
                source = entry.block.text if entry.block is not None else ""
            entry.md = lines.parse(source, markdown=entry.kind != "text" or not entry.message.typed)
        return entry.md

    def _text_indent(self, entry: Entry) -> int:
        return 2 if entry.message.kind in _BARRED else 0

    def draw(
        self, entry: Entry, width: int, turn: Callable[[Entry], list[Message]] | None = None, dated: bool = False
    ) -> list[Text]:
        """The content lines of `entry` (blank lines above included), each at most the content width; a header
        or a row `dated` shows the date before its time."""
        inner = self.content_width(entry, width)
        p = self.palette
        kind = entry.kind
        out: list[Text] = [Text("") for _ in range(entry.pad)]
        if kind == "header":
            out.append(self._header(entry, inner, turn(entry) if turn else [entry.message], dated))
        elif kind == "text":
            prompt = entry.message.kind is Kind.PROMPT
            drawn = lines.render(
                self._markdown(entry),
                inner - self._text_indent(entry),
                p,
                p.bold if prompt and entry.depth == 0 else None,
            )
            if entry.message.kind in _BARRED:  # a prompt's bar; a peer's, in its own colour
                bar = p.prompt if prompt else p.accent
                drawn = [Text.assemble(("▎ ", bar), line) for line in drawn]
            out += drawn
        elif kind == "thinking":
            out += self._thinking(entry, inner)
        elif kind == "tool":
            assert entry.call is not None
            open_ = entry.key in self.expanded
            stopped = abandoned(entry.call, self.clock)
            out.append(tools.headline(entry.call, inner, p, self.cwd, open_, stopped))
            if open_:
                rows = tools.body(entry.call, inner - 2, p, self.cwd, stopped) + notes.rows(entry.call.notes, p)
                out += [Text("  ") + line for line in lines.wrap_rows(rows, inner - 2)]
        elif kind == "summary":
            out += self._summary(entry, inner)
        elif kind == "recap":
            out += self._recap(entry, inner, dated)
        elif kind == "compact":
            out.append(self._compact(entry, inner))
        elif kind == "fork":
            out.append(self._fork(entry, inner))
        elif kind == "agent":
            out.append(self._agent(entry, inner))
        elif kind == "image":
            block = entry.block
            assert block is not None
            out.append(Text(f"▣ {block.media_type or 'image'} · {human_size(block.size)}", p.dim))
        elif kind == "problem":
            problem = entry.problem
            assert problem is not None
            where = f"line {problem.line_no}: " if problem.line_no else ""
            note = Text.assemble(("⚠ ", p.warning), (where + one_line(problem.message, 400), p.warning))
            out.append(self._fit(note, inner))
        elif kind == "block":
            block = entry.block
            assert block is not None
            out.append(self._fit(Text(f"? {block.type} · {human_size(block.size or len(block.text))}", p.dim), inner))
        else:
            out.append(self._row(entry, inner, dated))
        return out

    def _fit(self, text: Text, width: int) -> Text:
        if text.cell_len > width:
            text.truncate(width - 1)
            text.append("…", self.palette.faint)
        return text

    def _right(self, left: Text, right: Text, width: int) -> Text:
        """`left` and `right` on one line of `width` cells, the left cut first."""
        room = width - right.cell_len - 1
        if room < 8:
            return self._fit(left, width)
        left = self._fit(left, room)
        left.pad_right(width - left.cell_len - right.cell_len)
        return left + right

    def _header(self, entry: Entry, width: int, turn: list[Message], dated: bool) -> Text:
        p = self.palette
        message = entry.message
        right = Text(self._stamp(message, dated), p.faint)
        if message.kind is Kind.PROMPT:
            right = Text.assemble((_mark(message), p.faint), right)
            left = Text.assemble(("❯ ", p.prompt), ("You" if entry.depth == 0 else "Task prompt", p.prompt))
            if message.queued:
                left.append(f"  {QUEUED}", p.faint)
            if message.slug and self.session_path and plan_file(message.slug, self.session_path):
                left.append(f"  plan {message.slug}", p.faint)  # what `p` shows
            return self._right(left, right, width)
        if message.kind is Kind.PEER:
            left = Text.assemble(("✉ ", p.accent), (one_line(message.sender or "a peer", 80), p.accent))
            if message.text:
                left.append(f"  {one_line(message.text, 200)}", p.faint)
            return self._right(left, right, width)
        name = "Claude" if entry.depth == 0 else "Agent"
        left = Text.assemble(("◆ ", p.assistant), (name, p.assistant))
        answered = [m for m in turn if not m.synthetic]  # an API error names no model, and its usage is zeros
        model = next((m.model for m in answered if m.model), None)
        if model:
            left.append(f"  {short_model(model)}", p.dim)
        out_tokens = sum(m.tokens.output for m in answered if m.tokens is not None)
        last = next((m.tokens for m in reversed(answered) if m.tokens is not None), None)
        if last is not None:
            context = last.input + last.cache_read + last.cache_creation
            right = Text.assemble((f"{human_count(context)} ctx · {human_count(out_tokens)} out   ", p.faint), right)
        return self._right(left, right, width)

    def _thinking(self, entry: Entry, width: int) -> list[Text]:
        p = self.palette
        block = entry.block
        assert block is not None
        note = thinking_note(block)
        if note is not None:
            return [Text(note, p.dim + Style(italic=True))]
        md = self._markdown(entry)
        count = len(md.lines) + md.omitted
        if entry.key not in self.expanded:
            first = one_line(block.text, 400)
            head = Text.assemble(("∴ ", p.dim), ("Thinking  ", p.dim + Style(italic=True)), (first, p.faint))
            return [self._right(head, Text(_lines(count), p.faint), width)]
        head = Text.assemble(("∴ ", p.dim), ("Thinking ▾", p.dim + Style(italic=True)))
        body = lines.render(md, width - 2, p, p.dim + Style(italic=True))
        return [head] + [Text.assemble(("│ ", p.faint), line) for line in body]

    def _summary(self, entry: Entry, width: int) -> list[Text]:
        p = self.palette
        md = self._markdown(entry)
        count = len(md.lines) + md.omitted
        open_ = entry.key in self.expanded
        head = Text.assemble(
            ("≡ ", p.divider), ("Summary of the earlier conversation", p.divider), (" ▾" if open_ else "", p.faint)
        )
        out = [self._right(head, Text(_lines(count), p.faint), width)]
        if open_:
            out += [Text.assemble(("│ ", p.faint), line) for line in lines.render(md, width - 2, p)]
        return out

    def _recap(self, entry: Entry, width: int, dated: bool) -> list[Text]:
        """Claude's recap for a user who was away: a head line, and the recap in full below it."""
        p = self.palette
        head = Text.assemble(("↻ ", p.accent), ("Recap", p.accent), (" · while you were away", p.faint))
        out = [self._right(head, Text(self._stamp(entry.message, dated), p.faint), width)]
        out += [Text.assemble(("│ ", p.faint), line) for line in lines.render(self._markdown(entry), width - 2, p)]
        return out

    def _compact(self, entry: Entry, width: int) -> Text:
        p = self.palette
        message = entry.message
        what = "microcompacted" if message.micro else "compacted"
        label = f" ⟲ {what}"
        if message.pre_tokens:
            label += f" · {human_count(message.pre_tokens)} tokens before"
        stamp = self.clock.clock_time(message.timestamp, seconds=False)
        label += f" · {stamp} " if stamp else " "
        if message.agent is not None:  # the run that wrote its summary opens under it
            label += f"· its summary's run · {self.toggle_key} {'closes' if entry.key in self.expanded else 'opens'} "
        return _rule(label, width, p.divider)

    def _fork(self, entry: Entry, width: int) -> Text:
        p = self.palette
        fork = entry.message.fork
        assert fork is not None
        count = len(fork.heads)
        index = next((i for i, head in enumerate(fork.heads) if head is entry.message), 0)
        label = f" branch {index + 1} of {count} · the prompt was edited or rewound · {self.branch_keys} switch "
        return _rule(label, width, p.warning)

    def _agent(self, entry: Entry, width: int) -> Text:
        agent = entry.agent
        assert agent is not None
        what = ("warmup " if agent.is_warmup else "") + agent_word(agent)
        opened = entry.key in self.expanded
        action = f"{self.toggle_key} {'closes' if opened else 'opens'}"  # first: a narrow pane cuts the end
        label = f" {'▾' if opened else '▸'} {what} · {action} · {self._unstarted_why(agent)} "
        return _rule(label, width, self.palette.divider)

    def _unstarted_why(self, agent: Session) -> str:
        """Why a subagent is shown after the conversation: a side question asked beside it (when, and what), a
        compaction run of a compaction not in the file, or one that no call started."""
        if agent.role is AgentRole.SIDE_QUESTION:
            asked = next((m for m in agent.visible() if m.kind is Kind.PROMPT), None)
            if asked is not None:
                stamp = self.clock.clock_time(asked.timestamp, seconds=False)
                return one_line(f"asked {stamp}: {prompt_text(asked, 300)}" if stamp else prompt_text(asked), 300)
            return "asked beside the conversation"
        if agent.role is AgentRole.COMPACTION:
            return "its compaction is not in this session"
        return "no call in this session started it"

    def _row(self, entry: Entry, width: int, dated: bool) -> Text:
        p = self.palette
        message = entry.message
        kind = message.kind
        text = one_line(without_markup(message.plain_text or message.text or message.record_type), 600)
        right = Text(self._stamp(message, dated), p.faint)
        if kind is Kind.API_ERROR:
            left = Text.assemble(("✗ ", p.error), ("API error  ", p.error), (text, p.error))
        elif kind is Kind.INTERRUPT:
            left = Text("⊘ interrupted by user", p.warning)
        elif kind is Kind.WARNING:
            left = Text.assemble(("⚠ ", p.warning), (text, p.warning))
        elif kind is Kind.COMMAND:
            left = Text.assemble(("$ ", p.accent), (prompt_text(message, 400), p.accent))
            if message.queued:
                left.append(f"  {QUEUED}", p.faint)
            right = Text.assemble((_mark(message), p.faint), right)
        elif kind is Kind.TASK:  # its lines (task and status, summary, output file) on one
            left = Text.assemble(("⚙ ", p.accent), (one_line(" · ".join(message.text.splitlines()), 600), p.dim))
        elif kind is Kind.ATTACHMENT:  # its words say what it is
            left = Text.assemble((f"{_QUIET_GLYPHS[kind]} ", p.faint), (text, p.faint))
        else:
            glyph = _QUIET_GLYPHS.get(kind, "·")
            label = kind.value.replace("_", " ") if kind is not Kind.UNKNOWN else message.record_type
            left = Text.assemble((f"{glyph} ", p.faint), (label, p.faint))
            if text and text != label:
                left.append(f"  {text}", p.faint)
        return self._right(left, right, width)

    def _stamp(self, message: Message, dated: bool) -> str:
        """The time of `message`, after its date when `dated`."""
        stamp = message.timestamp
        time = self.clock.clock_time(stamp)
        return f"{self.clock.day(stamp)} · {time}" if dated and stamp else time


def _mark(message: Message) -> str:
    """`↪3  ` before the time of a prompt or a command whose turn ran hooks."""
    mark = tools.hook_mark(message.notes)
    return f"{mark}  " if mark else ""


def _lines(count: int) -> str:
    return f"{count:,} line" + ("" if count == 1 else "s")


def _rule(label: str, width: int, style: Style) -> Text:
    """`──── label ────────` across `width` cells."""
    text = Text("────" + label, style)
    if text.cell_len > width:
        text.truncate(width)
        return text
    text.append("─" * (width - text.cell_len))
    return text


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
