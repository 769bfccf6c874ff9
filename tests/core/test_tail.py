"""Following a session as it is written: the same model as reading the final file at once."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import orjson
import pytest

from claude_tui.core.reader import Reader
from claude_tui.core.session import Session
from claude_tui.core.tail import SessionTail
from claude_tui.core.threads import Layout
from claude_tui.core.watch import watch_roots
from tests.core.test_session import describe
from tests.jsonl import Thread, text, tool_use


def conversation() -> Thread:
    t = Thread(session_id="live")
    t.prompt("héllo wörld — ünïcode ✓")
    t.answer(
        {"type": "thinking", "thinking": "plan"},
        text("I will run it"),
        tool_use("x", "Bash", command="ls"),
        msg_id="m1",
    )
    t.result("x", "a\nb\n")
    t.answer(text("done 🎉"), msg_id="m2")
    return t


def one_shot(path: Path) -> list:
    return describe(Session.from_lines(Reader(str(path)).read()[1], path))


def _no_last_newline(data: bytes) -> bytes:
    return data[:-1]


def _two_records_on_one_line(data: bytes) -> bytes:
    first = data.index(b"\n")
    return data[:first] + data[first + 1 :]


@pytest.mark.parametrize("damage", [None, _no_last_newline, _two_records_on_one_line])
def test_appends_split_at_every_byte_give_the_same_model(damage, tmp_path: Path) -> None:
    data = conversation().bytes()
    data = damage(data) if damage else data
    final = tmp_path / "final.jsonl"
    final.write_bytes(data)
    expected = one_shot(final)
    path = tmp_path / "live.jsonl"
    for cut in range(0, len(data) + 1):  # every byte position, inside UTF-8 characters too
        path.write_bytes(data[:cut])
        tail = SessionTail(path)
        tail.poll()
        with path.open("ab") as f:
            f.write(data[cut:])
        tail.poll()
        assert describe(tail.session) == expected, cut


def test_a_last_record_without_newline_is_shown_and_not_doubled_when_more_comes(tmp_path: Path) -> None:
    data = conversation().bytes()
    path = tmp_path / "live.jsonl"
    path.write_bytes(data[:-1])
    tail = SessionTail(path)
    tail.poll()
    assert tail.caught_up and tail.session.messages[-1].plain_text == "done 🎉"
    assert describe(tail.session) == one_shot(path)
    more = Thread(session_id="live")
    more.prompt("again", uuid="u1001")  # a record of its own: the file's first is u0001
    with path.open("ab") as f:
        f.write(b"\n" + more.bytes())
    tail.poll()
    assert [m.plain_text for m in tail.session.messages[-2:]] == ["done 🎉", "again"]
    final = tmp_path / "final.jsonl"
    final.write_bytes(data + more.bytes())
    assert describe(tail.session) == one_shot(final)


def test_many_small_appends(tmp_path: Path) -> None:
    data = conversation().bytes()
    final = tmp_path / "final.jsonl"
    final.write_bytes(data)
    path = tmp_path / "live.jsonl"
    path.write_bytes(b"")
    tail = SessionTail(path)
    for i in range(0, len(data), 13):
        with path.open("ab") as f:
            f.write(data[i : i + 13])
        tail.poll()
    assert describe(tail.session) == one_shot(final)


def test_update_reports_new_and_changed_messages(tmp_path: Path) -> None:
    t = Thread()
    t.prompt("go")
    t.answer(tool_use("x", "Bash", command="sleep 1"), msg_id="m1")
    path = t.write(tmp_path / "s.jsonl")
    tail = SessionTail(path)
    first = tail.poll()
    assert [m.plain_text for m in first.added][:1] == ["go"]
    call = tail.session.calls["x"]
    assert call.status == "running"
    with path.open("ab") as f:
        t2 = Thread()
        t2.records = []
        t.records = []
        f.write(t.bytes())
        t.result("x", "slept")
        f.write(t.bytes())
    update = tail.poll()
    assert call.status == "ok"
    assert call.message.index in update.changed


def test_truncate_and_replace_read_again(tmp_path: Path) -> None:
    data = conversation().bytes()
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    tail = SessionTail(path)
    tail.poll()
    path.write_bytes(data[: data.index(b"\n") + 1])
    update = tail.poll()
    assert update.started_over
    assert [m.plain_text for m in tail.session.visible()] == ["héllo wörld — ünïcode ✓"]
    replacement = tmp_path / "other.jsonl"
    replacement.write_bytes(data)
    os.replace(replacement, path)
    assert tail.poll().started_over
    assert describe(tail.session) == one_shot(path)


def test_deleted_file_keeps_what_was_read(tmp_path: Path) -> None:
    path = conversation().write(tmp_path / "s.jsonl")
    tail = SessionTail(path)
    tail.poll()
    before = len(tail.session.messages)
    path.unlink()
    assert not tail.poll()
    assert tail.deleted and len(tail.session.messages) == before


def task_session(project: Path, tool: str = "Task") -> Path:
    """A main session in `project` whose one answer calls `tool` (call id "task")."""
    t = Thread(session_id="main")
    t.prompt("go")
    t.answer(tool_use("task", tool, prompt="dig"), msg_id="m1")
    return t.write(project / "main.jsonl")


def subagent_thread() -> Thread:
    """The transcript of the subagent that call runs, its prompt written."""
    sub = Thread(session_id="main")
    sub.prompt("dig", parent=None, isSidechain=True)
    return sub


def test_subagent_file_appears_and_grows(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = task_session(project, "Agent")
    tail = SessionTail(path)
    tail.poll()
    assert tail.session.subagents == []
    sub = subagent_thread()
    agent_path = sub.write(project / "main" / "subagents" / "agent-a123.jsonl")
    update = tail.poll()
    assert update.threads_changed and tail.session.calls["task"].message.index in update.changed
    agent = tail.session.calls["task"].subagent
    assert agent is not None and len(agent.messages) == 1
    sub.records = []
    sub.answer(text("found it"), msg_id="s1")
    with agent_path.open("ab") as f:
        f.write(sub.bytes())
    update = tail.poll()
    assert len(agent.messages) == 2
    assert tail.session.calls["task"].message.index in update.changed


def test_subagent_file_created_empty_links_when_its_prompt_arrives(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = task_session(project)
    tail = SessionTail(path)
    tail.poll()
    agent_path = project / "main" / "subagents" / "agent-a1.jsonl"
    agent_path.parent.mkdir(parents=True)
    agent_path.write_bytes(b"")  # the watcher may see the file before its first line
    assert tail.poll().threads_changed
    call = tail.session.calls["task"]
    assert call.subagent is None
    sub = subagent_thread()
    agent_path.write_bytes(sub.bytes())
    update = tail.poll()
    assert call.subagent is not None and call.message.index in update.changed


def test_a_subagent_file_unreadable_at_first_is_attached_when_it_can_be_read(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = task_session(project)
    target = tmp_path / "elsewhere" / "agent.jsonl"
    agent_path = project / "main" / "subagents" / "agent-a1.jsonl"
    agent_path.parent.mkdir(parents=True)
    agent_path.symlink_to(target)  # listed, but its target is not there yet
    tail = SessionTail(path)
    tail.poll()
    assert tail.session.subagents == [] and len(tail.session.problems) == 1
    sub = subagent_thread()
    sub.write(target)
    update = tail.poll()
    call = tail.session.calls["task"]
    assert update.threads_changed and call.message.index in update.changed
    assert call.subagent is not None and tail.session.subagents == [call.subagent]
    assert len(call.subagent.messages) == 1
    tail.poll()
    assert tail.session.subagents == [call.subagent] and len(tail.session.problems) == 1


@pytest.mark.parametrize("running", [1, 2])
def test_a_flat_subagent_file_without_its_prompt_grows_under_the_only_running_call(
    tmp_path: Path, running: int
) -> None:
    """2.0.x: `agent-<id>.jsonl` beside the session starts with the subagent's answer; only the Task's result
    names the id. While one Task runs, the file is that Task's; with two, it waits for that result."""
    project = tmp_path / "proj"
    t = Thread(session_id="main", version="2.0.55")
    t.prompt("go")
    t.answer(tool_use("old", "Task", prompt="before"), msg_id="m0")
    t.result("old", "earlier")  # a call with its result: not a candidate
    t.answer(*(tool_use(f"task{i}", "Task", prompt=f"dig {i}") for i in range(running)), msg_id="m1")
    path = t.write(project / "main.jsonl")
    tail = SessionTail(path)
    tail.poll()
    sub = Thread(session_id="main", version="2.0.55")
    sub.answer(text("I'll look around"), parent=None)["agentId"] = "c8d9b115"
    agent_path = sub.write(project / "agent-c8d9b115.jsonl")
    tail.poll()
    call = tail.session.calls["task0"]
    assert (call.subagent is not None) is (running == 1)
    sub.records = []
    sub.answer(tool_use("s1", "Grep", pattern="zip"))
    with agent_path.open("ab") as f:
        f.write(sub.bytes())
    tail.poll()
    assert (len(call.subagent.messages) if call.subagent is not None else None) == (2 if running == 1 else None)
    t.records = []
    t.result("task0", "found", toolUseResult={"agentId": "c8d9b115", "status": "completed"})
    with path.open("ab") as f:
        f.write(t.bytes())
    tail.poll()
    assert call.subagent is not None and len(call.subagent.messages) == 2
    assert all(c.subagent is None for c in tail.session.calls.values() if c is not call)


