"""watchfiles -> which session files changed under the roots.

An event only wakes the reader; the reader decides what is new by reading from
its offset. So the events need not be exact, only prompt: watchfiles' defaults
hold changes for up to 1.6 s, far too long for a live view.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from pathlib import Path

from claude_tui.core.files import is_session_name

#: Longest a change waits to be reported while more keep coming (ms): bounds latency during bursts.
DEBOUNCE_MS = 60
#: Quiet time after a change before it is reported (ms): a lone append is reported this soon.
STEP_MS = 10


@dataclass(frozen=True, slots=True)
class Changes:
    """One batch of changes: session-related files that were added, modified or deleted."""

    modified: frozenset[Path]  #: written to or added
    deleted: frozenset[Path]
    other: frozenset[Path]  #: anything else: folders that appeared or vanished (new projects, subagents)
    added: frozenset[Path] = frozenset()  #: of `modified`, those made or renamed in (`mv tmp x.jsonl`)

    def __bool__(self) -> bool:
        return bool(self.modified or self.deleted or self.other)


def classify(raw: Iterable[tuple[int, str]]) -> Changes:
    """Sort watchfiles' (Change, path) pairs into what a reader cares about."""
    from watchfiles import Change

    modified: set[Path] = set()
    deleted: set[Path] = set()
    other: set[Path] = set()
    added: set[Path] = set()
    for change, name in raw:
        path = Path(name)
        if is_session_name(path.name):
            (deleted if change == Change.deleted else modified).add(path)
            if change == Change.added:
                added.add(path)
        else:
            other.add(path)
    return Changes(frozenset(modified), frozenset(deleted), frozenset(other), frozenset(added))


async def watch_roots(roots: list[Path], stop: asyncio.Event | None = None) -> AsyncIterator[Changes]:
    """Yield batches of changes under the existing roots until `stop` is set."""
    from watchfiles import awatch

    existing = [str(r) for r in roots if r.is_dir()]
    if not existing:
        return
    async for raw in awatch(
        *existing,
        debounce=DEBOUNCE_MS,
        step=STEP_MS,
        stop_event=stop,
        recursive=True,
        watch_filter=None,
        yield_on_timeout=False,
        ignore_permission_denied=True,
    ):
        changes = classify(raw)
        if changes:
            yield changes
