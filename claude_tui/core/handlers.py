"""Record handlers: what a record of each type (`HANDLERS`, by its `type`) and subtype adds to a session.

Each is a plain function of the session it adds to, read through `Builder`. The session keeps what the handlers
build with (making a message, noting a problem, folding a record into a row, a tool result into its call) and the
indexes those keep; a handler decides what a record is. Metadata records (titles, facts) go to `on_metadata`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from claude_tui.core import attachments, hooks
from claude_tui.core.agents import Agents
from claude_tui.core.content import (
    api_error_text,
    as_text,
    content_blocks,
    content_items,
    first_text,
    is_api_error,
    plain_of,
    queued_message,
    recap_text,
    record_content,
    system_kind,
    user_kind,
)
from claude_tui.core.model import PREVIEW_CHARS, Block, Hook, Kind, Message, Span, ToolCall
from claude_tui.core.notices import meta_note, peer_parts, task_text
from claude_tui.core.sanitize import without_markup
from claude_tui.core.shapes import add_fact, fact_of
from claude_tui.core.usage import read_usage, replaces


class Builder(Protocol):
    """What a handler uses of the session it adds a record to (a Session)."""

    by_message_id: dict[str, Message]  #: assistant messages by `message.id`: the chunks of one answer join it
    models: dict[str, None]
    usage_unreadable: bool
    turn_durations: list[float]
    folds: hooks.Folds
    aliases: dict[str, str | None]  #: saved hook contexts' uuids -> the parent each stands for
    agent_links: Agents[Any]
    facts: dict[str, Any]
    custom_title: str | None
    ai_title: str | None
    summaries: dict[str, str]

    def new_message(
        self,
        kind: Kind,
        obj: dict[str, Any],
        span: Span | None,
        *,
        blocks: list[Block] | None = None,
        text: str = "",
    ) -> Message: ...

    def note(self, span: Span | None, what: str) -> None: ...

    def odd_shape(self, span: Span | None, what: str) -> None: ...

    def join_chunk(self, message: Message, obj: dict[str, Any], span: Span | None) -> None: ...

    def add_assistant_block(
        self, message: Message, item: dict[str, Any] | str, obj: dict[str, Any], span: Span | None
    ) -> bool: ...

    def add_result(self, item: dict[str, Any], obj: dict[str, Any], span: Span | None, owner: Message) -> None: ...

    def add_hook(self, hook: Hook, obj: dict[str, Any], span: Span | None) -> None: ...

    def touch_host(self, host: hooks.Host | None) -> None: ...

    def parent_of(self, obj: dict[str, Any]) -> str | None: ...


def on_user(s: Builder, obj: dict[str, Any], span: Span | None) -> None:
    blocks, results, odd = content_blocks(record_content(obj), obj.get("cwd"))
    message = _said(s, user_kind(obj, first_text(blocks), bool(results)), obj, span, blocks)
    if odd:
        s.odd_shape(span, "a user record's content")
    for item in results:
        s.add_result(item, obj, span, message)


def _printed_nothing(message: Message) -> bool:
    """A command's output that is empty (`/clear`'s `<local-command-stdout></local-command-stdout>`): no row."""
    return message.kind is Kind.COMMAND_OUTPUT and not without_markup(message.plain_text).strip()


def _said(s: Builder, kind: Kind, obj: dict[str, Any], span: Span | None, blocks: list[Block]) -> Message:
    """A message in the user's turn: a task's notification as its lines, a peer's as its sender and body."""
    if kind is Kind.TASK:
        return s.new_message(kind, obj, span, text=task_text(plain_of(blocks)))
    if kind is Kind.PEER:
        sender, summary, body = peer_parts(plain_of(blocks))
        others = [b for b in blocks if b.type != "text"]
        message = s.new_message(kind, obj, span, blocks=[Block("text", body), *others], text=summary)
        message.sender = sender
        return message
    if kind is Kind.COMMAND_OUTPUT:
        message = s.new_message(kind, obj, span, blocks=blocks)
        message.folded = _printed_nothing(message)
        return message
    if kind is Kind.META:
        note = meta_note(plain_of(blocks))
        message = s.new_message(kind, obj, span, blocks=blocks, text=note or "")
        message.folded = note is None  # the caveat before a local command's records: no row
        return message
    return s.new_message(kind, obj, span, blocks=blocks)


