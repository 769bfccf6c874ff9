"""A history's usage kept for a screen that shows it as it changes: read whole from the index once, then again only
for the files whose rows in the index changed (a live session appends to one file; a history holds thousands).

What it gives is what `usage_report.load_usage` reads whole, spend for spend (tests hold the two equal after every
kind of change). A message that several files hold counts once, in one of them, and may move between them as they
change: the files that share messages with one that changed are read again with it (see index.usage.changed_usage),
and a file removed that shared some has the whole history read again.

The `usage` command keeps its feed beside the index between runs (kept_usage): a run after a session grew reads that
session again, not the whole history.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from datetime import tzinfo
from itertools import accumulate, chain
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from claude_tui.core.collector import gc_paused
from claude_tui.core.forked import Forked
from claude_tui.core.index.usage import (
    COUNTS,
    NO_TIME,
    FileRow,
    UsageChange,
    UsageRead,
    changed_usage,
    read_usage,
    usage_state,
)
from claude_tui.core.usage_figures import Change
from claude_tui.core.usage_report import SessionRef, Spend, Usage, counts, file_sessions, spends_of

if TYPE_CHECKING:
    from claude_tui.core.index.store import Index

#: The file beside the index that keeps the `usage` command's feed between runs (see kept_usage), and the version of
#: its format.
CACHE = "usage.json"
CACHE_FORMAT = 2
#: Spends from which the feed is kept by a forked child (fewer are written in less time than a fork takes).
KEPT_APART = 10_000
_COUNTS = attrgetter(*COUNTS)


@contextmanager
def kept_usage(index: Index, roots: list[Path], zone: tzinfo | None = None) -> Iterator[Usage]:
    """The usage of every session under `roots`, from the index as it is (bring it up to date first), for a command
    run again and again: what the run before kept beside the index (CACHE), taken as it is while no file under the
    roots changed, and its feed read on for those that did.

    The file holds two lines of JSON: the report's sums (all an unchanged history needs), then the feed's state (the
    files, their stamps and which sums are whose), read only when something changed. It is then kept again: for a
    history of KEPT_APART spends or more, by a forked child while the caller makes its report (on another core: the
    15,000-session history's takes as long as its table), the child waited for on leaving so that the next run
    finds it."""
    names = [str(root) for root in roots]
    with gc_paused():  # tens of thousands of sums made at once
        kept = _kept(index.folder / CACHE, names) if index.path is not None else None
        if kept is not None and index.read(roots, lambda db: usage_state(db, names)) == kept[0]["state"]:
            usage = _usage_kept(kept[0], zone)
            if usage is not None:
                yield usage
                return
        feed = (UsageFeed.taken(roots, *kept) if kept is not None else None) or UsageFeed(roots)
        usage = feed.read(index, zone)
        if len(usage.spends) < KEPT_APART:
            _keep(index, feed)
            yield usage
            return
        keeping = Forked(_keep, index, feed)
        try:
            yield usage
        except BaseException:
            keeping.close()  # the report failed or was stopped: the child is waited for, its file left whole
            raise
        keeping.result()


def _keep(index: Index, feed: UsageFeed) -> None:
    """Keep the feed beside the index (see kept_usage)."""
    with suppress(TypeError):  # a sum orjson cannot write (past 64 bits): nothing kept, read again next time
        index.keep(CACHE, feed.dump())


def _kept(path: Path, names: list[str]) -> tuple[dict[str, Any], bytes] | None:
    """The report part of the file `path` (parsed) and its feed part (not yet); None when it is not there, is damaged,
    or holds another format's or other roots' usage."""
    try:
        head, _, tail = path.read_bytes().partition(b"\n")
        report = orjson.loads(head)
        return (report, tail) if type(report) is dict and report.get("key") == [CACHE_FORMAT, names] else None
    except (OSError, orjson.JSONDecodeError):
        return None


def _usage_kept(report: dict[str, Any], zone: tzinfo | None) -> Usage | None:
    """The usage of a report part (see kept_usage); None when it is damaged."""
    try:
        return Usage(_spends_kept(report)[1], zone)
    except _DAMAGED:
        return None


def _spends_kept(report: dict[str, Any]) -> tuple[list[SessionRef], list[Spend]]:
    """The sessions and the spends of a report part (see kept_usage); one of _DAMAGED when it is damaged."""
    sessions = [SessionRef._make(ref) for ref in report["sessions"]]
    return sessions, list(spends_of(report["sums"], sessions))


#: What reading a damaged kept file raises (orjson.JSONDecodeError is a ValueError).
_DAMAGED = (KeyError, TypeError, ValueError, IndexError)


class UsageFeed:
    """The usage of every session under `roots`, kept between reads (from any thread: one read at a time)."""

    def __init__(self, roots: list[Path]) -> None:
        self.roots = roots
        self._names = [str(root) for root in roots]
        self.state: list[Any] | None = None  #: the files' state the last read found (see usage_state)
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
            usage = self.usage(zone)
            self._last = (self._last[1], usage, change)
            return usage

    def usage(self, zone: tzinfo | None = None) -> Usage:
        """The usage the last read found, in time zone `zone`."""
        return Usage(chain.from_iterable(self._spends.values()), zone)

    def dump(self) -> bytes:
        """What the last read found, as kept_usage keeps it (see `taken`). TypeError for a sum past 64 bits."""
        sessions: dict[SessionRef, int] = {}
        number = sessions.setdefault
        sums: list[tuple[Any, ...]] = []
        spans: list[int] = []
        for fid, spends in self._spends.items():
            if spends:
                spans += (fid, len(spends))
            sums += [
                (number(ref, len(sessions)), NO_TIME if quarter is None else quarter, key or "", n, *_COUNTS(tokens),
                 first, last)
                for ref, quarter, key, n, tokens, first, last in spends
            ]  # fmt: skip
        owners = [n for fid, ref in self._refs.items() for n in (fid, number(ref, len(sessions)))]
        sessions_kept = [tuple(ref) for ref in sessions]
        report = {"key": [CACHE_FORMAT, self._names], "state": self.state, "sessions": sessions_kept, "sums": sums}
        feed = {
            "stamps": [n for pair in (self._stamps or {}).items() for n in pair],
            "touched": sorted(self._touched),
            "files": list(self._files.values()),
            "owners": owners,
            "spans": spans,
        }
        return orjson.dumps(report) + b"\n" + orjson.dumps(feed)

    @classmethod
    def taken(cls, roots: list[Path], report: dict[str, Any], kept: bytes) -> UsageFeed | None:
        """The feed `dump` kept (its report part parsed, its feed part not yet), to read on from; None when it is
        damaged."""
        feed = cls(roots)
        try:
            found = orjson.loads(kept)
            stamps, owners, spans = found["stamps"], found["owners"], found["spans"]
            sessions, spends = _spends_kept(report)
            feed.state, feed._touched = report["state"], set(found["touched"])
            feed._stamps = dict(zip(stamps[::2], stamps[1::2], strict=True))
            feed._add_files(tuple(row) for row in found["files"])
            feed._refs = {fid: sessions[n] for fid, n in zip(owners[::2], owners[1::2], strict=True)}
            starts = list(accumulate(spans[1::2], initial=0))
            if starts[-1] != len(spends):
                return None
            mine = {fid: spends[start:end] for fid, start, end in zip(spans[::2], starts, starts[1:], strict=False)}
            feed._spends = {fid: mine.get(fid, []) for fid in feed._files}
        except _DAMAGED:
            return None
        return feed

    def change(self, since: Usage, now: Usage) -> Change | None:
        """The spends that went and came from usage `since` to usage `now`, when this feed read them one after the
        other; None for any others (or when it read `now` whole)."""
        with self._lock:
            before, after, change = self._last
        return change if since is before and now is after else None

    def _read_whole(self, read: UsageRead) -> None:
        self.whole_reads += 1
        self.state, self._stamps, self._touched = read.state, read.stamps, read.touched
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
        self.state, self._stamps = found.state, found.stamps
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
