"""A scroll view drawn line by line (Textual's Line API) whose lines are drawn on one style a frame."""

from __future__ import annotations

from rich.style import Style
from textual.geometry import Region
from textual.scroll_view import ScrollView
from textual.strip import Strip


class LineView(ScrollView):
    """A ScrollView whose `render_line` draws on `line_style`: the widget's Rich style, which Textual works out from
    every ancestor's styles (some 20 µs), looked up once for the lines of a frame rather than once a line."""

    _frame_style: Style | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        self._frame_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._frame_style = None  # a line asked for alone, outside a frame, looks it up

    @property
    def line_style(self) -> Style:
        return self.rich_style if self._frame_style is None else self._frame_style
