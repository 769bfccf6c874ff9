"""The content rules every reader of records follows (the session, the index and its snippets, search, the
source view, the command line), so that what search finds is what the session shows: a record's content and its
items, tool results' text and images, what kind of user turn a record is, a prompt as one line, a persisted
output's note, a queued message, API errors, and any field as text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import orjson

from claude_tui.core.attachments import row_text
from claude_tui.core.humanize import human_size
from claude_tui.core.model import PREVIEW_CHARS, Block, Kind, Message
from claude_tui.core.notices import is_peer, is_task
from claude_tui.core.sanitize import folded, visible_controls

#: System record subtypes that are never an API error, whatever their level.
_NOT_API_ERRORS = frozenset({"compact_boundary", "microcompact_boundary", "turn_duration"})
#: Tags that wrap text Claude Code (or its IDE integrations: ide_opened_file, ide_selection, ...)
#: injects into user records; not what the user typed.
_INJECTED = re.compile(
    r"<(system-reminder|local-command-caveat|ide_[a-z_]+|uploaded_files|fork-boilerplate)>.*?</\1>", re.S
)
#: A text block that is an IDE integration's context, whole (Claude Code writes it as the prompt's first block).
_IDE_BLOCK = re.compile(r"\s*<(ide_[a-z_]+)>(.*)</\1>\s*", re.S)
_IDE_OPENED = re.compile(r"The user opened the file (.+?) in the IDE\.", re.S)
_IDE_SELECTED = re.compile(r"The user selected the lines? (\d+) to (\d+) from (.+?):\n")
_IDE_MAYBE = "This may or may not be related to the current task."
_REMINDER = re.compile(r"\s*<system-reminder>(.*?)</system-reminder>", re.S)
#: A prompt typed as a slash command (`/context`, `/review the parser`), not a path (`/home/me/x`).
_SLASH_COMMAND = re.compile(r"/[A-Za-z][\w:.-]*(?:\s|$)")
_COMMAND_NAME = re.compile(r"<command-name>(.*?)</command-name>", re.S)
_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.S)
_BASH_INPUT = re.compile(r"<bash-input>(.*?)</bash-input>", re.S)
_COMMAND_TAGS = ("<command-name>", "<command-message>")
_OUTPUT_TAGS = ("<local-command-stdout>", "<local-command-stderr>", "<bash-stdout>", "<bash-stderr>")
#: The note Claude Code leaves for an output it moved to the session's `tool-results/` folder (2.1.x): its size,
#: where it saved it, and a preview of its first 2 KB.
PERSISTED_TAG = "<persisted-output>"
_PERSISTED = re.compile(
    r"<persisted-output>\s*(?:Output too large \(([\d.]+)\s*([KMG]?B)\)\.\s*)?Full output saved to:\s*([^\n]+)\n"
    r"(?:\s*Preview \([^)\n]*\):\n)?(.*?)(?:\n\.\.\.)?\s*</persisted-output>\s*$",
    re.S,
)
_UNITS = {"B": 1, "KB": 1_000, "MB": 1_000_000, "GB": 1_000_000_000}


def is_api_error(obj: dict[str, Any]) -> bool:
    """A system record that reports a failed API call."""
    subtype = obj.get("subtype")
    if not isinstance(subtype, str | None):  # a list or a dict: not a subtype Claude Code writes
        subtype = None
    return (subtype == "api_error" or obj.get("level") == "error") and subtype not in _NOT_API_ERRORS


def api_error_text(obj: dict[str, Any]) -> str:
    """What an API error record says: its error's message (however deep), else its content."""
    error = obj.get("error")
    while isinstance(error, dict):  # {"status": 529, "error": {"type": "error", "error": {"message": ...}}}
        if isinstance(error.get("message"), str) and error["message"]:
            return error["message"]
        error = error.get("error")
    return as_text(error) or as_text(obj.get("content")) or "API error"


#: The hint Claude Code ends a recap with: its own advice to its reader, not part of the recap.
_RECAP_HINT = re.compile(r"\s*\(disable recaps in /config\)\s*$")


def recap_text(content: str) -> str:
    """What an `away_summary` record's recap says, without Claude Code's hint on how to turn recaps off."""
    return _RECAP_HINT.sub("", content).strip() or content


def system_kind(content: str) -> Kind:
    """What a `local_command` system record is: the command (2.1.x writes some so), or what it printed."""
    return Kind.COMMAND if content.lstrip().startswith(_COMMAND_TAGS) else Kind.COMMAND_OUTPUT


