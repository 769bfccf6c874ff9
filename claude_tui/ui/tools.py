"""Tool calls as people scan them: one line each, and a bounded body when expanded."""

from __future__ import annotations

import re
from typing import Any

import orjson
from rich.style import Style
from rich.text import Text

from claude_tui.core import asked
from claude_tui.core import diff as core_diff
from claude_tui.core.agents import report_of
from claude_tui.core.content import as_text, without_reminders
from claude_tui.core.hooks import runs
from claude_tui.core.humanize import human_count, human_size, plural
from claude_tui.core.model import LOST_CALL, PREVIEW_CHARS, Message, ToolCall, ToolResult
from claude_tui.core.sanitize import visible_controls, without_sgr
from claude_tui.ui import diff
from claude_tui.ui.lines import Row, highlight, parse, render
from claude_tui.ui.palette import Palette
from claude_tui.ui.text import coloured, duration, one_line, short_path, tool_name

#: Lines of a tool output shown in the pane; the detail view shows more.
OUTPUT_LINES = 16
#: Lines of a diff shown in the pane.
DIFF_LINES = 60
#: Characters of an input or output looked at for the pane.
PREVIEW = 8_000

MARKS = {"ok": "✓", "error": "✗", "running": "◌"}
_COUNTS = re.compile(r"^\+(\d+) -(\d+)(.*)$")


def hook_mark(notes: list[Message] | None) -> str:
    """`↪2` for a row whose records folded in tell two hook runs (hooks.runs), else ""."""
    count = runs(notes) if notes else 0
    return f"↪{count}" if count else ""


def summary(call: ToolCall, cwd: str | None) -> tuple[str, str]:
    """What the call did, as (subject, detail): ("src/app.py", "+3 -1")."""
    inp, name = call.args, call.name
    if call.lost:
        return LOST_CALL, _output_hint(call)
    if not isinstance(call.input, dict):  # not as Claude Code writes it: shown as it is
        return one_line(call.input), _output_hint(call)
    path = short_path(str(inp.get("file_path") or inp.get("notebook_path") or inp.get("path") or ""), cwd)
    if call.run:  # a workflow's agents, opened under it
        messages = sum(1 for sub in call.run for m in sub.messages if m.kind.value in ("prompt", "assistant"))
        name_of = (
            call.result.structured.get("workflowName")
            if call.result and isinstance(call.result.structured, dict)
            else None
        )
        subject = one_line(name_of) if isinstance(name_of, str) else "workflow"
        return subject, f"{plural(len(call.run), 'agent')} · {plural(messages, 'message')}"
    if name == "Bash":
        return one_line(inp.get("command")), _output_hint(call)
    if name in ("Edit", "MultiEdit", "Write", "NotebookEdit"):
        if call.result is not None and call.result.is_error:  # not made: why, not the change it would have been
            return path, _output_hint(call)
        added, removed = core_diff.counts(core_diff.hunks_of(call))
        edits = inp.get("edits") if name == "MultiEdit" else None
        extra = f" · {plural(len(edits), 'edit')}" if isinstance(edits, list) else ""
        return path, f"+{added} -{removed}{extra}"
    if name == "Read":
        span = ""
        if isinstance(inp.get("offset"), int) or isinstance(inp.get("limit"), int):
            start = inp.get("offset") if isinstance(inp.get("offset"), int) else 1
            span = f":{start}" + (f"-{start + inp['limit'] - 1}" if isinstance(inp.get("limit"), int) else "")
        return path + span, _output_hint(call)
    if name in ("Grep", "Glob"):
        where = short_path(str(inp.get("path") or inp.get("glob") or ""), cwd)
        return one_line(inp.get("pattern")) + (f"  in {where}" if where else ""), _output_hint(call)
    if name in ("Task", "Agent"):
        kind = one_line(inp.get("subagent_type"), 40)
        subject = one_line(inp.get("description") or inp.get("prompt"))
        return (f"{kind}: {subject}" if kind else subject), _agent_hint(call)
    if name == "TodoWrite" and isinstance(inp.get("todos"), list):
        todos = [t for t in inp["todos"] if isinstance(t, dict)]
        done = sum(1 for t in todos if t.get("status") == "completed")
        active = next(
            (one_line(t.get("activeForm") or t.get("content")) for t in todos if t.get("status") == "in_progress"), ""
        )
        return f"{len(todos)} todos · {done} done", active
    if name == asked.NAME and (questions := asked.questions_of(call)):
        asking = questions[0]
        said = [f"→ {one_line(asking.answer, 200)}" if asking.answer is not None else _output_hint(call)]
        said += [plural(len(questions) - 1, "more question")] if len(questions) > 1 else []
        return one_line(asking.text, 200), " · ".join(part for part in said if part)
    if name == "ExitPlanMode":
        plan = str(inp.get("plan") or "")
        return one_line(plan.lstrip("# ").split("\n", 1)[0], 120), f"plan · {plan.count(chr(10)) + 1} lines"
    if name == "SendMessage" and isinstance(to := inp.get("to"), str):
        return f"to {one_line(to, 60)}: {one_line(inp.get('summary') or inp.get('message'), 200)}", _output_hint(call)
    if name in ("WebFetch", "WebSearch"):
        return one_line(inp.get("url") or inp.get("query")), _output_hint(call)
    if path:
        return path, _output_hint(call)
    scalars = [v for v in inp.values() if isinstance(v, str | int | float) and not isinstance(v, bool)]
    first = next((v for v in scalars if isinstance(v, str)), scalars[0] if scalars else "")  # words say more
    return one_line(first), _output_hint(call)


