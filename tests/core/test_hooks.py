"""Hook runs, progress and attachments (Claude Code 2.1) fold into the rows they belong to: on real lines
(tests/fixtures/real), read whole and grown a line at a time."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from claude_tui.core import attachments
from claude_tui.core.export import export_session
from claude_tui.core.hooks import attachment_hook, headline, runs, shown
from claude_tui.core.loader import read_session
from claude_tui.core.model import Kind, Message
from claude_tui.core.reader import Reader
from claude_tui.core.session import Session
from claude_tui.core.tail import SessionTail
from claude_tui.core.threads import Layout
from tests.core.test_session import describe
from tests.jsonl import Thread, tool_use

REAL = Path(__file__).parents[1] / "fixtures" / "real"
HOOK_FILES = ["hooks_turn", "hook_failed", "hook_pre_tool", "hook_progress", "session_start"]


def real(name: str) -> Session:
    return read_session(REAL / f"{name}.jsonl")


def shown_kinds(session: Session) -> list[Kind]:
    return [m.kind for m in session.visible()]


def hook_names(notes: list[Message] | None) -> list[str]:
    return [n.hook.what + ":" + n.hook.name for n in notes or () if n.hook is not None]


def test_a_turns_hooks_fold_into_its_prompt_and_its_calls() -> None:
    """28 of the first 38 rows of a hook-heavy session were `↪ hook` rows (issue 31, defect 3)."""
    s = real("hooks_turn")
    assert Kind.HOOK not in shown_kinds(s) and Kind.ATTACHMENT not in shown_kinds(s)
    prompt = s.visible()[0]
    assert prompt.kind is Kind.PROMPT
    # SessionStart came before it, UserPromptSubmit and Stop after it
    assert hook_names(prompt.notes) == [
        "hook_success:SessionStart:startup",
        "hook_additional_context:SessionStart",
        "hook_success:UserPromptSubmit",
        "hook_success:Stop",
        "stop_hook_summary:Stop",
    ]
    assert runs(prompt.notes or []) == 3  # the context a hook passed on and the summary of a run told: no run more
    search, bash = (c for c in s.calls.values())
    assert [(c.name, hook_names(c.notes)) for c in (search, bash)] == [
        ("ToolSearch", ["hook_success:PostToolUse:ToolSearch"]),
        ("Bash", ["hook_success:PostToolUse:Bash"]),
    ]
    hook = bash.notes[0].hook  # type: ignore[index]
    assert hook is not None and (hook.exit_code, hook.duration_ms) == (0, 78)
    assert hook.command == '"${CLAUDE_PLUGIN_ROOT}/scripts/clmail.cmd" actor busy'
    assert hook.output == "Status set to busy: -experiments/worktrees\n"
    assert headline(hook) == "PostToolUse:Bash · exit 0 · 78 ms"
    assert s.all_problems() == []  # the hooks' records stay in the thread: nothing is missing


def test_a_failed_hook_stays_a_warning_row_and_its_summary_counts_no_run_twice() -> None:
    s = real("hook_failed")
    [warning] = [m for m in s.visible() if m.kind is Kind.WARNING]
    assert warning.text == (
        "Stop hook failed (exit 127): Failed with non-blocking status code: /bin/sh: notify-send: command not found"
    )
    assert warning.hook is not None and warning.hook.failed and warning.is_error
    prompt = s.visible()[0]
    assert hook_names(prompt.notes) == ["stop_hook_summary:Stop"] and runs(prompt.notes or []) == 0


def test_a_summary_whose_errors_no_record_told_is_a_warning_row(tmp_path: Path) -> None:
    lines = (REAL / "hook_failed.jsonl").read_bytes().splitlines(keepends=True)
    without = [line for line in lines if b"hook_non_blocking_error" not in line]
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(without))
    [warning] = [m for m in read_session(path).visible() if m.kind is Kind.WARNING]
    assert (
        warning.text
        == "Stop hook failed: Failed with non-blocking status code: /bin/sh: notify-send: command not found"
    )


def test_a_pre_tool_hook_written_before_the_result_folds_into_its_call() -> None:
    s = real("hook_pre_tool")
    [call] = s.calls.values()
    assert hook_names(call.notes) == ["hook_success:PreToolUse:Bash"] and call.status == "ok"
    assert Kind.HOOK not in shown_kinds(s) and Kind.ATTACHMENT not in shown_kinds(s)  # nor the tokens reminder


def test_hook_progress_folds_into_its_call() -> None:
    s = real("hook_progress")
    assert {c.name: hook_names(c.notes) for c in s.calls.values()} == {
        "Read": ["hook_progress:PostToolUse:Read"],
        "Glob": ["hook_progress:PostToolUse:Glob"],
    }
    assert all(runs(c.notes or []) == 1 for c in s.calls.values())
    assert shown_kinds(s) == [Kind.PROMPT, Kind.ASSISTANT, Kind.SYSTEM]  # and the turn's duration
    prompt = s.visible()[0]
    assert hook_names(prompt.notes) == ["hook_progress:Stop", "stop_hook_summary:Stop"]  # one run told twice
    assert runs(prompt.notes or []) == 1 and hook_names(shown(prompt.notes)) == ["stop_hook_summary:Stop"]


def test_session_start_hooks_fold_into_the_first_prompt_and_an_async_answer_too() -> None:
    s = real("session_start")
    prompt = s.visible()[0]
    assert prompt.plain_text == "resume"
    names = hook_names(prompt.notes)
    assert names.count("hook_success:SessionStart:startup") == 5
    assert names[-1] == "async_hook_response:SessionStart:startup"  # written after the prompt
    assert runs(prompt.notes or []) == 5  # the async hook's start was one of the five
    message = next(n.hook for n in prompt.notes or () if n.hook and n.hook.what == "hook_system_message")
    assert message is not None and message.output.startswith("<persisted-output>")
    assert [m.text for m in s.visible()[1:]] == ["selected in Cursor: supabase/config.toml:283 · Google"]


@pytest.mark.parametrize("name", HOOK_FILES)
def test_a_file_fed_a_line_at_a_time_folds_as_the_file_read_whole(name: str) -> None:
    """A hook may come before its call's result or after it, before its prompt (SessionStart) or after it: what
    is shown after each line (laid out from the last layout, as a view does) is what a layout of all says."""
    path = REAL / f"{name}.jsonl"
    lines = Reader(str(path)).read()[1]
    whole = describe(Session.from_lines(lines, path))
    session = Session(path)
    for line in lines:
        session.feed([line])
        assert [m.uuid for m in session.visible()] == [m.uuid for m in Layout.of(session).visible]
    assert describe(session) == whole


def attach(t: Thread, attachment: dict) -> dict:
    """An attachment record, chained to the one before."""
    return t._base("attachment", True, attachment=attachment)


def hook(tool_id: str, event: str = "PostToolUse", exit_code: int = 0) -> dict:
    return {
        "type": "hook_success" if exit_code == 0 else "hook_non_blocking_error",
        "hookName": f"{event}:Bash",
        "toolUseID": tool_id,
        "hookEvent": event,
        "content": "",
        "stdout": "checked\n",
        "stderr": "",
        "exitCode": exit_code,
        "command": "check.sh",
        "durationMs": 12,
    }


def test_a_hook_written_before_its_call_waits_for_it(tmp_path: Path) -> None:
    """Shown as a row until its call comes (a file written out of order, or read as it is written), then folded."""
    t = Thread(version="2.1.114")
    t.prompt("go")
    attach(t, hook("toolu_late", "PreToolUse"))
    path = t.write(tmp_path / "s.jsonl")
    tail = SessionTail(path)
    tail.poll()
    assert shown_kinds(tail.session)[-1] is Kind.HOOK
    t.records = []
    t.answer(tool_use("toolu_late", "Bash", command="ls"), msg_id="m2")
    t.result("toolu_late", "a\nb")
    with path.open("ab") as f:
        f.write(t.bytes())
    tail.poll()
    assert Kind.HOOK not in shown_kinds(tail.session)
    assert hook_names(tail.session.calls["toolu_late"].notes) == ["hook_success:PreToolUse:Bash"]


def progress(t: Thread, tool_id: str, n: int, output: str) -> dict:
    """The `bash_progress` record Claude Code 2.1 writes each second `n` of a command's run, chained to the one
    before. No file of the real corpus has one: its shape is that of the public record types (data.output,
    fullOutput, elapsedTimeSeconds, totalLines; the call in parentToolUseID)."""
    data = {"type": "bash_progress", "output": output, "fullOutput": output, "elapsedTimeSeconds": n}
    data["totalLines"] = output.count("\n") + 1 if output else 0
    return t._base("progress", True, data=data, toolUseID=f"bash-progress-{n}", parentToolUseID=tool_id)


def test_progress_folds_into_its_running_call_and_says_nothing_once_it_is_done(tmp_path: Path) -> None:
    t = Thread(version="2.1.114")
    t.prompt("build it")
    t.answer(tool_use("toolu_b", "Bash", command="make"), msg_id="m1")
    for n, out in enumerate(["", "", "cc -c a.c", "cc -c a.c\ncc -c b.c"]):
        progress(t, "toolu_b", n, out)
    path = t.write(tmp_path / "s.jsonl")
    tail = SessionTail(path)
    tail.poll()
    call = tail.session.calls["toolu_b"]
    assert call.status == "running" and call.progress == "cc -c a.c\ncc -c b.c"
    assert shown_kinds(tail.session) == [Kind.PROMPT, Kind.ASSISTANT]  # no row a second
    t.records = []
    t.result("toolu_b", "built")
    progress(t, "toolu_b", 4, "cc -o app a.o b.o")  # one written after the result, as a slow writer may
    with path.open("ab") as f:
        f.write(t.bytes())
    tail.poll()
    assert call.status == "ok" and call.progress == ""
    assert shown_kinds(tail.session) == [Kind.PROMPT, Kind.ASSISTANT]


def test_agent_progress_rows_fold_into_the_call_that_nests_the_subagent(fixtures: Path) -> None:
    s = read_session(fixtures / "agent_progress.jsonl")
    assert Kind.PROGRESS not in shown_kinds(s)
    task = s.calls["toolu_130000000000000000000001"]
    assert task.subagent is not None and len(task.subagent.messages) == 4


EXPECTED_ROWS = {
    "date_change": "the date is now 2026-07-27",
    "edited_text_file": "changed since Claude read it: services/handset/internal/jobs/expired_contracts.go",
    "file": "attached: .llm/handset-v1.md",
    "opened_file_in_ide": "opened in the IDE: docs/STATE.md",
    "plan_file_reference": "plan majestic-sauteeing-lamport.md: Plan: Add model argument to iree-optimizer skill",
    "plan_mode": "plan mode on · plan merry-pondering-lemon.md",
    "plan_mode_exit": "plan mode off · plan go-scrutinise-the-pr-functional-waterfall.md",
    "plan_mode_reentry": "plan mode on again · plan go-scrutinise-the-pr-functional-waterfall.md",
    "selected_lines_in_ide": "selected in Cursor: supabase/config.toml:283 · Google",
    # a notice about a call, shown on its own when the call is not in the file
    "read_truncation_notice": "[Truncated: PARTIAL view — /Users/u/Work/own/energy_import_export/index.html:",
    "structured_output": 'structured output: {"findings":[]}',
}


#: The first real record of each attachment type but the hooks', by type.
ATTACHMENTS = {
    r["attachment"]["type"]: r for r in map(orjson.loads, (REAL / "attachments.jsonl").read_bytes().splitlines())
}


@pytest.mark.parametrize("atype", ATTACHMENTS)
def test_every_real_attachment_has_its_treatment(atype: str) -> None:
    record = ATTACHMENTS[atype]
    treatment = attachments.TREATMENTS[atype]
    s = Session.from_lines([], "s.jsonl")
    s.add_record(record, None)
    shown = s.visible()
    if treatment == attachments.AWAY:  # Claude Code's bookkeeping: no row
        assert shown == [] and s.messages[0].folded, atype
        return
    [row] = shown
    assert row.kind is Kind.ATTACHMENT
    assert row.text.startswith(EXPECTED_ROWS[atype]), (atype, row.text)


def test_a_notice_about_a_call_folds_into_it(tmp_path: Path) -> None:
    t = Thread(version="2.1.150")
    t.prompt("read it")
    t.answer(tool_use("toolu_012nm3qtvLG5V1wii2VUHVdN", "Read", file_path="/p/index.html"), msg_id="m1")
    t.result("toolu_012nm3qtvLG5V1wii2VUHVdN", "1\t<!doctype html>")
    attach(t, ATTACHMENTS["read_truncation_notice"]["attachment"])
    s = read_session(t.write(tmp_path / "s.jsonl"))
    [call] = s.calls.values()
    assert [n.text[:30] for n in call.notes or ()] == ["[Truncated: PARTIAL view — /Us"]
    assert shown_kinds(s) == [Kind.PROMPT, Kind.ASSISTANT]


def test_exports_follow_the_view() -> None:
    """No hook, progress or bookkeeping record of its own; the hooks under their prompt or call, as the detail
    view shows them; a failed hook a warning of its own."""
    s = real("hooks_turn")
    markdown = export_session(s, "markdown")
    assert "· hook:" not in markdown and "attachment" not in markdown
    prompt_box = markdown[markdown.index("## Prompt") : markdown.index("## Assistant")]
    assert prompt_box.count("<summary>↪ Hooks</summary>") == 1
    for said in ("SessionStart:startup · exit 0 · 1,203 ms", "UserPromptSubmit · exit 0 · 106 ms", "Stop · exit 0"):
        assert f"*↪ {said}" in prompt_box
    assert "Stop · 1 hook" not in prompt_box  # the summary of a run whose hook is told
    assert "*↪ PostToolUse:Bash · exit 0 · 78 ms*" in markdown[markdown.index("🔧 Bash") :]
    assert "<summary>↪ Hooks</summary>" in export_session(s, "html")
    document = orjson.loads(export_session(s, "json"))
    assert [m["kind"] for m in document["messages"]] == ["prompt", "assistant", "assistant", "system"]
    bash = document["messages"][2]["tool_calls"][0]
    [note] = bash["notes"]
    assert note["hook"]["name"] == "PostToolUse:Bash" and note["hook"]["exit_code"] == 0
    failed = export_session(real("hook_failed"), "markdown")
    assert "**⚠ · warning: Stop hook failed (exit 127): Failed with non-blocking status code" in failed


def test_the_json_a_hook_prints_for_claude_code_reads_as_its_fields() -> None:
    """-Users-1curafu-Desktop-Fitcheck-Fitcheck (2.1.x), shortened: a SessionStart hook's stdout is the JSON Claude
    Code reads, its context escaped inside; a Stop hook's decision and reason; stdout that is no such JSON (or is
    cut, or says nothing of those fields) as it is."""
    context = "# $CMEM Fitcheck 2026-07-28\n\nLegend: 🎯session 🔴bugfix"
    session_start = orjson.dumps(
        {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}}
    )
    stop = orjson.dumps(
        {"decision": "block", "reason": "the tests fail", "systemMessage": "run them again"}, option=orjson.OPT_INDENT_2
    )
    assert attachment_hook({"type": "hook_success", "stdout": session_start.decode()}).output == (
        f"context for Claude: {context}"
    )
    assert attachment_hook({"type": "hook_success", "stdout": stop.decode()}).output == (
        "decision: block\nwhy: the tests fail\nmessage: run them again"
    )
    # an async hook's (c1b66129): its start, then what it said, an object a line; its message repeats its context
    said = {"hookSpecificOutput": {"additionalContext": "⚠ plugin: x"}, "systemMessage": "⚠ plugin: x"}
    async_hook = f'{{"async": true, "asyncTimeout": 180000}}\n{orjson.dumps(said).decode()}\n'
    assert attachment_hook({"type": "async_hook_response", "stdout": async_hook}).output == (
        "context for Claude: ⚠ plugin: x\nmessage: ⚠ plugin: x"
    )
    for stdout in ('{"continue": true}', session_start.decode()[:40], "[1, 2]", "{not json", "ok", '{"a": 1}\n[2]'):
        assert attachment_hook({"type": "hook_success", "stdout": stdout}).output == stdout


def test_a_hooks_context_said_by_its_run_is_not_said_again(tmp_path: Path) -> None:
    """-Users-1curafu-Desktop-Fitcheck-Fitcheck/2b8118fc (2.1.x): a SessionStart hook prints its context as the JSON
    Claude Code reads, and Claude Code writes that context again in a hook_additional_context record: the prompt's
    detail and its export said it twice. A context no run printed is still said."""
    context = "# $CMEM Fitcheck\n\nLegend: 🎯session"
    t = Thread(version="2.1.190")
    start = hook("", "SessionStart") | {"hookName": "SessionStart:startup", "toolUseID": "s1"}
    start["stdout"] = orjson.dumps({"hookSpecificOutput": {"additionalContext": context}}).decode()
    attach(t, start)
    for said in ([context], ["only here"]):
        attach(t, {"type": "hook_additional_context", "hookName": "SessionStart", "content": said})
    t.prompt("go")
    prompt = read_session(t.write(tmp_path / "s.jsonl")).visible()[0]
    assert hook_names(prompt.notes).count("hook_additional_context:SessionStart") == 2
    said = [n.hook.output for n in shown(prompt.notes) if n.hook is not None]
    assert said == [f"context for Claude: {context}", "only here"]


def test_a_hooks_long_output_says_it_was_cut() -> None:
    """2b8118fc (2.1.x): a SessionStart hook's 9 KB of context was cut at 4,000 characters mid-word, and ran
    straight into the next hook's headline."""
    long = "obs " * 2_500
    output = attachment_hook({"type": "hook_success", "stdout": long}).output
    assert output == long[:4_000] + "…\n(6,000 more characters in the session file)"
    assert attachment_hook({"type": "hook_success", "stdout": long[:4_000]}).output == long[:4_000]
