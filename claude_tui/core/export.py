"""A session as Markdown, HTML or JSON: the conversation of the branch being read.

One walk over the session (`_Walker`) decides what is shown; a writer (`_Markdown`,
`HtmlWriter`) decides how, and is the only place where session text meets the output
syntax. Everything from the session is untrusted: control characters become
visible placeholders, HTML escapes every string and renders prose through
markdown-it with raw HTML off, Markdown escapes raw HTML in prose and fences code
with more backticks than the code holds. JSON keeps the text as it is (the encoder
escapes it) for scripts.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import asdict
from typing import Any, TypeVar

import orjson

from claude_tui import __version__
from claude_tui.core.agents import AGENT_TOOLS
from claude_tui.core.content import as_text, attached, prompt_text
from claude_tui.core.diff import EDIT_TOOLS, unified
from claude_tui.core.export_html import HtmlWriter
from claude_tui.core.hooks import headline, shown
from claude_tui.core.humanize import (
    damage,
    human_cost,
    human_count,
    human_duration,
    human_facts,
    human_models,
    human_size,
    human_span,
    human_time,
    local_time,
    plural,
    prompt_counts,
    subagents_share,
    zoned,
)
from claude_tui.core.model import LOST_CALL, QUEUED, Block, Kind, Message, ToolCall
from claude_tui.core.sanitize import folded, inert_json, visible_controls, without_markup, without_sgr
from claude_tui.core.session import Session, agent_word, unstarted
from claude_tui.core.source import full_output, persisted_text
from claude_tui.core.stats import session_stats
from claude_tui.core.times import parse_time

FORMATS = ("markdown", "html", "json")
#: Lines of a tool output shown before the rest is trimmed.
OUTPUT_LINES = 40
#: Lines of a tool input (a command, a diff, JSON arguments) shown before the rest is trimmed.
INPUT_LINES = 120
#: Characters of any trimmed block shown, however few its lines.
MAX_CHARS = 8000
#: Characters of a one-line row (quiet rows, summaries in headings).
LINE_CHARS = 160
#: A command is kept as it was run (its arguments are what the user typed), up to this many characters.
COMMAND_CHARS = 4000
#: Input keys that summarise a call in its heading, by preference.
SUMMARY_KEYS = ("description", "file_path", "notebook_path", "path", "pattern", "url", "query", "skill", "command")

#: A lock, or nothing to hold: see `export_session`.
Guard = AbstractContextManager[Any]
X = TypeVar("X")
Y = TypeVar("Y")


def export_session(
    session: Session, fmt: str, summaries: dict[str, str] | None = None, lock: Guard | None = None
) -> str:
    """`session` as a Markdown, HTML or JSON document (`fmt` is one of FORMATS). `lock` (a live session's) is
    held while the session is read: for its facts, then for each message in turn, never for the whole walk."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; expected one of {', '.join(FORMATS)}")
    guard = nullcontext() if lock is None else lock
    with guard:
        facts = session_stats(session, summaries)
    if fmt == "json":
        return _json_document(session, facts, guard)
    writer: _Markdown | HtmlWriter = _Markdown() if fmt == "markdown" else HtmlWriter()
    _Walker(session, writer, guard).document(facts)
    return writer.finish()


def _each_held(lock: Guard, items: list[X], do: Callable[[X], Y]) -> list[Y]:
    """`do(item)` for each of `items`, with `lock` held for each and let go between two: a live reader (and a
    screen that draws the session) waits for one message, not for a whole export."""
    done = []
    for item in items:
        with lock:
            done.append(do(item))
    return done


# ---------------------------------------------------------------- what is shown


