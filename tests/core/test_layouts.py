"""Claude Code 2.1's files beside a session: each is read where it belongs, shown there, and counted once."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import orjson
import pytest

from claude_tui.cli import main
from claude_tui.core.export import export_session
from claude_tui.core.files import SessionNotFound, find_session, persisted_file
from claude_tui.core.find import locate
from claude_tui.core.library import Library
from claude_tui.core.loader import read_session
from claude_tui.core.model import Kind, ToolCall
from claude_tui.core.resume import DEFAULT_COMMAND, copy_line, of_session
from claude_tui.core.session import Session, unstarted
from claude_tui.core.session_counts import tool_call_counts
from claude_tui.core.source import full_output, persisted_text
from claude_tui.core.usage import Tokens
from claude_tui.ui import tools
from claude_tui.ui.widgets.header import continuation
from claude_tui.ui.widgets.sessions import title_of
from tests.core import layout_data as real
from tests.ui_support import index_of, loaded, session_app


def library(root: Path, tmp_path: Path) -> Library:
    lib = Library([root], tmp_path / "cache")
    lib.refresh()
    return lib


# ---------------------------------------------------------------- outputs moved to tool-results/


def _moved_call(path: Path) -> tuple[Session, ToolCall]:
    """The session of real.persisted_session, and its one Bash call."""
    session = read_session(path)
    (call,) = session.calls.values()
    return session, call


def test_an_output_moved_out_of_the_transcript_keeps_its_preview_and_its_size(tmp_path: Path) -> None:
    _, call = _moved_call(real.persisted_session(tmp_path / "-home-ada-code-fw"))
    result = call.result
    assert result.text == real.DF_PREVIEW  # the preview, without Claude Code's note around it
    assert result.size == len(real.DF_OUTPUT.encode()) and result.truncated
    assert result.persisted.endswith("byshsvyn3.txt")


@pytest.mark.parametrize(
    "recorded",
    [
        "/home/moxa/.claude/projects/-home-moxa-fw/d3f32579-7f66-464a-b856-526a67163a15/tool-results",
        "C:\\Users\\namma\\.claude\\projects\\C--fw\\d3f32579-7f66-464a-b856-526a67163a15\\tool-results",
    ],
    ids=["another-machine", "windows"],
)
def test_the_whole_output_is_read_from_the_sessions_own_folder(tmp_path: Path, recorded: str) -> None:
    """The path Claude Code recorded is of the machine that wrote it: the file is found by its name."""
    path = real.persisted_session(tmp_path / "-home-ada-code-fw", recorded)
    session, call = _moved_call(path)
    assert persisted_file(path, call.result.persisted) == path.parent / real.SID / "tool-results" / "byshsvyn3.txt"
    assert full_output(session.path, call) == real.DF_OUTPUT


def test_an_output_whose_file_is_gone_shows_its_preview_and_says_the_rest_is_not_here(tmp_path: Path) -> None:
    session, call = _moved_call(real.persisted_session(tmp_path / "-home-ada-code-fw", with_file=False))
    text = full_output(session.path, call)
    assert text.startswith(real.DF_PREVIEW)
    assert "the rest of this output" in text and "byshsvyn3.txt, which is not in" in text


def test_an_export_holds_the_whole_moved_output(tmp_path: Path) -> None:
    session, _ = _moved_call(real.persisted_session(tmp_path / "-home-ada-code-fw"))
    exported = orjson.loads(export_session(session, "json"))
    (call,) = [call for m in exported["messages"] for call in m.get("tool_calls", ())]
    assert call["result"]["text"] == real.DF_OUTPUT and not call["result"]["truncated"]


def test_search_finds_what_only_the_moved_file_holds(tmp_path: Path) -> None:
    real.persisted_session(tmp_path / "projects" / "-home-ada-code-fw")
    lib = library(tmp_path / "projects", tmp_path)
    (hit,) = lib.search("quokka")
    assert hit.kind == "tool_output" and "quokka" in hit.snippet
    assert not lib.search("persisted")  # Claude Code's note is not the output


def test_a_hooks_moved_output_is_read_back_whole(tmp_path: Path) -> None:
    path = real.persisted_session(tmp_path / "-home-ada-code-fw")
    recorded = f"/Users/x/.claude/projects/-x/{real.SID}/tool-results/byshsvyn3.txt"
    note = real.persisted_note(recorded, "55.3KB", real.DF_PREVIEW)
    assert persisted_text(str(path), note) == real.DF_OUTPUT
    assert persisted_text(str(path), "a hook said this") == "a hook said this"


# ---------------------------------------------------------------- a file not named by its session's id


def test_a_file_not_named_by_its_session_goes_by_the_id_its_records_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defect 11: `short.jsonl` holding session 55604662-… could not be found by that id and resumed as `short`."""
    project = tmp_path / "projects" / "-home-ada-code-fw"
    real.persisted_session(project).rename(project / "short.jsonl")
    roots = [tmp_path / "projects"]
    path = find_session(real.SID[:8], roots)
    assert path == project / "short.jsonl" and find_session(real.SID, roots) == path
    session = read_session(path)
    assert session.id == real.SID
    assert copy_line(DEFAULT_COMMAND, of_session(session)).endswith(f"claude --resume {real.SID}")
    assert full_output(session.path, next(iter(session.calls.values()))) == real.DF_OUTPUT  # its folder, by its id
    assert main(["stats", "--json", real.SID[:8], "--projects-dir", str(roots[0])]) == 0
    assert orjson.loads(capsys.readouterr().out)["session_id"] == real.SID
    assert main(["export", real.SID[:8], "--projects-dir", str(roots[0]), "--format", "json"]) == 0
    assert orjson.loads(capsys.readouterr().out)["session"]["session_id"] == real.SID
    (info,) = library(roots[0], tmp_path).projects[0].sessions
    assert info.id == real.SID and info.file == str(path)


