"""The two lines above the conversation: the session's title and its facts."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.text import Text
from textual.widgets import Static

from claude_tui.core.files import folder_only
from claude_tui.core.humanize import (
    damage,
    human_cost,
    human_count,
    human_facts,
    human_size,
    human_span,
    plural,
    prompt_counts,
)
from claude_tui.core.model import Kind
from claude_tui.core.session_counts import agent_errors, record_span, tool_call_counts, usage_split
from claude_tui.core.times import active_seconds, parse_time, span_seconds
from claude_tui.core.usage import UsageTotal, most_used_first, other_models
from claude_tui.ui.clock import Clock
from claude_tui.ui.text import one_line
from claude_tui.ui.widgets.conversation.entries import short_model

if TYPE_CHECKING:
    from claude_tui.core.library import SessionInfo
    from claude_tui.core.session import Session


class SessionHeader(Static):
    """Title, project, branch, when, how long, how big, how costly."""

    def __init__(self, clock: Clock, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.clock = clock
        self._started: str | None = None  #: the shown session's start, and how long ago it was when shown
        self._ago = ""

    @property
    def stale(self) -> bool:
        """Whether the time since the session started reads differently now than when shown."""
        return self._started is not None and self.clock.ago(self._started, day=True) != self._ago

    def show(self, session: Session | None, title: str = "", status: str = "") -> None:
        """Describe `session` (None: nothing open); `status` (how far a read has got) goes first on the
        line of facts, which are counted so far: a long title would hide it."""
        self._started = None
        if session is None:
            self.update(Text(title or "claude-tui", style="bold", no_wrap=True, overflow="ellipsis"))
            return
        # a subagent's transcript opened on its own (its session has no file) is read as its one subagent:
        # described as `stats` and the list describe the file
        alone = session.records and not session.messages and len(session.subagents) == 1
        described = session.subagents[0] if alone else session
        head = Text(one_line(title or described.title() or "(untitled)", 300), style="bold")
        facts = self._facts(described, session)
        if status:
            facts = Text.assemble((status, "bold"), (" · so far: ", "dim"), facts)
        text = Text("\n").join([head, facts])
        text.no_wrap, text.overflow = True, "ellipsis"
        self.update(text)

    def _facts(self, session: Session, file: Session) -> Text:
        """The facts of `session`, and the damage found in `file` (the same session, or the one it was read as)."""
        own, agents = usage_split(session)
        usage = UsageTotal.of([*own.items(), *agents.items()])
        started, ended = record_span(session)
        prompts = sum(1 for m in session.counted if m.kind is Kind.PROMPT)
        commands = sum(1 for m in session.counted if m.kind is Kind.COMMAND)
        parts = []
        if parse_time(started) is not None:
            self._started, self._ago = started, self.clock.ago(started, day=True)
            parts.append(self._ago)
        span = span_seconds(started, ended)
        if span is not None:  # as stats and the list measure it
            parts.append(human_span(span, active_seconds(started, ended, session.paused_ms)))
        if problems := file.all_problems():  # rare, and a reason to doubt the rest: early, where it is seen
            parts.append(damage(len(problems), file.malformed_lines))
        parts.append(f"{human_count(usage.tokens.total)} tokens")
        cost = human_cost(usage.cost, sorted(usage.unpriced_models))
        if cost:
            parts.append(one_line(cost, 300))
        if session.models:  # the one that wrote the most first, as the list and its facts pane have them
            models = most_used_first(list(session.models), {key: tokens.output for key, tokens in own.items()})
            parts.append(", ".join(short_model(m) for m in models))
        calls, errors = tool_call_counts(session)  # as stats and the library count them
        parts.append(f"{prompt_counts(prompts, commands)} · {plural(calls, 'tool call')}{_failed(errors)}")
        if session.origin or session.background:  # what it holds of another session is counted there
            parts.append(continuation(session.origin, session.background))
        if session.is_agent:
            parts.append("a subagent's transcript")
        elif not file.records and session.subagents:  # a session folder with no file (files.folder_only), or empty
            parts.append("no session file" if folder_only(Path(session.path)) else "an empty session file")
        if session.subagents:  # after all of the cost and the counts: 80 columns may cut it
            theirs = UsageTotal.of_models(agents).cost if agents else None
            share = [f"${theirs:,.2f}"] if theirs is not None else []
            parts.append(
                _subagents(len(session.subagents), agent_errors(session), share, other_models(agents, session.models))
            )
        branch = next(reversed(session.branches), "") if session.branches else ""
        if branch:
            parts.append(f"⎇ {one_line(branch, 80)}")
        if session.forks:
            parts.append(plural(len(session.forks), "fork"))
        parts.append(one_line(session.project_path or session.path, 300))
        parts += [one_line(fact, 120) for fact in human_facts(session.facts)]  # last: the least of them
        text = Text(" · ".join(parts), style="dim")
        return text

    @staticmethod
    def progress(offset: int, size: int) -> str:
        if size <= 0 or offset >= size:
            return ""
        return f"reading {human_size(offset)} of {human_size(size)}"


class SessionFacts(Static):
    """The chosen session's facts from the library, under the session list."""

    def __init__(self, clock: Clock, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.clock = clock

    def show(self, info: SessionInfo | None) -> None:
        if info is None:
            self.update(Text(""))
            return
        stamp: str | float | None = info.started
        note = ""
        if parse_time(info.started) is None:  # no record has a time: the file's, and say so
            stamp, note = info.mtime, "no times recorded · file written "
        ago = self.clock.ago(stamp)
        recent = f" ({ago})" if ago == "now" or ago.endswith(" ago") else ""  # else ago is the date again
        when = f"{note}{self.clock.day(stamp)} {self.clock.clock_time(stamp, seconds=False)}{recent}"
        cost = one_line(human_cost(info.cost_usd, info.unpriced), 300)
        title = one_line(info.title or info.first_prompt or "(untitled)", 300)
        facts = [
            [when] + ([human_span(info.duration_s, info.active_s)] if info.duration_s else []),
            [prompt_counts(info.prompts, info.commands)]
            + [plural(info.tool_calls, "tool call") + _failed(info.tool_errors)]
            + ([_subagents(info.subagents, 0, [], info.subagent_models)] if info.subagents else []),
            [f"{human_count(info.tokens)} tokens"]
            + ([cost] if cost else [])
            + ([", ".join(short_model(m) for m in info.models)] if info.models else []),
            ([f"⎇ {one_line(info.branch, 80)}"] if info.branch else []) + [human_size(info.size), one_line(info.id)],
        ]
        lines: list[Text | Facts] = [Text(title, "bold", no_wrap=True, overflow="ellipsis"), Facts(facts, "dim")]
        if info.orphan_of:
            lines.append(Text(f"a subagent of session {one_line(info.orphan_of)}, which has no file", style="dim"))
        if info.no_file:
            lines.append(Text("no session file: only its subagents' transcripts, in its folder", style="dim"))
        if info.continues or info.background:
            lines.append(Text(continuation(info.continues, info.background), style="dim"))
        if info.error:
            lines.append(Text(info.error, style="red"))
        self.update(Group(*lines))  # the title one line cut with "…", the facts wrapped


class Facts:
    """Lines of facts, each fact's parts joined by " · " and broken between two parts when they do not fit: no
    line ends or starts with a lone "·" (a part wider than the pane wraps inside itself)."""

    def __init__(self, lines: list[list[str]], style: str) -> None:
        self.lines, self.style = lines, style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for parts in self.lines:
            for row in packed(parts, options.max_width):
                yield Text(row, style=self.style)


def packed(parts: list[str], width: int) -> list[str]:
    """`parts` joined by " · " into rows of at most `width` cells, a row broken only between two parts."""
    rows: list[str] = []
    for part in parts:
        if rows and cell_len(rows[-1]) + 3 + cell_len(part) <= width:
            rows[-1] += " · " + part
        else:
            rows.append(part)
    return rows


def continuation(origin: str | None, background: bool) -> str:
    """What a session that continues another says of it: "a background copy of session 93a9705e: what it holds of
    that session counts there"."""
    what = "a background copy of session" if background else "continues session"
    if origin is None:
        return "a background copy of another session" if background else "continues another session"
    return f"{what} {one_line(origin[:8])}: what it holds of that session counts there"


def _failed(errors: int) -> str:
    """ " (3 errors)" after a count of calls, when some failed."""
    return f" ({plural(errors, 'error')})" if errors else ""


def _subagents(count: int, errors: int, share: list[str], models: list[str]) -> str:
    """ "2 subagents (1 error, $0.02, sonnet-4.5)": their failed calls, their part of the cost and the models only
    they used."""
    notes = ([plural(errors, "error")] if errors else []) + share + [short_model(m) for m in models]
    return plural(count, "subagent") + (f" ({one_line(', '.join(notes), 300)})" if notes else "")
