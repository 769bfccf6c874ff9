"""o opens the text in $PAGER: a pager that cannot be run is a notice, and the app is never left suspended."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.app import SuspendNotSupported

from claude_tui.ui.actions import open_in_pager


class FakeApp:
    """What open_in_pager uses of the app: notices, and suspending (counted, in and out)."""

    def __init__(self, can_suspend: bool = True) -> None:
        self.notices: list[str] = []
        self.suspended = self.resumed = 0
        self.can_suspend = can_suspend

    def notify(self, message: str, **_: Any) -> None:
        self.notices.append(message)

    @contextmanager
    def suspend(self) -> Iterator[None]:
        if not self.can_suspend:
            raise SuspendNotSupported("not here")
        self.suspended += 1
        yield
        self.resumed += 1  # as Textual does: only when the block ends without an error


@pytest.mark.parametrize(
    ("pager", "notice"),
    [
        ("nosuchpager", "Cannot open the pager $PAGER='nosuchpager': no program 'nosuchpager'"),
        ('less "-R', "Cannot open the pager $PAGER='less \"-R': No closing quotation"),
        ("   ", "Cannot open the pager $PAGER='   ': empty"),
    ],
)
def test_a_pager_that_cannot_run_is_said_before_suspending(
    pager: str, notice: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAGER", pager)
    app = FakeApp()
    open_in_pager(app, "text")  # type: ignore[arg-type]
    assert app.notices == [notice] and app.suspended == 0


@pytest.fixture
def seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where a $PAGER keeps what it was given (and, beside it in `seen.name`, its file's name)."""
    seen = tmp_path / "seen"
    script = tmp_path / "pager"
    script.write_text(f'#!/bin/sh\ncat "$1" > {seen}\necho "$1" >> {seen}.name\n')
    script.chmod(0o755)
    monkeypatch.setenv("PAGER", str(script))
    return seen


def test_the_pager_gets_the_text_in_a_file_removed_after(seen: Path) -> None:
    app = FakeApp()
    open_in_pager(app, "the whole output")  # type: ignore[arg-type]
    assert seen.read_text() == "the whole output" and app.notices == []
    assert (app.suspended, app.resumed) == (1, 1)
    assert not Path(seen.with_name("seen.name").read_text().strip()).exists()


def test_the_pager_gets_colours_but_no_other_escape(seen: Path) -> None:
    """less -R passes OSC 8 links and 8-bit CSI on to the terminal: they are made visible, as on screen."""
    hostile = "\x1b[31mred\x1b[0m \x1b]8;;http://evil.example/\x1b\\CLICK\x1b]8;;\x1b\\ \x9b31m \x1b]0;title\x07 \ud83d"
    open_in_pager(FakeApp(), hostile)  # type: ignore[arg-type]
    assert seen.read_text() == "\x1b[31mred\x1b[0m ␛]8;;http://evil.example/␛\\CLICK␛]8;;␛\\ \\x9b31m ␛]0;title␇ ?"


def test_no_suspending_here_is_a_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAGER", "true")
    app = FakeApp(can_suspend=False)
    open_in_pager(app, "text")  # type: ignore[arg-type]
    assert app.notices == ["Cannot open the pager: not here"]


def test_the_pager_runs_from_a_thread_too(seen: Path) -> None:
    """Only the main thread may set a signal handler: elsewhere the app does not sit ctrl+c out, and the pager runs."""
    app = FakeApp()
    worker = threading.Thread(target=open_in_pager, args=(app, "from a thread"))
    worker.start()
    worker.join()
    assert seen.read_text() == "from a thread" and (app.suspended, app.resumed) == (1, 1)
