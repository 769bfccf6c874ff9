"""A message or a tool call as Rich renderables, for the detail view (one at a time).

Everything is bounded: text is shown up to DETAIL_CHARS, code highlighted up to
lines.MAX_HIGHLIGHT_CHARS, and session text never goes through Rich markup
(Text objects only, inert). Markdown is drawn by lines.py, as in the conversation pane.
"""

from __future__ import annotations

import orjson
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.style import Style
from rich.text import Text

from claude_tui.core import asked
from claude_tui.core import diff as core_diff
from claude_tui.core.agents import report_of
from claude_tui.core.content import attached, command_as_run, without_reminders
from claude_tui.core.hooks import headline
from claude_tui.core.humanize import human_count, human_size
from claude_tui.core.model import QUEUED, Block, Kind, Message, ToolCall
from claude_tui.core.sanitize import command_output, visible_controls
from claude_tui.ui import diff, lines, notes, tools
from claude_tui.ui import text as ui_text
from claude_tui.ui.clock import Clock
from claude_tui.ui.lines import MAX_HIGHLIGHT_CHARS, highlight, lexer_for_path
from claude_tui.ui.palette import Palette
from claude_tui.ui.widgets.conversation.entries import ATTACHED_MARKS, abandoned, short_model, thinking_note

#: Characters of one text shown in the detail view (drawing more would stall the screen); $PAGER shows all.
DETAIL_CHARS = 50_000
#: Markdown beyond this size is shown as plain text.
MARKDOWN_CHARS = 30_000

ROLE = {
    Kind.PROMPT: "You",
    Kind.ASSISTANT: "Claude",
    Kind.COMPACT_SUMMARY: "Compaction summary",
    Kind.RECAP: "Recap",
    Kind.TASK: "Background task",
}


def title(message: Message, call: ToolCall | None, clock: Clock) -> str:
    """One line naming what the detail view shows."""
    when = clock.clock_time(message.timestamp)
    if call is not None:
        subject, _ = tools.summary(call, None)
        return f"{ui_text.tool_name(call.name, 80)} · {ui_text.one_line(subject, 80)} · {when}"
    role = ROLE.get(message.kind, message.kind.value.replace("_", " "))
    if message.kind is Kind.PEER:
        role = f"From {message.sender}"
    elif message.queued:
        role += f" ({QUEUED})"
    model = f" · {short_model(message.model)}" if message.model else ""
    return f"{role}{model} · {when}"


def facts(message: Message, call: ToolCall | None, clock: Clock) -> Text:
    """The small print: line numbers, uuid, tokens, status (a call's: its own line and its result's, and its id)."""
    spans = call.spans if call is not None else [message.span] if message.span else []
    parts = [("lines " if len(spans) > 1 else "line ") + " and ".join(str(s.line_no) for s in spans)] if spans else []
    if call is not None:
        parts.append(f"id {call.id}")
    elif message.uuid:
        parts.append(f"uuid {message.uuid}")
    if message.tokens is not None:
        t = message.tokens
        parts.append(
            f"tokens in {human_count(t.input)} · out {human_count(t.output)} · cache read "
            f"{human_count(t.cache_read)} · cache write {human_count(t.cache_creation)}"
        )
    if call is not None:
        status = "no result" if abandoned(call, clock) else call.status
        parts.append(status + (f" in {ui_text.duration(call.duration)}" if call.duration is not None else ""))
        if call.result is not None:
            parts.append(f"output {human_size(call.result.size)}")
    if message.slug:
        parts.append(f"plan {message.slug}")
    return Text(visible_controls("  ·  ".join(parts)), style="dim")  # uuid and slug come from the file


