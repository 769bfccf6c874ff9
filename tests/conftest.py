"""Shared test fixtures: our own fixture files, the real corpus when it sits beside the repo, a user whom
file modes deny; and CI's rule that no test is skipped there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from claude_tui.core import session

session.STRICT = True  # a defect met in a record fails the test that meets it (a person gets a note, see UNREAD)

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
#: $CLAUDE_TUI_CORPUS, else shared/corpus beside the checkout (../shared/corpus: CI's layout) or beside a folder
#: above it (a git worktree's, as ../../shared/corpus).
SHARED_CORPUS = Path(
    os.environ.get("CLAUDE_TUI_CORPUS")
    or next(
        (p / "shared" / "corpus" for p in ROOT.parents if (p / "shared" / "corpus").is_dir()),
        ROOT.parent / "shared" / "corpus",
    )
)
REAL_PROJECTS = SHARED_CORPUS / "real" / "projects"
#: Set by .ci/run: a test skipped there is a failure (the machine has everything every test needs).
CI = os.environ.get("CLAUDE_TUI_CI") == "1"
#: The user file modes deny when the tests run as root.
NOBODY = 65534

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
        pytest.skip(f"the real corpus is not present ({REAL_PROJECTS}; CLAUDE_TUI_CORPUS names another)")
    return REAL_PROJECTS


@pytest.fixture
def unprivileged() -> Iterator[tuple[list[str], Path]]:
    """What runs a command as a user whom file modes deny (this one; as root, nobody through setpriv: root reads
    everything), put before the command; and a folder that user can enter, removed after."""
    as_user: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root, and no setpriv to run a check as an unprivileged user")
        as_user = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        probe = [*as_user, sys.executable, "-m", "claude_tui", "--version"]
        out = subprocess.run(probe, capture_output=True, text=True, timeout=60, cwd=ROOT)
        if out.returncode != 0:
            pytest.skip(f"cannot run claude-tui as uid {NOBODY}: {out.stderr.strip()[:200]}")
    folder = Path(tempfile.mkdtemp(prefix="claude-tui-perm-"))
    folder.chmod(0o755)
    try:
        yield as_user, folder
    finally:
        shutil.rmtree(folder)  # as root, whatever the modes inside


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """In CI, a skipped test fails, saying why it was skipped."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped in CI (CLAUDE_TUI_CI=1), which must run every test: {reason}"


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
def _notifications_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each notification an app raises is kept in `app._notifications.raised` (ui_support.raised), where Textual
    lets it go after its timeout: on a busy machine, a test could look after it expired."""
    from textual.notifications import Notifications

    add = Notifications.add

    def keep(self: Notifications, notification: Any) -> Notifications:
        self.__dict__.setdefault("raised", []).append(notification)
        return add(self, notification)

    monkeypatch.setattr(Notifications, "add", keep)


@pytest.fixture(autouse=True)
def _truecolor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw as a truecolor terminal does, whatever TERM the tests run under: with 16 colours the app picks other
    colours (tests/ui/test_ui_colors.py)."""
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