def user_kind(obj: dict[str, Any], first_text: str | None, has_results: bool) -> Kind:
    """What a user record is: tool results, a compaction summary, meta, a command, its output, or a prompt.

    `first_text` is the record's first content block when that is text (or its string content).
    """
    if has_results:
        return Kind.TOOL_RESULT
    if obj.get("isCompactSummary"):
        return Kind.COMPACT_SUMMARY
    text = first_text.lstrip() if first_text else ""
    if is_task(text):
        return Kind.TASK
    if is_peer(text):  # another session's is meta: its words are Claude Code's around the message
        return Kind.PEER
    if obj.get("isMeta"):
        return Kind.META
    if text.startswith((*_COMMAND_TAGS, "<bash-input>")):
        return Kind.COMMAND
    if text.startswith(_OUTPUT_TAGS):
        return Kind.COMMAND_OUTPUT
    if text.startswith("[Request interrupted by user"):
        return Kind.INTERRUPT
    return Kind.PROMPT


def prompt_text(message: Message, limit: int = 200) -> str:
    """A prompt as one line of at most `limit` characters (a cut one ends with "…"): injected tags removed,
    whitespace folded; a peer's message, its summary if it has one."""
    if message.kind is Kind.PEER:
        return " ".join((message.text or message.plain_text).split())[:limit]
    text = _INJECTED.sub(" ", message.plain_text)
    ran = command_as_run(text)
    line = " ".join((text if ran is None else ran).split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def command_as_run(text: str) -> str | None:
    """A slash command's text as the user ran it, without its wrapper tags ("/review the parser", the arguments'
    lines kept), a `!` command's shell line; None for any other text."""
    if text.lstrip().startswith("<command-"):
        name = _COMMAND_NAME.search(text)
        args = _COMMAND_ARGS.search(text)
        return " ".join(x.group(1).strip() for x in (name, args) if x)
    if shell := _BASH_INPUT.match(text.lstrip()):
        return shell.group(1)
    return None


def asks(kind: Kind, raw: str) -> bool:
    """Whether a prompt or command (its text as written) says what the user wants, and so can title its
    session: a typed prompt, or a command run as a prompt for the model (a custom command, a skill) given
    arguments (`/review the parser`). Not a local command (`/model opus`, `/clear`), nor a `!` shell
    command: Claude Code writes a local command's <command-name> first, a prompt command's <command-message>."""
    if kind is Kind.PROMPT:
        return True
    args = _COMMAND_ARGS.search(raw)
    return raw.lstrip().startswith("<command-message>") and args is not None and bool(args.group(1).strip())


def record_content(obj: dict[str, Any]) -> Any:
    """The content of a user or assistant record: its message's `content`, or the message itself when that is
    a string (a shape Claude Code does not write, read as its text; `content_items` reads the rest)."""
    message = obj.get("message")
    if isinstance(message, dict):
        return message.get("content")
    return message if isinstance(message, str) else None


def content_items(content: Any) -> tuple[list[Any], bool]:
    """The items of a message's or a tool result's content, each a block (a dict) or text (a string), and
    whether the content has a shape Claude Code does not write: the one rule every reader of content follows
    (the session, the index and its snippets), so that what search finds is what the session shows.

    A string is one text; a list, its items. Any other shape is read as text where it is not a block: a dict is
    one block, a nested list's items are the list's, a bare string or a number in a list is a text (None, none).
    """
    if type(content) is list:
        for item in content:
            if type(item) is not dict:
                break
        else:  # the usual list of blocks
            return content, False
    if isinstance(content, str):
        return [content], False
    if content is None:
        return [], False
    if isinstance(content, dict):
        return [content], True
    items: list[Any] = []
    _flatten(content if isinstance(content, list) else [content], items, 0)
    return items, True


def _flatten(values: list[Any], items: list[Any], depth: int) -> None:
    """Add `values` to `items` as content_items reads them (nested lists to a sane depth, then as JSON)."""
    for value in values:
        if isinstance(value, dict | str):
            items.append(value)
        elif isinstance(value, list) and depth < 8:
            _flatten(value, items, depth + 1)
        elif value is not None:
            items.append(as_text(value))


def result_content(content: Any) -> tuple[str, list[tuple[str, int]], bool]:
    """The text of a tool_result's content (see `content_items`), its images, and whether its shape is odd.
    A block of another type is kept as its JSON."""
    items, odd = content_items(content)
    texts, images = [], []
    for item in items:
        if isinstance(item, str):
            texts.append(item)
        elif item.get("type") == "text":
            value = item.get("text")
            texts.append(as_text(value))
            odd = odd or not isinstance(value, str | None)
        elif item.get("type") == "image":
            block = other_block(item)
            images.append((block.media_type, block.size))
        elif item.get("type") == "tool_reference":
            texts.append(f"[tool: {as_text(item.get('tool_name'))}]")
        else:
            texts.append(other_block(item).text)
    return "\n".join(texts), images, odd


def content_blocks(content: Any, cwd: Any = None) -> tuple[list[Block], list[dict[str, Any]], bool]:
    """The blocks of a user record's content (see `content_items`), its tool results, and whether its shape is odd
    (`cwd`: the record's, that an IDE's note names its file from)."""
    items, odd = content_items(content)
    blocks: list[Block] = []
    results: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, str):
            blocks.append(Block("text", item))
            continue
        btype = item.get("type")
        if btype == "tool_result":
            results.append(item)
        elif btype == "text":
            value = item.get("text")
            said = as_text(value)
            ide = ide_context(said, cwd) if said[:64].lstrip().startswith("<ide_") else None
            blocks.append(Block("text", said) if ide is None else Block("ide", ide[1], title=ide[0]))
            odd = odd or not isinstance(value, str | None)
        else:
            blocks.append(other_block(item))
    return blocks, results, odd


