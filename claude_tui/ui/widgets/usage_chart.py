"""Charts drawn with block characters: a bar chart with a cursor (cost per day, week or month), a bar of parts
side by side (tokens per kind), a share's bar. Readable with 16 colours: the cursor's bar is a colour of its own, and
the parts of a stacked bar differ by their shade of block (█▓▒░) as well as by colour."""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget

from claude_tui.ui.palette import Palette

#: A column's top cell, by eighths filled (0: empty).
EIGHTHS = " ▁▂▃▄▅▆▇█"
#: The shades that tell a stacked bar's parts apart without colour.
SHADES = "█▓▒░"


class Bar(NamedTuple):
    """One bar: its value (what its height says), a short label under it, and its value as shown."""

    value: float
    label: str
    shown: str


class BarChart(Widget, can_focus=True):
    """Vertical bars over a baseline, the tallest at the top, the one under the cursor in the accent colour; the
    first, the chosen and the last bars named under it. ←/→ (h/l) move the cursor, Enter chooses its bar."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "move(-1)", "Previous", show=False, id="usage.chart.previous"),
        Binding("right,l", "move(1)", "Next", show=False, id="usage.chart.next"),
        Binding("home", "go(0)", "First", show=False, id="usage.chart.first"),
        Binding("end", "go(-1)", "Last", show=False, id="usage.chart.last"),
        Binding("enter", "choose", "Sessions", id="usage.chart.choose", key_display="⏎"),
    ]

    DEFAULT_CSS = "BarChart { height: 1fr; min-height: 5; }"

    class Moved(Message):
        """The cursor is on bar `index`."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class Chosen(Moved):
        """Enter on bar `index`."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.bars: list[Bar] = []
        self.cursor = 0
        self.empty = ""  #: what the chart says when every bar is zero

    def show(self, bars: list[Bar], cursor: int, empty: str) -> None:
        self.bars, self.empty = bars, empty
        self.cursor = max(0, min(cursor, len(bars) - 1))
        self.refresh()

    def action_move(self, step: int) -> None:
        self.action_go(max(0, min(self.cursor + step, len(self.bars) - 1)))

    def action_go(self, index: int) -> None:
        """The cursor on bar `index` (-1: the last)."""
        if self.bars:
            self.cursor = index % len(self.bars)
            self.refresh()
            self.post_message(self.Moved(self.cursor))

    def action_choose(self) -> None:
        if self.bars:
            self.post_message(self.Chosen(self.cursor))

    def on_click(self, event: events.Click) -> None:
        """A click on a bar puts the cursor on it; a double click chooses it."""
        places = layout(self.bars, self.cursor, self.size.width)
        index = places.first + (event.x - places.start) // places.slot
        if event.x >= places.start and index < places.first + places.drawn:
            self.action_go(index)
            if event.chain > 1:
                self.action_choose()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def render(self) -> Text:
        palette = Palette.of(self.app)
        cursor = palette.accent if self.has_focus else palette.bold
        return bar_chart(self.bars, self.cursor, self.size.width, self.size.height, self.empty, palette, cursor)


class Layout(NamedTuple):
    """Where a chart's bars go across its width."""

    peak: str  #: the tallest bar's value as shown ("" when all are zero), beside the top row
    start: int  #: the first bar's column (after the peak's value and the axis line)
    slot: int  #: cells a bar takes, its gap with it
    first: int  #: the first bar drawn
    drawn: int  #: how many are drawn


