"""Session facts for people and scripts: the `stats` command's numbers."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import Any

from claude_tui.core.files import agent_files, agent_id_of
from claude_tui.core.forked import Forked, can_fork
from claude_tui.core.humanize import (
    damage,
    human_cost,
    human_count,
    human_facts,
    human_models,
    human_span,
    human_time,
    plural,
    prompt_counts,
    subagents_share,
)
from claude_tui.core.loader import attach_agents, read_session, session_of
from claude_tui.core.model import Kind, Message, own_session_id
from claude_tui.core.reader import Reader, ReadError, open_readonly
from claude_tui.core.session import KNOWN_TYPES, Session, nothing_exchanged, pick_title
from claude_tui.core.session_counts import answer_count, call_ids, inline_subagents, outcomes, record_span, usage_split
from claude_tui.core.shapes import merged_facts
from claude_tui.core.timeline import Timeline
from claude_tui.core.times import active_seconds, earlier, span_seconds
from claude_tui.core.usage import Tokens, UsageTotal, by_model, other_models

#: Files at least this big are counted in two halves at once (a smaller one is read in less than a
#: fork and the merge take).
SPLIT_BYTES = 8 << 20
#: How far past the middle a cut looks for a prompt's line.
_SPLIT_WINDOW = 1 << 20
#: Where in a big file the cut is looked for: a little past the middle, as the child also sends its tally back.
_CUT_AT = 0.52


_KIND = attrgetter("kind")


def _pre2_summary(message: Message, messages: list[Message]) -> bool:
    """Before 2.0 a compaction left no boundary: its summary record is itself a root."""
    return message.parent is None and not any(
        b.kind is Kind.COMPACT_BOUNDARY for b in messages[max(0, message.index - 3) : message.index]
    )


@dataclass
class Tally:
    """What `stats` counts in a session file, or in a stretch of it, in values that add up.

    A big file is counted in two stretches at once, the second in a forked child. The two tallies merge
    unless records on either side of the cut are linked in a way a tally cannot join (`links_back`); the
    file is then read whole. Either way the facts are those of the file read whole: tests cut files at
    many lines and compare.
    """

    session_id: str
    session_ids: list[str]  #: the sessionIds its records name (see Session.id)
    path: str
    records: int
    malformed_lines: int
    problems: list[tuple[int, str]]  #: (line number, or 0 for none; what)
    missing_parents: list[tuple[str, int, str]]  #: parents named not in the stretch: (uuid, line, its problem)
    record_types: dict[str, int]
    kinds: dict[Kind, int]  #: top-level messages of each kind
    assistant_messages: int
    calls: set[str]
    results: set[str]
    errors: set[str]
    uuids: dict[str, None]  #: in file order
    message_ids: set[str]
    prompt_parents: dict[str | None, int]
    compactions: int
    microcompactions: int
    summary_first: bool  #: a pre-2.0 compaction summary among the first messages: its boundary may lie before
    subagents: int
    inline_agents: bool
    progress_keys: set[str]
    progress_agent_ids: set[str]
    usage: dict[str | None, Tokens]  #: per model, this file's messages (inline sidechains' included)
    agent_usage: dict[str | None, Tokens]  #: per model, its other subagents'
    models: list[str]
    versions: list[str]
    branches: list[str]
    cwds: list[str]
    slugs: list[str]
    custom_title: str | None
    ai_title: str | None
    session_facts: dict[str, Any]  #: what its FACT records said (Session.facts)
    summaries: dict[str, str]
    first_prompt: str  #: Session.first_ask
    first_command: str
    first_peer: str  #: what a peer first said (Session.first_prompt's last resort)
    warmup: bool | None  #: the first prompt is "Warmup" (None: no prompt)
    started: str | None  #: the earliest record time
    ended: str | None  #: the latest
    turn_durations: list[float]
    timeline: Timeline  #: its records' times (the pauses between them)
    usage_unreadable: bool  #: its note is given once a file (see Session.usage_unreadable)

    def __getstate__(self) -> dict[str, Any]:
        """What a forked child sends of it: its sets of ids as one string each (pickling tens of thousands of
        short strings one by one took as long as reading a megabyte of the file)."""
        return {**self.__dict__, **{name: _packed(getattr(self, name)) for name in _ID_SETS}}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in _ID_SETS:
            ids = _unpacked(state[name])
            state[name] = dict.fromkeys(ids) if name == "uuids" else set(ids)
        self.__dict__.update(state)

    @classmethod
    def of(cls, session: Session) -> Tally:
        messages = session.messages
        usage, agent_usage = usage_split(session)
        kinds = Counter(map(_KIND, session.counted))
        results, errors = outcomes(session)
        micro = sum(1 for m in messages if m.micro)
        summaries = [m for m in messages if m.kind is Kind.COMPACT_SUMMARY]
        started, ended = record_span(session)
        return cls(
            session_id=session.id,
            session_ids=list(session.session_ids),
            path=session.path,
            records=session.records,
            malformed_lines=session.malformed_lines,
            problems=[(p.line_no, p.message) for p in session.all_problems()],
            missing_parents=[(uuid, p.line_no, p.message) for uuid, p in session.missing_parents()],
            record_types=dict(session.record_types),
            kinds=dict(kinds),
            assistant_messages=answer_count(session),
            calls=call_ids(session),
            results=results,
            errors=errors,
            uuids=dict.fromkeys(session.uuids),
            message_ids=set(session.message_ids),
            prompt_parents=session.prompt_parents,
            compactions=kinds[Kind.COMPACT_BOUNDARY] - micro + sum(1 for m in summaries if _pre2_summary(m, messages)),
            microcompactions=micro,
            summary_first=any(m.index < 3 and _pre2_summary(m, messages) for m in summaries),
            subagents=len(session.subagents),
            inline_agents=bool(inline_subagents(session)),
            progress_keys=set(session.progress_keys),
            progress_agent_ids={s.agent_id for s in session.subagents if s.source == "progress" and s.agent_id},
            usage=usage,
            agent_usage=agent_usage,
            models=list(session.models),
            versions=list(session.versions),
            branches=list(session.branches),
            cwds=list(session.cwds),
            slugs=list(session.slugs),
            custom_title=session.custom_title,
            ai_title=session.ai_title,
            session_facts=merged_facts({}, session.facts),
            summaries=dict(session.summaries),
            first_prompt=session.first_ask(),
            first_command=session.first_text(Kind.COMMAND),
            first_peer=session.first_text(Kind.PEER),
            warmup=session.is_warmup if Kind.PROMPT in kinds else None,
            started=started,
            ended=ended,
            turn_durations=list(session.turn_durations),
            timeline=Timeline([list(span) for span in session.timeline.spans]),
            usage_unreadable=session.usage_unreadable,
        )

    def links_back(self, before: Session, agent_ids: set[str]) -> bool:
        """Whether this stretch's records join those of the stretch `before` it (read without its subagent
        files, named `agent_ids`) in a way its tally cannot: a message streamed across the cut, a record
        written twice, one subagent's copies on both sides, a copied subagent whose file is there, a pre-2.0
        compaction's summary cut from its boundary, an unknown record type or unreadable usage already noted, a
        parent named before the cut that is written after it, or one named after it that is a hook's saved context
        before it (which stands for the record it was saved after). A parent named that is in neither stretch is
        missing from the file too: its note is the same either way."""
        return bool(
            any(uuid in self.uuids for uuid, _ in before.missing_parents())
            or any(uuid in before.hook_contexts for uuid, _, _ in self.missing_parents)
            or not self.message_ids.isdisjoint(before.message_ids)
            or not self.uuids.keys().isdisjoint(before.uuids)
            or not self.progress_keys.isdisjoint(before.progress_keys)
            or not self.progress_agent_ids.isdisjoint(agent_ids)
            or (self.inline_agents and inline_subagents(before))
            or self.summary_first
            or not (self.record_types.keys() - KNOWN_TYPES).isdisjoint(before.record_types)
            or (self.usage_unreadable and before.usage_unreadable)
        )

    def merged(self, after: Tally, lines: int) -> Tally:
        """This tally followed by that of the stretch `after` it, which starts at line `lines` + 1."""
        found = {(n, what) for uuid, n, what in after.missing_parents if uuid in self.uuids}  # no longer missing
        problems = self.problems + [
            (n + lines if n else 0, what) for n, what in after.problems if (n, what) not in found
        ]
        missing = self.missing_parents + [
            (uuid, n + lines, what) for uuid, n, what in after.missing_parents if (n, what) not in found
        ]
        return Tally(
            session_id=own_session_id(Path(self.path).stem, _union(self.session_ids, after.session_ids)),
            session_ids=_union(self.session_ids, after.session_ids),
            path=self.path,
            records=self.records + after.records,
            malformed_lines=self.malformed_lines + after.malformed_lines,
            problems=sorted(problems, key=lambda p: not p[0]),  # the subagent files' notes last, as when read whole
            missing_parents=missing,
            record_types=dict(Counter(self.record_types) + Counter(after.record_types)),
            kinds=dict(Counter(self.kinds) + Counter(after.kinds)),
            assistant_messages=self.assistant_messages + after.assistant_messages,
            calls=self.calls | after.calls,
            results=self.results | after.results,
            errors=self.errors | after.errors,
            uuids=self.uuids | after.uuids,
            message_ids=self.message_ids | after.message_ids,
            prompt_parents=dict(Counter(self.prompt_parents) + Counter(after.prompt_parents)),
            compactions=self.compactions + after.compactions,
            microcompactions=self.microcompactions + after.microcompactions,
            summary_first=self.summary_first,
            subagents=self.subagents + after.subagents,
            inline_agents=self.inline_agents or after.inline_agents,
            progress_keys=self.progress_keys | after.progress_keys,
            progress_agent_ids=self.progress_agent_ids | after.progress_agent_ids,
            usage=_summed(self.usage, after.usage),
            agent_usage=_summed(self.agent_usage, after.agent_usage),
            models=_union(self.models, after.models),
            versions=_union(self.versions, after.versions),
            branches=_union(self.branches, after.branches),
            cwds=_union(self.cwds, after.cwds),
            slugs=_union(self.slugs, after.slugs),
            custom_title=after.custom_title or self.custom_title,
            ai_title=after.ai_title or self.ai_title,
            session_facts=merged_facts(self.session_facts, after.session_facts),
            summaries={**self.summaries, **after.summaries},
            first_prompt=self.first_prompt or after.first_prompt,
            first_command=self.first_command or after.first_command,
            first_peer=self.first_peer or after.first_peer,
            warmup=self.warmup if self.warmup is not None else after.warmup,
            started=_earliest(self.started, after.started),
            ended=_earliest(self.ended, after.ended, latest=True),
            turn_durations=self.turn_durations + after.turn_durations,
            timeline=self.timeline.merged(after.timeline),
            usage_unreadable=self.usage_unreadable or after.usage_unreadable,
        )

    def facts(self, summaries: dict[str, str] | None = None, hint: dict[str, Any] | None = None) -> dict[str, Any]:
        """The `stats --json` object. `summaries` are the project's summary records by leafUuid; `hint` is
        the session's entry in Claude Code's sessions-index.json, used only for what the file does not say."""
        hint = hint or {}
        own = UsageTotal.of_models(self.usage)
        total = UsageTotal.of_models(_summed(self.usage, self.agent_usage)) if self.agent_usage else own
        title = pick_title(
            self.custom_title or self.session_facts.get("agent_name"),
            self.ai_title,
            {**self.summaries, **(summaries or {})},
            self.uuids,
            self.first_prompt or self.first_command or self.first_peer,
        )
        return {
            "session_id": self.session_id,
            "path": self.path,
            "title": title or _hint_str(hint, "summary") or _hint_str(hint, "firstPrompt"),
            "project": (self.cwds[0] if self.cwds else None) or _hint_str(hint, "projectPath"),
            "records": self.records,
            "malformed_lines": self.malformed_lines,
            "problems": [f"line {n}: {what}" if n else what for n, what in self.problems],
            "record_types": self.record_types,
            "user_prompts": self.kinds.get(Kind.PROMPT, 0),
            "commands": self.kinds.get(Kind.COMMAND, 0),
            "assistant_messages": self.assistant_messages,
            "tool_calls": len(self.calls),
            "tool_errors": len(self.errors & self.calls),
            "unpaired_tool_calls": len(self.calls - self.results),
            "forks": sum(1 for n in self.prompt_parents.values() if n > 1),
            "compactions": self.compactions,
            "microcompactions": self.microcompactions,
            "subagents": self.subagents,
            "tokens": own.tokens.as_dict(),
            "tokens_with_subagents": total.tokens.as_dict(),
            "cost_usd": None if own.cost is None else round(own.cost, 6),
            "cost_with_subagents_usd": None if total.cost is None else round(total.cost, 6),
            "unpriced_models": sorted(total.unpriced_models),
            "web_search_requests": total.tokens.web_searches,
            "models": self.models,
            "subagent_models": other_models(self.agent_usage, self.models),
            "versions": self.versions,
            "branches": self.branches,
            "started": self.started,
            "ended": self.ended,
            "duration_s": span_seconds(self.started, self.ended),
            "active_s": active_seconds(self.started, self.ended, self.timeline.paused_ms),
            "turns": len(self.turn_durations),
            "turn_time_s": round(sum(self.turn_durations), 3),
            "interruptions": self.timeline.pauses,
            "user_interrupts": self.kinds.get(Kind.INTERRUPT, 0),
            "api_errors": self.kinds.get(Kind.API_ERROR, 0),
            "empty": nothing_exchanged(self.kinds),
            "warmup": bool(self.warmup),
            "plan_slugs": self.slugs,
            "session_facts": self.session_facts,
        }


#: The Tally's fields that hold sets of ids (uuids: in file order), sent packed (see Tally.__getstate__).
_ID_SETS = ("calls", "results", "errors", "uuids", "message_ids", "progress_keys", "progress_agent_ids")
#: Between the ids of a packed set: a character ids do not hold (one that does is sent as a list).
_SEPARATOR = "\0"


def _packed(ids: Collection[str]) -> str | list[str]:
    """Ids as one string, unless one of them holds the separator."""
    joined = _SEPARATOR.join(ids)
    return joined if ids and joined.count(_SEPARATOR) == len(ids) - 1 else list(ids)


def _unpacked(packed: str | list[str]) -> list[str]:
    return packed.split(_SEPARATOR) if isinstance(packed, str) else packed


def session_stats(
    session: Session, summaries: dict[str, str] | None = None, hint: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The facts of one session, as the `stats --json` object (see `Tally.facts`)."""
    return Tally.of(session).facts(summaries, hint)


