"""The library feed: the history's projects, read in a worker thread and posted as one message, `LibraryLoaded`.

Three readings post it: `prefetched` (what the launcher read while the app started), `load` (what the index holds,
at once, then brought up to date, what it has committed so far posted as it goes) and `refresh` (after the watcher
saw a change: `live`, posted only when the index changed). The screen's workers and `Live` run them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.message import Message as TextualMessage

from claude_tui.ui.messages import LibraryLoaded, LibraryProgress

if TYPE_CHECKING:
    from claude_tui.core.index.jobs import UpdateResult
    from claude_tui.core.library import Library, Progress
    from claude_tui.ui.prefetch import Prefetch

#: Seconds between two indexing progress reports.
PROGRESS_EVERY = 0.25
#: Seconds at least between two listings of what the index holds while it is being brought up to date.
LISTING_EVERY = 2.0

Post = Callable[[TextualMessage], object]


def prefetched(prefetch: Prefetch) -> LibraryLoaded:
    """The projects read while the app started (see prefetch.py): the front page, then the whole library, after
    which the index is brought up to date (`update`)."""
    early = prefetch.result()
    projects, notices, front = early if early is not None and early[0] else ([], [], False)
    return LibraryLoaded(projects, notices, final=False, update=not front)


def collect(prefetch: Prefetch, post: Post) -> None:
    """(thread) The projects read while the app started that were not ready at mount, up to the whole library."""
    while not (loaded := prefetched(prefetch)).update:
        post(loaded)
    post(loaded)


def load(library: Library, post: Post) -> None:
    """(thread) Post what the index holds at once, then bring it up to date and post that; a long update (the
    first one) posts what it has committed so far as it goes, every LISTING_EVERY seconds at most."""
    last = listed = 0.0  # when progress and the projects were last posted
    shown = 0  # files done when the projects were last read

    def progress(done: Progress) -> None:
        nonlocal last, listed, shown
        now = time.monotonic()
        if now - last >= PROGRESS_EVERY:
            last = now
            post(LibraryProgress(done.files_done, done.files_total))
        if now - listed >= LISTING_EVERY and shown < done.files_done < done.files_total:
            listed, shown = now, done.files_done  # what the index has committed so far: the list fills
            library.reload()
            post(LibraryLoaded(list(library.projects), [], final=False))

    try:
        library.reload()
        if library.projects:
            listed = time.monotonic()
            post(LibraryLoaded(list(library.projects), [], final=False))
        library.refresh(progress)
        post(LibraryLoaded(list(library.projects), list(library.notices)))
    except Exception as exc:  # a broken cache or root must not take the app down
        post(LibraryLoaded([], [], f"{type(exc).__name__}: {exc}"))


def refresh(library: Library, post: Post) -> UpdateResult:
    """(thread) Bring the index up to date; post the library (`live`) when anything changed. Its errors are the
    caller's."""
    shown = library.projects
    result = library.refresh()
    if library.projects is not shown:  # read again: this update, or another claude-tui's, changed the index
        post(LibraryLoaded(list(library.projects), list(library.notices), live=True))
    return result
