"""The conversation pane's drawing: the rows of `EntryList` on Textual's Line API, and their cache.

Only what is on screen is drawn: `render_line` finds its entry by the rows' prefix sums, and drawn entries are kept
in a small cache of Strips. This layer also keeps the state every other one shares (the session shown, what is open,
the cursor, following) and the moves that bring an entry into view.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.strip import Strip

from claude_tui.core.model import QUIET_KINDS, Message
from claude_tui.ui.bindings import key_display
from claude_tui.ui.clock import Clock
from claude_tui.ui.palette import Palette
from claude_tui.ui.widgets.conversation.entries import Entry, dates_its_time, first_of_day
from claude_tui.ui.widgets.conversation.entry_list import EntryList
from claude_tui.ui.widgets.conversation.filters import PaneFilter
from claude_tui.ui.widgets.conversation.messages import FollowChanged
from claude_tui.ui.widgets.line_view import LineView

if TYPE_CHECKING:
    from claude_tui.core.session import Session
    from claude_tui.ui.widgets.conversation.painter import Painter

#: Drawn entries kept.
CACHE_ENTRIES = 600


class DrawnView(LineView, can_focus=True):
    """A session's rows, virtualised: what is drawn, and the state the pane's layers share."""

    hide_quiet: reactive[bool] = reactive(False, init=False)

    def __init__(
        self, clock: Clock | None = None, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.clock = clock or Clock()
        #: Held while the session is fed or read (not Widget.lock, Textual's own asyncio lock).
        self.session_lock = threading.RLock()
        self.session: Session | None = None
        self.expanded: set[object] = set()
        self.highlighted: set[Message] = set()
        self.rows = EntryList(self.expanded)
        self._follow = False
        self.follow_mode = False  #: follow the session as it is written (paused while the user reads above)
        self._seen = 0  #: messages shown when following last paused
        self._grew: set[int] = set()  #: messages among those that grew since (a tool call added, say)
        self.reading = False  #: a read is under way (not Widget.loading, which would cover the pane and eat keys)
        #: G was pressed while the session was read, and nothing moved the cursor since: it goes on to the real end
        self._end_asked = False
        self.pane_filter: PaneFilter | None = None
        #: Restyles a drawn line (entry, row) on its way to the screen: the find bar's matches.
        self.marker: Callable[[Strip, Entry, int], Strip] | None = None
        self.placeholder = "No session selected"
        self._cursor: Entry | None = None
        self._cursor_index = 0
        self._cache: OrderedDict[Entry, list[Strip]] = OrderedDict()
        self._width = 0
        self._height = 0  #: the view's height at the last resize
        self._palette: Palette | None = None
        self._painter: Painter | None = None

    @property
    def follow(self) -> bool:
        """Keep the newest message in view as messages arrive (False while following is paused)."""
        return self._follow

    @follow.setter
    def follow(self, value: bool) -> None:
        if value != self._follow:
            self._follow = value
            self._seen = len(self.rows.messages)
            self._grew.clear()
            self.post_message(FollowChanged(value))

    def _listed(self) -> tuple[list[Message], int, dict[Message, Session]]:
        """The pane's messages: the branch being read, then those of each subagent that no call in the session
        started (a warmup, say): there is no call to open it under, so it comes last, under a closed marker;
        with them, the pane's `_main_end` and `_agents` for that list."""
        from claude_tui.core.session import unstarted  # (the session model: imported once a session is shown)

        session = self.session
        if session is None:
            return [], 0, {}
        listed = self._shown(session.visible())
        main_end = len(listed)
        agents: dict[Message, Session] = {}
        for sub in session.subagents:
            if unstarted(sub) and (messages := self._shown(sub.visible())):
                agents[messages[0]] = sub
                listed = listed + messages
        return listed, main_end, agents

    def _shown(self, visible: list[Message]) -> list[Message]:
        if not self.hide_quiet:
            return visible
        return [m for m in visible if m.kind not in QUIET_KINDS]

    def _build_range(self, start: int, end: int, *, everything: bool = False) -> list[Entry]:
        """The entries of messages `start` to `end` that the pane filter keeps (`everything`: all of them)."""
        problems = self.session.all_problems() if self.session is not None else []
        pane_filter = None if everything else self.pane_filter
        return self.rows.build_range(start, end, problems, pane_filter, self.hide_quiet)

    def _rebuild(self) -> None:
        """Build every entry again (keeping the ones that did not change, and the cursor)."""
        with self.session_lock:
            anchor = self._anchor()
            appendix = self._cursor is not None and self._cursor.top >= self.rows.main_end
            self.rows.messages, self.rows.main_end, self.rows.agents = self._listed()
            self.rows.entries = self._build_range(0, len(self.rows.messages))
            self._cache.clear()
            self._measure(self.rows.entries)
            self._sync_starts()
            if self._cursor is not None and self._index_of(self._cursor) is None:
                self._cursor = self.rows.in_place_of(self._cursor, appendix)  # hidden by `.`, say: the next is marked
            self._restore(anchor)
        if self.follow:
            self._to_last()
        self.refresh()

    def _replace_from(self, keep: int, shown: list[Message], damaged: bool = False) -> bool:
        """Keep the entries of the first `keep` messages, build those of the rest of `shown` (and the
        damaged lines after the last one: again when `damaged` lines were found); whether anything changed."""
        if keep == len(self.rows.messages) == len(shown) and not damaged:
            return False
        start = self.rows.first_of(keep)
        for entry in self.rows.truncate(start):
            self._cache.pop(entry, None)
        self.rows.messages = shown
        changed = start
        # the first message that a turn counts (dim rows between are not) may go on with the turn above
        joining = next((top for top in range(keep, len(shown)) if shown[top].kind not in QUIET_KINDS), None)
        if joining is not None and (header := self._forget_turn_header(joining)) is not None:
            changed = min(start, header)
        new = self._build_range(keep, len(shown))
        self._measure(new)
        self.rows.extend(new)
        if self._cursor is not None and self._index_of(self._cursor) is None:
            self._cursor = None
        self._sync_size()
        self._refresh_from(changed)
        return True

    def _refresh_from(self, index: int) -> None:
        """Repaint what is on screen of entry `index` and below (what is above did not change): a burst
        that arrives below a reader who scrolled up costs no drawing."""
        view, height = round(self.scroll_offset.y), self._view.height
        top = max(self.rows.starts[min(index, len(self.rows.starts) - 1)], view)
        if top < view + height:
            self.refresh_lines(top, view + height - top)

    def _resplice(self, top: int) -> None:
        """Build the entries of one top-level message again (it grew, or something under it opened)."""
        start, end = self.rows.range_of(top)
        # its own entries only: the damaged lines after the last message are _replace_from's (shown once)
        new = [e for e in self._build_range(top, top + 1) if e.top == top]
        for entry in self.rows.entries[start:end]:
            self._cache.pop(entry, None)
        self._measure(new, force=True)
        self.rows.entries[start:end] = new
        self._forget_turn_header(top)
        self._sync_starts()

    def _forget_turn_header(self, top: int) -> int | None:
        """Drop the drawing of the header of the turn that message `top` belongs to (its totals changed); its index."""
        at = self.rows.turn_header(top)
        if at is not None:
            self._cache.pop(self.rows.entries[at], None)
        return at

    def _measure(self, entries: Sequence[Entry], force: bool = False) -> None:
        """Heights at the current width; an entry measured at this width before keeps its
        height unless `force`d or open (an open tool call grows when its result arrives)."""
        if not entries:
            return
        painter, width, expanded = self._painter_now(), self._width, self.expanded
        if painter is None or width <= 0:
            return
        for entry in entries:
            if force or entry.measured != width or entry.key in expanded:
                entry.body = painter.measure(entry, width)
                entry.measured = width
            entry.height = entry.pad + entry.body

    def _sync_starts(self) -> None:
        self.rows.sync_starts()
        self._sync_size()

    def _sync_size(self) -> None:
        self.virtual_size = Size(self._width, self.rows.starts[-1])

    def _index_of(self, entry: Entry) -> int | None:
        index = self.rows.index_of(entry, self._cursor_index)
        if index is not None:
            self._cursor_index = index
        return index

    @property
    def cursor(self) -> Entry | None:
        return self._cursor

    @property
    def cursor_index(self) -> int | None:
        return self._index_of(self._cursor) if self._cursor is not None else None

    def _anchor(self) -> tuple[Entry, int] | None:
        """The entry at the top of the view and how far into it the view starts."""
        if not self.rows.entries or self.scroll_offset.y <= 0:
            return None
        index = self.rows.entry_at(self.scroll_offset.y)
        if index is None:
            return None
        return self.rows.entries[index], self.scroll_offset.y - self.rows.starts[index]

    def _restore(self, anchor: tuple[Entry, int] | None) -> None:
        """Keep the view on the same content after entries above it changed height."""
        if anchor is None or self.follow:
            return
        entry, offset = anchor
        try:
            index = self.rows.entries.index(entry)
        except ValueError:
            return
        self.scroll_to(y=self.rows.starts[index] + offset, animate=False, immediate=True, force=True)

    @property
    def _view(self) -> Region:
        """The part of the widget that shows lines (its size less padding and scrollbar),
        known even while the widget is not on screen."""
        return self.size.region.shrink(self.styles.gutter).shrink(self.scrollbar_gutter)

    def _painter_now(self) -> Painter | None:
        """The painter at the current palette and keys; made (and its module imported: see painter.py) for the
        first entry measured or drawn."""
        if self._painter is None:
            from claude_tui.ui.widgets.conversation.painter import Painter

            if self._palette is None:
                if not self.is_mounted:
                    return None
                self._palette = Palette.of(self.app)
            cwd = self.session.project_path if self.session is not None else None
            self._painter = Painter(self._palette, self.clock, cwd, self.expanded)
            self._painter.session_path = Path(self.session.path) if self.session is not None else None
            self._painter.toggle_key = key_display(self.app, self.BINDINGS, "conversation.toggle", prefer="space")
            previous, following = (
                key_display(self.app, self.BINDINGS, f"conversation.{way}_branch") for way in ("previous", "next")
            )
            self._painter.branch_keys = f"{previous} {following}"
        return self._painter

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._theme_changed, init=False)

    def _theme_changed(self) -> None:
        self._palette = None
        self._painter = None
        self._cache.clear()
        self.refresh()

    def _relayout(self, width: int) -> None:
        with self.session_lock:
            anchor = self._anchor()
            self._width = width
            self._cache.clear()
            self._measure(self.rows.entries)
            self._sync_starts()
            self._restore(anchor)
        self.refresh()

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """The thumb where the view is: a scroll made while the bar was still hidden (the pane had just grown past
        the screen, not laid out yet) did not move it, and Textual shows it at the top until the next scroll."""
        if shown:
            self.vertical_scrollbar.position = self.scroll_y

    def render_line(self, y: int) -> Strip:
        width = self._view.width
        if width != self._width:
            self._relayout(width)
        line = self.scroll_offset.y + y
        base = self.line_style
        if not self.rows.entries:
            return self._placeholder_line(y, width, base)
        index = self.rows.entry_at(line)
        if index is None:
            return Strip.blank(width, base)
        entry = self.rows.entries[index]
        strips = self._strips(entry, width)
        row = line - self.rows.starts[index]
        strip = strips[row] if row < len(strips) else Strip.blank(width)
        palette = self._palette
        assert palette is not None
        if entry is self._cursor and row >= entry.pad:
            mark = Segment("▌", palette.cursor_mark if self.has_focus else palette.faint)
            strip = Strip([mark, *palette.on_cursor(strip.crop(1))], width)
        elif entry.message in self.highlighted and row >= entry.pad:
            strip = strip.apply_style(palette.match)
        if self.marker is not None and row >= entry.pad:
            strip = self.marker(strip, entry, row)
        return strip.apply_style(base)

    def _placeholder_line(self, y: int, width: int, base: Style) -> Strip:
        shown = self.placeholder
        if self.pane_filter is not None and self.rows.messages:
            shown = self.pane_filter.nothing(key_display(self.app, self.BINDINGS, self.pane_filter.binding_id))
        lines = shown.split("\n")
        row = y - self._view.height // 2 + len(lines) // 2  # one line: the middle one
        if not 0 <= row < len(lines):
            return Strip.blank(width, base)
        text = Text(lines[row], style=base + Style(dim=True), justify="center")
        text.align("center", width)
        return Strip(list(text.render(self.app.console)), width).apply_style(base)

    def _strips(self, entry: Entry, width: int) -> list[Strip]:
        cached = self._cache.get(entry)
        if cached is not None:
            self._cache.move_to_end(entry)
            return cached
        painter = self._painter_now()
        assert painter is not None
        with self.session_lock:
            drawn = painter.draw(entry, width, self.rows.turn_of, self._dated(entry))
            gutter = self._gutter(entry)
            console = self.app.console
            strips = [Strip(list((gutter + line).render(console)), None).adjust_cell_length(width) for line in drawn]
        if len(strips) != entry.height:  # content changed under us: measure again
            entry.height, entry.body = len(strips), len(strips) - entry.pad
            self._sync_starts()
            self.refresh()
        self._cache[entry] = strips
        if len(self._cache) > CACHE_ENTRIES:
            self._cache.popitem(last=False)
        return strips

    def _dated(self, entry: Entry) -> bool:
        """Whether the time `entry` shows is the first of its day in the pane (see `first_of_day`)."""
        if not dates_its_time(entry):
            return False
        start, end = self.rows.range_of(entry.top)
        index = next((i for i in range(start, end) if self.rows.entries[i] is entry), None)
        return index is not None and first_of_day(self.rows.entries, index, self.clock)

    def _gutter(self, entry: Entry) -> Text:
        if not entry.depth:
            return Text("  ")
        assert self._palette is not None
        gutter = Text("  ")
        gutter.append("│ " * entry.depth, self._palette.faint)
        return gutter

    def drawn(self, entry: Entry) -> list[Strip]:
        """The lines of `entry` as drawn at the current width (blank lines above included)."""
        return self._strips(entry, self._width)

    def select(self, index: int, *, scroll: bool = True, top: bool = False) -> None:
        """Put the cursor on entry `index` and bring it into view."""
        if not self.rows.entries:
            return
        index = max(0, min(index, len(self.rows.entries) - 1))
        self._end_asked = False  # the cursor moved: a G before this one is done
        previous = self._cursor
        self._cursor, self._cursor_index = self.rows.entries[index], index
        if scroll:
            self._scroll_to_entry(index, top)
        if previous is not self._cursor:
            self.refresh()

    def _scroll_to_entry(self, index: int, top: bool = False) -> None:
        entry = self.rows.entries[index]
        start = self.rows.starts[index] + entry.pad
        end = self.rows.starts[index + 1]
        height = self._view.height
        view = round(self.scroll_offset.y)
        if top or start < view:
            target = start
        elif end > view + height:
            target = start if end - start > height else end - height
        else:
            return
        self.scroll_to(y=max(0, min(target, self.rows.starts[-1] - height)), animate=False, immediate=True, force=True)

    def _keep_cursor_in_view(self) -> None:
        index = self.cursor_index
        if index is not None:
            self._scroll_to_entry(index)

    def _to_last(self) -> None:
        """The cursor on the last entry, its end in view (and following resumed, when following is on)."""
        if self.follow_mode:
            self.follow = True  # End resumes following
        if not self.rows.entries:
            return
        last = len(self.rows.entries) - 1
        rows = self.rows
        if self.follow_mode and rows.main_end < len(rows.messages):  # the newest message, not a subagent after it
            last = max(0, rows.first_of(rows.main_end) - 1)
        self.select(last, scroll=False)
        bottom = self.rows.starts[last + 1]
        self.scroll_to(y=max(0, bottom - self._view.height), animate=False, immediate=True, force=True)
        self._end_asked = self.reading  # the read goes on: so does G, to the real end (its row may be rebuilt)
        if self.follow:  # a layout that ends after this one (a busy machine's) may leave the end out of view
            self.call_after_refresh(self._stay_at_end)

    def _stay_at_end(self) -> None:
        """Following: the pane at its end, once laid out."""
        if self.follow and self.scroll_offset.y != self.max_scroll_y:
            self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True, force=True)

    @property
    def messages(self) -> list[Message]:
        """The top-level messages shown, in order."""
        return self.rows.messages

    @property
    def entries(self) -> list[Entry]:
        return self.rows.entries
