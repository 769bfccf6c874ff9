"""The session list of one project: sortable by column, filtered as you type, newest first.

A Line-API widget: a header line and one line per session, drawn when on screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from claude_tui.core.facts import quiet
from claude_tui.core.humanize import human_count, human_duration, plural
from claude_tui.ui.bindings import CURSOR_MOVES, cursor_bindings, key_display
from claude_tui.ui.clock import Clock, epoch_of
from claude_tui.ui.palette import cursor_row, foreground
from claude_tui.ui.text import one_line
from claude_tui.ui.widgets.conversation.entries import short_model
from claude_tui.ui.widgets.line_view import LineView

if TYPE_CHECKING:
    from claude_tui.core.library import SessionInfo


def _recorded(info: SessionInfo) -> float | None:
    """Epoch seconds of the session's last record, or None when no record has a time."""
    return epoch_of(info.ended or info.started)


T = TypeVar("T")


def in_place(items: list[T], before: list[T], key: Callable[[T], str]) -> list[T]:
    """`items` with those shown `before` in their order there, the new ones first: a refresh of the
    library moves no row under the cursor of a user in the list (two live projects swapped every 2 s)."""
    place = {key(item): i for i, item in enumerate(before)}
    return sorted(items, key=lambda item: place.get(key(item), -1))


def title_of(info: SessionInfo) -> str:
    if info.error and not info.title:
        return one_line(f"⚠ cannot read: {info.error}", 200)
    title = one_line(info.title or info.first_prompt or "(untitled)", 200) or "(untitled)"
    if info.continues or info.background:  # the continuation of another session: its first messages are copies
        title = f"⇢ {title}"
    return f"↳ {title}" if info.orphan_of or info.no_file else title  # a subagent's: its session has no file


def model_of(info: SessionInfo) -> str:
    """The Model column: the short name of the model that wrote the most ("sonnet-4.5"), with a "+" when others
    answered too ("opus-4.5+"; the header names them all), or "-"."""
    if not info.models:
        return "-"
    return short_model(info.models[0]) + ("+" if len(info.models) > 1 else "")


def _fit(text: str, size: int, right: bool) -> str:
    """`text` cut (with an ellipsis) or padded to `size` cells, as rich.text.Text's truncate and align do."""
    length = cell_len(text)
    if length > size:
        return set_cell_size(text, size - 1) + "…"
    pad = " " * (size - length)
    return pad + text if right else text + pad


#: The Cost column's width.
COST_CELLS = 7
#: Columns: key, label, sort key, width (None: the title, which takes the rest), right-aligned.
COLUMNS: list[tuple[str, str, Callable[[SessionInfo], Any], int | None, bool]] = [
    ("live", " ", lambda s: bool(s.live), 1, False),
    ("title", "Title", lambda s: title_of(s).lower(), None, False),
    ("when", "When", lambda s: s.last_activity, 8, True),
    ("active", "Active", lambda s: s.active_s or 0, 6, True),
    ("messages", "Msgs", lambda s: s.messages or 0, 5, True),
    ("tokens", "Tokens", lambda s: s.tokens or 0, 6, True),
    ("cost", "Cost", lambda s: s.cost_usd or 0, COST_CELLS, True),
    ("model", "Model", lambda s: model_of(s).lower(), 11, False),
    ("branch", "Branch", lambda s: s.branch or "", 14, False),
]
#: Cells between two columns.
_GAP = 2
#: Columns dropped first when the list is narrow.
_DROP_ORDER = ("branch", "model", "active", "cost", "tokens", "messages", "when")
#: The title keeps at least this many cells before other columns are dropped.
_TITLE_MIN = 24
SORTABLE = [key for key, *_ in COLUMNS if key != "live"]
#: Columns that sort A to Z by default (the others: biggest or newest first).
_ASCENDING = ("title", "model", "branch")


def cost_cell(usd: float | None, unpriced: bool = False) -> str:
    """A cost in the Cost column: "$12.34", "$1,221" (no cents from $1,000), "$123k"; with a "+" when models with
    no price used tokens too ("$0.03+", "$123+"), "?" when only they did, "-" when no model used any."""
    if usd is None:
        return "?" if unpriced else "-"
    mark = "+" if unpriced else ""
    shapes = (f"${usd:,.2f}", f"${usd:,.0f}", f"${usd / 1000:,.0f}k")
    return next((s for s in shapes if len(s + mark) <= COST_CELLS), shapes[-1]) + mark


