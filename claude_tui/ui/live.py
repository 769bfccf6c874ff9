"""Live: one watcher on the roots wakes the open session's reader and the library; bursts are coalesced.

The watcher's events only say that something changed, and where (GUIDE.md §2): the open
session is read on from its offset by the conversation's own reader, the library by
`Library.refresh`, which reads only new bytes. A session written at 1,000 records a second
wakes them far more often than a screen can show, so a `Pacer` folds the wakes into at most
one read per frame and never starts a read while the last one runs (which is the
backpressure: a reader that falls behind reads bigger batches, not more of them).
"""

from __future__ import annotations

import asyncio
import math
import os
import time
from collections import deque
from collections.abc import Callable
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.dom import DOMNode
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from claude_tui.core.files import is_agent_file, is_transcript, session_dir
from claude_tui.core.times import parse_time
from claude_tui.core.watch import Changes, watch_roots
from claude_tui.ui import library_feed
from claude_tui.ui.bindings import key_display
from claude_tui.ui.widgets.header import SessionHeader
from claude_tui.ui.widgets.status import LiveState, LiveStatus

if TYPE_CHECKING:
    from claude_tui.core.library import Project, SessionInfo
    from claude_tui.core.session import Session
    from claude_tui.ui.hosts import LiveHost
    from claude_tui.ui.widgets.conversation import ConversationView

#: Seconds between two reads of the open session while it is written (about the screen's rate).
READ_EVERY = 1 / 30
#: Seconds between two redraws of the header's facts (counted over the whole session) while it grows.
HEADER_EVERY = 0.25
#: Seconds between two library refreshes while known files only grow (new files are read at once).
LIBRARY_EVERY = 2.0
#: Work that takes longer waits longer: at most about 1/SHARE of the time goes to it (a header counted
#: over 60,000 messages, a library of 1,500 sessions read again).
SHARE = 20
#: Seconds between two looks at a job that is still running.
RECHECK = 0.01
#: Seconds between two checks of the "live" markers (a session stops being live 60 s after its last write).
MARKERS_EVERY = 5.0
#: Records per second are counted over this many seconds.
RATE_WINDOW = 3.0
#: The status line stays up this long after the last record arrived.
QUIET_AFTER = 60.0


