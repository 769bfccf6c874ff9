"""Usage over time: what Claude Code used by day, week, month, session, project, model and 5-hour block.

Read from the index's usage sums (index/usage.py), each message counted once over the whole history, with the
rules of `stats` (usage.py): a streamed message's usage once, subagents counted wherever their transcripts are,
1-hour cache writes and long context priced as they are billed. A message belongs to the day of its time in the
report's time zone (the local one by default).

A 5-hour block is a window of Claude's usage limits: it starts on the hour of the first message after the last
block ended (as ccusage counts them) and lasts five hours. The block running now has a burn rate: what it used
since its first message, a minute or an hour, and where it ends at that rate.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from copy import copy
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import orjson

from claude_tui.core.collector import gc_paused
from claude_tui.core.facts import encode_path, project_path
from claude_tui.core.files import owning_folder, session_file, stem_of
from claude_tui.core.index.usage import NO_TIME, QUARTER, FileRow, read_usage
from claude_tui.core.library import session_id_of
from claude_tui.core.usage import Tokens, UsageTotal, model_of

if TYPE_CHECKING:
    from claude_tui.core.index.store import Index

#: The reports of `claude-tui usage`, as ccusage names them.
REPORTS = ("daily", "weekly", "monthly", "session", "blocks")
#: How long a block lasts, in seconds.
BLOCK_SECONDS = 5 * 3600
#: Seconds in a day, and the ordinal of the epoch's (1970-01-01).
DAY = 86400
_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
#: No tokens at all.
_NONE = Tokens()
#: What stands for a model that no record named.
UNKNOWN_MODEL = "unknown"


class SessionRef(NamedTuple):
    """A session, as the library lists it: enough to open it."""

    path: str  #: its file (for a session folder with no file, the file it would have: files.folder_only)
    id: str
    project: str  #: the path of its project


class Spend(NamedTuple):
    """What one session used in one quarter hour under one `usage.priced_as` key (a model, marked when billed at
    other rates)."""

    session: SessionRef
    quarter: int | None  #: the epoch seconds it starts at; None for messages with no time
    key: str | None
    messages: int
    tokens: Tokens
    first: int | None  #: the epoch seconds of its first message, and of its last
    last: int | None


_SESSION, _QUARTER = itemgetter(0), itemgetter(1)  #: a spend's session, and its quarter


class Period:
    """What a set of spends used: tokens per `priced_as` key, the sessions, the messages and when."""

    def __init__(self, name: str, spends: Iterable[Spend] = ()) -> None:
        self.name = name
        self.spends: list[Spend] = []
        self.usage: dict[str | None, Tokens] = {}
        self.sessions: dict[SessionRef, None] = {}  #: in the order they first came
        self.messages = 0
        self.first: int | None = None  #: the epoch seconds of the first message, and of the last
        self.last: int | None = None
        self._total: UsageTotal | None = None
        self.extend(spends)

    def add(self, spend: Spend) -> None:
        self.extend((spend,))

    def extend(self, spends: Iterable[Spend]) -> None:
        added = spends if type(spends) is list else list(spends)
        self.spends += added
        usage, sessions = self.usage, self.sessions
        first, last, messages = self.first, self.last, self.messages
        for session, _, key, count, tokens, began, ended in added:  # unpacked: a third faster than by name
            summed = usage.get(key)
            if summed is None:
                summed = usage[key] = Tokens()
            summed.add(tokens)
            sessions[session] = None
            messages += count
            if began is not None and (first is None or began < first):
                first = began
            if ended is not None and (last is None or ended > last):
                last = ended
        self.first, self.last, self.messages = first, last, messages
        self._total = None

    def patched(self, removed: Collection[Spend], added: Iterable[Spend]) -> Period:
        """This period less the spends `removed` (some of its own) and with those `added`, as a new one: what
        Period(name, its spends less `removed`, then `added`) holds, without adding up again all it holds. This one
        stays as it was (a screen may be showing it)."""
        drop = {id(spend) for spend in removed}
        new = Period(self.name)
        new.spends = [spend for spend in self.spends if id(spend) not in drop]
        if len(new.spends) != len(self.spends) - len(drop):
            raise ValueError("a spend removed is not the period's")
        gone = Period("", removed)
        for key, tokens in self.usage.items():
            left = tokens.less(gone.usage[key]) if key in gone.usage else copy(tokens)
            if left != _NONE:  # some spend of that key is left (each holds some tokens: see counts)
                new.usage[key] = left
        new.messages = self.messages - gone.messages
        # by map, not a generator: a project's or the total's period holds tens of thousands of spends
        new.sessions = dict.fromkeys(map(_SESSION, new.spends)) if drop else dict(self.sessions)
        new.first, new.last = self.first, self.last
        came = Period("", added)
        # a live session's last spend is read again and comes back later: the first and last need no looking for
        if drop and gone.first == self.first and (came.first is None or gone.first is None or came.first > gone.first):
            new.first = min((s.first for s in new.spends if s.first is not None), default=None)
        if drop and gone.last == self.last and (came.last is None or gone.last is None or came.last < gone.last):
            new.last = max((s.last for s in new.spends if s.last is not None), default=None)
        new.extend(came.spends)
        return new

    @property
    def session(self) -> SessionRef | None:
        """The session of a period that holds one (a session's period: see Usage.sessions)."""
        return next(iter(self.sessions)) if len(self.sessions) == 1 else None

    @property
    def total(self) -> UsageTotal:
        """The tokens, their cost (None when no model used has a price), and the models used that have none."""
        if self._total is None:
            self._total = UsageTotal.of_models(self.usage)
        return self._total

    def models(self) -> dict[str, UsageTotal]:
        """The total of each model (its long-context requests with it), the costliest first (then by tokens)."""
        keys: dict[str, dict[str | None, Tokens]] = {}
        for key, tokens in self.usage.items():
            keys.setdefault(model_of(key) or UNKNOWN_MODEL, {})[key] = tokens
        totals = {model: UsageTotal.of_models(usage) for model, usage in keys.items()}
        return dict(sorted(totals.items(), key=lambda item: _heaviest(item[1])))


def _heaviest(total: UsageTotal) -> tuple[float, int]:
    return -(total.cost or 0.0), -total.tokens.total


def by_weight(periods: Iterable[Period]) -> list[Period]:
    """Projects or models, the costliest first (then the most tokens, then by name)."""
    return sorted(periods, key=lambda p: (*_heaviest(p.total), p.name))


def with_shares(periods: list[Period]) -> list[tuple[Period, float]]:
    """Each period with its share of their cost (of their tokens, when no model used has a price)."""
    costs = [p.total.cost or 0.0 for p in periods]
    weights = costs if any(costs) else [float(p.total.tokens.total) for p in periods]
    whole = sum(weights) or 1.0
    return [(p, w / whole) for p, w in zip(periods, weights, strict=True)]


#: What the project and model reports group spends by.
GROUPS: dict[str, Callable[[Spend], str]] = {
    "project": lambda spend: spend.session.project,
    "model": lambda spend: model_of(spend.key) or UNKNOWN_MODEL,
}


@dataclass(frozen=True, slots=True)
class Burn:
    """How fast the running block uses tokens, and where it ends at that pace."""

    tokens_per_minute: float
    usd_per_hour: float | None
    minutes_left: float
    projected_tokens: int
    projected_usd: float | None


class Block(Period):
    """A 5-hour window of Claude's usage limits, and what was used in it."""

    def __init__(self, name: str, start: int) -> None:
        super().__init__(name)
        self.start = start
        self.end = start + BLOCK_SECONDS
        self.running = False  #: whether "now" (Usage.blocks) is in it

    def burn(self, now: float) -> Burn | None:
        """The pace since the block's first message, up to `now`; None for a block that is not running."""
        if not self.running or self.first is None:
            return None
        minutes = max(1.0, (now - self.first) / 60)
        left = max(0.0, (self.end - now) / 60)
        total = self.total
        per_minute = total.tokens.total / minutes
        per_hour = None if total.cost is None else total.cost / minutes * 60
        return Burn(
            per_minute,
            per_hour,
            left,
            round(total.tokens.total + per_minute * left),
            None if total.cost is None or per_hour is None else total.cost + per_hour * left / 60,
        )


class Usage:
    """A history's spends, and the reports made of them in time zone `zone` (None: the local one)."""

    def __init__(self, spends: Iterable[Spend], zone: tzinfo | None = None) -> None:
        self.spends = list(spends)
        self.zone = zone
        self._offsets: dict[int, tuple[int, int]] = {}  #: by UTC day: the zone's offset at its start and its end

    def day_of(self, epoch: int) -> date:
        """The day of a time, in the zone."""
        return date.fromordinal(self._day(epoch))

    def _day(self, epoch: int) -> int:
        """The ordinal of the day of a time, in the zone: from its offset that UTC day (found once a day), unless the
        zone's clock changes that day."""
        utc_day = epoch // DAY
        offsets = self._offsets.get(utc_day)
        if offsets is None:
            offsets = self._offsets[utc_day] = (self._offset(utc_day * DAY), self._offset(utc_day * DAY + DAY - 1))
        if offsets[0] == offsets[1]:
            return _EPOCH_ORDINAL + (epoch + offsets[0]) // DAY
        return self.moment(epoch).toordinal()

    def _offset(self, epoch: int) -> int:
        if self.zone is None:
            return time.localtime(epoch).tm_gmtoff
        offset = self.zone.utcoffset(datetime.fromtimestamp(epoch, self.zone))
        return int(offset.total_seconds()) if offset is not None else 0

    def moment(self, epoch: int) -> datetime:
        """A time in the zone, with its offset."""
        moment = datetime.fromtimestamp(epoch, self.zone)
        return moment if self.zone is not None else moment.astimezone()

    @property
    def untimed(self) -> int:
        """Messages with no time: in the session, project and model reports, not in those by date."""
        return sum(spend.messages for spend in self.spends if spend.quarter is None)

    def where(
        self,
        since: date | None = None,
        until: date | None = None,
        project: str | None = None,
        model: str | None = None,
    ) -> Usage:
        """The spends of days from `since` to `until` (both included), of projects whose path contains `project`
        (whatever the case), of the model `model`."""
        text = project.casefold() if project else None
        dated = since is not None or until is not None
        if not dated and text is None and model is None:
            return self
        low, high = since.toordinal() if since else 0, until.toordinal() if until else date.max.toordinal()

        def kept(spend: Spend) -> bool:
            if dated and (spend.quarter is None or not low <= self._day(spend.quarter) <= high):
                return False
            if text is not None and text not in spend.session.project.casefold():
                return False
            return model is None or (model_of(spend.key) or UNKNOWN_MODEL) == model

        return self._of([s for s in self.spends if kept(s)])

    def periods(self, report: str) -> list[Period]:
        """The periods of a report: `daily`, `weekly`, `monthly` (oldest first: messages with no time left out),
        `session` (by last activity), `project` or `model` (the costliest first). See `blocks` for blocks."""
        if report == "session":
            found = _grouped(self.spends, lambda s: s.session, lambda ref: ref.id)
            return sorted(found, key=lambda p: (p.last is not None, p.last or 0))
        if report in ("project", "model"):
            return by_weight(_grouped(self.spends, GROUPS[report], str))
        name = _NAMES[report]
        names: dict[int, str] = {}  #: by day
        days: dict[str, list[Spend]] = {}
        for spend in self.spends:
            if spend.quarter is not None:
                day = self._day(spend.quarter)
                label = names.get(day)
                if label is None:
                    label = names[day] = name(date.fromordinal(day))
                days.setdefault(label, []).append(spend)
        return [Period(label, days[label]) for label in sorted(days)]

    def _of(self, spends: list[Spend]) -> Usage:
        """Some of its spends, in its zone (the offsets it found kept: they are the zone's)."""
        narrower = Usage(spends, self.zone)
        narrower._offsets = self._offsets
        return narrower

    def _days(self, first: int, last: int) -> Usage:
        """The spends from the start of day `first` (an ordinal) to the end of day `last`, in UTC: with a day to
        spare at each end, those of days `first` + 1 to `last` - 1 in any zone, and only a few more."""
        since, until = (first - _EPOCH_ORDINAL) * DAY, (last - _EPOCH_ORDINAL + 1) * DAY
        return self._of([s for s in self.spends if s.quarter is not None and since <= s.quarter < until])

    def recent(self, report: str, count: int, now: float) -> list[Period]:
        """The last `count` days, weeks or months up to `now`'s, oldest first, those with no usage included."""
        names, before = self._recent(report, count, now)
        found = {p.name: p for p in self._days(before - 32, self._day(int(now)) + 32).periods(report)}
        return [found.get(n) or Period(n) for n in names]

    def recent_names(self, report: str, count: int, now: float) -> list[str]:
        """The names of the last `count` days, weeks or months up to `now`'s, oldest first."""
        return self._recent(report, count, now)[0]

    def _recent(self, report: str, count: int, now: float) -> tuple[list[str], int]:
        """recent_names, and the ordinal of a day before the first of them."""
        name = _NAMES[report]
        day = self.day_of(int(now))
        names: list[str] = []
        while len(names) < count:
            if not names or name(day) != names[-1]:
                names.append(name(day))
            day -= timedelta(days=1)
        return names[::-1], day.toordinal()

    def period_name(self, report: str, quarter: int) -> str:
        """The name of the day, week or month (`report`) of a time, in the zone."""
        return _NAMES[report](date.fromordinal(self._day(quarter)))

    def shares(self, report: str) -> list[tuple[Period, float]]:
        """The projects or models (`report`), the costliest first, each with its share of the cost (of the tokens,
        when no model used has a price)."""
        return with_shares(self.periods(report))

    def sessions(self, period: Period) -> list[Period]:
        """The sessions of a period (a day, a project, a model, a block), the costliest first (then the latest)."""
        found = self._of(period.spends).periods("session")
        return sorted(found, key=lambda p: (*_heaviest(p.total), -(p.last or 0)))

    def blocks(self, now: float) -> list[Block]:
        """The 5-hour blocks, oldest first; the one `now` is in marked running."""
        blocks: list[Block] = []
        for spend in sorted((s for s in self.spends if s.quarter is not None), key=lambda s: s.quarter or 0):
            quarter = spend.quarter or 0
            if not blocks or quarter >= blocks[-1].end:  # quarters and blocks both begin on the quarter hour
                start = quarter - quarter % 3600
                blocks.append(Block(self.moment(start).isoformat(), start))
            blocks[-1].add(spend)
        if blocks and blocks[-1].start <= now < blocks[-1].end:
            blocks[-1].running = True
        return blocks

    def last_block(self, now: float) -> Block | None:
        """The last of the `blocks`, made of the spends from the last pause of a block's length or more on: the first
        spend after such a pause begins a block, whatever came before."""
        quarters = set(map(_QUARTER, self.spends))
        quarters.discard(None)
        if not quarters:
            return None
        since = _after_last_pause(quarters)
        last = self._of([s for s in self.spends if s.quarter is not None and s.quarter >= since]).blocks(now)
        return last[-1] if last else None

    def total(self) -> Period:
        """All of it, as one period."""
        return Period("Total", self.spends)


def _after_last_pause(quarters: set[int]) -> int:
    """The first quarter hour after the last pause of a block's length or more (the first of all when none is):
    walked back from the last, a quarter hour at a time, while some spend is less than a block's length before."""
    since = max(quarters)
    while True:
        before = next((q for q in range(since - QUARTER, since - BLOCK_SECONDS, -QUARTER) if q in quarters), None)
        if before is None:
            return since
        since = before


def total_of(periods: Iterable[Period]) -> UsageTotal:
    """The periods' tokens and cost, together."""
    usage: dict[str | None, Tokens] = {}
    for period in periods:
        for key, tokens in period.usage.items():
            usage.setdefault(key, Tokens()).add(tokens)
    return UsageTotal.of_models(usage)


def _grouped(spends: list[Spend], by: Callable[[Spend], Hashable], name: Callable[[Any], str]) -> list[Period]:
    """The periods of `spends` by the key `by` gives them, each named by `name` of its key."""
    found: dict[Hashable, list[Spend]] = {}
    for spend in spends:
        found.setdefault(by(spend), []).append(spend)
    return [Period(name(key), group) for key, group in found.items()]


def _week(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


#: The name of a day's period in each report by date.
_NAMES: dict[str, Callable[[date], str]] = {
    "daily": date.isoformat,
    "weekly": _week,
    "monthly": lambda day: f"{day.year}-{day.month:02d}",
}


# ---------------------------------------------------------------- from the index


def load_usage(index: Index, roots: list[Path], zone: tzinfo | None = None) -> Usage:
    """The usage of every session under `roots`, from the index as it is (bring it up to date first), read whole (see
    usage_feed for a read kept and read again in part)."""
    names = [str(root) for root in roots]
    with gc_paused():  # tens of thousands of sums made at once
        read = index.read(roots, lambda db: read_usage(db, names))
        sessions = file_sessions(read.files)
        refs = list(dict.fromkeys(sessions.values()))
        number = {ref: i for i, ref in enumerate(refs)}
        rows = [[number[sessions[row[0]]], *row[1:]] for row in read.sums if counts(row) and row[0] in sessions]
        return Usage(spends_of(rows, refs), zone)


def counts(row: tuple[Any, ...] | list[Any]) -> bool:
    """Whether a row of sums (see index.usage.read_usage) counts: some message with some tokens."""
    return bool(row[3] > 0 and any(row[4:-2]))


def spends_of(rows: Iterable[tuple[Any, ...] | list[Any]], refs: Sequence[SessionRef]) -> Iterator[Spend]:
    """The spends of rows of sums whose first item is the number of their session in `refs`."""
    make = Spend._make  # a tuple's own constructor: a third of the time of Spend(...)
    for row in rows:
        yield make((refs[row[0]], None if row[1] == NO_TIME else row[1], row[2] or None, row[3], Tokens(*row[4:-2]),
                    row[-2], row[-1]))  # fmt: skip


def file_sessions(files: list[FileRow]) -> dict[int, SessionRef]:
    """The session each file belongs to, by file id, as the library lists them: a subagent's transcript belongs to
    its session (one with no file goes by the file it would have), unless it lies beside the sessions and its
    session has no file: then it is a session of its own."""
    rows = [
        (fid, path, folder, agent, _session_id(path, sids), owner) for fid, path, folder, agent, sids, owner, _ in files
    ]
    mains = {(folder, sid): path for _, path, folder, agent, sid, _ in rows if not agent}
    folders: dict[str, list[str]] = {}
    for _, _, folder, _, _, _, cwds in files:
        folders.setdefault(folder, []).append(cwds or "[]")
    projects = {folder: _project(folder, cwds) for folder, cwds in folders.items()}
    owning: dict[str, str | None] = {}  #: by folder: what files.owning_folder says of every file in it
    found = {}
    refs: dict[SessionRef, SessionRef] = {}
    for fid, path, folder, agent, sid, owner in rows:
        file = path
        if agent:
            where = os.path.dirname(path)
            if where not in owning:
                owning[where] = owning_folder(path)
            owner = owning[where] or owner or ""  # as extract.owner_of
            if (folder, owner) in mains:
                sid, file = owner, mains[folder, owner]
            elif owning[where] is not None:
                sid, file = owner, session_file(folder, owner)
        ref = SessionRef._make((file, sid, projects[folder]))
        found[fid] = refs.setdefault(ref, ref)  # one for all the files of a session
    return found


def _session_id(path: str, sids: str | None) -> str:
    """library.session_id_of, from the JSON of the ids a file's records name (read only when they may not name the
    file's own: the usual file names its own first)."""
    stem = stem_of(path)
    if sids is not None and sids.startswith(f'["{stem}"'):
        return stem
    return session_id_of(path, {"sids": orjson.loads(sids) if sids else ()})


def _project(folder: str, cwds: list[str]) -> str:
    """facts.project_path of a folder, from its files' working folders (JSON): read one by one until one is the
    folder's (the usual case: the first)."""
    name = os.path.basename(folder)
    lists = []
    for text in cwds:
        found = orjson.loads(text)
        if any(encode_path(cwd) == name for cwd in found):
            return project_path(name, found, ())
        lists.append(found)
    return project_path(name, (), [each[0] for each in lists if each])
