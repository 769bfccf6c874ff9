"""Work in a forked child: the value comes back, and anything that goes wrong there is computed here."""

from __future__ import annotations

import os
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
