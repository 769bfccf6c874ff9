"""Work in a forked child: the value comes back, and anything that goes wrong there is computed here."""

from __future__ import annotations

import os
import select
import threading

import pytest

from claude_tui.core import forked
from claude_tui.core.forked import Forked

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def _pid_and(value: object) -> tuple[int, object]:
    return os.getpid(), value


def _fail() -> str:
    if os.getpid() != PARENT:
        raise RuntimeError("only in the child")
    return "computed here"


PARENT = os.getpid()


def test_value_comes_from_a_child() -> None:
    with Forked(_pid_and, {"leaf": "summary", "n": [1, 2.5, None]}) as job:
        pid, value = job.result()
    assert pid != os.getpid()
    assert value == {"leaf": "summary", "n": [1, 2.5, None]}


def test_a_child_that_fails_is_replaced_by_the_parent() -> None:
    with Forked(_fail) as job:
        assert job.result() == "computed here"


def test_a_big_result_not_asked_for_leaves_no_child_behind() -> None:
    with Forked(_pid_and, "x" * (4 << 20)) as job:
        pid = job._pid
    assert pid is not None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_no_fork_with_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert not forked.can_fork()
    with Forked(_pid_and, 1) as job:
        assert job.result() == (os.getpid(), 1)


def test_the_value_is_taken_before_the_child_has_exited(monkeypatch: pytest.MonkeyPatch) -> None:
    """A child's exit (its memory let go: milliseconds for a big one) is not waited for; it is reaped later."""
    hold, release = os.pipe()
    real_exit = os._exit

    def held_exit(code: int) -> None:  # in the child: leave only once the test says so (or after a minute)
        select.select([hold], [], [], 60)
        real_exit(code)

    monkeypatch.setattr(os, "_exit", held_exit)
    with Forked(_pid_and, "sent") as job:
        pid = job._pid
        assert pid is not None
        assert job.result()[1] == "sent"  # waiting for the exit here would take the minute
        assert os.waitpid(pid, os.WNOHANG) == (0, 0)  # still there
    assert pid in forked._EXITING
    os.write(release, b"x")
    assert os.waitpid(pid, 0)[1] == 0  # it then exits cleanly
    forked._reap_exited()  # a pid reaped elsewhere is forgotten
    assert pid not in forked._EXITING
