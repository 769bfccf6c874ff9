"""Indexing from inside the app: a worker thread, spawned processes, and a stderr with no file descriptor."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from claude_tui.core.index import store
from claude_tui.core.library import Library


class NoFdStream:
    """What a TUI puts in sys.stderr: writable, but fileno() is -1."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        return -1


def test_cold_index_with_workers_from_a_thread(
    real_projects: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "POOL_MIN_BYTES", 0)  # use worker processes even for a small history
    monkeypatch.setattr(sys, "stderr", NoFdStream())
    found: list[int] = []
    errors: list[BaseException] = []

    def refresh() -> None:
        try:
            library = Library([real_projects], cache_dir=tmp_path / "cache")
            library.refresh()
            found.append(len(library.projects))
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=refresh)  # the app refreshes from a thread: workers are spawned
    thread.start()
    thread.join(120)
    assert not errors, errors
    assert found and found[0] > 10
