"""How the conversation pane's entries are measured and drawn: an entry's height is known without drawing it (text is
measured by `lines.measure`), and drawing it gives exactly that many lines.

The pane imports this module when it first draws an entry, not before the first frame: with it come the Markdown,
highlighting and tool renderers, which a browser with no session open yet does not use.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.style import Style
from rich.text import Text

from claude_tui.core.content import attached, prompt_text
from claude_tui.core.files import plan_file
from claude_tui.core.humanize import human_count, human_size
from claude_tui.core.model import QUEUED, AgentRole, Kind, Message
from claude_tui.core.sanitize import without_markup
from claude_tui.core.session import Session, agent_word
from claude_tui.ui import lines, notes, tools
from claude_tui.ui.clock import Clock
from claude_tui.ui.palette import Palette
from claude_tui.ui.text import one_line
from claude_tui.ui.widgets.conversation.entries import ATTACHED_MARKS, Entry, abandoned, short_model, thinking_note

#: Kinds whose text has a bar beside it: a prompt, and a peer's message.
_BARRED = (Kind.PROMPT, Kind.PEER)
_QUIET_GLYPHS = {
    Kind.META: "·",
    Kind.SYSTEM: "·",
    Kind.HOOK: "↪",
    Kind.ATTACHMENT: "+",
    Kind.PROGRESS: "…",
    Kind.UNKNOWN: "?",
    Kind.COMMAND_OUTPUT: "│",
}


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
            out.append(self._fit(Text(f"{ATTACHED_MARKS[block.type]} {attached(block)}", p.dim), inner))
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
        said = message.text if kind is Kind.META else message.plain_text  # a meta record's row: its note (meta_note)
        text = one_line(without_markup(said or message.text or message.record_type), 600)
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
