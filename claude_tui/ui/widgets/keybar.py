"""The key bar at the bottom: the keys that work where the focus is, clickable.

One line of text instead of a widget per key: it is redrawn when the focus moves,
which a footer of many widgets makes slow.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Static


class KeyBar(Static):
    """Keys of the focused widget, its screen and the app (those marked `show`)."""

    DEFAULT_CSS = """
    KeyBar {
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self._spans: list[tuple[int, int, DOMNode, str]] = []

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if self.is_attached and screen is self.screen:
            self._draw()

    def _draw(self) -> None:
        """The keys that fit, whole: the last ones give way first, but never `?` (which lists them all);
        the palette's key at the right when there is room."""
        key_style = f"bold {self.app.get_css_variables().get('footer-key-foreground', '')}"
        entries: list[tuple[str, str, DOMNode, str]] = []
        seen: set[str] = set()
        for node, binding, enabled, _ in self.screen.active_bindings.values():
            if not binding.show or binding.action in seen or not enabled:
                continue
            seen.add(binding.action)
            entries.append((f" {self.app.get_key_display(binding)} ", binding.description + " ", node, binding.action))
        width = self.size.width
        while _cells(entries) > width:
            droppable = [i for i, entry in enumerate(entries) if entry[3] != "help"]
            if not droppable:
                break
            del entries[droppable[-1]]
        palette = (" ^p", " palette ", self.app, "command_palette")
        if _cells([*entries, palette]) + 1 <= width:
            entries.append(palette)
        text = Text(no_wrap=True, overflow="ellipsis")
        spans: list[tuple[int, int, DOMNode, str]] = []
        for key, description, node, action in entries:
            if action == "command_palette":
                text.append(" " * (width - text.cell_len - cell_len(key + description)))
            start = len(text)
            text.append(key, key_style)
            text.append(description)
            spans.append((start, len(text), node, action))
        self._spans = spans
        self.update(text)

    async def on_click(self, event: events.Click) -> None:
        for start, end, node, action in self._spans:
            if start <= event.x < end:
                await self.app.run_action(action, node)
                return

    def on_resize(self) -> None:
        self._draw()


def _cells(entries: list[tuple[str, str, DOMNode, str]]) -> int:
    return sum(cell_len(key + description) for key, description, _, _ in entries)
