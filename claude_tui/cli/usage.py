"""`claude-tui usage`: what Claude Code used, by day, week, month, session or 5-hour block, from the index.

Imported only when it runs, so the other commands start fast.
"""

from __future__ import annotations

import argparse
import time
from contextlib import ExitStack
from datetime import date, datetime, tzinfo
from typing import Any

import orjson

from claude_tui.cli.common import CommandError, argument_text, exit_now, warn, write_utf8
from claude_tui.cli.library import print_notices, roots_of, updated_index
from claude_tui.core.collector import gc_paused
from claude_tui.core.sanitize import inert_json, visible_controls
from claude_tui.core.times import age_seconds
from claude_tui.core.usage import UsageTotal
from claude_tui.core.usage_feed import kept_usage
from claude_tui.core.usage_report import Block, Period, Usage, total_of

#: The clock of the running block (a test sets its own).
now = time.time

#: The first column's header, by report.
_FIRST = {"daily": "Date", "weekly": "Week", "monthly": "Month", "session": "Session", "blocks": "Block start"}
_NUMBERS = ("Input", "Output", "Cache write", "Cache read", "Total", "Cost")


def run_usage(args: argparse.Namespace) -> int:
    with gc_paused():  # a history's sums and periods, made at once
        code = _run_usage(args)
    if args.whole_process:
        exit_now(code)  # its output is out and its usage kept: freeing a history's sums one by one takes ~12 ms
    return code


def _run_usage(args: argparse.Namespace) -> int:
    zone = _zone(args.timezone)
    since, until = _day(args.since, "--since", zone), _day(args.until, "--until", zone)
    if since and until and since > until:
        raise CommandError(f"--since {since} is after --until {until}")
    project = args.project and argument_text(args.project, "--project")
    roots = roots_of(args)
    index = updated_index(roots, "counting")
    with ExitStack() as keeping:  # the usage is kept again meanwhile, when it changed (see kept_usage)
        try:
            usage = keeping.enter_context(kept_usage(index, roots, zone)).where(project=project)
        finally:
            print_notices(index, roots)
        if args.report == "blocks":
            periods: list[Period] = [b for b in usage.blocks(now()) if _kept(usage.day_of(b.start), since, until)]
        else:
            periods = usage.where(since, until).periods(args.report)
        if args.report != "session" and (untimed := usage.untimed):
            warn(f"{untimed:,} message{'s' if untimed > 1 else ''} with no time left out of a report by date")
        if args.json:
            lines = "".join(orjson.dumps(period_json(p, args.report, usage)).decode() + "\n" for p in periods)
            write_utf8(inert_json(lines))
        else:
            print(visible_controls(usage_table(periods, args.report, usage, args.breakdown)))
    return 0


def _zone(name: str | None) -> tzinfo | None:
    """The time zone named (None: the local one)."""
    if name is None:
        return None
    from zoneinfo import ZoneInfo

    try:
        return ZoneInfo(name)
    except (KeyError, ValueError, OSError):
        example = "a name such as UTC, Europe/Paris or America/New_York"
        raise CommandError(f"unknown time zone {name!r}: give {example}") from None


def _day(text: str | None, option: str, zone: tzinfo | None) -> date | None:
    """The day a --since or --until names: a date, or an age as `search` takes it (7d: the day a week ago)."""
    if text is None:
        return None
    if (age := age_seconds(text)) is not None:
        return datetime.fromtimestamp(now() - age, zone).date()
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise CommandError(f"{option}: not a date: {text!r} (try 2026-01-31, 20260131 or an age: 7d)") from None


def _kept(day: date, since: date | None, until: date | None) -> bool:
    return (since is None or day >= since) and (until is None or day <= until)


# ---------------------------------------------------------------- JSON


def period_json(period: Period, report: str, usage: Usage) -> dict[str, Any]:
    """A period for scripts: its name, tokens per kind, cost (null when no model used has a price), the models used
    that have none, its sessions and messages, and the same per model."""
    found: dict[str, Any] = {"period": period.name, **_counts(period.total)}
    found["sessions"] = len(period.sessions)
    found["messages"] = period.messages
    found["models"] = {model: _counts(total) for model, total in period.models().items()}
    if report == "session" and (ref := period.session) is not None:
        found.update(session_id=ref.id, path=ref.path, project=ref.project)
        found["last_activity"] = None if period.last is None else usage.moment(period.last).isoformat()
    if isinstance(period, Block):
        found.update(start=usage.moment(period.start).isoformat(), end=usage.moment(period.end).isoformat())
        found["running"] = period.running
        burn = period.burn(now())
        found["burn"] = burn and {
            "tokens_per_minute": round(burn.tokens_per_minute, 1),
            "usd_per_hour": None if burn.usd_per_hour is None else round(burn.usd_per_hour, 6),
            "minutes_left": round(burn.minutes_left, 1),
            "projected_tokens": burn.projected_tokens,
            "projected_usd": None if burn.projected_usd is None else round(burn.projected_usd, 6),
        }
    return found


