"""R in the app: the terminal handed to a stand-in `claude` on PATH in the session's folder, the app back and
following what it wrote; and each case where it cannot run said in one line, nothing changed. (Headless, Textual
cannot suspend: `suspend` is stood in for here; tests/test_e2e_resume.py does the real one in tmux.)"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonl import Thread
from ui_support import CLOCK, browser_ready, demo_copy, handled, raised, settled

from claude_tui.core.library import Library
from claude_tui.ui.app import ClaudeTUI
from claude_tui.ui.config import Config
from claude_tui.ui.resume import AskScreen
from claude_tui.ui.widgets.sessions import SessionList

SID = "5ed31c36-bca8-40fd-8d24-f1a1f0af7901"
OTHER = "0b8e4f57-1111-4222-8333-444455556666"
FORK = "9a1b2c3d-0000-4000-8000-00000000f0e1"
#: A stand-in for claude: what it was run with and where, into $SEEN; then a prompt added to the session, as the
#: real one writes (a fork: into a new session's file beside it).
CLAUDE = """#!/bin/sh
pwd > "$SEEN"
printf '%s\\n' "$@" >> "$SEEN"
id={sid}; case "$*" in *--fork-session*) id={fork};; esac
file="$PROJECT/$id.jsonl"
now=$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)
printf '{{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"%s","sessionId":"%s","version":"2.1.9",\
"gitBranch":"main","type":"user","message":{{"role":"user","content":"carried on in claude"}},"uuid":"u-%s",\
"timestamp":"%s"}}\\n' "$(pwd)" "$id" "$id" "$now" >> "$file"
exit "${{EXIT:-0}}"
"""


class Handed:
    """Stands in for App.suspend: counts the times the terminal was handed over."""

    def __init__(self) -> None:
        self.times = 0

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        self.times += 1
        yield


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A project whose folder is here, its one session, a stand-in claude on PATH, and where it says what it saw."""
    work = tmp_path / "work" / "site"
    work.mkdir(parents=True)
    project = tmp_path / "projects" / "-work-site"
    thread = Thread(session_id=SID, cwd=str(work))
    thread.prompt("make the site")
    thread.answer()
    thread.write(project / f"{SID}.jsonl")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    claude = bin_dir / "claude"
    claude.write_text(CLAUDE.format(sid=SID, fork=FORK))
    claude.chmod(0o755)
    seen = tmp_path / "seen"
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("SEEN", str(seen))
    monkeypatch.setenv("PROJECT", str(project))
    return {"root": tmp_path / "projects", "project": project, "work": work, "seen": seen, "tmp": tmp_path}


def app_of(history: dict[str, Any], config: Config | None = None) -> tuple[ClaudeTUI, Handed]:
    roots = [history["root"]]
    app = ClaudeTUI(roots, clock=CLOCK, config=config, library=Library(roots, cache_dir=history["tmp"] / "cache"))
    handed = Handed()
    app.suspend = handed  # type: ignore[method-assign]
    return app, handed


def seen(history: dict[str, Any]) -> list[str]:
    path: Path = history["seen"]
    return path.read_text().splitlines() if path.exists() else []


def shows(app: ClaudeTUI, text: str) -> bool:
    view = app.main.conversation
    return any(text in entry.message.plain_text for entry in view.entries if entry.message is not None)


async def test_r_hands_the_terminal_to_claude_in_the_sessions_folder_and_follows_what_it_wrote(
    history: dict[str, Any],
) -> None:
    app, handed = app_of(history)
    async with app.run_test(size=(120, 36)) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("3", "R")
        await handled(pilot, app)
        assert handed.times == 1
        assert seen(history) == [str(history["work"]), "--resume", SID]
        view = app.main.conversation
        assert view.follow_mode
        await settled(pilot, lambda: shows(app, "carried on in claude"))
        assert view.session is not None and Path(view.session.path).name == f"{SID}.jsonl"


