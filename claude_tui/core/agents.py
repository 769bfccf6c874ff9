"""Subagent links: the subagents a session holds, and what in it started each.

A session's subagents come as records inline in its file (1.0.x sidechains), as copies inside its progress records
(2.1.7 to 2.1.42), or as transcripts of their own (files.py finds them; their role says what ran them). `Agents`
owns the maps that link them: sidechain uuids and progress keys to their subagent, the agent ids and workflow runs
that results name to their call. It reads the session it belongs to through `Host` and a subagent through `Agent`
(a Session is both); the links the model types by Session are made by the subagent itself (`Agent.started_by`, ...).
"""

from __future__ import annotations

import re
from typing import Any, Generic, Protocol, TypeVar

from claude_tui.core.content import as_text
from claude_tui.core.files import agent_id_of
from claude_tui.core.humanize import human_duration
from claude_tui.core.model import AgentRole, Kind, Message, Span, ToolCall, ToolResult
from claude_tui.core.times import earlier
from claude_tui.core.update import Update

#: Tools whose calls start a subagent.
AGENT_TOOLS = frozenset({"Task", "Agent"})
#: The tool that starts a workflow run (2.1.x): its result names the run, whose agents the call holds.
WORKFLOW_TOOL = "Workflow"
#: Where a Workflow call's result says the run keeps its agents' transcripts (the run is the folder's name).
_TRANSCRIPT_DIR = re.compile(r"Transcript dir:\s*(\S[^\n]*)")


class Agent(Protocol):
    """What the links read and set of a subagent."""

    path: str
    role: AgentRole
    run: str | None  #: a workflow agent's run
    home: Message | None  #: a compaction run's compaction
    is_agent: bool
    agent_id: str | None
    source: str  #: "file", "inline" or "progress"
    parent_call: ToolCall | None
    messages: list[Message]
    first_timestamp: str | None
    last_timestamp: str | None
    version: int

    def add_record(self, obj: dict[str, Any], span: Span | None) -> None: ...

    def message_by_uuid(self, uuid: str) -> Message | None: ...

    def started_by(self, call: ToolCall) -> None: ...

    def joins_run(self, call: ToolCall) -> None: ...

    def summarises(self, compaction: Message) -> None: ...


A = TypeVar("A", bound=Agent)


class Host(Protocol[A]):
    """What the links read of the session that holds the subagents."""

    calls: dict[str, ToolCall]
    messages: list[Message]
    subagents: list[A]
    update: Update

    def new_agent(self, source: str) -> A:
        """An empty subagent of this session, read from `source` ("inline" or "progress")."""
        ...