def message_body(message: Message, palette: Palette, cwd: str | None, clock: Clock, path: str) -> RenderableType:
    """All the blocks of a message, in order, then what folded into its row (`path`: its session's file)."""
    parts: list[RenderableType] = []
    if message.kind is Kind.COMMAND_OUTPUT:  # what a command printed, as it looked in the terminal
        return coloured(command_output(message.plain_text), None)
    if message.hook is not None:  # a hook's own row (it failed): the run in full
        return Group(*notes.hook_detail(message.hook, palette, path))
    if not message.blocks:
        parts.append(plain(message.plain_text or message.text or message.record_type, palette))
    for block in message.blocks:
        if block.type == "text":
            if (ran := _as_run(message, block)) is not None:
                parts.append(plain(ran, palette))
            else:
                parts.append(plain(block.text, palette) if message.typed else markdown(block.text, palette))
        elif block.type in ("thinking", "redacted_thinking"):
            note = thinking_note(block)
            if note is not None:
                parts.append(Text(note, palette.dim))
            else:
                parts.append(Text("∴ Thinking", palette.dim + Style(italic=True)))
                parts.append(plain(block.text, palette, palette.dim + Style(italic=True)))
        elif block.call is not None:
            parts.append(tools.headline(block.call, 100, palette, cwd, False, abandoned(block.call, clock)))
        elif block.type in ATTACHED_MARKS:
            parts.append(Text(f"{ATTACHED_MARKS[block.type]} {attached(block)}", palette.dim))
            if block.text:  # a text document's, what an IDE said
                parts.append(plain(block.text, palette, palette.dim if block.type == "ide" else None))
        else:
            parts.append(Text(f"? {block.type}", palette.dim))
            parts.append(plain(block.text, palette, palette.dim))
        parts.append(Text(""))
    return Group(*parts, *notes.detail(message.notes, palette, path))


def call_body(
    call: ToolCall, output: str, palette: Palette, cwd: str | None, clock: Clock, width: int, path: str
) -> RenderableType:
    """A tool call in full: its headline fitted to `width`, its input as the tool means it, then `output` (read
    back whole), then its hook runs (`path`: its session's file, see notes.detail)."""
    stopped = abandoned(call, clock)
    parts: list[RenderableType] = [tools.headline(call, width, palette, cwd, False, stopped), Text("")]
    inp = call.args
    if call.name in core_diff.EDIT_TOOLS:
        path = str(inp.get("file_path") or inp.get("notebook_path") or "")
        parts.append(Text(path, palette.bold))
        for row in diff.render_hunks(core_diff.hunks_of(call), path, palette):
            if row.fill is not None:
                row.text.stylize(row.fill)
            parts.append(row.text)
    elif call.name == "Bash":
        parts.append(code("$ " + str(inp.get("command") or ""), "bash", palette))
        if inp.get("description"):
            parts.append(Text(str(inp["description"]), palette.dim))
    elif call.name in ("Task", "Agent"):
        parts.append(Text("prompt", palette.faint))
        parts.append(markdown(str(inp.get("prompt") or ""), palette))
    elif call.name == asked.NAME and (questions := asked.questions_of(call)):
        parts += [row.text for row in tools.question_rows(questions, palette)]
    else:
        source = orjson.dumps(call.input, option=orjson.OPT_INDENT_2, default=str).decode()
        parts.append(code(source, "json", palette))
    parts.append(Text(""))
    result = call.result
    if result is None:  # and what its latest progress record said
        parts.append(tools.waiting(palette, stopped))
        if call.progress:
            parts.append(coloured(call.progress, palette.dim))
        return Group(*parts, *notes.detail(call.notes, palette, path))
    label = "error" if result.is_error else "output"
    parts.append(Text(f"{label} · {human_size(result.size)}", palette.error if result.is_error else palette.faint))
    if call.name in ("Task", "Agent") and not result.is_error:
        report, trailer = report_of(output)
        parts.append(markdown(report, palette))
        if trailer:
            parts.append(Text(trailer, palette.dim))
    else:
        output, reminders = without_reminders(tools.error_text(output) if result.is_error else output)
        parts.append(coloured(output, palette.error if result.is_error else None))
        parts += [Text(f"ⓘ {note}", palette.dim) for note in reminders]
    parts += tools.exit_meaning(result, palette)
    for media_type, size in result.images:
        parts.append(Text(f"▣ {media_type} · {human_size(size)}", palette.dim))
    return Group(*parts, *notes.detail(call.notes, palette, path))


