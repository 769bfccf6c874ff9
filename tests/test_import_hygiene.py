"""The core imports nothing from Textual or Rich: it must run headless, in an index worker or a script."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import claude_tui.core

CORE_MODULES = sorted(f"claude_tui.core.{m.name}" for m in pkgutil.iter_modules(claude_tui.core.__path__))


def test_core_modules_are_found() -> None:
    assert "claude_tui.core.session" in CORE_MODULES


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_does_not_import_the_ui(module: str) -> None:
    code = f"import sys, {module}; bad = [m for m in ('textual', 'rich') if m in sys.modules]; print(','.join(bad))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"{module} imports {out}"