class _Walker:
    """Walks the visible messages of a session (and its subagents) and tells a writer what to show."""

    def __init__(self, session: Session, out: _Markdown | HtmlWriter, lock: Guard) -> None:
        self.session = session
        self.out = out
        self.lock = lock  #: held while a message (or an unlinked subagent) is read, see `export_session`
        self.day = ""  #: the date of the last time shown; a time shows its date when the day changes

    def document(self, facts: dict[str, Any]) -> None:
        session = self.session
        self.out.header(facts["title"] or "(untitled session)", _fact_rows(facts))
        with self.lock:
            shown, unlinked = session.visible(), _unlinked(session)
        _each_held(self.lock, shown, lambda m: self.message(session, m))
        if unlinked:
            self.out.divider(f"{len(unlinked)} subagent(s) not linked to a tool call", "subagent")
            _each_held(self.lock, unlinked, self.subagent)
        self.out.footer(f"Exported by claude-tui {__version__} from {session.path}")

    def messages(self, session: Session) -> None:
        for message in session.visible():
            self.message(session, message)

    def message(self, session: Session, m: Message) -> None:
        out, kind = self.out, m.kind
        if m.fork is not None:
            branch = session.branch_of(m.fork) + 1
            others = "the other is" if len(m.fork.heads) == 2 else "the others are"
            out.divider(
                f"⑂ Fork: branch {branch} of {len(m.fork.heads)} (a prompt was edited or rewound here;"
                f" {others} not in this export: the app's < and > switch branches, x exports the one shown)",
                "fork",
            )
        if kind in (Kind.PROMPT, Kind.ASSISTANT, Kind.PEER):
            title = {Kind.PROMPT: "Prompt", Kind.ASSISTANT: "Assistant"}.get(kind) or f"Message from {m.sender}"
            if m.queued:
                title += f" ({QUEUED})"
            meta = " · ".join(
                x for x in (m.model or "", m.text if kind is Kind.PEER else "", self.when(m.timestamp)) if x
            )
            out.open_box(kind.value, title, meta)
            for block in m.blocks:
                self.block(session, block, m.typed)
            if m.stop_reason == "max_tokens":
                out.note("⚠ answer cut off: the model reached its output limit", "error")
            self.notes(m.notes)
            out.close_box()
        elif kind is Kind.TOOL_RESULT:  # outputs whose call is lost
            for block in m.blocks:
                self.block(session, block, False)
        elif kind is Kind.COMPACT_BOUNDARY:
            before = f" ({human_count(m.pre_tokens)} tokens before)" if m.pre_tokens else ""
            out.divider(f"✂ {'Microcompaction' if m.micro else 'Conversation compacted'}{before}", "compact")
        elif kind is Kind.COMPACT_SUMMARY:
            out.divider("✂ Conversation continues from a summary", "compact")
            out.open_details("Compaction summary")
            out.prose(m.plain_text)
            out.close_details()
        elif kind is Kind.RECAP:
            out.open_box(kind.value, "↻ Recap (while you were away)", self.when(m.timestamp))
            out.prose(m.plain_text)
            out.close_box()
        elif kind is Kind.COMMAND:
            queued = f" ({QUEUED})" if m.queued else ""
            command = folded(without_markup(prompt_text(m, COMMAND_CHARS)), COMMAND_CHARS)
            out.note(f"▸ command: {command}{queued}", "command")
            self.notes(m.notes)
        elif kind is Kind.TASK:
            out.note(f"⚙ background {_row(' · '.join(m.plain_text.splitlines()))}", "command")
        elif kind is Kind.COMMAND_OUTPUT and "\n" in (output := without_markup(m.plain_text).strip()):
            out.note("▸ command output:", "command")  # what the next prompt may be about: kept as lines
            self.trimmed(output, OUTPUT_LINES, "output")
        elif kind is Kind.INTERRUPT:
            out.note(f"⏹ {_row(m.plain_text)}", "interrupt")
        elif kind is Kind.API_ERROR:
            out.note(f"⚠ API error: {_row(m.plain_text)}", "error")
        else:
            what = kind.value.replace("_", " ")  # command output, not command_output
            marker = "⚠ " if m.is_error else ""
            out.note(f"{marker}· {what}: {_row(m.plain_text)}", "error" if m.is_error else "quiet")

    def block(self, session: Session, block: Block, typed: bool) -> None:
        out = self.out
        if block.call is not None:
            self.call(session, block.call)
        elif block.type == "text":
            if block.text.strip():
                out.prose(block.text, literal=typed)
        elif block.type == "thinking":
            if block.text.strip():
                out.open_details("Thinking")
                out.prose(block.text)
                out.close_details()
        elif block.type == "redacted_thinking":
            out.note("(redacted thinking)", "quiet")
        elif block.type == "image":
            out.note(_image(block.media_type, block.size), "image")
        elif block.type == "document":
            out.note(f"[document: {attached(block)}]", "image")
        elif block.type == "ide":
            out.note(f"({attached(block)})", "quiet")
        else:
            out.note(f"[{block.type} block, {human_size(block.size)}]", "quiet")

    def call(self, session: Session, call: ToolCall) -> None:
        out, result = self.out, call.result
        meta = [folded(_summary(call), LINE_CHARS)]
        if call.duration is not None:
            meta.append(human_duration(call.duration) if call.duration >= 1 else f"{call.duration:.1f}s")
        meta.append({"ok": "", "error": "⚠ error", "running": "no result"}[call.status])
        out.open_box(
            "tool error" if call.status == "error" else "tool", f"🔧 {call.name}", " · ".join(m for m in meta if m)
        )
        self.call_input(call)
        for sub in call.subagents:
            self.subagent(sub)
        if result is None:
            out.note("no result recorded (interrupted, or still running)", "quiet")
        elif call.name in EDIT_TOOLS and not result.is_error:
            out.note(folded(result.text, LINE_CHARS), "quiet")
        elif result.text.strip():
            out.note("Error:" if result.is_error else "Output:", "error" if result.is_error else "label")
            whole = full_output(session.path, call)
            self.trimmed(whole, OUTPUT_LINES, "output", max(result.size, len(whole)))
        elif not result.images:
            out.note("(no output)", "quiet")
        if result is not None:
            if result.exit_meaning:
                out.note(f"Exit status: {result.exit_meaning}", "quiet")
            for media_type, size in result.images:
                out.note(_image(media_type, size), "image")
        self.notes(call.notes)
        out.close_box()

    def call_input(self, call: ToolCall) -> None:
        out, inp = self.out, call.args
        if call.name in EDIT_TOOLS:
            diff = unified(call)
            if diff:
                shown, note = _trim("\n".join(diff), INPUT_LINES)
                out.diff(shown.split("\n"))
                if note:
                    out.note(note, "trimmed")
            return
        if call.name == "Bash" and isinstance(inp.get("command"), str):
            self.trimmed(inp["command"], INPUT_LINES, "bash")
            return
        if call.name in AGENT_TOOLS and isinstance(inp.get("prompt"), str):
            if call.subagent is not None:
                return  # the subagent's transcript opens with this prompt
            out.open_details("Prompt to the subagent")
            out.prose(inp["prompt"])
            out.close_details()
            return
        if not isinstance(call.input, dict):  # not as Claude Code writes it: shown as it is
            if call.input is not None:
                self.trimmed(as_text(call.input), INPUT_LINES, "text")
            return
        key = next((k for k in SUMMARY_KEYS if isinstance(inp.get(k), str)), None)
        rest = {k: v for k, v in inp.items() if k != key}
        if rest:
            self.trimmed(_json_text(rest), INPUT_LINES, "json")

    def subagent(self, sub: Session) -> None:
        agent = sub.agent_id or ""
        count = len(sub.visible())
        meta = [f"agent {agent}" if agent else "", f"{count} message{'' if count == 1 else 's'}"]
        if sub.source != "file":
            meta.append(f"from {sub.source} records")
        if sub.is_warmup:
            meta.append("warmup")
        self.out.open_box("subagent", f"▼ {agent_word(sub).capitalize()}", " · ".join(m for m in meta if m))
        self.messages(sub)
        self.out.close_box()

    def notes(self, notes: list[Message] | None) -> None:
        """What folded into a prompt's or a call's row, as the view's full view shows it: its hook runs (each
        with its command and what it said, colours dropped) and Claude Code's notices."""
        notes = shown(notes)
        if not notes:
            return
        self.out.open_details("↪ Hooks" if any(n.hook is not None for n in notes) else "Notices")
        for note in notes:
            if note.hook is None:
                self.out.note(f"ⓘ {_row(note.text)}", "quiet")
                continue
            self.out.note(f"↪ {folded(headline(note.hook), LINE_CHARS)}", "error" if note.hook.failed else "quiet")
            output = persisted_text(self.session.path, note.hook.output)  # moved to tool-results/: read whole
            for said, lang in ((note.hook.command, "bash"), (output, "output"), (note.hook.errors, "output")):
                if said.strip():
                    self.trimmed(without_sgr(said), OUTPUT_LINES, lang)
        self.out.close_details()

    def trimmed(self, text: str, max_lines: int, lang: str, size: int | None = None) -> None:
        shown, note = _trim(text, max_lines, size)
        self.out.code(shown, lang)
        if note:
            self.out.note(note, "trimmed")

    def when(self, stamp: str | None) -> str:
        """The time of a message; with its date when the day changed since the last one shown."""
        seconds = parse_time(stamp)
        if seconds is None:
            return ""
        moment = local_time(seconds)
        day = f"{moment:%Y-%m-%d}"
        shown = f"{moment:%H:%M:%S}" if day == self.day else zoned(moment)
        self.day = day
        return shown


