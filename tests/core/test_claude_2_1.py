"""Claude Code 2.1's own messages and session facts, on real records (tests/fixtures/claude_2_1_shapes.jsonl:
real lines of the corpus, trimmed, anonymised and chained into one session; the last five from Claude Code's
trackers): queued prompts, task notifications, peers' messages, commands written as system records, a stand-in
answer, facts records and a saved hook context."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from claude_tui.core.content import attached, prompt_text
from claude_tui.core.export import export_session
from claude_tui.core.index.extract import Extractor, State
from claude_tui.core.index.texts import ROLES, ROW_KINDS
from claude_tui.core.loader import read_session
from claude_tui.core.model import Kind
from claude_tui.core.notices import meta_note
from claude_tui.core.session import Session
from claude_tui.core.stats import session_stats
from tests.core.test_fuzz import lines_of

FIXTURE = Path(__file__).parents[1] / "fixtures" / "claude_2_1_shapes.jsonl"


def shown(session: Session) -> list[tuple[str, str]]:
    return [(m.kind.value, m.plain_text.split("\n")[0]) for m in session.visible()]


def index_rows(data: bytes, agent: bool = False) -> tuple[State, list[tuple[str, str, str]]]:
    """The facts and the (role, kind, text) rows the index makes of a file (`agent`: a subagent's transcript)."""
    extractor = Extractor(State(agent), 1, 0)
    extractor.feed(data.rstrip(b"\n"), 0)
    rows = [
        (ROLES[row[3]], ROW_KINDS[row[3]], text) for row, (_, text) in zip(extractor.rows, extractor.texts, strict=True)
    ]
    return extractor.state, rows


def test_a_prompt_typed_while_claude_worked_is_shown_once_where_it_was_taken_marked_queued() -> None:
    """enqueue, remove, then the queued_command attachment: the prompt, where the model took it, marked; enqueue,
    dequeue, then the user record: the user record alone."""
    session = read_session(FIXTURE)
    prompts = [m for m in session.visible() if m.kind is Kind.PROMPT]
    assert [(m.plain_text, m.queued) for m in prompts] == [
        ("fix the parser", False),
        ("also check the tests", True),
        ("先不要commit; 我只想知道狀況。", False),
        ("count the holdings", False),
    ]
    kinds = [k for k, _ in shown(session)]
    assert kinds.index("prompt", 1) == 2  # after the call whose turn it was typed in, before the answer
    facts = session_stats(session)
    assert facts["user_prompts"] == 4
    state, rows = index_rows(FIXTURE.read_bytes())
    assert state.prompts == 4
    assert ("user", "prompt", "also check the tests") in rows
    assert [text for _, kind, text in rows if kind == "prompt"].count("also check the tests") == 1


def test_a_background_tasks_notification_is_a_task_row_not_a_prompt() -> None:
    session = read_session(FIXTURE)
    tasks = [m for m in session.visible() if m.kind is Kind.TASK]
    assert [m.plain_text.split("\n") for m in tasks] == [
        [
            "task biwny06a7 completed",
            'Background command "Grep buildroot for ies-auto-mibs" completed (exit code 0)',
            "output /tmp/claude-1000/-home-acme-sdc1-home-acme-mds4xgl3-buildroot-dl/"
            "59074ea8-b704-4db7-976f-0051ba6e7126/tasks/biwny06a7.output",
        ],
        [
            "task be0cv277z failed",
            'Background command "Wait for DUT capture to finish" failed with exit code 144',
            "output /tmp/claude-1000/-home-acme-sdc1-home-acme-mds4xgl3-buildroot-dl/"
            "d3f32579-7f66-464a-b856-526a67163a15/tasks/be0cv277z.output",
        ],
    ]  # the queued one (commandMode task-notification) and the user record
    _, rows = index_rows(FIXTURE.read_bytes())
    notices = [(role, text.split("\n")[0]) for role, kind, text in rows if kind == "notification"]
    assert notices == [("tool", "task biwny06a7 completed"), ("tool", "task be0cv277z failed")]
    assert not any("task-notification" in text for _, kind, text in rows if kind == "prompt")


def test_a_message_from_another_session_or_a_teammate_names_its_sender_and_is_no_prompt() -> None:
    session = read_session(FIXTURE)
    [peer] = [m for m in session.visible() if m.kind is Kind.PEER]
    assert (peer.sender, peer.plain_text) == ("snmp-plan-E-edsg4000 (another session)", "Baseline built clean.")
    teammate = {  # a real teammate's transcript's first record, shortened
        "parentUuid": None,
        "isSidechain": True,
        "agentId": "a47700903f8815e61",
        "type": "user",
        "message": {
            "role": "user",
            "content": '<teammate-message teammate_id="team-lead" summary="Feature engineering & selection research">'
            '\nYou are a research agent on team "ml-optimization-framework".\n</teammate-message>',
        },
        "uuid": "1b2b8396-0aa6-461b-abd8-f18a23d3a3c7",
        "timestamp": "2026-04-02T12:37:20.966Z",
        "sessionId": "30af3365-3588-457c-bd09-c81fbb4cf6ed",
        "version": "2.1.88",
    }
    lead = Session.from_lines(lines_of(orjson.dumps(teammate)), agent=True)
    [message] = lead.messages
    assert message.kind is Kind.PEER
    assert (message.sender, message.text) == ("team-lead (teammate)", "Feature engineering & selection research")
    assert message.plain_text == 'You are a research agent on team "ml-optimization-framework".'
    assert lead.title() == "Feature engineering & selection research"  # its lead's summary titles the transcript
    state, rows = index_rows(orjson.dumps(teammate), agent=True)
    assert rows == [("assistant", "peer", message.plain_text)]
    assert state.facts()["first_prompt"] == lead.title() and state.prompts == 0


def test_wrappers_before_a_typed_prompt_never_title_the_session() -> None:
    """A desktop session's first prompt opens with the files it was given (real, shortened)."""
    record = {
        "type": "user",
        "uuid": "u1",
        "sessionId": "c10e9ca0",
        "timestamp": "2026-05-01T00:21:44.000Z",
        "message": {
            "role": "user",
            "content": "<uploaded_files>\n<file><file_path>DSCX-Dashboard_NewsFeed1.HEIC</file_path></file>\n"
            "</uploaded_files>\n\nI'm building a dashboard",
        },
    }
    session = Session.from_lines(lines_of(orjson.dumps(record)))
    assert session.title() == "I'm building a dashboard"
    assert prompt_text(session.messages[0]) == "I'm building a dashboard"


def test_a_slash_command_written_as_a_system_record_is_a_command() -> None:
    session = read_session(FIXTURE)
    [command] = [m for m in session.visible() if m.kind is Kind.COMMAND]
    assert prompt_text(command) == "/remote-control"
    assert session_stats(session)["commands"] == 1
    state, rows = index_rows(FIXTURE.read_bytes())
    assert state.commands == 1 and ("user", "prompt", "/remote-control") in rows


def test_no_response_requested_is_no_answer() -> None:
    session = read_session(FIXTURE)
    [stand_in] = [m for m in session.messages if m.model == "<synthetic>"]
    assert stand_in.kind is Kind.SYSTEM and stand_in.plain_text == "No response requested."
    assert session_stats(session)["assistant_messages"] == 3  # the call, "Both are fixed.", "Counting."
    state, rows = index_rows(FIXTURE.read_bytes())
    assert state.answers == 3 and not any(text == "No response requested." for _, _, text in rows)


def test_facts_records_are_facts_of_the_session_and_never_problems() -> None:
    session = read_session(FIXTURE)
    assert session.all_problems() == []
    facts = session_stats(session)
    assert facts["title"] == "snmp-plan-E reopen 8"  # the agent's name: the session has no custom title
    said = facts["session_facts"]
    assert said["permission_mode"] == "auto" and said["mode"] == "normal"
    assert [pr["number"] for pr in said["pr_links"]] == ["58"]
    assert said["teleported_from"] == {"session": "session_01ABCdef234", "branch": "main"}
    assert (said["worktree"], said["relocated_to"]) == ("/home/u/proj/.claude/worktrees/w", "/home/u/proj")
    assert (said["agent_color"], said["agent_setting"]) == ("cyan", "code-reviewer")
    assert [a["title"] for a in said["artifacts"]] == ["+getfwd 閘門鏈"]
    state, _ = index_rows(FIXTURE.read_bytes())
    assert state.agent_name == "snmp-plan-E reopen 8"


def test_a_hook_context_saved_again_after_each_record_is_one_row_and_links_the_thread() -> None:
    """Claude Code 2.1.27 saves a SessionStart hook's context again after each record, with the same uuid, and the
    next record names it as its parent: one row, no "written twice", no fork, the thread followed."""
    session = read_session(FIXTURE)
    hooks = [m for m in session.messages if m.record_type == "saved_hook_context"]
    assert len(hooks) == 1 and hooks[0].kind is Kind.HOOK and "You have superpowers." in hooks[0].text
    prompt = next(m for m in session.messages if m.plain_text == "count the holdings")
    answer = next(m for m in session.messages if m.plain_text == "Counting.")
    assert prompt.parent == hooks[0].parent  # what the first save stood after
    assert answer.parent == prompt.uuid  # the second save stood after the prompt
    assert not session.forks and not session.all_problems()


def test_exports_say_what_each_is() -> None:
    session = read_session(FIXTURE)
    markdown = export_session(session, "markdown")
    assert "Prompt (queued while Claude worked)" in markdown
    assert "⚙ background task biwny06a7 completed" in markdown
    assert "Message from snmp-plan-E-edsg4000 (another session)" in markdown
    assert "▸ command: /remote-control" in markdown
    document = json.loads(export_session(session, "json"))
    queued = [m for m in document["messages"] if m["queued"]]
    assert [(m["kind"], m["text"]) for m in queued] == [("prompt", "also check the tests")]
    assert document["session"]["commands"] == 1 and document["session"]["user_prompts"] == 4


def _answer_record() -> dict:
    """The fixture's real 2.1.232 answer "Both are fixed." (its usage has speed and server_tool_use)."""
    lines = [orjson.loads(line) for line in FIXTURE.read_bytes().splitlines()]
    return next(r for r in lines if r.get("type") == "assistant" and "Both are fixed." in str(r["message"]["content"]))


def test_fast_mode_is_unpriced_and_says_so() -> None:
    record = _answer_record()
    standard = session_stats(Session.from_lines(lines_of(orjson.dumps(record))))
    assert record["message"]["usage"]["speed"] == "standard" and standard["cost_usd"]
    record["message"]["usage"]["speed"] = "fast"
    fast = session_stats(Session.from_lines(lines_of(orjson.dumps(record))))
    assert fast["cost_usd"] is None and fast["unpriced_models"] == ["claude-opus-5 (fast mode)"]
    assert fast["models"] == ["claude-opus-5"] and fast["tokens"] == standard["tokens"]
    state, _ = index_rows(orjson.dumps(record))  # the list prices it alike
    assert list(state.usage) == ["claude-opus-5 (fast mode)"]


def test_web_searches_cost_ten_dollars_a_thousand_and_fetches_only_their_tokens() -> None:
    record = _answer_record()
    before = session_stats(Session.from_lines(lines_of(orjson.dumps(record))))["cost_usd"]
    record["message"]["usage"]["server_tool_use"] = {"web_search_requests": 3, "web_fetch_requests": 5}
    after = session_stats(Session.from_lines(lines_of(orjson.dumps(record))))
    assert after["cost_usd"] == pytest.approx(before + 0.03)
    assert after["web_search_requests"] == 3
    record["message"]["usage"]["server_tool_use"] = {"web_search_requests": "3"}  # not a count: a note, no price
    odd = Session.from_lines(lines_of(orjson.dumps(record)))
    assert session_stats(odd)["cost_usd"] == pytest.approx(before)
    assert [p.message for p in odd.problems] == [
        "usage server_tool_use.web_search_requests '3' is not a token count: counted as 0"
    ]


def test_a_team_leads_session_names_its_team_and_its_teammates_messages() -> None:
    """A team lead's record (2.1.34, as claude-code-log's issue 91 shows it, shortened): teamName on every record, a
    teammate's message in user text."""
    record = {
        "parentUuid": "6c8c5f3c-46f4-4966-9d7c-20471b2d9986",
        "isSidechain": False,
        "teamName": "test-coverage",
        "type": "user",
        "message": {
            "role": "user",
            "content": '<teammate-message teammate_id="cli-services-tester" color="yellow" summary="CLI tests done">'
            "\nAll 12 CLI service tests pass.\n</teammate-message>",
        },
        "uuid": "0f3ebdf9-3a66-40aa-87bd-9b507631220a",
        "timestamp": "2026-02-06T12:21:43.848Z",
        "sessionId": "d602eb5f-0f14-4a11-b0dd-b6f3af48833c",
        "version": "2.1.34",
    }
    session = Session.from_lines(lines_of(orjson.dumps(record)))
    [message] = session.messages
    assert (message.kind, message.sender, message.plain_text) == (
        Kind.PEER,
        "cli-services-tester (teammate)",
        "All 12 CLI service tests pass.",
    )
    facts = session_stats(session)
    assert facts["session_facts"]["team"] == "test-coverage" and facts["user_prompts"] == 0


def _record(rtype: str, content: list[dict[str, object]], uuid: str, parent: str | None, cwd: str = "/u") -> bytes:
    """A record of `rtype` holding `content` (2.1.x), as the real ones of -Users-admin and -teamspace-studios-this-
    studio are: trimmed."""
    message: dict[str, object] = {"role": rtype, "content": content}
    if rtype == "assistant":
        message |= {"id": "msg_1", "model": "glm-4.7", "usage": {"input_tokens": 9, "output_tokens": 4}}
    return orjson.dumps(
        {
            "parentUuid": parent,
            "type": rtype,
            "message": message,
            "uuid": uuid,
            "timestamp": "2026-04-21T12:21:25.000Z",
            "sessionId": "50c7f727",
            "cwd": cwd,
            "version": "2.1.117",
        }
    )


def test_an_attached_document_shows_its_name_and_its_text_as_written() -> None:
    """A file attached to a prompt: its text was written as its UTF-8 read as Latin-1 ("产品" as "äº§å\\x93\\x81"),
    its name as it is; a PDF's is base64, and a text that is Latin-1 indeed stays as it is."""
    written = "# 产品需求 — AI\n\n> **文档**"

    def document(source: str, media_type: str, data: str, title: str | None) -> dict[str, object]:
        block = {"type": "document", "source": {"type": source, "media_type": media_type, "data": data}}
        return block if title is None else block | {"title": title}

    documents = [
        document("text", "text/plain", written.encode().decode("latin-1"), "02_知识库.md"),
        document("base64", "application/pdf", "QUJD" * 100, "spec.pdf"),
        document("text", "text/plain", "café", None),
    ]
    session = Session.from_lines(lines_of(_record("user", [*documents, {"type": "text", "text": "开发"}], "u1", None)))
    [prompt] = session.visible()
    assert prompt.kind is Kind.PROMPT and prompt.plain_text == "开发"  # the documents are not the prompt's words
    text, pdf, latin = prompt.blocks[:3]
    assert [b.type for b in prompt.blocks] == ["document", "document", "document", "text"]
    assert (text.title, text.text, text.size) == ("02_知识库.md", written, len(written.encode()))
    assert attached(text) == f"02_知识库.md · text/plain · {len(written.encode())} B"
    assert (pdf.text, pdf.size, attached(pdf)) == ("", 300, "spec.pdf · application/pdf · 300 B")
    assert (latin.text, attached(latin)) == ("café", "text/plain · 5 B")
    assert not session.problems


def test_a_call_the_server_ran_is_a_call_with_its_result_from_the_same_answer() -> None:
    """A proxy's web reader (glm-4.7 behind Claude Code 2.1.88): server_tool_use blocks and their tool_result blocks
    in the answer itself. Shown, counted and searched as calls are; one answer says nothing of how long they ran."""
    answer = [
        {"type": "text", "text": "Let me read the docs:"},
        {"type": "server_tool_use", "id": "call_a", "name": "webReader", "input": {"url": "https://docs.example/a"}},
        {"type": "server_tool_use", "id": "call_b", "name": "webReader", "input": {"url": "https://docs.example/b"}},
        {"type": "tool_result", "tool_use_id": "call_b", "content": "## Feature-engine rocks"},
    ]
    data = _record("user", [{"type": "text", "text": "read them"}], "u1", None) + b"\n"
    data += _record("assistant", answer, "a1", "u1")
    session = Session.from_lines(lines_of(data))
    [_, said] = session.visible()
    assert [b.type for b in said.blocks] == ["text", "tool_use", "tool_use"]
    first, second = session.calls["call_a"], session.calls["call_b"]
    assert (first.name, first.args, first.result) == ("webReader", {"url": "https://docs.example/a"}, None)
    assert second.result is not None and second.result.text == "## Feature-engine rocks"
    assert second.duration is None
    facts = session_stats(session)
    assert (facts["tool_calls"], facts["unpaired_tool_calls"]) == (2, 1)
    state, rows = index_rows(data)
    assert state.calls == 2
    assert ("tool", "tool_input", "https://docs.example/a") in rows
    assert ("tool", "tool_output", "## Feature-engine rocks") in rows


def test_an_ides_context_is_a_note_of_its_own_not_the_users_words() -> None:
    """-Users-dain-workspace-danieldemmel-me-next (2.0.5) and -home-cboos-...-claude-code-log (2.0.55), shortened: the
    IDE's words come first, in a text block of their own. They are neither the prompt, nor its title, nor searched as
    what the user said; a command typed after them is a command."""
    opened = (
        "<ide_opened_file>The user opened the file /u/site/public/tokenizer.html in the IDE. This may or may not be "
        "related to the current task.</ide_opened_file>"
    )
    selected = (
        "<ide_selection>The user selected the lines 3010 to 3012 from /u/log/renderer.py:\n_reorder_paired_messages"
        "\n\nThis may or may not be related to the current task.</ide_selection>"
    )
    diagnostics = "<ide_diagnostics>[]</ide_diagnostics>"
    data = _record("user", [{"type": "text", "text": opened}, {"type": "text", "text": "move these files"}], "u1", None)
    selection = [{"type": "text", "text": t} for t in (selected, diagnostics, "why?")]
    data += b"\n" + _record("user", selection, "u2", "u1", cwd="/u/log")
    command = "<command-message>review</command-message>\n<command-name>/review</command-name>"
    data += b"\n" + _record("user", [{"type": "text", "text": opened}, {"type": "text", "text": command}], "u3", "u2")
    session = Session.from_lines(lines_of(data))
    first, second, third = session.visible()
    assert [(b.type, b.title) for b in first.blocks] == [
        ("ide", "opened in the IDE: site/public/tokenizer.html"),  # the record's cwd is /u
        ("text", ""),
    ]
    assert [b.title for b in second.blocks[:2]] == [
        "selected in the IDE: renderer.py:3010-3012 · _reorder_paired_messages",  # the record's cwd is /u/log
        "diagnostics from the IDE",
    ]
    assert "_reorder_paired_messages" in second.blocks[0].text  # what it said, for the detail
    assert (first.kind, first.plain_text, second.plain_text) == (Kind.PROMPT, "move these files", "why?")
    assert third.kind is Kind.COMMAND
    facts = session_stats(session)
    assert (facts["user_prompts"], facts["title"]) == (2, "move these files")
    state, rows = index_rows(data)
    assert state.prompts == 2
    assert [text for _, kind, text in rows if kind == "prompt"] == ["move these files", "why?", "/review"]


def test_meta_records_are_named_by_what_they_say_and_the_local_command_caveat_has_no_row() -> None:
    """1240745b (2.1.222) and -Users-soph-Work-own-energy-import-export (2.1.x), shortened: the caveat Claude Code
    writes before a local command's records was a row before every /model; a skill's instructions were a row of
    their first line ("Base directory for this skill: /home/moxa/.claude/skills/...")."""

    def meta(text: str, uuid: str, parent: str | None) -> bytes:
        record = orjson.loads(_record("user", [{"type": "text", "text": text}], uuid, parent))
        return orjson.dumps(record | {"isMeta": True})

    caveat = (
        "<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. "
        "DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly "
        "asks you to.</local-command-caveat>"
    )
    skill = "Base directory for this skill: /home/moxa/.claude/skills/rust-clippy\n\n# Rust Clippy: by application\n"
    named = '<system-reminder>\nThe user named this session "HP 800".\n</system-reminder>'
    command = "<command-name>/model</command-name>\n<command-args>opus</command-args>"
    lines = [
        meta(caveat, "u1", None),
        _record("user", [{"type": "text", "text": command}], "u2", "u1"),
        meta(skill + "## Overview\n", "u3", "u2"),
        meta(named, "u4", "u3"),
    ]
    session = Session.from_lines(lines_of(b"\n".join(lines)))
    assert [(m.kind, m.text) for m in session.visible()] == [
        (Kind.COMMAND, ""),
        (Kind.META, "skill rust-clippy: Rust Clippy: by application"),
        (Kind.META, named),
    ]
    assert session.messages[0].kind is Kind.META and session.messages[0].folded  # read, counted, not a row
    assert session_stats(session)["commands"] == 1


def test_a_meta_records_markdown_is_a_row_of_its_words() -> None:
    """1240745b (2.1.222): `/context`'s report for Claude, a meta record, was a row of raw Markdown ("## Context
    Usage **Model:** claude-opus-5 … |----------|--------|")."""
    report = (
        "## Context Usage\n\n**Model:** claude-opus-5  \n**Tokens:** 145.5k / 1m (15%)\n\n"
        "| Category | Tokens | Percentage |\n|----------|--------|------------|\n| System prompt | 5.5k | 0.6% |\n"
    )
    words = "Context Usage Model: claude-opus-5 Tokens: 145.5k / 1m (15%) Category Tokens Percentage System prompt"
    assert " ".join(meta_note(report).split()) == words + " 5.5k 0.6%"
    assert meta_note("run `ls | wc -l` for **__init__** files") == "run `ls | wc -l` for __init__ files"


def test_a_command_that_printed_nothing_has_no_output_row() -> None:
    """-Users-dumitruvulpe/1a5c053d (2.1.x): /clear's empty <local-command-stdout> was a bare "command output" row."""
    empty = orjson.loads(_record("user", [], "s1", "u1"))
    empty |= {"type": "system", "subtype": "local_command", "content": "<local-command-stdout></local-command-stdout>"}
    printed = empty | {"uuid": "s2", "content": "<local-command-stdout>Set model to opus</local-command-stdout>"}
    command = _record("user", [{"type": "text", "text": "<command-name>/clear</command-name>"}], "u1", None)
    session = Session.from_lines(lines_of(b"\n".join([command, orjson.dumps(empty), orjson.dumps(printed)])))
    assert [(m.kind, m.plain_text[-24:]) for m in session.visible()] == [
        (Kind.COMMAND, "<command-name>/clear</command-name>"[-24:]),
        (Kind.COMMAND_OUTPUT, "opus</local-command-stdout>"[-24:]),
    ]