def on_assistant(s: Builder, obj: dict[str, Any], span: Span | None) -> None:
    payload = obj.get("message")
    if not isinstance(payload, dict):
        payload = {}
    mid = payload.get("id")
    message = s.by_message_id.get(mid) if isinstance(mid, str) else None
    if message is None:
        kind = Kind.API_ERROR if obj.get("isApiErrorMessage") else Kind.ASSISTANT
        if kind is Kind.ASSISTANT and payload.get("model") == "<synthetic>":
            kind = Kind.SYSTEM  # Claude Code's stand-in ("No response requested."): no answer
        message = s.new_message(kind, obj, span)
        message.message_id = mid if isinstance(mid, str) else None
        if message.message_id:
            s.by_message_id[message.message_id] = message
    else:
        s.join_chunk(message, obj, span)
    model = payload.get("model")
    if message.model is None and isinstance(model, str) and model:  # the first chunk that names it
        message.model = model
        if model not in s.models and model != "<synthetic>":
            s.models[model] = None
    content = payload.get("content") if payload else record_content(obj)
    if isinstance(content, str):
        message.blocks.append(Block("text", content))
    elif content is not None:
        items, odd = content_items(content)
        for item in items:
            odd = s.add_assistant_block(message, item, obj, span) or odd
        if odd:
            s.odd_shape(span, "an assistant record's content")
    if payload.get("stop_reason"):
        message.stop_reason = payload["stop_reason"]
    tokens, what = read_usage(payload.get("usage"))
    if what and not s.usage_unreadable:  # noted once: the tokens are a floor
        s.usage_unreadable = True
        s.note(span, f"{what} is not a token count: counted as 0")
    if tokens is not None and (message.tokens is None or replaces(tokens.output, message.tokens.output)):
        message.tokens = tokens


def on_system(s: Builder, obj: dict[str, Any], span: Span | None) -> None:
    subtype = obj.get("subtype")
    content = as_text(obj.get("content"))
    if subtype in ("compact_boundary", "microcompact_boundary"):
        message = s.new_message(Kind.COMPACT_BOUNDARY, obj, span, text=content)
        meta = obj.get("compactMetadata") or obj.get("microcompactMetadata")
        if isinstance(meta, dict) and isinstance(meta.get("preTokens"), int):
            message.pre_tokens = meta["preTokens"]
        message.micro = subtype == "microcompact_boundary"
        s.agent_links.compaction_came()  # a compaction run read before it was written
        return
    if subtype == "turn_duration":
        ms = obj.get("durationMs")
        if isinstance(ms, int | float):
            s.turn_durations.append(ms / 1000)
            content = f"turn took {_seconds(ms / 1000)}"
    elif is_api_error(obj):
        message = s.new_message(Kind.API_ERROR, obj, span, text=api_error_text(obj))
        message.is_error = True
        return
    elif subtype == "stop_hook_summary":
        s.add_hook(hooks.summary_hook(obj), obj, span)
        return
    elif subtype == "local_command":
        message = s.new_message(system_kind(content), obj, span, text=content)
        message.folded = _printed_nothing(message)
        return
    elif subtype == "away_summary" and content.strip():
        s.new_message(Kind.RECAP, obj, span, text=recap_text(content))
        return
    kind = Kind.WARNING if obj.get("level") == "warning" else Kind.SYSTEM
    s.new_message(kind, obj, span, text=content or as_text(subtype) or "system")


