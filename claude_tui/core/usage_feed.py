"""A history's usage kept for a screen that shows it as it changes: read whole from the index once, then again only
for the files whose rows in the index changed (a live session appends to one file; a history holds thousands).

What it gives is what `usage_report.load_usage` reads whole, spend for spend (tests hold the two equal after every
kind of change): a message that several files hold moves its count from one file to another as they change, so a
change that touches one is read whole again (see index.usage.changed_usage), as is a file removed that held one.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import tzinfo
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_tui.core.collector import gc_paused
from claude_tui.core.index.usage import FileRow, FileStamp, UsageChange, UsageRead, changed_usage, read_usage
from claude_tui.core.usage_report import SessionRef, Spend, Usage, counts, file_sessions, spends_of

if TYPE_CHECKING:
    from claude_tui.core.index.store import Index


class UsageFeed:
    """The usage of every session under `roots`, kept between reads (one read at a time: a screen's worker)."""

    def __init__(self, roots: list[Path]) -> None:
        self.roots = roots
        self._names = [str(root) for root in roots]
        self._stamps: dict[int, FileStamp] | None = None  #: by file id, as the last read found them
        self._touched: set[int] = set()  #: files that share messages with others (see UsageRead.touched)
        self._files: dict[int, FileRow] = {}  #: in the index's order (by id): a new file comes last
        self._folders: dict[str, set[int]] = {}  #: the files of each project folder
        self._sums: dict[int, list[tuple[Any, ...]]] = {}
        self._refs: dict[int, SessionRef] = {}
        self._spends: dict[int, list[Spend]] = {}
        self.whole_reads = 0  #: reads of every file's usage (the first, and those a change could not be told in)

    def read(self, index: Index, zone: tzinfo | None = None) -> Usage:
        """The usage now, in time zone `zone` (None: the local one), from the index as it is."""
        with gc_paused():  # tens of thousands of sums made at once, the first time
            change = None
            if self._stamps is not None:
                stamps = self._stamps
                change = index.read(self.roots, lambda db: changed_usage(db, self._names, stamps))
            if change is None or not self._gone(change).isdisjoint(self._touched):
                self._read_whole(index.read(self.roots, lambda db: read_usage(db, self._names)))
            else:
                self._take(change)
            return Usage(chain.from_iterable(self._spends.values()), zone)

    def _gone(self, change: UsageChange) -> set[int]:
        return set(self._files) - change.stamps.keys()

    def _read_whole(self, read: UsageRead) -> None:
        self.whole_reads += 1
        self._stamps, self._touched = read.stamps, read.touched
        self._files, self._folders, self._sums = {}, {}, {}
        self._add_files(sorted(read.files), read.sums)
        self._refs = file_sessions(read.files)
        self._spends = {fid: self._spends_of(fid) for fid in self._files}

    def _take(self, change: UsageChange) -> None:
        """Put the files that changed in place of what they were, and tell again the sessions of their folders'
        files (a subagent's transcript belongs to its session's file once that comes; a project is named by its
        files' working folders)."""
        gone = self._gone(change)
        folders = {self._files[fid][2] for fid in gone} | {row[2] for row in change.files}
        for fid in gone:
            self._folders[self._files.pop(fid)[2]].discard(fid)
            del self._sums[fid], self._spends[fid]
            self._refs.pop(fid, None)
        known = len(self._files)
        self._add_files(sorted(change.files), change.sums)
        came = len(self._files) > known
        changed = {row[0] for row in change.files}
        told = file_sessions([self._files[fid] for folder in folders for fid in self._folders.get(folder, ())])
        for fid, ref in told.items():
            if fid in changed or self._refs.get(fid) != ref:
                self._refs[fid] = ref
                self._spends[fid] = self._spends_of(fid)
        if came:  # in the files' order, as a whole read has them
            self._spends = {fid: self._spends[fid] for fid in self._files}
        self._stamps = change.stamps

    def _add_files(self, files: Iterable[FileRow], sums: Iterable[tuple[Any, ...]]) -> None:
        for row in files:
            self._files[row[0]] = row
            self._folders.setdefault(row[2], set()).add(row[0])
            self._sums[row[0]] = []
        for row in sums:
            if (held := self._sums.get(row[0])) is not None:
                held.append(row)

    def _spends_of(self, fid: int) -> list[Spend]:
        ref = self._refs.get(fid)
        if ref is None:
            return []
        return list(spends_of([(0, *row[1:]) for row in self._sums[fid] if counts(row)], (ref,)))
