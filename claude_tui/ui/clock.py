"""Times as people read them: "14:02", "3h ago". `now` and the time zone are injectable
so that tests and snapshots see a frozen clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo

from claude_tui.core.times import in_century, parse_time


@dataclass(frozen=True)
class Clock:
    """Formats timestamps relative to `now()` in the zone `tz` (None: the local zone)."""

    now: Callable[[], float] = time.time
    tz: tzinfo | None = field(default=None)

    @classmethod
    def frozen(cls, at: str | float, tz: tzinfo = UTC) -> Clock:
        """A clock stopped at `at` (an ISO timestamp or epoch seconds)."""
        moment = at if isinstance(at, float | int) else parse_time(at) or 0.0
        return cls(lambda: float(moment), tz)

    def local(self, epoch: float) -> datetime:
        return datetime.fromtimestamp(epoch, self.tz)

    def clock_time(self, stamp: str | float | None, seconds: bool = True) -> str:
        """ "14:02:11" (or "14:02") of an ISO timestamp or epoch seconds; "" when there is none."""
        epoch = epoch_of(stamp)
        if epoch is None:
            return ""
        return self.local(epoch).strftime("%H:%M:%S" if seconds else "%H:%M")

    def day(self, stamp: str | float | None) -> str:
        """ "Mon 3 Nov 2025" of an ISO timestamp or epoch seconds, the year only when it is not this year."""
        epoch = epoch_of(stamp)
        if epoch is None:
            return ""
        when = self.local(epoch)
        text = f"{when:%a} {when.day} {when:%b}"
        return text if when.year == self.local(self.now()).year else f"{text} {when.year}"

    def date(self, stamp: str | float | None) -> str:
        """The local date of a timestamp, `2026-07-15` ("" for none): what tells one day from the next."""
        epoch = epoch_of(stamp)
        return "" if epoch is None else self.local(epoch).date().isoformat()

    def ago(self, stamp: str | float | None, day: bool = False) -> str:
        """ "now", "5m ago", "3h ago", "2d ago", then the date ("3 Nov", or "Nov '25" in another year, with
        `day` "2 Sep '25": beside a time of day); a time later than now by more than a minute (another machine's
        clock) by its date too."""
        epoch = epoch_of(stamp)
        if epoch is None:
            return "-"
        delta = self.now() - epoch
        if abs(delta) < 60:
            return "now"
        if 0 < delta < 3600:
            return f"{int(delta // 60)}m ago"
        if 0 < delta < 86400:
            return f"{int(delta // 3600)}h ago"
        if 0 < delta < 86400 * 14:
            return f"{int(delta // 86400)}d ago"
        when = self.local(epoch)
        if when.year == self.local(self.now()).year:
            return f"{when.day} {when:%b}"
        month = f"{when:%b} '{when:%y}"  # "Sep '25": as narrow as "12d ago", to fit the session list
        return f"{when.day} {month}" if day else month


def epoch_of(stamp: str | float | None) -> float | None:
    """Epoch seconds of an ISO timestamp, or of a number already in seconds; None for neither, or for a
    time out of this century (model.plausible: some cannot even be shown in a local time zone)."""
    if not isinstance(stamp, float | int):
        return parse_time(stamp)
    return float(stamp) if in_century(stamp) else None
