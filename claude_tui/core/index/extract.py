"""One pass over raw session lines for the index: a file's facts and its search rows.

The full `Session` model costs about 15 µs a record, too much for gigabytes of history.
This pass computes the facts `stats.session_stats` reports (tests compare the two over
the real corpus) with a few dict lookups a record, and cuts lean rows for the full-text
index. Its `State` is small JSON, so a file that grew is read on from its stored offset.

Ids needed to match records across an increment (streamed chunks of one message, a tool
call and its result, a sidechain and its parent) are remembered in windows of the last
`WINDOW` ids: far more than the distance between related records in real files.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterator, Sequence
from typing import Any

import orjson

from claude_tui.core.cjk import spaced_cjk
from claude_tui.core.content import (
    as_text,
    asks,
    is_api_error,
    prompt_text,
    queued_message,
    record_content,
    system_kind,
    user_kind,
)
from claude_tui.core.copies import copy_state, is_copy
from claude_tui.core.files import agent_role, owning_folder, stem_of
from claude_tui.core.index.texts import (
    ANSWER,
    API_ERROR,
    CAPS,
    LINE_RECORD,
    PROMPT,
    TOOL_INPUT,
    TOOL_OUTPUT,
    assistant_parts,
    command_text,
    copied_record,
    epoch,
    input_text,
    record_texts,
    result_parts,
    result_text,
    said_part,
    system_part,
    user_parts,
)
from claude_tui.core.model import AgentRole, Block, Kind, Message
from claude_tui.core.notices import peer_parts
from claude_tui.core.reader import finished_last_line
from claude_tui.core.records import parse_line
from claude_tui.core.sanitize import searchable
from claude_tui.core.shapes import fact_of
from claude_tui.core.timeline import Timeline
from claude_tui.core.times import earlier, plausible, stamp_ms, usual_digits
from claude_tui.core.usage import Tokens, priced_as, replaces, usage_counts

#: Ids remembered across increments, per kind of id.
WINDOW = 64
#: Bytes read at a time; a line longer than this is read whole.
CHUNK = 4 * 1024 * 1024
#: Lines of a flat agent file searched for the sessionId naming its owner (as files.first_session_id).
OWNER_LINES = 20
#: The uuids of a file that summaries name, noted in its facts: the latest (the title is the latest's summary).
MAX_LEAVES = 64
#: The sessionIds of a file noted in its facts: the first ones (a file holds one, or a few when it continues others).
MAX_SIDS = 16


class State:
    """What one file has said so far: its facts, and the ids needed to continue reading it."""

    __slots__ = (
        "agent", "agent_name", "ai_title", "answers", "branches", "calls", "calls_seen", "commands", "copies",
        "custom_title", "cwds", "errors", "errors_seen", "first_command", "first_peer", "first_prompt", "first_ts",
        "has_answer", "inline_subs", "last_ts", "last_uuid", "leaves", "lines", "models", "msgs", "owner", "progress",
        "prompt_seen", "prompts", "seen", "sidechain", "sids", "spans", "usage", "warmup", "worktrees",
    )  # fmt: skip

    def __init__(self, agent: bool = False) -> None:
        self.agent = agent  #: a subagent transcript: every record is its own
        self.owner: str | None = None  #: agent files: the first sessionId in the file
        self.sids: list[str] = []  #: the sessionIds its records name, in order of first appearance (see MAX_SIDS)
        self.copies: dict[str, Any] | None = None  #: session files: what of it is another session's (copies.py)
        self.lines = 0
        self.first_ts: str | None = None  #: the earliest record time
        self.last_ts: str | None = None  #: the latest
        self.spans: list[list[int]] = []  #: its records' times, as timeline.Timeline keeps them
        self.cwds: list[str] = []
        self.branches: list[str] = []
        self.models: list[str] = []
        self.custom_title: str | None = None
        self.agent_name: str | None = None  #: the session's name (an agent-name record): its title lacking a custom one
        self.ai_title: str | None = None
        self.first_prompt = ""  #: the first prompt or slash command with arguments (see session.asks)
        self.first_command = ""  #: the first command: the title when nothing was asked
        self.first_peer = ""  #: what a peer first said (its summary, else its words): the title lacking a command
        self.prompt_seen = False
        self.warmup = False
        self.prompts = 0
        self.commands = 0  #: slash and `!` commands, as Session counts Kind.COMMAND
        self.answers = 0  #: assistant messages (message ids), inline sidechains included, API errors not
        self.has_answer = False  #: a top-level assistant message that is not an API error
        self.calls = 0
        self.errors = 0
        self.inline_subs = 0
        self.last_uuid: str | None = None  #: the last top-level message record, a summary's usual leaf
        self.leaves: list[str] = []  #: uuids here that known summaries point at
        self.worktrees: list[str] = []  #: paths this session made git worktrees at
        self.usage: dict[str, list[int]] = {}  #: model ("" for none) -> usage.usage_counts summed
        self.msgs: dict[str, list[Any]] = {}  #: message id -> [model, tokens...] (window)
        self.calls_seen: dict[str, str] = {}  #: tool_use id -> tool name (window)
        self.errors_seen: dict[str, None] = {}  #: tool_use ids with an error result (window)
        self.seen: dict[str, None] = {}  #: uuids of top-level records (window)
        self.sidechain: dict[str, None] = {}  #: uuids of inline sidechain records (window)
        self.progress: dict[str, dict[str, Any]] = {}  #: progress-copied subagents: key -> {a, u, m}

    def dump(self) -> bytes:
        return orjson.dumps({name: getattr(self, name) for name in self.__slots__})

    @classmethod
    def load(cls, data: bytes | str) -> State:
        state = cls()
        for name, value in orjson.loads(data).items():
            if name in cls.__slots__:
                setattr(state, name, value)
        return state

    def facts(self) -> dict[str, Any]:
        """The facts stored with the file (small: no id windows)."""
        return {
            "owner": self.owner,
            "sids": self.sids,
            "origin": self.copies["o"] if self.copies else None,
            "bg": bool(self.copies and self.copies["bg"]),
            "first_ts": self.first_ts,
            "last_ts": self.last_ts,
            "paused_ms": Timeline(self.spans).paused_ms,
            "cwds": self.cwds,
            "branches": self.branches,
            "models": self.models,
            "custom_title": self.custom_title,
            "agent_name": self.agent_name,
            "ai_title": self.ai_title,
            "first_prompt": self.first_prompt or self.first_command or self.first_peer,
            "warmup": self.warmup,
            "prompts": self.prompts,
            "commands": self.commands,
            "answers": self.answers,
            "has_answer": self.has_answer,
            "calls": self.calls,
            "errors": self.errors,
            "inline_subs": self.inline_subs,
            "last_uuid": self.last_uuid,
            "leaves": self.leaves,
            "worktrees": self.worktrees,
            "usage": self.usage,
            "progress": {k: {"a": v["a"], "u": v["u"]} for k, v in self.progress.items()},
        }


def title_of(facts: dict[str, Any], summaries: dict[str, str]) -> str:
    """As Session.title: the custom title (else the session's name), the AI title, the summary of the latest message
    of this session that one points at (`summaries`: leaf -> text), else the first prompt."""
    if facts.get("custom_title") or facts.get("agent_name"):
        return facts.get("custom_title") or facts["agent_name"]
    if facts.get("ai_title"):
        return facts["ai_title"]
    latest_first = [facts.get("last_uuid"), *reversed(facts.get("leaves", ()))]
    return next((summaries[leaf] for leaf in latest_first if leaf in summaries), facts.get("first_prompt") or "")


def owner_of(path: str, facts: dict[str, Any]) -> str:
    """The id of the session a subagent transcript belongs to (as files.agent_files finds it): the
    folder above `<id>/subagents/`, else the sessionId its records name ("" when none)."""
    return owning_folder(path) or facts.get("owner") or ""


def _trim(window: dict[str, Any]) -> None:
    if len(window) > 2 * WINDOW:
        for key in list(window)[: len(window) - WINDOW]:
            del window[key]


#: What ends one command of a command line, as shlex's punctuation tokens.
_COMMAND_ENDS = frozenset(("&&", "||", ";", "|", "&", ";;", "(", ")"))


def worktree_targets(command: str, cwd: str | None) -> list[str]:
    """The folders the `git [-C DIR] worktree add [options] PATH` commands of a command line create, made absolute."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:
        return []
    targets = []
    for i in range(1, len(words) - 2):
        if words[i] != "worktree" or words[i + 1] != "add":
            continue
        head = words[max(0, i - 3) : i]
        if not any(os.path.basename(w) == "git" for w in head):
            continue
        base = cwd
        if "-C" in head and head.index("-C") + 1 < len(head):
            base = os.path.join(cwd or "", head[head.index("-C") + 1])
        target = _added_path(words[i + 2 :], base)
        if target is not None:
            targets.append(target)
    return targets


def _added_path(args: list[str], base: str | None) -> str | None:
    """The PATH among `git worktree add`'s arguments (up to the end of its command), made absolute."""
    value = False  #: the word is an option's value
    for word in args:
        if word in _COMMAND_ENDS:
            return None
        if value or word in ("-b", "-B", "--reason"):
            value = not value
        elif not word.startswith("-"):
            if not os.path.isabs(word) and not (base and os.path.isabs(base)):
                return None
            return os.path.normpath(os.path.join(base or "", word))
    return None


class Extractor:
    """Feeds lines of one file into its State and collects rows for the index.

    A row's id is `base + line offset + its rank in the line`: unique (a line is longer than
    its number of parts), and rising with the position in the file. The index gives each
    read of a file a base above every id given before, so ids follow the order text arrived.
    """

    def __init__(
        self, state: State, file_id: int, base: int, known_leaves: frozenset[str] = frozenset(), path: str = ""
    ) -> None:
        self.state = state
        self.file_id = file_id
        self.base = base
        self.path = path  #: the file read: the session's folder beside it holds the outputs moved out of it
        if not state.agent and state.copies is None:
            state.copies = copy_state(stem_of(path))
        self._copy = False  #: the record being added is another session's (see copies.py): shown, not counted
        self._copied_calls: set[str] = set()  #: the tool calls of such records read in this pass
        role = agent_role(path) if state.agent and path else AgentRole.TASK
        self._replays = role.replays
        #: a compaction run's text is its compaction's summary, which the session's file holds: searched there only
        self._indexed = role is not AgentRole.COMPACTION
        #: (rowid, file id, line offset, kind, block index, tool, is_error, epoch seconds or None)
        self.rows: list[tuple[int, int, int, int, int, str | None, int, int | None]] = []
        self.texts: list[tuple[int, str]] = []  #: (rowid, text)
        self.summaries: list[tuple[str, str]] = []  #: (leafUuid, summary) found, in file order
        #: uuids a summary may name, as found: the last message before each prompt (where a session paused or a
        #: branch ended) and those known summaries name; the index looks them up for summaries written later
        self.marks: list[str] = []
        #: message id -> (model, epoch seconds, copied, token counts...) of each message whose usage was counted or
        #: grew in this pass (index/usage.py's `usage` table: a message once however many files hold it)
        self.usages: dict[str, tuple[Any, ...]] = {}
        self._uuids: set[str] = set()  #: uuids read in this pass, for summaries later in the file
        self._leaves: set[str] = set(known_leaves)  #: leaves of summaries known, or read in this pass
        self._off = -1
        self._rank = 0
        self._record = 0  #: the rank in its line of the record being added (see LINE_RECORD)
        self._sec: int | None = None  #: the epoch seconds of the record being added; None: it has no time
        self._minute = ("", 0)  #: the last `YYYY-MM-DDTHH:MM` of a `...Z` stamp, and its epoch seconds
        self._chunk: tuple[Any, Any] = (None, None)  #: the last assistant record's message id and usage
        self._timeline = Timeline(state.spans)  #: the state's record times (it holds their list)

    def _row(self, off: int, kind: int, blk: int, text: str, tool: str | None = None, err: int = 0) -> None:
        if not text or not self._indexed:
            return
        if off != self._off:
            self._off, self._rank = off, 0
        rowid = self.base + off + self._rank
        self._rank += 1
        self.rows.append((rowid, self.file_id, off, kind, blk + self._record * LINE_RECORD, tool, err, self._sec))
        self.texts.append((rowid, spaced_cjk(searchable(text[: CAPS[kind]]))))

    def feed(self, lines: bytes, off: int) -> None:
        """Add the records of `lines` (whole lines, the first at byte offset `off`)."""
        add, loads, error = self.add, orjson.loads, orjson.JSONDecodeError
        for line in lines.split(b"\n"):
            if line:
                try:
                    obj = loads(line)
                except error:
                    self._recovered(line, off)
                else:
                    if type(obj) is dict:
                        add(obj, off)
            off += len(line) + 1

    def _recovered(self, line: bytes, off: int) -> None:
        """Add the records recovered from a damaged line, each row marked with its record's rank in the line."""
        for rank, obj in enumerate(parse_line(line).objects):
            self._record = rank
            self.add(obj, off)
        self._record = 0

    def add(self, obj: dict[str, Any], off: int) -> None:
        """Add one record: the same steps as Session.add_record, keeping only what the index needs."""
        state = self.state
        get = obj.get
        if state.agent and state.owner is None:
            state.lines += 1
            sid = get("sessionId")
            if isinstance(sid, str) and state.lines <= OWNER_LINES:
                state.owner = sid
        uuid = get("uuid")
        if uuid.__class__ is str and (uuid in self._uuids or uuid in state.seen or uuid in state.sidechain):
            return  # a record written twice: counted once (Session.add_record notes it)
        stamp: Any = get("timestamp")  # any type: checked below
        self._sec = self._clock(stamp) if type(stamp) is str else None
        timed = self._sec is not None
        rtype = get("type")
        if timed:  # as Session.add_record (an inline sidechain's too)
            ms = stamp_ms(stamp)
            if ms is not None:
                self._timeline.add(ms)
            if state.first_ts is None or earlier(stamp, state.first_ts):
                state.first_ts = stamp
            if state.last_ts is None or earlier(state.last_ts, stamp):
                state.last_ts = stamp
        if get("isSidechain") is True and not state.agent:
            self._copy = False
            self._sidechain(obj, rtype, off)
            return
        self._copy = state.copies is not None and is_copy(state.copies, obj)
        cwd, branch, sid = get("cwd"), get("gitBranch"), get("sessionId")
        if sid.__class__ is str and sid and sid not in state.sids and len(state.sids) < MAX_SIDS:
            state.sids.append(sid)
        if type(cwd) is str and cwd not in state.cwds and len(state.cwds) < 64:
            state.cwds.append(cwd)
        if type(branch) is str and branch and branch not in state.branches and len(state.branches) < 64:
            state.branches.append(branch)
        if rtype == "assistant":
            self._assistant(obj, off, True)
        elif rtype == "user":
            self._user(obj, off, True)
        elif rtype == "progress":
            self._progress(obj, off)
        elif rtype == "system":
            if get("subtype") == "local_command" and not is_api_error(obj):
                content = as_text(get("content"))
                self._said(system_kind(content), [content], off, True)
            elif (part := system_part(obj)) is not None:
                self._row(off, *part)
        elif rtype == "attachment" and (queued := queued_message(obj)) is not None:
            self._said(queued[0], user_parts(queued[1])[0], off, True)
        elif rtype == "agent-name":
            if (fact := fact_of(rtype, obj)) is not None:
                state.agent_name = fact[1]
        elif rtype == "custom-title":
            if get("customTitle"):
                state.custom_title = as_text(obj["customTitle"])
        elif rtype == "ai-title":
            if get("aiTitle"):
                state.ai_title = as_text(obj["aiTitle"])
        elif rtype == "summary":
            leaf = get("leafUuid")
            if isinstance(leaf, str) and get("summary"):
                self.summaries.append((leaf, as_text(obj["summary"])))
                self._leaves.add(leaf)
                if leaf in self._uuids:
                    self._leaf(leaf)
        if uuid.__class__ is str:
            self._uuids.add(uuid)
            state.seen[uuid] = None
            _trim(state.seen)
            if rtype == "assistant" or rtype == "user":
                state.last_uuid = uuid
            if uuid in self._leaves:
                self._leaf(uuid)

    def _clock(self, stamp: str) -> int | None:
        """The epoch seconds of a record's stamp; None when it is not a time (times.plausible). Claude Code's
        `...Z` stamps of the minute before are read without parsing (records come many a minute)."""
        key, base = self._minute
        if stamp[:16] == key and usual_digits(stamp):  # the minute of a stamp found plausible
            return base + int(stamp[17:19])
        if not plausible(stamp):
            return None
        sec = epoch(stamp)
        if sec is not None and stamp[-1:] == "Z" and stamp[16:17] == ":":
            self._minute = (stamp[:16], sec - sec % 60)
        return sec

    def _leaf(self, uuid: str) -> None:
        """Note a uuid of this file that a summary points at (the session's title, lacking a better one)."""
        self.marks.append(uuid)
        leaves = self.state.leaves
        if uuid not in leaves:
            leaves.append(uuid)
            del leaves[:-MAX_LEAVES]

    def _sidechain(self, obj: dict[str, Any], rtype: Any, off: int) -> None:
        """1.0.x: a subagent's record inline in the main file (each Task run starts a new root)."""
        state = self.state
        parent = obj.get("parentUuid")
        if not isinstance(parent, str) or (parent not in state.sidechain and not state.inline_subs):
            state.inline_subs += 1  # a root starts a run; a parent never seen continues the latest
        uuid = obj.get("uuid")
        if isinstance(uuid, str):
            state.sidechain[uuid] = None
            _trim(state.sidechain)
        if rtype == "assistant":
            self._assistant(obj, off, False)
        elif rtype == "user":
            self._user(obj, off, False)

    def _assistant(self, obj: dict[str, Any], off: int, top: bool) -> None:
        state = self.state
        payload = obj.get("message")
        if type(payload) is not dict:
            payload = {}
        get = payload.get
        mid = get("id")
        entry = state.msgs.get(mid) if type(mid) is str else None
        failed = bool(obj.get("isApiErrorMessage"))  # Claude Code's own message about a failed call
        said = API_ERROR if failed else ANSWER
        model: Any = get("model")  # any type: _name_model checks it
        copy = self._copy
        if entry is None:
            if not failed and model == "<synthetic>":
                return  # Claude Code's stand-in ("No response requested."): no answer, as Session has it
            if not failed and not copy:
                state.answers += 1
                if top:
                    state.has_answer = True
            entry = ["", None]
            if type(mid) is str:
                state.msgs[mid] = entry
                _trim(state.msgs)
        if _name_model(state.usage, entry, model) and top and model != "<synthetic>" and model not in state.models:
            state.models.append(model)
        usage = get("usage")
        if type(usage) is dict and (entry[1] is None or (mid, usage) != self._chunk):
            if not copy:  # a copy counts in the session it was copied from (kept below, for a total over every file)
                _count_usage(state.usage, entry, usage)
            self._chunk = (mid, usage)  # streamed chunks of one message repeat its usage: counted once
            if type(mid) is not str:  # counted each, as a message of its own: by its record's uuid, else place
                uuid = obj.get("uuid")
                mid = uuid if type(uuid) is str else f"@{off}.{self._record}"
            self.usages[mid] = (entry[0], self._sec, int(copy), *(entry[1] or usage_counts(usage)))
        for kind, i, part in assistant_parts(record_content(obj), said):
            if kind == TOOL_INPUT:
                self._call(part, off, i, obj.get("cwd"))
            elif kind == TOOL_OUTPUT:
                self._result(part, off, i)
            else:
                self._row(off, kind, i, part)

    def _call(self, item: dict[str, Any], off: int, blk: int, cwd: Any) -> None:
        state = self.state
        tid = item.get("id")
        if type(tid) is not str or tid in state.calls_seen:
            return
        name = item.get("name")
        name = name if type(name) is str and name else "?"
        state.calls_seen[tid] = name
        _trim(state.calls_seen)
        if self._copy:
            self._copied_calls.add(tid)
        else:
            state.calls += 1
            state.errors += tid in state.errors_seen
        inp = item.get("input")
        self._row(off, TOOL_INPUT, blk, input_text(inp, CAPS[TOOL_INPUT]), name)
        if name == "Bash" and type(inp) is dict and "worktree" in as_text(inp.get("command")):
            for target in worktree_targets(as_text(inp.get("command")), cwd if isinstance(cwd, str) else None):
                if target not in state.worktrees and len(state.worktrees) < 64:
                    state.worktrees.append(target)

    def _user(self, obj: dict[str, Any], off: int, top: bool) -> None:
        content = record_content(obj)
        # most user records are tool results, known by their first block; the others are read whole
        if not (
            type(content) is list and content and type(content[0]) is dict and content[0].get("type") == "tool_result"
        ):
            texts, first, results = user_parts(content)
            if not results:
                self._user_text(obj, texts, first, off, top)
                return
        for i, item in result_parts(content):
            self._result(item, off, i)

    def _user_text(self, obj: dict[str, Any], texts: list[str], first: str | None, off: int, top: bool) -> None:
        """A user record without results (see `_said`): `first`, the text its kind is told by."""
        self._said(user_kind(obj, first, False), texts, off, top)

    def _said(self, kind: Kind, texts: list[str], off: int, top: bool) -> None:
        """A message in the user's turn, of `kind` (content.user_kind): a prompt and a command counted as the session
        counts them, and its row (`said_part`)."""
        state = self.state
        if kind is Kind.PROMPT:
            self._prompt(texts, off, top)
            return
        if kind is Kind.COMMAND and top:
            text = command_text(texts)
            state.commands += 1
            if not state.first_prompt and text and asks(kind, "\n".join(texts)):
                state.first_prompt = text[:200]  # as prompt_text
            if not state.first_command:
                state.first_command = text[:200]
        if (part := said_part(kind, texts)) is not None:
            self._row(off, *part)
        if kind is Kind.PEER and top and not state.first_peer:
            _, summary, body = peer_parts("\n\n".join(texts))
            state.first_peer = " ".join((summary or body).split())[:200]  # as prompt_text

    def _prompt(self, texts: list[str], off: int, top: bool) -> None:
        state = self.state
        text = "\n\n".join(texts)
        if self._replays:  # what came before is its session's, replayed (see AgentRole.replays): not its own
            state.usage, state.msgs = {}, {}
            del self.rows[:], self.texts[:]
        if top:
            state.prompts += not self._copy
            if state.last_uuid is not None:
                self.marks.append(state.last_uuid)
            if not state.prompt_seen:
                state.prompt_seen = True
                state.warmup = text.strip() == "Warmup"
            if not state.first_prompt:
                message = Message(Kind.PROMPT, None, None, None, None, 0, [Block("text", t) for t in texts])
                state.first_prompt = prompt_text(message)
        self._row(off, PROMPT, -1, text)

    def _result(self, item: dict[str, Any], off: int, blk: int) -> None:
        state = self.state
        tid = item.get("tool_use_id")
        if type(tid) is not str:
            return
        err = item.get("is_error") is True
        if err and tid not in state.errors_seen:
            state.errors_seen[tid] = None
            _trim(state.errors_seen)
            if tid in state.calls_seen and tid not in self._copied_calls:
                state.errors += 1
        text = result_text(item.get("content"), CAPS[TOOL_OUTPUT], self.path)
        self._row(off, TOOL_OUTPUT, blk, text, state.calls_seen.get(tid), int(err))

    def _progress(self, obj: dict[str, Any], off: int) -> None:
        """2.1.7 to 2.1.42: a subagent's records copied into progress records: their text is searched, as that of a
        subagent of the session, and their tokens count as its subagent's."""
        nested = copied_record(obj)
        if nested is None:
            return
        data = obj["data"]
        tool_id = obj.get("parentToolUseID")
        key = tool_id if isinstance(tool_id, str) else as_text(data.get("agentId"))
        sub = self.state.progress.get(key)
        if sub is None:
            agent_id = data.get("agentId")
            sub = self.state.progress[key] = {"a": agent_id if isinstance(agent_id, str) else None, "u": {}, "m": {}}
        self._copied(nested, off, sub.setdefault("t", {}))
        if nested.get("type") != "assistant":
            return
        payload = nested.get("message")
        if type(payload) is not dict:
            return
        mid = payload.get("id")
        if type(mid) is not str:
            mid = nested.get("uuid")
            if type(mid) is not str or mid in sub["m"]:
                return
        entry = sub["m"].get(mid)
        if entry is None:
            entry = sub["m"][mid] = ["", None]
            _trim(sub["m"])
        _name_model(sub["u"], entry, payload.get("model"))
        if type(payload.get("usage")) is dict:
            _count_usage(sub["u"], entry, payload["usage"])
            self.usages[mid] = (entry[0], self._sec, 0, *entry[1])

    def _copied(self, nested: dict[str, Any], off: int, names: dict[str, str]) -> None:
        """Rows of a subagent's record copied into a progress record, as of one in its own file (its tool calls'
        names in `names`, a window), counting nothing of the session's."""
        content = record_content(nested)
        if nested.get("type") == "assistant":
            for kind, i, part in assistant_parts(content, ANSWER):
                if kind == TOOL_OUTPUT:
                    self._copied_result(part, off, i, names)
                elif kind != TOOL_INPUT:
                    self._row(off, kind, i, part)
                else:
                    name = as_text(part.get("name")) or "?"
                    if type(tid := part.get("id")) is str:
                        names[tid] = name
                        _trim(names)
                    self._row(off, TOOL_INPUT, i, input_text(part.get("input"), CAPS[TOOL_INPUT]), name)
        elif nested.get("type") == "user":
            results = list(result_parts(content))
            for i, item in results:
                self._copied_result(item, off, i, names)
            if not results:
                for kind, i, text in record_texts(nested, self.path):
                    self._row(off, kind, i, text)

    def _copied_result(self, item: dict[str, Any], off: int, blk: int, names: dict[str, str]) -> None:
        """The row of a tool result in a subagent's record copied into a progress record (see `_copied`)."""
        text = result_text(item.get("content"), CAPS[TOOL_OUTPUT], self.path)
        tool = names.get(tid) if type(tid := item.get("tool_use_id")) is str else None
        self._row(off, TOOL_OUTPUT, blk, text, tool, int(item.get("is_error") is True))


def _name_model(usage: dict[str, list[int]], entry: list[Any], model: Any) -> bool:
    """Give a message that has no model yet the one a chunk of it names, as Session does (the first chunk may name
    none), its usage counted so far moving under that model; whether it did."""
    if entry[0] or type(model) is not str or not model:
        return False
    if entry[1] is not None:
        _add_counts(usage, "", entry[1], -1)
        _add_counts(usage, model, entry[1], 1)
    entry[0] = model
    return True


def _count_usage(usage: dict[str, list[int]], entry: list[Any], raw: dict[str, Any]) -> None:
    """Count a message's usage once, under its `usage.priced_as` key: a later chunk's replaces the earlier's as
    `usage.replaces` says."""
    new = usage_counts(raw)
    old = entry[1]
    if old is not None:
        if not replaces(new[1], old[1]):
            return
        _add_counts(usage, entry[0], old, -1)
    _add_counts(usage, entry[0], new, 1)
    entry[1] = new


def _add_counts(usage: dict[str, list[int]], model: str, counts: Sequence[int], sign: int) -> None:
    """Add (`sign` 1) or take away (-1) one request's usage counts."""
    total = usage.setdefault(priced_as(model, Tokens(*counts)) or "", [0] * len(counts))
    for i, value in enumerate(counts):
        total[i] += sign * value


def read_chunks(fd: int, start: int, size: int) -> Iterator[tuple[bytes, int, int]]:
    """(lines, offset, end) for the complete lines of `fd` in [start, size), a few MB at a time.

    `lines` is whole lines without the last newline; `end` is the offset after it. A last
    line with no newline is given only when it holds a JSON object (a finished file whose
    newline was lost), never while a writer may still be writing it.
    """
    pos = start
    carry: list[bytes] = []  #: the pieces of a line with no newline yet: joined once, when it ends
    while pos < size:
        chunk = os.pread(fd, min(CHUNK, size - pos), pos)
        if not chunk:
            break
        pos += len(chunk)
        cut = chunk.rfind(b"\n")
        if cut < 0:
            carry.append(chunk)
            continue
        lines = b"".join([*carry, chunk[:cut]]) if carry else chunk[:cut]
        end = pos - len(chunk) + cut + 1
        yield lines, end - 1 - len(lines), end
        carry = [chunk[cut + 1 :]] if cut + 1 < len(chunk) else []
    rest = b"".join(carry)
    if rest and finished_last_line(rest):
        yield rest, pos - len(rest), pos