def _unlinked(session: Session) -> list[Session]:
    """The subagents of `session` that no tool call started (a warmup, say): shown after its messages."""
    return [s for s in session.subagents if unstarted(s)]


def _fact_rows(facts: dict[str, Any]) -> list[tuple[str, str]]:
    tokens = facts["tokens_with_subagents"]
    cost = human_cost(facts["cost_with_subagents_usd"], facts["unpriced_models"])
    share = subagents_share(facts)
    rows = [
        ("Project", (facts["project"] or "-") + (f"  ({', '.join(facts['branches'])})" if facts["branches"] else "")),
        ("Session", facts["session_id"]),
        ("Started", human_time(facts["started"])),
        ("Ended", f"{human_time(facts['ended'])}  ({human_span(facts['duration_s'], facts['active_s'])})"),
        ("Models", human_models(facts["models"], facts["subagent_models"]) or "-"),
        ("Claude Code", ", ".join(facts["versions"]) or "-"),
        (
            "Messages",
            f"{prompt_counts(facts['user_prompts'], facts['commands'])}, "
            f"{plural(facts['assistant_messages'], 'answer')}, "
            f"{plural(facts['tool_calls'], 'tool call')} ({plural(facts['tool_errors'], 'error')})"
            + (" in all branches" if facts["forks"] else ""),
        ),
        (
            "Threads",
            ", ".join(plural(facts[key], key[:-1]) for key in ("forks", "compactions", "subagents")),
        ),
        (
            "Tokens",
            f"{human_count(tokens['input'])} in, {human_count(tokens['output'])} out, "
            f"{human_count(tokens['cache_read'])} cache read, {human_count(tokens['cache_creation'])} cache write",
        ),
        ("Cost at list price", (cost or "-") + (f" ({share})" if share else "")),
    ]
    if told := human_facts(facts["session_facts"]):
        rows.append(("Facts", " · ".join(told)))
    if facts["problems"]:
        rows.append(("Damage", damage(len(facts["problems"]), facts["malformed_lines"])))
    return rows


