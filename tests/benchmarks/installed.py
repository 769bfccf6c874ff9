"""Benchmarks time claude-tui as an installed copy runs: with every module's bytecode compiled.

`pip install .` compiles it on install. A working copy installed with `pip install -e .` writes it on
first use, unless PYTHONDONTWRITEBYTECODE is set: then every run would compile each module changed
since its bytecode was last written, tens of ms that no user pays.
"""

from __future__ import annotations

import compileall
import sys
from pathlib import Path

try:
    import claude_tui
except ImportError:  # run by a Python that has not installed it: say so, not a traceback
    sys.exit(f"the benchmarks time the installed claude-tui: install it first (pip install -e .) for {sys.executable}")


def compile_package() -> None:
    compileall.compile_dir(Path(claude_tui.__file__).parent, quiet=1)
