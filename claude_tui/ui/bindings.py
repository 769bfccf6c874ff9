"""Bindings shared by the app's cursor lists (sessions, search hits): each list gets its own ids."""

from __future__ import annotations

from textual.binding import Binding

#: A cursor move long enough to reach either end of any list (the lists clamp it).
_EDGE = 1_000_000


def cursor_bindings(prefix: str) -> list[Binding]:
    """Up, down, page and first/last moves for a list whose `action_cursor(delta)` clamps; ids `prefix.*`."""
    return [
        Binding("j,down", "cursor(1)", "Down", show=False, id=f"{prefix}.down"),
        Binding("k,up", "cursor(-1)", "Up", show=False, id=f"{prefix}.up"),
        Binding("pagedown", "cursor(10)", "Page down", show=False, id=f"{prefix}.page_down"),
        Binding("pageup", "cursor(-10)", "Page up", show=False, id=f"{prefix}.page_up"),
        Binding("g,home", f"cursor(-{_EDGE})", "First", show=False, id=f"{prefix}.first"),
        Binding("G,end", f"cursor({_EDGE})", "Last", show=False, id=f"{prefix}.last"),
    ]