class Pacer:
    """Runs `job` when woken, at most once every `every` seconds and never while `busy()`:
    the wakes that come meanwhile are folded into one later run."""

    def __init__(
        self, node: DOMNode, every: float, job: Callable[[], object], busy: Callable[[], bool] | None = None
    ) -> None:
        self.every = every
        self._node, self._job, self._busy = node, job, busy
        self._due: float | None = None  #: when a wanted run may start (monotonic); None: none wanted
        self._last = -math.inf
        self._timer: Timer | None = None

    def wake(self, urgent: bool = False) -> None:
        """Ask for a run: as soon as possible when `urgent`, else `every` seconds after the last one."""
        due = time.monotonic() if urgent else self._last + self.every
        self._due = due if self._due is None else min(self._due, due)
        self._schedule()

    def done(self) -> None:
        """The job's work finished (a run that started a worker): a wanted run may start now."""
        if self._due is not None:
            self._schedule()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._due is None or not self._node.display:  # not displayed: being removed (the app quits)
            return
        now = time.monotonic()
        wait = self._due - now
        if wait <= 0:
            if self._busy is None or not self._busy():
                self._due, self._last = None, now
                self._job()
                return
            wait = RECHECK
        self._timer = self._node.set_timer(wait, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._schedule()


class Rate:
    """Records per second over the last RATE_WINDOW seconds, from running counts."""

    def __init__(self) -> None:
        self._samples: deque[tuple[float, int]] = deque()

    def reset(self, count: int) -> None:
        self._samples = deque([(time.monotonic(), count)])

    def add(self, count: int) -> None:
        if self._samples and count < self._samples[-1][1]:  # the file shrank and was read again
            self.reset(count)
            return
        now = time.monotonic()
        samples = self._samples
        samples.append((now, count))
        while len(samples) > 2 and samples[1][0] <= now - RATE_WINDOW:
            samples.popleft()

    @property
    def last(self) -> int | None:
        """The latest count."""
        return self._samples[-1][1] if self._samples else None

    def per_second(self) -> float:
        if len(self._samples) < 2:
            return 0.0
        now = time.monotonic()
        start = now - RATE_WINDOW
        base_time, base = self._samples[0]
        for at, count in self._samples:
            if at > start:
                break
            base_time, base = at, count
        return (self._samples[-1][1] - base) / max(now - max(base_time, start), 0.5)


class Live:
    """What the main screen does as files under the roots change."""

    def __init__(self, screen: Screen[Any], host: LiveHost) -> None:
        self.screen = screen  #: what its timers and workers run on
        self.host = host
        self.stop = asyncio.Event()
        self.reads = Pacer(screen, READ_EVERY, self._read, busy=lambda: self.view.reading)
        self.refreshes = Pacer(screen, LIBRARY_EVERY, self._refresh, busy=self._refreshing)
        self.header = Pacer(screen, HEADER_EVERY, self._header)
        self.rate = Rate()
        self._roots: list[str] = []
        self._paths: list[Path] = []  #: what is watched: the roots, and the folder of a session given outside them
        self._missing: list[Path] = []  #: of those, the ones not there (yet)
        self._looking: Timer | None = None
        self._worker: Worker[None] | None = None
        self._failed = False
        self._known: tuple[int, set[str]] = (0, set())  #: id of the projects list -> its session files
        self._markers: frozenset[str] = frozenset()
        self._session: object = None  #: the session the last read was of
        self._caught_up = False
        self._since = time.time()  #: following switches only to sessions started after this
        self._handed = math.inf  #: when the terminal was last handed to claude: what the next session follows from
        self._grew = -math.inf  #: when records last arrived (monotonic)
        self._ticker: Timer | None = None

    @property
    def view(self) -> ConversationView:
        return self.host.conversation

    def start(self, roots: list[Path], extra: Path | None = None) -> None:
        """Watch `roots` (and `extra`, a session's folder outside them) until the screen goes."""
        self._roots = [os.path.abspath(r) for r in roots]
        self._paths = [Path(r) for r in self._roots]
        if extra is not None and not any(_under(os.path.abspath(extra), r) for r in self._roots):
            self._paths.append(extra)
        self._missing = [p for p in self._paths if not p.is_dir()]
        self._start_watching()
        self.screen.set_interval(MARKERS_EVERY, self._check_markers)
        if self._missing:
            self._looking = self.screen.set_interval(MARKERS_EVERY, self._look_for_missing)
        self._ticker = self.screen.set_interval(1.0, self.show_status, pause=True)

    def _start_watching(self) -> None:
        """Watch the roots that exist (again: one that was missing is watched once it is there)."""
        self.screen.run_worker(self._watch(self._paths), group="live-watch", exclusive=True, exit_on_error=False)

    def _look_for_missing(self) -> None:
        """A projects folder made since the start (Claude Code's first run): watch it, list what it holds."""
        if any(p.is_dir() for p in self._missing):
            self._missing = [p for p in self._missing if not p.is_dir()]
            self._start_watching()
            self.refreshes.wake(urgent=True)
        if not self._missing and self._looking is not None:
            self._looking.stop()

    async def _watch(self, paths: list[Path]) -> None:
        try:
            await asyncio.to_thread(_load_watcher)  # ~90 ms of imports, off the event loop
            self.reads.wake(urgent=True)  # what the open session gained before the watcher was up
            async for changes in watch_roots(paths, self.stop):
                self.changed(changes)
        except Exception as exc:  # no inotify watches left, a root gone: browsing still works
            self.screen.notify(f"Not watching for changes: {exc}", severity="warning", timeout=8, markup=False)

    # ---------------------------------------------------------------- waking

    def changed(self, changes: Changes) -> None:
        """Wake the open session's reader if its files changed, and the library."""
        tail = self.view.tail
        if tail is not None and _touches(changes, Path(os.path.abspath(tail.path))):
            self.reads.wake()
        if any(_under(str(p), r) for p in chain(changes.modified, changes.deleted, changes.other) for r in self._roots):
            self.refreshes.wake(urgent=self._news(changes))

    def _news(self, changes: Changes) -> bool:
        """Whether a session or project appeared or went: the tree and list show it at once. A file added
        where the list names one is news too: it replaces one deleted since (an editor's save), and the
        refresh running for that deletion may have missed it."""
        if changes.deleted:
            return True
        known = self._known_files()
        for path in changes.modified:
            session = not is_transcript(path)
            if session and (path in changes.added or str(path) not in known):
                return True
        return any(str(p.parent) in self._roots for p in changes.other)

    def _known_files(self) -> set[str]:
        projects = self.host.state.projects
        if self._known[0] != id(projects):
            self._known = (id(projects), {os.path.abspath(s.file) for p in projects for s in p.sessions})
        return self._known[1]

    def _read(self) -> None:
        self.view.read_more(live=True)

    def _header(self) -> None:
        started = time.perf_counter()
        self.host.update_header()
        self.header.every = max(HEADER_EVERY, SHARE * (time.perf_counter() - started))

    def _refreshing(self) -> bool:
        return self._worker is not None and self._worker.state in (WorkerState.PENDING, WorkerState.RUNNING)

    def _refresh(self) -> None:
        self._worker = self.screen.run_worker(
            self._refresh_library, thread=True, group="live-library", exit_on_error=False
        )

    def _refresh_library(self) -> None:
        """(thread) Bring the index up to date; post the library when anything changed."""
        library = self.host.state.library
        started = time.perf_counter()
        try:
            result = library_feed.refresh(library, self.screen.post_message)
        except Exception as exc:  # a broken cache or root must not take the app down
            if not self._failed:
                self._failed = True
                self.screen.app.notify(f"Could not update the history: {exc}", severity="warning")
            return
        if result.busy:  # another process kept writing the index: try again (no change may come to wake us)
            self.screen.app.call_from_thread(self.refreshes.wake)
        else:  # the time it worked, not the time it waited for another writer
            self.refreshes.every = max(LIBRARY_EVERY, SHARE * (time.perf_counter() - started - result.waited))

    # ---------------------------------------------------------------- the open session

    def loaded(self, session: Session, done: bool) -> None:
        """The conversation read more of `session` (`done`: all there is for now)."""
        records = session.records_with_subagents  # a subagent at work writes to its own file
        if session is not self._session:
            self._session, self._caught_up = session, False
            self._since, self._handed = min(time.time(), self._handed), math.inf
            self._grew = -math.inf
        if done:
            if not self._caught_up:
                self._caught_up = True
                self.rate.reset(records)
            elif records != self.rate.last:  # a read that found nothing new (the catch-up read) is no growth
                self.rate.add(records)
                self._grew = time.monotonic()
            self.reads.done()
        self.show_status()

    def handed_over(self, moment: float) -> None:
        """The terminal was handed to claude at `moment` (a resume, ui/resume.py): following switches to a session
        started since, from the open one and from the one opened next (whose first read comes after)."""
        self._since, self._handed = min(self._since, moment), moment

    def show_status(self) -> None:
        """Bring the live line up to date."""
        view, tail = self.view, self.view.tail
        state = None
        rate = self.rate.per_second()
        if tail is not None and view.session is not None:
            size = tail.size
            if tail.deleted:
                state = LiveState("deleted")
            elif view.follow and view.follow_mode:
                state = LiveState("following", 0, rate, size)
            elif view.follow_mode:
                resume = key_display(self.screen.app, view.BINDINGS, "conversation.last", prefer="end")
                state = LiveState("paused", view.unseen, rate, size, resume)
            elif time.monotonic() - self._grew < QUIET_AFTER:
                follow = key_display(self.screen.app, self.screen.BINDINGS, "app.follow")
                state = LiveState("live", 0, rate, size, follow)
        self.screen.query_one(LiveStatus).show(state)
        if self._ticker is not None:
            (self._ticker.resume if rate > 0 else self._ticker.pause)()

    # ---------------------------------------------------------------- the library

    def successor(self, projects: list[Project], current: SessionInfo | None) -> SessionInfo | None:
        """While following (with no SESSION given), a session that started in the followed one's
        project folder after it was opened: the newest such, which the screen switches to."""
        if current is None or not self.view.follow_mode or self.host.direct is not None:
            return None
        folder = os.path.dirname(current.file)
        newer = [
            s
            for p in projects
            for s in p.sessions
            if os.path.dirname(s.file) == folder
            and s.file != current.file
            and s.first_prompt  # a prompt or a command: someone asked something
            and not s.warmup
            and (parse_time(s.started) or 0) > self._since
        ]
        return max(newer, key=lambda s: parse_time(s.started) or 0, default=None)

    def _check_markers(self) -> None:
        """Redraw the tree and the list when a session stopped (or started) being live, the header when its
        "N ago" moved on; the live line goes when the open session has been quiet for a while."""
        projects = self.host.state.projects
        markers = frozenset(s.file for p in projects for s in p.sessions if s.live)
        if markers != self._markers:
            self._markers = markers
            self.host.redraw_library()
        if self.screen.query_one(SessionHeader).stale:  # "now" became "1m ago"
            self.header.wake()
        self.show_status()


def _touches(changes: Changes, path: Path) -> bool:
    """Whether `changes` concern the session file `path` or its subagent transcripts."""
    folder, own = path.parent, session_dir(path)
    for changed in chain(changes.modified, changes.deleted, changes.other):
        if changed in (path, own) or own in changed.parents:
            return True
        if changed.parent == folder and is_agent_file(changed):
            return True
    return False


def _load_watcher() -> None:
    """Import watchfiles and the asyncio backend of anyio, which its awatch would import on the event loop."""
    import anyio._backends._asyncio  # noqa: F401
    import watchfiles  # noqa: F401


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