def on_progress(s: Builder, obj: dict[str, Any], span: Span | None) -> None:
    data = obj.get("data")
    data = data if isinstance(data, dict) else {}
    dtype = data.get("type")
    nested = data.get("message")
    if dtype == "agent_progress" and isinstance(nested, dict):
        s.agent_links.progress_copy(obj, data, nested, span)
    if dtype == "hook_progress":
        s.add_hook(hooks.progress_hook(obj, data), obj, span)
        return
    said = hooks.progress_text(data)
    last = said.rsplit("\n", 1)[-1]
    message = s.new_message(Kind.PROGRESS, obj, span, text=f"{as_text(dtype) or 'progress'} {last}".strip())
    host = s.folds.on_call(message, obj.get("parentToolUseID"), said)
    if not (isinstance(host, ToolCall) and host.result is not None):  # a finished call's row says nothing new
        s.touch_host(host)


def on_attachment(s: Builder, obj: dict[str, Any], span: Span | None) -> None:
    attachment = obj.get("attachment")
    attachment = attachment if isinstance(attachment, dict) else {}
    if (queued := queued_message(obj)) is not None:  # typed while Claude worked, or a task's word, a peer's
        kind, prompt = queued
        blocks, _, odd = content_blocks(prompt)
        _said(s, kind, obj, span, blocks).queued = kind in (Kind.PROMPT, Kind.COMMAND)
        if odd:
            s.odd_shape(span, "a queued prompt")
        return
    atype = attachment.get("type")
    treatment = attachments.TREATMENTS.get(atype) if isinstance(atype, str) else None
    if treatment == attachments.HOOK:
        s.add_hook(hooks.attachment_hook(attachment), obj, span)
        return
    text = attachments.row_text(attachment, obj.get("cwd"))
    message = s.new_message(Kind.ATTACHMENT, obj, span, text=text)
    if treatment == attachments.CALL:
        s.touch_host(s.folds.on_call(message, attachment.get("toolUseID")))
    elif treatment == attachments.AWAY:
        message.folded = True


def on_hook_context(s: Builder, obj: dict[str, Any], span: Span | None) -> None:
    """A hook's context (a SessionStart hook's words to the model): one row; Claude Code saves it again after
    each record, under the same uuid, as the next one's parent (see `Builder.aliases`)."""
    uuid = obj.get("uuid")
    if isinstance(uuid, str):
        s.aliases[uuid] = s.parent_of(obj)
    name = as_text(obj.get("hookName") or obj.get("hookEvent")) or "hook"
    content = obj.get("content")
    said = "\n".join(map(as_text, content)) if isinstance(content, list) else as_text(content)
    text = f"{name} context  {said[:PREVIEW_CHARS]}"
    s.new_message(Kind.HOOK, {**obj, "uuid": None}, span, text=text)


def on_metadata(s: Builder, rtype: str, obj: dict[str, Any]) -> None:
    if (fact := fact_of(rtype, obj)) is not None:
        add_fact(s.facts, *fact)
    if rtype == "custom-title" and obj.get("customTitle"):
        s.custom_title = as_text(obj["customTitle"])
    elif rtype == "ai-title" and obj.get("aiTitle"):
        s.ai_title = as_text(obj["aiTitle"])
    elif rtype == "summary" and isinstance(obj.get("leafUuid"), str) and obj.get("summary"):
        s.summaries[obj["leafUuid"]] = as_text(obj["summary"])


def _seconds(value: float) -> str:
    return f"{value:.1f}s" if value < 60 else f"{int(value // 60)}m{int(value % 60):02d}s"


HANDLERS: dict[str, Callable[[Builder, dict[str, Any], Span | None], None]] = {
    "user": on_user,
    "assistant": on_assistant,
    "system": on_system,
    "progress": on_progress,
    "attachment": on_attachment,
    "saved_hook_context": on_hook_context,
}
