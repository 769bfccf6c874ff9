"""The library: projects by real path, worktrees grouped, session facts as the core model counts them."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from claude_tui.core.export import export_session
from claude_tui.core.facts import encode_path, split_path
from claude_tui.core.files import (
    SessionNotFound,
    agent_files,
    default_roots,
    find_session,
    session_files,
    sibling_summaries,
)
from claude_tui.core.index.extract import MAX_LEAVES
from claude_tui.core.library import Library, repo_of
from claude_tui.core.loader import read_session
from claude_tui.core.session import Session
from claude_tui.core.session_counts import usage_items
from claude_tui.core.stats import format_stats, session_stats
from claude_tui.core.usage import most_used_first
from tests.library_data import Writer, encode, simple_project


def library(root: Path, tmp_path: Path) -> Library:
    lib = Library([root], tmp_path / "cache")
    lib.refresh()
    return lib


def test_a_missing_root_is_an_empty_library_with_a_notice(tmp_path: Path) -> None:
    lib = library(tmp_path / "nowhere", tmp_path)
    lib.refresh()
    assert lib.projects == []
    assert lib.notices == [f"no projects folder at {tmp_path / 'nowhere'}"]  # said once


def test_projects_show_their_real_path_newest_first(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    simple_project(root, cwd="/home/u/old-thing", start=0)
    simple_project(root, cwd="/home/u/new.thing", start=50_000)
    # a session that moved into a subfolder first: the folder name still picks the project's path
    w = Writer("moved", cwd="/home/u/new.thing/sub", start=60_000)
    w.prompt("in a subfolder")
    w.write(root / encode("/home/u/new.thing"))
    for path in (root / encode("/home/u/new.thing")).glob("*.jsonl"):
        os.utime(path, (1e9, 1e9))  # old files, and a copy of older sessions made since: records order them
    for path in (root / encode("/home/u/old-thing")).glob("*.jsonl"):
        os.utime(path)
    lib = library(root, tmp_path)
    assert [p.path for p in lib.projects] == ["/home/u/new.thing", "/home/u/old-thing"]
    assert [p.name for p in lib.projects] == ["new.thing", "old-thing"]
    newest = lib.projects[0]
    assert newest.folder == root / encode("/home/u/new.thing")
    assert newest.sessions[0].id == "moved"
    assert newest.sessions[0].project == "/home/u/new.thing/sub"
    assert newest.last_activity >= lib.projects[1].last_activity


def test_a_project_in_two_homes_is_one_project(tmp_path: Path) -> None:
    """--projects-dir given twice (a laptop's history copied beside this one's): one working folder, one project."""
    home, other = tmp_path / "a" / "projects", tmp_path / "b" / "projects"
    simple_project(home, cwd="/home/u/proj", sessions=1)
    simple_project(home, cwd="/home/u/else", sessions=1, start=10_000)
    w = Writer("from-the-laptop", cwd="/home/u/proj", start=50_000)
    w.prompt("on the laptop")
    w.write(other / encode("/home/u/proj"))
    lib = Library([home, other], tmp_path / "cache")
    lib.refresh()
    assert [p.path for p in lib.projects] == ["/home/u/proj", "/home/u/else"]
    assert [s.id for s in lib.projects[0].sessions] == ["from-the-laptop", "sess--home-u-proj-0"]
    assert lib.projects[0].folder == other / encode("/home/u/proj")  # where its newest session is


def test_records_written_out_of_order_span_from_the_earliest_to_the_latest(tmp_path: Path) -> None:
    """Claude Code writes some records after later ones (a /context command's, say): a session starts
    at its earliest record time and ends at its latest, not at its first and last lines'."""
    root = tmp_path / "projects"
    w = Writer("skew", cwd="/home/u/skew")
    w.prompt("hello")["timestamp"] = "2026-01-05T09:00:50.541Z"
    w.answer({"type": "text", "text": "hi"})
    w.records[-1]["timestamp"] = "2026-01-05T09:00:48.529Z"  # 2 s earlier: written out of order
    w.prompt("and?")["timestamp"] = "2026-01-05T09:00:59.000Z"
    w.answer({"type": "text", "text": "done"})
    w.records[-1]["timestamp"] = "2026-01-05T09:00:58.000Z"
    path = w.write(root / encode("/home/u/skew"))
    [project] = library(root, tmp_path).projects
    info = project.sessions[0]
    assert (info.started, info.ended) == ("2026-01-05T09:00:48.529Z", "2026-01-05T09:00:59.000Z")
    assert (info.duration_s, info.active_s) == (10.471, 10.471)
    facts = session_stats(read_session(path))
    assert (facts["started"], facts["ended"], facts["duration_s"]) == (info.started, info.ended, 10.471)


def test_inline_sidechain_records_time_the_session(tmp_path: Path) -> None:
    """Before 2.0 a Task's subagent was written into the session's file (isSidechain): its answers count there,
    and so do its times: the session ends at its last one, and a pause between two of them is left out."""
    root = tmp_path / "projects"
    w = Writer("side", cwd="/home/u/side")
    w.prompt("delegate")  # 09:00:01
    w.tool("Task", {"prompt": "look around"}, "done")
    w.prompt("look around", parentUuid=None, isSidechain=True)
    w.answer({"type": "text", "text": "looking"})
    w.records[-1].update(isSidechain=True, timestamp="2026-01-05T09:30:00.000Z")
    w.answer({"type": "text", "text": "found it"})
    w.records[-1].update(isSidechain=True, timestamp="2026-01-05T11:00:00.000Z")  # after a pause of 1h30
    path = w.write(root / encode("/home/u/side"))
    [project] = library(root, tmp_path).projects
    info = project.sessions[0]
    assert (info.started, info.ended) == ("2026-01-05T09:00:01.000Z", "2026-01-05T11:00:00.000Z")
    assert (info.duration_s, info.active_s) == (7199.0, 1799.0)
    facts = session_stats(read_session(path))
    assert (facts["started"], facts["ended"]) == (info.started, info.ended)
    assert (facts["duration_s"], facts["active_s"], facts["interruptions"]) == (7199.0, 1799.0, 1)


def test_encode_path_is_claude_codes_folder_name() -> None:
    assert encode_path("/Users/me/my_repo.v2") == "-Users-me-my-repo-v2"


@pytest.mark.parametrize(
    ("path", "parts"),
    [
        ("/home/u/app", ("/home/u", "app")),
        ("/home/u/app/", ("/home/u", "app")),
        ("e:\\Workspace\\src\\app", ("e:\\Workspace\\src", "app")),
        ("/", ("", "/")),
    ],
)
def test_a_working_folder_splits_into_parent_and_name_on_windows_too(path: str, parts: tuple[str, str]) -> None:
    """The tree names a project by its folder and tells two of one name apart by their parents."""
    assert split_path(path) == parts


def test_worktrees_group_under_their_repository(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    simple_project(root, cwd="/src/app")
    simple_project(root, cwd="/src/app/.claude/worktrees/agent-1")
    simple_project(root, cwd="/src/app-worktrees/feature")
    w = Writer("maker", cwd="/src/lib")
    w.prompt("make a worktree")
    w.tool("Bash", {"command": "git worktree add -b fix ../lib-fix"}, "Preparing worktree")
    w.write(root / encode("/src/lib"))
    simple_project(root, cwd="/src/lib-fix")
    simple_project(root, cwd="/src/other")
    lib = library(root, tmp_path)
    repos = {p.path: p.repo for p in lib.projects}
    assert repos == {
        "/src/app": None,
        "/src/app/.claude/worktrees/agent-1": "/src/app",
        "/src/app-worktrees/feature": "/src/app",
        "/src/lib": None,
        "/src/lib-fix": "/src/lib",
        "/src/other": None,
    }


def test_worktrees_inside_or_beside_their_repository_group_under_it(tmp_path: Path) -> None:
    """`.worktrees/NAME` inside the repository, and `worktrees/NAME` or `REPO-wt/NAME` when the repository is a
    project too; a sub-folder that is its own project stays apart."""
    root = tmp_path / "projects"
    for cwd in (
        "/x/repo",
        "/x/repo/.worktrees/feat2",
        "/x/repo/worktrees/feat4",
        "/x/repo-wt/feature",
        "/x/repo/docs",
        "/y/worktrees/loose",
        "/y/tools-wt/thing",
    ):
        simple_project(root, cwd=cwd)
    repos = {p.path: p.repo for p in library(root, tmp_path).projects}
    assert repos == {
        "/x/repo": None,
        "/x/repo/.worktrees/feat2": "/x/repo",
        "/x/repo/worktrees/feat4": "/x/repo",
        "/x/repo-wt/feature": "/x/repo",
        "/x/repo/docs": None,
        "/y/worktrees/loose": None,  # /y is no project: a folder of worktrees of anything
        "/y/tools-wt/thing": None,
    }


def test_repo_of_paths() -> None:
    assert repo_of("/r/.claude/worktrees/x", {}) == "/r"
    assert repo_of("C:\\code\\r-worktrees\\x", {}) == "C:\\code\\r"
    assert repo_of("/r/x", {"/r/x": "/q"}) == "/q"
    assert repo_of("/r/x", {}) is None
    assert repo_of("C:\\code\\r\\.worktrees\\x", {}) == "C:\\code\\r"
    assert repo_of("/r/.worktrees", {}) is None
    assert repo_of("/r/worktrees/x", {}, {"/r"}) == "/r"


def test_live_means_written_in_the_last_minute(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    old, new, future = simple_project(root, sessions=3)
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    os.utime(future, (time.time() + 86_400, time.time() + 86_400))  # a copy, or another machine's clock
    lib = library(root, tmp_path)
    live = {s.path: s.live for s in lib.projects[0].sessions}
    assert live == {old: False, new: True, future: False}
    assert lib.projects[0].live


def test_a_summary_of_an_earlier_message_titles_its_session_on_a_cold_index(tmp_path: Path) -> None:
    """A summary written in a newer file, of a message before the session's last: a cold index read the newer
    file first, did not know the message was summarized, and titled the session by its first prompt. Of two
    summaries, the one of the later message is the title (the list and `stats` took the one written last)."""
    folder = tmp_path / "projects" / "p"
    b = Writer("b")
    b.prompt("typed prompt b")
    start = b.last
    b.answer()
    b.prompt("and then")
    middle = b.last
    b.answer()
    path = b.write(folder, mtime=1_000_000)
    z = Writer("z", start=5000)
    z.meta("summary", summary="Summary of the middle", leafUuid=middle)
    z.meta("summary", summary="Summary of the start", leafUuid=start)
    z.prompt("typed prompt z")
    z.write(folder, mtime=2_000_000)
    [project] = library(tmp_path / "projects", tmp_path).projects
    titles = {s.id: s.title for s in project.sessions}
    stats = session_stats(read_session(path), sibling_summaries(path))
    assert titles["b"] == _core_facts(path)["title"] == stats["title"] == "Summary of the middle"


@pytest.mark.parametrize("order", ["cold", "summaries later"])
def test_the_latest_of_many_summarized_messages_titles_its_session(tmp_path: Path, order: str) -> None:
    """More summarized messages than the index notes per file (MAX_LEAVES): it keeps the latest, as `stats`."""
    folder = tmp_path / "projects" / "p"
    b = Writer("b")
    befores = []
    for i in range(MAX_LEAVES + 6):
        b.prompt(f"prompt {i}")
        b.answer()
        befores.append(b.last)
    path = b.write(folder, mtime=1_000_000)
    if order == "summaries later":
        library(tmp_path / "projects", tmp_path)
    z = Writer("z", start=50_000)
    for i, uuid in enumerate(befores[:-1]):
        z.meta("summary", summary=f"Summary of {i}", leafUuid=uuid)
    z.prompt("typed prompt z")
    z.write(folder, mtime=2_000_000)
    [project] = library(tmp_path / "projects", tmp_path).projects
    stats = session_stats(read_session(path), sibling_summaries(path))
    latest = f"Summary of {MAX_LEAVES + 4}"
    assert {s.id: s.title for s in project.sessions}["b"] == stats["title"] == latest


def test_titles_custom_then_ai_then_summary_then_prompt(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "p"
    a = Writer("a")
    a.prompt("typed prompt a")
    a.answer()
    a.meta("ai-title", aiTitle="AI title")
    a.meta("custom-title", customTitle="My title")
    a.write(folder)
    b = Writer("b")
    b.prompt("typed prompt b")
    b.answer()
    b.meta("ai-title", aiTitle="AI title b")
    b.write(folder)
    c = Writer("c")
    c.prompt("typed prompt c")
    c.answer()
    c.write(folder)
    d = Writer("d", start=5000)  # a later session holds c's summary
    d.meta("summary", summary="Summary of c", leafUuid=c.last)
    d.prompt("typed prompt d")
    d.write(folder)
    e = Writer("e")
    e.prompt("<command-name>/model</command-name><command-args>opus</command-args>")
    e.write(folder)
    f = Writer("f")  # a command with arguments says what the session is for; a later prompt does not
    f.prompt(
        "<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n"
        "<command-args>create a TODO app</command-args>"
    )
    f.answer()
    f.prompt("Thanks! Now update CLAUDE.md")
    f.write(folder)
    g = Writer("g")  # a local command (with arguments or not) or a shell command only when nothing else was asked
    g.prompt("<command-name>/clear</command-name><command-args></command-args>")
    g.prompt(
        "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>"
    )
    g.prompt("<local-command-stdout>Set model to opus</local-command-stdout>")
    g.prompt("<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>")
    g.prompt(
        "<command-message>grill</command-message>\n<command-name>/grill</command-name>\n<command-args></command-args>"
    )
    g.prompt("<bash-input>git status</bash-input>")
    g.prompt("fix the build")
    g.write(folder)
    lib = library(tmp_path / "projects", tmp_path)
    titles = {s.id: s.title for s in lib.projects[0].sessions}
    assert titles == {
        "a": "My title", "b": "AI title b", "c": "Summary of c", "d": "typed prompt d", "e": "/model opus",
        "f": "/orchestrator create a TODO app", "g": "fix the build",
    }  # fmt: skip
    core = {s.id: _core_facts(s.path)["title"] for s in lib.projects[0].sessions}
    assert core == titles


def test_titles_skip_the_ide_blocks_as_the_core_model_does(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "p"
    opened = "<ide_opened_file>The user opened the file /p/a.py in the IDE.</ide_opened_file>"
    selected = "<ide_selection>The user selected the lines 1 to 2 from /p/a.py:\nx\n</ide_selection>"
    a = Writer("a")
    a.prompt([{"type": "text", "text": opened}, {"type": "text", "text": "explain this"}])
    a.answer()
    a.write(folder)
    b = Writer("b")
    b.prompt([{"type": "text", "text": opened}, {"type": "text", "text": selected}])
    b.answer()
    b.prompt(selected + "then rename x")
    b.write(folder)
    c = Writer("c")
    c.prompt(opened)
    c.prompt("<command-name>/model</command-name><command-args>opus</command-args>")
    c.write(folder)
    lib = library(tmp_path / "projects", tmp_path)
    mine = {s.id: (s.title, s.first_prompt) for s in lib.projects[0].sessions}
    assert mine == {"a": ("explain this",) * 2, "b": ("then rename x",) * 2, "c": ("/model opus",) * 2}
    core = {s.id: _core_facts(s.path) for s in lib.projects[0].sessions}
    assert mine == {sid: (facts["title"], facts["first_prompt"]) for sid, facts in core.items()}


def test_subagents_count_with_their_tokens(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "p"
    main = Writer("main")
    main.prompt("delegate")
    main.tool("Task", {"prompt": "look around"}, "done")
    path = main.write(folder)
    nested = Writer("main")
    nested.answer(out=1000)
    nested.records[-1]["isSidechain"] = True
    (folder / "main" / "subagents").mkdir(parents=True)
    (folder / "main" / "subagents" / "agent-abc.jsonl").write_bytes(nested.lines())
    flat = Writer("main")
    flat.answer(out=2000)
    (folder / "agent-def.jsonl").write_bytes(flat.lines())
    stranger = Writer("someone-else")
    stranger.answer(out=4000)
    (folder / "agent-zzz.jsonl").write_bytes(stranger.lines())
    lib = library(tmp_path / "projects", tmp_path)
    info = lib.session(path)
    assert info is not None and info.subagents == 2
    assert info.tokens == 113 + 1103 + 2103  # the Task call, then each subagent file: usage counted once
    # a transcript whose session has no file is listed on its own, not lost
    assert {s.id: s.orphan_of for s in lib.projects[0].sessions} == {"main": None, "agent-zzz": "someone-else"}


def test_a_session_with_no_record_of_its_own_is_dated_by_its_subagents(tmp_path: Path) -> None:
    """-Users-dain-workspace-coderabbit-review-helper (1.x): empty session files, and agent-*.jsonl files beside them
    that name them. The list dated each by its file's mtime (the day it was copied), not by its subagents' records."""
    folder = tmp_path / "projects" / "p"
    folder.mkdir(parents=True)
    (folder / "main.jsonl").write_bytes(b"")
    for name, start in (("agent-late", 600), ("agent-early", 60)):
        agent = Writer("main", start=start)
        agent.prompt("look around")
        agent.answer()
        (folder / f"{name}.jsonl").write_bytes(agent.lines())
    info = library(tmp_path / "projects", tmp_path).session(folder / "main.jsonl")
    assert info is not None and info.subagents == 2
    early, late = Writer("main", start=60), Writer("main", start=600)
    early.prompt("look around")
    late.prompt("look around")
    late.answer()
    assert (info.started, info.ended) == (early.records[0]["timestamp"], late.records[-1]["timestamp"])


def test_the_facts_say_what_subagents_add_and_which_models_they_used(tmp_path: Path) -> None:
    """stats said "1 answer" beside tokens and a cost that included a subagent's file, without saying so, and
    named only the models of the session's own file: the export and the list's facts likewise."""
    folder = tmp_path / "projects" / "p"
    main = Writer("main")
    main.prompt("delegate")
    main.tool("Task", {"prompt": "look around"}, "done")
    path = main.write(folder)
    agent = Writer("main")
    agent.answer(model="claude-opus-4-6", out=100_000)
    agent.answer(model="claude-haiku-4-5-20251001", out=10)
    agent.answer(model="claude-sonnet-4-5-20250929", out=10)  # the session's own model: named once
    (folder / "main" / "subagents").mkdir(parents=True)
    (folder / "main" / "subagents" / "agent-abc.jsonl").write_bytes(agent.lines())
    facts = session_stats(read_session(path))
    assert facts["subagent_models"] == ["claude-opus-4-6", "claude-haiku-4-5-20251001"]
    text = format_stats(facts)
    assert "$2.50  (with 1 subagent; the session's file alone: 113 tokens, $0.00)\n" in text
    models = "claude-sonnet-4-5-20250929 (subagents also: claude-opus-4-6, claude-haiku-4-5-20251001)"
    assert f"  models    {models}   versions" in text
    md = export_session(read_session(path), "markdown")
    assert f"- **Models:** {models}\n" in md
    assert "- **Cost at list price:** $2.50 (with 1 subagent; the session's file alone: 113 tokens, $0.00)\n" in md
    info = library(tmp_path / "projects", tmp_path).session(path)
    assert info is not None and (info.models, info.subagent_models) == (facts["models"], facts["subagent_models"])


def test_empty_and_warmup_sessions(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "p"
    w = Writer("warm")
    w.prompt("Warmup")
    w.answer()
    w.write(folder)
    e = Writer("unanswered")  # what the user typed, the session quit before an answer: kept, not empty
    e.prompt("nobody answered")
    e.write(folder)
    c = Writer("command")  # a slash command the model works on is a real exchange
    c.prompt("<command-name>/init</command-name>\n<command-message>init is analyzing your codebase…</command-message>")
    c.answer()
    c.write(folder)
    local = Writer("local")  # a command that only printed something is not
    local.prompt("<command-name>/context</command-name>")
    local.prompt("<local-command-stdout>Context usage: 12k tokens</local-command-stdout>")
    local.write(folder)
    lib = library(tmp_path / "projects", tmp_path)
    flags = {s.id: (s.empty, s.warmup) for s in lib.projects[0].sessions}
    assert flags == {
        "warm": (False, True),
        "unanswered": (False, False),
        "command": (False, False),
        "local": (True, False),
    }
    for s in lib.projects[0].sessions:
        assert read_session(s.path).is_empty == s.empty, s.id


def _core_facts(path: Path) -> dict:
    session = read_session(path)
    stats = session_stats(session)
    tokens = stats["tokens_with_subagents"]
    return {
        "title": session.title(sibling_summaries(path)),
        "first_prompt": session.first_prompt,
        "project": session.project_path or "",
        "started": stats["started"],
        "ended": stats["ended"],
        "duration_s": stats["duration_s"],
        "active_s": stats["active_s"],
        "prompts": stats["user_prompts"],
        "commands": stats["commands"],
        "messages": stats["user_prompts"] + stats["assistant_messages"],
        "tool_calls": stats["tool_calls"],
        "tool_errors": stats["tool_errors"],
        "tokens": sum(tokens.values()) - tokens["cache_creation_1h"],  # a part of cache_creation
        "cost_usd": stats["cost_with_subagents_usd"],
        "models": most_used_first(stats["models"], _output_by_model(session)),
        "subagent_models": stats["subagent_models"],
        "branch": stats["branches"][-1] if stats["branches"] else None,
        "empty": stats["empty"],
        "warmup": stats["warmup"],
        "subagents": len(session.subagents),
    }


def _output_by_model(session: Session) -> dict[str | None, int]:
    output: dict[str | None, int] = {}
    for model, tokens in usage_items(session):
        output[model] = output.get(model, 0) + tokens.output
    return output


def test_facts_match_the_core_model_over_the_real_corpus(real_projects: Path, tmp_path: Path) -> None:
    lib = library(real_projects, tmp_path)
    compared = 0
    for project in lib.projects:
        for info in project.sessions:
            core = _core_facts(info.path)
            mine = {k: getattr(info, k) for k in core}
            if core["project"] == "":
                mine["project"] = ""  # no cwd in the file: the library shows the folder's path instead
            assert mine == core, info.path
            compared += 1
    orphans = [(project.folder, info) for project in lib.projects for info in project.sessions if info.orphan_of]
    assert orphans and not any((folder / f"{info.orphan_of}.jsonl").exists() for folder, info in orphans)
    mains = sum(1 for folder in real_projects.iterdir() if folder.is_dir() for _ in session_files(folder))
    folders = [info for project in lib.projects for info in project.sessions if info.no_file]
    assert folders and not any(info.path.exists() for info in folders)  # sessions with only `<id>/subagents/`
    assert compared == mains + len(orphans) + len(folders)
    assert any(agent_files(info.path) for p in lib.projects for info in p.sessions)


def test_tokens_of_streamed_chunks_count_once_and_of_id_less_messages_each(tmp_path: Path) -> None:
    w = Writer("chunks", cwd="/home/u/chunks")
    w.prompt("stream")
    text, thinking = {"type": "text", "text": "a"}, {"type": "thinking", "thinking": "hm"}
    w.answer(thinking, text, usage={"output_tokens": 7})  # one message in two records: 7
    w.answer(thinking, text, usage={"output_tokens": 5})
    w.records[-1]["message"]["usage"] = {"output_tokens": 12}  # its last chunk says more: 12
    w.answer(thinking, text, text, usage={"output_tokens": 6})  # its middle chunk says most, its last less: 9
    w.records[-2]["message"]["usage"] = {"output_tokens": 9}
    for _ in range(2):  # two messages without an id: 4 each
        w.answer(usage={"output_tokens": 4})
        del w.records[-1]["message"]["id"]
    first = w.answer(usage={"output_tokens": 3})
    w.answer(usage={"output_tokens": 2})
    w._rec("assistant", message={"id": first, "role": "assistant", "content": [text], "usage": {"output_tokens": 3}})
    path = w.write(tmp_path / "projects" / encode("/home/u/chunks"))
    [project] = library(tmp_path / "projects", tmp_path).projects
    assert project.sessions[0].tokens == _core_facts(path)["tokens"] == 7 + 12 + 9 + 4 + 4 + 3 + 2


def test_an_api_error_is_not_counted_as_an_answer(tmp_path: Path) -> None:
    """The Markdown export, stats and the list's Msgs counted Claude Code's API error message as an answer."""
    w = Writer("failed")
    w.prompt("go")
    w.answer()
    w.prompt("again")
    w.answer({"type": "text", "text": "You've hit your weekly limit"}, model="<synthetic>", usage={"output_tokens": 0})
    w.records[-1]["isApiErrorMessage"] = True
    path = w.write(tmp_path / "projects" / "p")
    [project] = library(tmp_path / "projects", tmp_path).projects
    assert project.sessions[0].messages == _core_facts(path)["messages"] == 3
    session = read_session(path)
    assert "2 prompts, 1 answer," in export_session(session, "markdown")
    assert "2 prompts, 1 answer," in format_stats(session_stats(session))
    assert session_stats(session)["api_errors"] == 1


@pytest.mark.parametrize(
    ("command", "cwd", "targets"),
    [
        ("git worktree add ../feat", "/src/app", ["/src/feat"]),
        ("git worktree add -b fix /tmp/wt main", "/src/app", ["/tmp/wt"]),
        ("cd x && git -C /src/app worktree add --detach wt", "/elsewhere", ["/src/app/wt"]),
        ("git worktree list", "/src/app", []),
        ("echo 'git worktree add' ", "/src/app", []),
        ('git worktree add "unclosed', "/src/app", []),
        ("git worktree add rel", None, []),
        ("git worktree add -b && ls", "/src/app", []),
        (
            "git worktree add -b feat2 .worktrees/feat2 && git worktree add ../repo-wt/feature",
            "/x/repo",
            ["/x/repo/.worktrees/feat2", "/x/repo-wt/feature"],
        ),
        ("git worktree add a;git worktree add b|cat", "/r", ["/r/a", "/r/b"]),
    ],
)
def test_worktree_commands(command: str, cwd: str | None, targets: list[str]) -> None:
    """Every `git worktree add` of a command line, each up to its own `&&`, `;` or `|`."""
    from claude_tui.core.index.extract import worktree_targets

    assert worktree_targets(command, cwd) == targets


def test_every_worktree_a_command_made_groups_under_its_maker(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    w = Writer("maker", cwd="/src/lib")
    w.prompt("make two worktrees")
    w.tool("Bash", {"command": "git worktree add ../lib-a && git worktree add -b b ../lib-b"}, "Preparing worktree")
    w.write(root / encode("/src/lib"))
    simple_project(root, cwd="/src/lib-a")
    simple_project(root, cwd="/src/lib-b")
    repos = {p.path: p.repo for p in library(root, tmp_path).projects}
    assert repos == {"/src/lib": None, "/src/lib-a": "/src/lib", "/src/lib-b": "/src/lib"}


def test_refresh_reloads_only_when_the_index_changed(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    simple_project(root, sessions=1)
    lib = library(root, tmp_path)
    first = lib.projects
    lib.refresh()
    assert lib.projects is first  # nothing changed: the same objects
    other = Library([root], tmp_path / "cache")  # another process indexes a new session
    simple_project(root, cwd="/home/u/other", sessions=1)
    other.refresh()
    lib.refresh()  # nothing left for this one to read, but the index changed under it
    assert sorted(p.path for p in lib.projects) == ["/home/u/other", "/home/u/proj"]


def test_the_model_that_wrote_most_comes_first() -> None:
    output = {"sonnet": 50, "opus": 900, "opus (long context)": 10}
    assert most_used_first(["sonnet", "opus", "haiku"], output) == ["opus", "sonnet", "haiku"]


def test_a_session_named_by_a_relative_path_is_the_one_the_library_lists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`claude-tui --projects-dir projects projects/p/x.jsonl` from a shell: the browser selects that
    session in the tree and the list (it looked for the relative name among absolute ones, and found none)."""
    [path, _] = simple_project(tmp_path / "projects")
    monkeypatch.chdir(tmp_path)
    roots = default_roots(["projects"])
    lib = Library(roots, tmp_path / "cache")
    lib.refresh()
    named = find_session(str(path.relative_to(tmp_path)), roots)
    info = lib.session(named)
    assert info is not None and info.path == path


def test_an_ambiguous_id_names_the_matches_so_they_can_be_told_apart(tmp_path: Path) -> None:
    """Ids when they differ; the same id, copied into two project folders, by the files' paths under the
    folder they share (it said "2 sessions match (c…c, c…c)")."""
    sid = "cccccccc-0000-4000-8000-00000000000c"
    roots = [tmp_path / "projects"]
    for folder in ("-home-u-a", "-home-u-b"):
        Writer(sid).write(roots[0] / folder)
    Writer("cccccccc-0000-4000-8000-00000000000d").write(roots[0] / "-home-u-a")
    with pytest.raises(SessionNotFound) as exc:
        find_session(sid, roots)
    assert str(exc.value) == (
        f"{sid!r} is ambiguous: 2 session files match under {roots[0]}"
        f" (-home-u-a/{sid}.jsonl, -home-u-b/{sid}.jsonl): name one by its path"
    )
    with pytest.raises(
        SessionNotFound, match=rf"3 session files match .* \(-home-u-a/{sid}.jsonl, -home-u-a/{sid[:-1]}d"
    ):
        find_session("cccc", roots)


def _listed_and_core(root: Path, tmp_path: Path, path: Path) -> tuple[dict, dict]:
    """The list's facts of the session at `path` and those `stats` gives, side by side."""
    [info] = [s for p in library(root, tmp_path).projects for s in p.sessions if s.id == path.stem]
    core = _core_facts(path)
    return {k: getattr(info, k) for k in core}, core


@pytest.mark.parametrize("grown", [False, True])
def test_the_list_counts_a_record_written_twice_once_as_stats_does(tmp_path: Path, grown: bool) -> None:
    """A prompt written twice is one prompt, and a copy of an earlier record brings back no earlier time (no second
    pause), whether the copy is read with the rest or after it, as the file grew."""
    root = tmp_path / "projects"
    w = Writer("twice", cwd="/home/u/twice")
    w.prompt("make it ruby")
    w.answer({"type": "text", "text": "done"})
    w.records[-1]["timestamp"] = "2026-01-05T11:00:00.000Z"
    w.records.append(dict(w.records[0]))
    w.prompt("and the tests")["timestamp"] = "2026-01-05T11:00:10.000Z"
    folder = root / encode("/home/u/twice")
    if grown:
        whole = w.records
        w.records = whole[:2]
        path = w.write(folder)
        library(root, tmp_path)
        w.records = whole
        w.append(path, 2)
    else:
        path = w.write(folder)
    listed, core = _listed_and_core(root, tmp_path, path)
    assert listed == core
    assert (core["prompts"], core["messages"], core["active_s"]) == (2, 3, 10.0)


@pytest.mark.parametrize("tz", ["UTC", "America/Los_Angeles", "Asia/Tokyo"])
def test_the_list_times_other_zones_and_times_with_none_as_stats_does(
    tmp_path: Path, zone: Callable[[str], None], tz: str
) -> None:
    """A pause between times written in two zones is seen though both read "14:3", and a time with no zone is
    UTC, wherever the list is read."""
    zone(tz)
    root = tmp_path / "projects"
    w = Writer("zones", cwd="/home/u/zones")
    w.prompt("go")["timestamp"] = "2026-01-05T14:30:00.000+05:30"  # 09:00 UTC
    w.answer({"type": "text", "text": "back"})
    w.records[-1]["timestamp"] = "2026-01-05T14:31:40.000Z"
    w.prompt("on")["timestamp"] = "2026-01-05T14:33:20.000"
    path = w.write(root / encode("/home/u/zones"))
    listed, core = _listed_and_core(root, tmp_path, path)
    assert listed == core
    assert (core["ended"], core["duration_s"], core["active_s"]) == ("2026-01-05T14:33:20.000", 20_000.0, 100.0)


def test_the_list_prices_a_message_whose_first_chunk_names_no_model_as_stats_does(tmp_path: Path) -> None:
    """The first streamed chunk of a message, or of a subagent's copied into progress records, names no model and
    the later ones do: the message is that model's, its tokens priced, in the list as in stats."""
    root = tmp_path / "projects"
    w = Writer("nameless", cwd="/home/u/nameless")
    w.prompt("go")
    w.answer({"type": "text", "text": "a"}, {"type": "text", "text": "b"}, model="claude-opus-4-1-20250805")
    w.records[-2]["message"] = {**w.records[-2]["message"], "model": None}
    tid = w.tool("Task", {"prompt": "look"}, "found")
    for n, model in enumerate((None, "claude-haiku-4-5-20251001")):
        usage = {"input_tokens": 3, "output_tokens": 10 + n}
        nested = {"type": "assistant", "uuid": f"nested-{n}", "timestamp": "2026-01-05T09:00:30.000Z",
                  "message": {"id": "msg_sub", "model": model, "role": "assistant",
                              "content": [{"type": "text", "text": "looking"}], "usage": usage}}  # fmt: skip
        w._rec("progress", parentToolUseID=tid, data={"type": "agent_progress", "agentId": "a1", "message": nested})
    path = w.write(root / encode("/home/u/nameless"))
    listed, core = _listed_and_core(root, tmp_path, path)
    assert listed == core
    assert core["models"][0] == "claude-opus-4-1-20250805"
    assert core["subagent_models"] == ["claude-haiku-4-5-20251001"]
    [info] = [s for p in library(root, tmp_path).projects for s in p.sessions]
    assert info.unpriced == []


def test_the_list_counts_usage_that_is_no_count_as_stats_does(tmp_path: Path) -> None:
    """A count of quintillions (damage) is no count: not "18446744073709.9M tokens · $830,103,483,316,930"."""
    root = tmp_path / "projects"
    w = Writer("absurd", cwd="/home/u/absurd")
    w.prompt("go")
    w.answer(usage={"input_tokens": 3, "output_tokens": 2**63 + 5, "cache_read_input_tokens": 100})
    w.answer(usage={"input_tokens": "7", "output_tokens": 759.5, "cache_read_input_tokens": True})
    path = w.write(root / encode("/home/u/absurd"))
    listed, core = _listed_and_core(root, tmp_path, path)
    assert listed == core
    assert core["tokens"] == 103
