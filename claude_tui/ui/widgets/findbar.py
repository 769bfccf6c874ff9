"""Finding text in the open session: the find bar under the conversation, and the pane filter's note.

`/` opens the bar. Matches are highlighted on screen as you type (on the lines drawn,
through the pane's `marker`), while a thread worker counts them through the whole
session, collapsed parts and subagents included, from the cursor on and then from the
top: a search of a 100 MB session streams its matches and is cancelled by the next key.
Enter jumps to the first match at or after the cursor, opening what hides it; n and N
go on from there.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message as TextualMessage
from textual.strip import Strip
from textual.timer import Timer
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from claude_tui.core.find import MAX_HITS, Hit, Query, find
from claude_tui.core.model import Message
from claude_tui.core.session import Session
from claude_tui.core.source import full_output
from claude_tui.ui.bindings import key_display
from claude_tui.ui.filters import PaneFilter
from claude_tui.ui.highlight import highlight, match_cells, match_styles
from claude_tui.ui.widgets.conversation import ConversationView
from claude_tui.ui.widgets.conversation.entries import Entry

#: Seconds between two batches of matches sent to the screen while a search runs.
BATCH_SECONDS = 0.05
#: Seconds between two counts of a session that grows while the bar shows (at least: and twice what the
#: last count took).
RECOUNT_EVERY = 1.0


@dataclass(slots=True)
class Match:
    """A hit, and how the count found it: going down from the message it started from (down), going up from
    it (up), or on a branch not being read (elsewhere)."""

    hit: Hit
    side: str  #: down, up, elsewhere; or more: one past those held, which says the count is capped

    @property
    def message(self) -> Message:
        """The message shown for it: the subagent's own message for a hit inside a subagent."""
        return self.hit.part.nested or self.hit.message

    @property
    def place(self) -> tuple[int, int, int | None]:
        """What entry of the pane shows it: matches with one place are drawn in one entry."""
        part = self.hit.part
        return id(self.message), id(part.tool), None if part.tool is not None else part.block

    @property
    def key(self) -> tuple[object, ...]:
        """The same for the same match found by another search of the session."""
        return self.hit.message.index, *self.place, self.hit.part.where, self.hit.start

    @property
    def order(self) -> tuple[bool, int, int, int]:
        """Where it lies in the pane (those on other branches after all the pane shows)."""
        return self.side == "elsewhere", *self.hit.order


@dataclass(slots=True)
class Count:
    """One count of the query in a session: what it was made in, and the matches found so far.

    The matches held are those nearest where it started (MAX_HITS at most): capped, the ones left out lie
    between the last found going down and the last found going up."""

    session: Session | None = None
    version: int = -1  #: the session's version when the count started
    partial: bool = False  #: the session had not been read whole yet
    started: float = 0.0  #: when the count started (time.monotonic)
    start: Message | None = None  #: the message it started from
    down: list[Match] = field(default_factory=list)  #: from there on, past the end to the top, in order
    up: list[Match] = field(default_factory=list)  #: going up from there, past the top to the end, nearest first
    elsewhere: list[Match] = field(default_factory=list)  #: matches on the branches not being read, in order
    done: bool = True
    capped: bool = False  #: more matches on this branch than are held
    moved: bool = False  #: a jump switched branches since: the order stands, but the places are another pane's
    _ordered: list[Match] | None = None

    @property
    def here(self) -> int:
        """How many matches of the branch being read are held."""
        return len(self.down) + len(self.up)

    @property
    def ordered(self) -> list[Match]:
        """Every match held in the pane's order, then those of the other branches: the round n goes."""
        if self._ordered is None:
            self._ordered = sorted(self.down + self.up + self.elsewhere, key=lambda match: match.order)
        return self._ordered

    def crosses(self, match: Match, step: int) -> bool:
        """Whether going `step` from `match` passes over the matches not held."""
        return self.capped and match.key == (self.down[-1] if step > 0 else self.up[-1]).key

    def numbered(self, match: Match) -> bool:
        """Whether `match` is known to be that match of the branch, counting from its first: capped, when
        the first is held (the top lies between where the count started and those left out) and up to them."""
        if not self.capped:
            return True
        gap = self.down[-1].order
        return gap < self.up[-1].order and match.order <= gap

    def add(self, matches: list[Match]) -> None:
        self._ordered = None
        sides = dict(down=self.down, up=self.up, elsewhere=self.elsewhere)
        for match in matches:
            if match.side == "more":
                self.capped = True
            else:
                sides[match.side].append(match)