def tally_file(path: Path, cut: int | None = None) -> tuple[Session, Tally]:
    """A session file's tally, with its subagent files. A big file is cut in two (at `cut`, the start of a
    line, when given) and its second half counted meanwhile by a forked child. Also the model read here
    (of the first half only, when the halves merged): a caller about to exit keeps it rather than spend
    time freeing it. Raises ReadError."""
    if cut is None and can_fork():
        cut = _split_point(path)
    if cut is not None:
        with Forked(_tally_from, str(path), cut) as rest:
            reader = Reader(str(path))
            session = session_of(path, reader, stop=cut)
            agents = agent_files(path, session_id=session.id)
            attach_agents(session, agents)
            tally = Tally.of(session)
            after = rest.result()
        if not after.links_back(session, {agent_id_of(p) or "" for p in agents}):
            return session, tally.merged(after, reader.line_no)
    session = read_session(path)  # a small file, or halves that do not add up (rare: the cut is chosen)
    return session, Tally.of(session)


def _tally_from(path: str, start: int) -> Tally:
    """The tally of a file's lines from byte `start` on, its subagent files aside."""
    return Tally.of(session_of(Path(path), Reader(path, offset=start)))


def _split_point(path: Path) -> int | None:
    """Where to cut a big file in two, a little past the middle (_CUT_AT): at the line of a prompt, where no
    record before is linked to one after; else of a tool result, where that is nearly always so; else at any
    line. None for a small file, or no line end near the middle."""
    try:
        fd = open_readonly(path)
    except ReadError:
        return None  # said when the file is read
    try:
        size = os.fstat(fd).st_size
        if size < SPLIT_BYTES:
            return None
        start = round(size * _CUT_AT)
        window = os.pread(fd, _SPLIT_WINDOW, start)
    except OSError:
        return None
    finally:
        os.close(fd)
    first = window.find(b"\n") + 1
    if not first:
        return None
    begin, result_line = first, None
    while (end := window.find(b"\n", begin)) >= 0:
        line = window[begin:end]
        if b'"type":"user"' in line:
            if b'"tool_use_id"' not in line:
                return start + begin
            result_line = result_line or begin
        begin = end + 1
    return start + (result_line or first)