def _summary(call: ToolCall) -> str:
    """What a call is about, in a few words: its description, file, pattern, ..."""
    if call.lost:
        return LOST_CALL
    inp = call.args
    key = next((k for k in SUMMARY_KEYS if isinstance(inp.get(k), str)), None)
    if key == "command" and call.name == "Bash":
        return ""  # the command is shown in full below
    text = inp[key] if key else ""
    if call.name in AGENT_TOOLS and isinstance(inp.get("subagent_type"), str):
        text = f"{text} ({inp['subagent_type']})"
    return text


def _trim(text: str, max_lines: int, size: int | None = None) -> tuple[str, str | None]:
    """The first `max_lines` lines (and at most MAX_CHARS) of `text`, and a note on what was cut.

    `size` is the length of the whole text, larger than `len(text)` when `text` is only its
    beginning (a preview that could not be completed from the file, which changed): the lines
    beyond the preview are unknown and counted as "N+".
    """
    partial = size is not None and size > len(text)
    body = text if partial else text.rstrip("\n")
    lines = body.split("\n")
    shown = "\n".join(lines[:max_lines])[:MAX_CHARS]
    if len(shown) == len(body) and not partial:
        return body, None
    more_bytes = len(body[len(shown) :].encode("utf-8", "replace")) + (size or len(text)) - len(text)
    more_lines = len(lines) - shown.count("\n") - 1  # lines not shown at all
    if more_lines <= 0:
        count = "the rest"
    elif partial:
        count = f"{more_lines:,}+ more lines"
    else:
        count = plural(more_lines, "more line")
    return shown, f"… {count} ({human_size(more_bytes)}) trimmed"