@dataclass(slots=True)
class PersistedNote:
    """A `<persisted-output>` note: where Claude Code saved the whole output, its size, the preview it kept."""

    path: str  #: as recorded, on the machine that wrote it (see files.persisted_file)
    size: int  #: characters (bytes, as Claude Code counts them) of the whole output; always more than the preview
    preview: str


def persisted_note(text: str, structured: Any = None) -> PersistedNote | None:
    """The note an output that Claude Code moved out of the transcript left in its place (a tool's result, a
    hook's output), read from its text and the record's `toolUseResult` (persistedOutputPath and -Size); None for
    any other text."""
    if not text.startswith(PERSISTED_TAG):
        return None
    found = _PERSISTED.match(text)
    if found is None:
        return None
    number, unit, path, preview = found.groups()
    size = round(float(number) * _UNITS[unit.upper()]) if number else 0
    if isinstance(structured, dict):
        recorded, exact = structured.get("persistedOutputPath"), structured.get("persistedOutputSize")
        path = recorded if isinstance(recorded, str) and recorded.strip() else path
        size = exact if type(exact) is int else size
    return PersistedNote(path.strip(), max(size, len(preview) + 1), preview)


def queued_message(obj: dict[str, Any]) -> tuple[Kind, str | list[Any]] | None:
    """What a `queued_command` attachment (typed while Claude was at work; 2.1.x) passes on, and its content (a
    string or a list of blocks, like a user record's): a prompt, a slash command, a task's notification or a
    peer's message. None for any other record, and for a queued `!` command."""
    attachment = obj.get("attachment")
    if not isinstance(attachment, dict) or attachment.get("type") != "queued_command":
        return None
    prompt = attachment.get("prompt")
    mode = attachment.get("commandMode", "prompt")
    if not isinstance(prompt, str | list) or mode not in ("prompt", "task-notification"):
        return None
    first = prompt if isinstance(prompt, str) else first_text(content_blocks(prompt)[0]) or ""
    if mode == "task-notification" or is_task(first):
        return Kind.TASK, prompt
    if is_peer(first):
        return Kind.PEER, prompt
    return (Kind.COMMAND if _SLASH_COMMAND.match(first.lstrip()) else Kind.PROMPT), prompt


def ide_context(text: str, cwd: Any = None) -> tuple[str, str] | None:
    """What an IDE integration told Claude, a text block of a prompt of its own (`<ide_opened_file>`,
    `<ide_selection>`; 2.0.x): a one-line note, as the attachments that tell it since say it ("opened in the IDE:
    app.py", its path from `cwd`), and what it said; None for any other text."""
    found = _IDE_BLOCK.fullmatch(text)
    if found is None:
        return None
    tag, said = found.groups()
    said = said.strip()
    if tag == "ide_opened_file" and (opened := _IDE_OPENED.match(said)):
        return row_text({"type": "opened_file_in_ide", "filename": opened.group(1)}, cwd), said
    if tag == "ide_selection" and (selected := _IDE_SELECTED.match(said)):
        first, last, path = selected.groups()
        lines = said[selected.end() :].removesuffix(_IDE_MAYBE).strip()
        told = {"type": "selected_lines_in_ide", "filename": path, "lineStart": first, "lineEnd": last}
        return row_text({**told, "content": lines}, cwd), said
    return f"{tag.removeprefix('ide_').replace('_', ' ')} from the IDE", said


