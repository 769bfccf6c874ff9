"""Pilot tests of the live app: records appended while it runs show up without a key press."""

from __future__ import annotations

import gc
import os
import sqlite3
import threading
import time
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import orjson
import pytest
from ui_support import (
    CLOCK,
    NoLibrary,
    browser_ready,
    demo_copy,
    drained,
    find,
    loaded,
    palette,
    raised,
    read_to_end,
    session_app,
    settled,
)

from claude_tui.core.index import locks
from claude_tui.core.index.schema import DB_NAME, cache_dir
from claude_tui.core.library import Library
from claude_tui.core.session import Session
from claude_tui.core.times import parse_time
from claude_tui.core.watch import Changes
from claude_tui.ui import live as live_module
from claude_tui.ui.app import ClaudeTUI
from claude_tui.ui.clock import Clock
from claude_tui.ui.config import Config
from claude_tui.ui.live import Pacer, Rate
from claude_tui.ui.messages import LibraryLoaded
from claude_tui.ui.screens.main import MainScreen
from claude_tui.ui.widgets.conversation import ConversationView
from claude_tui.ui.widgets.conversation import feed as conversation_feed
from claude_tui.ui.widgets.header import SessionHeader
from claude_tui.ui.widgets.projects import ProjectTree
from claude_tui.ui.widgets.sessions import SessionList
from claude_tui.ui.widgets.status import LiveStatus
from tests.jsonl import Thread, text, tool_use

SIZE = (120, 36)


def append(path: Path, *records: dict[str, Any]) -> None:
    with path.open("ab") as f:
        f.write(b"".join(orjson.dumps(r) + b"\n" for r in records))


def pane(view: ConversationView) -> str:
    """Everything in the pane as plain text (small sessions only)."""
    return "\n".join(s.text for e in view.entries for s in view._strips(e, view._width))


def status(app: ClaudeTUI) -> str:
    widget = app.main.query_one(LiveStatus)
    return str(widget.render()) if widget.state is not None else ""


def now_stamp() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def session_started_now(thread: Thread) -> None:
    """Give the records of `thread` timestamps of now (a session that starts while the app runs)."""
    for record in thread.records:
        record["timestamp"] = now_stamp()


def questions(folder: Path, turns: int) -> tuple[Thread, Path]:
    """A session of `turns` questions and answers, written to `folder`; the thread goes on."""
    thread = Thread()
    for i in range(turns):
        thread.prompt(f"question {i}")
        thread.answer(text(f"answer {i}"))
    return thread, thread.write(folder / "live.jsonl")


def one_turn(folder: Path, prompt: str, answer: str) -> tuple[Thread, Path]:
    """A session of one prompt and its answer (message id m1), written to `folder`; the thread goes on."""
    thread = Thread()
    thread.prompt(prompt)
    thread.answer(text(answer), msg_id="m1")
    return thread, thread.write(folder / "live.jsonl")


