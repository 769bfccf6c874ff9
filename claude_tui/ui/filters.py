"""Pane filters: show only the prompts, only the errors, or only the calls of one tool.

A filter keeps or drops the conversation pane's entries; hiding hook and system rows
is the pane's own `hide_quiet` switch and combines with these.
"""

from __future__ import annotations

from dataclasses import dataclass

from claude_tui.core.model import Kind, Message
from claude_tui.ui.text import tool_name
from claude_tui.ui.widgets.conversation.entries import Entry, is_error

#: What each filter keeps ("{tool}": the tool's name).
KEPT = {"prompts": "prompts", "errors": "errors", "tool": "{tool} calls"}
#: The binding (of the conversation) that sets each filter, and sets it off again.
BINDING_IDS = {
    "prompts": "conversation.only_prompts",
    "errors": "conversation.only_errors",
    "tool": "conversation.only_tool",
}


@dataclass(frozen=True, slots=True)
class PaneFilter:
    """Which entries the pane shows."""

    what: str  #: prompts, errors or tool
    tool: str | None = None  #: the tool's name, for `tool`

    @property
    def kept(self) -> str:
        """What is kept, as plain one-line text (a tool's name comes from the session file)."""
        return KEPT[self.what].format(tool=tool_name(self.tool or "", 60))

    @property
    def label(self) -> str:
        """What the palette calls it."""
        return f"only {self.kept}"

    @property
    def binding_id(self) -> str:
        """The id of the binding that sets this filter, and sets it off again."""
        return BINDING_IDS[self.what]

    def note(self, key: str) -> str:
        """The line above the pane while the filter is on; `key` sets it off."""
        return f"Showing {self.label} · {key} again shows everything"

    def nothing(self, key: str) -> str:
        """What the pane says when the filter keeps none of its entries; `key` sets it off."""
        return f"No {self.kept} to show — press {key} to show everything"

    def may_keep(self, message: Message) -> bool:
        """Whether any entry of a top-level message may be kept (its subagents' rows hang under its calls)."""
        if self.what == "prompts":
            return message.kind is Kind.PROMPT
        return message.kind is Kind.API_ERROR or any(block.call is not None for block in message.blocks)

    def keeps(self, entry: Entry) -> bool:
        if self.what == "prompts":
            return entry.depth == 0 and entry.message.kind is Kind.PROMPT and entry.kind in ("header", "text")
        if self.what == "errors":
            return is_error(entry)
        return entry.call is not None and entry.call.name == self.tool
