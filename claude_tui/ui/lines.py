"""Markdown for the conversation pane, as lines whose count is cheap to know.

The pane is virtual: it must know the height of every message without drawing
it. So text is parsed into logical lines here (a small, forgiving Markdown
subset: headings, lists, quotes, rules, tables, fenced code, inline code, bold,
italic, struck text, links, HTML entities)
and wrapped by one function that both measuring and drawing use (a table's cells
wrap inside their columns). Work is bounded: a block contributes at most
MAX_BLOCK_CHARS and a line at most MAX_LINE_CHARS.
"""

from __future__ import annotations

import html
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
#: Emphasis with underscores only at a word's edges: never inside snake_case, a path or `__init__.py`.
_OPEN, _CLOSE = r"(?<![\w/\\])", r"(?![\w/\\]|\.\w)"
_INLINE = re.compile(
    r"`([^`\n]+)`|\*\*([^*\n]+)\*\*"
    rf"|{_OPEN}__(?![\s_])(.+?)(?<![\s_])__{_CLOSE}"
    r"|(?<![\w*/])\*([^*\s][^*\n]*?)\*(?![\w*/])"
    rf"|{_OPEN}_(?![\s_])(.+?)(?<![\s_])_{_CLOSE}"
    r"|~~(?![\s~])(.+?)(?<![\s~])~~"
    r"|(?<!\\)!?\[((?:[^\[\]\n]|\[[^\[\]\n]*\])+)\]"  # a link's text, [brackets] inside it too
    r"\((?:<([^<>\n]+)>|((?:[^()\s]|\([^()\s]*\))+))(?:\s+\"[^\"\n]*\")?\)"  # its address, (parens) too; a title
    r"|<((?:https?|mailto):[^\s<>]+)>"
)
#: The characters that may start inline markup (a link also needs "](").
_MARKERS = frozenset("`*_~<&")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


@dataclass(slots=True)
class MdLine:
    """One logical line: its kind, its plain text and the spans to style."""

    kind: str  #: p, h1..h3, item, quote, rule, table (a row), label (a code block's language), code
    text: str
    spans: tuple[tuple[int, int, str], ...] = ()  #: (start, end, "code" | "bold" | "italic" | "strike" | "link" | …)
    hang: int = 0  #: indent of wrapped continuation lines
    block: int = -1  #: code lines: which code block; table rows: which table
    cells: tuple[tuple[MdLine, ...], ...] = ()  #: table rows: each cell's lines (none: the rule under the head)


class Columns(NamedTuple):
    """A table's columns: how wide each one's widest line is, and its longest word."""

    natural: tuple[int, ...]
    words: tuple[int, ...]


@dataclass(slots=True)
class Markdown:
    """A text block parsed for the pane."""

    lines: list[MdLine]
    code: list[tuple[str, list[int]]]  #: per code block: language and the indexes of its lines
    tables: list[Columns]  #: per table: its columns
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
    tables: list[Columns] = []
    fence = ""
    table: list[str] = []
    for line in raw:
        if len(line) > MAX_LINE_CHARS:
            line = line[:MAX_LINE_CHARS] + "…"
        if table and not (line.lstrip().startswith("|") and not fence):
            lines += _table(table, tables)
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
        lines += _table(table, tables)
    while lines and lines[-1].kind == "p" and not lines[-1].text.strip():
        lines.pop()
    return Markdown(lines, code, tables, omitted, rest_only)


_TABLE_RULE = re.compile(r"^[\s|:-]+$")
#: A line break inside a table cell (Claude writes them), and the inline code in which it is only text.
_CELL_BREAK = re.compile(r"`[^`\n]+`|<br\s*/?>", re.IGNORECASE)


