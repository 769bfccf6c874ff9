"""CI runs the README's test command, and every test: a test skipped there fails, saying why."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMAND = "pip install -e '.[test]' && pytest"


def test_ci_runs_the_readme_s_test_command_with_no_test_skipped() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert f"\n{COMMAND}\n" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert COMMAND in script and "export CLAUDE_TUI_CI=1" in script[: script.index(COMMAND)]
    assert script[-1] == "ruff check . && ruff format --check . && mypy"  # and then the house stays clean


def _pytest(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """A real-corpus test run where there is no corpus."""
    test = "tests/core/test_real_corpus.py::test_every_file_parses_and_no_record_is_lost"
    environ = {k: v for k, v in os.environ.items() if k != "CLAUDE_TUI_CI"}
    environ |= {"CLAUDE_TUI_CORPUS": str(tmp_path / "none"), **env}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'run'}", test]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=environ, timeout=120)


def test_a_run_lists_what_it_skipped_and_why(tmp_path: Path) -> None:
    out = _pytest(tmp_path)
    assert out.returncode == 0, out.stdout
    where = r"tests/core/test_real_corpus\.py:\d+"
    said = rf"SKIPPED \[1\] {where}: the real corpus is not present \({re.escape(str(tmp_path))}"
    assert re.search(said, out.stdout), out.stdout


def test_a_test_skipped_in_ci_fails(tmp_path: Path) -> None:
    out = _pytest(tmp_path, CLAUDE_TUI_CI="1")
    assert out.returncode == 1, out.stdout
    assert "skipped in CI (CLAUDE_TUI_CI=1), which must run every test: Skipped: the real corpus" in out.stdout