def layout(bars: list[Bar], cursor: int, width: int) -> Layout:
    """The bars' places in `width` cells: up to 8 cells each; when not all fit, the last ones that do (and the
    cursor's)."""
    top = max((bar.value for bar in bars), default=0.0)
    peak = next((b.shown for b in bars if b.value == top), "") if top > 0 else ""
    start = max(len(peak), 1) + 2
    slot = max(1, min(8, (width - start) // max(1, len(bars))))
    room = max(1, (width - start) // slot)
    first = max(0, min(len(bars) - room, cursor - room + 1)) if len(bars) > room else 0
    return Layout(peak, start, slot, first, min(room, len(bars)))


def bar_chart(
    bars: list[Bar], cursor: int, width: int, height: int, empty: str, palette: Palette, cursor_style: Style
) -> Text:
    """The chart in `width` x `height` cells (see `layout`): the top value beside the first row, the bars, a
    baseline, the labels; `empty` in the middle when all bars are zero."""
    rows = max(1, height - 2)
    top = max((bar.value for bar in bars), default=0.0)
    peak, start, slot, first, drawn = layout(bars, cursor, width)
    shown = bars[first : first + drawn]
    thick = max(1, slot - 1)
    lines = [Text(no_wrap=True, overflow="crop") for _ in range(rows + 2)]
    for row, line in enumerate(lines[:rows]):
        line.append((peak if row == 0 else "").rjust(start - 2) + " │", palette.dim)
    for i, bar in enumerate(shown):
        eighths = 0 if top <= 0 else max(1 if bar.value > 0 else 0, round(bar.value / top * rows * 8))
        style = cursor_style if first + i == cursor else palette.prompt
        for row, line in enumerate(lines[:rows]):
            filled = eighths - (rows - 1 - row) * 8  # eighths of this row's cell, from the bottom up
            line.append(EIGHTHS[max(0, min(8, filled))] * thick, style)
            line.append(" " * (slot - thick))
    lines[rows].append(" " * (start - 1) + "└" + "─" * (len(shown) * slot), palette.dim)
    lines[rows + 1] = _labels(shown, first, cursor, start, slot, width, palette, cursor_style)
    if top <= 0 and empty:
        middle = lines[(rows - 1) // 2]
        at = start + max(0, (len(shown) * slot - len(empty)) // 2)
        middle.truncate(at)
        middle.append(" " * (at - len(middle)) + empty, palette.text)
    return Text("\n").join(lines)


def _labels(
    shown: list[Bar], first: int, cursor: int, indent: int, slot: int, width: int, palette: Palette, style: Style
) -> Text:
    """The labels of the first, the cursor's and the last bar, under them where they do not overlap."""
    cells = [" "] * width
    styles: list[Style | None] = [None] * width
    taken: list[tuple[int, int]] = []
    for index in (cursor - first, 0, len(shown) - 1):  # the cursor's first: it wins a clash
        if not 0 <= index < len(shown):
            continue
        label = shown[index].label
        start = min(max(indent, indent + index * slot - len(label) // 2), width - len(label))
        end = start + len(label)
        if start < 0 or any(start <= e and s <= end for s, e in taken):
            continue
        taken.append((start, end))
        cells[start:end] = label
        styles[start:end] = [style if index == cursor - first else palette.dim] * len(label)
    text = Text(no_wrap=True, overflow="crop")
    for char, cell_style in zip(cells, styles, strict=True):
        text.append(char, cell_style or "")
    return text


def stacked_bar(parts: list[tuple[int, Style]], width: int) -> Text:
    """One line of `width` cells shared by the parts by their counts, each in its style and shade; a part that is
    not zero gets a cell however small it is (taken from the largest). Empty when all are zero."""
    whole = sum(count for count, _ in parts)
    text = Text(no_wrap=True, overflow="crop")
    if whole <= 0 or width <= 0:
        return text
    cells = [max(1 if count else 0, round(count / whole * width)) for count, _ in parts]
    largest = cells.index(max(cells))
    cells[largest] = max(0, cells[largest] + width - sum(cells))
    for i, ((_, style), count) in enumerate(zip(parts, cells, strict=True)):
        text.append(SHADES[i % len(SHADES)] * count, style)
    return text


def share_bar(share: float, width: int, style: Style) -> Text:
    """A bar of `width` cells filled to `share` (0 to 1), in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, share)) * width * 8)
    full, part = divmod(eighths, 8)
    partial = "▏▎▍▌▋▊▉"[part - 1] if part else ""
    return Text().append("█" * full + partial, style).append(" " * (width - full - len(partial)))