ROOT = Path(__file__).resolve().parents[2]
GROWN = ["claude_tui/demo/projects/-home-ada-code-notes-api/67df1d90-4225-4d2b-a6d6-45556e8a9ebb.jsonl"]
GROWN += [f"tests/fixtures/{name}.jsonl" for name in ("fork", "compaction", "compaction_pre2", "agent_progress")]


@pytest.mark.parametrize("source", GROWN)
def test_layout_grown_a_line_at_a_time_is_the_layout_of_the_whole(source: str, tmp_path: Path) -> None:
    lines = (ROOT / source).read_bytes().splitlines(keepends=True)
    t = Thread()
    t.prompt("a rewound prompt", parent=None)  # a second root prompt with no parent: a fork at None
    lines += [orjson.dumps(r) + b"\n" for r in t.records]
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"")
    tail = SessionTail(path)
    for line in lines:
        with path.open("ab") as f:
            f.write(line)
        tail.poll()
        grown = [m.uuid for m in tail.session.visible()]
        assert grown == [m.uuid for m in Layout.of(tail.session).visible]
    assert tail.session.forks


def test_batches_stream_a_big_file(tmp_path: Path) -> None:
    t = Thread()
    for i in range(300):
        t.prompt(f"prompt {i} " + "x" * 200)
    path = t.write(tmp_path / "s.jsonl")
    tail = SessionTail(path)
    polls = 0
    while not tail.caught_up or polls == 0:
        tail.poll(limit=4096)
        polls += 1
    assert polls > 10 and len(tail.session.messages) == 300


@pytest.mark.asyncio
async def test_watch_reports_an_append(tmp_path: Path) -> None:
    project = tmp_path / "projects" / "-p"
    project.mkdir(parents=True)
    path = project / "s.jsonl"
    path.write_bytes(b"")
    stop = asyncio.Event()
    seen: list = []

    async def watch() -> None:
        async for changes in watch_roots([tmp_path / "projects"], stop):
            seen.append(changes)
            stop.set()

    task = asyncio.create_task(watch())
    deadline = time.monotonic() + 30
    while not task.done():  # appends until the watcher (armed when it is) reports one: no guess at when
        assert time.monotonic() < deadline, "no append reported"
        with path.open("ab") as f:
            f.write(b'{"type":"user"}\n')
        await asyncio.wait([task], timeout=0.1)
    assert seen and path in seen[0].modified