def _table(rows: list[str], tables: list[Columns]) -> list[MdLine]:
    """A Markdown table's rows, its columns added to `tables`; the cells keep their inline styles, and those of
    the head (the rows above the rule) are bold."""
    out: list[MdLine] = []
    rules = [bool(_TABLE_RULE.match(row)) and "-" in row for row in rows]
    head = any(rules)
    for row, rule in zip(rows, rules, strict=True):
        cells = () if rule else tuple(_cell(cell, head) for cell in row.strip().strip("|").split("|"))
        out.append(MdLine("table", "", block=len(tables), cells=cells))
        head = head and not rule
    count = max(len(line.cells) for line in out)
    for line in out:
        if line.cells:
            line.cells += ((MdLine("p", ""),),) * (count - len(line.cells))
    columns = [[part.text for line in out if line.cells for part in line.cells[i]] for i in range(count)]
    natural = tuple(max(map(cell_len, texts)) for texts in columns)
    words = tuple(max(cell_len(word) for text in texts for word in text.split(" ")) for texts in columns)
    tables.append(Columns(natural, words))
    return out


def _cell(source: str, head: bool) -> tuple[MdLine, ...]:
    """A table cell's lines: it breaks at each `<br>` outside inline code (one that ends the cell adds none)."""
    parts: list[str] = []
    start = 0
    for match in _CELL_BREAK.finditer(source):
        if not match.group().startswith("`"):
            parts.append(source[start : match.start()])
            start = match.end()
    if source[start:].strip() or not parts:
        parts.append(source[start:])
    lines = [_inline("p", part.strip()) for part in parts]
    if head:
        lines = [MdLine("p", line.text, ((0, len(line.text), "bold"), *line.spans)) for line in lines]
    return tuple(lines)


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
    """A line with `code`, **bold**, *italic*, ~~struck~~ and [link](url) markers turned into spans, and its
    HTML entities decoded (not in code); a link shows its text and then its address, as a terminal cannot show
    one on hover (an anchor in the page shows none)."""
    if _MARKERS.isdisjoint(text) and "](" not in text:
        return MdLine(kind, text)
    out: list[str] = []
    spans: list[tuple[int, int, str]] = []
    pos = size = 0
    for match in _INLINE.finditer(text):
        before = _entities(text[pos : match.start()])
        out.append(before)
        size += len(before)
        code, bold, strong, italic, em, struck, label, spaced, url, bare = match.groups()
        url = spaced or url
        bold, italic = bold or strong, italic or em
        if code is not None:
            out.append(code)
            spans.append((offset + size, offset + size + len(code), "code"))
            size += len(code)
        elif bare is not None:
            out.append(bare)
            spans.append((offset + size, offset + size + len(bare), "link"))
            size += len(bare)
        else:  # **bold**, *italic*, ~~struck~~ or a link's text, and the `code` inside them
            inner = _inline(kind, bold or italic or struck or label, offset + size)
            out.append(inner.text)
            style = "bold" if bold else "italic" if italic else "strike" if struck else "link"
            spans.append((offset + size, offset + size + len(inner.text), style))
            spans.extend(inner.spans)
            size += len(inner.text)
            if url is not None and url != inner.text and not url.startswith("#"):
                address = f" ({_entities(url)})"
                out.append(address)
                spans.append((offset + size + 1, offset + size + len(address), "url"))
                size += len(address)
        pos = match.end()
    out.append(_entities(text[pos:]))
    return MdLine(kind, "".join(out), tuple(spans))


def _entities(text: str) -> str:
    """`text` with its HTML entities (`&amp;`, `&#39;`, `&#x2192;`) decoded; one that would decode to a control
    character, or to nothing, is kept as written."""
    return _ENTITY.sub(_entity, text) if "&" in text else text


def _entity(match: re.Match[str]) -> str:
    char = html.unescape(match.group())
    return char if char and (char.isprintable() or char == "\xa0") else match.group()


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
    if len(text) <= width and cell_len(text) <= width:  # a short line: a table's cell, often
        return []
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


# ---------------------------------------------------------------- tables


def table_widths(columns: Columns, width: int) -> tuple[int, ...]:
    """The widths of a table's columns drawn in `width` cells (with " │ " between them)."""
    return fit_columns(columns.natural, columns.words, width - 3 * (len(columns.natural) - 1))


