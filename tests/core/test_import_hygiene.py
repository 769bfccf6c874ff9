"""The house: the core imports nothing from Textual or Rich (it must run headless, in an index worker or a script),
no import loop anywhere, and no module over 800 lines."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import claude_tui.core

CORE_MODULES = sorted(m.name for m in pkgutil.walk_packages(claude_tui.core.__path__, "claude_tui.core."))
PACKAGE = Path(claude_tui.__file__).parent
#: The one import edge a loop may take: the model's data is recursive (a tool call holds its subagent's Session).
ALLOWED = {("claude_tui.core.model", "claude_tui.core.session")}
#: Lines a module may have: past that, it holds two objects (GUIDE §1).
MAX_LINES = 800
#: What widgets and drawing modules never import (issue 33): the screens, the app, Live and the palette providers.
ABOVE = ("claude_tui.ui.screens", "claude_tui.ui.app", "claude_tui.ui.live", "claude_tui.ui.palette_commands")


def test_core_modules_are_found() -> None:
    assert {"claude_tui.core.session", "claude_tui.core.index.store"} <= set(CORE_MODULES)


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_does_not_import_the_ui(module: str) -> None:
    code = f"import sys, {module}; bad = [m for m in ('textual', 'rich') if m in sys.modules]; print(','.join(bad))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"{module} imports {out}"


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_edges(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Each module's imports of the package's modules: every one, at module level, in a function or under
    TYPE_CHECKING (those hide a loop from Python, not from a reader)."""
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        out = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                out.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level:  # relative: from the package, up level - 1
                    module = ".".join([*package[: len(package) - node.level + 1], *([module] if module else [])])
                out.update(f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module for a in node.names)
        out |= {p for m in out for p in _packages_entered(m, name)}
        edges[name] = {m for m in out if m in modules and m != name}
    return edges


def _packages_entered(target: str, importer: str) -> list[str]:
    """The packages that importing `target` runs first (their `__init__`), but those `importer` is itself in:
    `a.b.c` from outside `a.b` runs `a.b`'s, whose own imports may lead back to the importer."""
    parts = target.split(".")
    packages = [".".join(parts[:i]) for i in range(1, len(parts))]
    return [p for p in packages if not (importer == p or importer.startswith(f"{p}."))]


def house_loops() -> list[list[str]]:
    """The import loops of the package, but for the allowed edge."""
    edges = import_edges(_modules())
    return loops({name: {m for m in out if (name, m) not in ALLOWED} for name, out in edges.items()})


def loops(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while (w := stack.pop()) != v:
                group.append(w)
            if group:
                found.append(sorted([v, *group]))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_loop_finder_finds_a_loop() -> None:
    assert loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_a_package_entered_from_outside_is_an_edge() -> None:
    """Importing a module of the conversation package runs the package's __init__ (and the view it imports)."""
    edges = import_edges(_modules())
    assert "claude_tui.ui.widgets.conversation" in edges["claude_tui.ui.palette_commands"]
    assert "claude_tui.ui.widgets.conversation" not in edges["claude_tui.ui.widgets.conversation.view"]


def test_imports_in_functions_and_under_type_checking_are_edges() -> None:
    edges = import_edges(_modules())
    assert "claude_tui.cli.library" in edges["claude_tui.cli.commands"]  # in a function
    assert "claude_tui.core.session" in edges["claude_tui.core.model"]  # under TYPE_CHECKING


def _in(layer: str, group: list[str]) -> bool:
    return any(m.startswith(f"claude_tui.{layer}") for m in group)


@pytest.mark.parametrize("layer", ["core", "cli", "ui"])
def test_no_import_loop(layer: str) -> None:
    found = [group for group in house_loops() if _in(layer, group)]
    assert found == [], f"import loops: {found}"


@pytest.mark.parametrize("layer", ["core", "cli", "ui"])
def test_no_module_over_800_lines(layer: str) -> None:
    sizes = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in _modules().items()}
    big = {name: n for name, n in sizes.items() if name.startswith(f"claude_tui.{layer}") and n > MAX_LINES}
    assert big == {}, f"modules over {MAX_LINES} lines: {big}"


def test_widgets_and_drawing_import_no_screen_nor_the_app() -> None:
    edges = import_edges(_modules())
    drawing = ("claude_tui.ui.render", "claude_tui.ui.lines", "claude_tui.ui.text", "claude_tui.ui.tools")
    low = [n for n in edges if n.startswith(("claude_tui.ui.widgets", *drawing))]
    assert {n: sorted(m for m in edges[n] if m.startswith(ABOVE)) for n in low} == {n: [] for n in low}


def test_in_the_ui_only_the_app_module_is_the_app() -> None:
    """No ui module imports the app: what they share is handed down (ui/state.py), what they ask is a host
    (ui/hosts.py); the launcher (cli/app.py) runs it."""
    edges = import_edges(_modules())
    assert sorted(n for n, out in edges.items() if "claude_tui.ui.app" in out and n.startswith("claude_tui.ui")) == []
