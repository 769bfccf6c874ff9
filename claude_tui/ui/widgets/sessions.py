"""The session list of one project: sortable by column, filtered as you type, newest first."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import DataTable

from claude_tui.core.model import parse_time
from claude_tui.core.stats import human_count, human_duration
from claude_tui.ui.clock import Clock
from claude_tui.ui.tools import one_line
from claude_tui.ui.widgets.entries import short_model

if TYPE_CHECKING:
    from claude_tui.core.library import SessionInfo


def _when(info: SessionInfo) -> float:
    value = info.ended or info.started
    if isinstance(value, int | float):
        return float(value)
    return parse_time(value) or float(getattr(info, "mtime", 0) or 0)


def title_of(info: SessionInfo) -> str:
    return one_line(info.title or info.first_prompt or "(untitled)", 200) or "(untitled)"


#: Columns: key, label, sort key, width (None: the title, which takes the rest), right-aligned.
COLUMNS: list[tuple[str, str, Callable[[SessionInfo], Any], int | None, bool]] = [
    ("live", " ", lambda s: bool(s.live), 1, False),
    ("title", "Title", lambda s: title_of(s).lower(), None, False),
    ("when", "When", _when, 7, True),
    ("duration", "Dur", lambda s: s.duration_s or 0, 6, True),
    ("messages", "Msgs", lambda s: s.messages or 0, 5, True),
    ("tokens", "Tokens", lambda s: s.tokens or 0, 6, True),
    ("cost", "Cost", lambda s: s.cost_usd or 0, 7, True),
    ("model", "Model", lambda s: ",".join(s.models or ()), 10, False),
    ("branch", "Branch", lambda s: s.branch or "", 14, False),
]
#: Cells of padding DataTable puts around each column.
_PAD = 2
#: Columns dropped first when the list is narrow.
_DROP_ORDER = ("branch", "model", "duration", "cost", "tokens", "messages", "when")
#: The title keeps at least this many cells before other columns are dropped.
_TITLE_MIN = 24
SORTABLE = [key for key, *_ in COLUMNS if key != "live"]


class SessionList(DataTable[Text]):
    """Sessions of the chosen project."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="sessions.down"),
        Binding("k", "cursor_up", "Up", show=False, id="sessions.up"),
        Binding("g", "scroll_top", "First", show=False, id="sessions.first"),
        Binding("G", "scroll_bottom", "Last", show=False, id="sessions.last"),
        Binding("s", "sort_next", "Sort", id="sessions.sort"),
        Binding("S", "sort_reverse", "Reverse sort", show=False, id="sessions.reverse"),
        Binding("a", "toggle_hidden", "Show empty", show=False, id="sessions.hidden"),
    ]

    class SessionChosen(Message):
        """The cursor rests on a session; `open` when the user pressed Enter on it."""

        def __init__(self, info: SessionInfo, open: bool = False) -> None:
            super().__init__()
            self.info, self.open = info, open

    def __init__(self, clock: Clock, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False, show_cursor=True)
        self.clock = clock
        self.sessions: list[SessionInfo] = []
        self.shown: list[SessionInfo] = []
        self.filter_text = ""
        self.show_hidden = False
        self.sort_key = "when"
        self.sort_descending = True
        self._chosen_path: str | None = None
        self._columns_width = 0
        self._shown_columns: list[str] = []

    def on_resize(self) -> None:
        width = self.scrollable_content_region.width
        if width and width != self._columns_width:
            self._columns_width = width
            self._refill()

    def _add_columns(self) -> None:
        self.clear(columns=True)
        columns = list(COLUMNS)
        for key in _DROP_ORDER:
            fixed = sum((width or 0) + _PAD for _, _, _, width, _ in columns)
            if self._columns_width - fixed - _PAD >= _TITLE_MIN:
                break
            columns = [c for c in columns if c[0] != key]
        fixed = sum((width or 0) + _PAD for _, _, _, width, _ in columns)
        title_width = max(12, self._columns_width - fixed - _PAD)
        self._shown_columns = [c[0] for c in columns]
        for key, label, _, width, right in columns:
            arrow = (" ▼" if self.sort_descending else " ▲") if key == self.sort_key else ""
            header = Text(label + arrow, "bold" if arrow else "", justify="right" if right else "left")
            self.add_column(header, key=key, width=width or title_width)

    def set_sessions(self, sessions: list[SessionInfo], chosen: str | None = None) -> None:
        self.sessions = sessions
        if chosen is not None:
            self._chosen_path = chosen
        self._refill()

    def set_filter(self, text: str) -> None:
        self.filter_text = text.strip().lower()
        self._refill()

    @property
    def chosen(self) -> SessionInfo | None:
        return next((s for s in self.shown if str(s.path) == self._chosen_path), None)

    def _refill(self) -> None:
        with self.prevent(DataTable.RowHighlighted):  # refilling is not the user choosing
            self._fill()

    def _fill(self) -> None:
        wanted = self._chosen_path
        sort = next(s for key, _, s, _, _ in COLUMNS if key == self.sort_key)
        rows = [s for s in self.sessions if self._visible(s)]
        rows.sort(key=sort, reverse=self.sort_descending)
        self.shown = rows
        self._add_columns()
        for info in rows:
            cells = self._cells(info)
            self.add_row(*(cells[key] for key in self._shown_columns), key=str(info.path))
        index = next((i for i, s in enumerate(rows) if str(s.path) == wanted), 0 if rows else None)
        if index is not None:
            self._chosen_path = str(rows[index].path)
            self.move_cursor(row=index, animate=False)

    def _visible(self, info: SessionInfo) -> bool:
        if not self.show_hidden and (info.empty or info.warmup):
            return False
        text = self.filter_text
        if not text:
            return True
        haystack = " ".join(str(x or "") for x in (info.title, info.first_prompt, info.branch, info.id)).lower()
        return text in haystack

    def _cells(self, info: SessionInfo) -> dict[str, Text]:
        dim = "dim"
        models = list(info.models or ())
        model = short_model(models[-1]) if models else "-"
        cost = f"${info.cost_usd:,.2f}" if info.cost_usd else "-"
        title = Text(
            title_of(info), "dim italic" if info.empty or info.warmup else "", overflow="ellipsis", no_wrap=True
        )
        return {
            "live": Text("●", "green") if info.live else Text(" "),
            "title": title,
            "when": Text(self.clock.ago(_when(info)), dim, justify="right"),
            "duration": Text(human_duration(info.duration_s) if info.duration_s else "-", dim, justify="right"),
            "messages": Text(str(info.messages or 0), justify="right"),
            "tokens": Text(human_count(info.tokens or 0), dim, justify="right"),
            "cost": Text(cost, dim, justify="right"),
            "model": Text(model, dim),
            "branch": Text(one_line(info.branch, 80), dim, overflow="ellipsis", no_wrap=True),
        }

    def action_sort_next(self) -> None:
        index = SORTABLE.index(self.sort_key) if self.sort_key in SORTABLE else -1
        self.sort_key = SORTABLE[(index + 1) % len(SORTABLE)]
        self.sort_descending = self.sort_key not in ("title", "model", "branch")
        self._refill()
        self.notify(f"Sorted by {self.sort_key}", timeout=1.5)

    def action_sort_reverse(self) -> None:
        self.sort_descending = not self.sort_descending
        self._refill()

    def action_toggle_hidden(self) -> None:
        self.show_hidden = not self.show_hidden
        self._refill()
        self.notify(
            "Showing empty and warmup sessions" if self.show_hidden else "Hiding empty and warmup sessions", timeout=1.5
        )

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        key = event.column_key.value
        if key is None or key not in SORTABLE:
            return
        if key == self.sort_key:
            self.sort_descending = not self.sort_descending
        else:
            self.sort_key = key
            self.sort_descending = key not in ("title", "model", "branch")
        self._refill()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        info = self._info(event.row_key.value)
        if info is not None and str(info.path) != self._chosen_path:
            self._chosen_path = str(info.path)
            self.post_message(self.SessionChosen(info))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        info = self._info(event.row_key.value)
        if info is not None:
            self._chosen_path = str(info.path)
            self.post_message(self.SessionChosen(info, open=True))

    def _info(self, key: str | None) -> SessionInfo | None:
        return next((s for s in self.shown if str(s.path) == key), None)
