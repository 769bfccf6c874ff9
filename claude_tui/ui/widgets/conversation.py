"""The conversation pane: a session's threaded messages on Textual's Line API.

Only what is on screen is drawn. Every entry's height is known (measured, not
drawn), their starts are prefix sums searched with bisect, and drawn entries are
kept in a small cache of Strips. A session is read by a thread worker in
batches through `SessionTail`: the first screen shows after the first batch and
the rest streams in through the same path a live tail uses (`read_more`).
"""

from __future__ import annotations

import gc
import threading
import time
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate
from pathlib import Path
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message as TextualMessage
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer
from textual.worker import get_current_worker

from claude_tui.core.humanize import damage
from claude_tui.core.model import QUIET_KINDS, Block, Fork, Kind, Message, ToolCall
from claude_tui.core.session import Session, Update, unstarted
from claude_tui.core.tail import SessionTail
from claude_tui.ui.bindings import key_display
from claude_tui.ui.clock import Clock
from claude_tui.ui.filters import PaneFilter
from claude_tui.ui.palette import Palette
from claude_tui.ui.tools import one_line
from claude_tui.ui.widgets.entries import (
    Entry,
    Painter,
    build,
    continues_turn,
    dates_its_time,
    first_of_day,
    is_error,
)

#: Bytes read before the first screen is drawn, then per batch.
FIRST_BATCH = 512 * 1024
BATCH = 4 * 1024 * 1024
#: Bytes per batch of a live read (a session written fast): the screen waits for a batch being
#: read to draw or to take a key, and this much takes about 5 ms.
LIVE_BATCH = 256 * 1024
#: Seconds a read waits for the first screen to be drawn before it reads on anyway.
DRAW_WAIT = 0.5
#: Seconds between two updates of the entries while a session is read (each may rebuild many).
APPLY_EVERY = 0.25
#: New messages given entries in one update: a burst shows over a few frames, never in one long one.
APPLY_MOST = 250
#: Drawn entries kept.
CACHE_ENTRIES = 600
#: A session read whole with this many messages is kept from the cycle collector while it is shown (gc.freeze).
FREEZE_MESSAGES = 2000


def _b(key: str, action: str, description: str, name: str, show: bool = False, **kw: object) -> Binding:
    return Binding(key, action, description, show=show, id=f"conversation.{name}", **kw)  # type: ignore[arg-type]