def _image(media_type: str, size: int) -> str:
    return f"[image: {media_type or 'image'}, {human_size(size)}]"


def _row(text: str) -> str:
    """A quiet row's text (hook output, a command and its output) on one line, without colours and injected tags."""
    return folded(without_markup(text), LINE_CHARS)


def _json_text(value: Any) -> str:
    try:
        text = orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
    except orjson.JSONEncodeError:  # integers beyond 64 bits, from records the stdlib parser recovered
        text = json.dumps(value, indent=2, ensure_ascii=False, default=str)
    return inert_json(text)


# ---------------------------------------------------------------- JSON


def _json_document(session: Session, facts: dict[str, Any], lock: Guard) -> str:
    with lock:
        shown, unlinked = session.visible(), _unlinked(session)
    document = {
        "format": "claude-tui-export",
        "version": 1,
        "exported_by": f"claude-tui {__version__}",
        "session": facts,
        "messages": _each_held(lock, shown, lambda m: _json_message(session, m)),
        "unlinked_subagents": _each_held(lock, unlinked, _json_agent),
    }
    return _json_text(document) + "\n"


#: Block types a JSON message gives fields of their own (with tool calls); any other (redacted thinking,
#: unknown types) is kept as it was.
_SHOWN_BLOCKS = frozenset({"text", "thinking", "image", "document", "ide"})


def _json_message(session: Session, m: Message) -> dict[str, Any]:
    return {
        "index": m.index,
        "kind": m.kind.value,
        "uuid": m.uuid,
        "parent": m.parent,
        "timestamp": m.timestamp,
        "model": m.model,
        "text": m.plain_text,
        "thinking": [b.text for b in m.blocks if b.type == "thinking"],
        "images": [{"media_type": b.media_type, "size": b.size} for b in m.blocks if b.type == "image"],
        "documents": [
            {"title": b.title, "media_type": b.media_type, "size": b.size, "text": b.text}
            for b in m.blocks
            if b.type == "document"
        ],
        "ide_context": [{"note": b.title, "text": b.text} for b in m.blocks if b.type == "ide"],
        "other_blocks": [_json_other(b) for b in m.blocks if b.call is None and b.type not in _SHOWN_BLOCKS],
        "tool_calls": [_json_call(session, c) for c in m.tool_calls],
        "fork": None if m.fork is None else {"branch": session.branch_of(m.fork) + 1, "of": len(m.fork.heads)},
        "stop_reason": m.stop_reason,
        "tokens": None if m.tokens is None else m.tokens.as_dict(),
        "is_error": m.is_error or m.kind is Kind.API_ERROR,
        "pre_tokens": m.pre_tokens,
        "micro": m.micro,
        "queued": m.queued,
        "sender": m.sender,
        "hook": None if m.hook is None else asdict(m.hook),  #: a hook's own row (it failed)
        "notes": _json_notes(m.notes),
    }


def _json_notes(notes: list[Message] | None) -> list[dict[str, Any]]:
    """The records folded into a row: {"hook": its run} or {"notice": its words}."""
    return [{"hook": asdict(n.hook)} if n.hook is not None else {"notice": n.text} for n in notes or ()]


def _json_other(block: Block) -> dict[str, Any]:
    """A block of a type the export has no field for: its JSON as the model keeps it (a preview of `size` bytes)."""
    return {"type": block.type, "json": block.text, "size": block.size, "truncated": len(block.text) < block.size}


def _json_call(session: Session, call: ToolCall) -> dict[str, Any]:
    return {
        "id": call.id,
        "name": call.name,
        "input": call.input,
        "status": "no_result" if call.status == "running" else call.status,  # as of the export, as Markdown says
        "is_error": call.status == "error",
        "duration_s": call.duration,
        "lost": call.lost,  #: its record is not in the file: only the result is known
        "result": _json_result(session, call),
        "diff": "\n".join(unified(call)) if call.name in EDIT_TOOLS else None,
        "subagent": None if call.subagent is None else _json_agent(call.subagent),
        "workflow_agents": [_json_agent(sub) for sub in call.run or ()],
        "notes": _json_notes(call.notes),
        "progress": call.progress or None,  #: what its latest progress record said, while it ran
    }


