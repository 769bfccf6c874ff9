"""The conversation pane (see view.py)."""

from claude_tui.ui.widgets.conversation.view import ConversationView

__all__ = ["ConversationView"]
