"""R and the fork: which session and folder Claude Code is given, the command built from `resume_command`, and why
it cannot run (core/resume.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson
import pytest

from claude_tui.core.files import session_files
from claude_tui.core.loader import read_session
from claude_tui.core.model import is_session_id
from claude_tui.core.resume import (
    DEFAULT_COMMAND,
    Blocker,
    Target,
    command_argv,
    copy_line,
    of_info,
    of_session,
    refusal,
    split_command,
)
from claude_tui.ui.config import load_config

SID = "5ed31c36-bca8-40fd-8d24-f1a1f0af7901"
#: A 2.0.28 subagent's first line, from a real `agent-c63fe96c.jsonl` beside its session (its path anonymised).
AGENT_2_0 = {
    "parentUuid": None,
    "isSidechain": True,
    "userType": "external",
    "cwd": "/Users/ada/workspace/site",
    "sessionId": SID,
    "version": "2.0.28",
    "gitBranch": "main",
    "agentId": "c63fe96c",
    "type": "user",
    "message": {"role": "user", "content": "Warmup"},
    "uuid": "ebcbd877-61cd-42ee-b4ff-f007aa62b2c4",
    "timestamp": "2025-10-29T16:03:32.214Z",
}


def write(path: Path, *records: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


def test_a_session_resumes_by_its_id_in_its_folder(tmp_path: Path) -> None:
    path = write(tmp_path / "-Users-ada-workspace-site" / f"{SID}.jsonl", {**AGENT_2_0, "isSidechain": False})
    target = of_session(read_session(path))
    assert target == Target(SID, "/Users/ada/workspace/site")
    assert command_argv(DEFAULT_COMMAND, target.session_id, "/x") == ["claude", "--resume", SID]


@pytest.mark.parametrize("where", ["agent-c63fe96c.jsonl", f"{SID}/subagents/agent-c63fe96c.jsonl"])
def test_a_subagents_transcript_resumes_its_parent_session(tmp_path: Path, where: str) -> None:
    """2.0.x beside the session, 2.1.x under its folder: the records name the parent's sessionId."""
    path = write(tmp_path / "-Users-ada-workspace-site" / where, AGENT_2_0)
    assert of_session(read_session(path)).session_id == SID


def test_a_subagents_transcript_naming_no_session_resumes_the_folder_it_is_in(tmp_path: Path) -> None:
    record = {k: v for k, v in AGENT_2_0.items() if k != "sessionId"}
    path = write(tmp_path / "p" / SID / "subagents" / "agent-c63fe96c.jsonl", record)
    assert of_session(read_session(path)).session_id == SID


def test_a_file_not_named_by_its_id_resumes_by_its_real_id(tmp_path: Path) -> None:
    path = write(tmp_path / "p" / "short.jsonl", {**AGENT_2_0, "isSidechain": False})
    assert of_session(read_session(path)).session_id == SID


def test_a_listed_session_resumes_by_its_id_an_orphan_transcript_by_its_sessions(tmp_path: Path) -> None:
    """A subagent's transcript whose session has no file is listed alone: it resumes the session it names."""
    from claude_tui.core.library import Library

    root = tmp_path / "projects"
    write(root / "-Users-ada-workspace-site" / "short.jsonl", {**AGENT_2_0, "isSidechain": False})
    write(root / "-Users-ada-workspace-site" / "agent-c63fe96c.jsonl", {**AGENT_2_0, "sessionId": "1" * 8 + SID[8:]})
    library = Library([root], cache_dir=tmp_path / "cache")
    library.refresh()
    infos = {Path(s.file).name: s for p in library.projects for s in p.sessions}
    assert of_info(infos["short.jsonl"]) == Target(SID, "/Users/ada/workspace/site")
    assert of_info(infos["agent-c63fe96c.jsonl"]).session_id == "1" * 8 + SID[8:]


@pytest.mark.parametrize(
    ("template", "fork", "argv"),
    [
        (DEFAULT_COMMAND, True, ["claude", "--resume", "a b", "--fork-session"]),
        ("ccw --dir={cwd} -- claude -r {session_id}", False, ["ccw", "--dir=/my proj", "--", "claude", "-r", "a b"]),
        ("wrap {fork} claude --resume {session_id}", False, ["wrap", "claude", "--resume", "a b"]),
        ("wrap {fork} claude --resume {session_id}", True, ["wrap", "--fork-session", "claude", "--resume", "a b"]),
        (
            "'my claude' --resume '{session_id}' --x '{{literal}}'",
            False,
            ["my claude", "--resume", "a b", "--x", "{literal}"],
        ),
        ("claude --resume {session_id}; rm -rf ~", False, ["claude", "--resume", "a b;", "rm", "-rf", "~"]),
        ("~/bin/claude -r {session_id}", False, ["~/bin/claude", "-r", "a b"]),
    ],
)
def test_the_command_is_split_then_filled(template: str, fork: bool, argv: list[str]) -> None:
    """The placeholders are filled in words already split: an id or a folder with spaces stays one argument, and no
    shell reads the command (`;` is an argument like any other), nor expands `~` but in the program's name."""
    assert command_argv(template, "a b", "/my proj", fork=fork) == [os.path.expanduser(argv[0]), *argv[1:]]


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        ("claude --resume {id}", "it names {id}, which is none of {session_id}, {cwd}, {fork}"),
        ("claude --resume {}", "it names {}, which is none of"),
        ("claude '--resume", "No closing quotation"),
        ("  ", "it is empty"),
        ("{fork} claude --resume {session_id}", "it must begin with its program, not {fork}"),
        ("claude {session_id", "expected '}'"),
    ],
)
def test_a_command_that_cannot_be_built_is_a_value_error(template: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem.replace("{", r"\{").replace("}", r"\}")):
        split_command(template)