async def test_appended_records_appear_in_their_thread(tmp_path: Path) -> None:
    thread, path = one_turn(tmp_path, "first", "one")
    app = session_app(path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        session = view.session
        assert session is not None
        await settled(pilot, lambda: "following" in status(app))
        thread.records = []
        append(path, thread.prompt("run the tests"), thread.answer(tool_use("t1", "Bash", command="make test")))
        await settled(pilot, lambda: "t1" in session.calls)
        call = session.calls["t1"]
        assert call.status == "running"
        await settled(pilot, lambda: "make test" in pane(view))
        append(path, thread.result("t1", "42 passed"))
        await settled(pilot, lambda: call.status == "ok" and "✓ Bash" in pane(view))
        # A streamed chunk of the first answer joins it.
        chunk = {**thread.answer(text("and a second chunk"), msg_id="m1"), "parentUuid": "u0002"}
        append(path, chunk)
        await settled(pilot, lambda: "and a second chunk" in pane(view))
        assert sum(1 for m in session.messages if m.message_id == "m1") == 1
        # A partial last line waits for its newline.
        line = orjson.dumps(thread.prompt("half written")) + b"\n"
        cut = line.index(b"half written") + len(b"half written")  # its words written, the record not ended
        before = pane(view)
        with path.open("ab") as f:
            f.write(line[:cut])
        await read_to_end(pilot, view)
        assert pane(view) == before and view.tail.reader.pending == cut  # type: ignore[union-attr]  # held
        with path.open("ab") as f:
            f.write(line[cut:])
        await settled(pilot, lambda: "half written" in pane(view))
        # A damaged line shows as soon as its newline is there, with nothing written after it.
        with path.open("ab") as f:
            f.write(b'{"type": "assistant", "message": {"content": [{"type": "tool_use", "na\n')
        await settled(pilot, lambda: "invalid JSON" in pane(view))
        # An edited prompt (same parent as an earlier one) is a fork; a compaction shows as one.
        append(path, thread.prompt("first, edited", parent=None))
        await settled(pilot, lambda: session.forks and any(e.kind == "fork" for e in view.entries))
        append(
            path,
            thread.system("compact_boundary", parent=None, logicalParentUuid=thread.last, content="Compacted"),
            thread.prompt("Summary of the conversation so far", isCompactSummary=True),
        )
        await settled(pilot, lambda: any(e.kind == "compact" for e in view.entries))
        assert view.cursor_index == len(view.entries) - 1  # still pinned to the newest


async def test_the_find_count_follows_the_session_as_it_grows(tmp_path: Path) -> None:
    thread, path = one_turn(tmp_path, "first", "one")
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        bar = await find(pilot, app, "zebra")
        assert bar._status_text() == "no matches"
        for i in range(3):
            append(path, thread.prompt(f"zebra number {i}"))
        await settled(pilot, lambda: bar._status_text() == "3 matches")
        await pilot.press("enter")
        assert bar._status_text() == "match 1 of 3"


async def test_n_is_never_lost_while_the_session_is_written_fast(tmp_path: Path) -> None:
    """Each growth used to start the count again and drop the jump waiting for it."""
    thread = Thread()
    for i in range(30):
        thread.prompt(f"git commit number {i}")
        thread.answer(text("done"), msg_id=f"m{i}")
    path = thread.write(tmp_path / "fast.jsonl")
    stop = threading.Event()

    def write() -> None:
        while not stop.wait(0.02):  # 50 records a second
            append(path, thread.answer(text("working"), msg_id="w"))

    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        bar = await find(pilot, app, "commit")
        await pilot.press("enter")
        assert bar._status_text() == "match 1 of 30"
        writer = threading.Thread(target=write)
        writer.start()
        try:
            for n in range(2, 12):
                await pilot.press("n")
                await settled(pilot, lambda n=n: bar._status_text() == f"match {n} of 30")
        finally:
            stop.set()
            writer.join()


async def test_a_damaged_line_in_a_growing_message_is_told_once(tmp_path: Path) -> None:
    """Half a chunk written, then whole ones: the first of those is joined to the half (one damaged line),
    and the message it belongs to grows on."""
    thread, path = one_turn(tmp_path, "go", "working")
    app = session_app(path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        half = orjson.dumps(thread.answer(text("cut short"), msg_id="m1"))
        with path.open("ab") as f:
            f.write(half[: len(half) // 2])
        for word in ("alpha", "beta", "gamma"):
            thread.records = []
            append(path, thread.answer(text(word), msg_id="m1"))
            await settled(pilot, lambda w=word: w in pane(view))
        assert len(view.session.problems) == 1
        assert pane(view).count("damaged characters skipped") == 1


async def test_a_read_never_covers_the_pane_or_takes_its_keys(tmp_path: Path) -> None:
    thread = Thread()
    thread.prompt("first")
    path = thread.write(tmp_path / "live.jsonl")
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        view.read_more()
        assert view.reading and not view.loading  # Textual's `loading` would put a spinner over it
        assert app.focused is view


async def test_truncated_replaced_and_deleted_files(tmp_path: Path) -> None:
    thread = Thread()
    thread.prompt("alpha")
    thread.answer(text("beta"))
    thread.prompt("gamma")
    path = thread.write(tmp_path / "live.jsonl")
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        assert "gamma" in pane(view)
        path.write_bytes(orjson.dumps(thread.records[0]) + b"\n")  # shrank: read again, and said so
        await settled(pilot, lambda: "gamma" not in pane(view) and "alpha" in pane(view))
        assert [n.message for n in raised(app)] == [
            "The session file was rewritten or cut short: read again from its start"
        ]
        other = tmp_path / "other.jsonl"
        other.write_bytes(orjson.dumps(thread.prompt("delta")) + b"\n")
        os.replace(other, path)  # replaced: read again
        await settled(pilot, lambda: "delta" in pane(view) and "alpha" not in pane(view))
        path.unlink()
        await settled(pilot, lambda: "deleted" in status(app))
        assert "delta" in pane(view)  # what was read stays


async def test_the_only_session_deleted_while_shown_stays_on_screen(tmp_path: Path) -> None:
    thread = Thread(session_id="only", cwd="/home/u/only")
    thread.prompt("the one session")
    thread.answer(text("that will be deleted"))
    path = thread.write(tmp_path / "projects" / "-home-u-only" / "only.jsonl")
    app = ClaudeTUI([tmp_path / "projects"], clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        view = await browser_ready(pilot, app)
        path.unlink()
        await settled(pilot, lambda: "deleted" in status(app) and not app.state.projects)
        await drained(pilot)
        assert not app.main.has_class("-empty") and "that will be deleted" in pane(view)
        sessions = app.main.query_one(SessionList)
        assert not sessions.shown and sessions.border_title == "Sessions"  # not still "Sessions · ~/…/only"


async def test_the_paused_line_names_the_key_that_resumes_as_remapped(tmp_path: Path) -> None:
    thread = Thread()
    for i in range(30):
        thread.prompt(f"question {i}")
    path = thread.write(tmp_path / "live.jsonl")
    app = session_app(path, follow=True, config=Config(keys={"conversation.last": "ctrl+e"}))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        await pilot.press("k")
        await settled(pilot, lambda: "paused" in status(app))
        assert "^e resumes" in status(app) and "end" not in status(app)
        await pilot.press("ctrl+e")
        await settled(pilot, lambda: "following" in status(app))


async def test_scrolling_up_pauses_and_end_resumes(tmp_path: Path) -> None:
    thread, path = questions(tmp_path, 30)
    app = session_app(path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        assert view.follow
        await pilot.press("k", "k", "k")
        assert not view.follow and view.follow_mode
        await settled(pilot, lambda: "paused" in status(app))
        where = view.scroll_offset.y
        thread.records = []
        append(path, thread.prompt("new one"), thread.answer(text("new answer")), thread.prompt("and another"))
        await settled(pilot, lambda: "3 new" in status(app))
        assert view.scroll_offset.y == where  # the reader's place is kept
        await pilot.press("end")
        assert view.follow and view.unseen == 0
        await settled(pilot, lambda: "following" in status(app))
        assert view.scroll_offset.y == view.max_scroll_y
        append(path, thread.answer(text("the newest"), msg_id="last"))
        await settled(pilot, lambda: "the newest" in pane(view))
        await settled(pilot, lambda: view.scroll_offset.y == view.max_scroll_y)
        # a streamed chunk that adds to the last message (its answer goes on, a tool call starts) is kept in view
        long = "\n".join(f"step {i}" for i in range(60))
        thread.records = []
        thread.answer(text(long), tool_use("t9", "Bash", command="make"), msg_id="last")  # two records
        append(path, *thread.records)
        await settled(pilot, lambda: "step 59" in pane(view))
        await settled(pilot, lambda: view.scroll_offset.y == view.max_scroll_y > where)
        await pilot.press("k")  # paused: what grows is counted as new
        await settled(pilot, lambda: "paused" in status(app))
        append(path, thread.answer(tool_use("t10", "Bash", command="make check"), msg_id="last"))
        await settled(pilot, lambda: "1 new" in status(app))
        size = path.stat().st_size  # cut short while paused: read again, nothing new below
        with path.open("r+b") as f:
            f.truncate(size * 3 // 4)
        await settled(pilot, lambda: any("cut short" in n.message for n in raised(app)))
        await read_to_end(pilot, view)
        assert view.unseen == 0 and "new" not in status(app)


async def test_follow_key_starts_and_stops_following(tmp_path: Path) -> None:
    thread = Thread()
    for i in range(30):
        thread.prompt(f"question {i}")
    path = thread.write(tmp_path / "s.jsonl")
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        assert not view.follow_mode and status(app) == ""
        await pilot.press("L")
        assert view.follow and view.cursor_index == len(view.entries) - 1
        await settled(pilot, lambda: "following" in status(app))
        await pilot.press("L")
        assert not view.follow_mode
        await settled(pilot, lambda: status(app) == "")
        await palette(pilot, app, "follow the session")  # the same from the command palette
        await pilot.press("enter")
        await settled(pilot, lambda: view.follow_mode and view.follow)


async def test_a_subagent_shows_under_its_call_as_it_runs(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    thread = Thread(session_id="main")
    thread.prompt("go")
    thread.answer(tool_use("task", "Task", prompt="dig", description="Dig"), msg_id="m1")
    path = thread.write(project / "main.jsonl")
    app = session_app(path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        session = view.session
        assert session is not None
        sub = Thread(session_id="main")
        sub.prompt("dig", parent=None, isSidechain=True)
        agent = sub.write(project / "main" / "subagents" / "agent-a1.jsonl")
        await settled(pilot, lambda: session.calls["task"].subagent is not None and "1 message" in pane(view))
        sub.records = []
        counted = app.main.live.rate.last
        append(agent, sub.answer(tool_use("s1", "Grep", pattern="x")))
        await settled(pilot, lambda: "1 tool call" in pane(view))
        assert app.main.live.rate.last == counted + 1  # the live line's rate counts the subagent's records


async def test_the_last_subagent_listed_at_the_end_moves_under_its_call(tmp_path: Path) -> None:
    """Two subagents no call started yet come last, under their markers; a Task result naming the second
    moves it under its call, and the pane ends where the first one's messages end."""
    project = tmp_path / "proj"
    thread = Thread(session_id="main")
    thread.prompt("go")
    thread.answer(tool_use("task", "Task", prompt="dig", description="Dig"), msg_id="m1")
    path = thread.write(project / "main.jsonl")
    for name in ("a1", "a2"):
        sub = Thread(session_id="main")
        sub.prompt(f"side job {name}", parent=None, isSidechain=True)
        sub.write(project / "main" / "subagents" / f"agent-{name}.jsonl")
    app = session_app(path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        session = view.session
        assert session is not None
        assert [e.top for e in view.entries if e.kind == "agent"] == [2, 3]
        thread.records = []
        append(path, thread.result("task", "found", toolUseResult={"agentId": "a2", "status": "completed"}))
        await settled(pilot, lambda: session.calls["task"].subagent is not None and "1 message" in pane(view))
        assert [e.top for e in view.entries if e.kind == "agent"] == [2]
        assert view.entries[-1].top == 2


async def test_a_result_that_comes_with_new_messages_shows_while_a_subagent_is_listed_last(tmp_path: Path) -> None:
    """A call's result arrives in one batch with more messages than the subagent listed last (no call started it)
    has: the call's row shows it has a result."""
    project = tmp_path / "proj"
    thread = Thread(session_id="main")
    for i in range(10):
        thread.prompt(f"prompt {i}")
    thread.answer(tool_use("x", "Bash", command="make"), msg_id="m1")
    path = thread.write(project / "main.jsonl")
    sub = Thread(session_id="main")
    sub.prompt("side job", parent=None, isSidechain=True)
    for i in range(4):
        sub.answer(text(f"step {i}"), msg_id=f"s{i}")
    sub.write(project / "main" / "subagents" / "agent-a1.jsonl")
    app = session_app(path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        assert "no result" in pane(view)
        thread.records = []
        thread.result("x", "built")
        for i in range(10):
            thread.prompt(f"later {i}")
        append(path, *thread.records)
        await settled(pilot, lambda: "later 9" in pane(view))
        assert "no result" not in pane(view)


def browser(roots: list[Path], **kw: Any) -> ClaudeTUI:
    return ClaudeTUI(roots, clock=CLOCK, **kw)


@pytest.fixture
def roots(tmp_path: Path) -> list[Path]:
    return [demo_copy(tmp_path)]


async def test_new_sessions_and_projects_appear(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=(160, 40)) as pilot:
        await browser_ready(pilot, app)
        tree = app.main.query_one(ProjectTree)
        sessions = app.main.query_one(SessionList)
        folder = tree.chosen.sessions[0].path.parent if tree.chosen else None
        assert folder is not None
        before = len(sessions.shown)
        thread = Thread(session_id="fresh", cwd=tree.chosen.path)
        thread.prompt("a brand new session")
        thread.answer(text("hello"))
        thread.write(folder / "fresh.jsonl")
        await settled(pilot, lambda: len(sessions.shown) == before + 1)
        assert any(s.title == "a brand new session" and s.live for s in sessions.shown)
        other = Thread(session_id="elsewhere", cwd="/home/ada/code/brand-new")
        other.prompt("hello there")
        other.answer(text("hi"))
        other.write(roots[0] / "-home-ada-code-brand-new" / "elsewhere.jsonl")
        await settled(pilot, lambda: any(p.name == "brand-new" for p in tree.projects))
        await settled(pilot, lambda: any("brand-new" in str(n.label) for n in tree.root.children))
        # An ai-title record renames the session in the list.
        append(folder / "fresh.jsonl", {"type": "ai-title", "aiTitle": "Renamed by the model", "sessionId": "fresh"})
        await settled(pilot, lambda: any(s.title == "Renamed by the model" for s in sessions.shown))


async def test_a_file_renamed_in_where_one_was_deleted_is_listed_again(
    roots: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor's save (delete, then `mv tmp x.jsonl`): the rename comes while the refresh for the delete runs,
    and the list still names the path. watchfiles says `added`: that is news, read at once, not at the next
    paced refresh (20 s away for a library whose refresh takes a second; never, here)."""
    monkeypatch.setattr(live_module, "LIBRARY_EVERY", 3600.0)
    app = browser(roots)
    async with app.run_test(size=(160, 40)) as pilot:
        await browser_ready(pilot, app)
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        assert tree.chosen is not None
        folder = tree.chosen.sessions[0].path.parent
        thread = Thread(session_id="saved", cwd=tree.chosen.path)
        thread.prompt("saved by an editor")
        thread.answer(text("ok"))
        thread.write(folder / "saved.jsonl")

        def listed() -> bool:
            return any(s.title == "saved by an editor" for s in sessions.shown)

        await settled(pilot, listed)
        refresh, scanned, gate = app.state.library.refresh, threading.Event(), threading.Event()

        def slow_refresh() -> Any:  # the scan has seen the file gone; the rest of the refresh takes a while
            result = refresh()
            scanned.set()
            gate.wait(10)
            return result

        seen: list[Changes] = []
        changed = app.main.live.changed

        def watched(changes: Changes) -> None:
            seen.append(changes)
            changed(changes)

        # whether each listing the screen is given names the file: two may come between two looks at the screen
        listings: list[bool] = []
        on_library_loaded = MainScreen.on_library_loaded

        def spy(screen: MainScreen, message: LibraryLoaded) -> None:
            listings.append(any(s.path == folder / "saved.jsonl" for p in message.projects for s in p.sessions))
            on_library_loaded(screen, message)

        monkeypatch.setattr(app.main.live, "changed", watched)
        monkeypatch.setattr(app.state.library, "refresh", slow_refresh)
        monkeypatch.setattr(MainScreen, "on_library_loaded", spy)
        try:
            (folder / "saved.jsonl").unlink()
            await settled(pilot, scanned.is_set)
            thread.write(folder / "saved.tmp")
            (folder / "saved.tmp").rename(folder / "saved.jsonl")
            await settled(pilot, lambda: any(folder / "saved.jsonl" in c.modified for c in seen))
        finally:
            gate.set()
        await settled(pilot, lambda: False in listings)  # the refresh that saw it gone
        await settled(pilot, lambda: listings[-1] and listed())
        assert listings.index(False) < len(listings) - 1


async def test_a_notice_of_the_index_is_shown_once_however_often_the_history_changes(roots: list[Path]) -> None:
    """The index keeps its notices for the app's life: each change of the history must not toast them again."""
    app = browser(roots)
    warning = "cache folder /x not writable (Permission denied): working from memory"
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await browser_ready(pilot, app)
        app.state.library.index.note(warning)
        sessions = app.main.query_one(SessionList)
        folder = Path(sessions.shown[0].path).parent
        for n in range(3):
            before = len(sessions.shown)
            thread = Thread(session_id=f"new{n}")
            thread.prompt(f"session {n}")
            thread.write(folder / f"new{n}.jsonl")
            await settled(pilot, lambda before=before: len(sessions.shown) == before + 1)
        assert [n.message for n in raised(app)].count(warning) == 1


async def test_the_list_shows_what_another_claude_tui_indexed(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=(160, 40)) as pilot:
        await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        info = sessions.shown[0]
        thread = Thread(session_id=info.id, cwd=str(info.project))
        append(info.path, thread.prompt("a prompt from the other window"), thread.answer(text("noted")))
        Library(roots, cache_dir()).refresh()  # another claude-tui on the same cache gets there first
        await settled(pilot, lambda: [s.messages for s in sessions.shown if s.file == info.file] == [info.messages + 2])


async def test_the_library_is_read_again_once_another_writer_lets_go(
    roots: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refresh that found the index kept busy by another process is tried again: no change may come."""
    monkeypatch.setattr(locks, "WRITE_WAIT", 0.3)
    app = browser(roots)
    async with app.run_test(size=(160, 40)) as pilot:
        await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        info = sessions.shown[0]
        live, refresh, refresh_library = app.main.live, app.state.library.refresh, app.main.live._refresh_library
        busy: list[bool] = []  # whether each refresh found the index busy
        told = threading.Event()  # a refresh that found it busy is over, and has posted what it read

        def refreshing() -> Any:
            result = refresh()
            busy.append(result.busy)
            return result

        def refreshing_library() -> None:
            refresh_library()
            if busy and busy[-1]:
                told.set()

        monkeypatch.setattr(app.state.library, "refresh", refreshing)
        monkeypatch.setattr(live, "_refresh_library", refreshing_library)
        holder = sqlite3.connect(cache_dir() / DB_NAME, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        holder.execute("INSERT INTO meta VALUES ('holder', 1)")
        thread = Thread(session_id=info.id, cwd=str(info.project))
        append(info.path, thread.prompt("a prompt while the index is held"), thread.answer(text("noted")))
        await settled(pilot, told.is_set, timeout=30)  # the change is seen, and the index found busy
        await drained(pilot)
        assert [s.messages for s in sessions.shown if s.file == info.file] == [info.messages]
        holder.execute("ROLLBACK")
        await settled(pilot, lambda: [s.messages for s in sessions.shown if s.file == info.file] == [info.messages + 2])
        assert app.state.library.search("while the index is held")


def start_session_beside(current: Session, first: str) -> None:
    """Claude Code starting session "next" in the project of `current` (after /clear, say)."""
    thread = Thread(session_id="next", cwd=current.project_path or "")
    thread.prompt(first)
    session_started_now(thread)
    thread.write(Path(current.path).parent / "next.jsonl")


@pytest.mark.parametrize(
    "first",
    [
        "the session after /clear",
        "<command-name>/review</command-name><command-args>the session after /clear</command-args>",
    ],
)
async def test_following_switches_to_a_new_session_of_the_project(roots: list[Path], first: str) -> None:
    """A new session counts from its first prompt or slash command."""
    app = browser(roots, follow=True)
    notes: list[str] = []
    async with app.run_test(size=(160, 40)) as pilot:
        view = await browser_ready(pilot, app)
        app.notify = lambda message, **kw: notes.append(str(message))  # type: ignore[method-assign]
        current = view.session
        assert current is not None and view.follow
        start_session_beside(current, first)
        await settled(pilot, lambda: view.session is not None and view.session.id == "next")
        assert any("A new session started" in n for n in notes)
        await settled(pilot, lambda: "the session after /clear" in pane(view))
        assert view.follow


async def test_following_paused_a_new_session_waits_for_end(roots: list[Path]) -> None:
    """The user reading above keeps the place: a new session is only told of, and End follows it."""
    app = browser(roots, follow=True)
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        view = await browser_ready(pilot, app)
        current = view.session
        assert current is not None
        await pilot.press("k", "k")
        assert view.follow_mode and not view.follow
        start_session_beside(current, "after /clear")
        told = f"A new session started in {app.main.query_one(ProjectTree).chosen.name}: end follows it"  # type: ignore[union-attr]
        await settled(pilot, lambda: told in [n.message for n in raised(app)])
        await drained(pilot)  # (a switch would come with the news)
        assert view.session is current
        await pilot.press("end")
        await settled(pilot, lambda: view.session is not None and view.session.id == "next")
        assert view.follow


async def test_following_starts_on_the_newest_session_the_index_did_not_hold_yet(roots: list[Path]) -> None:
    """The index is shown at once, then brought up to date: following, the session that started
    since it was last brought up to date is the one opened, wherever it is."""
    from claude_tui.core.library import Library

    Library(roots).refresh()
    thread = Thread(session_id="started-since", cwd="/home/ada/code/brand-new")
    thread.prompt("started while claude-tui was closed")
    thread.answer(text("hi"))
    session_started_now(thread)
    thread.write(roots[0] / "-home-ada-code-brand-new" / "started-since.jsonl")
    app = browser(roots, follow=True)
    async with app.run_test(size=(160, 40)) as pilot:
        view = await browser_ready(pilot, app)
        await settled(pilot, lambda: view.session is not None and view.session.id == "started-since")
        assert app.main.query_one(ProjectTree).chosen.name == "brand-new"  # type: ignore[union-attr]
        assert view.follow


async def test_a_projects_folder_made_after_the_start_is_watched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before Claude Code's first run there is no projects folder: its first session shows when it comes."""
    monkeypatch.setattr("claude_tui.ui.live.MARKERS_EVERY", 0.2)
    root = tmp_path / "claude" / "projects"
    app = browser([root])
    async with app.run_test(size=(160, 40)) as pilot:
        await settled(pilot, lambda: app.main.has_class("-empty"))
        thread = Thread(session_id="first-ever", cwd="/home/ada/code/first")
        thread.prompt("my first session")
        thread.answer(text("hello"))
        session_started_now(thread)
        thread.write(root / "-home-ada-code-first" / "first-ever.jsonl")
        tree = app.main.query_one(ProjectTree)
        await settled(pilot, lambda: [p.name for p in tree.projects] == ["first"])
        assert not app.main.has_class("-empty")
        thread.prompt("a second one")
        thread.write(root / "-home-ada-code-first" / "first-ever.jsonl")
        await settled(pilot, lambda: tree.projects[0].sessions[0].prompts == 2)  # watched now


async def test_the_header_says_how_long_ago_as_time_goes_by(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("claude_tui.ui.live.MARKERS_EVERY", 0.2)
    thread = Thread()
    thread.prompt("hello")
    thread.answer(text("hi"))
    path = thread.write(tmp_path / "s.jsonl")
    started = thread.records[0]["timestamp"]
    now = [parse_time(started) or 0.0]
    app = ClaudeTUI([tmp_path], session=path, library=NoLibrary(), clock=Clock(lambda: now[0], UTC))  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        header = app.main.query_one(SessionHeader)
        assert str(header.render()).split("\n")[1].startswith("now ·")
        now[0] += 180  # nothing written since: only the clock moves
        await settled(pilot, lambda: str(header.render()).split("\n")[1].startswith("3m ago ·"))


async def test_a_watcher_that_fails_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: Any) -> Any:
        raise OSError("inotify watch limit reached")
        yield

    monkeypatch.setattr("claude_tui.ui.live.watch_roots", broken)
    thread = Thread()
    thread.prompt("hello")
    path = thread.write(tmp_path / "s.jsonl")
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        await settled(pilot, lambda: any("Not watching" in str(n.message) for n in raised(app)))


async def test_pacer_folds_a_burst_into_few_runs() -> None:
    """Wakes that come while a run must wait are one later run, and runs are `every` seconds apart at least,
    however fast or slow the loop turns. (The last wake's time is taken before it: a wake may run at once.)"""
    from textual.app import App

    runs: list[float] = []  # when each run started, by the pacer's clock
    app = App()
    async with app.run_test() as pilot:
        pacer = Pacer(app, 0.05, lambda: runs.append(pacer._last))
        for _ in range(100):  # one burst, with no turn of the loop between its wakes
            pacer.wake()
        assert len(runs) == 1  # the first ran at once; the 99 others wait for one run
        await settled(pilot, lambda: len(runs) == 2)
        assert pacer._due is None and pacer._timer is None  # and nothing more is wanted
        deadline = time.monotonic() + 60
        while len(runs) < 6:  # wakes spread over the loop's turns, as a file written fast makes them
            assert time.monotonic() < deadline, "timed out"
            last_wake = time.monotonic()
            pacer.wake()
            await pilot.pause(0.002)
        await settled(pilot, lambda: runs[-1] >= last_wake)  # the last wake is answered
    assert all(b - a >= 0.05 - 1e-9 for a, b in pairwise(runs))  # at most one run per 50 ms


def test_rate_starts_over_when_the_count_drops() -> None:
    """A file cut short is read again: fewer records, never a negative rate."""
    rate = Rate()
    rate.reset(100)
    rate.add(160)
    assert rate.per_second() > 0
    rate.add(20)
    assert rate.per_second() == 0 and rate.last == 20
    rate.add(30)
    assert rate.per_second() > 0


async def test_following_a_big_session_freezes_it_once_and_thaws_it_when_its_file_is_rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session of FREEZE_MESSAGES or more is kept from the cycle collector (gc.freeze) while shown. Each read
    of a followed session froze again all made since, garbage too (+45 MB a thousand records appended), and a
    rewritten file's old messages stayed, frozen and held by their rows kept for reuse (+7 MB a rewrite)."""
    monkeypatch.setattr(conversation_feed, "FREEZE_MESSAGES", 4)
    calls: list[str] = []
    for name in ("freeze", "unfreeze"):
        real = getattr(gc, name)
        monkeypatch.setattr(gc, name, lambda real=real, name=name: (calls.append(name), real())[1])
    thread, path = questions(tmp_path, 3)
    app = session_app(path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        frozen = gc.get_freeze_count()
        assert calls == ["freeze"] and frozen > 0
        for i in range(3):
            append(path, thread.prompt(f"more {i}"))
            await settled(pilot, lambda i=i: f"more {i}" in pane(view) and not view.reading)
        assert calls == ["freeze"] and gc.get_freeze_count() <= frozen  # what the reads left is not kept
        path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in thread.records[:6]))  # rewritten, shorter
        await settled(pilot, lambda: "more 0" not in pane(view) and "answer 2" in pane(view) and not view.reading)
        assert calls == ["freeze", "unfreeze", "freeze"]
        read = {id(m) for m in view.session.messages}
        assert all(id(e.message) in read for e in view.rows.built.values())  # the rows of the old messages are let go
    gc.unfreeze()
