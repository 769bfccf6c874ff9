"""Helpers for the UI tests: the demo history at a fixed time, apps that wait until they are ready."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual import events
from textual.command import CommandInput, CommandList, CommandPalette
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.notifications import Notification

from claude_tui.cli.app import DEMO_PROJECTS
from claude_tui.ui.app import ClaudeTUI
from claude_tui.ui.clock import Clock
from claude_tui.ui.widgets.conversation import ConversationView
from claude_tui.ui.widgets.conversation.entries import Entry
from claude_tui.ui.widgets.findbar import FindBar

#: The demo's newest session ended on 2026-04-21; the tests look at it the next morning.
CLOCK = Clock.frozen("2026-04-22T10:00:00Z")
#: File times of the copied demo: long before CLOCK, so that nothing is "live".
DEMO_MTIME = 1_776_000_000.0


class NoLibrary:
    """The app opened on one session does not need the history: a library with nothing in it."""

    def __init__(self) -> None:
        self.projects: list[Any] = []
        self.notices: list[str] = []

    def reload(self) -> None:
        return None

    def refresh(self, progress: object = None) -> None:
        return None


def demo(prefix: str) -> Path:
    """A demo session file by id prefix."""
    return next(DEMO_PROJECTS.rglob(f"{prefix}*.jsonl"))


def demo_copy(tmp_path: Path) -> Path:
    """A copy of the demo's projects folder (and plans) whose files are not live; returns the projects root."""
    target = tmp_path / "claude"
    shutil.copytree(DEMO_PROJECTS.parent / "projects", target / "projects")
    shutil.copytree(DEMO_PROJECTS.parent / "plans", target / "plans")
    for path in target.rglob("*"):
        os.utime(path, (DEMO_MTIME, DEMO_MTIME))
    return target / "projects"


def raised(app: ClaudeTUI) -> list[Notification]:
    """Every notification `app` raised, those gone since too (kept by conftest's `_notifications_kept`)."""
    return list(getattr(app._notifications, "raised", []))


def session_app(path: Path, **kw: Any) -> ClaudeTUI:
    """The app opened on one session file."""
    return ClaudeTUI([DEMO_PROJECTS], session=path, library=NoLibrary(), clock=CLOCK, **kw)  # type: ignore[arg-type]


async def settled(pilot: Any, ready: Callable[[], object], timeout: float = 20) -> None:
    """Wait until `ready()` is true (a worker finished)."""
    deadline = time.monotonic() + timeout
    while not ready():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.01)
    await pilot.pause()


def burst(app: ClaudeTUI, *keys: str) -> None:
    """Send `keys` at once, as a terminal sends keys typed fast (`pilot.press` waits for the app between two):
    key names (`ctrl+k`, `enter`) or characters."""
    for key in keys:  # as Pilot.press names them
        name = _character_to_key(key) if len(key) == 1 and not key.isalnum() else key
        try:
            character: str | None = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(name, name)))
        except KeyError:
            character = key if len(key) == 1 else None
        app.post_message(events.Key(name, character))


async def handled(pilot: Any, app: ClaudeTUI) -> None:
    """Wait until the app has handled every key sent: it has taken them from its queue (a callback queued behind
    them has run), and its gate has routed and followed each (see claude_tui/ui/keygate.py)."""
    taken = asyncio.Event()
    app.call_later(taken.set)
    await taken.wait()
    await settled(pilot, lambda: app.keys.idle)


def at_rest(app: ClaudeTUI) -> bool:
    """Nothing is left to handle, as of now: no message waits in a queue of the app, its screen or their widgets,
    and no callback waits for the next refresh (keys posted in a burst are all handled, and what they posted).
    Workers and timers are the caller's to wait for."""
    nodes = [app, *app.screen.walk_children(with_self=True)]
    waiting = (n.message_queue_size or n._pending_message is not None or n._next_callbacks for n in nodes)
    return not app.screen._callbacks and not any(waiting)


async def drained(pilot: Any) -> None:
    """Every message posted before now is handled, a thread's too (which reaches its queue a turn of the loop
    later): a check that something did not happen can follow."""
    await pilot.pause()
    await pilot.pause()


async def read_to_end(pilot: Any, view: ConversationView) -> None:
    """Wait until the pane has read its file as far as it is written now (a partial last line held back) and
    shown what it read: a check that something did not show can follow."""
    tail = view.tail
    assert tail is not None
    size = tail.path.stat().st_size
    await settled(pilot, lambda: tail.reader.offset + tail.reader.pending == size and not view.reading)
    await drained(pilot)


async def loaded(pilot: Any, app: ClaudeTUI) -> ConversationView:
    """The conversation pane once its session is read (and drawn)."""
    view = app.screen.query_one(ConversationView)
    await settled(pilot, lambda: not view.reading and view.entries)
    return view


async def browser_ready(pilot: Any, app: ClaudeTUI) -> ConversationView:
    """The browser once the library is read and the chosen session is shown."""
    main = app.main
    await settled(pilot, lambda: main.query_one("#projects").border_title == "Projects" and app.state.projects)
    return await loaded(pilot, app)


def index_of(view: ConversationView, test: Callable[[Entry], bool]) -> int:
    return next(i for i, e in enumerate(view.entries) if test(e))


async def find(pilot: Any, app: ClaudeTUI, query: str) -> FindBar:
    """Open the find bar, type `query` and wait for the count."""
    await pilot.press("slash")
    await pilot.pause()
    bar = app.screen.query_one(FindBar)
    await pilot.press(*query)
    await settled(pilot, lambda: bar.done and bar.input.value == query)
    return bar


async def palette(pilot: Any, app: ClaudeTUI, query: str) -> CommandList:
    """Open the command palette, type `query` and wait until every match for it is listed (the palette gathers
    them in a worker, and lists them in batches)."""
    await pilot.press("ctrl+p", *query)
    screen = app.screen
    assert isinstance(screen, CommandPalette)
    gathering = screen._GATHER_COMMANDS_GROUP
    typed = screen.query_one(CommandInput)
    await settled(pilot, lambda: typed.value == query and not any(w.group == gathering for w in app.workers))
    return screen.query_one(CommandList)
