"""Benchmarks time claude-tui as an installed copy runs: with every module's bytecode compiled.

`pip install .` compiles it on install. A working copy installed with `pip install -e .` writes it on
first use, unless PYTHONDONTWRITEBYTECODE is set: then every run would compile each module changed
since its bytecode was last written, tens of ms that no user pays.
"""

from __future__ import annotations

import compileall
from pathlib import Path

import claude_tui


def compile_package() -> None:
    compileall.compile_dir(Path(claude_tui.__file__).parent, quiet=1)
