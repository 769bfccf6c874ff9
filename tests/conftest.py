"""Shared test fixtures: our own fixture files, and the real corpus when it sits beside the repo."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
SHARED_CORPUS = Path(os.environ.get("CLAUDE_TUI_CORPUS", ROOT.parent / "shared" / "corpus"))
REAL_PROJECTS = SHARED_CORPUS / "real" / "projects"

# Property tests: a quick run by default; `pytest --hypothesis-profile=soak` for a long one.
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]
settings.register_profile("default", max_examples=200, deadline=None, suppress_health_check=_QUIET)
settings.register_profile("soak", max_examples=20_000, deadline=None, suppress_health_check=_QUIET)
settings.load_profile("default")


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture
def real_projects() -> Path:
    """The real sessions in ../shared/corpus; tests using it skip in a user's clone without it."""
    if not REAL_PROJECTS.is_dir():
        pytest.skip("../shared/corpus/real is not present")
    return REAL_PROJECTS


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never let a test read the developer's own ~/.claude or write to their cache or config."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_TUI_CACHE_DIR", raising=False)


@pytest.fixture(autouse=True)
def _truecolor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw as a truecolor terminal does, whatever TERM the tests run under: with 16 colours the app picks other
    colours (tests/test_ui_colors.py)."""
    monkeypatch.setenv("COLORTERM", "truecolor")


@pytest.fixture
def zone() -> Iterator[Callable[[str], None]]:
    """Sets the local time zone (TZ) for the test; the one before is back after it."""
    before = os.environ.get("TZ")

    def use(name: str) -> None:
        os.environ["TZ"] = name
        time.tzset()

    yield use
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()
