"""Numbers, sizes, costs, durations and times as people read them, the same words in the app, the exports and the
command line: "1.2k", "3.4 MB", "$1.23+ (no price for glm-5)", "2h10m active over 7d03h", "2026-01-31 09:00:05 PST"."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from claude_tui.core.times import parse_time
from claude_tui.core.usage import Tokens


def human_size(n: float) -> str:
    for unit in ("B", "KB", "MB"):
        if abs(n) < 1000:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


def plural(count: int, noun: str) -> str:
    """ "1 line", "2 lines", "1,204 lines"."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def damage(problems: int, unreadable: int) -> str:
    """What was wrong in a file, the same words everywhere: "3 problems (2 unreadable lines)"."""
    return plural(problems, "problem") + (f" ({plural(unreadable, 'unreadable line')})" if unreadable else "")


def human_count(n: int) -> str:
    """1234 -> 1.2k, 3400000 -> 3.4M."""
    if n < 1000:
        return str(n)
    if n < 1_000_000:
        return f"{n / 1000:.1f}k"
    return f"{n / 1_000_000:.1f}M"


def human_cost(cost: float | None, unpriced: list[str]) -> str:
    """A cost at list price: "$1.23"; "$1.23+ (no price for glm-5)" when models with no price used tokens too,
    "$? (no price for glm-5)" when only they did; "" when no model used any."""
    amount = "" if cost is None else f"${cost:,.2f}"
    if not unpriced:
        return amount
    return (f"{amount}+" if amount else "$?") + f" (no price for {', '.join(unpriced)})"


def human_models(models: list[str], subagent_models: list[str]) -> str:
    """Models used: "opus-4.7 (subagents also: sonnet-4.5)"; "" for none."""
    own, theirs = ", ".join(models), ", ".join(subagent_models)
    if not theirs:
        return own
    return f"{own} (subagents also: {theirs})" if own else f"subagents: {theirs}"


def human_facts(facts: dict[str, Any]) -> list[str]:
    """What a session's FACT records said (Session.facts), in short: "permissions auto", "PR #58", ..."""
    out = [f"team {facts['team']}"] if facts.get("team") else []
    if facts.get("agent_setting"):
        out.append(f"agent {facts['agent_setting']}")
    if facts.get("mode") not in (None, "normal"):
        out.append(f"mode {facts['mode']}")
    if facts.get("permission_mode") not in (None, "default"):
        out.append(f"permissions {facts['permission_mode']}")
    out += [f"PR #{pr['number']}" if pr["number"] else f"PR {pr['url']}" for pr in facts.get("pr_links", ())]
    if came := facts.get("teleported_from"):
        out.append(f"teleported from {came['session'] or 'the web'}")
    if fork := facts.get("forked_from"):
        out.append(f"forked from session {fork['session'] or '?'}")
    if facts.get("worktree"):
        out.append(f"worktree {facts['worktree']}")
    if facts.get("relocated_to"):
        out.append(f"moved to {facts['relocated_to']}")
    out += [f"artifact {a['title'] or a['url']}" for a in facts.get("artifacts", ())]
    return out


def prompt_counts(prompts: int, commands: int) -> str:
    """ "12 prompts, 3 commands" (the commands only when there are some): the same words in the header and the list."""
    return plural(prompts, "prompt") + (f", {plural(commands, 'command')}" if commands else "")


def subagents_share(facts: dict[str, Any]) -> str:
    """What the tokens and cost of a session's `facts` include besides its file: "with 6 subagents; the session's
    file alone: 855.2k tokens, $1.97"; "" when nothing."""
    if facts["tokens_with_subagents"] == facts["tokens"]:
        return ""
    alone = f"{human_count(Tokens(**facts['tokens']).total)} tokens"
    if facts["cost_usd"] is not None:
        alone += f", ${facts['cost_usd']:,.2f}"
    return f"with {plural(facts['subagents'], 'subagent')}; the session's file alone: {alone}"


def human_duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    if seconds < 86400:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 86400}d{seconds % 86400 // 3600:02d}h"


def human_span(duration_s: float | None, active_s: float | None) -> str:
    """A session's length: "2h10m", or "2h10m active over 7d03h" when it paused (see core/timeline.py)."""
    if duration_s is None or active_s is None or duration_s - active_s < 1:  # no pause (each is over an hour)
        return human_duration(duration_s)
    return f"{human_duration(active_s)} active over {human_duration(duration_s)}"


def local_time(seconds: float) -> datetime:
    """Epoch seconds in the local time zone, as the app and `search` show times."""
    return datetime.fromtimestamp(seconds, UTC).astimezone()


def zoned(moment: datetime) -> str:
    """ "2026-01-31 09:00:05 PST": a time with its date and zone (its offset when the zone has no name)."""
    return f"{moment:%Y-%m-%d %H:%M:%S} {moment.tzname() or f'{moment:%z}'}"


def human_time(stamp: str | None) -> str:
    """An ISO timestamp in local time, "2026-01-31 09:00:05 PST"; "-" when there is none."""
    seconds = parse_time(stamp)
    return "-" if seconds is None else zoned(local_time(seconds))
