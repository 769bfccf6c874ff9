"""What the conversation pane tells the screen (messages up): named as `ConversationView`'s own, so handlers keep
their names (`on_conversation_view_loaded`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message as TextualMessage

from claude_tui.core.model import Message, ToolCall
from claude_tui.ui.widgets.conversation.filters import PaneFilter

if TYPE_CHECKING:
    from claude_tui.core.session import Session

NAMESPACE = "conversation_view"


class Loaded(TextualMessage, namespace=NAMESPACE):
    """More of the session was read (or all of it: `done`)."""

    def __init__(self, session: Session, done: bool, offset: int, size: int) -> None:
        super().__init__()
        self.session, self.done, self.offset, self.size = session, done, offset, size


class FollowChanged(TextualMessage, namespace=NAMESPACE):
    """Following started, paused or stopped."""

    def __init__(self, follow: bool) -> None:
        super().__init__()
        self.follow = follow


class OpenRequested(TextualMessage, namespace=NAMESPACE):
    """The user asked to see an entry in full."""

    def __init__(self, message: Message, call: ToolCall | None) -> None:
        super().__init__()
        self.message, self.call = message, call


class FindRequested(TextualMessage, namespace=NAMESPACE):
    """The user asked for the find bar (`step` 0) or the next (1) or previous (-1) match."""

    def __init__(self, step: int) -> None:
        super().__init__()
        self.step = step


class Filtered(TextualMessage, namespace=NAMESPACE):
    """The pane filter changed (None: everything is shown)."""

    def __init__(self, pane_filter: PaneFilter | None) -> None:
        super().__init__()
        self.pane_filter = pane_filter


class Fed(TextualMessage, namespace=NAMESPACE):
    """The read worker put a batch in the pending update (`token`: of the session it was read for)."""

    def __init__(self, token: int, done: bool, offset: int, size: int, error: str | None) -> None:
        super().__init__()
        self.token, self.done, self.offset, self.size, self.error = token, done, offset, size, error