def _counts(total: UsageTotal) -> dict[str, Any]:
    tokens = total.tokens
    return {
        "input_tokens": tokens.input,
        "output_tokens": tokens.output,
        "cache_creation_tokens": tokens.cache_creation,
        "cache_creation_1h_tokens": tokens.cache_creation_1h,
        "cache_read_tokens": tokens.cache_read,
        "total_tokens": tokens.total,
        "web_search_requests": tokens.web_searches,
        "cost_usd": None if total.cost is None else round(total.cost, 6),
        "unpriced_models": sorted(total.unpriced_models),
    }


# ---------------------------------------------------------------- text


def usage_table(periods: list[Period], report: str, usage: Usage, breakdown: bool) -> str:
    """A table of the periods, a totals row under them; `breakdown`: a row per model under each period."""
    rows = [[_FIRST[report], *_NUMBERS]]
    blocks = report == "blocks"
    if report == "session":
        rows[0].append("Project")
    elif blocks:
        rows[0][1:1] = ["End"]
        rows[0].append("Models")
    running = None
    for period in periods:
        row = [_first(period, usage), *_cells(period.total)]
        if isinstance(period, Block):
            row[1:1] = [_end(period, usage)]
            row.append(", ".join(period.models()))
            running = period if period.running else running
        elif report == "session" and period.session is not None:
            row.append(period.session.project)
        rows.append(row)
        if breakdown:
            rows += [
                [f"  {model}", *([""] if blocks else []), *_cells(total)] for model, total in period.models().items()
            ]
    whole = total_of(periods)
    rows.append(["Total", *([""] if blocks else []), *_cells(whole)])
    lines = _aligned(rows, lead=2 if blocks else 1)
    lines.insert(len(lines) - 1, "-" * len(lines[-1]))
    unpriced = sorted(whole.unpriced_models)
    if unpriced:
        lines.append(f"+ no price for {', '.join(unpriced)}: their tokens are counted, not their cost")
    if running is not None and (burn := running.burn(now())) is not None:
        cost = "" if burn.usd_per_hour is None else f", ${burn.usd_per_hour:,.2f} an hour"
        ends = "" if burn.projected_usd is None else f", ${burn.projected_usd:,.2f}"
        left = int(burn.minutes_left)
        lines.append(
            f"* running, {left // 60}h {left % 60:02d}m left: {burn.tokens_per_minute:,.0f} tokens a minute{cost};"
            f" at this pace it ends at {burn.projected_tokens:,} tokens{ends}"
        )
    return "\n".join(lines)


def _first(period: Period, usage: Usage) -> str:
    if isinstance(period, Block):
        return usage.moment(period.start).strftime("%Y-%m-%d %H:%M")
    return period.name


def _end(block: Block, usage: Usage) -> str:
    end = usage.moment(block.end)
    shown = end.strftime("%H:%M") if end.date() == usage.moment(block.start).date() else end.strftime("%m-%d %H:%M")
    return shown + (" *" if block.running else "")


def _cells(total: UsageTotal) -> list[str]:
    tokens = total.tokens
    counts = (tokens.input, tokens.output, tokens.cache_creation, tokens.cache_read, tokens.total)
    cost = "?" if total.cost is None and tokens.total else f"${total.cost or 0:,.2f}"
    return [f"{n:,}" for n in counts] + [cost + ("+" if total.unpriced_models and total.cost is not None else "")]


def _aligned(rows: list[list[str]], lead: int) -> list[str]:
    """The rows as lines of columns: the first `lead` and the last (a name) to the left, the numbers to the right."""
    widths = [max(len(row[i]) for row in rows if i < len(row)) for i in range(len(rows[0]))]
    last = len(rows[0]) - 1 if len(rows[0]) > lead + len(_NUMBERS) else None
    lines = []
    for row in rows:
        cells = [
            cell.ljust(widths[i]) if i < lead or i == last else cell.rjust(widths[i]) for i, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return lines
