"""The conversation pane's navigation: the cursor's moves, jumps, branches, opening and closing, the pane filter.

A move typed before the pane can make it (no size yet, no row read yet) waits and is made when it can, in order.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events

from claude_tui.core.model import Block, Fork, Message, ToolCall
from claude_tui.ui.clock import Clock
from claude_tui.ui.filters import PaneFilter
from claude_tui.ui.widgets.conversation.drawing import DrawnView
from claude_tui.ui.widgets.conversation.entries import Entry
from claude_tui.ui.widgets.conversation.entry_list import jump_targets, session_of
from claude_tui.ui.widgets.conversation.messages import Filtered, OpenRequested


class NavigableView(DrawnView):
    """The pane's cursor and what the user does with it."""

    def __init__(
        self, clock: Clock | None = None, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(clock, name=name, id=id, classes=classes)
        self._waiting: list[Callable[[], None]] = []  #: cursor moves that could not be made yet (see _wait)
        self._all_thinking = False

    def on_resize(self, event: events.Resize) -> None:
        index = self.cursor_index
        view = round(self.scroll_offset.y)
        starts = self.rows.starts
        seen = index is not None and view <= starts[index] and starts[index + 1] <= view + self._height
        width = self._view.width
        if width != self._width:
            self._relayout(width)
        self._height = self._view.height
        if self.follow:
            self._to_last()
        elif seen:  # a bar that took a line, a smaller terminal: the cursor that was in view stays in view
            self._keep_cursor_in_view()
        self.call_after_refresh(self._make_waiting_moves)  # once laid out: the scrollbar shows where they went

    def _wait(self, move: Callable[[], None]) -> bool:
        """Whether a cursor move must wait, kept to be made when it can: the pane has no size yet (hidden on a
        narrow screen, until the key before this one, Enter on a session, say, put it in front), the session is
        being read and no row of it is made yet, or moves typed before it wait still."""
        if self._width and not self._waiting and (self.rows.entries or not self.reading):
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
        entry = self.rows.entries[index]
        height = self._view.height
        end = self.rows.starts[index + 1]
        view = round(self.scroll_offset.y)
        if delta > 0 and end > view + height and entry.height > height // 2:
            self.scroll_to(y=view + max(1, height // 2), animate=False, immediate=True, force=True)  # read a tall entry
            return
        if delta > 0 and index == len(self.rows.entries) - 1:
            return  # the end of the last entry is in view: stay (selecting it again would go back to its top)
        self.follow = False
        self.select(index + delta)

    def _first_visible_index(self) -> int:
        return self.rows.entry_at(round(self.scroll_offset.y)) or 0

    def _last_visible_index(self) -> int:
        line = round(self.scroll_offset.y) + self._view.height - 1
        found = self.rows.entry_at(min(line, self.rows.starts[-1] - 1))
        return found if found is not None else 0

    def action_page(self, pages: float) -> None:
        if self._wait(lambda: self.action_page(pages)):
            return
        height = self._view.height
        delta = int(height * pages) or (1 if pages > 0 else -1)
        view = round(self.scroll_offset.y)
        target = max(0, min(view + delta, self.rows.starts[-1] - height))
        self.follow = False
        self.scroll_to(y=target, animate=False, immediate=True, force=True)
        total = self.rows.total
        index = self.rows.entry_at(target if delta < 0 or target + height < total else total - 1)
        if index is not None:
            self.select(self._paged_to(index, target, height), scroll=False)

    def _paged_to(self, index: int, top: int, height: int) -> int:
        """The entry for the cursor in a view of `height` lines from line `top`, entry `index` there: the next
        one when `index` began above the view and the next begins in it, else `index` (an entry taller than the
        view keeps the cursor while pages go through it, as `j` does, never leaving it on a line off screen)."""
        below = index + 1
        rows = self.rows
        if rows.first_line(index) < top and below < len(rows.entries) and rows.first_line(below) < top + height:
            return below
        return index

    def action_first(self) -> None:
        if self._wait(self.action_first):
            return
        self.follow = False
        self.select(0, top=True)
        self.scroll_to(y=0, animate=False, immediate=True, force=True)

    def action_last(self) -> None:
        if not self._wait(self.action_last):
            self._to_last()

    def action_toggle_entry(self) -> None:
        """Open or close the entry under the cursor; one that does not open is shown in full."""
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
                if self.rows.entries[up].depth < entry.depth and self.rows.entries[up].kind in ("tool", "agent"):
                    self.select(up)
                    return

    def set_expanded(self, entry: Entry, expanded: bool) -> None:
        """Open or close an entry (a tool call, thinking, a compaction summary)."""
        with self.session_lock:
            if expanded:
                self.expanded.add(entry.key)
            else:
                self.expanded.discard(entry.key)
            self._cache.pop(entry, None)
            if entry.kind == "agent":
                self._replace_from(entry.top, self.rows.messages)
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
        with self.session_lock:
            thinking = [e for e in self.rows.entries if e.kind == "thinking" and e.expandable]
            for entry in thinking:
                (self.expanded.add if self._all_thinking else self.expanded.discard)(entry.key)
                self._cache.pop(entry, None)
            self._measure(thinking, force=True)
            self._sync_starts()
        self.refresh()
        self._keep_cursor_in_view()
        self.notify("Thinking expanded" if self._all_thinking else "Thinking collapsed", timeout=1.5)

    def action_jump(self, what: str, direction: int) -> None:
        """Go to the next (or previous) prompt, error, compaction or fork; one that the pane filter hides is
        shown with everything."""
        if any(map(self._go_to, jump_targets(self.rows.entries, self.cursor_index, what, direction, self.expanded))):
            return
        if self.pane_filter is not None:
            with self.session_lock:
                everything = self._build_range(0, len(self.rows.messages), everything=True)
            start = next((i for i, e in enumerate(everything) if e is self._cursor), None)
            hidden = next(jump_targets(everything, start, what, direction, self.expanded), None)
            if hidden is not None:
                self.unfilter(what)
                self._go_to(hidden)
                return
        self.notify(f"No {'next' if direction > 0 else 'previous'} {what}", timeout=1.5)

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
        with self.session_lock:
            index = self.session.branch_of(fork)
            self.session.choose_branch(fork, index + delta)
            chosen = fork.heads[self.session.branch_of(fork)]
        self._rebuild()
        for at, entry in enumerate(self.rows.entries):
            if entry.kind == "fork" and entry.message is chosen:
                self.select(at, top=True)
                break
        self.notify(f"Branch {fork.heads.index(chosen) + 1} of {len(fork.heads)}", timeout=1.5)

    def _fork_near(self) -> Fork | None:
        index = self.cursor_index
        if index is None:
            return None
        for at in range(index, -1, -1):
            entry = self.rows.entries[at]
            if entry.kind == "fork" and entry.message.fork is not None:
                return entry.message.fork
        for entry in self.rows.entries[index:]:
            if entry.kind == "fork" and entry.message.fork is not None:
                return entry.message.fork
        return None

    def action_open(self) -> None:
        entry = self._cursor
        if entry is not None:
            self.post_message(OpenRequested(entry.message, entry.call))

    def reveal(
        self, message: Message, call: ToolCall | None = None, *, block: Block | None = None, highlight: bool = True
    ) -> bool:
        """Bring `message` (or its `call`, or its `block`) into view and select it, opening the subagent
        calls that hold it and switching to the branches that lead to it (and saying so). Returns False
        when it has no row: filtered out, say."""
        with self.session_lock:
            chain: list[ToolCall] = []
            switched = False
            held, owner = message, session_of(message, self.session)
            while owner is not None:
                switched = owner.choose_branches_to(held) or switched
                if owner.parent_call is None:
                    break
                chain.append(owner.parent_call)
                held = owner.parent_call.message
                owner = session_of(held, self.session)
            if switched:
                self._rebuild()
                self.notify("Switched to the branch that holds this message", timeout=3)
            top_message = chain[-1].message if chain else message
            top = self.rows.top_of(top_message)
            if top is None:
                return False
            if top >= self.rows.main_end:  # in a subagent that no call started: its marker opens
                first = self.rows.marker_of(top)
                if self.rows.messages[first] not in self.expanded:
                    self.expanded.add(self.rows.messages[first])
                    self._replace_from(first, self.rows.messages)
            if chain:
                self.expanded.update(chain)
                self._resplice(top)
            start, end = self.rows.range_of(top)
            mine = [i for i in range(start, end) if self.rows.entries[i].message is message]
            if not mine:
                return False
            # the row of `call` or `block`; a block with no row of its own (an API error's text, on its error row)
            # is on the message's first row under its header
            rows = [i for i in mine if self.rows.entries[i].kind != "header"] or mine
            target = next(
                (
                    i
                    for i in mine
                    if (call is None or self.rows.entries[i].call is call)
                    and (block is None or self.rows.entries[i].block is block)
                ),
                rows[0] if block is not None else mine[0],
            )
            first = mine[0]  # its header too, when both fit
            fits = self.rows.starts[target + 1] - self.rows.first_line(first) <= self._view.height
        if highlight:
            self.highlighted = {message}
        self.follow = False
        self.select(target, scroll=False)
        self._scroll_to_entry(first if fits else target, top=True)
        self.refresh()
        return True

    def show_line(self, index: int, row: int) -> None:
        """Select entry `index` and scroll its line `row` into view, a third of the way down when it was out."""
        self.follow = False
        self.select(index, scroll=False)
        line = self.rows.starts[index] + row
        height = self._view.height
        view = round(self.scroll_offset.y)
        if not view <= line < view + height:
            target = max(0, min(line - height // 3, self.rows.starts[-1] - height))
            self.scroll_to(y=target, animate=False, immediate=True, force=True)
        self.refresh()

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
        self.post_message(Filtered(pane_filter))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self.rows.entry_at(round(self.scroll_offset.y) + offset.y)
        if index is None:
            return
        again = self._cursor is self.rows.entries[index]
        self.select(index, scroll=False)
        entry = self.rows.entries[index]
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
        if self._cursor is None and self.rows.entries:
            self.select(self._first_visible_index(), scroll=False)

    def on_blur(self) -> None:
        self.refresh()