# ---------------------------------------------------------------- a session folder with no file


def test_a_session_folder_with_no_file_is_listed_found_and_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only `<id>/subagents/` is there (a workflow's agents, as in the real corpus): one session, by its id, whose
    subagents' tokens are its own."""
    root = tmp_path / "projects"
    would_be = real.workflow_run(root / "C--Users-namma--claude")
    assert not would_be.exists()
    (info,) = library(root, tmp_path).projects[0].sessions
    assert (info.id, info.file, info.no_file, info.subagents) == (real.WF_SID, str(would_be), True, 3)
    assert info.title.startswith("You are an RF/microwave")
    assert find_session(real.WF_SID[:8], [root]) == would_be
    assert find_session(str(would_be), [root]) == would_be  # by the path the list gives it, too
    with pytest.raises(SessionNotFound, match="no such file"):
        find_session(str(would_be.with_name("0" * 8 + would_be.name[8:])), [root])  # a folder of none
    session = read_session(would_be)
    assert [s.agent_id for s in session.subagents] == sorted(a for a, _, _ in real.WF_AGENTS)
    assert main(["stats", "--json", str(would_be)]) == 0
    assert orjson.loads(capsys.readouterr().out)["session_id"] == real.WF_SID
    assert main(["stats", "--json", real.WF_SID[:8], "--projects-dir", str(root)]) == 0
    facts = orjson.loads(capsys.readouterr().out)
    output = sum(out + 35 for _, _, out in real.WF_AGENTS)
    assert facts["tokens_with_subagents"]["output"] == output and facts["subagents"] == 3
    assert info.tokens == Tokens(**facts["tokens_with_subagents"]).total  # the list counts them as stats does


# ---------------------------------------------------------------- workflow runs


def test_a_workflows_agents_are_nested_under_its_call_and_counted_in_its_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "projects"
    path = real.workflow_session(root / "C--Users-namma--claude")
    session = read_session(path)
    (call,) = [c for c in session.calls.values() if c.name == "Workflow"]
    assert [sub.agent_id for sub in call.subagents] == [a for a, _, _ in real.WF_AGENTS]  # as they started
    assert all(sub.parent_call is call and not unstarted(sub) for sub in session.subagents)
    assert tools.summary(call, None) == ("spec-review", "3 agents · 9 messages")
    exported = orjson.loads(export_session(session, "json"))
    calls = [c for m in exported["messages"] for c in m.get("tool_calls", ()) if c["name"] == "Workflow"]
    assert [a["agent_id"] for a in calls[0]["workflow_agents"]] == [sub.agent_id for sub in call.subagents]
    assert not exported["unlinked_subagents"]
    assert main(["stats", "--json", str(path)]) == 0
    facts = orjson.loads(capsys.readouterr().out)
    theirs = sum(out + 35 for _, _, out in real.WF_AGENTS)
    assert facts["tokens_with_subagents"]["output"] - facts["tokens"]["output"] == theirs
    (info,) = library(root, tmp_path).projects[0].sessions
    assert (info.tokens, info.subagents) == (Tokens(**facts["tokens_with_subagents"]).total, 3)


async def test_a_workflows_agents_open_under_its_call(tmp_path: Path) -> None:
    app = session_app(real.workflow_session(tmp_path / "C--Users-namma--claude"))
    async with app.run_test(size=(140, 50)) as pilot:
        view = await loaded(pilot, app)
        assert not [e for e in view.entries if e.kind == "agent"]  # no marker of a subagent no call started
        at = index_of(view, lambda e: e.call is not None and e.call.name == "Workflow")
        view.select(at)
        await pilot.press("space")
        prompts = [e for e in view.entries if e.depth == 1 and e.message.kind is Kind.PROMPT and e.kind == "header"]
        assert len(prompts) == 3  # each agent's transcript, in turn
        assert "spec-review" in "".join(s.text for s in view.drawn(view.entries[at]))


# ---------------------------------------------------------------- /btw side questions


def test_a_side_question_is_its_question_and_answer_counted_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its transcript replays the session's records: they are the session's, not the side question's."""
    root = tmp_path / "projects"
    path, _ = real.side_question_session(root / "-home-nick-work-libnn")
    session = read_session(path)
    (aside,) = session.subagents
    assert [m.kind for m in aside.visible()] == [Kind.PROMPT, Kind.ASSISTANT]
    assert unstarted(aside) and aside.parent_call is None
    assert tool_call_counts(aside) == (0, 0)  # the Bash call it replays is the session's
    assert main(["stats", "--json", str(path)]) == 0
    facts = orjson.loads(capsys.readouterr().out)
    assert (facts["tokens"]["output"], facts["tokens_with_subagents"]["output"]) == (100, 400)
    (info,) = library(root, tmp_path).projects[0].sessions
    assert info.tokens == Tokens(**facts["tokens_with_subagents"]).total
    hits = library(root, tmp_path).search("rerun")
    assert [h.file for h in hits] == [path]  # the replayed prompt is found once, in the session's file


async def test_a_side_question_is_shown_as_one_asked_beside_the_conversation(tmp_path: Path) -> None:
    path, _ = real.side_question_session(tmp_path / "-home-nick-work-libnn")
    app = session_app(path)
    async with app.run_test(size=(140, 40)) as pilot:
        view = await loaded(pilot, app)
        (marker,) = [e for e in view.entries if e.kind == "agent"]
        drawn = "".join(s.text for s in view.drawn(marker))
        assert "side question" in drawn and "asked" in drawn and "what are you doing now?" in drawn
        assert "no call" not in drawn


# ---------------------------------------------------------------- compaction runs


def test_a_compaction_run_belongs_to_its_compaction_and_its_summary_is_found_once(tmp_path: Path) -> None:
    """Defect 10: the summary was found twice, once from the agent-acompact-* file."""
    root = tmp_path / "projects"
    path, run_path = real.compaction_session(root / "-home-nick-work-libnn")
    session = read_session(path)
    (run,) = session.subagents
    (boundary,) = [m for m in session.messages if m.kind is Kind.COMPACT_BOUNDARY]
    assert boundary.agent is run and run.home is boundary and not unstarted(run)
    assert [m.kind for m in run.visible()] == [Kind.PROMPT, Kind.ASSISTANT]  # not the conversation it was given
    assert run_path.name.startswith("agent-acompact-")
    (hit,) = library(root, tmp_path).search("wombat")
    assert (hit.file, hit.kind) == (path, "summary")
    assert orjson.loads(export_session(session, "json"))["unlinked_subagents"] == []


async def test_a_compaction_run_opens_under_its_compaction(tmp_path: Path) -> None:
    path, _ = real.compaction_session(tmp_path / "-home-nick-work-libnn")
    app = session_app(path)
    async with app.run_test(size=(140, 40)) as pilot:
        view = await loaded(pilot, app)
        assert not [e for e in view.entries if e.kind == "agent"]
        at = index_of(view, lambda e: e.kind == "compact")
        assert "its summary's run" in "".join(s.text for s in view.drawn(view.entries[at]))
        view.select(at)
        await pilot.press("space")
        assert [e.message.kind for e in view.entries if e.depth == 1 and e.kind == "header"] == [
            Kind.PROMPT,
            Kind.ASSISTANT,
        ]


# ---------------------------------------------------------------- subagents that live only in progress records


def _progress_only(project: Path, failed: bool = True) -> Path:
    """tests/fixtures/agent_progress.jsonl (2.1.31's shape: a Task's subagent copied into progress records, no file
    of its own), its subagent's Bash call failed."""
    lines = (Path(__file__).parents[1] / "fixtures" / "agent_progress.jsonl").read_bytes().splitlines()
    records = [orjson.loads(line) for line in lines]
    for record in records:
        nested = record.get("data", {}).get("message", {})
        for block in nested.get("message", {}).get("content", []) if failed else ():
            if isinstance(block, dict) and block.get("type") == "tool_result":
                block.update(is_error=True, content="wc: src/*.py: Permission denied (the ocelot guard)")
    return real.write(project / "0000000d-5e55-4000-8000-000000000000.jsonl", records)


def test_search_and_the_errors_filter_reach_a_subagent_that_lives_in_progress_records(tmp_path: Path) -> None:
    """Defect 4: 2.1.7 to 2.1.42 copied a subagent's records into progress records; the index left them out."""
    path = _progress_only(tmp_path / "projects" / "-home-u-proj")
    lib = library(tmp_path / "projects", tmp_path)
    (answer,) = lib.search('"Largest: records"', role="assistant")  # the Task's result repeats it, as a tool's
    assert (answer.file, answer.kind) == (path, "answer")
    (command,) = lib.search('"sort -n"')
    assert (command.kind, command.tool) == ("tool_input", "Bash")
    (failed,) = lib.search("ocelot", errors_only=True)
    assert (failed.kind, failed.tool, failed.is_error) == ("tool_output", "Bash", True)
    assert [h.kind for h in lib.search("", errors_only=True)] == ["tool_output"]
    session = read_session(path)
    (sub,) = session.subagents
    message, call, _ = locate(session, str(path), failed.offset, failed.kind, failed.call_id)
    assert call is not None and call.status == "error" and call in sub.calls.values()  # the subagent's row
    message, _, block = locate(session, str(path), answer.offset, answer.kind, None, re.compile("Largest"))
    assert message in sub.messages and block is not None and "records.py" in block.text


def test_a_progress_copy_of_a_subagent_with_its_own_transcript_is_found_once(tmp_path: Path) -> None:
    path = _progress_only(tmp_path / "projects" / "-home-u-proj", failed=False)
    records = map(orjson.loads, path.read_bytes().splitlines())
    copies = [r["data"]["message"] for r in records if r["type"] == "progress"]
    own = [{**r, "isSidechain": True, "agentId": "a13c0ffee13c0ffee", "sessionId": path.stem} for r in copies]
    transcript = real.write(path.parent / path.stem / "subagents" / "agent-a13c0ffee13c0ffee.jsonl", own)
    (hit,) = library(tmp_path / "projects", tmp_path).search('"sort -n"')
    assert hit.file == transcript


# ---------------------------------------------------------------- copies of another session's records


def _outputs(paths: list[Path], capsys: pytest.CaptureFixture[str]) -> dict[str, dict]:
    assert main(["stats", "--json", *map(str, paths)]) == 0
    return {f["session_id"]: f for f in map(orjson.loads, capsys.readouterr().out.splitlines())}


def test_a_record_copied_into_another_sessions_file_counts_once_over_the_sessions(
    real_projects: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real 1.0.56 pair: `--continue` copied the first session's prompt (its id) and answer (the new id, the
    same uuid and message id) into the new file."""
    root = tmp_path / "projects"
    origin, continued = real.continued_sessions(root / "-x", real_projects)
    facts = _outputs([origin, continued], capsys)
    first, then = facts[real.ORIGIN_SID], facts[real.CONTINUED_SID]
    assert (first["tokens"]["output"], then["tokens"]["output"]) == (5, 77 + 18)  # "lol" counted in its session
    assert (then["user_prompts"], then["assistant_messages"]) == (1, 2)
    session = read_session(continued)
    assert session.origin == real.ORIGIN_SID and [m.copied for m in session.visible()][:2] == [True, True]
    assert [m.plain_text for m in session.visible()][:2] == ["say lol", "lol"]  # shown, as what it continues
    infos = {i.id: i for i in library(root, tmp_path).projects[0].sessions}
    for sid, stats in facts.items():
        assert infos[sid].tokens == Tokens(**stats["tokens"]).total
        assert infos[sid].messages == stats["user_prompts"] + stats["assistant_messages"]
    assert infos[real.CONTINUED_SID].continues == real.ORIGIN_SID
    # the index keeps each message's usage once per file, copies marked: a total over every file counts it once
    db = sqlite3.connect(tmp_path / "cache" / "index.sqlite3")
    rows = db.execute("SELECT f.path, u.copied, u.output FROM usage u JOIN files f ON f.id = u.file WHERE u.mid = ?",
                      ("msg_011VYEWKkPNPRmKxAJeLT2jQ",)).fetchall()  # fmt: skip
    assert sorted(rows) == sorted([(str(origin), 0, 5), (str(continued), 1, 5)])
    total = "SELECT sum(output) FROM (SELECT max(output) AS output FROM usage WHERE NOT copied GROUP BY mid)"
    assert db.execute(total).fetchone()[0] == sum(f["tokens"]["output"] for f in facts.values())


def test_a_background_copy_is_the_continuation_of_its_origin_and_counts_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "projects"
    origin, copy = real.background_copy(root / "-home-nick-work-libnn")
    facts = _outputs([origin, copy], capsys)
    assert facts[real.BTW_SID]["tokens"]["output"] == 100
    assert facts[real.BG_SID]["tokens"]["output"] == 250  # its own answer; the chain it copied counts in its origin
    assert (facts[real.BG_SID]["user_prompts"], facts[real.BG_SID]["tool_calls"]) == (0, 0)
    session = read_session(copy)
    assert session.background and session.origin == real.BTW_SID
    infos = {i.id: i for i in library(root, tmp_path).projects[0].sessions}
    bg = infos[real.BG_SID]
    assert (bg.background, bg.continues, bg.tokens) == (
        True,
        real.BTW_SID,
        Tokens(**facts[real.BG_SID]["tokens"]).total,
    )
    assert title_of(bg).startswith("⇢ ")
    assert continuation(bg.continues, bg.background).startswith(f"a background copy of session {real.BTW_SID[:8]}")