@lru_cache(maxsize=1024)
def fit_columns(natural: tuple[int, ...], words: tuple[int, ...], room: int) -> tuple[int, ...]:
    """Column widths that share `room` cells: as wide as their cells where they all fit; else the widest shrink
    first, down to a level they share, each keeping its longest word if those all fit (a narrower column keeps
    its width). Where not even a cell a column fits, each is 1 wide and the rows are cut at the edge."""
    if sum(natural) <= room:
        return natural
    floors = words if sum(words) <= room else (0,) * len(natural)

    def fitted(level: int) -> list[int]:
        return [max(floor, min(size, level)) for size, floor in zip(natural, floors, strict=True)]

    low, high = 1, max(natural)
    while low < high:  # the highest level at which they fit
        middle = (low + high + 1) // 2
        low, high = (middle, high) if sum(fitted(middle)) <= room else (low, middle - 1)
    widths = fitted(low)
    spare = room - sum(widths)
    for index, size in enumerate(natural):  # the cells left over go to the columns cut at that level
        if spare > 0 and widths[index] == low < size:
            widths[index] += 1
            spare -= 1
    return tuple(widths)


def _row_height(cells: tuple[tuple[MdLine, ...], ...], widths: tuple[int, ...]) -> int:
    """Screen lines of a table row: its tallest cell, wrapped inside its column (the rule under the head: 1)."""
    if not cells:
        return 1
    return max(
        sum(len(wrap_offsets(part.text, size)) + 1 for part in cell) for cell, size in zip(cells, widths, strict=True)
    )


def _table_row(
    cells: tuple[tuple[MdLine, ...], ...],
    widths: tuple[int, ...],
    width: int,
    styles: dict[str, Style],
    base: Style | None,
) -> list[Text]:
    """The screen lines of a table row, its cells wrapped inside their columns, each line cut at `width`."""
    if not cells:
        out = [Text("─┼─".join("─" * size for size in widths), styles["rule"])]
    else:
        columns = [_cell_lines(cell, size, styles) for cell, size in zip(cells, widths, strict=True)]
        out = []
        for number in range(max(map(len, columns))):
            line = Text(style=base or "")
            for index, (column, size) in enumerate(zip(columns, widths, strict=True)):
                if index:
                    line.append(" ").append("│", styles["rule"]).append(" ")
                piece = column[number] if number < len(column) else Text()
                line.append_text(piece).append(" " * (size - piece.cell_len))
            line.rstrip()
            out.append(line)
    for line in out:
        line.truncate(width, overflow="ellipsis")
    return out


def _cell_lines(cell: tuple[MdLine, ...], width: int, styles: dict[str, Style]) -> list[Text]:
    """A table cell's lines wrapped at its column's `width`."""
    out: list[Text] = []
    for part in cell:
        text = Text(part.text)
        for start, end, name in part.spans:
            text.stylize(styles[name], start, end)
        for piece in text.divide(wrap_offsets(part.text, width)):
            piece.rstrip()
            out.append(piece)
    return out


def measure(markdown: Markdown, width: int) -> int:
    """How many screen lines `markdown` takes at `width` (with its "more" line)."""
    total = len(wrap_offsets(more_lines(markdown), width)) + 1 if markdown.omitted else 0
    for line in markdown.lines:
        if line.kind == "table":
            total += _row_height(line.cells, table_widths(markdown.tables[line.block], width))
        else:
            total += 1 if line.kind == "rule" else len(wrap_offsets(line.text, width, line.hang)) + 1
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
        "strike": Style(strike=True),
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
        elif kind == "table":
            widths = table_widths(markdown.tables[line.block], width)
            rows += [Row(text) for text in _table_row(line.cells, widths, width, styles, base)]
        else:
            text = Text(line.text, _line_style(kind, palette, base) or "")
            for start, end, name in line.spans:
                text.stylize(styles[name], start, end)
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