class ConversationView(ScrollView, can_focus=True):
    """A session's conversation, virtualised."""

    #: Its bindings' moves, which change neither the focus nor the screen: keys bound to them go to the pane one
    #: right behind another (see keygate.py), as a held j does, and a read under way does not slow them
    MOVES = frozenset({"cursor", "page", "first", "last", "expand", "collapse", "jump", "branch"})
    BINDINGS: ClassVar[list[BindingType]] = [
        _b("j,down", "cursor(1)", "Next entry", "down"),
        _b("k,up", "cursor(-1)", "Previous entry", "up"),
        _b("ctrl+d", "page(0.5)", "Half page down", "half_page_down"),
        _b("ctrl+u", "page(-0.5)", "Half page up", "half_page_up"),
        _b("pagedown,ctrl+f", "page(1)", "Page down", "page_down"),
        _b("pageup", "page(-1)", "Page up", "page_up"),
        _b("g,home", "first", "First message", "first"),
        _b("G,end", "last", "Last message", "last"),
        _b("enter", "open", "Open", "open", show=True),
        _b("space", "toggle", "Expand/open", "toggle", show=True, key_display="space"),
        _b("l,right", "expand", "Expand", "expand"),
        _b("h,left", "collapse", "Collapse", "collapse"),
        _b("right_square_bracket", "jump('prompt', 1)", "Next prompt", "next_prompt", show=True, key_display="]"),
        _b("left_square_bracket", "jump('prompt', -1)", "Previous prompt", "previous_prompt", key_display="["),
        _b("e", "jump('error', 1)", "Next error", "next_error", show=True),
        _b("E", "jump('error', -1)", "Previous error", "previous_error"),
        _b("c", "jump('compaction', 1)", "Next compaction", "next_compaction"),
        _b("C", "jump('compaction', -1)", "Previous compaction", "previous_compaction"),
        _b("f", "jump('fork', 1)", "Next fork", "next_fork"),
        _b("F", "jump('fork', -1)", "Previous fork", "previous_fork"),
        _b("greater_than_sign", "branch(1)", "Next branch", "next_branch", key_display=">"),
        _b("less_than_sign", "branch(-1)", "Previous branch", "previous_branch", key_display="<"),
        _b("t", "toggle_thinking", "Expand all thinking", "toggle_thinking"),
        _b("full_stop", "toggle_quiet", "Hide dim rows", "toggle_quiet", key_display="."),
        _b("slash", "find(0)", "Find", "find", show=True, key_display="/"),
        _b("n", "find(1)", "Next match", "next_match"),
        _b("N", "find(-1)", "Previous match", "previous_match"),
        _b("P", "only('prompts')", "Show only prompts", "only_prompts"),
        _b("exclamation_mark", "only('errors')", "Show only errors", "only_errors", key_display="!"),
        _b("T", "only('tool')", "Show only this tool's calls", "only_tool"),
    ]

    DEFAULT_CSS = """
    ConversationView {
        overflow-x: hidden;
        scrollbar-gutter: stable;
    }
    """

    hide_quiet: reactive[bool] = reactive(False, init=False)

    class Loaded(TextualMessage):
        """More of the session was read (or all of it: `done`)."""

        def __init__(self, session: Session, done: bool, offset: int, size: int) -> None:
            super().__init__()
            self.session, self.done, self.offset, self.size = session, done, offset, size

    class FollowChanged(TextualMessage):
        """Following started, paused or stopped."""

        def __init__(self, follow: bool) -> None:
            super().__init__()
            self.follow = follow

    class OpenRequested(TextualMessage):
        """The user asked to see an entry in full."""

        def __init__(self, message: Message, call: ToolCall | None) -> None:
            super().__init__()
            self.message, self.call = message, call

    class FindRequested(TextualMessage):
        """The user asked for the find bar (`step` 0) or the next (1) or previous (-1) match."""

        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    class Filtered(TextualMessage):
        """The pane filter changed (None: everything is shown)."""

        def __init__(self, pane_filter: PaneFilter | None) -> None:
            super().__init__()
            self.pane_filter = pane_filter

    class _Fed(TextualMessage):
        def __init__(self, token: int, done: bool, offset: int, size: int, error: str | None) -> None:
            super().__init__()
            self.token, self.done, self.offset, self.size, self.error = token, done, offset, size, error

    def __init__(
        self, clock: Clock | None = None, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.clock = clock or Clock()
        self.lock = threading.RLock()  #: held while the session is fed or read
        self.tail: SessionTail | None = None
        self.session: Session | None = None
        self.expanded: set[object] = set()
        self.highlighted: set[Message] = set()
        self._follow = False
        self.follow_mode = False  #: follow the session as it is written (paused while the user reads above)
        self._seen = 0  #: messages shown when following last paused
        self._grew: set[int] = set()  #: messages among those that grew since (a tool call added, say)
        self.reading = False  #: a read is under way (not Widget.loading, which would cover the pane and eat keys)
        self.read_whole = False  #: the file was read to its end once (later reads bring what was written since)
        #: G was pressed while the session was read, and nothing moved the cursor since: it goes on to the real end
        self._end_asked = False
        self._waiting: list[Callable[[], None]] = []  #: cursor moves that could not be made yet (see _wait)
        self.pane_filter: PaneFilter | None = None
        #: Restyles a drawn line (entry, row) on its way to the screen: the find bar's matches.
        self.marker: Callable[[Strip, Entry, int], Strip] | None = None
        self.placeholder = "No session selected"
        self._messages: list[Message] = []  #: top-level messages shown, in order
        self._main_end = 0  #: how many of them are the branch's; after them, the unstarted subagents' (see _listed)
        self._agents: dict[Message, Session] = {}  #: the first message of each of those subagents
        self._entries: list[Entry] = []
        #: Every entry built for this session, by what it shows: a row hidden and shown again (a filter, `.`,
        #: another branch) comes back measured, with its drawing's parse kept.
        self._built: dict[tuple[object, ...], Entry] = {}
        self._starts: list[int] = [0]  #: first line of each entry, and the total at the end
        self._cursor: Entry | None = None
        self._cursor_index = 0
        self._cache: OrderedDict[Entry, list[Strip]] = OrderedDict()
        self._width = 0
        self._height = 0  #: the view's height at the last resize
        self._palette: Palette | None = None
        self._painter: Painter | None = None
        self._pending: Update | None = None
        self._drawn = threading.Event()  #: set once the screen has shown what was read
        self._applied = 0.0
        self._told = 0.0  #: when a Loaded was last posted
        self._behind = False  #: messages read are still waiting for their entries (APPLY_MOST)
        self._apply_timer: Timer | None = None
        self._progress = (0, 0)
        self._error: str | None = None
        self._token = 0
        self._all_thinking = False
        self._froze = False  #: the session shown was frozen (FREEZE_MESSAGES)

    # ---------------------------------------------------------------- opening and feeding

    def open(self, path: str | Path, *, at_end: bool = False) -> None:
        """Show the session at `path`, reading it in the background."""
        with self.lock:
            self._token += 1
            self.tail = SessionTail(Path(path))
            self.session = self.tail.session
            self._pending = None
        self._reset(at_end)
        self.placeholder = "Reading…"
        self.read_more()

    def clear(self, placeholder: str = "No session selected") -> None:
        """Show no session, and say why."""
        with self.lock:
            self._token += 1
            self.tail = self.session = None
        self._reset(False)
        self.placeholder = placeholder
        self._rebuild()

    def _reset(self, at_end: bool) -> None:
        if self._apply_timer is not None:
            self._apply_timer.stop()
            self._apply_timer = None
        self.reading = self.read_whole = False
        self._end_asked = False
        self._waiting.clear()
        self._painter = None
        self.expanded.clear()
        self.highlighted.clear()
        self._messages, self._entries, self._starts = [], [], [0]
        self._main_end, self._agents = 0, {}
        self._built.clear()
        self._cursor, self._cursor_index = None, 0
        self._cache.clear()
        self._all_thinking = False
        self._seen = 0
        self._grew.clear()
        self._behind = False
        self.follow_mode = at_end
        self.follow = at_end
        self.scroll_to(0, 0, animate=False, immediate=True, force=True)
        self._sync_size()
        self.refresh()
        self._thaw()

    def _thaw(self) -> None:
        """The session read before, frozen, is garbage now (another session, or its file rewritten): it is in
        cycles, which only the collector frees."""
        if self._froze:
            self._froze = False
            gc.unfreeze()
            gc.collect()

    @property
    def follow(self) -> bool:
        """Keep the newest message in view as messages arrive (False while following is paused)."""
        return self._follow

    @follow.setter
    def follow(self, value: bool) -> None:
        if value != self._follow:
            self._follow = value
            self._seen = len(self._messages)
            self._grew.clear()
            self.post_message(self.FollowChanged(value))

    @property
    def unseen(self) -> int:
        """Messages that arrived, or grew, while following was paused (dim rows not counted)."""
        if self._follow or not self.follow_mode:
            return 0
        return len(self._grew) + sum(1 for m in self._messages[self._seen :] if m.kind not in QUIET_KINDS)

    def set_follow_mode(self, on: bool) -> None:
        """Start following (at the newest message) or stop."""
        self.follow_mode = on
        self.follow = on
        if on:
            self._to_last()

    def read_more(self, live: bool = False) -> None:
        """Read what the file gained since the last read (the whole file the first time);
        `live`: while it is written, in small batches that let the screen take its keys between them."""
        if self.tail is not None:
            self.reading = True
            self._read(self._token, live)

    @work(thread=True, exclusive=True, group="conversation-read", exit_on_error=False)
    def _read(self, token: int, live: bool) -> None:
        worker = get_current_worker()
        limit = LIVE_BATCH if live else FIRST_BATCH
        while not worker.is_cancelled:
            with self.lock:
                tail = self.tail
                if token != self._token or tail is None:
                    return
                update = tail.poll(limit)
                self._pending = _merge(self._pending, update)
                done = tail.caught_up or tail.error is not None
                offset, size = tail.reader.offset, tail.size
                error = tail.error or ("the file is gone" if tail.deleted else None)
                self._drawn.clear()
            self.post_message(self._Fed(token, done, offset, size, error))
            if done:
                return
            if live or limit == FIRST_BATCH:  # the screen draws this batch (and takes its keys) first
                self._drawn.wait(DRAW_WAIT)
            else:
                time.sleep(0.001)  # and the screen take the lock between two batches
            limit = LIVE_BATCH if live else BATCH

    def _on_conversation_view__fed(self, message: _Fed) -> None:
        message.stop()
        if message.token != self._token or self.session is None:
            return
        self._progress = (message.offset, message.size)
        self._error = message.error
        if message.done or not self._entries or time.monotonic() - self._applied >= APPLY_EVERY:
            self._apply_pending(message.done)
        elif self._apply_timer is None:  # a batch a moment from now brings this one along
            self._apply_timer = self.set_timer(APPLY_EVERY, self._apply_pending)
        self.call_after_refresh(self._drawn.set)

    def _apply_pending(self, done: bool = False) -> None:
        if self._apply_timer is not None:
            self._apply_timer.stop()
            self._apply_timer = None
        with self.lock:
            update, self._pending = self._pending, None
            if self.session is not None and (update is not None or self._behind):
                self._apply(update or Update())
            session = self.session
        self._applied = time.monotonic()
        if session is None:
            return
        if self._entries:
            self._make_waiting_moves()  # typed before the first rows came (Enter G on a session in one burst)
        if self._behind:  # the rest of the backlog after the next frame; done once it is all in
            self.call_after_refresh(self._apply_pending, done)
            if time.monotonic() - self._told >= APPLY_EVERY:  # and, now and then, how far the read has got
                self._tell_loaded(session, False)
            return
        if self.has_focus:
            self._place_cursor()
        if done:
            if not self.read_whole:
                self._open_alone()
            self.reading, self.read_whole, self._end_asked = False, True, False
            error = self._error
            self.placeholder = f"Cannot read this session: {error}" if error else _no_messages(session)
            # A big session is millions of objects that live as long as it is shown: keep the
            # cycle collector from walking them all (a 150 ms pause) every so often while it is. Once: each
            # freeze keeps all made since, garbage too, and a followed session is read again many times a second.
            if not self._froze and len(session.messages) >= FREEZE_MESSAGES:
                gc.freeze()
                self._froze = True
            if not self._entries:
                self._waiting.clear()  # no row to move to
                self.refresh()  # the placeholder says why
        self._tell_loaded(session, done)

    def _open_alone(self) -> None:
        """A session read whole with no conversation of its own (a subagent's transcript whose session has no
        file): its subagents' markers open, else the pane would show nothing but them; warmups stay closed."""
        opening = [first for first, agent in self._agents.items() if not agent.is_warmup]
        if self._main_end or not opening:
            return
        with self.lock:
            self.expanded.update(opening)
            self._replace_from(0, self._messages)

    def _tell_loaded(self, session: Session, done: bool) -> None:
        self._told = time.monotonic()
        self.post_message(self.Loaded(session, done, *self._progress))

    def _apply(self, update: Update) -> None:
        """Bring the entries up to date with what `update` says changed."""
        assert self.session is not None
        if (painter := self._painter) is not None:  # made before the session was read
            painter.cwd = painter.cwd or self.session.project_path
            painter.session_path = Path(self.session.path)
        shown, main_end, agents = self._listed()
        if update.started_over:
            self.notify("The session file was rewritten or cut short: read again from its start", timeout=6)
            self._grew.clear()  # what it counted were rows of the file before; now past its end, or other rows
            self._built.clear()  # the entries of the messages read before: none of them is shown again
            self._thaw()  # and those messages are garbage
            self._rebuild()
            return
        anchor = self._anchor()
        keep = _common_prefix(self._messages, shown)  # a new fork may hide what followed its parent
        grown = sorted({t for m in update.changed.values() if (t := self._top_of(m)) is not None and t < keep})
        for top in grown:
            self._resplice(top)
        if grown:
            self._refresh_from(self._range_of(grown[0])[0])
            if self.follow_mode and not self.follow:
                self._grew.update(t for t in grown if t < self._seen and self._messages[t].kind not in QUIET_KINDS)
        self._main_end, self._agents = main_end, agents  # the tops above were of the messages shown until now
        self._behind = len(shown) > keep + APPLY_MOST
        added = self._replace_from(keep, shown[: keep + APPLY_MOST], update.damaged)  # the rest in the next frames
        self._restore(anchor)
        if (self.follow or self._end_asked) and (grown or added):
            self._to_last()  # the newest row in view, whether a message came or the last one grew

    def _listed(self) -> tuple[list[Message], int, dict[Message, Session]]:
        """The pane's messages: the branch being read, then those of each subagent that no call in the session
        started (a warmup, say): there is no call to open it under, so it comes last, under a closed marker;
        with them, the pane's `_main_end` and `_agents` for that list."""
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

    # ---------------------------------------------------------------- entries

    def _rebuild(self) -> None:
        """Build every entry again (keeping the ones that did not change, and the cursor)."""
        with self.lock:
            anchor = self._anchor()
            appendix = self._cursor is not None and self._cursor.top >= self._main_end
            self._messages, self._main_end, self._agents = self._listed()
            self._entries = self._build_range(0, len(self._messages))
            self._cache.clear()
            self._measure(self._entries)
            self._sync_starts()
            if self._cursor is not None and self._index_of(self._cursor) is None:
                self._cursor = self._in_place_of(self._cursor, appendix)  # hidden by `.`, say: the next is marked
            self._restore(anchor)
        if self.follow:
            self._to_last()
        self.refresh()

    def _in_place_of(self, gone: Entry, appendix: bool) -> Entry | None:
        """The row that takes the place of one no longer shown: the first from its line on, else the last (the last
        too for a row in the `appendix` after the conversation: a subagent no call started)."""
        last = self._entries[-1] if self._entries else None
        if appendix:
            return last
        line = _line_of(gone.message)
        return next((e for e in self._entries if _line_of(e.message) >= line), last)

    def _build_range(self, start: int, end: int, *, everything: bool = False) -> list[Entry]:
        """Entries of messages `start` to `end` (and of the damaged lines among them; `end` at the
        last message also takes the damaged lines after it) that the pane filter keeps (`everything`: all of
        them, as with no filter); those built before are reused."""
        messages, pool = self._messages, self._built
        pane_filter = None if everything else self.pane_filter
        expanded, hide_quiet = self.expanded, self.hide_quiet
        previous = self._previous_of(start)
        out: list[Entry] = []
        problems = self.session.all_problems() if self.session is not None else []
        lines = [p.line_no for p in problems]
        main_end = min(end, self._main_end)
        after = _line_of(messages[start - 1]) if 0 < start <= main_end else 0
        for top in range(start, main_end):
            message = messages[top]
            line = _line_of(message)
            for problem in problems[bisect_right(lines, after) : bisect_right(lines, line)]:
                if pane_filter is None:
                    out.append(_reuse(Entry("problem", message, top, problem=problem), pool))
            after = max(after, line)
            if pane_filter is None:  # _entries_of's work, inline: a whole session is built at times
                out += (_reuse(e, pool) for e in build(message, top, 0, previous, expanded, hide_quiet))
            else:
                out += self._entries_of(message, top, 0, previous, pane_filter)
            if message.kind not in QUIET_KINDS:
                previous = message
        if start <= self._main_end <= end and messages and pane_filter is None:  # damaged lines after the last
            last = messages[max(0, self._main_end - 1)]
            for problem in problems[bisect_right(lines, after) :]:
                out.append(_reuse(Entry("problem", last, self._main_end, problem=problem), pool))
        # `start` may be the end of a list that shrank (a subagent listed last moved under its call): no message there
        opened = main_end < start < end and messages[self._marker_of(start)] in expanded
        for top in range(max(start, main_end), end):  # the subagents no call started, each under its marker
            message = messages[top]
            if (agent := self._agents.get(message)) is not None:
                previous, opened = None, message in expanded
                if pane_filter is None:
                    out.append(_reuse(Entry("agent", message, top, pad=1 if top else 0, agent=agent), pool))
            if opened:
                out += self._entries_of(message, top, 1, previous, pane_filter)
                if message.kind not in QUIET_KINDS:
                    previous = message
        return out

    def _entries_of(
        self, message: Message, top: int, depth: int, previous: Message | None, pane_filter: PaneFilter | None
    ) -> list[Entry]:
        """The entries of a top-level message that `pane_filter` keeps (built before: reused)."""
        pool = self._built
        if pane_filter is not None and not pane_filter.may_keep(message):
            return []
        entries = build(message, top, depth, previous, self.expanded, self.hide_quiet)
        return [_reuse(e, pool) for e in entries if pane_filter is None or pane_filter.keeps(e)]

    def _marker_of(self, top: int) -> int:
        """Where the subagent that message `top` belongs to (one no call started) begins: the top of the
        message its marker is keyed by."""
        return next(i for i in range(top, self._main_end - 1, -1) if self._messages[i] in self._agents)

    def _previous_of(self, top: int) -> Message | None:
        """The message before `top` that a turn may continue from (none across a subagent's marker)."""
        index = self._previous_index(top)
        return None if index is None else self._messages[index]

    def _previous_index(self, top: int) -> int | None:
        """The top of `_previous_of(top)`."""
        messages, agents = self._messages, self._agents
        if top < len(messages) and messages[top] in agents:
            return None
        for index in range(top - 1, -1, -1):
            if messages[index].kind not in QUIET_KINDS:
                return index
            if messages[index] in agents:
                return None
        return None

    def _replace_from(self, keep: int, shown: list[Message], damaged: bool = False) -> bool:
        """Keep the entries of the first `keep` messages, build those of the rest of `shown` (and the
        damaged lines after the last one: again when `damaged` lines were found); whether anything changed."""
        if keep == len(self._messages) == len(shown) and not damaged:
            return False
        start = bisect_left(self._entries, keep, key=lambda e: e.top)
        for entry in self._entries[start:]:
            self._cache.pop(entry, None)
        del self._entries[start:]
        del self._starts[start + 1 :]
        self._messages = shown
        changed = start
        # the first message that a turn counts (dim rows between are not) may go on with the turn above
        joining = next((top for top in range(keep, len(shown)) if shown[top].kind not in QUIET_KINDS), None)
        if joining is not None and (header := self._forget_turn_header(joining)) is not None:
            changed = min(start, header)
        new = self._build_range(keep, len(shown))
        self._measure(new)
        self._entries.extend(new)
        self._starts.extend(accumulate((e.height for e in new), initial=self._starts[-1]))
        del self._starts[start]  # the kept total, repeated as the first of the new sums
        if self._cursor is not None and self._index_of(self._cursor) is None:
            self._cursor = None
        self._sync_size()
        self._refresh_from(changed)
        return True

    def _refresh_from(self, index: int) -> None:
        """Repaint what is on screen of entry `index` and below (what is above did not change): a burst
        that arrives below a reader who scrolled up costs no drawing."""
        view, height = round(self.scroll_offset.y), self._view.height
        top = max(self._starts[min(index, len(self._starts) - 1)], view)
        if top < view + height:
            self.refresh_lines(top, view + height - top)

    def _resplice(self, top: int) -> None:
        """Build the entries of one top-level message again (it grew, or something under it opened)."""
        start, end = self._range_of(top)
        # its own entries only: the damaged lines after the last message are _replace_from's (shown once)
        new = [e for e in self._build_range(top, top + 1) if e.top == top]
        for entry in self._entries[start:end]:
            self._cache.pop(entry, None)
        self._measure(new, force=True)
        self._entries[start:end] = new
        self._forget_turn_header(top)
        self._sync_starts()

    def _forget_turn_header(self, top: int) -> int | None:
        """Drop the drawing of the header of the turn that message `top` belongs to (its totals changed); its index.
        The turn may be long (hundreds of calls, their dim rows between): its header is found by its messages."""
        messages, start = self._messages, top
        while (previous := self._previous_index(start)) is not None and continues_turn(
            messages[start], messages[previous]
        ):
            start = previous
        for at in range(bisect_left(self._entries, start, key=lambda e: e.top), len(self._entries)):
            entry = self._entries[at]
            if entry.top != start:
                break
            if entry.kind == "header" and entry.depth == 0:
                self._cache.pop(entry, None)
                return at
        return None

    def _range_of(self, top: int) -> tuple[int, int]:
        key: Callable[[Entry], int] = lambda e: e.top  # noqa: E731
        return bisect_left(self._entries, top, key=key), bisect_right(self._entries, top, key=key)

    def _top_of(self, message: Message) -> int | None:
        messages = self._messages
        main_end = min(self._main_end, len(messages))  # while a big read is applied, some are still to come
        index = bisect_left(messages, message.index, 0, main_end, key=lambda m: m.index)
        if index < main_end and messages[index] is message:
            return index
        return next((i for i in range(main_end, len(messages)) if messages[i] is message), None)

    def _measure(self, entries: Iterable[Entry], force: bool = False) -> None:
        """Heights at the current width; an entry measured at this width before keeps its
        height unless `force`d or open (an open tool call grows when its result arrives)."""
        painter, width, expanded = self._painter_now(), self._width, self.expanded
        if painter is None or width <= 0:
            return
        for entry in entries:
            if force or entry.measured != width or entry.key in expanded:
                entry.body = painter.measure(entry, width)
                entry.measured = width
            entry.height = entry.pad + entry.body

    def _sync_starts(self) -> None:
        self._starts = list(accumulate((e.height for e in self._entries), initial=0))
        self._sync_size()

    def _sync_size(self) -> None:
        self.virtual_size = Size(self._width, self._starts[-1])

    def _index_of(self, entry: Entry) -> int | None:
        index = self._cursor_index
        if index < len(self._entries) and self._entries[index] is entry:
            return index
        try:
            index = self._entries.index(entry)
        except ValueError:
            return None
        self._cursor_index = index
        return index

    def _anchor(self) -> tuple[Entry, int] | None:
        """The entry at the top of the view and how far into it the view starts."""
        if not self._entries or self.scroll_offset.y <= 0:
            return None
        index = self._entry_at(self.scroll_offset.y)
        if index is None:
            return None
        return self._entries[index], self.scroll_offset.y - self._starts[index]

    def _restore(self, anchor: tuple[Entry, int] | None) -> None:
        """Keep the view on the same content after entries above it changed height."""
        if anchor is None or self.follow:
            return
        entry, offset = anchor
        try:
            index = self._entries.index(entry)
        except ValueError:
            return
        self.scroll_to(y=self._starts[index] + offset, animate=False, immediate=True, force=True)

    # ---------------------------------------------------------------- drawing

    @property
    def _view(self) -> Region:
        """The part of the widget that shows lines (its size less padding and scrollbar),
        known even while the widget is not on screen."""
        return self.size.region.shrink(self.styles.gutter).shrink(self.scrollbar_gutter)

    def _painter_now(self) -> Painter | None:
        if self._painter is None:
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

    def on_resize(self, event: events.Resize) -> None:
        index = self.cursor_index
        view = round(self.scroll_offset.y)
        seen = index is not None and view <= self._starts[index] and self._starts[index + 1] <= view + self._height
        width = self._view.width
        if width != self._width:
            self._relayout(width)
        self._height = self._view.height
        if self.follow:
            self._to_last()
        elif seen:  # a bar that took a line, a smaller terminal: the cursor that was in view stays in view
            self._keep_cursor_in_view()
        self.call_after_refresh(self._make_waiting_moves)  # once laid out: the scrollbar shows where they went

    def _relayout(self, width: int) -> None:
        with self.lock:
            anchor = self._anchor()
            self._width = width
            self._cache.clear()
            self._measure(self._entries)
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
        base = self.rich_style
        if not self._entries:
            return self._placeholder_line(y, width, base)
        index = self._entry_at(line)
        if index is None:
            return Strip.blank(width, base)
        entry = self._entries[index]
        strips = self._strips(entry, width)
        row = line - self._starts[index]
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
        if self.pane_filter is not None and self._messages:
            shown = self.pane_filter.nothing(key_display(self.app, self.BINDINGS, self.pane_filter.binding_id))
        lines = shown.split("\n")
        row = y - self._view.height // 2 + len(lines) // 2  # one line: the middle one
        if not 0 <= row < len(lines):
            return Strip.blank(width, base)
        text = Text(lines[row], style=base + Style(dim=True), justify="center")
        text.align("center", width)
        return Strip(list(text.render(self.app.console)), width).apply_style(base)

    def _entry_at(self, line: int) -> int | None:
        index = bisect_right(self._starts, line) - 1
        return index if 0 <= index < len(self._entries) else None

    def _strips(self, entry: Entry, width: int) -> list[Strip]:
        cached = self._cache.get(entry)
        if cached is not None:
            self._cache.move_to_end(entry)
            return cached
        painter = self._painter_now()
        assert painter is not None
        with self.lock:
            drawn = painter.draw(entry, width, self._turn_of, self._dated(entry))
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
        start, end = self._range_of(entry.top)
        index = next((i for i in range(start, end) if self._entries[i] is entry), None)
        return index is not None and first_of_day(self._entries, index, self.clock)

    def _gutter(self, entry: Entry) -> Text:
        if not entry.depth:
            return Text("  ")
        assert self._palette is not None
        gutter = Text("  ")
        gutter.append("│ " * entry.depth, self._palette.faint)
        return gutter

    def _turn_of(self, header: Entry) -> list[Message]:
        """The messages answered under one assistant header."""
        if header.depth:
            return [header.message]
        turn = [header.message]
        for message in self._messages[header.top + 1 :]:
            if message.kind in QUIET_KINDS:
                continue
            if not continues_turn(message, turn[-1]):
                break
            turn.append(message)
        return turn

    # ---------------------------------------------------------------- cursor

    @property
    def cursor(self) -> Entry | None:
        return self._cursor

    @property
    def cursor_index(self) -> int | None:
        return self._index_of(self._cursor) if self._cursor is not None else None

    def select(self, index: int, *, scroll: bool = True, top: bool = False) -> None:
        """Put the cursor on entry `index` and bring it into view."""
        if not self._entries:
            return
        index = max(0, min(index, len(self._entries) - 1))
        self._end_asked = False  # the cursor moved: a G before this one is done
        previous = self._cursor
        self._cursor, self._cursor_index = self._entries[index], index
        if scroll:
            self._scroll_to_entry(index, top)
        if previous is not self._cursor:
            self.refresh()

    def _scroll_to_entry(self, index: int, top: bool = False) -> None:
        entry = self._entries[index]
        start = self._starts[index] + entry.pad
        end = self._starts[index + 1]
        height = self._view.height
        view = round(self.scroll_offset.y)
        if top or start < view:
            target = start
        elif end > view + height:
            target = start if end - start > height else end - height
        else:
            return
        self.scroll_to(y=max(0, min(target, self._starts[-1] - height)), animate=False, immediate=True, force=True)

    def _wait(self, move: Callable[[], None]) -> bool:
        """Whether a cursor move must wait, kept to be made when it can: the pane has no size yet (hidden on a
        narrow screen, until the key before this one, Enter on a session, say, put it in front), the session is
        being read and no row of it is made yet, or moves typed before it wait still."""
        if self._width and not self._waiting and (self._entries or not self.reading):
            return False
        self._waiting.append(move)
        return True

    def _make_waiting_moves(self) -> None:
        """The cursor moves kept by _wait, made now if they can be."""
        moves, self._waiting = self._waiting, []
        for move in moves:
            move()

    def action_cursor(self, delta: int) -> None:
        if self._wait(lambda: self.action_cursor(delta)):
            return
        self._place_cursor()  # where the focus put it: its Focus may be behind this key (Enter j in one burst)
        index = self.cursor_index
        if index is None:
            self.select(self._first_visible_index() if delta > 0 else self._last_visible_index())
            return
        entry = self._entries[index]
        height = self._view.height
        end = self._starts[index + 1]
        view = round(self.scroll_offset.y)
        if delta > 0 and end > view + height and entry.height > height // 2:
            self.scroll_to(y=view + max(1, height // 2), animate=False, immediate=True, force=True)  # read a tall entry
            return
        if delta > 0 and index == len(self._entries) - 1:
            return  # the end of the last entry is in view: stay (selecting it again would go back to its top)
        self.follow = False
        self.select(index + delta)

    def _first_visible_index(self) -> int:
        return self._entry_at(round(self.scroll_offset.y)) or 0

    def _last_visible_index(self) -> int:
        line = round(self.scroll_offset.y) + self._view.height - 1
        found = self._entry_at(min(line, self._starts[-1] - 1))
        return found if found is not None else 0

    def action_page(self, pages: float) -> None:
        if self._wait(lambda: self.action_page(pages)):
            return
        height = self._view.height
        delta = int(height * pages) or (1 if pages > 0 else -1)
        view = round(self.scroll_offset.y)
        target = max(0, min(view + delta, self._starts[-1] - height))
        self.follow = False
        self.scroll_to(y=target, animate=False, immediate=True, force=True)
        index = self._entry_at(target if delta < 0 or target + height < self._starts[-1] else self._starts[-1] - 1)
        if index is not None:
            self.select(self._paged_to(index, target, height), scroll=False)

    def _paged_to(self, index: int, top: int, height: int) -> int:
        """The entry for the cursor in a view of `height` lines from line `top`, entry `index` there: the next
        one when `index` began above the view and the next begins in it, else `index` (an entry taller than the
        view keeps the cursor while pages go through it, as `j` does, never leaving it on a line off screen)."""
        below = index + 1
        if self._first_line(index) < top and below < len(self._entries) and self._first_line(below) < top + height:
            return below
        return index

    def _first_line(self, index: int) -> int:
        """The first line of entry `index` below its padding."""
        return self._starts[index] + self._entries[index].pad

    def action_first(self) -> None:
        if self._wait(self.action_first):
            return
        self.follow = False
        self.select(0, top=True)
        self.scroll_to(y=0, animate=False, immediate=True, force=True)

    def action_last(self) -> None:
        if not self._wait(self.action_last):
            self._to_last()

    def _to_last(self) -> None:
        """The cursor on the last entry, its end in view (and following resumed, when following is on)."""
        if self.follow_mode:
            self.follow = True  # End resumes following
        if not self._entries:
            return
        last = len(self._entries) - 1
        if self.follow_mode and self._main_end < len(self._messages):  # the newest message, not a subagent after it
            last = max(0, bisect_left(self._entries, self._main_end, key=lambda e: e.top) - 1)
        self.select(last, scroll=False)
        bottom = self._starts[last + 1]
        self.scroll_to(y=max(0, bottom - self._view.height), animate=False, immediate=True, force=True)
        self._end_asked = self.reading  # the read goes on: so does G, to the real end (its row may be rebuilt)

    # ---------------------------------------------------------------- expanding

    def action_toggle(self) -> None:
        entry = self._cursor
        if entry is None:
            return
        if entry.expandable:
            self.set_expanded(entry, entry.key not in self.expanded)
        else:
            self.action_open()

    def action_expand(self) -> None:
        if self._cursor is not None and self._cursor.expandable:
            self.set_expanded(self._cursor, True)

    def action_collapse(self) -> None:
        entry = self._cursor
        if entry is None:
            return
        if entry.expandable and entry.key in self.expanded:
            self.set_expanded(entry, False)
            return
        if entry.depth:  # go up to the call (or the marker) that holds this subagent entry
            index = self.cursor_index or 0
            for up in range(index - 1, -1, -1):
                if self._entries[up].depth < entry.depth and self._entries[up].kind in ("tool", "agent"):
                    self.select(up)
                    return

    def set_expanded(self, entry: Entry, expanded: bool) -> None:
        """Open or close an entry (a tool call, thinking, a compaction summary)."""
        with self.lock:
            if expanded:
                self.expanded.add(entry.key)
            else:
                self.expanded.discard(entry.key)
            self._cache.pop(entry, None)
            if entry.kind == "agent":
                self._replace_from(entry.top, self._messages)
            elif (entry.call is not None and entry.call.subagents) or (entry.kind == "compact" and entry.message.agent):
                self._resplice(entry.top)
            else:
                self._measure([entry], force=True)
                self._sync_starts()
        index = self._index_of(entry)
        if index is not None and entry is self._cursor:
            self._scroll_to_entry(index, top=entry.kind == "agent" and expanded)  # an opened marker: what it holds too
        self.refresh()

    def action_toggle_thinking(self) -> None:
        self._all_thinking = not self._all_thinking
        with self.lock:
            thinking = [e for e in self._entries if e.kind == "thinking" and e.expandable]
            for entry in thinking:
                (self.expanded.add if self._all_thinking else self.expanded.discard)(entry.key)
                self._cache.pop(entry, None)
            self._measure(thinking, force=True)
            self._sync_starts()
        self.refresh()
        self._keep_cursor_in_view()
        self.notify("Thinking expanded" if self._all_thinking else "Thinking collapsed", timeout=1.5)

    def action_toggle_quiet(self) -> None:
        self.hide_quiet = not self.hide_quiet
        self.notify("Dim rows hidden" if self.hide_quiet else "Dim rows shown", timeout=1.5)

    def watch_hide_quiet(self) -> None:
        self._rebuild()
        self._keep_cursor_in_view()

    def _keep_cursor_in_view(self) -> None:
        index = self.cursor_index
        if index is not None:
            self._scroll_to_entry(index)

    # ---------------------------------------------------------------- jumping

    def action_jump(self, what: str, direction: int) -> None:
        """Go to the next (or previous) prompt, error, compaction or fork; one that the pane filter hides is
        shown with everything."""
        if any(map(self._go_to, self._jump_targets(self._entries, self.cursor_index, what, direction))):
            return
        if self.pane_filter is not None:
            with self.lock:
                everything = self._build_range(0, len(self._messages), everything=True)
            start = next((i for i, e in enumerate(everything) if e is self._cursor), None)
            hidden = next(self._jump_targets(everything, start, what, direction), None)
            if hidden is not None:
                self.unfilter(what)
                self._go_to(hidden)
                return
        self.notify(f"No {'next' if direction > 0 else 'previous'} {what}", timeout=1.5)

    def _jump_targets(
        self, entries: list[Entry], start: int | None, what: str, direction: int
    ) -> Iterator[Entry | tuple[Message, ToolCall | None]]:
        """What a jump to `what` may land on in `entries` after (or before) entry `start`, nearest first: an
        entry, or an error in a collapsed subagent (its message and call)."""
        test = _JUMPS[what]
        if start is None:
            start = -1 if direction > 0 else len(entries)
        for index in range(start + 1, len(entries)) if direction > 0 else range(start - 1, -1, -1):
            entry = entries[index]
            if test(entry):
                yield entry
            call = entry.call
            if what == "error" and call is not None and call.subagents and call not in self.expanded:
                for sub in call.subagents if direction > 0 else reversed(call.subagents):
                    inside = _error_in(sub, last=direction < 0)  # a collapsed subagent: open it there
                    if inside is not None:
                        yield inside
                        break

    def _go_to(self, target: Entry | tuple[Message, ToolCall | None]) -> bool:
        """Select a jump's target (an entry, or a message in a subagent and its call); whether it could be shown."""
        if not isinstance(target, Entry):
            return self.reveal(*target)
        index = self._index_of(target)
        if index is None:
            return False
        self.follow = False
        self.select(index, top=True)
        return True

    def action_branch(self, delta: int) -> None:
        """Read the next or previous branch of the fork at (or above) the cursor."""
        fork = self._fork_near()
        if fork is None or self.session is None:
            self.notify("No fork here", timeout=1.5)
            return
        with self.lock:
            index = self.session.branch_of(fork)
            self.session.choose_branch(fork, index + delta)
            chosen = fork.heads[self.session.branch_of(fork)]
        self._rebuild()
        for at, entry in enumerate(self._entries):
            if entry.kind == "fork" and entry.message is chosen:
                self.select(at, top=True)
                break
        self.notify(f"Branch {fork.heads.index(chosen) + 1} of {len(fork.heads)}", timeout=1.5)

    def _fork_near(self) -> Fork | None:
        index = self.cursor_index
        if index is None:
            return None
        for at in range(index, -1, -1):
            entry = self._entries[at]
            if entry.kind == "fork" and entry.message.fork is not None:
                return entry.message.fork
        for entry in self._entries[index:]:
            if entry.kind == "fork" and entry.message.fork is not None:
                return entry.message.fork
        return None

    # ---------------------------------------------------------------- opening, finding

    def action_open(self) -> None:
        entry = self._cursor
        if entry is not None:
            self.post_message(self.OpenRequested(entry.message, entry.call))

    def reveal(
        self, message: Message, call: ToolCall | None = None, *, block: Block | None = None, highlight: bool = True
    ) -> bool:
        """Bring `message` (or its `call`, or its `block`) into view and select it, opening the subagent
        calls that hold it and switching to the branches that lead to it (and saying so). Returns False
        when it has no row: filtered out, say."""
        with self.lock:
            chain: list[ToolCall] = []
            switched = False
            held, owner = message, _session_of(message, self.session)
            while owner is not None:
                switched = owner.choose_branches_to(held) or switched
                if owner.parent_call is None:
                    break
                chain.append(owner.parent_call)
                held = owner.parent_call.message
                owner = _session_of(held, self.session)
            if switched:
                self._rebuild()
                self.notify("Switched to the branch that holds this message", timeout=3)
            top_message = chain[-1].message if chain else message
            top = self._top_of(top_message)
            if top is None:
                return False
            if top >= self._main_end:  # in a subagent that no call started: its marker opens
                first = self._marker_of(top)
                if self._messages[first] not in self.expanded:
                    self.expanded.add(self._messages[first])
                    self._replace_from(first, self._messages)
            if chain:
                self.expanded.update(chain)
                self._resplice(top)
            start, end = self._range_of(top)
            mine = [i for i in range(start, end) if self._entries[i].message is message]
            if not mine:
                return False
            # the row of `call` or `block`; a block with no row of its own (an API error's text, on its error row)
            # is on the message's first row under its header
            rows = [i for i in mine if self._entries[i].kind != "header"] or mine
            target = next(
                (
                    i
                    for i in mine
                    if (call is None or self._entries[i].call is call)
                    and (block is None or self._entries[i].block is block)
                ),
                rows[0] if block is not None else mine[0],
            )
            first = mine[0]  # its header too, when both fit
            fits = self._starts[target + 1] - self._starts[first] - self._entries[first].pad <= self._view.height
        if highlight:
            self.highlighted = {message}
        self.follow = False
        self.select(target, scroll=False)
        self._scroll_to_entry(first if fits else target, top=True)
        self.refresh()
        return True

    def drawn(self, entry: Entry) -> list[Strip]:
        """The lines of `entry` as drawn at the current width (blank lines above included)."""
        return self._strips(entry, self._width)

    def show_line(self, index: int, row: int) -> None:
        """Select entry `index` and scroll its line `row` into view, a third of the way down when it was out."""
        self.follow = False
        self.select(index, scroll=False)
        line = self._starts[index] + row
        height = self._view.height
        view = round(self.scroll_offset.y)
        if not view <= line < view + height:
            target = max(0, min(line - height // 3, self._starts[-1] - height))
            self.scroll_to(y=target, animate=False, immediate=True, force=True)
        self.refresh()

    def action_find(self, step: int) -> None:
        self.post_message(self.FindRequested(step))

    def action_only(self, what: str) -> None:
        """Show only prompts, only errors, or only the calls of the tool under the cursor (again: everything)."""
        call = self._cursor.call if self._cursor is not None else None
        if what == "tool" and call is None:
            if self.pane_filter is not None and self.pane_filter.what == "tool":
                self.set_pane_filter(None)
            else:
                self.notify("Put the cursor on a tool call first (or pick a tool in the palette)", timeout=2)
            return
        wanted = PaneFilter(what, call.name if what == "tool" and call is not None else None)
        self.set_pane_filter(None if wanted == self.pane_filter else wanted)

    def unfilter(self, hidden: str) -> None:
        """Show everything: the pane filter hid the `hidden` thing asked for (a match, the next error), say so."""
        self.set_pane_filter(None)
        self.notify(f"The pane filter hid this {hidden}: showing everything", timeout=2)

    def set_pane_filter(self, pane_filter: PaneFilter | None) -> None:
        """Show only what `pane_filter` keeps (None: everything)."""
        self.pane_filter = pane_filter
        self._rebuild()
        if self.has_focus:
            self._place_cursor()
        self._keep_cursor_in_view()
        self.post_message(self.Filtered(pane_filter))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self._entry_at(round(self.scroll_offset.y) + offset.y)
        if index is None:
            return
        again = self._cursor is self._entries[index]
        self.select(index, scroll=False)
        entry = self._entries[index]
        if entry.expandable:
            self.set_expanded(entry, entry.key not in self.expanded)
        elif again or event.chain > 1:
            self.action_open()

    def on_mouse_scroll_up(self) -> None:
        self.follow = False  # reading above: following pauses
        self._end_asked = False

    def on_mouse_scroll_down(self) -> None:
        self._end_asked = False  # the user scrolls: a G pressed before is done

    def on_focus(self) -> None:
        self._place_cursor()
        self.refresh()

    def _place_cursor(self) -> None:
        """The cursor, if there is none, on the first entry in view (where the pane's focus puts it)."""
        if self._cursor is None and self._entries:
            self.select(self._first_visible_index(), scroll=False)

    def on_blur(self) -> None:
        self.refresh()

    @property
    def messages(self) -> list[Message]:
        """The top-level messages shown, in order."""
        return self._messages

    @property
    def entries(self) -> list[Entry]:
        return self._entries


def _common_prefix(old: list[Message], new: list[Message]) -> int:
    """How many messages `old` and `new` share at their start (list comparisons run in C)."""
    low, high = 0, min(len(old), len(new))
    if old[:high] == new[:high]:
        return high
    while low < high:  # old[:low] == new[:low], old[:high + 1] != new[:high + 1]
        middle = (low + high + 1) // 2
        if old[:middle] == new[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _no_messages(session: Session, most: int = 8) -> str:
    """Why the pane is empty: no messages, and the problems found instead (in the header's words)."""
    problems = session.all_problems()
    if not problems:
        return "This session has no messages"
    lines = [f"⚠ line {p.line_no}: {one_line(p.message, 200)}" for p in problems[:most]]
    if len(problems) > most:
        lines.append(f"… and {len(problems) - most} more")
    return "\n".join([f"This session has no messages, only {damage(len(problems), session.malformed_lines)}:", *lines])


def _identity(entry: Entry) -> tuple[object, ...]:
    return (entry.kind, id(entry.message), id(entry.block or entry.problem), entry.depth)


def _reuse(entry: Entry, pool: dict[tuple[object, ...], Entry]) -> Entry:
    """The entry built before for the same thing (keeping its height and drawing), updated; else `entry`,
    kept in `pool` for next time."""
    key = _identity(entry)
    old = pool.get(key)
    if old is None:
        pool[key] = entry
        return entry
    old.top, old.pad = entry.top, entry.pad
    return old


def _line_of(message: Message) -> int:
    return message.span.line_no if message.span is not None else 0


def _merge(pending: Update | None, update: Update) -> Update:
    """Two reads' changes as one (the UI applies them together when it falls behind)."""
    if pending is None or update.started_over:
        return update
    pending.added += update.added
    pending.changed.update(update.changed)
    pending.threads_changed |= update.threads_changed
    pending.damaged |= update.damaged
    return pending


def _session_of(message: Message, root: Session | None) -> Session | None:
    """The session (the root or one of its subagents, at any depth) that holds `message`."""
    if root is None:
        return None
    stack = [root]
    while stack:
        session = stack.pop()
        if session.messages and message.index < len(session.messages) and session.messages[message.index] is message:
            return session
        stack.extend(session.subagents)
    return None


def _error_in(session: Session, last: bool) -> tuple[Message, ToolCall | None] | None:
    """The first (or `last`) failed call or API error in `session`, in its subagents' too."""
    found: list[tuple[int, Message, ToolCall | None]] = [
        (m.index, m, None) for m in session.messages if m.kind is Kind.API_ERROR
    ]
    for call in session.calls.values():
        if call.status == "error":
            found.append((call.message.index, call.message, call))
        else:
            found += [(call.message.index, *inside) for sub in call.subagents if (inside := _error_in(sub, last))]
    pick = max if last else min
    return pick(found, key=lambda f: f[0])[1:] if found else None


_JUMPS: dict[str, Callable[[Entry], bool]] = {
    "prompt": lambda e: e.kind == "header" and e.depth == 0 and e.message.kind is Kind.PROMPT,
    "error": is_error,
    "compaction": lambda e: e.kind in ("compact", "summary") and e.depth == 0,
    "fork": lambda e: e.kind == "fork",
}
