"""Diffs of file edits: from Claude Code's structuredPatch hunks, or from old/new strings.

All work is capped: strings beyond MAX_DIFF_CHARS are cut before diffing, and at
most MAX_HUNK_LINES lines are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text

from claude_tui.core.model import ToolCall
from claude_tui.core.sanitize import visible_controls
from claude_tui.ui.lines import MAX_HIGHLIGHT_CHARS, Row, highlight, lexer_for_path
from claude_tui.ui.palette import Palette

MAX_DIFF_CHARS = 40_000
MAX_HUNK_LINES = 2_000
EDIT_TOOLS = frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit"})


@dataclass(slots=True)
class Hunk:
    old_start: int
    new_start: int
    lines: list[str]  #: each starts with " ", "-" or "+"


def hunks_of(call: ToolCall) -> list[Hunk]:
    """The hunks of an Edit, MultiEdit or Write call: from its result's patch, else from its input."""
    structured = call.result.structured if call.result is not None else None
    if isinstance(structured, dict):
        patch = structured.get("structuredPatch")
        if isinstance(patch, list) and patch:
            return _from_patch(patch)
    inp = call.input
    if call.name == "Edit":
        return _diff(_s(inp.get("old_string")), _s(inp.get("new_string")))
    if call.name == "MultiEdit" and isinstance(inp.get("edits"), list):
        found: list[Hunk] = []
        for edit in inp["edits"][:50]:
            if isinstance(edit, dict):
                found += _diff(_s(edit.get("old_string")), _s(edit.get("new_string")))
        return found
    if call.name == "Write":
        content = _s(inp.get("content"))[:MAX_DIFF_CHARS]
        return [Hunk(0, 1, ["+" + line for line in content.split("\n")[:MAX_HUNK_LINES]])] if content else []
    if call.name == "NotebookEdit":
        source = _s(inp.get("new_source"))[:MAX_DIFF_CHARS]
        return [Hunk(0, 1, ["+" + line for line in source.split("\n")[:MAX_HUNK_LINES]])] if source else []
    return []


def counts(hunks: list[Hunk]) -> tuple[int, int]:
    """(lines added, lines removed)."""
    added = removed = 0
    for hunk in hunks:
        for line in hunk.lines:
            if line.startswith("+"):
                added += 1
            elif line.startswith("-"):
                removed += 1
    return added, removed


def _from_patch(patch: list[Any]) -> list[Hunk]:
    hunks: list[Hunk] = []
    budget = MAX_HUNK_LINES
    for item in patch:
        if not isinstance(item, dict) or budget <= 0:
            continue
        lines = [line for line in item.get("lines") or [] if isinstance(line, str)][:budget]
        budget -= len(lines)
        hunks.append(Hunk(_i(item.get("oldStart")), _i(item.get("newStart")), lines))
    return hunks


def _diff(old: str, new: str) -> list[Hunk]:
    import difflib  # rarely needed: Claude Code writes the patch itself since 1.0

    old_lines = old[:MAX_DIFF_CHARS].split("\n")
    new_lines = new[:MAX_DIFF_CHARS].split("\n")
    hunks: list[Hunk] = []
    for group in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_grouped_opcodes(2):
        lines: list[str] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [" " + line for line in old_lines[i1:i2]]
                continue
            lines += ["-" + line for line in old_lines[i1:i2]]
            lines += ["+" + line for line in new_lines[j1:j2]]
        hunks.append(Hunk(group[0][1] + 1, group[0][3] + 1, lines[:MAX_HUNK_LINES]))
    return hunks


def render_hunks(hunks: list[Hunk], path: str, palette: Palette, limit: int | None = None) -> list[Row]:
    """Diff rows: line number, sign, highlighted content on a tinted background.

    At most `limit` rows; the caller says what was left out.
    """
    lexer = lexer_for_path(path) if path else None
    out: list[Row] = []
    number_width = max((len(str(h.new_start + len(h.lines))) for h in hunks), default=1)
    for index, hunk in enumerate(hunks):
        if index:
            out.append(Row(Text(" " * number_width + " ⋮", palette.faint)))
        contents = [visible_controls(line[1:]).expandtabs(4) for line in hunk.lines]
        source = "\n".join(contents)
        styled = highlight(source, lexer, palette) if lexer and len(source) <= MAX_HIGHLIGHT_CHARS else None
        old, new = hunk.old_start, hunk.new_start
        for number, line in enumerate(hunk.lines):
            sign = line[:1] or " "
            content = styled[number] if styled is not None and number < len(styled) else Text(contents[number])
            if sign == "-":
                label, style, mark = old, palette.remove, palette.remove_word
                old += 1
            elif sign == "+":
                label, style, mark = new, palette.add, palette.add_word
                new += 1
            else:
                label, style, mark = new, None, palette.faint
                old += 1
                new += 1
            row = Text.assemble((f"{label:>{number_width}} ", palette.faint), (sign + " ", mark))
            row.append_text(content)
            out.append(Row(row, number_width + 3, style))
            if limit is not None and len(out) >= limit:
                return out
    return out


def _s(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _i(value: Any) -> int:
    return value if isinstance(value, int) else 0