def first_text(blocks: list[Block]) -> str | None:
    """The text a user record's kind is told by (see `user_kind`): its first block's, when that is text; an IDE's
    context before it is not what the user wrote."""
    if blocks and blocks[0].type != "ide":  # the usual: no IDE's context
        return blocks[0].text if blocks[0].type == "text" else None
    first = next((b for b in blocks if b.type != "ide"), None)
    return first.text if first is not None and first.type == "text" else None


def plain_of(blocks: list[Block]) -> str:
    """The text blocks of a message, joined (as Message.plain_text)."""
    return "\n\n".join(b.text for b in blocks if b.type == "text")


def other_block(item: dict[str, Any]) -> Block:
    """An image's placeholder, an attached document's (with its text, when it is text), or an unknown block kept as
    its (capped) JSON."""
    btype = as_text(item.get("type")) or "?"
    if btype in ("image", "document"):
        source = item.get("source")
        source = source if isinstance(source, dict) else {}
        data = source.get("data")
        data = data if isinstance(data, str) else ""
        media_type = as_text(source.get("media_type")) or btype
        if btype == "image":
            return Block("image", media_type=media_type, size=len(data) * 3 // 4)
        title = as_text(item.get("title"))
        if source.get("type") != "text":  # base64 (a PDF's)
            return Block("document", media_type=media_type, size=len(data) * 3 // 4, title=title)
        text = utf8_read_as_latin1(data)  # a text file's content
        size = len(text.encode("utf-8", "replace"))
        return Block("document", text[:PREVIEW_CHARS], media_type=media_type, size=size, title=title)
    raw = orjson.dumps(item)
    return Block(btype, raw[:PREVIEW_CHARS].decode("utf-8", "replace"), size=len(raw))


def attached(block: Block) -> str:
    """An image's or a document's placeholder, on one line: "image/png · 12.0 KB", "plan.md · text/plain · 3.4 KB";
    an IDE's context's note ("opened in the IDE: plan.md")."""
    if block.type == "ide":
        return folded(visible_controls(block.title), 300)
    parts = [block.title, block.media_type or block.type, human_size(block.size)]
    return folded(visible_controls(" · ".join(p for p in parts if p)), 300)


def without_reminders(text: str) -> tuple[str, list[str]]:
    """A tool's output without the <system-reminder> notes Claude Code adds to it for the model ("[Truncated: PARTIAL
    view ...]", "This memory is 54 days old"), and those notes' words."""
    if "<system-reminder>" not in text:
        return text, []
    notes = [" ".join(found.group(1).split()) for found in _REMINDER.finditer(text)]
    return _REMINDER.sub("", text).rstrip(), [note for note in notes if note]


def utf8_read_as_latin1(text: str) -> str:
    """Text whose UTF-8 bytes were read as Latin-1 (as Claude Code 2.1.117 wrote an attached file's content:
    "ä½\x93" for "体"), as it was written; any other text unchanged. Text holding a character above U+00FF, or whose
    Latin-1 bytes are not UTF-8 (real Latin-1 text: "café"), was not mangled so."""
    if text.isascii():
        return text
    try:
        return text.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return text


def capped_copy(value: Any, depth: int = 0) -> Any:
    """A copy of a structured result with long strings and lists cut, to bound memory."""
    if isinstance(value, str):
        return value[:PREVIEW_CHARS]
    if depth > 6:
        return None
    if isinstance(value, dict):
        return {k: capped_copy(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [capped_copy(v, depth + 1) for v in value[:2000]]
    return value


def as_text(value: Any) -> str:
    """A record's field as text: a string as it is, None as "", a dict or list as its JSON, anything else as
    str() writes it."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict | list):
        try:
            return orjson.dumps(value, default=str).decode("utf-8", "replace")
        except orjson.JSONEncodeError:  # nested deeper than orjson writes
            return str(value)
    return "" if value is None else str(value)
