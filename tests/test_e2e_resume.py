"""End to end: R in a real terminal (tmux) hands it to a stand-in `claude` on PATH, in the session's folder; the app
comes back when it exits (a ctrl+c typed to it included) and shows what it wrote."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from jsonl import Thread
from test_e2e_tmux import BINARY, TMUX, Terminal

pytestmark = pytest.mark.skipif(TMUX is None or not BINARY.exists(), reason="needs tmux and an installed claude-tui")

SID = "5ed31c36-bca8-40fd-8d24-f1a1f0af7901"
#: Says where it runs and with what into $SEEN, adds a prompt to the session as claude would (LINE), and waits
#: for Enter.
CLAUDE = """#!/bin/sh
pwd > "$SEEN"
printf '%s\\n' "$@" >> "$SEEN"
echo '{line}' >> "$SESSION"
echo "stand-in claude: Enter quits"
read answer
"""


@pytest.fixture
def resumed(tmp_path: Path) -> Iterator[tuple[Terminal, Path, Path]]:
    """claude-tui on one project whose folder is here, a stand-in claude first on its PATH."""
    work = tmp_path / "work" / "site"
    work.mkdir(parents=True)
    thread = Thread(session_id=SID, cwd=str(work))
    thread.prompt("make the site")
    thread.answer()
    session = thread.write(tmp_path / "projects" / "-work-site" / f"{SID}.jsonl")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    thread.prompt("typed in the stand-in claude")  # the record claude adds: its line, not in the file yet
    line = orjson.dumps(thread.records.pop()).decode()
    (bin_dir / "claude").write_text(CLAUDE.format(line=line))
    (bin_dir / "claude").chmod(0o755)
    seen = tmp_path / "seen"
    env = {k: os.environ[k] for k in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME") if k in os.environ}
    env |= {"PATH": f"{bin_dir}:{os.environ['PATH']}", "SEEN": str(seen), "SESSION": str(session)}
    command = " ".join([*(f"{k}={v}" for k, v in env.items()), "TERM=xterm-256color", str(BINARY), "--projects-dir"])
    term = Terminal(f"claude-tui-resume-{os.getpid()}")
    term.tmux("new-session", "-d", "-s", "app", "-x", "120", "-y", "36", f"env {command} {tmp_path / 'projects'}")
    term.tmux("resize-window", "-t", "app", "-x", "120", "-y", "36")
    try:
        yield term, seen, work
    finally:
        subprocess.run([TMUX, "-L", term.socket, "kill-server"], capture_output=True)  # type: ignore[list-item]


@pytest.mark.parametrize("leave", ["Enter", "C-c"])
def test_r_hands_the_terminal_to_claude_and_takes_it_back(resumed: tuple[Terminal, Path, Path], leave: str) -> None:
    terminal, seen, work = resumed
    terminal.wait_for("make the site")
    terminal.keys("3", "R")
    terminal.wait_for("stand-in claude: Enter quits")  # the terminal is claude's: the app's screen is gone
    assert "Sessions" not in terminal.screen()
    assert seen.read_text().splitlines() == [str(work), "--resume", SID]
    terminal.keys(leave)  # ctrl+c is claude's to take: the app sits it out
    terminal.wait_for("typed in the stand-in claude")  # back, showing what claude wrote
    screen = terminal.wait_for("● following")  # the whole screen drawn again, following the session
    assert "stand-in claude: Enter quits" not in screen and "invalid JSON" not in screen
    assert terminal.alive()
