"""The list's and the pane's lines are drawn on their widget's style, looked up once a frame: the frame's, never
an earlier one's."""

from __future__ import annotations

from rich.style import Style
from textual.app import App, ComposeResult
from textual.strip import Strip

from claude_tui.ui.widgets.line_view import LineView


class Counted(LineView):
    """Blank lines on `line_style`, counting the look-ups of its style and keeping the lines drawn."""

    DEFAULT_CSS = "Counted { height: 1fr; }"

    def __init__(self) -> None:
        super().__init__()
        self.looked_up = 0
        self.drawn: list[Strip] = []

    @property
    def rich_style(self) -> Style:
        self.looked_up += 1
        return super().rich_style

    def render_line(self, y: int) -> Strip:
        strip = Strip.blank(self.size.width, self.line_style)
        self.drawn.append(strip)
        return strip


class Lines(App[None]):
    def compose(self) -> ComposeResult:
        yield Counted()


async def test_a_frame_looks_its_style_up_once_and_a_new_theme_is_the_next_frames() -> None:
    app = Lines()
    async with app.run_test(size=(40, 12)) as pilot:
        view = app.query_one(Counted)
        for theme in ("textual-light", "textual-dark"):
            app.theme = theme
            await pilot.pause()
            view.looked_up, view.drawn = 0, []
            view.refresh()
            await pilot.pause()
            assert len(view.drawn) >= view.size.height > 1  # a frame was drawn
            assert 1 <= view.looked_up < len(view.drawn)  # once a frame, not once a line
            backgrounds = {segment.style.bgcolor for strip in view.drawn for segment in strip if segment.style}
            assert backgrounds == {view.rich_style.bgcolor}  # this theme's, not an earlier frame's
        view.looked_up = 0
        assert view.render_line(0).cell_length == view.size.width  # a line asked for alone looks it up itself
        assert view.looked_up == 1
