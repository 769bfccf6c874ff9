"""Markdown for the conversation pane, as lines whose count is cheap to know.

The pane is virtual: it must know the height of every message without drawing
it. So text is parsed into logical lines here (a small, forgiving Markdown
subset: headings, lists, quotes, rules, tables, fenced code, inline code, bold,
italic, links)
and wrapped by one function that both measuring and drawing use. Work is bounded:
a block contributes at most MAX_BLOCK_CHARS and a line at most MAX_LINE_CHARS.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from rich.cells import cell_len, get_character_cell_size
from rich.style import Style
from rich.text import Text

from claude_tui.core.humanize import plural
from claude_tui.core.sanitize import visible_controls
from claude_tui.ui.palette import Palette

#: Characters of one text block laid out in the pane (the detail view shows the rest).
MAX_BLOCK_CHARS = 48_000
#: Logical lines of one text block laid out in the pane.
MAX_BLOCK_LINES = 400
#: Characters of one line laid out; longer lines end in an ellipsis.
MAX_LINE_CHARS = 3_000
#: Code blocks longer than this are shown without highlighting.
MAX_HIGHLIGHT_CHARS = 24_000

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([\w+#.-]*)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_ITEM = re.compile(r"^(\s*)([-*+]|\d{1,3}[.)])\s+")
_QUOTE = re.compile(r"^\s*>\s?")
_INLINE = re.compile(
    r"`([^`\n]+)`|\*\*([^*\n]+)\*\*|(?<![\w*])\*([^*\s][^*\n]*?)\*(?![\w*])"
    r"|(?<!\\)!?\[((?:[^\[\]\n]|\[[^\[\]\n]*\])+)\]"  # a link's text, [brackets] inside it too
    r"\((?:<([^<>\n]+)>|((?:[^()\s]|\([^()\s]*\))+))(?:\s+\"[^\"\n]*\")?\)"  # its address, (parens) too; a title
    r"|<((?:https?|mailto):[^\s<>]+)>"
)


@dataclass(slots=True)
class MdLine:
    """One logical line: its kind, its plain text and the spans to style."""

    kind: str  #: p, h1..h3, item, quote, rule, table, label (a code block's language), code
    text: str
    spans: tuple[tuple[int, int, str], ...] = ()  #: (start, end, "code" | "bold" | "italic" | "link" | "url" | "rule")
    hang: int = 0  #: indent of wrapped continuation lines
    block: int = -1  #: code lines: which code block


@dataclass(slots=True)
class Markdown:
    """A text block parsed for the pane."""

    lines: list[MdLine]
    code: list[tuple[str, list[int]]]  #: per code block: language and the indexes of its lines
    omitted: int  #: lines not laid out (beyond the caps)
    rest_only: bool = False  #: what is not laid out is only the rest of the last line shown


_EDGE_BLANKS = re.compile(r"\A(?:[ \t]*\n)+")


def parse(text: str, markdown: bool = True) -> Markdown:
    """Parse a text block (capped) into logical lines; with `markdown` False only fenced code is
    recognised and every other line is kept as written (a prompt is what a person typed). Blank lines before
    the first line and after the last are not drawn (an answer's text may start with two)."""
    if text[:1].isspace() or text[-1:].isspace():
        text = _EDGE_BLANKS.sub("", text).rstrip()
    omitted = 0
    if len(text) > MAX_BLOCK_CHARS:
        omitted = text.count("\n", MAX_BLOCK_CHARS) + 1  # the rest of the line cut, and the lines after it
        text = text[:MAX_BLOCK_CHARS]
    rest_only = omitted == 1
    raw = visible_controls(text).expandtabs(4).split("\n")
    if len(raw) > MAX_BLOCK_LINES:
        omitted += len(raw) - MAX_BLOCK_LINES
        raw = raw[:MAX_BLOCK_LINES]
        rest_only = False
    lines: list[MdLine] = []
    code: list[tuple[str, list[int]]] = []
    fence = ""
    table: list[str] = []
    for line in raw:
        if len(line) > MAX_LINE_CHARS:
            line = line[:MAX_LINE_CHARS] + "…"
        if table and not (line.lstrip().startswith("|") and not fence):
            lines += _table(table)
            table = []
        if fence:
            if line.strip().startswith(fence):
                fence = ""
                continue
            code[-1][1].append(len(lines))
            lines.append(MdLine("code", line, block=len(code) - 1))
            continue
        match = _FENCE.match(line) if ("`" in line or "~" in line) else None
        if match:
            fence = match.group(1)
            code.append((match.group(2), []))
            if match.group(2):  # a block that names no language opens with its code
                lines.append(MdLine("label", match.group(2), block=len(code) - 1))
            continue
        if not markdown:
            lines.append(MdLine("p", line))
        elif line.lstrip().startswith("|"):
            table.append(line)
        else:
            lines.append(_prose(line))
    if table:
        lines += _table(table)
    while lines and lines[-1].kind == "p" and not lines[-1].text.strip():
        lines.pop()
    return Markdown(lines, code, omitted, rest_only)


_TABLE_RULE = re.compile(r"^[\s|:-]+$")
#: Kinds of line drawn on one screen line whatever the width: a rule, and a table's row (cut with "…":
#: wrapped, its columns would no longer line up; the detail view shows it whole).
ONE_ROW = ("rule", "table")


def _table(rows: list[str]) -> list[MdLine]:
    """A Markdown table with its columns lined up (cells keep their inline styles)."""
    cells = [[_inline("p", c.strip()) for c in row.strip().strip("|").split("|")] for row in rows]
    rules = [bool(_TABLE_RULE.match(row)) and "-" in row for row in rows]
    widths: list[int] = []
    for row, rule in zip(cells, rules, strict=True):
        if rule:
            continue
        for index, cell in enumerate(row):
            size = cell_len(cell.text)
            if index == len(widths):
                widths.append(size)
            else:
                widths[index] = max(widths[index], size)
    out: list[MdLine] = []
    head = any(rules)
    for row, rule in zip(cells, rules, strict=True):
        if rule:
            text = "─┼─".join("─" * w for w in widths)
            out.append(MdLine("table", text, ((0, len(text), "rule"),)))
            head = False
            continue
        text, spans = "", []
        for index, width in enumerate(widths):
            cell = row[index] if index < len(row) else MdLine("p", "")
            if index:
                spans.append((len(text) + 1, len(text) + 2, "rule"))
                text += " │ "
            spans += [(len(text) + a, len(text) + b, style) for a, b, style in cell.spans]
            text += cell.text + " " * (width - cell_len(cell.text))
        text = text.rstrip()
        if head:
            spans.insert(0, (0, len(text), "bold"))
        out.append(MdLine("table", text, tuple(spans)))
    return out


def _prose(line: str) -> MdLine:
    stripped = line.lstrip()
    if not stripped:
        return MdLine("p", "")
    first = stripped[0]
    if first == "#" and (match := _HEADING.match(line)):
        level = min(len(match.group(1)), 3)
        return _inline(f"h{level}", match.group(2))
    if first in "-*_" and _RULE.match(line):
        return MdLine("rule", "")
    if first == ">" and (match := _QUOTE.match(line)):
        return _inline("quote", line[match.end() :])
    if (first in "-*+" or first.isdigit()) and (match := _ITEM.match(line)):
        indent, bullet = match.group(1), match.group(2)
        marker = "•" if bullet in "-*+" else bullet
        head = f"{indent}{marker} "
        item = _inline("item", line[match.end() :], offset=len(head))
        item.text = head + item.text
        item.hang = len(head)
        return item
    return _inline("p", line)


def _inline(kind: str, text: str, offset: int = 0) -> MdLine:
    """A line with `code`, **bold**, *italic* and [link](url) markers turned into spans; a link shows its
    text and then its address, as a terminal cannot show one on hover (an anchor in the page shows none)."""
    if "`" not in text and "*" not in text and "](" not in text and "<" not in text:
        return MdLine(kind, text)
    out: list[str] = []
    spans: list[tuple[int, int, str]] = []
    pos = size = 0
    for match in _INLINE.finditer(text):
        out.append(text[pos : match.start()])
        size += match.start() - pos
        code, bold, italic, label, spaced, url, bare = match.groups()
        url = spaced or url
        if code is not None:
            out.append(code)
            spans.append((offset + size, offset + size + len(code), "code"))
            size += len(code)
        elif bare is not None:
            out.append(bare)
            spans.append((offset + size, offset + size + len(bare), "link"))
            size += len(bare)
        else:  # **bold**, *italic* or a link's text, and the `code` inside them
            inner = _inline(kind, bold or italic or label, offset + size)
            out.append(inner.text)
            spans.append(
                (offset + size, offset + size + len(inner.text), "bold" if bold else "italic" if italic else "link")
            )
            spans.extend(inner.spans)
            size += len(inner.text)
            if url is not None and url != inner.text and not url.startswith("#"):
                address = f" ({url})"
                out.append(address)
                spans.append((offset + size + 1, offset + size + len(address), "url"))
                size += len(address)
        pos = match.end()
    out.append(text[pos:])
    return MdLine(kind, "".join(out), tuple(spans))


# ---------------------------------------------------------------- wrapping


def wrap_offsets(text: str, width: int, hang: int = 0) -> list[int]:
    """Where to cut `text` to wrap it at `width` cells: words kept whole where they fit.

    Continuation lines are `hang` cells narrower (they are drawn indented).
    """
    if width < 1:
        return []
    if text.isascii():
        if len(text) <= width:
            return []
        return _wrap_ascii(text, width, max(1, width - hang))
    return _wrap_cells(text, width, max(1, width - hang))


def _wrap_ascii(text: str, first: int, rest: int) -> list[int]:
    cuts: list[int] = []
    start, size, limit = 0, len(text), first
    while size - start > limit:
        end = start + limit  # the first character that does not fit
        cut = _word_end(text, start, end)
        if cut >= size:
            break  # only a space hangs past the edge
        cuts.append(cut)
        start, limit = cut, rest
    return cuts


#: Punctuation a line does not start with (a closing one, a full stop, a small kana's mark), nor ends with (an
#: opening one): the line breaks before the character ahead of it instead (kinsoku).
_NO_START = frozenset("、。，．,.：；:;！？!?）)］]｝}」』】〕〉》〗〙〛’”・ー…‥々〻ゝゞヽヾ％%")
_NO_END = frozenset("（(［[｛{「『【〔〈《〖〘〚‘“")


def _hangul(char: str) -> bool:
    """A Hangul syllable or letter: Korean, which is written with spaces between its words."""
    return "\uac00" <= char <= "\ud7a3" or "\u1100" <= char <= "\u11ff" or "\u3130" <= char <= "\u318f"


def _wrap_cells(text: str, first: int, rest: int) -> list[int]:
    """As `_wrap_ascii`, counting cells (wide characters take two). Text in wide characters (Chinese and Japanese,
    written without spaces) may break between any two of them, and next to one, but not before a closing mark
    nor after an opening one (see _NO_START); Korean breaks between its words, as latin text does."""
    widths = [get_character_cell_size(c) for c in text]
    breaks = [w > 1 and not _hangul(c) for w, c in zip(widths, text, strict=True)]  # may break beside it

    def between(i: int) -> bool:
        """Whether the line may break between characters i - 1 and i (the end: always; before a space never: the
        break is after it, and the next line does not start with it)."""
        if i >= len(text):
            return True
        if text[i] == " ":
            return False
        return (breaks[i - 1] or breaks[i]) and text[i] not in _NO_START and text[i - 1] not in _NO_END

    cuts: list[int] = []
    start, size, limit = 0, len(text), first
    while True:
        used, end = 0, start
        while end < size and used + widths[end] <= limit:
            used += widths[end]
            end += 1
        if end >= size:
            return cuts
        end = max(end, start + 1)  # a character wider than the line still takes a line
        cut = _word_end(text, start, end)
        wide = next((i for i in range(end, start, -1) if between(i)), start)
        if wide > start and (cut == end or wide > cut):  # the latest break: a space, or beside a wide character
            cut = wide
        elif cut == end and cut < size and text[cut] in _NO_START and cut - 1 > start:
            cut -= 1  # no break but through a word: its last character goes along with the mark (`ou` / `t。`)
        if cut >= size:
            return cuts
        cuts.append(cut)
        start, limit = cut, rest


def _word_end(text: str, start: int, end: int) -> int:
    """Where a line from `start` that may reach `end` is cut: after its last space, unless all before that
    space is indentation (a long word after it would leave the line blank); then at `end`."""
    space = text.rfind(" ", start + 1, end + 1)
    return space + 1 if space > start and not text[start:space].isspace() else end


class Row(NamedTuple):
    """One logical line to wrap: its text, the indent of its continuation lines, a background to fill."""

    text: Text
    hang: int = 0
    fill: Style | None = None


def wrap_rows(rows: list[Row], width: int) -> list[Text]:
    """Rows wrapped at `width`; filled rows padded to the full width with their background."""
    out: list[Text] = []
    for text, hang, fill in rows:
        plain = text.plain
        pieces = text.divide(wrap_offsets(plain, width, hang)) if plain else [text]
        for number, piece in enumerate(pieces):
            if number and hang:
                piece = Text(" " * hang, end="").append_text(piece)
            if fill is not None:
                piece.pad_right(max(0, width - piece.cell_len))
                piece.stylize(fill)
            out.append(piece)
    return out


def measure(markdown: Markdown, width: int) -> int:
    """How many screen lines `markdown` takes at `width` (with its "more" line)."""
    total = len(wrap_offsets(more_lines(markdown), width)) + 1 if markdown.omitted else 0
    for line in markdown.lines:
        total += 1 if line.kind in ONE_ROW else len(wrap_offsets(line.text, width, line.hang)) + 1
    return total


def more_lines(markdown: Markdown) -> str:
    """What closes a block cut at the caps."""
    more = "the rest of this line" if markdown.rest_only else plural(markdown.omitted, "more line")
    return f"… {more} · enter to read all"


# ---------------------------------------------------------------- drawing


def render(markdown: Markdown, width: int, palette: Palette, base: Style | None = None) -> list[Text]:
    """The screen lines of `markdown` at `width`: exactly `measure(markdown, width)` of them."""
    styles = {
        "code": palette.inline_code,
        "bold": palette.bold,
        "italic": Style(italic=True),
        "link": Style(underline=True),
        "url": palette.faint,
        "rule": palette.faint,
    }
    code = _highlight_blocks(markdown, palette)
    rows: list[Row] = []
    for index, line in enumerate(markdown.lines):
        kind = line.kind
        if kind == "rule":
            rows.append(Row(Text("─" * width, palette.faint)))
        elif kind == "code":
            rows.append(Row(code.get(index) or Text(line.text), 0, palette.code_bg))
        elif kind == "label":
            rows.append(Row(Text(line.text, palette.faint), 0, palette.code_bg))
        else:
            text = Text(line.text, _line_style(kind, palette, base) or "")
            for start, end, name in line.spans:
                text.stylize(styles[name], start, end)
            if kind == "table":
                text.truncate(width, overflow="ellipsis")
            rows.append(Row(text, line.hang))
    if markdown.omitted:
        rows.append(Row(Text(more_lines(markdown), palette.dim)))
    return wrap_rows(rows, width)


def _line_style(kind: str, palette: Palette, base: Style | None) -> Style | None:
    if kind.startswith("h"):
        return palette.heading + Style(underline=kind == "h1")
    if kind == "quote":
        return palette.dim + Style(italic=True)
    return base


def _highlight_blocks(markdown: Markdown, palette: Palette) -> dict[int, Text]:
    """Highlighted code lines by index, for the blocks small enough to highlight."""
    found: dict[int, Text] = {}
    for lang, indexes in markdown.code:
        if not indexes:
            continue
        source = "\n".join(markdown.lines[i].text for i in indexes)
        if len(source) > MAX_HIGHLIGHT_CHARS:
            continue
        highlighted = highlight(source, lang, palette)
        if highlighted is None:
            continue
        for i, text in zip(indexes, highlighted, strict=False):
            found[i] = text
    return found


def highlight(source: str, lang: str, palette: Palette) -> list[Text] | None:
    """`source` highlighted as `lang`, one Text per line; None for an unknown language."""
    lexer = _lexer(lang.lower())
    if lexer is None or len(source) > MAX_HIGHLIGHT_CHARS:
        return None
    from rich.syntax import Syntax  # pygments: imported when the first code is shown

    syntax = Syntax("", lexer, theme=palette.pygments_theme, background_color="default")
    text = syntax.highlight(source)
    text.rstrip()
    lines = text.split("\n", allow_blank=True)
    for line in lines:
        line.no_wrap = True
    return list(lines)


@lru_cache(maxsize=128)
def _lexer(name: str) -> str | None:
    """A pygments lexer alias for a fence language or a file extension, if there is one."""
    from pygments.lexers import find_lexer_class_by_name, find_lexer_class_for_filename
    from pygments.util import ClassNotFound

    if not name:
        return None
    try:
        cls = find_lexer_class_by_name(name)
    except ClassNotFound:
        cls = find_lexer_class_for_filename(f"x.{name}") if name.isalnum() else None
    if cls is None or not cls.aliases:
        return None
    return cls.aliases[0]


def lexer_for_path(path: str) -> str | None:
    """The lexer alias for a file path, from its name."""
    from pygments.lexers import find_lexer_class_for_filename

    cls = find_lexer_class_for_filename(path.rsplit("/", 1)[-1])
    return cls.aliases[0] if cls is not None and cls.aliases else None