class Agents(Generic[A]):
    """A session's subagent links (see the module's docstring)."""

    def __init__(self, host: Host[A]) -> None:
        self.host = host
        self.inline: dict[str, A] = {}  #: sidechain uuid -> its subagent
        self.progress: dict[str, A] = {}  #: Task tool_use id -> subagent from progress copies
        self._by_id: dict[str, ToolCall] = {}  #: agentId named in a Task result -> the call
        self._runs: dict[str, ToolCall] = {}  #: workflow run named in a Workflow result -> the call

    def sidechain(self, obj: dict[str, Any], span: Span | None) -> None:
        """1.0.x: subagent records inline in the main file, each Task run a new root."""
        host = self.host
        parent = obj.get("parentUuid")
        sub = self.inline.get(parent) if isinstance(parent, str) else None
        if sub is None and isinstance(parent, str):  # a parent we never saw: the latest run goes on
            sub = next((a for a in reversed(host.subagents) if a.source == "inline"), None)
        if sub is None:
            sub = host.new_agent("inline")
            host.subagents.append(sub)
            host.update.threads_changed = True
        before = len(sub.messages)
        sub.add_record(obj, span)
        sub.version += 1
        uuid = obj.get("uuid")
        if isinstance(uuid, str):
            self.inline[uuid] = sub
        if sub.parent_call is None and before == 0 and sub.messages:
            self._link_by_prompt(sub)
        self._touch(sub)

    def progress_copy(
        self, obj: dict[str, Any], data: dict[str, Any], nested: dict[str, Any], span: Span | None
    ) -> None:
        """2.1.7 to 2.1.42: subagent records copied into the main file inside progress records."""
        host = self.host
        tool_id = obj.get("parentToolUseID")
        key = tool_id if isinstance(tool_id, str) else as_text(data.get("agentId"))
        sub = self.progress.get(key)
        if sub is None:
            sub = host.new_agent("progress")
            agent_id = data.get("agentId")
            sub.agent_id = agent_id if isinstance(agent_id, str) else None
            self.progress[key] = sub
            host.subagents.append(sub)
            call = host.calls.get(key)
            if call is not None and call.subagent is None:
                sub.started_by(call)
            host.update.threads_changed = True
        record = dict(nested)
        record.setdefault("isSidechain", True)
        uuid = record.get("uuid")
        if isinstance(uuid, str) and sub.message_by_uuid(uuid) is not None:
            return
        sub.add_record(record, span)
        sub.version += 1
        self._touch(sub)

    def attach(self, sub: A) -> None:
        """Add a subagent read from its own file (2.0.x flat, 2.1.x `<session>/subagents/`)."""
        subagents = self.host.subagents
        sub.is_agent = True
        if sub.agent_id is None:
            sub.agent_id = agent_id_of(sub.path)
        for existing in subagents if sub.role is AgentRole.TASK else ():
            if existing.source == "progress" and existing.agent_id and existing.agent_id == sub.agent_id:
                subagents.remove(existing)  # the file is the whole transcript; the copies are not
                if existing.parent_call is not None:
                    existing.parent_call.subagent = None
                    sub.started_by(existing.parent_call)
                break
        subagents.append(sub)
        if sub.parent_call is None:
            self.link(sub)

    def link(self, sub: A) -> None:
        """Link a subagent to what started it. A workflow agent, to the Workflow call whose result named its run; a
        compaction run, to its compaction (see _link_compaction); a side question, to nothing (it is the session's
        own). Else to its Task/Agent call: the one whose result named its id, else the one whose prompt it starts
        with (a file seen before its first line links when that arrives), else, while it runs, the only such call
        still running."""
        if sub.role is AgentRole.WORKFLOW:
            if (run := self._runs.get(sub.run or "")) is not None:
                self._link_run(sub, run)
            return
        if sub.role is AgentRole.COMPACTION:
            self._link_compaction(sub)
            return
        if sub.role is not AgentRole.TASK:
            return
        call = self._by_id.get(sub.agent_id or "")
        if call is not None and call.subagent is None:
            sub.started_by(call)
        else:
            self._link_by_prompt(sub)

    def result_came(self, call: ToolCall, result: ToolResult) -> None:
        """A call's result came: a Workflow call's names its run, a Task/Agent call's its subagent's id (which
        settles a link guessed while it ran)."""
        host = self.host
        if call.name == WORKFLOW_TOOL and (run := run_of(result)) is not None:
            self._runs[run] = call
            for sub in host.subagents:
                if sub.role is AgentRole.WORKFLOW and sub.run == run and sub.parent_call is None:
                    self._link_run(sub, call)
        agent_id = result.structured.get("agentId") if isinstance(result.structured, dict) else None
        if call.name in AGENT_TOOLS and isinstance(agent_id, str):
            self._by_id[agent_id] = call
            for sub in host.subagents:
                if sub.agent_id == agent_id and sub.parent_call is not call:
                    if sub.parent_call is not None:  # a guess made while it ran (see _link_by_prompt)
                        sub.parent_call.subagent = None
                        host.update.touch(sub.parent_call.message)
                    if call.subagent is not None:
                        call.subagent.parent_call = None
                    sub.started_by(call)

    def compaction_came(self) -> None:
        """A compaction was written: the compaction runs read before it may be its."""
        for sub in self.host.subagents:
            if sub.role is AgentRole.COMPACTION and sub.home is None:
                self._link_compaction(sub)

    def _link_run(self, sub: A, call: ToolCall) -> None:
        sub.joins_run(call)
        self.host.update.touch(call.message)

    def _link_compaction(self, sub: A) -> None:
        """Give a compaction run to the compaction it wrote the summary of: the first one written after it ended
        that has none yet (Claude Code writes the boundary once the summary is in)."""
        ended = sub.last_timestamp
        if sub.home is not None or ended is None:
            return
        for message in self.host.messages:
            if message.kind is Kind.COMPACT_BOUNDARY and not message.micro and message.agent is None:
                stamp = message.timestamp
                if stamp is not None and not earlier(stamp, ended):
                    sub.summarises(message)
                    self.host.update.touch(message)
                    return

    def _link_by_prompt(self, sub: A) -> None:
        """Link a subagent to the unlinked Task/Agent call whose prompt it starts with; one whose file has
        no prompt (2.0.x flat transcripts start with the answer) to the only unlinked call with no result
        yet: its result, naming the subagent's id, settles the link."""
        if not sub.messages:
            return
        first = next((m for m in sub.messages if m.kind is Kind.PROMPT), None)
        text = first.plain_text.strip() if first is not None else None
        running = []
        for call in reversed(self.host.calls.values()):
            if call.name not in AGENT_TOOLS or call.subagent is not None:
                continue
            if text is not None and as_text(call.args.get("prompt")).strip() == text:
                sub.started_by(call)
                return
            if call.result is None:
                running.append(call)
        if first is None and len(running) == 1:
            sub.started_by(running[0])

    def _touch(self, sub: A) -> None:
        if sub.parent_call is not None:
            self.host.update.touch(sub.parent_call.message)