def _output_hint(call: ToolCall) -> str:
    result = call.result
    if result is None:  # what its latest progress record said, while it runs
        return one_line(call.progress.rsplit("\n", 1)[-1], 160)
    if result.is_error:
        return one_line(without_sgr(error_text(result.text)), 160)
    if result.images:
        return plural(len(result.images), "image")
    if not result.text.strip():
        return " · ".join(filter(None, ("no output", result.exit_meaning)))
    if (told := json_message(result.text)) is not None:  # {"success": true, "message": "Message sent to ..."}
        return one_line(told[0], 160)
    if result.truncated:
        return human_size(result.size)
    return plural(without_reminders(result.text)[0].count("\n") + 1, "line")


def json_message(text: str) -> tuple[str, bool] | None:
    """The `message` of a result that is a JSON object holding one (SendMessage's, TaskStop's, KillShell's:
    `{"success": true, "message": "Message sent to alice's inbox", ...}`), and whether it says it failed
    (`"success": false`); None for any other output."""
    if not text.startswith("{") or len(text) > 1 << 20:
        return None
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(value, dict) or not isinstance(message := value.get("message"), str):
        return None
    return message, value.get("success") is False


def error_text(text: str) -> str:
    """A failed call's output without the <tool_use_error> tags Claude Code wraps some in: the message is what
    counts."""
    return text.replace("<tool_use_error>", "").replace("</tool_use_error>", "")


def _agent_hint(call: ToolCall) -> str:
    sub, result = call.subagent, call.result
    if sub is None:
        if result is not None and result.is_error:
            return _output_hint(call)
        named = isinstance(result.structured, dict) and result.structured.get("agentId") if result else None
        return "its transcript is not in the folder" if named else ""
    messages = sum(1 for m in sub.messages if m.kind.value in ("prompt", "assistant"))
    return f"{plural(messages, 'message')} · {plural(len(sub.calls), 'tool call')}"


