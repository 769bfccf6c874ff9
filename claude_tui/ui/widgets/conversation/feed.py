"""The conversation pane's feed: the session read by a thread worker, in batches, into entries.

A session is read through `SessionTail` under the session lock: the first screen shows after the first batch and the
rest streams in through the same path a live tail uses (`read_more`). The worker merges what it read into one pending
update; the UI applies it at most every `APPLY_EVERY`, `APPLY_MOST` messages a frame. A stale read (another session
opened since) is known by its token and dropped. A big session is kept from the cycle collector while it is shown.
"""

from __future__ import annotations

import gc
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.timer import Timer
from textual.worker import get_current_worker

from claude_tui.core.humanize import damage
from claude_tui.core.model import QUIET_KINDS
from claude_tui.core.update import Update
from claude_tui.ui.clock import Clock
from claude_tui.ui.text import one_line
from claude_tui.ui.widgets.conversation.entry_list import common_prefix
from claude_tui.ui.widgets.conversation.messages import Fed, Loaded
from claude_tui.ui.widgets.conversation.navigation import NavigableView

if TYPE_CHECKING:
    from claude_tui.core.session import Session
    from claude_tui.core.tail import SessionTail

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
#: A session read whole with this many messages is kept from the cycle collector while it is shown (gc.freeze).
FREEZE_MESSAGES = 2000


class FedView(NavigableView):
    """The pane, fed from a session file."""

    def __init__(
        self, clock: Clock | None = None, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(clock, name=name, id=id, classes=classes)
        self.tail: SessionTail | None = None
        self.read_whole = False  #: the file was read to its end once (later reads bring what was written since)
        self._pending: Update | None = None
        self._drawn = threading.Event()  #: set once the screen has shown what was read
        self._applied = 0.0
        self._told = 0.0  #: when a Loaded was last posted
        self._behind = False  #: messages read are still waiting for their entries (APPLY_MOST)
        self._apply_timer: Timer | None = None
        self._progress = (0, 0)
        self._error: str | None = None
        self._token = 0
        self._froze = False  #: the session shown was frozen (FREEZE_MESSAGES)

    def open(self, path: str | Path, *, at_end: bool = False) -> None:
        """Show the session at `path`, reading it in the background."""
        from claude_tui.core.tail import SessionTail  # (with the session model: imported for the first session shown)

        with self.session_lock:
            self._token += 1
            self.tail = SessionTail(Path(path))
            self.session = self.tail.session
            self._pending = None
        self._reset(at_end)
        self.placeholder = "Reading…"
        self.read_more()

    def clear(self, placeholder: str = "No session selected") -> None:
        """Show no session, and say why."""
        with self.session_lock:
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
        self.rows.clear()
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
    def unseen(self) -> int:
        """Messages that arrived, or grew, while following was paused (dim rows not counted)."""
        if self._follow or not self.follow_mode:
            return 0
        return len(self._grew) + sum(1 for m in self.rows.messages[self._seen :] if m.kind not in QUIET_KINDS)

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
            with self.session_lock:
                tail = self.tail
                if token != self._token or tail is None:
                    return
                update = tail.poll(limit)
                self._pending = _merge(self._pending, update)
                done = tail.caught_up or tail.error is not None
                offset, size = tail.reader.offset, tail.size
                error = tail.error or ("the file is gone" if tail.deleted else None)
                self._drawn.clear()
            self.post_message(Fed(token, done, offset, size, error))
            if done:
                return
            if live or limit == FIRST_BATCH:  # the screen draws this batch (and takes its keys) first
                self._drawn.wait(DRAW_WAIT)
            else:
                time.sleep(0.001)  # and the screen take the lock between two batches
            limit = LIVE_BATCH if live else BATCH

    def _on_conversation_view_fed(self, message: Fed) -> None:
        message.stop()
        if message.token != self._token or self.session is None:
            return
        self._progress = (message.offset, message.size)
        self._error = message.error
        if message.done or not self.rows.entries or time.monotonic() - self._applied >= APPLY_EVERY:
            self._apply_pending(message.done)
        elif self._apply_timer is None:  # a batch a moment from now brings this one along
            self._apply_timer = self.set_timer(APPLY_EVERY, self._apply_pending)
        self.call_after_refresh(self._drawn.set)

    def _apply_pending(self, done: bool = False) -> None:
        if self._apply_timer is not None:
            self._apply_timer.stop()
            self._apply_timer = None
        with self.session_lock:
            update, self._pending = self._pending, None
            if self.session is not None and (update is not None or self._behind):
                self._apply(update or Update())
            session = self.session
        self._applied = time.monotonic()
        if session is None:
            return
        if self.rows.entries:
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
            if not self.rows.entries:
                self._waiting.clear()  # no row to move to
                self.refresh()  # the placeholder says why
        self._tell_loaded(session, done)

    def _open_alone(self) -> None:
        """A session read whole with no conversation of its own (a subagent's transcript whose session has no
        file): its subagents' markers open, else the pane would show nothing but them; warmups stay closed."""
        opening = [first for first, agent in self.rows.agents.items() if not agent.is_warmup]
        if self.rows.main_end or not opening:
            return
        with self.session_lock:
            self.expanded.update(opening)
            self._replace_from(0, self.rows.messages)

    def _tell_loaded(self, session: Session, done: bool) -> None:
        self._told = time.monotonic()
        self.post_message(Loaded(session, done, *self._progress))

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
            self.rows.built.clear()  # the entries of the messages read before: none of them is shown again
            self._thaw()  # and those messages are garbage
            self._rebuild()
            return
        anchor = self._anchor()
        keep = common_prefix(self.rows.messages, shown)  # a new fork may hide what followed its parent
        grown = sorted({t for m in update.changed.values() if (t := self.rows.top_of(m)) is not None and t < keep})
        for top in grown:
            self._resplice(top)
        if grown:
            self._refresh_from(self.rows.range_of(grown[0])[0])
            if self.follow_mode and not self.follow:
                self._grew.update(t for t in grown if t < self._seen and self.rows.messages[t].kind not in QUIET_KINDS)
        self.rows.main_end, self.rows.agents = main_end, agents  # the tops above were of the messages shown until now
        self._behind = len(shown) > keep + APPLY_MOST
        added = self._replace_from(keep, shown[: keep + APPLY_MOST], update.damaged)  # the rest in the next frames
        self._restore(anchor)
        if (self.follow or self._end_asked) and (grown or added):
            self._to_last()  # the newest row in view, whether a message came or the last one grew


def _no_messages(session: Session, most: int = 8) -> str:
    """Why the pane is empty: no messages, and the problems found instead (in the header's words)."""
    problems = session.all_problems()
    if not problems:
        return "This session has no messages"
    lines = [f"⚠ line {p.line_no}: {one_line(p.message, 200)}" for p in problems[:most]]
    if len(problems) > most:
        lines.append(f"… and {len(problems) - most} more")
    return "\n".join([f"This session has no messages, only {damage(len(problems), session.malformed_lines)}:", *lines])


def _merge(pending: Update | None, update: Update) -> Update:
    """Two reads' changes as one (the UI applies them together when it falls behind)."""
    if pending is None or update.started_over:
        return update
    pending.added += update.added
    pending.changed.update(update.changed)
    pending.threads_changed |= update.threads_changed
    pending.damaged |= update.damaged
    return pending