def run_of(result: ToolResult) -> str | None:
    """The workflow run a Workflow call's result names: its `runId`, else the folder its text says the run keeps
    its transcripts in."""
    run = result.structured.get("runId") if isinstance(result.structured, dict) else None
    if isinstance(run, str) and run:
        return run
    found = _TRANSCRIPT_DIR.search(result.text)
    return found.group(1).strip().replace("\\", "/").rstrip("/").rpartition("/")[2] or None if found else None


#: The lines Claude Code adds to an Agent call's report for the model (2.1.x): the agent's id (to SendMessage it),
#: its worktree, and its usage.
_TRAILER = re.compile(r"\s*agentId: (\w+)[^\n]*\n((?:[A-Za-z]+: [^\n]*\n)*)<usage>(.*?)</usage>\s*\Z", re.S)
_USAGE_WORDS = (("total_tokens", "{:,} tokens"), ("tool_uses", "{:,} tool uses"))


def report_of(text: str) -> tuple[str, str]:
    """An Agent call's result text as the report it is, and the lines Claude Code added to it for the model (its
    agentId, worktree and <usage>) said in a few words ("agent ab1e6e14 · 33,854 tokens · 17 tool uses · 7m27s ·
    worktree-agent-ab1e6e14"), "" when it has none."""
    found = _TRAILER.search(text[-2_000:])
    if found is None:
        return text, ""
    agent, extra, usage = found.groups()
    told = dict(line.split(": ", 1) for line in (extra + usage).splitlines() if ": " in line)
    words = [f"agent {agent[:8]}"]
    words += [form.format(int(told[key])) for key, form in _USAGE_WORDS if told.get(key, "").isdigit()]
    if told.get("duration_ms", "").isdigit():
        words.append(human_duration(int(told["duration_ms"]) / 1000))
    if branch := told.get("worktreeBranch", "").strip():
        words.append(branch)
    return text[: len(text) - len(found.group(0))], " · ".join(words)