def _json_result(session: Session, call: ToolCall) -> dict[str, Any] | None:
    """A call's result with its whole output (read back from the file when the model kept a preview)."""
    result = call.result
    if result is None:
        return None
    text = full_output(session.path, call)
    return {
        "text": text,
        "size": result.size,
        "truncated": len(text) < result.size,  #: the file changed since it was read: only the preview
        "is_error": result.is_error,
        "timestamp": result.timestamp,
        "images": [{"media_type": t, "size": s} for t, s in result.images],
    }


def _json_agent(sub: Session) -> dict[str, Any]:
    return {
        "agent_id": sub.agent_id,
        "source": sub.source,
        "path": sub.path,
        "messages": [_json_message(sub, m) for m in sub.visible()],
    }


# ---------------------------------------------------------------- Markdown

#: A fence opener (a backtick fence's info string holds no backtick), at any indentation: one indented
#: four spaces or more is nested in a list item. The block is written back at the margin, de-indented.
_FENCE_OPEN = re.compile(r"( *)(`{3,}|~{3,})(.*)")
_FENCE_CLOSE = re.compile(r"( *)(`{3,}|~{3,})[ \t]*")
_INFO = re.compile(r"[\w+#.-]*")
#: An ATX heading's opening sequence: demoted by two in messages, below the document's own headings.
_HEADING = re.compile(r"^( {0,3})(#{1,6})(?=[ \t]|$)")
#: What needs care in a line of prose: a backslash escape, a backtick run, `<` that may start a tag or an
#: autolink (one before a space or the line's end never does: `a < b` is text as it is), `&` starting an entity.
_INLINE = re.compile(r"\\[!-/:-@\[-`{-~]|`+|<(?=\S)|&(?=#\d{1,7};|#[xX][\da-fA-F]{1,6};|[A-Za-z][A-Za-z\d]{1,31};)")
_BACKTICKS = re.compile(r"`+")
#: A `<` that may start a tag or an autolink, as in _INLINE.
_TAG_START = re.compile(r"<(?=\S)")
#: What Markdown could read as syntax in a line shown as written: inline characters anywhere, and block
#: markers at the start (a heading, quote, list item, setext underline, ordered list item's `1.`).
_LITERAL = re.compile(r"[\\`*_\[\]<&~|]|^[#>+=-]|^\d{1,9}[.)]")


