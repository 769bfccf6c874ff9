"""Bindings shared by the app's cursor lists (sessions, search hits): each list gets its own ids;
and the key of a binding by its id, as a hint shows it."""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import App
from textual.binding import Binding, BindingType

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


def key_display(app: App[object], bindings: Iterable[BindingType], binding_id: str) -> str:
    """How the key of the binding `binding_id` among `bindings` is shown ("" when there is none)."""
    binding = next((b for b in bindings if isinstance(b, Binding) and b.id == binding_id), None)
    return app.get_key_display(binding) if binding is not None else ""
