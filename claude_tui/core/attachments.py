"""What each type of `attachment` record becomes in the conversation: the treatments, in one table.

Claude Code 2.1 writes an attachment record for each thing it adds to a turn: what the user did around a prompt
(a file opened or lines selected in the IDE, a file named with @), a change of mode or date, hook runs, and a
lot of its own bookkeeping (the tools, skills and agents on offer, reminders). Each type has one treatment:

- HOOK: a hook run (hooks.py): folded into its call's or prompt's row; one that failed, a row of its own;
- CALL: a notice about one call (a Read cut short, a structured output): folded into that call's row;
- ROW: what a person wants to see: a short row that says it (`row_text`);
- PROMPT: a prompt typed while Claude worked (`queued_command`: session.queued_message);
- AWAY: Claude Code's bookkeeping: folded away, no row.

A type not in the table is a quiet row that names it.
"""

from __future__ import annotations

from typing import Any

from claude_tui.core.hooks import HOOK_ATTACHMENTS, capped

HOOK, CALL, ROW, PROMPT, AWAY = "hook", "call", "row", "prompt", "away"

#: The treatment of each attachment type Claude Code writes (those of the real corpus, and every hook run's).
TREATMENTS: dict[str, str] = {
    **dict.fromkeys(HOOK_ATTACHMENTS, HOOK),
    "read_truncation_notice": CALL,
    "structured_output": CALL,
    "date_change": ROW,
    "edited_text_file": ROW,
    "file": ROW,
    "opened_file_in_ide": ROW,
    "selected_lines_in_ide": ROW,
    "plan_mode": ROW,
    "plan_mode_exit": ROW,
    "plan_mode_reentry": ROW,
    "plan_file_reference": ROW,
    "queued_command": PROMPT,
    "agent_listing_delta": AWAY,
    "command_permissions": AWAY,
    "deferred_tools_delta": AWAY,
    "mcp_instructions_delta": AWAY,
    "skill_listing": AWAY,
    "task_reminder": AWAY,
    "todo_reminder": AWAY,
    "total_tokens_reminder": AWAY,
}


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _path(attachment: dict[str, Any], cwd: Any) -> str:
    """The file an attachment names, as Claude Code showed it (relative to the project), else as written."""
    shown = _str(attachment.get("displayPath"))
    path = shown or _str(attachment.get("filename")) or _str(attachment.get("planFilePath"))
    base = cwd.rstrip("/") + "/" if isinstance(cwd, str) and cwd else None
    return path[len(base) :] if base and path.startswith(base) else path


def _plan(attachment: dict[str, Any]) -> str:
    name = _str(attachment.get("planFilePath")).replace("\\", "/").rsplit("/", 1)[-1]
    return f" · plan {name}" if name else ""


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def row_text(attachment: dict[str, Any], cwd: Any = None) -> str:
    """The one line that stands for an attachment: what it says, in a few words."""
    atype = _str(attachment.get("type"))
    if atype == "date_change":
        return f"the date is now {_str(attachment.get('newDate')) or '?'}"
    if atype == "opened_file_in_ide":
        return f"opened in the IDE: {_path(attachment, cwd)}"
    if atype == "selected_lines_in_ide":
        start, end = attachment.get("lineStart"), attachment.get("lineEnd")
        lines = f":{start}" + (f"-{end}" if end not in (None, start) else "") if start is not None else ""
        ide = _str(attachment.get("ideName")) or "the IDE"
        said = _first_line(_str(attachment.get("content")))
        return f"selected in {ide}: {_path(attachment, cwd)}{lines}" + (f" · {said}" if said else "")
    if atype == "edited_text_file":
        return f"changed since Claude read it: {_path(attachment, cwd)}"
    if atype == "file":
        return f"attached: {_path(attachment, cwd)}"
    if atype == "plan_mode":
        return "plan mode on" + _plan(attachment)
    if atype == "plan_mode_reentry":
        return "plan mode on again" + _plan(attachment)
    if atype == "plan_mode_exit":
        return "plan mode off" + _plan(attachment)
    if atype == "plan_file_reference":
        heading = _first_line(_str(attachment.get("planContent"))).lstrip("# ")
        return "plan" + _plan(attachment).removeprefix(" · plan") + (f": {heading}" if heading else "")
    if atype == "read_truncation_notice":
        return _first_line(_str(attachment.get("banner"))) or "the read was cut short"
    if atype == "structured_output":
        return f"structured output: {_first_line(capped(attachment.get('data')))}"
    detail = _str(attachment.get("hookName") or attachment.get("filename") or attachment.get("content"))
    return " ".join(x for x in (atype or "attachment", _first_line(detail)[:200]) if x)
