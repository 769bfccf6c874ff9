"""The live line under the conversation: following or paused (with what is new below), records per second, size.

Hidden while the open session is neither followed nor being written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.widgets import Static

from claude_tui.core.humanize import human_size


@dataclass(frozen=True, slots=True)
class LiveState:
    """What the live line says."""

    mode: str  #: following, paused, live (written to, not followed) or deleted
    unseen: int = 0  #: messages below the view while following is paused
    rate: float = 0.0  #: records per second lately
    size: int = 0  #: the file's size in bytes
    key: str = ""  #: the key the line names: paused, the one that resumes; live, the one that follows


class LiveStatus(Static):
    """One line: `● following · 34 records/s · 2.1 MB`, or `‖ paused  12 new ↓  end resumes · …`."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"live-status--on", "live-status--paused", "live-status--badge"}

    DEFAULT_CSS = """
    LiveStatus {
        display: none;
        height: 1;
        padding: 0 1 0 2;
        background: $boost;
        color: $text-muted;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .live-status--on { color: $success; text-style: bold; }
        & > .live-status--paused { color: $warning; text-style: bold; }
        & > .live-status--badge { background: $accent; color: $text; text-style: bold; }
    }
    LiveStatus.-shown { display: block; }
    LiveStatus.-deleted { color: $error; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state: LiveState | None = None

    def show(self, state: LiveState | None) -> None:
        """Say `state` (None: hide the line)."""
        if state == self.state:
            return
        self.state = state
        self.set_class(state is not None, "-shown")
        self.set_class(state is not None and state.mode == "deleted", "-deleted")
        if state is not None:
            self.update(self._text(state), layout=False)  # one line, always: no need to lay the screen out again

    def _text(self, state: LiveState) -> Text:
        style = self.get_component_rich_style
        text = Text()
        if state.mode == "deleted":
            text.append("✕ the file was deleted: what was read stays on screen")
            return text
        if state.mode == "following":
            text.append("● following", style("live-status--on"))
        elif state.mode == "paused":
            text.append("‖ paused", style("live-status--paused"))
            if state.unseen:
                text.append("  ")
                text.append(f" {state.unseen:,} new ↓ ", style("live-status--badge"))
            if state.key:
                text.append(f"  {state.key} resumes")
        else:
            text.append("○ live")
            if state.key:
                text.append(f"  {state.key} follows")
        text.append(f" · {state.rate:,.0f} records/s · {human_size(state.size)}")
        return text
