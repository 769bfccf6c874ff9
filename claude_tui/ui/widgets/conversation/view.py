"""The conversation pane: a session's threaded messages on Textual's Line API.

The pane is one widget in four layers, each in its own module, over a pure model of its rows:
`entry_list` (the rows: entries, prefix sums, reuse pool, splicing; no Textual), `drawing` (the Line API and its
cache), `navigation` (the cursor and its moves), `feed` (the read worker, its lock, pending merge, gc) and this
module (the bindings and the messages the pane posts).
"""

from __future__ import annotations

from typing import ClassVar, TypeAlias

from textual.binding import Binding, BindingType

from claude_tui.ui.widgets.conversation import messages
from claude_tui.ui.widgets.conversation.feed import FedView
from claude_tui.ui.widgets.conversation.messages import FindRequested


def _b(key: str, action: str, description: str, name: str, show: bool = False, **kw: object) -> Binding:
    return Binding(key, action, description, show=show, id=f"conversation.{name}", **kw)  # type: ignore[arg-type]


class ConversationView(FedView, can_focus=True):
    """A session's conversation, virtualised: its feed, navigation and drawing are the layers below."""

    #: Its bindings' moves, which change neither the focus nor the screen: keys bound to them go to the pane one
    #: right behind another (see keygate.py), as a held j does, and a read under way does not slow them
    MOVES = frozenset({"cursor", "page", "first", "last", "expand", "collapse", "jump", "branch"})
    BINDINGS: ClassVar[list[BindingType]] = [
        _b("j,down", "cursor(1)", "Next entry", "down"),
        _b("k,up", "cursor(-1)", "Previous entry", "up"),
        _b("ctrl+d", "page(0.5)", "Half page down", "half_page_down"),
        _b("ctrl+u", "page(-0.5)", "Half page up", "half_page_up"),
        _b("pagedown,ctrl+f", "page(1)", "Page down", "page_down"),
        _b("pageup", "page(-1)", "Page up", "page_up"),
        _b("g,home", "first", "First message", "first"),
        _b("G,end", "last", "Last message", "last"),
        _b("enter", "open", "Open", "open", show=True),
        _b("space", "toggle_entry", "Expand/open", "toggle", show=True, key_display="space"),
        _b("l,right", "expand", "Expand", "expand"),
        _b("h,left", "collapse", "Collapse", "collapse"),
        _b("right_square_bracket", "jump('prompt', 1)", "Next prompt", "next_prompt", show=True, key_display="]"),
        _b("left_square_bracket", "jump('prompt', -1)", "Previous prompt", "previous_prompt", key_display="["),
        _b("e", "jump('error', 1)", "Next error", "next_error", show=True),
        _b("E", "jump('error', -1)", "Previous error", "previous_error"),
        _b("c", "jump('compaction', 1)", "Next compaction", "next_compaction"),
        _b("C", "jump('compaction', -1)", "Previous compaction", "previous_compaction"),
        _b("f", "jump('fork', 1)", "Next fork", "next_fork"),
        _b("F", "jump('fork', -1)", "Previous fork", "previous_fork"),
        _b("greater_than_sign", "branch(1)", "Next branch", "next_branch", key_display=">"),
        _b("less_than_sign", "branch(-1)", "Previous branch", "previous_branch", key_display="<"),
        _b("t", "toggle_thinking", "Expand all thinking", "toggle_thinking"),
        _b("full_stop", "toggle_quiet", "Hide dim rows", "toggle_quiet", key_display="."),
        _b("slash", "find(0)", "Find", "find", show=True, key_display="/"),
        _b("n", "find(1)", "Next match", "next_match"),
        _b("N", "find(-1)", "Previous match", "previous_match"),
        _b("P", "only('prompts')", "Show only prompts", "only_prompts"),
        _b("exclamation_mark", "only('errors')", "Show only errors", "only_errors", key_display="!"),
        _b("T", "only('tool')", "Show only this tool's calls", "only_tool"),
    ]

    DEFAULT_CSS = """
    ConversationView {
        overflow-x: hidden;
        scrollbar-gutter: stable;
    }
    """

    Loaded: TypeAlias = messages.Loaded
    FollowChanged: TypeAlias = messages.FollowChanged
    OpenRequested: TypeAlias = messages.OpenRequested
    FindRequested: TypeAlias = messages.FindRequested
    Filtered: TypeAlias = messages.Filtered

    def action_find(self, step: int) -> None:
        self.post_message(FindRequested(step))

    def action_toggle_quiet(self) -> None:
        self.hide_quiet = not self.hide_quiet
        self.notify("Dim rows hidden" if self.hide_quiet else "Dim rows shown", timeout=1.5)

    def watch_hide_quiet(self) -> None:
        self._rebuild()
        self._keep_cursor_in_view()
