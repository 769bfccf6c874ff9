"""Bindings shared by the app's cursor lists (sessions, search hits): each list gets its own ids;
the keys of a binding as people see them, after the keymap of the user's config file; and the checks of that
keymap (ids that no binding has, keys that two bindings of one place would share)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from textual.app import App
from textual.binding import Binding, BindingType
from textual.dom import DOMNode

#: A cursor move long enough to reach either end of any list (the lists clamp it).
_EDGE = 1_000_000
#: The actions of `cursor_bindings`: moves that change neither the focus nor the screen (see keygate.py).
CURSOR_MOVES = frozenset({"cursor"})


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


def keymap_of(app: App[Any]) -> dict[str, str]:
    """The app's keymap: binding id -> keys, as the config file remaps them (Textual keeps it private)."""
    return dict(getattr(app, "_keymap", {}))


def shown_keys(binding: Binding, keymap: dict[str, str], display: Callable[[Binding], str]) -> list[str]:
    """The keys of `binding` as shown to people, after `keymap`."""
    shown = []
    for key in keymap.get(binding.id or "", binding.key).split(","):
        key = key.strip()
        if key == binding.key and binding.key_display:
            shown.append(binding.key_display)
        else:
            shown.append(display(Binding(key, binding.action)))
    return list(dict.fromkeys(shown))


def key_display(app: App[object], bindings: Iterable[BindingType], binding_id: str, prefer: str = "") -> str:
    """The key a hint names for the binding `binding_id` among `bindings`, as remapped: `prefer` while
    it is one of its keys, else its first ("" when there is no such binding)."""
    binding = next((b for b in bindings if isinstance(b, Binding) and b.id == binding_id), None)
    if binding is None:
        return ""
    keys = shown_keys(binding, keymap_of(app), app.get_key_display)
    return prefer if prefer in keys else keys[0]


def key_clashes(owners: list[type[DOMNode]], keymap: dict[str, str]) -> list[str]:
    """Remapped keys that another binding of the same place already has: only one of them would work."""
    clashes = []
    for owner in owners:
        taken: dict[str, str] = {}
        for binding in owner.BINDINGS:
            if not isinstance(binding, Binding) or not binding.id:
                continue
            for key in keymap.get(binding.id, binding.key).split(","):
                other = taken.setdefault(key.strip(), binding.id)
                if other != binding.id and (binding.id in keymap or other in keymap):
                    clashes.append(f"key {key.strip()!r} is both {other} and {binding.id}")
    return clashes


def unknown_ids(owners: list[type[DOMNode]], keymap: dict[str, str]) -> list[str]:
    """Ids in the keymap that no binding has (a typo: the remap would do nothing)."""
    known = {b.id for owner in owners for b in owner.BINDINGS if isinstance(b, Binding) and b.id}
    return [f"keys.{name} is no binding's id (the help screen, ?, lists them)" for name in keymap if name not in known]