class SessionList(LineView, can_focus=True):
    """Sessions of the chosen project."""

    MOVES = CURSOR_MOVES
    BINDINGS: ClassVar[list[BindingType]] = [
        *cursor_bindings("sessions"),
        Binding("enter", "screen.open_row('sessions')", "Open", id="sessions.open"),  # the screen's: focus moves now
        Binding("s", "sort_next", "Sort", id="sessions.sort"),
        Binding("S", "sort_reverse", "Reverse sort", show=False, id="sessions.reverse"),
        Binding("a", "toggle_hidden", "Show empty", show=False, id="sessions.hidden"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "session-list--header",
        "session-list--sorted",
        "session-list--cursor",
        "session-list--cursor-blurred",
        "session-list--dim",
        "session-list--live",
    }

    DEFAULT_CSS = """
    SessionList {
        overflow-x: hidden;
        scrollbar-gutter: stable;
        & > .session-list--header { color: $text-muted; text-style: bold; }
        & > .session-list--sorted { color: $text; text-style: bold; }
        & > .session-list--cursor { background: $block-cursor-background; color: $block-cursor-foreground; }
        & > .session-list--cursor-blurred { background: $block-cursor-blurred-background; }
        & > .session-list--dim { color: $text-muted; }
        & > .session-list--live { color: $success; }
    }
    """

    class HiddenToggled(Message):
        """`a`: empty and warmup sessions are shown, or hidden again."""

    class SessionChosen(Message):
        """The cursor rests on a session; `open` when the user pressed Enter on it."""

        def __init__(self, info: SessionInfo, open: bool = False) -> None:
            super().__init__()
            self.info, self.open = info, open

    def __init__(self, clock: Clock, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.clock = clock
        self.sessions: list[SessionInfo] = []
        self.shown: list[SessionInfo] = []
        self.filter_text = ""
        self.note = ""  #: what the list says when it has no session at all (why a session shows all the same)
        self.show_hidden = False
        self.sort_key = "when"
        self.sort_descending = True
        self.cursor = 0
        self._chosen_path: str | None = None
        self._columns: list[tuple[str, int, bool]] = []  #: (key, width, right-aligned) as laid out
        self._layout_width = 0
        self._rows: dict[int, Strip] = {}
        self._paths_differ = False
        self._haystacks: dict[str, str] = {}  #: the text a filter looks in, by session file

    # ---------------------------------------------------------------- data

    def set_sessions(self, sessions: list[SessionInfo], chosen: str | None = None, *, keep_places: bool = True) -> None:
        """Show `sessions`; with `keep_places`, those already shown keep their places while the list has the focus
        (else all are sorted)."""
        self.sessions = sessions
        self._paths_differ = len({s.project for s in sessions}) > 1  # a repository and its worktrees
        self._haystacks.clear()
        if chosen is not None:
            self._chosen_path = str(chosen)
        self._refill(keep_places=keep_places and self.has_focus)

    def set_filter(self, text: str) -> None:
        if text.strip().lower() != self.filter_text:
            self.filter_text = text.strip().lower()
            self._refill_choosing()

    def _refill_choosing(self) -> None:
        """Refill; when that hides the chosen session, the one the cursor lands on is chosen, as moving does."""
        before = self._chosen_path
        self._refill()
        chosen = self.chosen
        if chosen is not None and chosen.file != before:
            self.post_message(self.SessionChosen(chosen))

    @property
    def chosen(self) -> SessionInfo | None:
        return self.shown[self.cursor] if 0 <= self.cursor < len(self.shown) else None

    def _refill(self, keep_places: bool = False) -> None:
        """Filter and sort again (or, `keep_places`, leave the rows shown where they are), keeping the cursor
        on the chosen session (a refill chooses nothing)."""
        sort = next(s for key, _, s, _, _ in COLUMNS if key == self.sort_key)
        rows = [s for s in self.sessions if self._visible(s)]
        rows.sort(key=sort, reverse=self.sort_descending)
        if keep_places:
            rows = in_place(rows, self.shown, lambda s: s.file)
        self.shown = rows
        wanted = self._chosen_path
        self.cursor = next((i for i, s in enumerate(rows) if s.file == wanted), 0)
        if rows:
            self._chosen_path = rows[self.cursor].file
        self._rows.clear()
        self.virtual_size = Size(self._layout_width, len(rows) + 1)
        self._scroll_to_cursor()
        self.refresh()

    def shows_kind(self, info: SessionInfo) -> bool:
        """Whether the list shows sessions like `info` (empty and warmup ones only after `a`), filter aside."""
        return self.show_hidden or not quiet(info)

    def empty_hint(self) -> str:
        """Why the list shows no session: it has none (its note says why, if anything), the filter, or `a`
        hiding empty ones."""
        if not self.sessions:
            return self.note
        if self.filter_text and any(self.shows_kind(s) for s in self.sessions):
            return f"No session matches “{self.filter_text}”"
        key = key_display(self.app, self.BINDINGS, "sessions.hidden")
        return f"{plural(len(self.sessions), 'empty or warmup session')}, hidden: {key} shows them"

    def matches(self, text: str) -> bool:
        """Whether a filter of `text` shows any session."""
        return any(self._visible(s, text.strip().lower()) for s in self.sessions)

    def _visible(self, info: SessionInfo, text: str | None = None) -> bool:
        """Whether the list shows `info`, filtered by `text` (by default, its filter)."""
        if not self.shows_kind(info):
            return False
        text = self.filter_text if text is None else text
        if not text:
            return True
        haystack = self._haystacks.get(info.file)
        if haystack is None:  # made once a listing: each key of a filter looks through them all
            project = info.project if self._paths_differ else ""  # a path all share would match them all
            parts = (info.title, info.first_prompt, info.branch, project, info.id)
            haystack = self._haystacks[info.file] = " ".join(str(x or "") for x in parts).lower()
        return text in haystack

    # ---------------------------------------------------------------- drawing

    def _layout(self, width: int) -> None:
        """Columns that fit `width`, the title taking what the others leave; the sorted column is as wide as its
        label and arrow ("Tokens ▼"), its few more cells taken from the title."""
        columns = list(COLUMNS)
        for key in _DROP_ORDER:
            fixed = sum((w or 0) + _GAP for _, _, _, w, _ in columns)
            if width - fixed >= _TITLE_MIN:
                break
            columns = [c for c in columns if c[0] != key]
        sized = [
            (key, w if w is None or key != self.sort_key else max(w, cell_len(label) + 2), right)
            for key, label, _, w, right in columns
        ]
        fixed = sum((w or 0) + _GAP for _, w, _ in sized)
        self._columns = [(key, w or max(8, width - fixed), right) for key, w, right in sized]
        self._layout_width = width
        self._rows.clear()
        self.virtual_size = Size(width, len(self.shown) + 1)

    def render_line(self, y: int) -> Strip:
        width = self.size.width - self.scrollbar_gutter.width
        if width != self._layout_width:
            self._layout(width)
        base = self.line_style
        if y == 0:
            return self._header(width).apply_style(base)
        index = round(self.scroll_offset.y) + y - 1
        if index == 0 and not self.shown and (hint := self.empty_hint()):
            hint = set_cell_size(f" {hint}", width)
            return Strip([Segment(hint, foreground(self, "session-list--dim"))], width).apply_style(base)
        if index >= len(self.shown):
            return Strip.blank(width, base)
        if index == self.cursor:  # drawn each time: its dim cells take the cursor's colour, not the cache's grey
            name = "session-list--cursor" if self.has_focus else "session-list--cursor-blurred"
            strip = cursor_row(self, self._row(self.shown[index], width, Style()), name)
        elif (cached := self._rows.get(index)) is None:
            strip = self._rows[index] = self._row(self.shown[index], width, foreground(self, "session-list--dim"))
        else:
            strip = cached
        return strip.apply_style(base)

    def _header(self, width: int) -> Strip:
        plain = foreground(self, "session-list--header")
        sorted_ = foreground(self, "session-list--sorted")
        labels = {key: label for key, label, *_ in COLUMNS}
        arrow = "▼" if self.sort_descending else "▲"
        if all(key != self.sort_key for key, _, _ in self._columns):  # sorted by a column too narrow to show
            labels["title"] = f"Title (by {labels[self.sort_key].lower()} {arrow})"
        cells = [
            (f"{labels[key]} {arrow}", sorted_) if key == self.sort_key else (labels[key], plain)
            for key, _, _ in self._columns
        ]
        return self._strip(cells, width)

    def _row(self, info: SessionInfo, width: int, dim: Style) -> Strip:
        """One session's line, its secondary cells in `dim` (on the cursor's row: no colour of their own)."""
        title_style = dim + Style(italic=True) if info.empty or info.warmup else None
        recorded = _recorded(info)
        when = self.clock.ago(recorded) if recorded is not None else "~" + self.clock.ago(info.mtime)  # ~: file time
        values: dict[str, tuple[str, Style | None]] = {
            "live": ("●", foreground(self, "session-list--live")) if info.live else ("", None),
            "title": (title_of(info), title_style),
            "when": (when, dim),
            "active": (human_duration(info.active_s) if info.active_s else "-", dim),
            "messages": (str(info.messages or 0), None),
            "tokens": (human_count(info.tokens or 0), dim),
            "cost": (cost_cell(info.cost_usd, bool(info.unpriced)), dim),
            "model": (model_of(info), dim),
            "branch": (one_line(info.branch, 80), dim),
        }
        return self._strip([values[key] for key, _, _ in self._columns], width)

    def _strip(self, cells: Sequence[tuple[str, Style | None]], width: int) -> Strip:
        """One line of cells (text without control characters, and a style), as segments: no Text to render."""
        segments = [Segment(" ")]
        gap = Segment(" " * _GAP)
        for (_, size, right), (text, style) in zip(self._columns, cells, strict=True):
            segments += (Segment(_fit(text, size, right), style), gap)
        return Strip(segments).adjust_cell_length(width)

    # ---------------------------------------------------------------- moving

    def _scroll_to_cursor(self) -> None:
        rows = self.size.height - 1
        top = round(self.scroll_offset.y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True, force=True)
        elif rows > 0 and self.cursor >= top + rows:
            self.scroll_to(y=self.cursor - rows + 1, animate=False, immediate=True, force=True)

    def move_to(self, index: int, open: bool = False) -> None:
        if not self.shown:
            return
        index = max(0, min(index, len(self.shown) - 1))
        moved = index != self.cursor
        self.cursor = index
        self._scroll_to_cursor()
        self.refresh()
        info = self.shown[index]
        if moved or open or info.file != self._chosen_path:
            self._chosen_path = info.file
            self.post_message(self.SessionChosen(info, open=open))

    def action_cursor(self, delta: int) -> None:
        self.move_to(self.cursor + delta)

    def action_sort_next(self) -> None:
        shown = [key for key in SORTABLE if any(key == column for column, _, _ in self._columns)] or SORTABLE
        index = shown.index(self.sort_key) if self.sort_key in shown else -1
        self._sort_by(shown[(index + 1) % len(shown)])
        self.notify(f"Sorted by {self.sort_key}", timeout=1.5)

    def _sort_by(self, key: str) -> None:
        if key == self.sort_key:
            self.sort_descending = not self.sort_descending
        else:
            self.sort_key = key
            self.sort_descending = key not in _ASCENDING
            if self._layout_width:
                self._layout(self._layout_width)  # the sorted column as wide as its label and arrow
        self._refill()

    def action_sort_reverse(self) -> None:
        self.sort_descending = not self.sort_descending
        self._refill()

    def action_toggle_hidden(self) -> None:
        self.show_hidden = not self.show_hidden
        self._refill_choosing()
        self.post_message(self.HiddenToggled())
        self.notify(
            "Showing empty and warmup sessions" if self.show_hidden else "Hiding empty and warmup sessions",
            timeout=1.5,
        )

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        if offset.y == 0:  # the header: sort by the column clicked
            x = 1
            for key, size, _ in self._columns:
                if x <= offset.x < x + size + _GAP and key in SORTABLE:
                    self._sort_by(key)
                    return
                x += size + _GAP
            return
        index = round(self.scroll_offset.y) + offset.y - 1
        if index < len(self.shown):
            again = index == self.cursor
            self.move_to(index, open=again or event.chain > 1)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_resize(self) -> None:
        self._scroll_to_cursor()
