"""Every shape Claude Code writes, and what claude-tui does with it, in one table.

A record type, a system record's subtype, an attachment's type, a content block's type and a progress
record's `data.type` each have an entry here naming their treatment. The session model reads the record
types' treatments; a test walks the real corpus and fails on any shape this table does not declare, so a
new shape in a new real file is one entry here and its handling where the entry says.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from claude_tui.core.attachments import TREATMENTS


class Treatment(StrEnum):
    """What a record type is to a reader."""

    MESSAGE = "message"  #: a message or a row of the conversation, by its own handler (handlers.HANDLERS)
    TITLE = "title"  #: names the session (session.pick_title)
    FACT = "fact"  #: a fact about the session (`fact_of`): shown in the header's facts and in `stats`
    HOOK_CONTEXT = "hook context"  #: a hook's saved context: one row; its re-saves only link the thread
    QUIET = "quiet"  #: Claude Code's bookkeeping: read, not shown


#: Record types: their treatment, and what they hold (their real fields).
RECORD_TYPES: dict[str, tuple[Treatment, str]] = {
    "user": (Treatment.MESSAGE, "a prompt, a command, tool results, a task notification, a peer's message"),
    "assistant": (Treatment.MESSAGE, "one streamed chunk of an answer (grouped by message.id)"),
    "system": (Treatment.MESSAGE, "a row by its subtype (SYSTEM_SUBTYPES)"),
    "progress": (Treatment.MESSAGE, "a row by its data.type (PROGRESS_TYPES); agent_progress copies a subagent"),
    "attachment": (Treatment.MESSAGE, "a row by its attachment.type (ATTACHMENT_TYPES)"),
    "summary": (Treatment.TITLE, "summary, leafUuid: a title for the session holding that leaf"),
    "custom-title": (Treatment.TITLE, "customTitle: the name the user gave"),
    "ai-title": (Treatment.TITLE, "aiTitle: the name Claude Code gave"),
    "agent-name": (Treatment.FACT, "agentName: the session's name (its title where no custom title exists)"),
    "agent-color": (Treatment.FACT, "agentColor: the colour `/color` set"),
    "agent-setting": (Treatment.FACT, "agentSetting: the agent a `claude --agent` session runs as"),
    "mode": (Treatment.FACT, "mode: the session's mode (normal, ...)"),
    "permission-mode": (Treatment.FACT, "permissionMode: default, acceptEdits, auto, plan, bypassPermissions"),
    "pr-link": (Treatment.FACT, "prNumber, prUrl, prRepository: a pull request the session opened"),
    "teleported-from": (Treatment.FACT, "remoteSessionId, branch, messageCount: the web session it came from"),
    "worktree-state": (Treatment.FACT, "worktreeSession (worktreePath, ...; null on leaving): its git worktree"),
    "relocated": (Treatment.FACT, "relocatedCwd: where the session's folder moved"),
    "fork-context-ref": (Treatment.FACT, "parentSessionId, parentLastUuid, contextLength: a fork's inherited history"),
    "frame-link": (Treatment.FACT, "title, frameUrl, path: an artifact the session published"),
    "saved_hook_context": (Treatment.HOOK_CONTEXT, "hookName, content: a SessionStart hook's context, re-saved"),
    "file-history-snapshot": (Treatment.QUIET, "the files' backups before a prompt's edits"),
    "file-history-delta": (Treatment.QUIET, "one file's backup (trackingPath, backup)"),
    "queue-operation": (Treatment.QUIET, "enqueue, dequeue, remove, popAll: prompts typed while Claude worked"),
    "last-prompt": (Treatment.QUIET, "lastPrompt, leafUuid: where `--resume` starts"),
    "atis-latch": (Treatment.QUIET, "atis"),
    "bridge-session": (Treatment.QUIET, "bridgeSessionId, lastSequenceNum: a Remote Control connection"),
    "started": (Treatment.QUIET, "a workflow journal's agent started (key, agentId)"),
    "result": (Treatment.QUIET, "a workflow journal's agent result (key, agentId, result)"),
}

#: System record subtypes (None: a record with none, 1.0.x) and how each is shown.
SYSTEM_SUBTYPES: dict[str | None, str] = {
    None: "a row by its level: a warning, an error, else dim",
    "compact_boundary": "a compaction's rule",
    "microcompact_boundary": "a microcompaction's rule",
    "turn_duration": "a dim row, counted in `stats` turns",
    "api_error": "an API error row",
    "stop_hook_summary": "folded into its prompt's hooks; a warning row when it reports errors no hook record does",
    "local_command": "a command ($ /model) or what it printed",
    "away_summary": "Claude's recap",
    "bridge_status": "a dim row (Remote Control's link)",
    "informational": "a row by its level",
}

#: Attachment types and their treatments: the table is attachments.TREATMENTS, where each is carried out.
ATTACHMENT_TYPES: dict[str, str] = TREATMENTS

#: Content block types, by where they are found, and how each is shown.
BLOCK_TYPES: dict[str, dict[str, str]] = {
    "user": {
        "text": "the prompt's text; an IDE's context (ide_opened_file, ide_selection): a row of its note",
        "tool_result": "a call's result, shown in the call",
        "image": "an image's placeholder (type and size)",
        "document": "an attached file: a row of its name, type and size; its text (as written) in its detail",
    },
    "assistant": {
        "text": "the answer's text",
        "thinking": "a thinking block",
        "redacted_thinking": "a thinking block with no text",
        "tool_use": "a tool call",
        "server_tool_use": "a call the API's server ran (a proxy's web reader): a tool call, counted and searched",
        "tool_result": "a server call's result, in the same answer: shown in its call",
    },
    "tool_result": {
        "text": "the output",
        "image": "an image's placeholder",
        "tool_reference": "a tool's name",
    },
}

#: Progress records' data.type and how each is shown.
PROGRESS_TYPES: dict[str, str] = {
    "hook_progress": "a hook run, folded into its call's or prompt's hooks (hooks.py)",
    "agent_progress": "a subagent's record, copied: the subagent's transcript",
    "bash_progress": "folded into its running call: its latest output, nothing once the result is there",
}

#: Record types whose records are not rows of the conversation: read by `handlers.on_metadata`.
METADATA_TYPES = frozenset(
    t for t, (how, _) in RECORD_TYPES.items() if how in (Treatment.TITLE, Treatment.FACT, Treatment.QUIET)
)


def fact_of(rtype: str, obj: dict[str, Any]) -> tuple[str, Any] | None:
    """The session fact a FACT record states, as (name, value): a value is text, or a small dict of text for
    the kinds that come many to a session (PRs, artifacts); None when the record says nothing readable."""
    if rtype in _TEXT_FACTS:
        name, key = _TEXT_FACTS[rtype]
        value = obj.get(key)
        return (name, value) if isinstance(value, str) and value else None
    if rtype == "worktree-state":
        state = obj.get("worktreeSession")
        path = state.get("worktreePath") if isinstance(state, dict) else None
        return "worktree", path if isinstance(path, str) and path else None
    fields = _DICT_FACTS.get(rtype)
    if fields is None:
        return None
    name, keys = fields
    value = {short: _text(obj.get(key)) for short, key in keys.items()}
    return (name, value) if any(value.values()) else None


#: Facts of one text field: record type -> (fact name, field).
_TEXT_FACTS = {
    "agent-name": ("agent_name", "agentName"),
    "agent-color": ("agent_color", "agentColor"),
    "agent-setting": ("agent_setting", "agentSetting"),
    "mode": ("mode", "mode"),
    "permission-mode": ("permission_mode", "permissionMode"),
    "relocated": ("relocated_to", "relocatedCwd"),
}
#: Facts of a few fields: record type -> (fact name, its keys -> the record's fields).
_DICT_FACTS = {
    "pr-link": ("pr_links", {"number": "prNumber", "url": "prUrl", "repository": "prRepository"}),
    "teleported-from": ("teleported_from", {"session": "remoteSessionId", "branch": "branch"}),
    "fork-context-ref": (
        "forked_from",
        {"session": "parentSessionId", "uuid": "parentLastUuid", "messages": "contextLength"},
    ),
    "frame-link": ("artifacts", {"title": "title", "url": "frameUrl"}),
}
#: The facts that come many to a session: each distinct value is kept, in order.
LIST_FACTS = frozenset({"pr_links", "artifacts"})


def _text(value: Any) -> str:
    """A fact's field as text: a string or a number as written, anything else as nothing."""
    if isinstance(value, bool):
        return ""
    return str(value) if isinstance(value, str | int) else ""


def add_fact(facts: dict[str, Any], name: str, value: Any) -> None:
    """Note a fact: a list fact gains the value (once), any other takes it (the last one said holds)."""
    if name not in LIST_FACTS:
        facts[name] = value  # None too: a worktree left
    elif value not in (known := facts.setdefault(name, [])):
        known.append(value)


def merged_facts(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The facts of two stretches of one file, the later one's last word holding."""
    out = {name: list(value) if name in LIST_FACTS else value for name, value in before.items()}
    for name, value in after.items():
        if name in LIST_FACTS:
            for item in value:
                add_fact(out, name, item)
        else:
            out[name] = value
    return out
