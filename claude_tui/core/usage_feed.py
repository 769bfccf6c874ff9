"""A history's usage kept for a screen that shows it as it changes: read whole from the index once, then again only
for the files whose rows in the index changed (a live session appends to one file; a history holds thousands).

What it gives is what `usage_report.load_usage` reads whole, spend for spend (tests hold the two equal after every
kind of change). A message that several files hold counts once, in one of them, and may move between them as they
change: the files that share messages with one that changed are read again with it (see index.usage.changed_usage),
and a file removed that shared some has the whole history read again.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from datetime import tzinfo
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_tui.core.collector import gc_paused
from claude_tui.core.index.usage import FileRow, UsageChange, UsageRead, changed_usage, read_usage
from claude_tui.core.usage_figures import Change
from claude_tui.core.usage_report import SessionRef, Spend, Usage, counts, file_sessions, spends_of

if TYPE_CHECKING:
    from claude_tui.core.index.store import Index


class UsageFeed:
    """The usage of every session under `roots`, kept between reads (from any thread: one read at a time)."""

    def __init__(self, roots: list[Path]) -> None:
        self.roots = roots
        self._names = [str(root) for root in roots]
        self._stamps: dict[int, int] | None = None  #: by file id, as the last read found them (see file_stamps)
        self._touched: set[int] = set()  #: files that share messages with others (see UsageRead.touched)
        self._files: dict[int, FileRow] = {}  #: in the index's order (by id): a new file comes last
        self._folders: dict[str, set[int]] = {}  #: the files of each project folder
        self._refs: dict[int, SessionRef] = {}
        self._spends: dict[int, list[Spend]] = {}
        self._lock = threading.Lock()  #: a screen's count runs in a thread, and may outlive its screen
        self.whole_reads = 0  #: reads of every file's usage (the first, and those a change could not be told in)
        #: the last two reads, and what changed between them
        self._last: tuple[Usage | None, Usage | None, Change | None] = (None, None, None)

    def read(self, index: Index, zone: tzinfo | None = None) -> Usage:
        """The usage now, in time zone `zone` (None: the local one), from the index as it is."""
        with self._lock, gc_paused():  # tens of thousands of sums made at once, the first time
            found = None
            if self._stamps is not None:
                stamps = self._stamps
                found = index.read(self.roots, lambda db: changed_usage(db, self._names, stamps))
            gone = set(self._files) - found.stamps.keys() if found is not None else set()
            change = None
            if found is None or not gone.isdisjoint(self._touched):
                self._read_whole(index.read(self.roots, lambda db: read_usage(db, self._names, stamped=True)))
            else:
                change = self._take(found, gone)
            usage = Usage(chain.from_iterable(self._spends.values()), zone)
            self._last = (self._last[1], usage, change)
            return usage

    def change(self, since: Usage, now: Usage) -> Change | None:
        """The spends that went and came from usage `since` to usage `now`, when this feed read them one after the
        other; None for any others (or when it read `now` whole)."""
        with self._lock:
            before, after, change = self._last
        return change if since is before and now is after else None

    def _read_whole(self, read: UsageRead) -> None:
        self.whole_reads += 1
        self._stamps, self._touched = read.stamps, read.touched
        self._files, self._folders = {}, {}
        self._add_files(sorted(read.files))
        self._refs = file_sessions(read.files)
        sums = _by_file(read.sums)
        self._spends = {fid: self._spends_of(fid, sums.get(fid, ())) for fid in self._files}

    def _take(self, found: UsageChange, gone: set[int]) -> Change:
        """Put the files read again in place of what they were; tell again the sessions of their folders' files,
        unless all that tells them is as it was (the usual: files grew). A subagent's transcript belongs to its
        session's file once that comes; a project is named by its files' working folders. `gone`: the files no longer
        there."""
        retell = bool(gone) or any(self._files.get(row[0]) != row for row in found.files)
        folders = {self._files[fid][2] for fid in gone} | {row[2] for row in found.files}
        went: list[Spend] = []
        came: list[Spend] = []
        for fid in gone:
            self._folders[self._files.pop(fid)[2]].discard(fid)
            went += self._spends.pop(fid)
            self._refs.pop(fid, None)
        known = len(self._files)
        self._add_files(sorted(found.files))
        read_again = {row[0] for row in found.files}
        moved = set()
        if retell:
            told = file_sessions([self._files[fid] for folder in folders for fid in self._folders.get(folder, ())])
            moved = {fid for fid, ref in told.items() if self._refs.get(fid) != ref} - read_again
            self._refs.update(told)
        self._touched = (self._touched - read_again) | found.touched
        sums = _by_file(found.sums)
        for fid in read_again | moved:
            old = self._spends.get(fid, [])
            new = self._spends_of(fid, sums.get(fid, ())) if fid in read_again else _moved(old, self._refs[fid])
            went += old
            came += new
            self._spends[fid] = new
        if len(self._files) > known:  # in the files' order, as a whole read has them
            self._spends = {fid: self._spends[fid] for fid in self._files}
        self._stamps = found.stamps
        return Change(went, came)

    def _add_files(self, files: Iterable[FileRow]) -> None:
        for row in files:
            self._files[row[0]] = row
            self._folders.setdefault(row[2], set()).add(row[0])

    def _spends_of(self, fid: int, sums: Iterable[tuple[Any, ...]]) -> list[Spend]:
        ref = self._refs.get(fid)
        return [] if ref is None else list(spends_of([(0, *row[1:]) for row in sums if counts(row)], (ref,)))


def _by_file(sums: Iterable[tuple[Any, ...]]) -> dict[int, list[tuple[Any, ...]]]:
    found: dict[int, list[tuple[Any, ...]]] = {}
    for row in sums:
        found.setdefault(row[0], []).append(row)
    return found


def _moved(spends: list[Spend], ref: SessionRef) -> list[Spend]:
    """A file's spends, now of session `ref` (a subagent's transcript whose session came, a project renamed)."""
    return [spend._replace(session=ref) for spend in spends]
