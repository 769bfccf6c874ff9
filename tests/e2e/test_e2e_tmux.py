"""End to end: the installed `claude-tui --demo` in a real terminal (tmux), driven by keys, read off the screen."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
BINARY = Path(sys.executable).parent / "claude-tui"

pytestmark = pytest.mark.skipif(TMUX is None or not BINARY.exists(), reason="needs tmux and an installed claude-tui")


class Terminal:
    """One tmux session on its own server socket."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        return subprocess.run([TMUX, "-L", self.socket, *args], check=True, capture_output=True, text=True).stdout  # type: ignore[list-item]

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "app")

    def keys(self, *keys: str) -> None:
        """Type `keys` one by one, as a person would (focus moves between some of them)."""
        for key in keys:
            self.tmux("send-keys", "-t", "app", key)
            time.sleep(0.2)

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        return self.wait_until(lambda screen: text in screen, f"{text!r} never appeared", timeout)

    def wait_until(self, shown: Callable[[str], bool], failure: str, timeout: float = 20.0) -> str:
        """The screen, once `shown` holds of it; `failure` and the screen when it never does."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if shown(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{failure}; the screen was:\n{screen}")
            time.sleep(0.1)

    def wait_gone(self, text: str, timeout: float = 20.0) -> None:
        self.wait_until(lambda screen: text not in screen, f"{text!r} stayed on screen", timeout)

    def alive(self) -> bool:
        listed = subprocess.run([TMUX, "-L", self.socket, "list-sessions"], capture_output=True, text=True)  # type: ignore[list-item]
        return "app" in listed.stdout

    def wait_closed(self, timeout: float = 20.0) -> None:
        """Until the app has quit and its tmux session is gone."""
        deadline = time.monotonic() + timeout
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not self.alive()


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(f"claude-tui-test-{os.getpid()}")
    env = {k: os.environ[k] for k in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME") if k in os.environ}
    command = " ".join([*(f"{k}={v}" for k, v in env.items()), "TERM=xterm-256color", str(BINARY), "--demo"])
    term.tmux("new-session", "-d", "-s", "app", "-x", "120", "-y", "36", f"env {command}")
    term.tmux("resize-window", "-t", "app", "-x", "120", "-y", "36")
    try:
        yield term
    finally:
        subprocess.run([TMUX, "-L", term.socket, "kill-server"], capture_output=True)  # type: ignore[list-item]


def test_demo_in_a_real_terminal(terminal: Terminal) -> None:
    terminal.wait_for("Sessions")
    terminal.wait_for("Add token auth")  # the newest session is open
    for project in ("notes-api", "feature-auth", "weather-cli"):  # the tree's rows, once it has its height
        terminal.wait_for(project)
    terminal.keys("3")  # into the conversation
    terminal.keys("G")
    terminal.wait_for("no result")  # its last tool call never got one (and the demo is months old)
    terminal.keys("?")
    assert "app.search_all" in terminal.wait_for("First steps")  # the first steps over the keys, with their ids
    terminal.keys("Escape")
    terminal.wait_gone("claude-tui · keys")  # (keys sent with an Escape at once would read as alt+key)
    terminal.keys("1", "j")  # from feature-auth down to scratch
    terminal.wait_for("port 5432")
    terminal.keys("q")
    terminal.wait_closed()


def test_keys_sent_in_one_burst_with_ctrl_k_are_the_query(terminal: Terminal) -> None:
    """ctrl+k, a word and Enter in one send-keys (as a person types them, or over SSH): the search screen opened
    with an empty query, the word typed into the session list's filter."""
    terminal.wait_for("Add token auth")  # the newest session is open
    terminal.tmux("send-keys", "-t", "app", "C-k", *"token", "Enter")  # one write to the terminal: a burst
    terminal.wait_for("messages, newest first")

    def query(screen: str) -> str:  # the query box, under the title
        lines = screen.splitlines()
        title = next(i for i, line in enumerate(lines) if line.strip() == "Search all sessions")
        return lines[title + 2].strip()

    # A busy machine shows the first letters' hits before the last letters are drawn: wait for the whole word.
    screen = terminal.wait_until(lambda screen: query(screen) == "token", "the query box never held 'token'")
    assert query(screen) == "token"