def nearest(down: Iterator[Hit], up: Iterator[Hit], others: Iterator[Hit], limit: int) -> Iterator[Match]:
    """The matches to hold, from the hits going `down` from where the count starts and going `up` from
    there: half of `limit` going down; when that cut it short, going up until it meets them; then those on
    the other branches; `limit` in all. One more going up, past those held, says the count is capped."""
    held, last = 0, None
    for hit in islice(down, limit // 2):
        held, last = held + 1, hit.order
        yield Match(hit, "down")
    if held == limit // 2:
        for hit in up:
            if hit.order == last:
                break
            if held == limit:
                yield Match(hit, "more")
                return
            held += 1
            yield Match(hit, "up")
    for hit in islice(others, limit - held):
        yield Match(hit, "elsewhere")


class FindInput(Input):
    """The query box: Enter jumps, Escape closes, ctrl+r switches regular expressions on and off."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "jump", "Jump", id="find.jump", key_display="⏎"),
        Binding("down", "step(1)", "Next", id="find.next", key_display="↓"),
        Binding("up", "step(-1)", "Previous", id="find.previous", key_display="↑"),
        Binding("ctrl+r", "regex", "Regex", id="find.regex"),
        Binding("escape", "close", "Close", id="find.close"),
    ]

    @property
    def bar(self) -> FindBar:
        assert isinstance(self.parent, FindBar)
        return self.parent

    def action_jump(self) -> None:
        self.bar.step(0)

    def action_step(self, step: int) -> None:
        self.bar.step(step, focus=False)

    def action_regex(self) -> None:
        self.bar.toggle_regex()

    def action_close(self) -> None:
        self.bar.close()

    async def _on_key(self, event: events.Key) -> None:
        """Escape closes at once (as a binding it would run after the keys typed next had reached the box);
        keys typed after it, already on their way here, go to what has the focus now."""
        if event.key == "escape" and self.bar.active:
            event.stop()
            event.prevent_default()
            self.bar.close()
        elif self.screen.focused is not self:
            event.stop()
            event.prevent_default()
            self.app.post_message(events.Key(event.key, event.character))
        else:
            await super()._on_key(event)


class FindBar(Horizontal):
    """One line under the conversation: the query, the regex switch, and "match 3 of 17"."""

    DEFAULT_CSS = """
    FindBar {
        display: none;
        height: 1;
        background: $boost;
        &.-active { display: block; }
        & > #find-label { width: auto; padding: 0 1 0 2; color: $text-muted; }
        & > FindInput { width: 1fr; }
        & > #find-regex { width: auto; padding: 0 1; color: $text-muted; }
        & > #find-regex.-on { color: $accent; text-style: bold; }
        & > #find-status { width: auto; max-width: 60%; padding: 0 2 0 1; color: $text-muted; }
        & > #find-status.-error { color: $error; }
    }
    """

    class Found(TextualMessage):
        """A batch of matches from the search numbered `token` (`done`: the last one)."""

        def __init__(self, token: int, matches: list[Match], done: bool) -> None:
            super().__init__()
            self.token, self.matches, self.done = token, matches, done

    def __init__(self, view: ConversationView, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view = view
        self.query_: Query | None = None
        self.error: str | None = None
        self.regex = False
        self._given: tuple[str, Query] | None = None  #: a search hit's words as the box shows them, and its query
        self._searched: tuple[str, bool] = ("", False)  #: the text and regex switch `query_` was made from
        self._token = 0
        self._count = Count()  #: the matches shown and gone through
        self._fresh: Count | None = None  #: a count of the session that grew, under way: `_count` stands until done
        self._recount_timer: Timer | None = None
        self._took = 0.0  #: seconds the last count took
        self._current: Match | None = None
        self._pending: int | None = None  #: a jump asked for before its match was found
        self._aim: tuple[int, int, int | None] | None = None  #: the place the next first jump prefers
        self._mark: tuple[Entry, int, int] | None = None  #: where the current match is drawn: entry, row, cell
        self._landed: Entry | None = None  #: the entry the last jump put the cursor on (drawn there or not)
        self._nth = 0  #: which of the matches in that entry is the current one
        self._styles = (Style(), Style())

    def compose(self) -> ComposeResult:
        yield Static("Find", id="find-label")
        yield FindInput(placeholder="text in this session (collapsed parts and subagents too)", compact=True)
        yield Static(".*", id="find-regex")
        yield Static("", id="find-status")

    @property
    def input(self) -> FindInput:
        return self.query_one(FindInput)

    @property
    def active(self) -> bool:
        return self.has_class("-active")

    @property
    def done(self) -> bool:
        """Whether the matches shown are counted to the end."""
        return self._count.done

    @property
    def _latest(self) -> Count:
        """The count started last: the recount under way, else the one shown."""
        return self._fresh or self._count

    # ---------------------------------------------------------------- opening and closing

    def open(self) -> None:
        """Show the bar and put the cursor in it (the last query kept, ready to be typed over)."""
        self._styles = match_styles(self.app)
        self._show(True)
        box = self.input
        self.screen.set_focus(box)  # at once, not after the keys already queued: those are sent to the box
        box.select_all()
        if box.value and self.view.marker is None:
            self._search()

    def seek(self, query: Query, shown: str) -> None:
        """Show the bar with `shown` in it, find `query` and go to its first match from the cursor on; the
        conversation keeps the focus (a search hit opened: its words as typed, found as the index found them)."""
        self._styles = match_styles(self.app)
        self._show(True)
        self._set_regex(False)
        self._given = (shown, query)
        self.input.value = shown
        self._search()
        entry = self.view.cursor
        self._aim = None if entry is None else _place_of(entry)
        self.step(0)

    def close(self) -> None:
        """Hide the bar and its highlights; the conversation takes the focus (n and N bring them back)."""
        self._show(False)
        if not self._count.done or self._fresh is not None:
            self._token += 1
            self._fresh = None
            self.workers.cancel_group(self, "find")
            self._count.session = None  # counted again when the bar comes back
        self.view.marker = None
        self._mark = None
        self.view.refresh()
        self.screen.set_focus(self.view)  # at once: keys typed next are the conversation's, not the box's

    def _show(self, shown: bool) -> None:
        """Show or hide the bar; while it shows, notices rise above it (`-finding` in app.tcss)."""
        self.set_class(shown, "-active")
        self.screen.set_class(shown, "-finding")

    def toggle_regex(self) -> None:
        self._set_regex(not self.regex)
        self._search()

    def _set_regex(self, on: bool) -> None:
        self.regex = on
        self.query_one("#find-regex").set_class(on, "-on")

    def on_click(self, event: events.Click) -> None:
        if event.widget is not None and event.widget.id == "find-regex":
            self.toggle_regex()

    # ---------------------------------------------------------------- searching

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._catch_up()

    def _catch_up(self) -> None:
        """Search the box's text unless it is what was last searched: an Enter typed right after the query
        comes before the box's changes, which then find it done."""
        if (self.input.value, self.regex) != self._searched:
            self._search()

    def _search(self, again: bool = False) -> None:
        """Start again for the query in the box: highlight at once, count in the background
        (`again`: the same query in a session that changed; the current match stays current)."""
        self._token += 1
        self._count, self._fresh, self._pending = Count(), None, None
        if not again:
            self._current, self._mark, self._landed, self._aim = None, None, None, None
        text = self.input.value
        self._searched = (text, self.regex)
        self.query_, self.error = self._given_for(text), None
        if self.query_ is None and text:
            try:
                self.query_ = Query(text, self.regex)
            except re.error as exc:  # the first clause: "missing )" of "missing ), unterminated subpattern"
                self.error = f"bad regex: {exc.msg.split(',')[0]}"
            except (RecursionError, OverflowError):
                self.error = "bad regex: too complex"
        view = self.view
        view.marker = self._marker if self.query_ is not None else None
        view.refresh()
        session = view.session
        if self.query_ is not None and session is not None:
            self._count = self._start_count(self.query_, session)
        self._show_status()

    def _given_for(self, text: str) -> Query | None:
        """The query of a search hit while the box shows its words as `seek` put them there."""
        if self._given is not None and (text, self.regex) != (self._given[0], False):
            self._given = None  # typed over, or made a regular expression: the box's text is the query now
        return self._given[1] if self._given is not None else None

    def _start_count(self, query: Query, session: Session) -> Count:
        """Count `query` in what the pane holds of `session` now, in the background."""
        view = self.view
        with view.session_lock:
            messages, others = list(view.messages), session.other_branches()
            start = self._start_index(messages)
            top = messages[start] if start < len(messages) else None
            count = Count(session, session.version, not view.read_whole, time.monotonic(), top, done=False)
        self._scan(self._token, query, session, messages, start, others)
        return count

    def _recount(self) -> None:
        """Count again in the session that grew; the matches found before stand until it is done. A count
        under way is not cut short (at a thousand records a second, none would ever end): this one follows."""
        session = self.view.session
        if self.query_ is None or session is None:
            return
        if not self._count.done or self._fresh is not None:
            self._recount_later()
            return
        self._token += 1
        self._fresh = self._start_count(self.query_, session)

    def _recount_later(self) -> None:
        if self._recount_timer is None:
            self._recount_timer = self.set_timer(max(RECOUNT_EVERY, 2 * self._took), self._recount_due)

    def _recount_due(self) -> None:
        self._recount_timer = None
        if self.active and self._grew(self.view.session):
            self._recount()

    def _grew(self, session: Session | None) -> bool:
        """Whether `session` is the one counted, and changed since."""
        latest = self._latest
        return session is not None and latest.session is session and latest.version != session.version

    def target(self) -> tuple[Query, int] | None:
        """The query, and which of its matches in the entry under the cursor is the current one, when the
        last jump put the cursor there: for the detail view to land on it."""
        if self.query_ is None or not self._on_current():
            return None
        return self.query_, self._nth

    def session_loaded(self, session: Session, done: bool) -> None:
        """The pane read (more of) a session: while the bar shows, count the query in it when it is
        another session than the one counted, or the rest of one that was counted half read."""
        if not self.active or self.query_ is None:
            return
        if self._latest.session is not session:
            self._search()
        elif self._grew(session):
            (self._recount if done and self._latest.partial else self._recount_later)()

    def _start_index(self, messages: list[Message]) -> int:
        """Where the search starts: the message under the cursor, else the first."""
        top = self._cursor_top()
        if top is None:
            return 0
        return next((i for i, m in enumerate(messages) if m is top), 0)

    def _cursor_top(self) -> Message | None:
        """The top-level message the cursor is in."""
        view = self.view
        entry = view.cursor
        if entry is None or entry.top >= len(view.messages):
            return None
        return view.messages[entry.top]

    @work(thread=True, exclusive=True, group="find", exit_on_error=False, description="find in the session")
    def _scan(
        self, token: int, query: Query, session: Session, messages: list[Message], start: int, others: list[Message]
    ) -> None:
        """The matches of `query` nearest message `start` (see `nearest`), posted in batches; then those on the
        branches not being read (`others`). From the first match, N reaches the last one whatever the count."""
        worker = get_current_worker()
        path = session.path

        def hits(visible: list[Message], begin: int, backward: bool = False) -> Iterator[Hit]:
            return find(
                session,
                query,
                begin,
                lambda call: full_output(path, call),
                visible,
                lambda: worker.is_cancelled,
                backward=backward,
            )

        matches = nearest(hits(messages, start), hits(messages, start, True), hits(others, 0), MAX_HITS)
        batch: list[Match] = []
        sent = time.monotonic()
        try:
            for count, match in enumerate(matches, 1):
                batch.append(match)
                now = time.monotonic()
                if count == 1 or now - sent >= BATCH_SECONDS:
                    self.post_message(self.Found(token, batch, False))
                    batch, sent = [], now
        except RuntimeError:  # a dict of a subagent grew as its layout was made (live): what was found stands
            pass
        if not worker.is_cancelled:
            self.post_message(self.Found(token, batch, True))

    def on_find_bar_found(self, message: Found) -> None:
        message.stop()
        if message.token != self._token:
            return
        count = self._latest  # a recount leaves the last count standing until it is done itself
        count.add(message.matches)
        if message.done:
            count.done = True
            self._took = time.monotonic() - count.started
            if self._fresh is not None:
                self._count, self._fresh = self._fresh, None
        if self._pending is not None and self._known(self._pending):
            step, self._pending = self._pending, None
            self._jump(step, recentre=False)
        self._show_status()

    # ---------------------------------------------------------------- jumping

    def step(self, step: int, *, focus: bool = True) -> None:
        """Go to the first match at or after the cursor (`step` 0), or the next (1) or previous (-1) one."""
        self._catch_up()
        if self.query_ is None:
            if self.error:
                self._show(True)  # the bar says what is wrong
            elif self.active:
                self.close()
            else:
                self.open()
            return
        if focus:
            self.view.focus()
        if not self.active:  # n after the bar was closed: the bar and the highlights come back
            self._show(True)
            self.view.marker = self._marker
        session = self.view.session
        if self._latest.session is not session:
            self._search(again=True)  # another session: count there, then go
        elif self._grew(session):
            self._recount()  # the session grew: go once it is counted again
        self._jump(step)

    def _jump(self, step: int, recentre: bool = True) -> None:
        """Go to the match `step` asks for, or once it is found (`recentre`: count again from the cursor first
        when the count cannot tell which match that is)."""
        if not self._known(step):
            self._pending = step  # the count goes on: go when it has found the match
            self._show_status()
            return
        ordered = self._count.ordered
        current = self._position(ordered) if self._on_current() else None
        session = self.view.session
        if recentre and self.query_ and session and self._astray(ordered, current, step):
            self._token += 1  # count again from the cursor, then go
            self._fresh, self._pending = self._start_count(self.query_, session), step
            return
        if ordered and session is not None:  # else the bar says "no matches"
            version = session.version
            self._go(ordered, self._target(ordered, step))
            if self._count.version == version != session.version:  # it switched branches: n goes on round
                self._count.version, self._count.moved = session.version, True

    def _astray(self, ordered: list[Match], current: int | None, step: int) -> bool:
        """Whether the count cannot tell which match `step` goes to: from the current match (`current` in
        `ordered`), one among those a capped count left out; from the cursor, any once a jump switched branches
        (its places are those of the pane it was made in), or the one next to it when the count is capped and
        did not start there (the matches held are those nearest where it started)."""
        count = self._count
        if current is not None and step:
            return count.crosses(ordered[current], step)
        return count.moved or (count.capped and count.start is not self._cursor_top())

    def _known(self, step: int) -> bool:
        """Whether the match to go to has been found (the first from the cursor on, for `step` 0: in the
        place aimed at, when there is one)."""
        if self._fresh is not None:
            return False
        if self._count.done:
            return True
        return step == 0 and any(self._aim is None or m.place == self._aim for m in self._count.down)

    def _target(self, ordered: list[Match], step: int) -> int:
        """Index in `ordered` of the match to go to."""
        aim, self._aim = self._aim, None
        aimed = next((i for i, m in enumerate(ordered) if m.place == aim), None) if step == 0 and aim else None
        if aimed is not None:
            return aimed
        current = self._position(ordered)
        if current is not None and step and self._on_current():
            return (current + step) % len(ordered)
        entry, at = self.view.cursor, self.view.cursor_index
        if entry is None or at is None:
            return 0 if step >= 0 else len(ordered) - 1
        rows = self._rows_of_message(at)

        def before(match: Match) -> bool:
            """Whether `match` is above the cursor (one hidden in a closed subagent: where the cursor is)."""
            index = match.hit.index
            above = index < entry.top or (index == entry.top and rows.get(match.place, at) < at)
            return match.side != "elsewhere" and above

        found = next((i for i, match in enumerate(ordered) if not before(match)), len(ordered))
        if step < 0:
            return (found - 1) % len(ordered)
        if step and found == current and rows.get(ordered[found].place) == at:
            found += 1  # the cursor is on the current match: n goes on
        return found % len(ordered)

    def _on_current(self) -> bool:
        """Whether the cursor is where the last jump put it."""
        return self._landed is not None and self.view.cursor is self._landed

    def _rows_of_message(self, at: int) -> dict[tuple[int, int, int | None], int]:
        """The place each entry of the message that holds entry `at` shows, and that entry's index."""
        entries = self.view.entries
        top = entries[at].top
        first, last = at, at
        while first > 0 and entries[first - 1].top == top:
            first -= 1
        while last + 1 < len(entries) and entries[last + 1].top == top:
            last += 1
        return {_place_of(entries[i]): i for i in range(first, last + 1)}

    def _position(self, ordered: list[Match]) -> int | None:
        """Index of the current match in `ordered`."""
        if self._current is None:
            return None
        key = self._current.key
        return next((i for i, m in enumerate(ordered) if m.key == key), None)

    def _go(self, ordered: list[Match], index: int) -> None:
        """Show match `index`: open what hides it, put its line in view, mark it."""
        match = ordered[index]
        self._current = match
        view = self.view
        message = match.message
        part = match.hit.part
        block = message.blocks[part.block] if part.block is not None and part.block < len(message.blocks) else None
        if not view.reveal(message, part.tool, block=block, highlight=False):
            if view.pane_filter is None:
                key = key_display(self.app, view.BINDINGS, "conversation.toggle_quiet")
                self.notify(f"This match is in a row that is hidden ({key} shows dim rows)", timeout=3)
                return
            view.unfilter("match")
            if not view.reveal(message, part.tool, block=block, highlight=False):
                return
        entry = view.cursor
        at = view.cursor_index
        if entry is None or at is None:
            return
        if entry.expandable and entry.key not in view.expanded and part.where != "row":
            view.set_expanded(entry, True)
            at = view.cursor_index or at
        nth = 0
        while index - nth > 0 and ordered[index - nth - 1].place == match.place:
            nth += 1
        row, cell = self._locate(entry, nth)
        self._nth = nth
        self._mark = (entry, row, cell) if cell >= 0 else None
        self._landed = entry
        view.show_line(at, row)
        self._show_status()

    def _locate(self, entry: Entry, nth: int) -> tuple[int, int]:
        """The line of `entry` and the cell where its `nth` drawn match starts (-1: not drawn)."""
        drawn: list[tuple[int, int]] = []
        for row, strip in enumerate(self.view.drawn(entry)):
            if row >= entry.pad:
                drawn += [(row, cell) for cell, _ in self._cells(strip)]
                if len(drawn) > nth:
                    return drawn[nth]
        return entry.pad, -1

    # ---------------------------------------------------------------- drawing

    def _cells(self, strip: Strip) -> list[tuple[int, int]]:
        assert self.query_ is not None
        return match_cells(strip, self.query_)

    def _marker(self, strip: Strip, entry: Entry, row: int) -> Strip:
        """`strip` with the matches on it highlighted, the current one brighter."""
        if self.query_ is None:
            return strip
        mark = self._mark
        here = mark[2] if mark is not None and mark[0] is entry and mark[1] == row else -1
        return highlight(strip, self._cells(strip), self._styles, here)

    def _show_status(self) -> None:
        status = self.query_one("#find-status", Static)
        status.set_class(self.error is not None, "-error")
        status.update(Text(self._status_text(), no_wrap=True, overflow="ellipsis"))

    def _status_text(self) -> str:
        if self.error:
            return self.error
        if self.query_ is None:
            return "ctrl+r regex · ⏎ jump · esc close"
        count = self._count
        here, others = count.here, len(count.elsewhere)
        total = here + others
        more = "+" if count.capped else ""
        if not count.done:
            return f"searching… {total:,} so far" if total else "searching…"
        if not total:
            return "no matches"
        jump = key_display(self.app, FindInput.BINDINGS, "find.jump")
        elsewhere = f" · {others:,}{'+' if total == MAX_HITS else ''} on other branches" if others else ""
        ordered = count.ordered
        position = self._position(ordered)
        if position is None and not here:
            return f"no matches here{elsewhere}: {jump} goes there"
        if position is None:
            return f"{here:,}{more} match{'' if here == 1 else 'es'}{elsewhere}"
        if position >= here:  # on a branch the count was not made in (the pane switched to it)
            return f"on another branch: match {position - here + 1:,} of {others:,}"
        hidden = f" · past the pane: {jump} opens it" if self._mark is None and self._landed is not None else ""
        number = f"{position + 1:,}" if count.numbered(ordered[position]) else "?"
        return f"match {number} of {here:,}{more}{elsewhere}{hidden}"


class PaneNote(Static):
    """One line above the conversation while a pane filter hides part of it."""

    DEFAULT_CSS = """
    PaneNote {
        display: none;
        height: 1;
        padding: 0 1 0 2;
        background: $boost;
        color: $accent;
        &.-active { display: block; }
    }
    """

    def show(self, pane_filter: PaneFilter | None) -> None:
        self.set_class(pane_filter is not None, "-active")
        if pane_filter is not None:
            key = key_display(self.app, ConversationView.BINDINGS, pane_filter.binding_id)
            self.update(Text(pane_filter.note(key), no_wrap=True))


def _place_of(entry: Entry) -> tuple[int, int, int | None]:
    """The place (as `Match.place` says it) that `entry` shows."""
    blocks = entry.message.blocks
    block = next((i for i, b in enumerate(blocks) if b is entry.block), None) if entry.call is None else None
    return id(entry.message), id(entry.call), block
