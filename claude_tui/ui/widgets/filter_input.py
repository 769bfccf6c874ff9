"""The type-to-filter box above the project tree and the session list."""

from __future__ import annotations

from typing import ClassVar, Protocol, runtime_checkable

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Input

from claude_tui.ui.widgets.projects import ProjectTree
from claude_tui.ui.widgets.sessions import SessionList


@runtime_checkable
class RowOpener(Protocol):
    """The screen a filter box is on: it opens the row the filter left highlighted (a call, not a message: the
    keys typed right behind Enter are for where it puts the focus)."""

    def open_row(self, pane: ProjectTree | SessionList) -> None: ...


class FilterInput(Input):
    """Type-to-filter box above a list: Escape clears it; Enter opens the row the filter left highlighted,
    and Down moves on to the next, both back in the list (as a picker does). These keys act as they arrive, not
    once they have bubbled up to the app's bindings: the keys typed right behind them are for where they put the
    focus, not for the box."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear", "Clear filter", id="filter.clear"),
        Binding("enter", "open", "Open the highlighted row", id="filter.done", key_display="⏎"),
        Binding("down", "down", "Down the list", id="filter.down", key_display="↓"),
        Binding("up", "up", "Up the list", show=False, id="filter.up"),
    ]
    _ACTIONS = frozenset(binding.action for binding in BINDINGS if isinstance(binding, Binding))

    def __init__(self, target: str, placeholder: str, *, id: str) -> None:
        super().__init__(placeholder=placeholder, id=id, compact=True, select_on_focus=False)
        self.target = target

    async def _on_key(self, event: events.Key) -> None:
        """The box's own keys act now; a key sent here before one of them moved the focus away is not typed
        in: it goes on up, to the bindings of the widget that has the focus now."""
        focused = self.screen.focused is self  # not has_focus, which waits for the Blur queued behind this key
        if focused and not self.act_now(event.key):
            return  # Input types it
        event.prevent_default()
        if focused:
            event.stop()

    def act_now(self, key: str) -> bool:
        """Run the box's action bound to `key`, if it has one; the box has the focus."""
        bound = self.screen.active_bindings.get(key)
        if bound is None or bound.node is not self or bound.binding.action not in self._ACTIONS:
            return False
        getattr(self, f"action_{bound.binding.action}")()
        return True

    def reset(self) -> None:
        self.value = ""
        self.remove_class("-active")

    def action_clear(self) -> None:
        self.reset()
        self.action_done()

    def action_done(self) -> ProjectTree | SessionList:
        """Back to the list, filtered by what the box holds now (its Input.Changed may still be on its way);
        it is returned."""
        target = self.screen.query_one(f"#{self.target}")
        assert isinstance(target, ProjectTree | SessionList)
        target.set_filter(self.value)
        self.screen.set_focus(target)  # now: the keys typed next are the list's
        return target

    def action_open(self) -> None:
        screen = self.screen
        assert isinstance(screen, RowOpener)
        screen.open_row(self.action_done())

    def action_down(self) -> None:
        self._move(1)

    def action_up(self) -> None:
        self._move(-1)

    def _move(self, delta: int) -> None:
        target = self.action_done()
        if isinstance(target, SessionList):
            target.action_cursor(delta)
        elif delta > 0:
            target.action_cursor_down()
        else:
            target.action_cursor_up()
