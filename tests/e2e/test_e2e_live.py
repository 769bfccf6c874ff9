"""End to end: `claude-tui --follow` in a real terminal (tmux) while another process writes the history."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from tests.e2e.test_e2e_tmux import BINARY, TMUX, Terminal
from tests.ui_support import demo_copy

pytestmark = pytest.mark.skipif(TMUX is None or not BINARY.exists(), reason="needs tmux and an installed claude-tui")

#: Appends records to a session file, a few at a time, some split mid-line, as Claude Code does.
WRITER = """
import sys, time, orjson
path, parent, cwd, session_id = sys.argv[1:5]
parent = parent or None
stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + f".{int(time.time() * 1000) % 1000:03d}Z"
def record(n, kind, message):
    global parent
    uuid = f"w{n:04d}"
    rec = {"parentUuid": parent, "isSidechain": False, "type": kind, "uuid": uuid, "cwd": cwd,
           "sessionId": session_id, "version": "2.1.9", "timestamp": stamp, "message": message}
    parent = uuid
    return orjson.dumps(rec) + b"\\n"
lines = [record(1, "user", {"role": "user", "content": "writer asks for the weather"})]
for i in range(2, 7):
    lines.append(record(i, "assistant", {"id": f"wm{i}", "model": "claude-sonnet-4-5-20250929", "role": "assistant",
        "content": [{"type": "text", "text": f"writer line {i}" + (" and goodbye" if i == 6 else "")}],
        "usage": {"input_tokens": 1, "output_tokens": 1}}))
with open(path, "ab") as f:
    for line in lines:
        half = len(line) // 2
        f.write(line[:half]); f.flush(); time.sleep(0.05)
        f.write(line[half:]); f.flush(); time.sleep(0.1)
"""


@pytest.fixture
def history(tmp_path: Path) -> Path:
    return demo_copy(tmp_path)


@pytest.fixture
def following(history: Path) -> Iterator[Terminal]:
    term = Terminal(f"claude-tui-live-{os.getpid()}")
    env = {k: os.environ[k] for k in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME") if k in os.environ}
    command = " ".join(
        [*(f"{k}={v}" for k, v in env.items()), "TERM=xterm-256color", str(BINARY), "--follow", "--projects-dir",
         str(history)]
    )  # fmt: skip
    term.tmux("new-session", "-d", "-s", "app", "-x", "140", "-y", "36", f"env {command}")
    term.tmux("resize-window", "-t", "app", "-x", "140", "-y", "36")
    try:
        yield term
    finally:
        subprocess.run([TMUX, "-L", term.socket, "kill-server"], capture_output=True)  # type: ignore[list-item]


def _last_record(path: Path) -> dict[str, object]:
    return orjson.loads(path.read_bytes().splitlines()[-1])


def write(path: Path, parent: str, cwd: str) -> None:
    """Run the writer process on `path` (records chained from `parent`), until it is done."""
    subprocess.run([sys.executable, "-c", WRITER, str(path), parent, cwd, path.stem], check=True, timeout=30)


def test_follow_shows_what_a_writer_appends(following: Terminal, history: Path) -> None:
    following.wait_for("Add token auth")  # the demo's newest session is open
    following.keys("3")  # into the conversation (a narrow terminal shows it alone)
    following.wait_for("following")
    session = next(history.glob("*feature-auth/3396f347*.jsonl"))
    last = _last_record(session)
    write(session, str(last["uuid"]), str(last["cwd"]))
    screen = following.wait_for("writer line 6 and goodbye")
    assert "writer asks for the weather" in screen
    assert "following" in screen
    # Claude Code starts a new session in the same project (/clear): the view moves to it and says so.
    write(session.with_name("fresh-session.jsonl"), "", str(last["cwd"]))
    following.wait_for("A new session started")
    following.keys("q")
    following.wait_closed()