def markdown(text: str, palette: Palette) -> RenderableType:
    """Markdown for text of a bearable size, drawn as the conversation pane draws it; plain text beyond."""
    if len(text) > MARKDOWN_CHARS:
        return _capped(visible_controls(text[: DETAIL_CHARS + 1]), len(text))
    return Drawn(lines.parse(visible_controls(text)), palette)


class Drawn:
    """Parsed Markdown drawn at the width it is given (lines.render): the detail view's text as the pane's."""

    def __init__(self, markdown: lines.Markdown, palette: Palette) -> None:
        self.markdown, self.palette = markdown, palette

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in lines.render(self.markdown, options.max_width, self.palette):
            line.end = "\n"  # a wrapped line's pieces end with none: each is a screen line here
            yield line


def plain(text: str, palette: Palette, style: Style | None = None) -> Text:
    shown = _capped(visible_controls(text[: DETAIL_CHARS + 1]).expandtabs(4), len(text))  # scan only what shows
    if style is not None:
        shown.stylize(style)
    return shown


def coloured(output: str, style: Style | None) -> Text:
    """A tool output with its SGR colours as styles (see `text.coloured`), capped as `plain`."""
    return _capped(ui_text.coloured(output[: DETAIL_CHARS + 1], style), len(output))


def code(source: str, lang: str, palette: Palette) -> RenderableType:
    if len(source) > MAX_HIGHLIGHT_CHARS:
        return _capped(visible_controls(source[: DETAIL_CHARS + 1]).expandtabs(4), len(source))
    source = visible_controls(source).expandtabs(4)
    styled = highlight(source, lang, palette)
    if styled is None:
        return _capped(source)
    return Text("\n").join(styled)


def raw_json(source: str, palette: Palette) -> RenderableType:
    return code(source, "json", palette)


def file_text(path: str, source: str, palette: Palette) -> RenderableType:
    """A file's content, highlighted by its name (plans are Markdown)."""
    if path.endswith(".md"):
        return markdown(source, palette)
    lexer = lexer_for_path(path)
    return code(source, lexer, palette) if lexer else plain(source, palette)


def _capped(text: str | Text, total: int | None = None) -> Text:
    """At most DETAIL_CHARS of `text`; `total` is the length of the whole, when `text` is already a cut."""
    text = Text(text) if isinstance(text, str) else text
    total = len(text) if total is None else total
    if len(text) <= DETAIL_CHARS and total <= DETAIL_CHARS:
        return text
    shown = text[:DETAIL_CHARS]
    shown.append(f"\n… {total - DETAIL_CHARS:,} more characters · $PAGER shows it all", "dim")
    return shown


def _as_run(message: Message, block: Block) -> str | None:
    """A command's text block as the user ran it, without its tags (content.command_as_run); None for any other."""
    return command_as_run(block.text) if message.kind is Kind.COMMAND and block.type == "text" else None


def message_text(message: Message) -> str:
    """A message as plain text, for the clipboard and the pager (a hook's row: the hook's run)."""
    if message.hook is not None:
        hook = message.hook
        return "\n".join(part for part in (headline(hook), hook.command, hook.output, hook.errors) if part.strip())
    out: list[str] = []
    for block in message.blocks:
        if (ran := _as_run(message, block)) is not None:
            out.append(ran)
        elif block.type in ("text", "thinking"):
            out.append(block.text)
        elif block.call is not None:
            subject, detail = tools.summary(block.call, None)
            out.append(f"[{ui_text.tool_name(block.call.name, 80)}] {subject} {detail}".rstrip())
        elif block.type in ("image", "document"):
            out.append(f"[{block.type} {attached(block)}]")
    return "\n\n".join(out) if out else (message.plain_text or message.text)