async def test_a_claude_that_failed_is_said(history: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """What it printed went with its screen (claude's "No conversation found"): the app says it failed."""
    monkeypatch.setenv("EXIT", "1")
    app, handed = app_of(history)
    async with app.run_test(size=(120, 36)) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("3", "R")
        await handled(pilot, app)
        assert handed.times == 1 and "claude exited with status 1" in [n.message for n in raised(app)]


async def test_the_fork_in_the_palette_follows_the_new_session_claude_started(history: dict[str, Any]) -> None:
    app, _ = app_of(history)
    async with app.run_test(size=(120, 36)) as pilot:
        await browser_ready(pilot, app)
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        await commands["Fork this session"].callback()
        assert seen(history) == [str(history["work"]), "--resume", SID, "--fork-session"]
        view = app.main.conversation
        await settled(pilot, lambda: view.session is not None and Path(view.session.path).stem == FORK)
        await settled(pilot, lambda: shows(app, "carried on in claude"))


async def on_the_other_session(pilot: Any, app: ClaudeTUI, history: dict[str, Any]) -> None:
    """The browser ready, the list focused, its cursor on OTHER (a session not open), written before the app ran."""
    await browser_ready(pilot, app)
    await pilot.press("2")
    sessions = app.main.query_one(SessionList)
    sessions.move_to(next(i for i, s in enumerate(sessions.shown) if s.id == OTHER))


def write_other(history: dict[str, Any]) -> None:
    other = Thread(session_id=OTHER, cwd=str(history["work"]))
    other.prompt("an older session")
    other.write(history["project"] / f"{OTHER}.jsonl")


async def test_r_in_the_list_resumes_the_session_under_its_cursor(history: dict[str, Any]) -> None:
    write_other(history)
    app, _ = app_of(history)
    async with app.run_test(size=(120, 36)) as pilot:
        await on_the_other_session(pilot, app, history)
        await pilot.press("R")
        await handled(pilot, app)
        assert seen(history) == [str(history["work"]), "--resume", OTHER]
        view = app.main.conversation
        await settled(pilot, lambda: view.session is not None and view.session.id == OTHER)


async def test_a_fork_from_the_list_follows_the_new_session_too(history: dict[str, Any]) -> None:
    """The session under the list's cursor is opened on coming back, after claude started the fork: its first read
    comes after that, and following still switches to the fork (started since the terminal was handed over)."""
    write_other(history)
    app, _ = app_of(history)
    async with app.run_test(size=(120, 36)) as pilot:
        await on_the_other_session(pilot, app, history)
        view, live, refresh = app.main.conversation, app.main.live, app.state.library.refresh

        def refresh_once_the_open_session_is_read(*args: Any) -> Any:
            """(thread) The order that needs the moment of the handover: the opened session read, then the fork
            found in the library."""
            deadline = time.monotonic() + 20
            while (session := view.session) is None or live._session is not session or session.id != OTHER:
                assert time.monotonic() < deadline, "the session opened was never read"
                time.sleep(0.01)
            app.state.library.refresh = refresh  # type: ignore[method-assign]
            return refresh(*args)

        app.state.library.refresh = refresh_once_the_open_session_is_read  # type: ignore[method-assign,assignment]
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        await commands["Fork this session"].callback()
        assert seen(history) == [str(history["work"]), "--resume", OTHER, "--fork-session"]
        await settled(pilot, lambda: view.session is not None and Path(view.session.path).stem == FORK)


async def test_y_copies_what_r_runs_and_the_palette_the_fork(history: dict[str, Any]) -> None:
    app, _ = app_of(history, Config(resume_command="ccw --resume {session_id}"))
    async with app.run_test(size=(120, 36)) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("3", "Y")
        await handled(pilot, app)
        assert app.clipboard == f"cd {history['work']} && ccw --resume {SID}"
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        await commands["Copy fork command"].callback()
        assert app.clipboard == f"cd {history['work']} && ccw --resume {SID} --fork-session"


@pytest.mark.parametrize(
    ("path", "cwd", "said"),
    [
        ("/nonexistent", None, "Cannot resume: no program 'claude' on PATH (see resume_command)"),
        (None, r"C:\Users\ada\site", r"Cannot resume: the session ran on another machine, in C:\Users\ada\site"),
    ],
)
async def test_what_cannot_run_is_said_and_nothing_changes(
    history: dict[str, Any], monkeypatch: pytest.MonkeyPatch, path: str | None, cwd: str | None, said: str
) -> None:
    """No claude on PATH; a session from another machine (a Windows folder)."""
    if path is not None:
        monkeypatch.setenv("PATH", path)
    if cwd is not None:
        thread = Thread(session_id=SID, cwd=cwd)
        thread.prompt("make the site")
        thread.write(history["project"] / f"{SID}.jsonl")
    app, handed = app_of(history)
    async with app.run_test(size=(120, 36)) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("3", "R")
        await handled(pilot, app)
        assert handed.times == 0 and not seen(history)
        assert said in [n.message for n in raised(app)]
        assert not app.main.conversation.follow_mode


@pytest.mark.parametrize("answer", ["n", "y"])
async def test_a_folder_gone_asks_to_run_in_the_current_folder(
    history: dict[str, Any], monkeypatch: pytest.MonkeyPatch, answer: str
) -> None:
    here = history["tmp"] / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    history["work"].rmdir()
    app, handed = app_of(history)
    async with app.run_test(size=(120, 36)) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("3", "R")
        await handled(pilot, app)
        assert isinstance(app.screen, AskScreen) and handed.times == 0
        assert f"folder {history['work']} no longer exists" in app.screen.question
        await pilot.press(answer)
        await handled(pilot, app)
        assert not isinstance(app.screen, AskScreen)
        if answer == "y":
            assert seen(history) == [str(here), "--resume", SID]
        else:
            assert handed.times == 0 and not seen(history)


def test_the_question_of_a_folder_gone_looks_like_this(snap_compare: Any, tmp_path: Path) -> None:
    """The small modal over the browser: the question, and its two keys."""
    app = ClaudeTUI([demo_copy(tmp_path)], clock=CLOCK)
    question = "The session's folder /home/ada/code/notes-api no longer exists. Resume in the current folder ~ instead?"

    async def ask(pilot: Any) -> None:
        await browser_ready(pilot, app)
        app.push_screen(AskScreen(question))
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 36), run_before=ask)


async def test_where_the_app_cannot_suspend_it_says_so_and_nothing_runs(history: dict[str, Any]) -> None:
    """Headless (and on the web), Textual cannot hand the terminal over: a notice, the app as it was."""
    roots = [history["root"]]
    app = ClaudeTUI(roots, clock=CLOCK, library=Library(roots, cache_dir=history["tmp"] / "cache"))
    async with app.run_test(size=(120, 36)) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("3", "R")
        await handled(pilot, app)
        assert "Cannot resume: App.suspend is not supported in this environment." in [n.message for n in raised(app)]
        assert not seen(history) and not app.main.conversation.follow_mode
