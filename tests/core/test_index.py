"""The index: incremental by offset, rebuilt when damaged, never writing under a projects folder."""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from claude_tui.core.files import sibling_summaries
from claude_tui.core.index import extract, jobs, locks, pool, store
from claude_tui.core.index.extract import State
from claude_tui.core.index.jobs import Progress
from claude_tui.core.index.schema import DB_NAME, SCHEMA_VERSION, TEXT_NAME, cache_dir, text_schemas
from claude_tui.core.library import Library
from claude_tui.core.loader import read_session
from claude_tui.core.stats import session_stats
from tests.library_data import Writer, encode, simple_project, tree_state


def infos(lib: Library) -> dict[str, dict]:
    """Every session's facts, without what depends on when the test ran."""
    out = {}
    for project in lib.projects:
        for s in project.sessions:
            facts = dataclasses.asdict(s)
            facts.pop("mtime")
            out[s.id] = facts
    return out


def fresh(root: Path, tmp_path: Path, name: str) -> Library:
    lib = Library([root], tmp_path / name)
    lib.refresh()
    return lib


def hits(lib: Library, query: str) -> list[str]:
    return [h.snippet for h in lib.search(query)]


def test_cache_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "claude-tui"
    monkeypatch.setenv("CLAUDE_TUI_CACHE_DIR", str(tmp_path / "own"))
    assert cache_dir() == tmp_path / "own"
    monkeypatch.delenv("CLAUDE_TUI_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == Path.home() / ".cache" / "claude-tui"


def test_cold_index_reads_everything_and_a_second_run_reads_nothing(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    simple_project(root, sessions=3)
    lib = Library([root], tmp_path / "cache")
    first = lib.refresh()
    assert first.files_read == 3
    assert first.bytes_read == sum(p.stat().st_size for p in (root / encode("/home/u/proj")).iterdir())
    again = lib.refresh()
    assert (again.files_read, again.bytes_read) == (0, 0)
    assert (tmp_path / "cache" / DB_NAME).is_file()
    [project] = lib.projects
    assert len(project.sessions) == 3
    s = project.sessions[0]
    assert (s.prompts, s.messages, s.tool_calls, s.tool_errors) == (1, 4, 1, 1)
    assert s.tokens == 3 * (3 + 10 + 100)  # three assistant messages, usage counted once per message id
    assert s.models == ["claude-sonnet-4-5-20250929"]
    assert s.title == s.first_prompt == "please fix the parser number 2"


def test_growth_is_read_from_the_stored_offset(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    w = Writer("grows")
    w.prompt("first question about sqlite")
    w.answer({"type": "text", "text": "first answer"})
    path = w.write(root / "p")
    lib = Library([root], tmp_path / "cache")
    lib.refresh()
    size = path.stat().st_size
    n = len(w.records)
    mid = w.answer({"type": "text", "text": "a streamed chunk"}, out=5)
    w.tool("Read", {"file_path": "/x/zebra.py"}, "zebra stripes", error=True)
    w.prompt("second question about zebras")
    w.append(path, n)
    result = lib.refresh()
    assert result.bytes_read == path.stat().st_size - size
    assert hits(lib, "zebra") and hits(lib, "sqlite")
    assert infos(lib) == infos(fresh(root, tmp_path, "cold"))
    # a streamed message cut by the offset counts its usage once (the chunk with most output tokens)
    n = len(w.records)
    w._rec("assistant", message={"id": mid, "model": "claude-sonnet-4-5-20250929", "content": [
        {"type": "text", "text": "the rest"}], "usage": {"input_tokens": 3, "output_tokens": 50}})  # fmt: skip
    w.append(path, n)
    lib.refresh()
    assert infos(lib) == infos(fresh(root, tmp_path, "cold2"))


def test_the_list_and_stats_count_a_streamed_message_alike(tmp_path: Path) -> None:
    """Two chunks with as many output tokens and other counts: the later one's usage, in the index as in the model."""
    root = tmp_path / "projects"
    w = Writer("ties")
    w.prompt("count me")
    first = {"input_tokens": 1000, "output_tokens": 5, "cache_read_input_tokens": 10}
    for usage in (first, {"input_tokens": 3, "output_tokens": 5, "cache_read_input_tokens": 7}):
        w._rec("assistant", message={"id": "msg_tie", "model": "claude-sonnet-4-5-20250929", "content": [
            {"type": "text", "text": "chunk"}], "usage": usage})  # fmt: skip
    path = w.write(root / "p")
    [listed] = fresh(root, tmp_path, "c").projects[0].sessions
    tokens = session_stats(read_session(path))["tokens_with_subagents"]
    assert (tokens["input"], tokens["output"], tokens["cache_read"]) == (3, 5, 7)
    assert listed.tokens == 15


def test_the_list_and_stats_count_no_failed_call_for_an_error_whose_call_is_not_in_the_file(tmp_path: Path) -> None:
    """A file that holds the error result of a call it does not hold (its start lost): no failed call of this
    session, in the index as in the model; its own failed call counts."""
    root = tmp_path / "projects"
    w = Writer("cut")
    w.prompt("go on")
    result = {"type": "tool_result", "tool_use_id": "toolu_01Elsewhere", "content": "Exit code 1", "is_error": True}
    w._rec("user", message={"role": "user", "content": [result]})
    w.tool("Bash", {"command": "false"}, "Exit code 1", error=True)
    path = w.write(root / "p")
    [listed] = fresh(root, tmp_path, "c").projects[0].sessions
    assert listed.tool_errors == session_stats(read_session(path))["tool_errors"] == 1


def test_the_summary_written_last_titles_its_session(tmp_path: Path) -> None:
    """Two files summarize one leaf: the summary written last wins, whichever file's name sorts last."""
    root = tmp_path / "projects"
    titled = Writer("titled")
    titled.prompt("the typed prompt")
    titled.answer()
    titled.write(root / "p")
    later = Writer("a-later", start=5000)
    later.prompt("another session")
    path = later.write(root / "p")
    earlier = Writer("b-earlier", start=3000)
    earlier.meta("summary", summary="Old summary", leafUuid=titled.last)
    earlier.write(root / "p")
    lib = fresh(root, tmp_path, "c")
    n = len(later.records)
    later.meta("summary", summary="New summary", leafUuid=titled.last)
    later.append(path, n)
    lib.refresh()
    assert {s.id: s.title for s in lib.projects[0].sessions}["titled"] == "New summary"
    assert [hit.title for hit in lib.search("typed")] == ["New summary"]


def test_a_hit_in_a_session_that_names_no_folder_has_its_projects_path(tmp_path: Path) -> None:
    """A session file left empty, its subagent's transcript beside it: the hit's project is the one the
    list shows (from the other sessions of the folder), not the folder's encoded name."""
    root = tmp_path / "projects"
    folder = root / encode("/home/u/proj")
    simple_project(root)
    (folder / "empty.jsonl").touch()
    agent = Writer("empty", cwd="")
    agent.prompt("investigate pagination")
    agent.write(folder / "empty" / "subagents")
    [hit] = fresh(root, tmp_path, "c").search("pagination")
    assert hit.path == folder / "empty.jsonl" and hit.project == "/home/u/proj"


def test_a_partial_last_line_waits_for_its_newline(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    w = Writer("partial")
    w.prompt("complete line")
    path = w.write(root / "p")
    with open(path, "ab") as f:
        f.write(b'{"type":"user","message":{"content":"half writ')
    lib = Library([root], tmp_path / "cache")
    lib.refresh()
    assert hits(lib, "complete") and not hits(lib, "half")
    with open(path, "ab") as f:
        f.write(b'ten words"},"uuid":"late"}\n')
    assert lib.refresh().bytes_read > 0
    assert hits(lib, "writ") == [] and hits(lib, "written") == ["half \x02written\x03 words"]


def test_a_last_line_without_newline_is_read_when_complete(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    w = Writer("nonl")
    w.prompt("the ending without newline")
    path = w.write(root / "p")
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    lib = fresh(root, tmp_path, "c")
    assert hits(lib, "ending")
    size = path.stat().st_size
    n = len(w.records)
    w.prompt("the newline came after all")
    with open(path, "ab") as f:  # it grows: only the new bytes are read, the file is not taken for a new one
        f.write(b"\n")
    w.append(path, n)
    result = lib.refresh()
    assert (result.bytes_read, result.removed) == (path.stat().st_size - size, 0)
    assert len(hits(lib, "ending")) == 1 and hits(lib, "after")
    assert infos(lib) == infos(fresh(root, tmp_path, "cold"))


def walrus_session(root: Path, tmp_path: Path, sid: str) -> tuple[Path, Library]:
    """A session saying "walrus" twice, and an index of it."""
    w = Writer(sid)
    w.prompt("original walrus text")
    w.answer({"type": "text", "text": "walrus reply"})
    path = w.write(root / "p")
    lib = fresh(root, tmp_path, "cache")
    assert len(hits(lib, "walrus")) == 2
    return path, lib


@pytest.mark.parametrize("how", ["truncate", "replace"])
def test_a_rewritten_file_is_read_again(tmp_path: Path, how: str) -> None:
    root = tmp_path / "projects"
    path, lib = walrus_session(root, tmp_path, "rewritten")
    other = Writer("rewritten")
    other.prompt("brand new narwhal")
    if how == "truncate":
        with open(path, "r+b") as f:
            f.truncate(0)
            f.write(other.lines())
    else:
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(other.lines() + b"\n" * 400)  # same size or bigger: only the inode tells
        os.replace(tmp, path)
    lib.refresh()
    assert hits(lib, "walrus") == []
    assert len(hits(lib, "narwhal")) == 1
    assert infos(lib) == infos(fresh(root, tmp_path, "cold"))


@pytest.mark.parametrize("grows", [False, True])
def test_a_file_written_over_in_place_is_read_again(tmp_path: Path, grows: bool) -> None:
    """Same inode, same size or bigger: the size and mtime alone cannot tell it from an append.
    (Bigger, it is told by the bytes before the old end: a rewrite that keeps them is not seen.)"""
    root = tmp_path / "projects"
    path, lib = walrus_session(root, tmp_path, "inplace")
    if grows:  # a new conversation over the old one: other ids and times
        other = Writer("inplace", start=7200)
        other.prompt("the original walrut text")
        other.answer({"type": "text", "text": "walrut reply"})
        other.prompt("and a longer walrut question")
        data = other.lines() + b"\n"
    else:
        data = path.read_bytes().replace(b"walrus", b"walrut")
    with open(path, "r+b") as f:  # written over, not replaced
        f.write(data)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    lib.refresh()
    assert hits(lib, "walrus") == []
    assert len(hits(lib, "walrut")) == 2 + grows
    assert infos(lib) == infos(fresh(root, tmp_path, "cold"))


def test_a_deleted_file_leaves_the_index(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    paths = simple_project(root, sessions=2)
    lib = fresh(root, tmp_path, "cache")
    assert len(hits(lib, "green")) == 2
    paths[0].unlink()
    assert lib.refresh().removed == 1
    assert len(hits(lib, "green")) == 1
    assert sum(len(p.sessions) for p in lib.projects) == 1


def test_dead_rows_beyond_the_limit_rebuild_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "projects"
    paths = simple_project(root, sessions=3)
    lib = fresh(root, tmp_path, "cache")
    monkeypatch.setattr(store, "DEAD_ROWS_LIMIT", 1)
    paths[0].unlink()
    lib.refresh()  # 6 dead rows now (a session has 6), 12 live
    paths[1].unlink()
    lib.refresh()
    lib.refresh()  # dead > live: rebuilt from the one file left
    db = lib.index.db
    assert db.execute("SELECT value FROM meta WHERE key='dead'").fetchone()[0] == 0
    assert sum(db.execute(f"SELECT count(*) FROM {s}.rows").fetchone()[0] for s in text_schemas(db)) == 6
    assert len(hits(lib, "green")) == 1


def test_a_corrupt_database_is_rebuilt(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    simple_project(root)
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / DB_NAME).write_bytes(b"this is not a database" * 1000)
    lib = fresh(root, tmp_path, "cache")
    assert len(hits(lib, "green")) == 2
    assert not any("memory" in n for n in lib.notices)


@pytest.mark.parametrize("damage", ["garbage", "missing"])
def test_a_damaged_text_database_is_rebuilt(tmp_path: Path, damage: str) -> None:
    root = tmp_path / "projects"
    simple_project(root)
    fresh(root, tmp_path, "cache").index.close()
    text = tmp_path / "cache" / TEXT_NAME.format(0)
    if damage == "garbage":
        text.write_bytes(b"this is not a database" * 1000)
    else:
        text.unlink()
    lib = fresh(root, tmp_path, "cache")
    assert len(hits(lib, "green")) == 2
    assert not any("memory" in n for n in lib.notices)


@pytest.mark.parametrize("name", [DB_NAME, TEXT_NAME.format(0)])
def test_a_damaged_page_met_when_reading_has_the_index_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """Opening reads only the first page: damage further in shows when a search or the listing reads it."""
    from claude_tui.cli import main

    root = tmp_path / "projects"
    simple_project(root)
    monkeypatch.setenv("CLAUDE_TUI_CACHE_DIR", str(tmp_path / "cache"))
    built = Library([root])
    built.refresh()
    built.index.close()
    path = tmp_path / "cache" / name
    data = path.read_bytes()
    pages = len(data) // 4096
    mended = 0
    for page in range(1, pages):
        path.write_bytes(data[: page * 4096] + b"\xab" * 4096 + data[(page + 1) * 4096 :])
        assert main(["search", "green", "--projects-dir", str(root)]) == 0
        assert main(["index", "--projects-dir", str(root)]) == 0
        out, err = capsys.readouterr()
        assert out.count("All green") == 2 and "1 project, 2 sessions" in out
        mended += "index damaged (database disk image is malformed): rebuilt" in err
        path.write_bytes(data)
    # the text database's damage is met by the search; the index's own, as early as opening it (rebuilt silently)
    # or by the listing: which of its pages does depends on its layout (the temporary folder's path is in it)
    assert pages > 4 and (mended >= 1 or name == DB_NAME)
    lib = Library([root])
    lib.reload()
    assert len(hits(lib, "green")) == 2


def test_an_error_of_the_sqlite_module_itself_is_raised_as_it_is(tmp_path: Path) -> None:
    """An error with no SQLite error code (a closed connection's) became an AttributeError."""
    root = tmp_path / "projects"
    simple_project(root)
    lib = fresh(root, tmp_path, "cache")

    def closed(db: sqlite3.Connection) -> None:
        raise sqlite3.ProgrammingError("Cannot operate on a closed database.")

    with pytest.raises(sqlite3.ProgrammingError):
        lib.index.read([root], closed)


def test_an_old_schema_is_rebuilt(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    simple_project(root)
    lib = fresh(root, tmp_path, "cache")
    lib.index.db.execute("UPDATE meta SET value = ? WHERE key='schema'", (SCHEMA_VERSION - 1,))
    lib.index.close()
    again = Library([root], tmp_path / "cache")
    assert again.index.files([root]) == []  # rebuilt empty
    assert again.refresh().files_read == 2


def test_a_locked_database_means_working_from_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "projects"
    simple_project(root)
    fresh(root, tmp_path, "cache").index.close()
    holder = sqlite3.connect(tmp_path / "cache" / DB_NAME, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    monkeypatch.setattr(locks, "BUSY_TIMEOUT", 0.05)
    lib = fresh(root, tmp_path, "cache")
    holder.close()
    assert any("memory" in n for n in lib.notices)
    assert len(hits(lib, "green")) == 2


def _hold_writing(path: Path) -> sqlite3.Connection:
    """Another process's write transaction on the index (readers of a WAL file go on)."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO meta VALUES ('holder', 1)")
    return holder


def test_another_writer_is_waited_for_a_while_then_the_index_is_used_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening and an update with nothing new never wait for another writer; an update with something
    to write waits WRITE_WAIT, saying so, then leaves the index as it is until the writer is done."""
    root = tmp_path / "projects"
    [path, _] = simple_project(root)
    fresh(root, tmp_path, "cache").index.close()
    holder = _hold_writing(tmp_path / "cache" / DB_NAME)
    monkeypatch.setattr(locks, "WRITE_WAIT", 0.5)
    monkeypatch.setattr(locks, "BUSY_TIMEOUT", 0.05)  # a wait for the write lock would end in "locked"
    lib = fresh(root, tmp_path, "cache")
    assert lib.index.path is not None and lib.notices == []  # the index on disk, not one in memory
    late = Writer("late", start=50_000)
    late.prompt("a walrus arrives")
    with open(path, "ab") as f:
        f.write(late.lines())
    told: list[Progress] = []
    with pytest.raises(locks.IndexBusy):
        lib.index.update(lib.roots, told.append)
    assert told and all(p.waiting for p in told)
    result = lib.refresh()
    assert result.busy and hits(lib, "walrus") == [] and len(hits(lib, "green")) == 2
    assert any("kept writing" in n for n in lib.notices)
    holder.execute("ROLLBACK")
    result = lib.refresh()
    assert not result.busy and result.files_read == 1 and hits(lib, "walrus") == ["a \x02walrus\x03 arrives"]


def test_waiting_for_another_writer_stops_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "projects"
    [path, _] = simple_project(root)
    lib = fresh(root, tmp_path, "cache")
    holder = _hold_writing(tmp_path / "cache" / DB_NAME)
    path.touch()
    os.utime(path, ns=(1, 1))
    monkeypatch.setattr(locks, "WRITE_WAIT", 60.0)
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    assert lib.refresh(cancel=cancel).busy
    assert time.monotonic() - started < 30  # not the minute it would wait
    holder.close()


def test_an_unwritable_cache_folder_means_working_from_memory(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    simple_project(root)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    lib = Library([root], blocker / "cache")
    lib.refresh()
    lib.refresh()
    assert [n for n in lib.notices if "memory" in n] == [n for n in lib.notices if "memory" in n][:1]
    assert len([n for n in lib.notices if "working from memory" in n]) == 1
    assert len(hits(lib, "green")) == 2


def _in_workers(monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    """Index however little there is to read in `workers` forked processes (one: in this one)."""
    monkeypatch.setattr(store, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(store, "worker_count", lambda: workers)
    monkeypatch.setattr(pool, "mp_context", lambda: multiprocessing.get_context("fork"))


def _capped(db: sqlite3.Connection) -> None:
    """Each database of `db` may grow by a page at most: a disk that is about to be full."""
    for (schema,) in db.execute("SELECT name FROM pragma_database_list").fetchall():
        pages = db.execute(f"PRAGMA {schema}.page_count").fetchone()[0]
        db.execute(f"PRAGMA {schema}.max_page_count={pages + 1}")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_full_disk_means_working_from_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    """Every hit is found all the same, and the user is told (a partly written index gave fewer hits)."""
    root = tmp_path / "projects"
    for i in range(6):
        simple_project(root, cwd=f"/home/u/p{i}", sessions=3, start=i * 10_000)
    _in_workers(monkeypatch, workers)
    connect = pool.connect

    def capped_connect(path: str) -> sqlite3.Connection:  # the workers' connections (they are forked)
        db = connect(path)
        _capped(db)
        return db

    monkeypatch.setattr(pool, "connect", capped_connect)
    lib = Library([root], tmp_path / "cache")
    _capped(lib.index.db)
    lib.refresh()
    assert [n for n in lib.notices if "working from memory" in n] == [
        f"cannot write the index in {tmp_path / 'cache'} (database or disk is full): working from memory"
    ]
    assert lib.index.path is None
    assert len(hits(lib, "green")) == 18
    assert infos(lib) == infos(fresh(root, tmp_path, "roomy"))


def _start_a_worker_and_vanish(tasks: object, events: object, path: str, pids: object) -> None:
    """A parent that starts a worker and dies at once, with no cleanup (as under `kill -9`)."""
    args = (tasks, events, frozenset(), path, 0, os.getpid())
    worker = multiprocessing.get_context("fork").Process(target=pool._worker, args=args)
    worker.start()
    pids.put(worker.pid)  # type: ignore[attr-defined]
    os._exit(0)


def test_a_worker_whose_parent_is_gone_stops(tmp_path: Path) -> None:
    """A parent killed leaves no worker behind, waiting forever for work that will never come."""
    ctx = multiprocessing.get_context("fork")
    tasks, events, pids = ctx.Queue(), ctx.Queue(), ctx.SimpleQueue()  # a simple queue sends at once
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    parent = ctx.Process(target=_start_a_worker_and_vanish, args=(tasks, events, str(lib.index.path), pids))
    parent.start()
    pid = pids.get()
    parent.join()
    try:
        deadline = time.monotonic() + 30
        while _running(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)


def _running(pid: int) -> bool:
    """Whether process `pid` is still there and not a zombie (an orphan's end is reaped by whoever adopts it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_nothing_is_ever_written_under_a_projects_folder(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    simple_project(root, sessions=3)
    before = tree_state(root)
    lib = Library([root], root / "inside")  # a cache folder inside the projects folder is refused
    lib.refresh()
    assert any("inside a projects folder" in n for n in lib.notices)
    Library([root], tmp_path / "cache").refresh()
    assert tree_state(root) == before


def test_worker_processes_give_the_same_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "projects"
    for i in range(6):
        simple_project(root, cwd=f"/home/u/p{i}", sessions=3, start=i * 10_000)
    here = fresh(root, tmp_path, "here")
    monkeypatch.setattr(store, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(store, "worker_count", lambda: 2)
    pooled = fresh(root, tmp_path, "pool")
    assert infos(pooled) == infos(here)
    assert len(hits(pooled, "green")) == 18
    # from a thread (as the app refreshes) workers are spawned, not forked: the main module stays unrun
    spawned: list[Library] = []
    thread = threading.Thread(target=lambda: spawned.append(fresh(root, tmp_path, "spawned")))
    thread.start()
    thread.join()
    assert infos(spawned[0]) == infos(here)


def test_stopping_keeps_what_was_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "projects"
    for i in range(4):
        simple_project(root, cwd=f"/home/u/p{i}", sessions=2, start=i * 10_000)
    monkeypatch.setattr(pool, "COMMIT_EVERY", 0)
    cancel = threading.Event()
    seen: list[int] = []

    def stop_after_first(p: Progress) -> None:
        seen.append(p.files_done)
        cancel.set()

    monkeypatch.setattr(store.time, "monotonic", _ticking())
    lib = Library([root], tmp_path / "cache")
    result = lib.index.update(lib.roots, stop_after_first, cancel)
    assert result.interrupted and 0 < result.files_read < 8
    rest = lib.refresh()
    assert rest.files_read == 8 - result.files_read
    assert infos(lib) == infos(fresh(root, tmp_path, "cold"))


def _ticking():
    now = [0.0]

    def tick() -> float:
        now[0] += 1.0
        return now[0]

    return tick


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    root = tmp_path / "projects"
    for i in range(30):
        simple_project(root, cwd=f"/home/u/p{i}", sessions=2, start=i * 10_000)
    monkeypatch.setattr(pool, "COMMIT_EVERY", 0)
    _in_workers(monkeypatch, workers)
    run_job = pool.run_job
    started, interrupted = tmp_path / "started", tmp_path / "interrupted"
    started.mkdir()

    def held_job(*args: object) -> object:  # workers are forked: they run this too
        """The first few files are read at once, the others once the interrupt came: files are left to read,
        however fast the workers and however slow the parent."""
        if len(list(started.iterdir())) >= 4:
            for _ in range(3000):  # (time.monotonic is the fake clock below)
                if interrupted.exists():
                    break
                time.sleep(0.01)
        (started / f"{os.getpid()}-{time.perf_counter_ns()}").touch()
        yield from run_job(*args)

    monkeypatch.setattr(pool, "run_job", held_job)
    calls = []

    def interrupt(p: Progress) -> None:
        calls.append(p.files_done)
        if len(calls) == 2:
            interrupted.touch()
            raise KeyboardInterrupt

    monkeypatch.setattr(store.time, "monotonic", _ticking())
    lib = Library([root], tmp_path / "cache")
    with pytest.raises(KeyboardInterrupt):
        lib.index.update(lib.roots, interrupt)
    kept = lib.index.db.execute("SELECT count(*) FROM files WHERE facts IS NOT NULL").fetchone()[0]
    assert 0 < kept < 60
    assert lib.refresh().files_read == 60 - kept
    cold = fresh(root, tmp_path, "cold")
    assert infos(lib) == infos(cold)
    assert sorted(hits(lib, "green")) == sorted(hits(cold, "green"))


def test_two_indexers_at_once_give_one_index(tmp_path: Path) -> None:
    """Two processes refreshing one cache (the app and `claude-tui index`): each file is written once."""
    root = tmp_path / "projects"
    for i in range(12):
        simple_project(root, cwd=f"/home/u/p{i}", sessions=2, start=i * 10_000)
    first, second = Library([root], tmp_path / "cache"), Library([root], tmp_path / "cache")
    threads = [threading.Thread(target=lib.refresh) for lib in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cold = fresh(root, tmp_path, "cold")
    for lib in (first, second):
        lib.refresh()
        assert infos(lib) == infos(cold)
        assert sorted(hits(lib, "green")) == sorted(hits(cold, "green"))


def test_rows_written_twice_show_once(tmp_path: Path) -> None:
    """A worker killed between its two commits leaves rows that the next read writes again."""
    root = tmp_path / "projects"
    simple_project(root)
    lib = fresh(root, tmp_path, "cache")
    before = hits(lib, "green")
    db = lib.index.db
    matching = "SELECT r.* FROM text0.fts JOIN text0.rows r ON r.id = fts.rowid WHERE fts MATCH 'green'"
    rows = db.execute(matching).fetchall()
    top = max(r[0] for r in rows) + 1000
    db.executemany("INSERT INTO text0.rows VALUES (?,?,?,?,?,?,?,?)", [(top + r[0], *r[1:]) for r in rows])
    db.executemany("INSERT INTO text0.fts(rowid, text) VALUES (?, 'green')", [(top + r[0],) for r in rows])
    assert hits(lib, "green") == before


def test_the_index_state_changes_with_each_part_of_a_read_and_is_read_from_indexes_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Index.state, which the front page is checked against at every start: a read stopped part way (Ctrl-C),
    then read on, changes it at each part, though the file's size and time in the index stay as they were; and
    it is read from the indexes files_stamp and files_unreadable alone, not from the files' rows and their
    blobs (whose reading grows with the history)."""
    root = tmp_path / "projects"
    w = Writer("long")
    for i in range(20):
        w.prompt(f"question {i} " + "x" * 2000)
        w.answer()
    w.write(root / "p")
    monkeypatch.setattr(jobs, "EMIT_BYTES", 8192)
    monkeypatch.setattr(extract, "CHUNK", 8192)
    monkeypatch.setattr(pool, "COMMIT_EVERY", 0)
    monkeypatch.setattr(store.time, "monotonic", _ticking())

    def interrupt(_: Progress) -> None:
        raise KeyboardInterrupt

    lib = Library([root], tmp_path / "cache")
    states, stamps = [], []
    for _ in range(3):
        with pytest.raises(KeyboardInterrupt):
            lib.index.update(lib.roots, interrupt)
        states.append(lib.index.state(lib.roots))
        stamps.append(lib.index.db.execute("SELECT size, mtime_ns FROM files").fetchall())
    assert len(set(states)) == 3
    assert stamps[0] == stamps[1] == stamps[2] and stamps[0][0][1] == -1  # not read to its end yet
    traced: list[str] = []
    reading = store.Index.reading

    @contextlib.contextmanager
    def tracing(index: store.Index) -> Iterator[sqlite3.Connection]:
        with reading(index) as db:
            db.set_trace_callback(traced.append)
            yield db

    monkeypatch.setattr(store.Index, "reading", tracing)
    lib.index.state(lib.roots)
    [sql] = traced
    plan = [row[3] for row in lib.index.db.execute(f"EXPLAIN QUERY PLAN {sql}")]
    assert any("COVERING INDEX files_stamp" in step for step in plan), plan
    assert all(
        "COVERING INDEX files_stamp" in step or "INDEX files_unreadable" in step for step in plan if "files" in step
    ), plan


def test_state_round_trips_through_json() -> None:
    state = State(agent=True)
    state.usage = {"m": [1, 2, 3, 4]}
    state.cwds = ["/a"]
    again = State.load(state.dump())
    assert (again.agent, again.usage, again.cwds) == (True, {"m": [1, 2, 3, 4]}, ["/a"])


def test_the_real_corpus_indexes_incrementally_to_the_same_facts(real_projects: Path, tmp_path: Path) -> None:
    """Cut every real file in two: indexing the halves one after the other gives the cold facts."""
    copy = tmp_path / "projects"
    halves: list[tuple[Path, bytes]] = []
    for src in sorted(real_projects.rglob("*.jsonl")):
        dst = copy / src.relative_to(real_projects)
        dst.parent.mkdir(parents=True, exist_ok=True)
        data = src.read_bytes()
        cut = data.rfind(b"\n", 0, len(data) // 2) + 1
        dst.write_bytes(data[:cut])
        halves.append((dst, data[cut:]))
    lib = fresh(copy, tmp_path, "incremental")
    for dst, rest in halves:
        with open(dst, "ab") as f:
            f.write(rest)
    lib.refresh()
    cold = fresh(copy, tmp_path, "cold")
    assert infos(lib) == infos(cold)
    assert len(infos(cold)) > 50


@pytest.mark.parametrize("workers", [1, 2])
def test_a_file_claude_tui_fails_on_is_noted_not_fatal_and_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """A defect of ours met in one file (an exception while reading it) stops neither the update nor the
    other files, whether read here or in workers; the file is listed as unreadable and, unlike one that
    could not be opened, not read again at every update while it is unchanged."""
    root = tmp_path / "projects"
    paths = simple_project(root, sessions=3)
    _in_workers(monkeypatch, workers)
    feed = jobs.Extractor.feed

    def failing_feed(self: jobs.Extractor, lines: bytes, off: int) -> None:  # forked workers run it too
        if b"number 1" in lines:
            raise ValueError("a defect")
        feed(self, lines, off)

    monkeypatch.setattr(jobs.Extractor, "feed", failing_feed)
    lib = Library([root], tmp_path / "cache")
    assert lib.refresh().files_read == 3
    assert lib.index.unreadable(lib.roots) == [(str(paths[1]), f"{jobs.DEFECT}ValueError('a defect')")]
    assert len(hits(lib, "green")) == 2
    assert lib.refresh().files_read == 0


@pytest.mark.parametrize("grows", [False, True])
def test_a_new_summary_of_an_earlier_message_of_an_indexed_file_titles_its_session(tmp_path: Path, grows: bool) -> None:
    """A session indexed, then a new file whose summary names one of its messages before its last (where it
    paused, then went on): the session kept its first prompt as its title until its file was read again,
    and lost the summary for good when that read was of its new lines only."""
    root = tmp_path / "projects"
    earlier = Writer("earlier")
    earlier.prompt("the typed prompt")
    earlier.answer()
    summarized = earlier.last
    earlier.prompt("and then")
    earlier.answer()
    path = earlier.write(root / "p")
    lib = fresh(root, tmp_path, "c")
    later = Writer("later", start=5000)
    later.meta("summary", summary="Summary of the pause", leafUuid=summarized)
    later.prompt("another session")
    later.write(root / "p")
    lib.refresh()
    if grows:
        n = len(earlier.records)
        earlier.prompt("one more")
        earlier.append(path, n)
        lib.refresh()
    stats = session_stats(read_session(path), sibling_summaries(path))
    assert {s.id: s.title for s in lib.projects[0].sessions}["earlier"] == stats["title"] == "Summary of the pause"
    assert [hit.title for hit in lib.search("typed")] == ["Summary of the pause"]


def test_the_totals_count_projects_sessions_and_bytes_of_the_files_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`claude-tui index`'s last line: projects are folders with a session, sessions leave subagent files out
    (their bytes count), a file that could not be read counts."""
    root = tmp_path / "projects"
    first = simple_project(root, sessions=3)
    simple_project(root, cwd="/home/u/other", sessions=2)
    agent = first[0].with_suffix("") / "subagents" / "agent-a1.jsonl"
    agent.parent.mkdir(parents=True)
    agent.write_bytes(first[1].read_bytes())
    feed = jobs.Extractor.feed

    def failing_feed(self: jobs.Extractor, lines: bytes, off: int) -> None:
        if b"number 1" in lines and b"other" in lines:
            raise ValueError("a defect")
        feed(self, lines, off)

    monkeypatch.setattr(jobs.Extractor, "feed", failing_feed)
    lib = Library([root], tmp_path / "cache")
    lib.refresh()
    assert len(lib.index.unreadable(lib.roots)) == 1
    size = sum(p.stat().st_size for p in root.rglob("*.jsonl"))
    assert lib.index.totals(lib.roots) == (2, 5, size)
    assert lib.index.update(lib.roots).totals == (2, 5, size)  # nothing to do: the same, from the files' stat


def test_an_update_with_nothing_to_do_counts_as_the_index_does(tmp_path: Path) -> None:
    """The totals an update with nothing to do gives (`claude-tui index`'s last line, without a query) are the
    index's, whatever the folder holds: an empty file, garbage, a last line with no newline, a subagent's
    transcript, and what is not a session file (a folder, a FIFO, a link to itself)."""
    folder = tmp_path / "projects" / "-home-u-p"
    (folder / "s1" / "subagents").mkdir(parents=True)
    (folder / "empty.jsonl").write_bytes(b"")
    (folder / "bad.jsonl").write_bytes(b"garbage\xff\xfe\n")
    (folder / "nonl.jsonl").write_bytes(b'{"type":"user"}')
    (folder / "s1" / "subagents" / "agent-a1.jsonl").write_bytes(b'{"type":"user","sessionId":"s1"}\n')
    (folder / "dir.jsonl").mkdir()
    (folder / "loop.jsonl").symlink_to("loop.jsonl")
    os.mkfifo(folder / "fifo.jsonl")
    roots = [tmp_path / "projects"]
    index = store.Index(tmp_path / "cache", roots)
    assert index.update(roots).totals is None  # it read files: its totals are the index's to give
    files = ["empty.jsonl", "bad.jsonl", "nonl.jsonl", "s1/subagents/agent-a1.jsonl"]
    size = sum((folder / name).stat().st_size for name in files)
    assert index.update(roots).totals == index.totals(roots) == (1, 3, size) != (1, 3, 0)


def test_a_worker_gives_back_the_memory_a_written_batch_held() -> None:
    """Texts freed between long-lived small ones leave holes the allocator keeps; the release after each batch
    gives their pages back, so a worker reading for minutes stays near the size of one batch."""

    def resident() -> int:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    texts, kept = [], []
    for _ in range(5000):
        texts.append(bytearray(20_000))
        kept.append(bytearray(600))  # a row's small value, kept past the batch
    del texts
    held = resident()
    pool.memory_releaser()()
    assert held - resident() > 50_000_000


def test_spawned_workers_do_not_import_the_current_folders_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Started from a folder holding a `types.py` (anyone's scratch file), the app's spawned workers imported it
    before the standard library's and died: the browser said there was no history."""
    root = tmp_path / "projects"
    simple_project(root)
    here = tmp_path / "work"
    here.mkdir()
    (here / "types.py").write_text("raise ImportError('the types.py of the current folder')\n")
    monkeypatch.chdir(here)
    _in_workers(monkeypatch, 2)
    monkeypatch.setattr(pool, "mp_context", lambda: multiprocessing.get_context("spawn"))  # as from the app
    lib = Library([root], tmp_path / "cache")
    lib.refresh()
    assert not lib.notices
    assert len(hits(lib, "green")) == 2
    assert "PYTHONSAFEPATH" not in os.environ  # the app's own environment as it was


def test_workers_that_die_say_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers that stopped before their last word left the index short with not a word of why."""
    root = tmp_path / "projects"
    simple_project(root)
    _in_workers(monkeypatch, 2)
    monkeypatch.setattr(pool, "_worker", lambda *args: os._exit(3))
    lib = Library([root], tmp_path / "cache")
    lib.refresh()
    assert any(n.startswith("the index's workers stopped (exit status 3)") for n in lib.notices), lib.notices
