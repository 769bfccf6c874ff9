"""Pane filters: show only the prompts, only the errors, or only the calls of one tool.

A filter keeps or drops the conversation pane's entries; hiding hook and system rows
is the pane's own `hide_quiet` switch and combines with these.
"""

from __future__ import annotations

from dataclasses import dataclass

from claude_tui.core.model import Kind, Message
from claude_tui.ui.tools import one_line
from claude_tui.ui.widgets.entries import Entry, is_error

#: What each filter keeps ("{tool}": the tool's name).
KEPT = {"prompts": "prompts", "errors": "errors", "tool": "{tool} calls"}
#: The key that sets each filter, and sets it off again.
KEYS = {"prompts": "P", "errors": "!", "tool": "T"}


@dataclass(frozen=True, slots=True)
class PaneFilter:
    """Which entries the pane shows."""

    what: str  #: prompts, errors or tool
    tool: str | None = None  #: the tool's name, for `tool`

    @property
    def kept(self) -> str:
        """What is kept, as plain one-line text (a tool's name comes from the session file)."""
        return KEPT[self.what].format(tool=one_line(self.tool, 60))

    @property
    def label(self) -> str:
        """What the palette calls it."""
        return f"only {self.kept}"

    @property
    def note(self) -> str:
        """The line above the pane while the filter is on."""
        return f"Showing {self.label} · {KEYS[self.what]} again shows everything"

    @property
    def nothing(self) -> str:
        """What the pane says when the filter keeps none of its entries."""
        return f"No {self.kept} to show — press {KEYS[self.what]} to show everything"

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
