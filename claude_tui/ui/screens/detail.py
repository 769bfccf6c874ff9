"""The detail view: one message, one tool call, a message's raw JSON or a plan, in full.

One rich widget for one thing at a time. What needs the file (a whole tool
output, raw records) is read back by span in a thread worker.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message as TextualMessage
from textual.screen import Screen
from textual.strip import Strip
from textual.widgets import Static

from claude_tui.core.find import Query
from claude_tui.core.model import Message, ToolCall
from claude_tui.core.session import Session
from claude_tui.core.source import full_output, raw_json
from claude_tui.ui import render
from claude_tui.ui.bindings import key_display
from claude_tui.ui.clock import Clock
from claude_tui.ui.highlight import highlight, match_cells, match_styles
from claude_tui.ui.keygate import ScreenFilled
from claude_tui.ui.palette import Palette
from claude_tui.ui.widgets.keybar import KeyBar

#: Refreshes at most that the view waits for its text to be laid out before it says it is filled.
LAYOUT_WAITS = 20


@dataclass
class Subject:
    """What the detail view shows."""

    session: Session
    message: Message
    call: ToolCall | None = None
    mode: str = "content"  #: content, raw, plan
    plan_path: str | None = None
    find: tuple[Query, int] | None = None  #: a query of the find bar, and which of its matches to show


class DetailBody(Static):
    """The body, with the matches of a query highlighted (the one at `current`, a (line, cell), brighter)."""

    def __init__(self, *, id: str) -> None:
        super().__init__(Text("Reading…", style="dim"), id=id)
        self.query_: Query | None = None
        self.marks = (Style(), Style())
        self.current = (-1, -1)

    def plain_line(self, y: int) -> Strip:
        return super().render_line(y)

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        if self.query_ is None:
            return strip
        line, cell = self.current
        return highlight(strip, match_cells(strip, self.query_), self.marks, cell if y == line else -1)

    def find(self, query: Query, nth: int) -> tuple[int | None, bool]:
        """Highlight `query`; the line of its `nth` match (or of the last one, when there are fewer), if
        any, and whether the `nth` was there."""
        self.query_, self.marks = query, match_styles(self.app)
        found: tuple[int, int] | None = None
        for y in range(self.size.height):
            for cell, _ in match_cells(self.plain_line(y), query):
                found, nth = (y, cell), nth - 1
                if nth < 0:
                    break
            if nth < 0:
                break
        self.current = found or (-1, -1)
        self.refresh()
        return (found[0] if found else None), nth < 0


class DetailScreen(Screen[None]):
    """Full content of one message, call, raw record or plan, scrollable."""

    DEFAULT_CSS = """
    DetailScreen {
        background: $background;
        & #detail-title { height: 1; text-wrap: nowrap; text-overflow: ellipsis; padding: 0 1 0 2; background: $boost; }
        & #detail-facts { height: auto; padding: 0 1 0 2; background: $boost; }
        & #detail-scroll { height: 1fr; padding: 1 2; scrollbar-size-vertical: 1; }
    }
    """

    MOVES = frozenset({"scroll", "edge"})  #: its scrolls, which change neither the focus nor the screen (keygate.py)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "Back", id="detail.close"),
        Binding("r", "mode('raw')", "Raw JSON", id="detail.raw"),
        Binding("c", "mode('content')", "Content", id="detail.content"),
        Binding("j,down", "scroll(1)", "Down", show=False, id="detail.down"),
        Binding("k,up", "scroll(-1)", "Up", show=False, id="detail.up"),
        Binding("g,home", "edge(0)", "Top", show=False, id="detail.top"),
        Binding("G,end", "edge(1)", "Bottom", show=False, id="detail.bottom"),
        Binding("y", "copy", "Copy", id="detail.copy"),
        Binding("o", "pager", "Pager", id="detail.pager"),
    ]

    def __init__(self, subject: Subject, clock: Clock) -> None:
        super().__init__()
        self.subject = subject
        self.clock = clock
        self._text = ""  #: the plain text shown, for copy and pager
        self.filled = False  #: what it shows has been read (keys typed before wait for it: keygate.py)

    def compose(self) -> ComposeResult:
        yield Static(id="detail-title")
        yield Static(id="detail-facts")
        with VerticalScroll(id="detail-scroll"):
            yield DetailBody(id="detail-body")
        yield KeyBar()

    def on_mount(self) -> None:
        self._show()

    @property
    def text(self) -> str:
        """The plain text shown (what copy and the pager get): empty until it is read."""
        return self._text

    @property
    def palette(self) -> Palette:
        return Palette.of(self.app)

    def _show(self) -> None:
        subject = self.subject
        heading = render.title(subject.message, subject.call, self.clock)
        if subject.mode == "raw":
            heading = f"Raw JSON · {heading}"
        elif subject.mode == "plan":
            heading = f"Plan · {subject.message.slug}"
        self.query_one("#detail-title", Static).update(Text(heading, style="bold"))
        self.query_one("#detail-facts", Static).update(render.facts(subject.message, subject.call, self.clock))
        self.query_one("#detail-scroll").scroll_home(animate=False)
        self.filled = False
        self._load(subject, self.palette)

    @work(thread=True, exclusive=True, group="detail", exit_on_error=False)
    def _load(self, subject: Subject, palette: Palette) -> None:
        """Read what the view needs from the file, then hand it to the UI thread (what went wrong, if it failed:
        the view is filled either way, and the keys typed meanwhile wait for that)."""
        try:
            text, body = self._read(subject, palette)
        except Exception as exc:
            text = f"Cannot show this: {type(exc).__name__}: {exc}"
            body = Text(text, style="bold red")
        self.post_message(self._Loaded(subject, text, body))

    def _read(self, subject: Subject, palette: Palette) -> tuple[str, RenderableType]:
        """The plain text of `subject` (for copy and the pager) and its drawing."""
        path = subject.session.path
        cwd = subject.session.project_path
        if subject.mode == "raw":
            text = raw_json(path, subject.call.spans if subject.call and subject.call.spans else subject.message.spans)
            body: RenderableType = render.raw_json(text, palette)
        elif subject.mode == "plan" and subject.plan_path:
            try:
                with open(subject.plan_path, encoding="utf-8", errors="replace") as f:
                    text = f.read(render.DETAIL_CHARS * 2)
            except OSError as exc:
                text = f"Cannot read {subject.plan_path}: {exc.strerror or exc}"
            body = render.file_text(subject.plan_path, text, palette)
        elif subject.call is not None:
            text = full_output(path, subject.call)
            width = max(40, self.size.width - 5)  # in the scroll's padding, beside its scrollbar
            body = render.call_body(subject.call, text, palette, cwd, self.clock, width, path)
        else:
            text = render.message_text(subject.message)
            body = render.message_body(subject.message, palette, cwd, self.clock, path)
        return text, body

    class _Loaded(TextualMessage):
        def __init__(self, subject: Subject, text: str, body: RenderableType) -> None:
            super().__init__()
            self.subject, self.text, self.body = subject, text, body

    def _on_detail_screen__loaded(self, message: _Loaded) -> None:
        if message.subject is not self.subject:
            return
        self._text = message.text
        body = self.query_one(DetailBody)
        body.query_ = None
        body.update(message.body)
        self.refresh(layout=True)  # what waits for the next refresh waits for the layout: the text's height
        if self.subject.find is not None and self.subject.mode == "content":
            self.call_after_refresh(self._to_match, *self.subject.find)
        self.call_after_refresh(self._filled)  # laid out: G and the keys typed since go by its height

    def _filled(self, waited: int = 0) -> None:
        """What it shows is laid out (a refresh may come before the layout: then after the next one, a few times)."""
        body = self.query_one(DetailBody)
        size = body.content_size
        if size.height < body.get_content_height(size, self.size, size.width) and waited < LAYOUT_WAITS:
            self.call_after_refresh(self._filled, waited + 1)
            return
        self.filled = True
        self.app.post_message(ScreenFilled(self))

    def _to_match(self, query: Query, nth: int) -> None:
        """Land on the match the find bar was on, highlighted; say so when it is past what the view shows."""
        line, reached = self.query_one(DetailBody).find(query, nth)
        if not reached and len(self._text) > render.DETAIL_CHARS:
            shown = f"{render.DETAIL_CHARS:,}"
            pager = key_display(self.app, self.BINDINGS, "detail.pager")
            self.notify(f"The match is past the first {shown} characters shown here: {pager} opens it all in $PAGER")
        if line is not None:
            scroll = self.query_one("#detail-scroll")
            scroll.scroll_to(y=max(0, line - scroll.size.height // 3), animate=False)

    def action_mode(self, mode: str) -> None:
        if self.subject.mode != mode:
            self.subject = replace(self.subject, mode=mode)
            self._show()

    def action_scroll(self, lines: int) -> None:
        # now, not after the next refresh: keys typed fast would each start from where the first one did
        self.query_one("#detail-scroll").scroll_relative(y=lines, animate=False, immediate=True)

    def action_edge(self, end: int) -> None:
        scroll = self.query_one("#detail-scroll")
        (scroll.scroll_end if end else scroll.scroll_home)(animate=False, immediate=True)  # now, as action_scroll

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self._text)
        self.notify(f"Copied {len(self._text):,} characters", timeout=2)

    def action_pager(self) -> None:
        from claude_tui.ui.actions import open_in_pager

        open_in_pager(self.app, self._text)
