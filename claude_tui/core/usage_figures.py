"""What the usage screen shows of a history at a moment: the last days, weeks and months, the top projects and models
with their shares, and the last 5-hour block. And the same counted again after a few sessions changed, from what
was shown before and the spends that went and came (a live session's usage grows every few seconds; the history
holds thousands of sessions): the periods the change did not touch are kept as they were, the others patched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from claude_tui.core.collector import gc_paused
from claude_tui.core.usage_report import GROUPS, Block, Period, Spend, Usage, by_weight, with_shares

#: The periods the chart shows, by report.
RECENT = {"daily": 30, "weekly": 12, "monthly": 12}


@dataclass(frozen=True)
class Figures:
    """What the screen shows, counted at `now`."""

    usage: Usage
    recent: dict[str, list[Period]]  #: by report: the last RECENT periods, oldest first
    projects: list[tuple[Period, float]]
    models: list[tuple[Period, float]]
    block: Block | None  #: the last 5-hour block (running or not)
    now: float


@dataclass(frozen=True)
class Change:
    """The spends that went from a history's usage, and those that came (see UsageFeed.change)."""

    gone: list[Spend]
    came: list[Spend]


def figures(usage: Usage, now: float, before: Figures | None = None, change: Change | None = None) -> Figures:
    """The figures of `usage` at `now`; from those shown `before` when `change` is what turned their usage into this
    one (the same figures, counted from the periods the change touched)."""
    with gc_paused():  # periods of the whole history made at once
        if before is None or change is None or before.usage.zone != usage.zone:
            recent = {report: usage.recent(report, count, now) for report, count in RECENT.items()}
            return Figures(usage, recent, usage.shares("project"), usage.shares("model"), usage.last_block(now), now)
        recent = {report: _recent(before, usage, report, count, now, change) for report, count in RECENT.items()}
        projects, models = (with_shares(_groups(before, report, change)) for report in ("project", "model"))
        return Figures(usage, recent, projects, models, usage.last_block(now), now)


def _recent(before: Figures, usage: Usage, report: str, count: int, now: float, change: Change) -> list[Period]:
    """The last periods of a report, those the change touched patched; counted anew once a new one began."""
    shown = before.recent[report]
    if [p.name for p in shown] != usage.recent_names(report, count, now):
        return usage.recent(report, count, now)
    gone, came = (_by(spends, lambda s: usage.period_name(report, s.quarter or 0), timed=True) for spends in
                  (change.gone, change.came))  # fmt: skip
    return [p.patched(gone.get(p.name, ()), came.get(p.name, ())) if p.name in gone or p.name in came else p
            for p in shown]  # fmt: skip


def _groups(before: Figures, report: str, change: Change) -> list[Period]:
    """The projects or models (`report`), those the change touched patched, the costliest first."""
    periods = {p.name: p for p, _ in (before.projects if report == "project" else before.models)}
    gone, came = (_by(spends, GROUPS[report]) for spends in (change.gone, change.came))
    for name in gone.keys() | came.keys():
        shown = periods.get(name)
        period = shown.patched(gone.get(name, ()), came.get(name, ())) if shown else Period(name, came[name])
        if period.spends:
            periods[name] = period
        else:
            del periods[name]
    return by_weight(periods.values())


def _by(spends: list[Spend], key: Callable[[Spend], str], timed: bool = False) -> dict[str, list[Spend]]:
    """Spends grouped by `key` (only those with a time, when `timed`)."""
    found: dict[str, list[Spend]] = {}
    for spend in spends:
        if not timed or spend.quarter is not None:
            found.setdefault(key(spend), []).append(spend)
    return found
