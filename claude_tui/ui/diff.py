"""Diffs drawn in the pane: line numbers, signs, highlighted content on a tinted background.

The hunks themselves come from claude_tui.core.diff (shared with the exporter).
"""

from __future__ import annotations

from rich.text import Text

from claude_tui.core.diff import Hunk
from claude_tui.core.sanitize import visible_controls
from claude_tui.ui.lines import MAX_HIGHLIGHT_CHARS, Row, highlight, lexer_for_path
from claude_tui.ui.palette import Palette


def render_hunks(hunks: list[Hunk], path: str, palette: Palette, limit: int | None = None) -> list[Row]:
    """Diff rows: line number (where the hunk's place in the file is known), sign, highlighted content on a
    tinted background.

    At most `limit` rows; the caller says what was left out.
    """
    lexer = lexer_for_path(path) if path else None
    out: list[Row] = []
    number_width = max((len(str(h.new_start + len(h.lines))) for h in hunks if h.new_start is not None), default=0)
    for index, hunk in enumerate(hunks):
        if index:
            out.append(Row(Text(" " * number_width + (" ⋮" if number_width else "⋮"), palette.faint)))
        contents = [visible_controls(line[1:]).expandtabs(4) for line in hunk.lines]
        source = "\n".join(contents)
        styled = highlight(source, lexer, palette) if lexer and len(source) <= MAX_HIGHLIGHT_CHARS else None
        for number, (line, label) in enumerate(zip(hunk.lines, _numbers(hunk), strict=True)):
            sign = line[:1] or " "
            content = styled[number] if styled is not None and number < len(styled) else Text(contents[number])
            if sign == "-":
                style, mark = palette.remove, palette.remove_word
            elif sign == "+":
                style, mark = palette.add, palette.add_word
            else:
                style, mark = None, palette.faint
            gutter = f"{'' if label is None else label:>{number_width}} " if number_width else ""
            row = Text.assemble((gutter, palette.faint), (sign + " ", mark))
            row.append_text(content)
            out.append(Row(row, len(gutter) + 2, style))
            if limit is not None and len(out) >= limit:
                return out
    return out


def _numbers(hunk: Hunk) -> list[int | None]:
    """The line number beside each line of `hunk` (a removed line's in the old file, others' in the new), or
    None for each where the hunk's place in the file is unknown."""
    if hunk.old_start is None or hunk.new_start is None:
        return [None] * len(hunk.lines)
    old, new = hunk.old_start, hunk.new_start
    numbers: list[int | None] = []
    for line in hunk.lines:
        sign = line[:1]
        numbers.append(old if sign == "-" else new)
        if sign != "+":
            old += 1
        if sign != "-":
            new += 1
    return numbers
