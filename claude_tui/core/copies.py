"""Records a session's file holds that are another session's: what a continued session (1.0.x `--continue`) or a
background copy (2.1.x, a session sent to the background and re-run with `--fork-session`) copied of its origin.

They are shown, as the conversation they continue, but counted in the origin only: a total over sessions counts
them once. The session model and the index's extractor follow the same rule, on the same small state (plain JSON,
so the index reads a grown file on from where it stopped).
"""

from __future__ import annotations

from typing import Any

from claude_tui.core.model import is_session_id

#: The uuids of copied records remembered, to know their children for copies too.
WINDOW = 64


def copy_state(stem: str) -> dict[str, Any]:
    """The state of a file named `stem`, before its first record: `n` its session's id when its name is one (the
    records of other sessions are copies), `u` the latest copied uuids, `p` whether its own first prompt came, `o`
    the session copied from, `bg` whether it is a background copy (`sessionKind: "bg"`)."""
    return {"n": stem if is_session_id(stem) else "", "u": [], "p": False, "o": None, "bg": False}


def is_copy(state: dict[str, Any], obj: dict[str, Any]) -> bool:
    """Whether a record of a session's file (not a subagent's) is a copy of another session's: it says it was
    forked from one (`forkedFrom`), or it names another session than the file's; or, before the file's own first
    prompt (or background record), it continues a copied record (1.0.x wrote the copied answers under the new
    session's id)."""
    own = state["n"]
    if state["p"] and "forkedFrom" not in obj and "sessionKind" not in obj and (not own or obj.get("sessionId") == own):
        return False  # the usual record once the file's own prompt came: its own session's
    if obj.get("sessionKind") == "bg":  # the background run's own record: what follows is its own too
        state["bg"] = state["p"] = True
    fork = obj.get("forkedFrom")
    origin = fork.get("sessionId") if type(fork) is dict else None
    if not (type(origin) is str and origin and origin != own):
        sid = obj.get("sessionId")
        origin = sid if own and type(sid) is str and sid and sid != own else None
    copied = origin is not None
    if not copied and not state["p"]:
        if _typed(obj):
            state["p"] = True
        else:
            copied = obj.get("parentUuid") in state["u"]
    if copied:
        state["o"] = state["o"] or origin
        uuid = obj.get("uuid")
        if type(uuid) is str:
            seen = state["u"]
            seen.append(uuid)
            del seen[:-WINDOW]
    return copied


def _typed(obj: dict[str, Any]) -> bool:
    """A prompt a person typed: a user record of text (not tool results, not Claude Code's meta or summary)."""
    if obj.get("type") != "user" or obj.get("isMeta") or obj.get("isCompactSummary"):
        return False
    message = obj.get("message")
    content = message.get("content") if type(message) is dict else None
    if type(content) is str:
        return True
    first = content[0] if type(content) is list and content else None
    return type(first) is dict and first.get("type") == "text"
