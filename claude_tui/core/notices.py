"""What Claude Code passes on in the user's place: a background task's notification, and a message from a
teammate or from another Claude session. None of them is a prompt: each is read here from its tags.

    <task-notification><task-id>b1</task-id><tool-use-id>toolu_…</tool-use-id><output-file>/tmp/…/b1.output
    </output-file><status>completed</status><summary>Background command "make" completed (exit code 0)</summary>
    </task-notification>
    <teammate-message teammate_id="researcher" color="yellow" summary="Section done">…</teammate-message>
    Another Claude session sent a message:
    <cross-session-message from="uds:/run/…/42.sock" from-name="trace 3" from-mode="prompting">…
    </cross-session-message> (and Claude Code's advice to the model after it)
"""

from __future__ import annotations

import re

TASK_TAG = "<task-notification>"
_PEER_TAGS = ("<teammate-message", "<cross-session-message")
#: Claude Code's words before another session's message.
_PEER_LEAD = "Another Claude session sent a message:"
_FIELD = re.compile(r"<(task-id|status|summary|output-file)>(.*?)</\1>", re.S)
_PEER = re.compile(r"<(teammate-message|cross-session-message)((?:\s+[\w-]+=\"[^\"]*\")*)\s*>(.*?)(?:</\1>|$)", re.S)
_ATTRIBUTE = re.compile(r"([\w-]+)=\"([^\"]*)\"")


def is_task(text: str) -> bool:
    """Whether a user text is a background task's notification."""
    return text.lstrip().startswith(TASK_TAG)


def is_peer(text: str) -> bool:
    """Whether a user text is a teammate's or another session's message."""
    text = text.lstrip()
    return text.startswith(_PEER_TAGS) or (text.startswith(_PEER_LEAD) and _PEER_TAGS[1] in text)


def task_text(text: str) -> str:
    """A task notification as lines: "task b1 completed", its summary, "output /tmp/…/b1.output", and what
    follows the tags ("Read the output file to retrieve the result: …")."""
    fields = {name: " ".join(value.split()) for name, value in _FIELD.findall(text)}
    head = " ".join(x for x in ("task", fields.get("task-id", ""), fields.get("status", "")) if x)
    rest = text.split("</task-notification>", 1)[1].strip() if "</task-notification>" in text else ""
    output = f"output {fields['output-file']}" if fields.get("output-file") else ""
    return "\n".join(x for x in (head, fields.get("summary", ""), output, rest) if x)


def peer_parts(text: str) -> tuple[str, str, str]:
    """(sender, summary, body) of a peer's message: the sender named as "researcher (teammate)" or
    "trace 3 (another session)"; several teammate messages in one text are one body."""
    senders: list[str] = []
    summaries: list[str] = []
    bodies: list[str] = []
    for tag, attributes, body in _PEER.findall(text):
        fields = dict(_ATTRIBUTE.findall(attributes))
        if tag == "teammate-message":
            name, what = fields.get("teammate_id", ""), "teammate"
        else:
            name, what = fields.get("from-name") or fields.get("from", ""), "another session"
        sender = f"{name} ({what})" if name else what
        if sender not in senders:
            senders.append(sender)
        if fields.get("summary"):
            summaries.append(fields["summary"])
        bodies.append(body.strip())
    return ", ".join(senders) or "another session", "; ".join(summaries), "\n\n".join(bodies) or text.strip()


#: The caveat Claude Code puts before a local command's records (`/model`, `/clear`): its bookkeeping, no row.
_CAVEAT = re.compile(r"\s*<local-command-caveat>.*?</local-command-caveat>\s*", re.S)
#: The start of a skill's instructions, as Claude Code passes them on when the skill is used.
_SKILL = re.compile(r"Base directory for this skill: (\S+)")
_TITLE = re.compile(r"^#\s+(.+)$", re.M)  #: a Markdown title (a heading of the first level)
_HEADING_MARK = re.compile(r"^[ \t]*#{1,6}[ \t]+", re.M)
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$", re.M)
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")  #: not `__`: `__init__` is more often a name than bold


def meta_note(text: str) -> str | None:
    """What a meta record (isMeta: Claude Code's words in the user's turn) says, as its row: a skill's instructions
    as "skill NAME: its title", any other as its text; None for the caveat before a local command's records
    (no row: it says only that they are not prompts)."""
    if _CAVEAT.fullmatch(text):
        return None
    if skill := _SKILL.match(text.lstrip()):
        name = skill.group(1).rstrip("/\\").replace("\\", "/").rpartition("/")[2]
        title = _TITLE.search(text, skill.end(), skill.end() + 4_000)
        return f"skill {name}" + (f": {title.group(1).strip()}" if title else "")
    return markdown_gist(text)


def markdown_gist(text: str) -> str:
    """A Markdown text's words, for a row of one line: without its headings' marks, its bold marks, its tables'
    rules and its table rows' bars (`/context`'s report for Claude: "## Context Usage **Model:** …| Category |…")."""
    text = _STRONG.sub(r"\1", _TABLE_RULE.sub("", _HEADING_MARK.sub("", text)))
    rows = text.splitlines()
    return "\n".join(" ".join(row.strip(" \t|").split("|")) if row.lstrip().startswith("|") else row for row in rows)