def _earliest(a: str | None, b: str | None, latest: bool = False) -> str | None:
    """The earlier of two record times (the later one with `latest`), either may be missing."""
    if a is None or b is None:
        return a if b is None else b
    return b if earlier(a, b) is latest else a


def _summed(a: dict[str | None, Tokens], b: dict[str | None, Tokens]) -> dict[str | None, Tokens]:
    return by_model([*a.items(), *b.items()])


def _union(a: list[str], b: list[str]) -> list[str]:
    """The items of both, once each, in order of first appearance."""
    return list(dict.fromkeys(a + b))


def _hint_str(hint: dict[str, Any], key: str) -> str | None:
    value = hint.get(key)
    return value if isinstance(value, str) and value else None


def _span(started: str | None, ended: str | None) -> str:
    """ "2026-01-31 09:00:05 .. 10:12:00 PST", the date and zone said once when they are the same."""
    start, end = human_time(started), human_time(ended)
    day, _, zone = start.rpartition(" ")
    if start != "-" and start[:10] == end[:10] and end.endswith(f" {zone}"):
        return f"{day} .. {end[11:]}"
    return f"{start} .. {end}"


def format_stats(facts: dict[str, Any]) -> str:
    """A short readable summary of one session's facts."""
    tokens = facts["tokens_with_subagents"]
    cost = human_cost(facts["cost_with_subagents_usd"], facts["unpriced_models"])
    share = subagents_share(facts)
    flags = [f for f in ("empty", "warmup") if facts[f]]
    lines = [
        " ".join((facts["title"] or "(untitled)").split()) + (f"  [{', '.join(flags)}]" if flags else ""),
        f"  session   {facts['session_id']}",
        f"  project   {facts['project'] or '-'}" + (f"  ({', '.join(facts['branches'])})" if facts["branches"] else ""),
        f"  when      {_span(facts['started'], facts['ended'])}"
        f"  ({human_span(facts['duration_s'], facts['active_s'])})",
        f"  messages  {prompt_counts(facts['user_prompts'], facts['commands'])}, "
        f"{plural(facts['assistant_messages'], 'answer')}, "
        f"{plural(facts['tool_calls'], 'tool call')} ({plural(facts['tool_errors'], 'error')}, "
        f"{facts['unpaired_tool_calls']} unanswered)",
        f"  threads   {plural(facts['forks'], 'fork')}, {plural(facts['compactions'], 'compaction')}, "
        f"{plural(facts['subagents'], 'subagent')}, {plural(facts['interruptions'], 'resumption')}",
        f"  tokens    {human_count(tokens['input'])} in, {human_count(tokens['output'])} out, "
        f"{human_count(tokens['cache_read'])} cache read, {human_count(tokens['cache_creation'])} cache write"
        + (f", {plural(facts['web_search_requests'], 'web search')}" if facts["web_search_requests"] else "")
        + (f"  {cost}" if cost else "")
        + (f"  ({share})" if share else ""),
        f"  models    {human_models(facts['models'], facts['subagent_models']) or '-'}"
        f"   versions {', '.join(facts['versions']) or '-'}",
        f"  records   {facts['records']}"
        + (f" · {damage(len(facts['problems']), facts['malformed_lines'])}" if facts["problems"] else ""),
    ]
    if told := human_facts(facts["session_facts"]):
        lines.append(f"  facts     {' · '.join(told)}")
    lines += [f"  problem   {p}" for p in facts["problems"][:10]]
    if len(facts["problems"]) > 10:
        lines.append(f"  ...and {len(facts['problems']) - 10} more problems")
    return "\n".join(lines)
