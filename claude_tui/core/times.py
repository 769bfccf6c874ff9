"""Record times: Claude Code's ISO stamps read as epoch seconds or milliseconds, which of them are plausible
(2000 to 2099: others are damage, never shown nor counted), their order, and a session's spans.

Pure functions over stamps, cached where the readers ask of the same hour or minute again; the time line of a
session's pauses, an object kept by the model and the extractor, is in timeline.py."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

#: A gap between two records longer than this is a pause: the session was left, then resumed.
PAUSE_S = 3600.0
#: Record times are plausible from 2000-01-01 until 2100-01-01 (epoch seconds).
_EARLIEST_TIME = 946_684_800.0
_LATEST_TIME = 4_102_444_800.0


def parse_time(stamp: str | None) -> float | None:
    """Epoch seconds of an ISO timestamp as Claude Code writes them, in UTC when it names no zone (whatever the
    viewer's zone); None for none, or for one that is not a time of this century (see `plausible`)."""
    if not stamp:
        return None
    try:
        moment = datetime.fromisoformat(stamp)
        seconds = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()
    except (ValueError, TypeError, OverflowError, OSError):  # year 1 in a zone west of UTC is year 0
        return None
    return seconds if in_century(seconds) else None


def in_century(seconds: float) -> bool:
    """Whether epoch `seconds` fall in 2000 to 2099, the years a record time may have (see `plausible`)."""
    return _EARLIEST_TIME <= seconds < _LATEST_TIME


@lru_cache(maxsize=256)
def plausible(stamp: str) -> bool:
    """Whether a record's timestamp is a time Claude Code could have written: one of 2000 to 2099. Others
    (garbage, year 1, year 9999) are damage, never shown as times or counted in durations. The usual
    `...Z` form is parsed once per hour it names; the readers of a record ask of its stamp again at no cost."""
    if not usual_digits(stamp) or stamp[13] != ":" or stamp[16] != ":":
        return parse_time(stamp) is not None
    hour = stamp[:13]
    known = _HOURS.get(hour)
    if known is None:
        if len(_HOURS) > 10_000:
            _HOURS.clear()
        known = _HOURS[hour] = parse_time(f"{hour}:00:00Z") is not None
    return known


def usual_digits(stamp: str) -> bool:
    """Whether `stamp` has Claude Code's usual form, "2026-01-31T09:00:05.123Z", with a minute, second and
    millisecond that are those of a time, in ASCII digits (its date and hour are for `plausible` to check)."""
    if len(stamp) != 24 or stamp[-1] != "Z" or stamp[19] != ".":
        return False
    minute, second = stamp[14:16], stamp[17:19]
    digits = minute + second + stamp[20:23]
    return digits.isascii() and digits.isdecimal() and minute < "6" and second < "6"


_HOURS: dict[str, bool] = {}  #: "2026-01-31T09" -> whether that hour is plausible


def earlier(a: str, b: str) -> bool:
    """Whether timestamp `a` is before `b`: compared as text when both are in Claude Code's `...Z`
    form of one length (the common case, and cheap), else as times (False when one is unreadable)."""
    if len(a) == len(b) and a[-1:] == "Z" == b[-1:]:
        return a < b
    ta, tb = parse_time(a), parse_time(b)
    return ta is not None and tb is not None and ta < tb


def outer_span(spans: Iterable[tuple[Any, Any]]) -> tuple[str | None, str | None]:
    """The earliest first and the latest last of these (first, last) record times; any that is not a time is left
    out (None when none is one)."""
    pairs = list(spans)
    starts = [(t, s) for s, _ in pairs if isinstance(s, str) and (t := parse_time(s)) is not None]
    ends = [(t, s) for _, s in pairs if isinstance(s, str) and (t := parse_time(s)) is not None]
    return (min(starts)[1] if starts else None), (max(ends)[1] if ends else None)


def span_seconds(started: str | None, ended: str | None) -> float | None:
    """The time between the first and last record; None without both times. Never below zero: a
    last record may be stamped a few ms before the one written ahead of it."""
    start, end = parse_time(started), parse_time(ended)
    if start is None or end is None:
        return None
    return max(0.0, round(end - start, 3))


def active_seconds(started: str | None, ended: str | None, paused_ms: int) -> float | None:
    """The time between the first and last record, less its pauses; None without both times."""
    span = span_seconds(started, ended)
    return None if span is None else max(0.0, round(span - paused_ms / 1000, 3))


def stamp_ms(stamp: str) -> int | None:
    """Epoch milliseconds of a record's time; None when it is not a time (times.plausible). Claude Code's usual
    `...Z` stamps are parsed once per minute they name; its second and millisecond are looked up."""
    minute = _MINUTES.get(stamp[:16])
    if minute is not None:
        second, milli = _SECONDS.get(stamp[16:19]), _MILLIS.get(stamp[19:])  # ":05", ".123Z"
        if second is not None and milli is not None:
            return None if minute < 0 else minute + second + milli
    elif usual_digits(stamp) and stamp[16] == ":":
        if len(_MINUTES) > 100_000:
            _MINUTES.clear()
        seconds = parse_time(f"{stamp[:16]}:00Z")
        _MINUTES[stamp[:16]] = -1 if seconds is None else round(seconds * 1000)
        return stamp_ms(stamp)
    seconds = parse_time(stamp)
    return None if seconds is None else round(seconds * 1000)


_MINUTES: dict[str, int] = {}  #: "2026-01-31T09:05" -> its epoch milliseconds (-1: not a time)
_SECONDS = {f":{n:02d}": n * 1000 for n in range(60)}  #: ":05" -> 5000
_MILLIS = {f".{n:03d}Z": n for n in range(1000)}  #: ".123Z" -> 123


#: An age (12h, 3d, 2w, 6m, 1y); more digits than these are no date sqlite holds.
_AGE = re.compile(r"^(\d{1,6})\s*([hdwmy])$")
_AGE_UNITS = {"h": 3600, "d": 86400, "w": 7 * 86400, "m": 30 * 86400, "y": 365 * 86400}  #: months of 30 days


def age_seconds(value: str) -> int | None:
    """The seconds of an age (12h, 3d, 2w, 6m = months, 1y), as --since takes it; None for any other text."""
    match = _AGE.match(value.strip().lower())
    return int(match.group(1)) * _AGE_UNITS[match.group(2)] if match else None