def headline(
    call: ToolCall, width: int, palette: Palette, cwd: str | None, expanded: bool, abandoned: bool = False
) -> Text:
    """`✓ Edit    src/app.py  +3 -1 ············ ↪2  0.4s`, fitted to `width` cells: `↪2` when hooks ran for it
    (hooks.runs); a call with no result says `running`, or `no result` when `abandoned` (the session stopped
    long ago)."""
    status = call.status
    mark_style = {"ok": palette.ok, "error": palette.error, "running": palette.running}[status]
    subject, detail = summary(call, cwd)
    right = ("no result" if abandoned else "running") if status == "running" else duration(call.duration)
    name = tool_name(call.name, max(24, width // 3))  # an MCP tool's server and tool take room
    line = Text.assemble((MARKS[status] + " ", mark_style), (f"{name:<7}", palette.tool), " ")
    line.append(subject or "", palette.text)
    if detail:
        line.append("  ")
        counted = _COUNTS.match(detail) if call.name in core_diff.EDIT_TOOLS else None
        if counted:
            added, removed, rest = counted.groups()
            line.append(f"+{added}", palette.ok if added != "0" else palette.dim)
            line.append(f" -{removed}", palette.error if removed != "0" else palette.dim)
            line.append(rest, palette.dim)
        else:
            line.append(detail, palette.error if status == "error" else palette.dim)
    line.append(" ▾" if expanded else "", palette.faint)
    mark = hook_mark(call.notes)
    mark, right = (mark + " ", right.rjust(6)) if mark else ("", right)  # marks in a column over other durations
    room = width - len(mark) - len(right) - 1
    if line.cell_len > room:
        line.truncate(max(1, room - 1))
        line.append("…", palette.faint)
    line.pad_right(width - line.cell_len - len(mark) - len(right))
    line.append(mark, palette.faint)
    line.append(right, palette.running if status == "running" and not abandoned else palette.faint)
    return line


def waiting(palette: Palette, abandoned: bool) -> Text:
    """What stands for the output of a call with no result: running, or `no result` when `abandoned`."""
    return Text("◌ no result", palette.faint) if abandoned else Text("◌ running…", palette.running)


def body(call: ToolCall, width: int, palette: Palette, cwd: str | None, abandoned: bool = False) -> list[Row]:
    """The expanded call: its input as the tool means it (a diff, a command...) and its output (or `waiting`)."""
    rows: list[Row] = []
    name, inp = call.name, call.args
    if name in core_diff.EDIT_TOOLS:
        hunks = core_diff.hunks_of(call)
        shown = diff.render_hunks(
            hunks, str(inp.get("file_path") or inp.get("notebook_path") or ""), palette, DIFF_LINES
        )
        rows += shown
        total = sum(len(h.lines) for h in hunks)
        if total > len(shown):
            rows.append(Row(Text(f"… {total - len(shown):,} more diff lines · enter to see all", palette.dim)))
        if call.result is not None and call.result.is_error:
            rows += _output(call, palette, width, abandoned)
        return rows
    if name == "Bash":
        command = visible_controls(str(inp.get("command") or ""))[:PREVIEW]
        styled = highlight(command, "bash", palette) or [Text(line) for line in command.split("\n")]
        for number, line in enumerate(styled[:OUTPUT_LINES]):
            rows.append(Row(Text.assemble(("$ " if number == 0 else "  ", palette.accent), line), 2, palette.code_bg))
        if inp.get("description"):
            rows.append(Row(Text(one_line(inp["description"]), palette.dim)))
    elif name in ("Task", "Agent"):
        rows.append(Row(Text("prompt", palette.faint)))
        rows += _text_rows(str(inp.get("prompt") or ""), palette, 8, width)
    elif name == "TodoWrite" and isinstance(inp.get("todos"), list):
        for todo in inp["todos"][:40]:
            if isinstance(todo, dict):
                status = todo.get("status")
                mark, style = {"completed": ("☑", palette.ok), "in_progress": ("◐", palette.running)}.get(
                    str(status), ("☐", palette.dim)
                )
                rows.append(Row(Text.assemble((mark + " ", style), one_line(todo.get("content"))), 2))
        return rows
    elif name == asked.NAME and (questions := asked.questions_of(call)):
        rows += question_rows(questions, palette)
        if call.result is not None and not call.result.is_error and all(q.answer is not None for q in questions):
            return rows  # the answers are shown: the output says them again, for the model
    else:
        rows += _input_rows(call.input, palette, width)
    rows += _output(call, palette, width, abandoned)
    return rows


def question_rows(questions: list[asked.Question], palette: Palette) -> list[Row]:
    """Each question, its options (the chosen ones marked) and, when it is not one of them, the answer typed."""
    rows: list[Row] = []
    for question in questions:
        head = Text.assemble(("? ", palette.accent), (one_line(question.text, 400), palette.bold))
        if question.header:
            head.append(f"  {one_line(question.header, 60)}", palette.faint)
        rows.append(Row(head, 2))
        for label, description in question.options:
            chosen = question.chosen(label)
            line = Text.assemble(("  ✓ " if chosen else "  · ", palette.ok if chosen else palette.faint))
            line.append(one_line(label, 200), palette.text if chosen else palette.dim)
            if description:
                line.append(f"  {one_line(description, 400)}", palette.faint)
            rows.append(Row(line, 4))
        if question.answer is not None and not any(question.chosen(label) for label, _ in question.options):
            rows.append(Row(Text.assemble(("  → ", palette.ok), visible_controls(question.answer)), 4))
    return rows


def _input_rows(inp: Any, palette: Palette, width: int) -> list[Row]:
    """A tool's input, a line per argument; an input that is not an object (not as Claude Code writes it) as text."""
    if not isinstance(inp, dict):
        return _text_rows(as_text(inp), palette, OUTPUT_LINES, width) if inp is not None else []
    rows: list[Row] = []
    for key, value in list(inp.items())[:12]:
        shown = one_line(value, 400) if isinstance(value, str) else orjson.dumps(value, default=str).decode()[:400]
        rows.append(Row(Text.assemble((f"{key}: ", palette.faint), shown), 2))
    return rows


def _output(call: ToolCall, palette: Palette, width: int, abandoned: bool) -> list[Row]:
    result = call.result
    if result is None:  # and the last lines its progress records said
        said = [Row(coloured(line[:2_000], palette.dim), 0, palette.code_bg) for line in call.progress.splitlines()]
        return [Row(waiting(palette, abandoned)), *said]
    rows: list[Row] = []
    style = palette.error if result.is_error else palette.text
    structured = result.structured
    text, reminders = without_reminders(error_text(result.text) if result.is_error else result.text)
    if not result.is_error and (told := json_message(text)) is not None:  # its words, not its JSON
        text, failed = told
        style = palette.error if failed else style
    stderr = ""

    def whole(part: str) -> bool:
        """Whether all of a Bash output's stdout or stderr is in memory (its lines can be counted): the model
        cuts them at PREVIEW_CHARS only in a long output (session._cap)."""
        return not result.truncated or len(part) < PREVIEW_CHARS

    complete = not result.truncated  # the result's text: all of it in memory
    if call.name == "Bash" and isinstance(structured, dict) and isinstance(structured.get("stdout"), str):
        text = structured["stdout"]
        stderr = errors if isinstance(errors := structured.get("stderr"), str) else ""
        complete = whole(text)

    head = "error" if result.is_error else "output"
    sized = f" · {human_size(result.size)}" if result.size > 2_000 else ""
    rows.append(Row(Text(f"{head}{sized}", palette.error if result.is_error else palette.faint)))
    if call.name in ("Task", "Agent") and not result.is_error:
        text, trailer = report_of(text)
        rows += _text_rows(text, palette, OUTPUT_LINES * 2, width, markdown=True, complete=complete)
        if trailer:
            rows.append(Row(Text(trailer, palette.dim)))
    else:
        rows += _plain_rows(text, style, palette, OUTPUT_LINES, result.size, complete)
    if stderr.strip():
        rows += _plain_rows(stderr, palette.error, palette, OUTPUT_LINES // 2, len(stderr), whole(stderr))
    rows += [Row(line) for line in exit_meaning(result, palette)]
    rows += [Row(Text(f"ⓘ {one_line(note, 400)}", palette.dim), 2) for note in reminders]
    for media_type, size in result.images:
        rows.append(Row(Text(f"▣ {media_type} · {human_size(size)}", palette.dim)))
    return rows


def exit_meaning(result: ToolResult, palette: Palette) -> list[Text]:
    """Claude Code's reading of a command's exit status as a dim line, when it gave one."""
    return [Text(f"exit status: {result.exit_meaning}", palette.dim)] if result.exit_meaning else []


def _plain_rows(text: str, style: Style, palette: Palette, limit: int, size: int, complete: bool) -> list[Row]:
    """The first `limit` lines of an output of `size` characters, of which `text` is all (`complete`) or
    the first part; then what is left out: lines counted in `text` (the preview drawn is shorter)."""
    shown = coloured(text[:PREVIEW].rstrip("\n"), style)
    if not shown.plain.strip():
        return [Row(Text("(no output)", palette.faint))]
    lines = shown.split("\n", allow_blank=True)
    rows = [Row(line[:2_000], 0, palette.code_bg) for line in lines[:limit]]
    total = _more_lines(text, min(len(lines), limit), complete)
    cut = len(text.rstrip("\n")) > PREVIEW or not complete  # the last line shown may be cut short
    if not total and cut:
        total = "the rest of this line" if complete or len(lines) == 1 else "more lines"
    if not total:
        return rows
    rows.append(Row(Text(f"… {total} · {human_size(size)} in all · enter to see all", palette.dim)))
    return rows


def _more_lines(text: str, shown: int, complete: bool) -> str:
    """How many lines of `text` follow the first `shown`: "992 more lines", or "992+ more lines" when `text`
    is only the first part of what was said (not `complete`); "" when none do."""
    more = text.rstrip("\n").count("\n") + 1 - shown
    if more <= 0:
        return ""
    return plural(more, "more line") if complete else f"{human_count(more)}+ more lines"


def _text_rows(
    text: str, palette: Palette, limit: int, width: int, markdown: bool = False, complete: bool = True
) -> list[Row]:
    """The first `limit` lines of `text` (all of a prompt or answer, or its first part: not `complete`)."""
    lines = text[:PREVIEW].split("\n")[:limit]
    if markdown:
        rows = [Row(t) for t in render(parse("\n".join(lines)), width, palette)]
    else:
        rows = [Row(Text(visible_controls(line).expandtabs(4)[:2_000], palette.dim)) for line in lines]
    if more := _more_lines(text, len(lines), complete):
        rows.append(Row(Text(f"… {more}", palette.faint)))
    return rows
