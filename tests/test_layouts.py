"""Claude Code 2.1's files beside a session: each is read where it belongs, shown there, and counted once."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from claude_tui.cli import main
from claude_tui.core.export import export_session
from claude_tui.core.files import find_session, persisted_file, read_session
from claude_tui.core.library import Library
from claude_tui.core.model import ToolCall
from claude_tui.core.session import Session
from claude_tui.core.source import full_output, persisted_text
from claude_tui.core.usage import Tokens
from claude_tui.ui.actions import resume_command
from tests import layout_data as real


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
    assert resume_command(session).endswith(f"claude --resume {real.SID}")
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
    session = read_session(would_be)
    assert [s.agent_id for s in session.subagents] == sorted(a for a, _, _ in real.WF_AGENTS)
    assert main(["stats", "--json", real.WF_SID[:8], "--projects-dir", str(root)]) == 0
    facts = orjson.loads(capsys.readouterr().out)
    output = sum(out + 35 for _, _, out in real.WF_AGENTS)
    assert facts["tokens_with_subagents"]["output"] == output and facts["subagents"] == 3
    assert info.tokens == Tokens(**facts["tokens_with_subagents"]).total  # the list counts them as stats does