def test_the_copied_command_is_a_line_for_a_shell() -> None:
    assert (
        copy_line(DEFAULT_COMMAND, Target(SID, "/home/u/my proj")) == f"cd '/home/u/my proj' && claude --resume {SID}"
    )
    assert (
        copy_line(DEFAULT_COMMAND, Target("s1", "-x/y"), fork=True) == "cd -- -x/y && claude --resume s1 --fork-session"
    )
    assert copy_line(DEFAULT_COMMAND, Target("s1", None)) == "claude --resume s1"


def on_path(program: str) -> str | None:
    return f"/usr/bin/{program}" if program == "claude" else None


def test_no_program_on_path_is_said() -> None:
    refused = refusal(Target(SID, "/"), "claudex --resume {session_id}", which=on_path)
    assert refused is not None and refused.blocker is Blocker.PROGRAM
    assert refused.text == "Cannot resume: no program 'claudex' on PATH (see resume_command)"


@pytest.mark.parametrize("cwd", [r"C:\Users\ada\site", "c:/Users/ada/site", r"\\server\share\site"])
def test_a_windows_folder_on_this_machine_is_another_machines(cwd: str) -> None:
    refused = refusal(Target(SID, cwd), DEFAULT_COMMAND, which=on_path, windows=False)
    assert refused is not None and refused.blocker is Blocker.ELSEWHERE
    assert refused.text == f"Cannot resume: the session ran on another machine, in {cwd}"


def test_a_posix_folder_on_windows_is_another_machines() -> None:
    refused = refusal(Target(SID, "/home/ada/site"), DEFAULT_COMMAND, which=on_path, windows=True)
    assert refused is not None and refused.blocker is Blocker.ELSEWHERE


def test_a_folder_whose_parent_is_not_here_is_another_machines(tmp_path: Path) -> None:
    cwd = str(tmp_path / "Users" / "ada" / "site")
    refused = refusal(Target(SID, cwd), DEFAULT_COMMAND, which=on_path, windows=False)
    assert refused is not None and refused.blocker is Blocker.ELSEWHERE
    assert refused.text == f"Cannot resume: the session ran in {cwd}, and there is no {tmp_path / 'Users' / 'ada'} here"


def test_a_folder_gone_from_a_parent_still_here_asks(tmp_path: Path) -> None:
    refused = refusal(Target(SID, str(tmp_path / "site")), DEFAULT_COMMAND, which=on_path, windows=False)
    assert refused is not None and refused.blocker is Blocker.GONE
    assert refused.text == f"The session's folder {tmp_path / 'site'} no longer exists"
    refused = refusal(Target(SID, None), DEFAULT_COMMAND, which=on_path, windows=False)
    assert refused is not None and refused.blocker is Blocker.GONE


def test_a_folder_here_runs(tmp_path: Path) -> None:
    assert refusal(Target(SID, str(tmp_path)), DEFAULT_COMMAND, which=on_path, windows=False) is None


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('resume_command = "claude -r {id}"', "resume_command: it names {id}, which is none of"),
        ("resume_command = 3", "resume_command: it must be a string"),
    ],
)
def test_a_resume_command_in_error_is_said_once_and_the_default_kept(tmp_path: Path, line: str, problem: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(line + "\n")
    config = load_config(path)
    assert config.resume_command == DEFAULT_COMMAND
    assert len(config.problems) == 1 and problem in config.problems[0]
    assert config.problems[0].endswith(f"{DEFAULT_COMMAND!r} is used")


def test_a_resume_command_is_read(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('resume_command = "ccw {fork} --resume {session_id} --cwd {cwd}"\n')
    config = load_config(path)
    assert config.resume_command == "ccw {fork} --resume {session_id} --cwd {cwd}" and not config.problems


def test_every_real_session_and_transcript_resumes_a_session_id(real_projects: Path) -> None:
    """Over the real files (1.0.17 to 2.1.x layouts): a session id (a UUID) for each, a subagent's transcript under
    `<id>/subagents/` that `<id>`, and the folder its records name first."""
    projects = sorted(p for p in real_projects.iterdir() if p.is_dir())
    files = [path for project in projects for path in session_files(project)]
    agents = sorted(real_projects.rglob("agent-*.jsonl"))
    assert len(files) > 100 and len(agents) > 10
    for path in files + agents:
        session = read_session(path, agents=False)
        if not session.records:
            continue
        target = of_session(session)
        assert is_session_id(target.session_id), path
        if "subagents" in path.parts:
            assert target.session_id == path.parts[path.parts.index("subagents") - 1], path
        assert target.cwd == next(iter(session.cwds), None), path
