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
