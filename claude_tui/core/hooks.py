"""Hook runs and progress records, and the row each one folds into.

Claude Code 2.1 writes a record for every hook it runs (attachments `hook_success`, `hook_non_blocking_error`, ...,
progress `hook_progress`, system `stop_hook_summary`), several per tool call, and a `progress` record a second
while a long command runs. As rows of their own they bury the conversation, so each folds into the row it
belongs to, as a mark there, its details in that row's full view:

- a tool's hook (it names the call by `toolUseID`) into that call;
- any other (UserPromptSubmit, Stop, SessionStart, ...) into the prompt of its turn: the latest prompt, or the
  next one for those written before the first (SessionStart);
- progress into its running call (`parentToolUseID`), whose row shows what it said last;
- a hook that failed or blocked stays a row of its own (Kind.WARNING).

A record whose call or prompt has not come yet waits for it (shown as a row until then): a file read in
pieces folds as the file read whole does.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import orjson

from claude_tui.core.model import Hook, Kind, Message, ToolCall

#: Attachment types that tell a hook's run.
HOOK_ATTACHMENTS = frozenset(
    {
        "hook_success",
        "hook_non_blocking_error",
        "hook_blocking_error",
        "hook_cancelled",
        "hook_error_during_execution",
        "hook_stopped_continuation",
        "hook_permission_decision",
        "hook_additional_context",
        "hook_system_message",
        "async_hook_response",
    }
)
#: Those that say a hook failed, or stopped what it ran for.
_FAILED = frozenset(
    {
        "hook_non_blocking_error",
        "hook_blocking_error",
        "hook_cancelled",
        "hook_error_during_execution",
        "hook_stopped_continuation",
    }
)
#: Those that say what a hook passed on (to the model, to the user), or answered later (its start was told): no
#: run of their own.
_PASSED_ON = frozenset(
    {"hook_additional_context", "hook_system_message", "hook_permission_decision", "async_hook_response"}
)
#: What a hook passed on that Claude Code writes again after the run that printed it: its context, its message.
_RETOLD = frozenset({"hook_additional_context", "hook_system_message"})
#: Hook events that run for one tool call.
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"})
#: Characters of a hook's output or errors kept (the raw record has all of it).
TEXT_CHARS = 4_000
#: Lines of a command's output that its latest progress record keeps.
PROGRESS_LINES = 8

#: A row that records fold into: a tool call's, or a prompt's.
Host = ToolCall | Message


def capped(value: Any) -> str:
    """A field as capped text: a string, a list of strings (a hook's context) one per line, else its JSON. Text cut
    says so at its end, and how much more the record holds."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = "\n".join(value)
    if isinstance(value, str):
        if len(value) <= TEXT_CHARS:
            return value
        return f"{value[:TEXT_CHARS]}…\n({len(value) - TEXT_CHARS:,} more characters in the session file)"
    if value is None or isinstance(value, bool):
        return ""
    try:
        return orjson.dumps(value, default=str).decode("utf-8", "replace")[:TEXT_CHARS]
    except orjson.JSONEncodeError:  # nested deeper than orjson writes
        return "(nested too deep to show)"


#: The fields of the JSON a hook may print for Claude Code to read, as a person reads them (hookSpecificOutput's
#: first): what each is called.
_JSON_FIELDS = (
    ("additionalContext", "context for Claude"),
    ("permissionDecision", "permission"),
    ("permissionDecisionReason", "why"),
    ("decision", "decision"),
    ("reason", "why"),
    ("stopReason", "stopped"),
    ("systemMessage", "message"),
)


def told(stdout: Any) -> Any:
    """A hook's stdout as a person reads it: the JSON object Claude Code reads from a hook (hookSpecificOutput's
    additionalContext, a decision and its reason, a systemMessage, ...) as those fields' text, one after another
    ("context for Claude: ..."), of each object when it printed one a line (an async hook's: `{"async": true}`
    first); any other stdout as it is."""
    if not isinstance(stdout, str) or not stdout.lstrip().startswith("{") or len(stdout) > 1 << 20:
        return stdout
    parts = []
    for value in _json_objects(stdout):
        specific = value.get("hookSpecificOutput")
        for fields in (specific if isinstance(specific, dict) else {}, value):
            said = ((label, fields.get(key)) for key, label in _JSON_FIELDS)
            parts += [f"{label}: {text}" for label, text in said if isinstance(text, str) and text.strip()]
    return "\n".join(dict.fromkeys(parts)) if parts else stdout  # a systemMessage may repeat the context


def _json_objects(text: str) -> list[dict[str, Any]]:
    """The JSON object `text` is, or the one on each of its lines; none when it is anything else."""
    for pieces in ([text], text.splitlines()):
        try:
            values = [orjson.loads(piece) for piece in pieces if piece.strip()]
        except orjson.JSONDecodeError:
            continue
        return values if all(isinstance(v, dict) for v in values) else []
    return []


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def attachment_hook(attachment: dict[str, Any]) -> Hook:
    """The hook run an attachment of one of HOOK_ATTACHMENTS tells."""
    what = _str(attachment.get("type"))
    event = _str(attachment.get("hookEvent"))
    exit_code = _int(attachment.get("exitCode"))
    blocking = attachment.get("blockingError")
    errors = capped(attachment.get("stderr"))
    command = capped(attachment.get("command"))
    if isinstance(blocking, dict):  # {"blockingError": "[cmd]: why", "command": "cmd"}
        errors, command = capped(blocking.get("blockingError")), command or capped(blocking.get("command"))
    elif blocking is not None:
        errors = capped(blocking)
    output = capped(told(attachment.get("stdout")))
    said = attachment.get("content") or attachment.get("message")
    if not said and not output.strip():  # an async hook's answer says what its stdout did: one of them
        said = attachment.get("response")
    said = capped(said)
    if said.strip() and said.strip() != output.strip():
        output = f"{output.rstrip()}\n{said}".strip() if output.strip() else said
    denied = what == "hook_permission_decision" and attachment.get("decision") == "deny"
    if denied:
        errors = errors or "denied the tool's use"
    blocked = denied or what in ("hook_blocking_error", "hook_stopped_continuation")
    return Hook(
        what,
        event,
        _str(attachment.get("hookName")) or event or what,
        attachment.get("toolUseID") if isinstance(attachment.get("toolUseID"), str) else None,
        command,
        exit_code,
        _int(attachment.get("durationMs")),
        output,
        errors,
        blocked or what in _FAILED or exit_code not in (None, 0),
        blocked,
        0 if what in _PASSED_ON else 1,
    )


def progress_hook(obj: dict[str, Any], data: dict[str, Any]) -> Hook:
    """The hook run a `hook_progress` record says has started."""
    event = _str(data.get("hookEvent"))
    run = obj.get("toolUseID")
    return Hook(
        "hook_progress",
        event,
        _str(data.get("hookName")) or event or "hook",
        run if isinstance(run, str) else None,
        capped(data.get("command")),
    )


def summary_hook(obj: dict[str, Any]) -> Hook:
    """The Stop hooks a `stop_hook_summary` system record sums up: their commands, time and errors. It failed
    when it stopped Claude from going on; its errors alone were told by their own records (see `Folds`)."""
    infos = (
        [i for i in obj.get("hookInfos") or [] if isinstance(i, dict)] if isinstance(obj.get("hookInfos"), list) else []
    )
    commands = "\n".join(c for c in (capped(i.get("command")) for i in infos) if c)
    durations = [d for d in (_int(i.get("durationMs")) for i in infos) if d is not None]
    errors = obj.get("hookErrors")
    count = _int(obj.get("hookCount"))
    run = obj.get("toolUseID")
    stopped = obj.get("preventedContinuation") is True
    return Hook(
        "stop_hook_summary",
        "Stop",
        "Stop",
        run if isinstance(run, str) else None,
        commands[:TEXT_CHARS],
        None,
        sum(durations) if durations else None,
        capped(obj.get("stopReason")) if stopped else "",
        capped(errors) if isinstance(errors, list) else "",
        stopped,
        stopped,
        count if count is not None else max(1, len(infos)),
    )


def row_text(hook: Hook) -> str:
    """The one line of a hook's own row: what it is, and for one that failed, how and why."""
    if not hook.failed:
        said = next((line for line in (hook.output or hook.command).splitlines() if line.strip()), "")
        return f"{hook.name}  {said}".strip()
    if hook.blocked:
        how = "stopped Claude" if hook.what == "stop_hook_summary" else "blocked"
    elif hook.what == "hook_cancelled":
        how = "was cancelled"
    else:
        how = "failed" + (f" (exit {hook.exit_code})" if hook.exit_code not in (None, 0) else "")
    why = next((line for line in (hook.errors or hook.output).splitlines() if line.strip()), "")
    return f"{hook.name} hook {how}" + (f": {why}" if why else "")


#: What a record of each shape says beyond a hook's name (a hook's result says only how it ended).
_SAYS = {
    "hook_additional_context": "context for Claude",
    "hook_system_message": "message",
    "hook_permission_decision": "permission decision",
    "async_hook_response": "answered later",
    "hook_progress": "started",
    "hook_cancelled": "cancelled",
    "stop_hook_summary": "summary",
}


def headline(hook: Hook) -> str:
    """A hook's run in a few words: its name, what its record says, how it ended and how long it took
    ("PostToolUse:Bash · exit 0 · 92 ms")."""
    parts = [hook.name, _SAYS.get(hook.what, "")]
    if hook.what == "stop_hook_summary":
        parts[1] = f"{hook.count} hook{'' if hook.count == 1 else 's'}" + (" · stopped Claude" if hook.blocked else "")
    if hook.exit_code is not None:
        parts.append(f"exit {hook.exit_code}")
    elif hook.blocked and hook.what != "stop_hook_summary":
        parts.append("blocked")
    if hook.duration_ms is not None:
        parts.append(f"{hook.duration_ms:,} ms")
    return " · ".join(p for p in parts if p)


def runs(notes: list[Message]) -> int:
    """How many hooks ran among records folded into a row: one per run told, a summary's count beyond the runs of
    its event told on their own, a `hook_progress` unless its run's result is there too; nothing for what a hook
    passed on."""
    told = [m.hook for m in notes if m.hook is not None]
    results = {(h.run, h.name) for h in told if h.what != "hook_progress" and h.what != "stop_hook_summary"}
    by_run: dict[str | None, int] = {}
    for hook in told:
        if hook.what not in ("hook_progress", "stop_hook_summary") or (
            hook.what == "hook_progress" and (hook.run, hook.name) not in results
        ):
            by_run[hook.run] = by_run.get(hook.run, 0) + hook.count
    for hook in told:
        if hook.what == "stop_hook_summary":
            by_run[hook.run] = max(by_run.get(hook.run, 0), hook.count)
    return sum(by_run.values())


def shown(notes: list[Message] | None) -> list[Message]:
    """The records folded into a row that its full view shows: all but those another record of their run tells
    better: a `hook_progress` (it started) beside its result or its summary, a summary of Stop hooks beside the
    results of its run, what a hook passed on (its context, its message) that a hook's run says already."""
    if not notes:
        return []
    told = [n.hook for n in notes if n.hook is not None]
    results = {(h.run, h.name) for h in told if h.what not in ("hook_progress", "stop_hook_summary")}
    summed = {h.run for h in told if h.what == "stop_hook_summary"}
    ran = {run for run, _ in results}
    said = [h.output for h in told if h.what not in _RETOLD and h.output.strip()]
    return [
        n
        for n in notes
        if (hook := n.hook) is None
        or (hook.what == "hook_progress" and (hook.run, hook.name) not in results and hook.run not in summed)
        or (hook.what == "stop_hook_summary" and hook.run not in ran)
        or (hook.what in _RETOLD and not any(hook.output.strip()[:1_000] in output for output in said))
        or hook.what not in ("hook_progress", "stop_hook_summary", *_RETOLD)
    ]


def progress_text(data: dict[str, Any]) -> str:
    """What a progress record says of its call: a command's latest output (its last lines), an MCP tool's
    status, a search's query, a task waited for; "" when nothing (an agent's progress: its turns are nested)."""
    output = data.get("output")
    if isinstance(output, str):
        lines = [line for line in output[-TEXT_CHARS:].splitlines() if line.strip()]
        return "\n".join(lines[-PROGRESS_LINES:])
    for key in ("status", "query", "taskDescription", "message"):
        if isinstance(data.get(key), str):
            return data[key][:200]
    return ""


class Folds:
    """Which row each hook, progress or notice record folds into, as records arrive (see the module's doc)."""

    def __init__(self, calls: dict[str, ToolCall]) -> None:
        self.calls = calls
        self.prompt: Message | None = None  #: the latest prompt or command: hosts the hooks that name no call
        self.early: list[Message] = []  #: hooks before the first prompt, for it
        self.waiting: dict[str, list[tuple[Message, str]]] = {}  #: call id -> records (and progress) for it
        self.failed_runs: Counter[str] = Counter()  #: runs, by id, and how many of their hooks failed (each a row)

    def hook(self, message: Message) -> Host | None:
        """Fold a hook's record (its `hook` set) into its row; the host, or None when it stays a row (it failed)
        or waits for its host."""
        hook = message.hook
        assert hook is not None
        summary = hook.what == "stop_hook_summary"
        if summary and hook.run is not None and hook.run in self.failed_runs:  # its failed hooks have their rows
            hook.count = max(0, hook.count - self.failed_runs[hook.run])
        elif summary and hook.errors:
            hook.failed = True  # its errors have no record of their own to tell them
        if hook.failed:
            if hook.run is not None:
                self.failed_runs[hook.run] += 1
            message.kind = Kind.WARNING
            message.is_error = True
            return None
        call = self.calls.get(hook.run) if hook.run is not None else None
        if call is not None and not call.lost:
            return fold(message, call)
        if hook.run is not None and (hook.event in TOOL_EVENTS or not hook.event):
            self.waiting.setdefault(hook.run, []).append((message, ""))
            return None
        if self.prompt is None:
            self.early.append(message)
            return None
        return fold(message, self.prompt)

    def on_call(self, message: Message, call_id: Any, said: str = "") -> Host | None:
        """Fold a record about one call (progress, a notice) into that call's row: the host, or None when it waits
        for the call (`said`: what a progress record says, shown while the call runs)."""
        if not isinstance(call_id, str):
            return None
        call = self.calls.get(call_id)
        if call is None or call.lost:
            self.waiting.setdefault(call_id, []).append((message, said))
            return None
        return fold(message, call, said)

    def call_came(self, call: ToolCall) -> list[Message]:
        """The records that waited for `call`, now folded into it."""
        if not self.waiting:
            return []
        waited = self.waiting.pop(call.id, [])
        for message, said in waited:
            fold(message, call, said)
        return [message for message, _ in waited]

    def prompt_came(self, prompt: Message) -> list[Message]:
        """A prompt: the host of the hooks that follow; those written before the first, now folded into it."""
        self.prompt = prompt
        early, self.early = self.early, []
        for message in early:
            fold(message, prompt)
        return early


def fold(message: Message, host: Host, said: str = "") -> Host:
    """Fold `message` into `host`'s row: a progress record as what its call said last (`said`), any other
    among the host's notes."""
    message.folded = True
    if message.kind is Kind.PROGRESS:
        if said and isinstance(host, ToolCall) and host.result is None:
            host.progress = said
        return host
    if host.notes is None:
        host.notes = []
    host.notes.append(message)
    return host
