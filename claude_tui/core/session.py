"""Records -> Session: messages, tool calls with their results, threads, forks,
compactions and subagents. It grows as records arrive: feeding a file in pieces
gives the same session as feeding it whole, which is what the live tail relies on.

The Session owns its messages, calls, threads and indexes; what each record type adds is decided in handlers.py,
how its subagents link to what started them in agents.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Container, Iterable
from pathlib import Path
from typing import Any

import orjson

from claude_tui.core import hooks
from claude_tui.core.agents import Agents
from claude_tui.core.collector import gc_paused
from claude_tui.core.content import (
    as_text,
    asks,
    capped_copy,
    other_block,
    persisted_note,
    prompt_text,
    result_content,
)
from claude_tui.core.copies import copy_state, is_copy
from claude_tui.core.handlers import HANDLERS, on_metadata
from claude_tui.core.model import (
    PREVIEW_CHARS,
    AgentRole,
    Block,
    Fork,
    Hook,
    Kind,
    Message,
    Problem,
    Span,
    ToolCall,
    ToolResult,
    own_session_id,
)
from claude_tui.core.reader import Line
from claude_tui.core.records import LineResult, continued, parse_line
from claude_tui.core.shapes import METADATA_TYPES, RECORD_TYPES
from claude_tui.core.threads import Layout, gap_note
from claude_tui.core.timeline import Timeline
from claude_tui.core.times import earlier, parse_time, stamp_ms
from claude_tui.core.update import Update

#: Whether a record handler's exception (a defect of claude-tui's) is raised, as the tests want (tests/conftest.py
#: sets it), or noted on its record while the rest is read, as a person reading the session wants.
STRICT = False
#: What the note of a record a handler failed on says first.
UNREAD = "claude-tui failed on this record"
#: Structured tool results above this many bytes have their strings capped in memory.
_BIG_LINE = 256 * 1024


class Session:
    """One conversation (a session file, or a subagent transcript) as a model."""

    def __init__(
        self,
        path: str | Path = "",
        *,
        session_id: str | None = None,
        agent: bool = False,
        role: AgentRole = AgentRole.TASK,
        run: str | None = None,
    ) -> None:
        self.path = str(path)
        self.role = role  #: subagents: what ran it
        self.run = run  #: a workflow agent's: the run it belongs to (see agents.WORKFLOW_TOOL)
        self.home: Message | None = None  #: a compaction run's: the compaction it wrote the summary of
        self._own_from = 0  #: the index of the first message of its own (see AgentRole.replays)
        self.copies = copy_state(Path(self.path).stem)  #: what of its file is another session's (see copies.py)
        self._copying = False  #: the record being added is a copy
        self._stamp: str | None = None  #: the record being added's timestamp, if it is a time (times.stamp_ms)
        self.copied = 0  #: messages copied from another session's file
        self._agents_ask = ""  #: a session with no records of its own: its subagents' first ask (see adopt_agents)
        self._given_id = session_id
        self.session_ids: dict[str, None] = {}  #: the sessionIds its records name, in order of first appearance
        self.is_agent = agent  #: a subagent transcript: every record is its own, sidechain or not
        #: read from the file's first line: a first message naming no record here continues the session it resumes
        self.from_start = True
        self.agent_id: str | None = None
        self.source = "file"  #: subagents: "file", "inline" (1.0.x sidechain) or "progress" copies
        self.parent_call: ToolCall | None = None  #: subagents: the Task/Agent call that started it
        self.messages: list[Message] = []
        self.calls: dict[str, ToolCall] = {}
        self.subagents: list[Session] = []
        self.forks: list[Fork] = []
        self.problems: list[Problem] = []
        self.records = 0
        self.malformed_lines = 0
        self.record_types: Counter[str] = Counter()
        self.result_ids: set[str] = set()  #: tool_use ids with a result anywhere, nested ones included
        self._outer_result_ids: set[str] | None = None  #: progress copies: their session's, which theirs join
        self.error_ids: set[str] = set()
        self.custom_title: str | None = None
        self.ai_title: str | None = None
        self.facts: dict[str, Any] = {}  #: what FACT records said (core/shapes.fact_of): agent_name, pr_links, ...
        self.summaries: dict[str, str] = {}  #: leafUuid -> summary, as found in this file
        self.cwds: dict[str, None] = {}
        self.branches: dict[str, None] = {}
        self.versions: dict[str, None] = {}
        self.models: dict[str, None] = {}
        self.slugs: dict[str, None] = {}
        self.turn_durations: list[float] = []
        self.first_timestamp: str | None = None  #: the earliest record time (records are not always in order)
        self.last_timestamp: str | None = None  #: the latest
        self._first_ms = self._last_ms = 0  #: theirs, in epoch ms (a stamp of another form is then compared whole)
        self.timeline = Timeline()  #: its records' times, the pauses between them (core/timeline.py)
        self.usage_unreadable = False  #: a message's usage held what is not a token count (noted the first time)
        self.version = 0  #: bumped by every feed that changed something
        #: the last record's cwd, gitBranch, version, sessionId and teamName (see _note_place)
        self._place: tuple[Any, Any, Any, Any, Any] = (None, None, None, None, None)
        self._by_uuid: dict[str, Message] = {}
        #: the messages made before the parent they name, or naming one never read: only these start a thread a
        #: layout may find a gap in (see `_gaps`)
        self._parent_unseen: list[Message] = []
        self.by_message_id: dict[str, Message] = {}  #: assistant messages by `message.id`
        self._prompt_children: dict[str | None, list[Message]] = {}
        self._fork_at: dict[str | None, Fork] = {}
        #: a saved hook context's uuid -> the parent it stands for: Claude Code saves it again after each record
        #: with the same uuid, and the next record names it as its parent
        self.aliases: dict[str, str | None] = {}
        self._layout: tuple[int, Layout] | None = None
        self.folds = hooks.Folds(self.calls)  #: which row each hook, progress or notice record folds into
        self.update = Update(first_new=-1)  #: what the feed being read changed (outside `feed`, not tracked)
        self.agent_links = Agents(self)  #: its subagents' links (agents.py)

    @property
    def id(self) -> str:
        """The session's id: the one it was given (a subagent's is its session's), else the one its file is named by
        (as Claude Code names them; a subagent's transcript read alone goes by its name), else, for a file named
        otherwise (`short.jsonl`), the latest its records name."""
        if self._given_id:
            return self._given_id
        stem = Path(self.path).stem
        return stem if self.is_agent else own_session_id(stem, self.session_ids)

    # ---------------------------------------------------------------- feeding

    @classmethod
    def from_lines(cls, lines: Iterable[Line], path: str | Path = "", **kw: Any) -> Session:
        session = cls(path, **kw)
        session.feed(lines)
        return session

    def feed(self, lines: Iterable[Line]) -> Update:
        """Add complete lines (from a Reader); return what changed."""
        with gc_paused():
            return self._feed(lines)

    def _feed(self, lines: Iterable[Line]) -> Update:
        self.update = update = Update(first_new=len(self.messages))
        problems = len(self.problems)
        add = self.add_record
        for line in lines:
            data = line.data
            try:
                obj = orjson.loads(data)
            except orjson.JSONDecodeError:
                if not data.strip():
                    self.problems.append(Problem(line.line_no, line.offset, "blank line"))
                    continue
                obj = None
            span = Span(line.offset, len(data), line.line_no)
            if type(obj) is dict and not line.glued:
                add(obj, span)
                continue
            result = LineResult([obj]) if type(obj) is dict else parse_line(data)
            if line.glued and result.objects:
                result = continued(result)
            if not result.objects:
                self.malformed_lines += 1
            if result.note:
                self.problems.append(Problem(line.line_no, line.offset, result.note))
            for obj in result.objects:
                add(obj, span)
        update.damaged = len(self.problems) > problems
        if update:
            self.version += 1
        return update

    def reset(self) -> Update:
        """Forget everything (the file was truncated or replaced); keep identity and links."""
        parent_call, source, agent_id, version = self.parent_call, self.source, self.agent_id, self.version
        home = self.home
        self.__init__(  # type: ignore[misc]
            self.path, session_id=self._given_id, agent=self.is_agent, role=self.role, run=self.run
        )
        self.parent_call, self.source, self.agent_id, self.home = parent_call, source, agent_id, home
        self.version = version + 1  # never a number the old contents had: caches are keyed on it
        return Update(started_over=True, threads_changed=True)

    def add_record(self, obj: dict[str, Any], span: Span | None) -> None:
        """Add one parsed record."""
        get = obj.get
        self.records += 1
        rtype = get("type")
        if type(rtype) is not str:
            rtype = "?"
        self.record_types[rtype] += 1
        uuid = get("uuid")
        if type(uuid) is str and (uuid in self._by_uuid or uuid in self.agent_links.inline or uuid in self.aliases):
            if uuid in self.aliases:  # a hook's context saved again, after the record before it
                self.aliases[uuid] = self.parent_of(obj)
            else:
                self.note(span, f"record {uuid[:8]} written twice")  # counted once: no second prompt, fork or time
            return
        stamp = get("timestamp")
        self._stamp = stamp if type(stamp) is str and self._took_time(stamp) else None
        if get("isSidechain") is True and not self.is_agent:  # its answers count here: its times too
            self.agent_links.sidechain(obj, span)
            return
        if self._stamp is None and stamp is not None:  # a word, a number, ...
            shown = repr(stamp[:40]) if isinstance(stamp, str) else repr(stamp)[:40]
            self.note(span, f"timestamp {shown} is not a time: left out")
        self._copying = not self.is_agent and is_copy(self.copies, obj)
        place = (get("cwd"), get("gitBranch"), get("version"), get("sessionId"), get("teamName"))
        if place != self._place:  # the usual record is where the one before it was: nothing new
            self._note_place(place)
        handler = HANDLERS.get(rtype)
        message = get("message")
        if rtype in ("user", "assistant") and not isinstance(message, dict | str):
            self.note(span, f"a {rtype} record with no message, shown as is")
            self.new_message(Kind.UNKNOWN, obj, span, text=f"{rtype} record with no message")
        elif handler is not None:
            if isinstance(message, str) and rtype in ("user", "assistant"):
                self.odd_shape(span, f"a {rtype} record's message")
            try:
                handler(self, obj, span)
            except Exception as exc:
                if STRICT:
                    raise
                failure = f"{type(exc).__name__}: {str(exc)[:200]}"
                self.note(span, f"{UNREAD} ({failure}), and read the rest: please report it")
        elif rtype in METADATA_TYPES:
            on_metadata(self, rtype, obj)
        else:
            if self.record_types[rtype] == 1:
                what = f"unknown record type {rtype[:40]!r}" if rtype != "?" else "a record with no type"
                self.note(span, f"{what}, shown as is")
            self.new_message(Kind.UNKNOWN, obj, span, text=rtype)

    def _note_place(self, place: tuple[Any, Any, Any, Any, Any]) -> None:
        """Take a record's working folder, git branch, Claude Code version, session id and agent team into the
        session's."""
        self._place = place
        cwd, branch, version, sid, team = place
        if type(sid) is str and sid and sid not in self.session_ids:
            self.session_ids[sid] = None
        if type(cwd) is str and cwd not in self.cwds:
            self.cwds[cwd] = None
        if type(branch) is str and branch and branch not in self.branches:
            self.branches[branch] = None
        if type(version) is str and version not in self.versions:
            self.versions[version] = None
        if type(team) is str and team and self.facts.get("team") != team:  # an agent team's session
            self.facts["team"] = team

    def note(self, span: Span | None, what: str) -> None:
        """Note a problem of the record at `span`."""
        self.problems.append(Problem(span.line_no, span.offset, what) if span else Problem(0, 0, what))

    def _took_time(self, stamp: str) -> bool:
        """Take a record's time into the session's span and pauses (records are not always in order); False when
        it is not a time (see times.stamp_ms)."""
        if (ms := stamp_ms(stamp)) is None:
            return False
        self.timeline.add(ms)
        last = self.last_timestamp
        if self.first_timestamp is None:  # the first: the other is set here only
            self.first_timestamp = self.last_timestamp = stamp
            self._first_ms = self._last_ms = ms
        elif last is None or ms > self._last_ms or (ms == self._last_ms and earlier(last, stamp)):  # the usual
            self.last_timestamp, self._last_ms = stamp, ms
        elif ms < self._first_ms or (ms == self._first_ms and earlier(stamp, self.first_timestamp)):
            self.first_timestamp, self._first_ms = stamp, ms
        return True

    # ---------------------------------------------------------------- what the record handlers build with (handlers.py)

    def join_chunk(self, message: Message, obj: dict[str, Any], span: Span | None) -> None:
        """A later streamed chunk of `message`: map its uuid to it and keep its line."""
        uuid = obj.get("uuid")
        if isinstance(uuid, str) and uuid not in self._by_uuid:
            self._by_uuid[uuid] = message
        if span is not None:
            if message.extra_spans is None:
                message.extra_spans = []
            message.extra_spans.append(span)
        self.update.touch(message)

    def add_assistant_block(
        self, message: Message, item: dict[str, Any] | str, obj: dict[str, Any], span: Span | None
    ) -> bool:
        """Add one item of an assistant message's content (see `content_items`); whether it has an odd shape."""
        if isinstance(item, str):  # a bare string: text (content_items noted its shape)
            self._add_block(message, Block("text", item))
            return False
        btype = item.get("type")
        if btype == "tool_use" or btype == "server_tool_use":  # a call, by Claude Code or by the API's server
            tid = item.get("id")
            known = self.calls.get(tid) if isinstance(tid, str) else None
            if not isinstance(tid, str) or (known is not None and not known.lost):
                return False
            inp = item.get("input")
            stamp = self._stamp
            call = ToolCall(tid, as_text(item.get("name")) or "?", inp, message, stamp, span=span)
            self.calls[tid] = call
            message.blocks.append(Block("tool_use", call=call))
            if self.folds.call_came(call):
                self._refolded(call)
            if known is not None and known.result is not None:  # its result came first and stood in for it
                holder = known.message
                holder.blocks = [b for b in holder.blocks if b.call is not known]
                self._layout = None  # the holder may have nothing left to show
                self.update.threads_changed = True
                self._attach_result(call, known.result)
            return not isinstance(inp, dict)
        if btype in ("text", "thinking"):
            value = item.get(btype)
            self._add_block(message, Block(btype, as_text(value)))
            return not isinstance(value, str | None)
        if btype == "tool_result":  # a server call's result, in the same answer (a proxy's)
            self.add_result(item, obj, span, message)
            return False
        self._add_block(message, Block(btype) if btype == "redacted_thinking" else other_block(item))
        return False

    @staticmethod
    def _add_block(message: Message, block: Block) -> None:
        """Add a block to an assistant message unless it repeats the last: a chunk written twice (a Claude Code bug)."""
        last = message.blocks[-1] if message.blocks else None
        if last is None or last.type != block.type or last.text != block.text:
            message.blocks.append(block)

    def odd_shape(self, span: Span | None, what: str) -> None:
        """Note content of a shape Claude Code does not write, shown as text (see `content_items`)."""
        self.note(span, f"{what} has an unexpected shape, shown as text")

    def add_result(self, item: dict[str, Any], obj: dict[str, Any], span: Span | None, owner: Message) -> None:
        tid = item.get("tool_use_id")
        if not isinstance(tid, str):
            return
        text, images, odd = result_content(item.get("content"))
        if odd:
            self.odd_shape(span, "a tool result's content")
        structured = obj.get("toolUseResult")
        if span is not None and span.length > _BIG_LINE:
            structured = capped_copy(structured)
        size, moved = len(text), None
        if (note := persisted_note(text, structured)) is not None:
            text, size, moved = note.preview, note.size, note.path
        result = ToolResult(
            text[:PREVIEW_CHARS],
            size,
            item.get("is_error") is True,
            self._stamp,
            span,
            images,
            structured,
            moved,
        )
        self.result_ids.add(tid)
        if self._outer_result_ids is not None:
            self._outer_result_ids.add(tid)
        if result.is_error:
            self.error_ids.add(tid)
        call = self.calls.get(tid)
        if call is None:  # shown where the result is, until (unless) the call comes
            call = self.calls[tid] = ToolCall(tid, "?", {}, owner, lost=True)
            owner.blocks.append(Block("tool_use", call=call))
        self._attach_result(call, result)

    def _attach_result(self, call: ToolCall, result: ToolResult) -> None:
        call.result = result
        call.progress = ""  # what it said while it ran: its result says it now
        self.update.touch(call.message)
        self.agent_links.result_came(call, result)

    def add_hook(self, hook: Hook, obj: dict[str, Any], span: Span | None) -> None:
        """A hook's record: folded into its call's or prompt's row, or a row of its own (see hooks.py)."""
        message = self.new_message(Kind.HOOK, obj, span)
        message.hook = hook
        host = self.folds.hook(message)
        message.text = hooks.row_text(hook)
        self.touch_host(host)

    def touch_host(self, host: hooks.Host | None) -> None:
        """Note that a row took a record in (its mark, its full view changed)."""
        if host is not None:
            self.update.touch(host.message if isinstance(host, ToolCall) else host)

    def _refolded(self, host: hooks.Host) -> None:
        """Records shown as rows until now were folded into `host`: what is shown is laid out again."""
        self._layout = None
        self.touch_host(host)

    def parent_of(self, obj: dict[str, Any]) -> str | None:
        """A record's parent: its parentUuid (or logicalParentUuid), a saved hook context it names standing for
        the record that context was saved after."""
        parent = obj.get("parentUuid")
        if not isinstance(parent, str):
            logical = obj.get("logicalParentUuid")
            parent = logical if isinstance(logical, str) else None
        return self.aliases.get(parent, parent) if parent is not None and self.aliases else parent

    # ---------------------------------------------------------------- messages and threads

    def new_message(
        self,
        kind: Kind,
        obj: dict[str, Any],
        span: Span | None,
        *,
        blocks: list[Block] | None = None,
        text: str = "",
    ) -> Message:
        uuid = obj.get("uuid")
        uuid = uuid if isinstance(uuid, str) else None
        parent = self.parent_of(obj)
        message = Message(
            kind,
            uuid,
            parent,
            self._stamp,
            span,
            len(self.messages),
            blocks if blocks is not None else [],
            text,
            rtype if type(rtype := obj.get("type")) is str else "?",
            sidechain=obj.get("isSidechain") is True,
            copied=self._copying,
        )
        slug = obj.get("slug")
        if type(slug) is str:
            message.slug = slug
            if slug not in self.slugs:
                self.slugs[slug] = None
        if parent is not None and parent not in self._by_uuid:
            self._parent_unseen.append(message)
        if uuid is not None:
            self._by_uuid[uuid] = message
        self.copied += self._copying
        self.messages.append(message)
        self.update.added.append(message)
        if kind is Kind.PROMPT:  # local commands run as siblings under one caveat: not a rewind
            self._check_fork(message)
            if self.role.replays:
                self._own_from = message.index
        if (kind is Kind.PROMPT or kind is Kind.COMMAND) and self.folds.prompt_came(message):
            self._refolded(message)
        return message

    def _check_fork(self, prompt: Message) -> None:
        """Two prompts with one parent make a fork: an edited or rewound prompt."""
        siblings = self._prompt_children.setdefault(prompt.parent, [])
        siblings.append(prompt)
        if len(siblings) < 2:
            return
        fork = self._fork_at.get(prompt.parent)
        if fork is None:
            fork = self._fork_at[prompt.parent] = Fork(prompt.parent, [siblings[0]])
            siblings[0].fork = fork
            self.forks.append(fork)
        fork.heads.append(prompt)
        prompt.fork = fork
        self.update.threads_changed = True
        self._layout = None  # the branches changed: lay out everything again

    def _current_layout(self) -> Layout:
        if self._layout is None or self._layout[0] != self.version:
            old = self._layout[1] if self._layout is not None else None
            self._layout = (self.version, old if old is not None and old.extend(self) else Layout.of(self))
        return self._layout[1]

    def branch_of(self, fork: Fork) -> int:
        """Index of the branch of `fork` being read: the user's choice, else the one with the newest message."""
        if fork.chosen is not None:
            return fork.chosen
        return self._current_layout().newest_branch(fork)

    def choose_branch(self, fork: Fork, index: int | None) -> None:
        """Read branch `index` of `fork` (None: back to following the newest)."""
        fork.chosen = None if index is None else index % len(fork.heads)
        self._layout = None
        self.version += 1

    def choose_branches_to(self, message: Message) -> bool:
        """Read the branches that lead to `message`, one of this session's: whether that changed the path read."""
        layout = self._current_layout()
        held = message.index < len(self.messages) and self.messages[message.index] is message
        if not held or message.segment in layout.active:
            return False
        for fork, index in layout.branches_to(message.segment, self.forks):
            self.choose_branch(fork, index)
        return True

    def visible(self) -> list[Message]:
        """The messages of the branch being read, in file order (tool results live in their calls); of a subagent
        that replays its session's messages, its own only (see AgentRole.replays)."""
        visible = self._current_layout().visible
        return [m for m in visible if m.index >= self._own_from] if self._own_from else visible

    @property
    def counted(self) -> list[Message]:
        """The messages it counts: not those a subagent replays of its session's (see AgentRole.replays), nor
        those its file holds copied from another session's (see copies.py)."""
        if not self._own_from and not self.copied:
            return self.messages
        return [m for m in self.messages[self._own_from :] if not m.copied]

    def other_branches(self) -> list[Message]:
        """The messages of the branches not being read, in file order (a finder's second place to look)."""
        return self._current_layout().off_path(self) if self.forks else []

    def message_by_uuid(self, uuid: str) -> Message | None:
        return self._by_uuid.get(uuid)

    def all_problems(self) -> list[Problem]:
        """`problems`, and the notes where the thread could not be followed (see threads.py), by line."""
        notes = self._gaps()[0]
        if not notes:
            return self.problems
        return sorted([*self.problems, *notes], key=lambda p: (not p.line_no, p.line_no))

    def missing_parents(self) -> list[tuple[str, Problem]]:
        """The parents named that are not in the file, each with the note on the message naming it."""
        return self._gaps()[1]

    def _gaps(self) -> tuple[list[Problem], list[tuple[str, Problem]]]:
        """The layout's notes and missing parents. When no message came before a parent the file holds, each
        message naming one never read starts a thread of its own (but a compaction, whose parent is logical, and
        a resumed file's first message): they are told without laying the session out."""
        by_uuid = self._by_uuid
        if any(m.parent in by_uuid for m in self._parent_unseen):
            layout = self._current_layout()
            return layout.notes, layout.missing
        missing = [
            (m.parent, gap_note(m, m.parent, looped=False))
            for m in self._parent_unseen
            if m.parent and m.kind is not Kind.COMPACT_BOUNDARY and (m.index > 0 or not self.from_start)
        ]
        return sorted((note for _, note in missing), key=lambda note: note.line_no), missing

    # ---------------------------------------------------------------- subagents (see agents.py)

    def new_agent(self, source: str) -> Session:
        """An empty subagent of this session, read from `source` ("inline" or "progress") in its file."""
        sub = Session(self.path, session_id=self.id, agent=True)
        sub.source = source
        if source == "progress":  # its results are this session's too
            sub._outer_result_ids = self.result_ids
        return sub

    def attach_agent(self, sub: Session) -> None:
        """Add a subagent read from its own file (2.0.x flat, 2.1.x `<session>/subagents/`)."""
        self.agent_links.attach(sub)
        self.version += 1

    def link_agent(self, sub: Session) -> None:
        """Link a subagent to what started it (see Agents.link)."""
        self.agent_links.link(sub)

    def started_by(self, call: ToolCall) -> None:
        """Link this subagent to the Task/Agent call that started it."""
        self.parent_call = call
        call.subagent = self

    def joins_run(self, call: ToolCall) -> None:
        """Link this workflow agent to the Workflow call that started its run."""
        self.parent_call = call
        call.run = sorted([*(call.run or ()), self], key=lambda agent: agent.first_timestamp or "")  # as they started

    def summarises(self, compaction: Message) -> None:
        """Link this compaction run to the compaction it wrote the summary of."""
        compaction.agent, self.home = self, compaction

    # ---------------------------------------------------------------- facts

    @property
    def pauses(self) -> int:
        """Pauses on its time line (each a gap over times.PAUSE_S), and their length."""
        return self.timeline.pauses

    @property
    def paused_ms(self) -> int:
        return self.timeline.paused_ms

    def title(self, summaries: dict[str, str] | None = None) -> str:
        """Last custom title, last AI title, a summary of a leaf in this session, or the first prompt."""
        return pick_title(
            self.custom_title or self.facts.get("agent_name"),
            self.ai_title,
            {**self.summaries, **(summaries or {})},
            self._by_uuid,
            self.first_prompt,
        )

    @property
    def first_prompt(self) -> str:
        """What the user first asked (see `first_ask`); a bare slash command when nothing else, else what a peer first
        said (a teammate's transcript opens with its lead's message)."""
        return self.first_ask() or self.first_text(Kind.COMMAND) or self.first_text(Kind.PEER)

    def first_ask(self) -> str:
        """The first prompt or slash command with arguments, as one line (see `asks`)."""
        for message in self.messages:
            if message.kind is Kind.PROMPT or message.kind is Kind.COMMAND:
                text = prompt_text(message)
                if text and asks(message.kind, message.plain_text):
                    return text
        return self._agents_ask

    def first_text(self, kind: Kind) -> str:
        """The first message of `kind` with some text, as one line (see `prompt_text`)."""
        for message in self.messages:
            if message.kind is kind:
                text = prompt_text(message)
                if text:
                    return text
        return ""

    def adopt_agents(self) -> None:
        """A session with no records of its own (a folder with only its subagents' transcripts, files.folder_only):
        its times, working folders and first ask are those of its subagents, the earliest first (a teammate's: its
        lead's message)."""
        timed = sorted(
            (s for s in self.subagents if s.first_timestamp), key=lambda s: parse_time(s.first_timestamp) or 0
        )
        if not timed:
            return
        self.first_timestamp = timed[0].first_timestamp
        self.last_timestamp = max((s.last_timestamp or "" for s in timed), key=lambda t: parse_time(t) or 0) or None
        self._first_ms, self._last_ms = timed[0]._first_ms, max(s._last_ms for s in timed)
        for sub in self.subagents:
            self.cwds.update(dict.fromkeys(sub.cwds))
        self._agents_ask = next((ask for s in timed if (ask := s.first_prompt)), "")  # as the index has it

    @property
    def origin(self) -> str | None:
        """The session this one continues, whose records its file begins with a copy of (see copies.py)."""
        return self.copies["o"]

    @property
    def background(self) -> bool:
        """A session sent to the background: Claude Code re-ran it as a copy of its origin (`sessionKind: "bg"`)."""
        return bool(self.copies["bg"])

    @property
    def project_path(self) -> str | None:
        return next(iter(self.cwds), None)

    @property
    def is_warmup(self) -> bool:
        prompt = next((m for m in self.messages if m.kind is Kind.PROMPT), None)
        return prompt is not None and prompt.plain_text.strip() == "Warmup"

    @property
    def is_empty(self) -> bool:
        return nothing_exchanged({m.kind for m in self.messages})

    @property
    def records_with_subagents(self) -> int:
        """Records read from the session file and from its subagents' own transcripts."""
        return self.records + sum(sub.records for sub in self.subagents if sub.source == "file")

    # ---------------------------------------------------------------- what `stats` merges across two stretches

    @property
    def uuids(self) -> Collection[str]:
        """The uuids of this file's top-level records (streamed chunks' included)."""
        return self._by_uuid.keys()

    @property
    def hook_contexts(self) -> Collection[str]:
        """The uuids of its hooks' saved contexts, which a record names as its parent in place of another."""
        return self.aliases.keys()

    @property
    def message_ids(self) -> Collection[str]:
        """The `message.id`s of its assistant messages."""
        return self.by_message_id.keys()

    @property
    def prompt_parents(self) -> dict[str | None, int]:
        """How many prompts each parent uuid has (two or more make a fork)."""
        return {parent: len(prompts) for parent, prompts in self._prompt_children.items()}

    @property
    def progress_keys(self) -> Collection[str]:
        """The Task calls (or agent ids) whose subagent records were copied into progress records."""
        return self.agent_links.progress.keys()


def pick_title(
    custom: str | None, ai: str | None, summaries: dict[str, str], uuids: dict[str, Any], first_prompt: str
) -> str:
    """A session's title: the last custom title, the last AI title, the summary of the latest of its
    records (the keys of `uuids`, in file order) that one points at, or its first prompt."""
    if custom:
        return custom
    if ai:
        return ai
    if any(leaf in uuids for leaf in summaries):
        return next(summaries[uuid] for uuid in reversed(uuids) if uuid in summaries)
    return first_prompt


def nothing_exchanged(kinds: Container[Kind]) -> bool:
    """An empty session: no answer, and nothing typed but commands (`/model`, `/clear`). A prompt left
    without an answer (the session quit, or crashed) is kept: it is what the user wrote."""
    return Kind.PROMPT not in kinds and Kind.ASSISTANT not in kinds


#: What each kind of subagent is called where it is shown.
_AGENT_WORDS = {
    AgentRole.TASK: "subagent",
    AgentRole.WORKFLOW: "workflow agent",
    AgentRole.COMPACTION: "compaction run",
    AgentRole.SIDE_QUESTION: "side question",
}


def agent_word(sub: Session) -> str:
    """What a subagent is called where it is shown: "subagent", "workflow agent", "side question", ..."""
    return _AGENT_WORDS[sub.role]


def unstarted(sub: Session) -> bool:
    """A subagent that nothing in its session holds (no call started it; not a compaction run of one of its
    compactions): shown after the session's messages."""
    return sub.parent_call is None and sub.home is None


#: Record types the model knows; any other is kept as an unknown row, with a note the first time.
KNOWN_TYPES = frozenset(RECORD_TYPES)
