"""A session's time line: the stretches of its records' times with no pause (a gap over times.PAUSE_S) in them.

Pauses are measured on the time line, not between records in file order: a record stamped hours before the one
written ahead of it (Claude Code re-saves some with their first time) would otherwise count the same pause twice,
once going back and once coming forward. The session model and the index's extractor both keep one, so that the
active time they report agrees; it is small (a few numbers per pause) and JSON, for the index's state.
"""

from __future__ import annotations

from bisect import bisect_right

from claude_tui.core.times import PAUSE_S

PAUSE_MS = round(PAUSE_S * 1000)
#: Stretches kept at most; past them (a damaged file of times at random) a time joins the nearest stretch.
MAX_SPANS = 4096


class Timeline:
    """The stretches [start, end] (epoch ms) of a session's record times, in order, a pause between each two."""

    __slots__ = ("spans",)

    def __init__(self, spans: list[list[int]] | None = None) -> None:
        self.spans: list[list[int]] = spans if spans is not None else []

    def add(self, ms: int) -> None:
        """Take one record's time."""
        spans = self.spans
        if spans:
            last = spans[-1]
            if last[0] <= ms <= last[1] + PAUSE_MS:  # the usual: at or near the end
                if ms > last[1]:
                    last[1] = ms
                return
        at = bisect_right(spans, ms, key=lambda span: span[0])
        left = spans[at - 1] if at else None
        right = spans[at] if at < len(spans) else None
        if left is not None and ms <= left[1]:
            return
        joins_left = left is not None and ms - left[1] <= PAUSE_MS
        joins_right = right is not None and right[0] - ms <= PAUSE_MS
        if len(spans) >= MAX_SPANS and not (joins_left or joins_right):
            joins_left = right is None or (left is not None and ms - left[1] <= right[0] - ms)
            joins_right = not joins_left
        if joins_left and joins_right:
            assert left is not None and right is not None
            left[1] = right[1]
            del spans[at]
        elif joins_left:
            assert left is not None
            left[1] = ms
        elif joins_right:
            assert right is not None
            right[0] = ms
        else:
            spans.insert(at, [ms, ms])

    def merged(self, other: Timeline) -> Timeline:
        """The time line of this one's records and `other`'s."""
        out = Timeline([list(span) for span in self.spans])
        for start, end in other.spans:
            out.add(start)
            out.add(end)
            out.fill(start, end)
        return out

    def fill(self, start: int, end: int) -> None:
        """Make [start, end] one stretch (both are in the time line already): the times between them were seen."""
        spans = self.spans
        first = bisect_right(spans, start, key=lambda span: span[0]) - 1
        last = bisect_right(spans, end, key=lambda span: span[0]) - 1
        if last > first:
            spans[first][1] = max(spans[first][1], spans[last][1])
            del spans[first + 1 : last + 1]

    @property
    def pauses(self) -> int:
        return max(0, len(self.spans) - 1)

    @property
    def paused_ms(self) -> int:
        """The length of the pauses: the gaps between the stretches."""
        spans = self.spans
        return sum(spans[i + 1][0] - spans[i][1] for i in range(len(spans) - 1))
