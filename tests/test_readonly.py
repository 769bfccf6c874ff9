"""The proof that claude-tui never writes to a history: bytes, times, inodes and entries before and after.

A history (the real corpus, our fixtures, the demo, the hostile file, and a FIFO, a directory and a
symbolic link loop where session files live) is copied to tmp_path and snapshotted; then every
command that reads it runs (stats, export, index, search, the app browsing and following), and the
snapshot must be exactly the same: nothing written, created, renamed, chmod-ed or touched.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from claude_tui.cli import main
from claude_tui.core.files import project_dirs, session_files, sibling_summaries
from claude_tui.core.loader import read_session
from claude_tui.core.tail import SessionTail
from tests.conftest import FIXTURES
from tests.hostile import SESSION_ID, write_hostile

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "claude_tui" / "demo" / "projects"


def snapshot(root: Path) -> dict[str, tuple[Any, ...]]:
    """Every entry under `root` (links not followed): kind, mode, inode, size, mtime and ctime in ns,
    and a digest of the bytes of regular files. ctime moves on any write, chmod, link or rename."""
    out: dict[str, tuple[Any, ...]] = {}
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = os.path.join(folder, name)
            st = os.lstat(path)
            digest = None
            if stat.S_ISREG(st.st_mode):
                with open(path, "rb") as f:  # the test's own read, not the code under test
                    digest = hashlib.blake2b(f.read(), digest_size=16).hexdigest()
            out[os.path.relpath(path, root)] = (
                stat.S_IFMT(st.st_mode),
                stat.S_IMODE(st.st_mode),
                st.st_ino,
                st.st_size,
                st.st_mtime_ns,
                st.st_ctime_ns,
                digest,
            )
    return out


@pytest.fixture
def history(tmp_path: Path, real_projects: Path) -> Path:
    """A Claude home with every kind of session we know; returns its projects folder."""
    projects = tmp_path / "claude" / "projects"
    shutil.copytree(real_projects, projects, symlinks=True)
    shutil.copytree(FIXTURES / "projects" / "-home-u-proj", projects / "-home-u-proj")
    shapes = projects / "-home-u-shapes"
    shapes.mkdir()
    for fixture in FIXTURES.glob("*.jsonl"):
        shutil.copy2(fixture, shapes / fixture.name)
    shutil.copytree(DEMO, projects, dirs_exist_ok=True)
    shutil.copytree(DEMO.parent / "plans", projects.parent / "plans")
    write_hostile(projects / "-home-u-hostile" / f"{SESSION_ID}.jsonl", big=False)
    strange = projects / "-home-u-strange"
    strange.mkdir()
    shutil.copy2(shapes / "fork.jsonl", strange / "ok.jsonl")
    os.mkfifo(strange / "fifo.jsonl")
    os.mkfifo(strange / "agent-fifo.jsonl")
    (strange / "dir.jsonl").mkdir()
    (strange / "loop.jsonl").symlink_to(strange / "loop2.jsonl")
    (strange / "loop2.jsonl").symlink_to(strange / "loop.jsonl")
    for path in [projects, *projects.rglob("*")]:
        if not path.is_symlink():
            os.utime(path, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    return projects


@pytest.fixture
def env(tmp_path: Path, history: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment of every run: the history as the Claude home, the cache outside it."""
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(history.parent))
    monkeypatch.setenv("CLAUDE_TUI_CACHE_DIR", str(tmp_path / "cache"))
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(
        [sys.executable, "-m", "claude_tui", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )
    assert "Traceback" not in out.stderr, out.stderr
    return out


def sessions(history: Path) -> list[Path]:
    return [f for p in project_dirs(history) for f in session_files(p)]


def test_history_is_what_we_think(history: Path) -> None:
    """The copied history holds what the proof is about (else it would prove nothing)."""
    found = sessions(history)
    assert len(found) > 100
    assert any(p.name.startswith("agent-") for p in history.rglob("*.jsonl"))
    assert any(p.parent.name == "subagents" for p in history.rglob("*.jsonl"))
    assert stat.S_ISFIFO(os.lstat(history / "-home-u-strange" / "fifo.jsonl").st_mode)


def test_commands_never_touch_the_history(
    history: Path, env: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(history.parent)
    files = sessions(history)
    assert main(["stats", "--json", *map(str, files)]) == 0
    assert capsys.readouterr().out.count("\n") == len(files)
    out = tmp_path / "out"
    out.mkdir()
    for path in files[:: max(1, len(files) // 8)]:
        for fmt in ("markdown", "html", "json"):
            target = out / f"{path.stem}.{fmt}"
            assert main(["export", str(path), "--format", fmt, "-o", str(target)]) == 0
            assert target.stat().st_size > 0
    assert main(["export", str(files[0]), "-o", str(files[0].parent / "x.md")]) == 2
    assert "refusing to write under a projects folder" in capsys.readouterr().err
    for _ in range(2):  # built, then refreshed
        indexed = run(env, "index")
        assert indexed.returncode == 0, indexed.stderr
    assert any((tmp_path / "cache").iterdir())
    for query in (["fork"], ["the", "--json"], ["\x1b]0;title"], ['"not bold"']):
        searched = run(env, "search", *query)
        assert searched.returncode in (0, 1), searched.stderr
    assert snapshot(history.parent) == before


def test_reading_and_following_never_touch_the_history(history: Path, env: dict[str, str]) -> None:
    before = snapshot(history.parent)
    for path in sessions(history):
        read_session(path)
        sibling_summaries(path)
        tail = SessionTail(path)
        tail.poll(limit=256 * 1024)
        while not tail.caught_up and not tail.error:
            tail.poll(limit=256 * 1024)
        tail.poll()  # following: nothing new
    assert snapshot(history.parent) == before


def test_the_code_opens_files_only_through_open_readonly() -> None:
    """No open() for writing in the core, and session files only through reader.open_readonly."""
    core = ROOT / "claude_tui" / "core"
    writers = re.compile(r"""open\([^)]*["'](?:[wax]|r\+)b?["']|\.write_(?:text|bytes)\(|os\.O_(?:WRONLY|RDWR|CREAT)""")
    for path in core.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        if path.relative_to(core).as_posix() in ("library.py", "index/store.py"):  # the cache: outside the history
            continue
        assert not writers.search(source), path.name
        assert not re.search(r"(?<![\w.])open\(", source), f"{path.name}: use reader.open_readonly"


async def test_the_app_browsing_and_following_never_touches_the_history(
    history: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app on the copied history: the library read and indexed, sessions opened one after another,
    a tool call's detail, then a session opened at its end to follow it."""
    from ui_support import CLOCK, browser_ready, drained, loaded, settled

    from claude_tui.ui import live
    from claude_tui.ui.app import ClaudeTUI
    from claude_tui.ui.screens.detail import DetailScreen

    watching: list[Path] = []  # the roots the app watches, once its watcher is loaded
    watch_roots = live.watch_roots

    async def watched(roots: list[Path], *args: Any) -> Any:
        watching.extend(roots)
        async for changes in watch_roots(roots, *args):
            yield changes

    monkeypatch.setattr(live, "watch_roots", watched)

    # Indexed first: the app's own first indexing uses worker processes, which cannot start under Textual's
    # captured stderr (fileno() is -1: "bad value(s) in fds_to_keep"), an index bug reported separately.
    assert run(env, "index").returncode == 0
    before = snapshot(history.parent)
    app = ClaudeTUI([history], clock=CLOCK)
    async with app.run_test(size=(160, 45)) as pilot:
        view = await browser_ready(pilot, app)
        opened = {view.session.path} if view.session else set()
        for keys in (("1", "j"), ("2", "j"), ("1", "j", "j"), ("2", "G"), ("1", "G")):
            await pilot.press(*keys)
            await settled(pilot, lambda: view.session is not None and not view.reading)
            opened.add(view.session.path)  # type: ignore[union-attr]
        assert len(opened) >= 4
        await pilot.press("3", "e", "enter")  # the conversation, the next tool call, its detail
        await settled(pilot, lambda: isinstance(app.screen, DetailScreen) or view.cursor is None)
        await pilot.press("escape")
    hostile = history / "-home-u-hostile" / f"{SESSION_ID}.jsonl"
    app = ClaudeTUI([history], session=hostile, follow=True, clock=CLOCK)
    async with app.run_test(size=(160, 45)) as pilot:
        view = await loaded(pilot, app)
        await settled(pilot, lambda: not view.reading)
        assert view.session is not None and view.session.records > 50
        # following: the watcher up, the read it asks for then done, the index brought up to date
        await settled(pilot, lambda: watching and not view.reading and app.main._up_to_date)
        await drained(pilot)
    assert snapshot(history.parent) == before
