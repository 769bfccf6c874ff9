"""Command palette: pane filters for the open session ("Show only Edit calls", "Show everything")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial

from textual.command import Hit, Hits, Provider

from claude_tui.ui.filters import PaneFilter
from claude_tui.ui.hosts import PaneHost


class PaneFilterProvider(Provider):
    """One command per tool the open session called, and one that shows everything again."""

    def _commands(self) -> list[tuple[str, str, Callable[[], None]]]:
        screen = self.screen
        if not isinstance(screen, PaneHost) or screen.conversation.session is None:
            return []
        view = screen.conversation
        with view.session_lock:
            counts = Counter(call.name for call in view.session.calls.values()) if view.session else Counter()
        out: list[tuple[str, str, Callable[[], None]]] = []
        if view.pane_filter is not None:
            out.append(("Show everything", f"instead of {view.pane_filter.label}", partial(view.set_pane_filter, None)))
        for name, count in counts.most_common():
            show = partial(view.set_pane_filter, PaneFilter("tool", name))
            out.append((f"Show {PaneFilter('tool', name).label}", f"{count:,} in this session", show))
        return out

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, help_text, callback in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), callback, help=help_text)
