"""What one feed of records changed in a session (`Session.feed` returns it): what a view redraws."""

from __future__ import annotations

from dataclasses import dataclass, field

from claude_tui.core.model import Message


@dataclass
class Update:
    """What one `feed` changed, for a view that refreshes incrementally."""

    first_new: int = 0  #: messages from this index on are new
    added: list[Message] = field(default_factory=list)
    changed: dict[int, Message] = field(default_factory=dict)  #: older messages that grew, by index
    threads_changed: bool = False  #: a fork appeared or segments moved: recompute what is visible
    started_over: bool = False
    damaged: bool = False  #: damaged lines were found (shown where they are, even with no message after them)

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.threads_changed or self.started_over or self.damaged)

    def touch(self, message: Message) -> None:
        """Note that `message` changed (nothing to note when it is new in this update)."""
        if message.index < self.first_new:
            self.changed[message.index] = message
