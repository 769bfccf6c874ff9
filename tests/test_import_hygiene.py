"""The core imports nothing from Textual or Rich: it must run headless, in an index worker or a script."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import claude_tui
import claude_tui.core

CORE_MODULES = sorted(f"claude_tui.core.{m.name}" for m in pkgutil.iter_modules(claude_tui.core.__path__))


def test_core_modules_are_found() -> None:
    assert "claude_tui.core.session" in CORE_MODULES


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_does_not_import_the_ui(module: str) -> None:
    code = f"import sys, {module}; bad = [m for m in ('textual', 'rich') if m in sys.modules]; print(','.join(bad))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"{module} imports {out}"


# ---------------------------------------------------------------- the ui's house (issue 33)

UI = Path(claude_tui.__file__).parent / "ui"
#: Lines a ui module may have: past this it holds two objects (GUIDE.md §1).
MOST_LINES = 800
#: What widgets and drawing modules never import: the screens, the app, Live and the palette providers.
ABOVE = ("claude_tui.ui.screens", "claude_tui.ui.app", "claude_tui.ui.live", "claude_tui.ui.palette_commands")


def _ui_modules() -> dict[str, Path]:
    modules = {}
    for path in UI.rglob("*.py"):
        parts = path.relative_to(UI.parent.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every ui module `name` imports: at module level, in functions, under TYPE_CHECKING."""
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    [*package.split(".")[: len(package.split(".")) - node.level + 1], *filter(None, [base])]
                )
            out.update(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names)
    return {m for m in out if m in known and m != name}


def _edges() -> dict[str, set[str]]:
    known = _ui_modules()
    return {name: _imports(name, path, known) for name, path in known.items()}


def test_the_ui_has_no_import_loop() -> None:
    edges = _edges()
    loops = []
    for start in edges:  # a path from a module back to itself
        seen, todo = set(), list(edges[start])
        while todo:
            module = todo.pop()
            if module == start:
                loops.append(start)
                break
            if module not in seen:
                seen.add(module)
                todo.extend(edges[module])
    assert loops == []


def test_no_ui_module_is_over_800_lines() -> None:
    sizes = {name: len(path.read_text().splitlines()) for name, path in _ui_modules().items()}
    assert {name: n for name, n in sizes.items() if n > MOST_LINES} == {}


def test_widgets_and_drawing_import_no_screen_nor_the_app() -> None:
    edges = _edges()
    low = [n for n in edges if n.startswith("claude_tui.ui.widgets") or n.split(".")[-1] in ("render", "lines", "text")]
    assert {n: sorted(m for m in edges[n] if m.startswith(ABOVE)) for n in low} == {n: [] for n in low}


def test_only_the_app_module_imports_the_app() -> None:
    edges = _edges()
    importers = {n for n, out in edges.items() if "claude_tui.ui.app" in out}
    assert importers <= {"claude_tui.ui.launch"}, sorted(importers)  # the launcher runs it
