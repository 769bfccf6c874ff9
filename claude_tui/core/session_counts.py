"""What `stats` counts in a Session, and the session header shows of an open one: tool calls and their failures,
answers, and tokens per model, inline sidechains included (subagents with files of their own apart)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from claude_tui.core.model import Kind
from claude_tui.core.times import outer_span
from claude_tui.core.usage import Tokens, by_model, priced_as

if TYPE_CHECKING:
    from claude_tui.core.session import Session


def usage_items(session: Session) -> list[tuple[str | None, Tokens]]:
    """(model as `usage.priced_as` keys it, tokens) once per assistant message of this file, inline sidechains
    included; those it counts only (see Session.counted)."""
    items = [(priced_as(m.model, m.tokens), m.tokens) for m in session.counted if m.tokens is not None]
    for sub in session.subagents:
        if sub.source == "inline":
            items += usage_items(sub)
    return items


def subagent_usage_items(session: Session) -> list[tuple[str | None, Tokens]]:
    """(model, tokens) of the subagents that are not inline sidechains (their own files, progress copies)."""
    return [item for sub in session.subagents if sub.source != "inline" for item in usage_items(sub)]


def usage_split(session: Session) -> tuple[dict[str | None, Tokens], dict[str | None, Tokens]]:
    """Tokens per model of this file (inline sidechains included), and of its other subagents."""
    return by_model(usage_items(session)), by_model(subagent_usage_items(session))


def inline_subagents(session: Session) -> list[Session]:
    """Its 1.0.x sidechains, read from its own file."""
    return [sub for sub in session.subagents if sub.source == "inline"]


def answer_count(session: Session) -> int:
    """Distinct message ids over top-level assistant records (an id-less record counts alone), inline sidechains'
    included; Claude Code's API error messages are not answers."""
    own = sum(1 for m in session.counted if m.record_type == "assistant" and m.kind not in _NO_ANSWER)
    return own + sum(answer_count(sub) for sub in inline_subagents(session))


#: Kinds of assistant records that are not answers: Claude Code's message about a failed call, and its stand-in
#: for an answer ("No response requested.", a `<synthetic>` message).
_NO_ANSWER = (Kind.API_ERROR, Kind.SYSTEM)


def call_ids(session: Session) -> set[str]:
    """The tool_use ids of this file's assistant records, inline sidechains' included."""
    if session.counted is session.messages:  # the usual: every message counts
        calls = {tid for tid, call in session.calls.items() if not call.lost}
    else:
        counted = {id(m) for m in session.counted}
        calls = {tid for tid, call in session.calls.items() if not call.lost and id(call.message) in counted}
    for sub in inline_subagents(session):
        calls |= call_ids(sub)
    return calls


def outcomes(session: Session) -> tuple[set[str], set[str]]:
    """The tool_use ids with a result, and those whose result failed (inline sidechains' included)."""
    result_ids, errors = set(session.result_ids), set(session.error_ids)
    for sub in inline_subagents(session):
        result_ids |= sub.result_ids
        errors |= sub.error_ids
    return result_ids, errors


def tool_call_counts(session: Session) -> tuple[int, int]:
    """(tool calls, failed ones), as `stats` counts them."""
    calls = call_ids(session)
    return len(calls), len(outcomes(session)[1] & calls)


def agent_errors(session: Session) -> int:
    """Failed tool calls in the subagents with transcripts of their own (nested ones included): those
    `tool_call_counts` leaves out, and the error keys visit."""
    return sum(tool_call_counts(sub)[1] + agent_errors(sub) for sub in session.subagents if sub.source != "inline")


def record_span(session: Session) -> tuple[str | None, str | None]:
    """A session's first and last record times; one with none of its own (an empty file, or none), its subagent
    transcripts' (as library.session_info has them)."""
    if session.first_timestamp is not None or session.last_timestamp is not None:
        return session.first_timestamp, session.last_timestamp
    return outer_span((s.first_timestamp, s.last_timestamp) for s in session.subagents if s.source == "file")
