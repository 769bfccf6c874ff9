"""Session facts for people and scripts: the `stats` command's numbers."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from claude_tui.core.model import Kind, Message, parse_time
from claude_tui.core.session import Session
from claude_tui.core.usage import Tokens, UsageTotal

#: A gap between two messages longer than this is an interruption (and a resumption).
RESUME_GAP_S = 3600.0


def usage_items(session: Session) -> list[tuple[str | None, Tokens]]:
    """(model, tokens) once per assistant message of this file, inline sidechains included."""
    items = [(m.model, m.tokens) for m in session.messages if m.tokens is not None]
    for sub in session.subagents:
        if sub.source == "inline":
            items += usage_items(sub)
    return items


def subagent_usage_items(session: Session) -> list[tuple[str | None, Tokens]]:
    """(model, tokens) of the subagents that are not inline sidechains (their own files, progress copies)."""
    return [item for sub in session.subagents if sub.source != "inline" for item in usage_items(sub)]


def usage_with_subagents(session: Session) -> UsageTotal:
    return UsageTotal.of(usage_items(session) + subagent_usage_items(session))


def gaps(messages: list[Message], threshold: float = RESUME_GAP_S) -> int:
    """How many times the conversation paused for longer than `threshold` seconds."""
    count, last = 0, None
    for message in messages:
        now = parse_time(message.timestamp)
        if now is None:
            continue
        if last is not None and now - last > threshold:
            count += 1
        last = now
    return count


def _inline(session: Session) -> list[Session]:
    return [sub for sub in session.subagents if sub.source == "inline"]


def _assistant_messages(session: Session) -> int:
    """Distinct message ids over top-level assistant records (an id-less record counts alone), inline sidechains'
    included."""
    own = sum(1 for m in session.messages if m.record_type == "assistant")
    return own + sum(_assistant_messages(sub) for sub in _inline(session))


def _call_ids(session: Session) -> set[str]:
    """The tool_use ids of this file's assistant records, inline sidechains' included."""
    calls = set(session.calls)
    for sub in _inline(session):
        calls |= _call_ids(sub)
    return calls


def _outcomes(session: Session) -> tuple[set[str], set[str]]:
    """The tool_use ids with a result, and those whose result failed (inline sidechains' included)."""
    result_ids, errors = set(session.result_ids), set(session.error_ids)
    for sub in _inline(session):
        result_ids |= sub.result_ids
        errors |= sub.error_ids
    return result_ids, errors


def tool_call_counts(session: Session) -> tuple[int, int]:
    """(tool calls, failed ones), as `stats` counts them."""
    calls = _call_ids(session)
    return len(calls), len(_outcomes(session)[1] & calls)


def session_stats(
    session: Session, summaries: dict[str, str] | None = None, hint: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The facts of one session, as the `stats --json` object.

    `summaries` are the project's summary records by leafUuid; `hint` is the session's entry in
    Claude Code's sessions-index.json, used only for what the file itself does not say.
    """
    hint = hint or {}
    own_items, agent_items = usage_items(session), subagent_usage_items(session)
    own = UsageTotal.of(own_items)
    total = UsageTotal.of(own_items + agent_items) if agent_items else own
    calls = _call_ids(session)
    result_ids, errors = _outcomes(session)
    start, end = parse_time(session.first_timestamp), parse_time(session.last_timestamp)
    kinds = [m.kind for m in session.messages]
    return {
        "session_id": session.id,
        "path": session.path,
        "title": session.title(summaries) or _hint_str(hint, "summary") or _hint_str(hint, "firstPrompt"),
        "project": session.project_path or _hint_str(hint, "projectPath"),
        "records": session.records,
        "malformed_lines": session.malformed_lines,
        "problems": [f"line {p.line_no}: {p.message}" if p.line_no else p.message for p in session.problems],
        "record_types": dict(session.record_types),
        "user_prompts": kinds.count(Kind.PROMPT),
        "assistant_messages": _assistant_messages(session),
        "tool_calls": len(calls),
        "tool_errors": len(errors & calls),
        "unpaired_tool_calls": len(calls - result_ids),
        "forks": len(session.forks),
        "compactions": sum(1 for m in session.messages if m.kind is Kind.COMPACT_BOUNDARY and not m.micro)
        + _pre2_compactions(session),
        "microcompactions": sum(1 for m in session.messages if m.kind is Kind.COMPACT_BOUNDARY and m.micro),
        "subagents": len(session.subagents),
        "tokens": own.tokens.as_dict(),
        "tokens_with_subagents": total.tokens.as_dict(),
        "cost_usd": None if own.cost is None else round(own.cost, 6),
        "cost_with_subagents_usd": None if total.cost is None else round(total.cost, 6),
        "unpriced_models": sorted(total.unpriced_models),
        "models": list(session.models),
        "versions": list(session.versions),
        "branches": list(session.branches),
        "started": session.first_timestamp,
        "ended": session.last_timestamp,
        "duration_s": round(end - start, 3) if start is not None and end is not None else None,
        "turns": len(session.turn_durations),
        "turn_time_s": round(sum(session.turn_durations), 3),
        "interruptions": gaps(session.messages),
        "user_interrupts": kinds.count(Kind.INTERRUPT),
        "api_errors": kinds.count(Kind.API_ERROR),
        "empty": session.is_empty,
        "warmup": session.is_warmup,
        "plan_slugs": list(session.slugs),
    }


def _hint_str(hint: dict[str, Any], key: str) -> str | None:
    value = hint.get(key)
    return value if isinstance(value, str) and value else None


def _pre2_compactions(session: Session) -> int:
    """Before 2.0 a compaction left no boundary: its summary record is itself a root."""
    return sum(
        1
        for m in session.messages
        if m.kind is Kind.COMPACT_SUMMARY
        and m.parent is None
        and not any(b.kind is Kind.COMPACT_BOUNDARY for b in session.messages[max(0, m.index - 3) : m.index])
    )


def human_size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


def human_count(n: int) -> str:
    """1234 -> 1.2k, 3400000 -> 3.4M."""
    if n < 1000:
        return str(n)
    if n < 1_000_000:
        return f"{n / 1000:.1f}k"
    return f"{n / 1_000_000:.1f}M"


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


def human_time(stamp: str | None) -> str:
    """An ISO timestamp as "2026-01-31 09:00:05 UTC"; "-" when there is none."""
    seconds = parse_time(stamp)
    return "-" if seconds is None else datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _span(started: str | None, ended: str | None) -> str:
    """ "2026-01-31 09:00:05 .. 10:12:00 UTC", the date and zone said once when the day is the same."""
    start, end = human_time(started), human_time(ended)
    if start != "-" and start[:10] == end[:10]:
        return f"{start.removesuffix(' UTC')} .. {end[11:]}"
    return f"{start} .. {end}"


def format_stats(facts: dict[str, Any]) -> str:
    """A short readable summary of one session's facts."""
    tokens = facts["tokens_with_subagents"]
    cost = facts["cost_with_subagents_usd"]
    priced = f"  ${cost:.2f}" if cost is not None else ""
    unpriced = f"  (no price for {', '.join(facts['unpriced_models'])})" if facts["unpriced_models"] else ""
    flags = [f for f in ("empty", "warmup") if facts[f]]
    lines = [
        " ".join((facts["title"] or "(untitled)").split()) + (f"  [{', '.join(flags)}]" if flags else ""),
        f"  session   {facts['session_id']}",
        f"  project   {facts['project'] or '-'}" + (f"  ({', '.join(facts['branches'])})" if facts["branches"] else ""),
        f"  when      {_span(facts['started'], facts['ended'])}  ({human_duration(facts['duration_s'])})",
        f"  messages  {facts['user_prompts']} prompts, {facts['assistant_messages']} answers, "
        f"{facts['tool_calls']} tool calls ({facts['tool_errors']} errors, {facts['unpaired_tool_calls']} unanswered)",
        f"  threads   {facts['forks']} forks, {facts['compactions']} compactions, {facts['subagents']} subagents, "
        f"{facts['interruptions']} resumptions",
        f"  tokens    {human_count(tokens['input'])} in, {human_count(tokens['output'])} out, "
        f"{human_count(tokens['cache_read'])} cache read, {human_count(tokens['cache_creation'])} cache write"
        + priced
        + unpriced,
        f"  models    {', '.join(facts['models']) or '-'}   versions {', '.join(facts['versions']) or '-'}",
        f"  records   {facts['records']} ({facts['malformed_lines']} malformed lines)",
    ]
    lines += [f"  problem   {p}" for p in facts["problems"][:10]]
    if len(facts["problems"]) > 10:
        lines.append(f"  ...and {len(facts['problems']) - 10} more problems")
    return "\n".join(lines)