def _fence(text: str, info: str = "") -> str:
    """`text` as a fenced code block whose fence is longer than any backtick run inside it."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}" if text else f"{fence}{info}\n{fence}"


def _info(info: str) -> str:
    """A fence's info string as written (`python title="a.py"`); a tilde fence's may hold a backtick,
    which would end the backtick fence it is written back with: then only its language is kept."""
    info = info.strip()
    return _INFO.match(info).group() if "`" in info else info  # type: ignore[union-attr]


def _md_prose(text: str, literal: bool = False) -> str:
    """Markdown prose from the session, made inert: raw HTML and entities escaped outside code,
    code blocks re-fenced so that no content can close them, an unclosed block closed, headings
    demoted by two levels (a message is a level-two heading of the document).

    `literal` text (a prompt a person typed) is shown as written outside its code blocks: every line
    kept (a hard break ends each but the last of a paragraph), indentation kept, nothing read as syntax.
    """
    out: list[str] = []
    code: list[str] = []
    fence, info, indent = "", "", 0
    in_paragraph = False  #: literal: the last line out is prose, continued by a next one
    for line in text.split("\n"):
        if not fence:
            opener = _FENCE_OPEN.fullmatch(line)
            if opener and not (opener[2][0] == "`" and "`" in opener[3]):
                fence, info, code = opener[2], _info(opener[3]), []
                indent = len(opener[1])
            elif not literal:
                out.append(_md_inline(_HEADING.sub(lambda m: m[1] + "#" * min(6, len(m[2]) + 2), line, count=1)))
            elif line.strip():
                if in_paragraph:
                    out[-1] += "\\"  # a hard line break
                body = line.lstrip()
                margin = line[: len(line) - len(body)].expandtabs(4).replace(" ", "\u00a0")  # not read as indent
                out.append(margin + _LITERAL.sub(lambda m: m.group()[:-1] + "\\" + m.group()[-1], body))
            else:
                out.append("")
            in_paragraph = literal and not fence and bool(line.strip())
            continue
        closer = _FENCE_CLOSE.fullmatch(line)
        if closer and closer[2][0] == fence[0] and len(closer[2]) >= len(fence) and len(closer[1]) < indent + 4:
            out.append(_fence("\n".join(code), info))
            fence = ""
        else:
            code.append(line[min(indent, len(line) - len(line.lstrip(" "))) :])
    if fence:
        out.append(_fence("\n".join(code), info))
    return "\n".join(out)


def _md_inline(line: str) -> str:
    """One line of prose with markup (`<b>`, `&amp;`) escaped outside code spans by a backslash: the
    Markdown reads as the text it shows (`\\<b>`, not `&lt;b>`; `a < b` as it is).

    A backtick run with no closing run on the same line is escaped, so that every line
    is balanced on its own and a renderer pairs code spans exactly as done here. A GFM
    table row splits cells before it finds code spans: when a code span holds a `|`, the
    split may leave what was in a span outside one, so a `<` that may start a tag is
    escaped in every code span of that line too (as `&lt;`: no backslash escape works in code).
    """
    out: list[str] = []
    spans: list[int] = []  #: indexes in `out` of code spans
    pos = 0
    while (match := _INLINE.search(line, pos)) is not None:
        out.append(line[pos : match.start()])
        token = match.group()
        pos = match.end()
        if token[0] == "`":
            closer = next((r for r in _BACKTICKS.finditer(line, pos) if len(r.group()) == len(token)), None)
            if closer is None:
                out.append("\\`" * len(token))
                continue
            spans.append(len(out))
            out.append(line[match.start() : closer.end()])
            pos = closer.end()
        elif token in "<&":
            out.append("\\" + token)
        else:
            out.append(token)
    out.append(line[pos:])
    if any("|" in out[i] for i in spans):
        for i in spans:
            out[i] = _TAG_START.sub("&lt;", out[i])
    return "".join(out)


def _md_line(text: str) -> str:
    """Session text on one line of Markdown (a title, a fact, a note): folded, then made inert."""
    return _md_inline(folded(visible_controls(text), 1000))


class _Markdown:
    """Writes GitHub-flavoured Markdown; subagents are nested in block quotes."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0  #: block-quote depth
        self.boxes: list[str] = []

    def _block(self, text: str) -> None:
        prefix = "> " * self.depth
        self.lines += [prefix + line if line else prefix.rstrip() for line in text.split("\n")]
        self.lines.append(prefix.rstrip())

    def header(self, title: str, rows: list[tuple[str, str]]) -> None:
        self._block(f"# {_md_line(title)}")
        self._block("\n".join(f"- **{name}:** {_md_line(value)}" for name, value in rows))

    def footer(self, text: str) -> None:
        self._block(f"---\n\n*{_md_line(text)}*")

    def open_box(self, kind: str, title: str, meta: str) -> None:
        line = _md_line(title) + (f" · {_md_line(meta)}" if meta else "")
        self._block(f"**{line}**" if kind.startswith(("tool", "subagent")) else f"## {line}")
        self.boxes.append(kind)
        if kind == "subagent":
            self.depth += 1

    def close_box(self) -> None:
        if self.boxes.pop() == "subagent":
            self.depth -= 1

    def prose(self, text: str, literal: bool = False) -> None:
        self._block(_md_prose(visible_controls(text), literal))

    def code(self, text: str, lang: str) -> None:
        self._block(_fence(visible_controls(text), "text" if lang == "output" else lang))

    def diff(self, lines: list[str]) -> None:
        self.code("\n".join(lines), "diff")

    def note(self, text: str, css: str) -> None:
        line = _md_line(text)
        self._block(f"**{line}**" if css == "error" else f"*{line}*")

    def divider(self, text: str, css: str) -> None:
        self._block(f"---\n\n**{_md_line(text)}**\n\n---")

    def open_details(self, summary: str) -> None:
        self._block(f"<details>\n<summary>{html.escape(folded(visible_controls(summary), 1000))}</summary>")

    def close_details(self) -> None:
        self._block("</details>")

    def finish(self) -> str:
        return "\n".join(self.lines).rstrip("\n") + "\n"


# ---------------------------------------------------------------- HTML
