"""Pilot tests of the conversation pane: navigation, expanding, branches, filters, actions, streaming."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import orjson
import pytest
from textual import events
from textual.widgets import Input, Static

from claude_tui.core.humanize import human_count
from claude_tui.core.library import Library
from claude_tui.core.loader import read_session
from claude_tui.core.model import PREVIEW_CHARS, QUIET_KINDS, Kind
from claude_tui.core.resume import DEFAULT_COMMAND, copy_line, of_session
from claude_tui.core.tail import SessionTail
from claude_tui.ui.config import Config, load_config
from claude_tui.ui.palette import Palette
from claude_tui.ui.screens.detail import DetailBody, DetailScreen
from claude_tui.ui.screens.export_prompt import ExportPrompt
from claude_tui.ui.widgets.conversation import ConversationView
from claude_tui.ui.widgets.conversation.entries import Entry, dates_its_time, is_error
from claude_tui.ui.widgets.findbar import PaneNote
from claude_tui.ui.widgets.header import SessionHeader
from tests.jsonl import Thread, text, tool_use
from tests.ui_support import demo, demo_copy, find, handled, index_of, loaded, raised, session_app, settled

SIZE = (120, 40)


async def test_keys_move_the_cursor_and_jump() -> None:
    app = session_app(demo("dce61781"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        assert view.has_focus
        await pilot.press("j")
        assert view.cursor_index == 1
        await pilot.press("j", "j", "k")
        assert view.cursor_index == 2
        await pilot.press("G")
        assert view.cursor_index == len(view.entries) - 1
        assert view.scroll_offset.y == view.max_scroll_y
        await pilot.press("g")
        assert view.cursor_index == 0 and view.scroll_offset.y == 0
        await pilot.press("right_square_bracket")
        entry = view.cursor
        assert entry is not None and entry.kind == "header" and entry.message.kind is Kind.PROMPT
        assert view.cursor_index > 0
        await pilot.press("left_square_bracket")
        assert view.cursor_index == 0
        await pilot.press("e")
        assert view.cursor is not None and view.cursor.call is not None and view.cursor.call.status == "error"
        await pilot.press("ctrl+d")
        assert view.scroll_offset.y > 0


async def test_tool_calls_expand_to_their_diff_and_collapse() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        index = index_of(view, lambda e: e.call is not None and e.call.name == "Edit")
        view.select(index)
        entry = view.entries[index]
        assert entry.height == 1 + entry.pad
        await pilot.press("space")
        assert entry.height > 5
        strips = view.drawn(entry)
        assert any(" + " in strip.text for strip in strips)
        await pilot.press("h")
        assert entry.height == 1 + entry.pad


async def test_thinking_is_one_line_until_opened() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        index = index_of(view, lambda e: e.kind == "thinking")
        entry = view.entries[index]
        assert entry.height - entry.pad == 1
        await pilot.press("t")
        assert entry.height - entry.pad > 1
        await pilot.press("t")
        assert entry.height - entry.pad == 1


async def test_subagent_nests_under_its_call() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        index = index_of(view, lambda e: e.call is not None and e.call.name == "Task")
        view.select(index)
        before = len(view.entries)
        await pilot.press("l")
        nested = [e for e in view.entries if e.depth == 1]
        assert nested and len(view.entries) > before
        assert any(e.call is not None and e.call.name == "Grep" for e in nested)
        view.select(view.entries.index(nested[-1]))
        await pilot.press("h")  # from inside the transcript, back up to the call
        assert view.cursor_index == index
        await pilot.press("h")
        assert len(view.entries) == before


async def test_branches_switch_with_keys() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("f")
        fork_entry = view.cursor
        assert fork_entry is not None and fork_entry.kind == "fork"
        fork = fork_entry.message.fork
        assert fork is not None and len(fork.heads) == 3
        session = view.session
        assert session is not None and session.branch_of(fork) == 2
        shown = list(view.messages)
        await pilot.press("less_than_sign")
        assert session.branch_of(fork) == 1
        assert view.messages != shown
        assert view.cursor is not None and view.cursor.kind == "fork" and view.cursor.message is fork.heads[1]
        strip = view.render_line(view.rows.starts[view.cursor_index] - round(view.scroll_offset.y) + view.cursor.pad)
        assert "branch 2 of 3" in strip.text
        await pilot.press("greater_than_sign", "greater_than_sign")
        assert session.branch_of(fork) == 0  # wraps around


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_dim_text_on_the_cursor_row_takes_the_text_colour(theme: str) -> None:
    app = session_app(demo("dce61781"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        app.theme = theme
        await pilot.pause()
        lifted = 0
        for index, entry in enumerate(view.entries):
            view.select(index, top=True)
            palette = Palette.of(app)
            grey = {palette.dim.color, palette.faint.color}
            y = view.rows.starts[index] + entry.pad - round(view.scroll_offset.y)
            shown = {s.style.color for s in view.render_line(y) if s.text.strip() and s.style is not None}
            assert not shown & grey, (index, view.render_line(y).text)
            lifted += bool({s.style.color for s in view.drawn(entry)[entry.pad] if s.style} & grey)
        assert lifted > 5  # rows with dim or faint text, off the cursor


async def test_quiet_rows_hide_and_compactions_jump() -> None:
    app = session_app(demo("36630c25"))  # it opens with a caveat (a dim row), then a slash command
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        view = await loaded(pilot, app)
        assert any(e.message.kind in QUIET_KINDS for e in view.entries)
        quiet = next(i for i, e in enumerate(view.entries) if e.message.kind in QUIET_KINDS)
        after = next(e for e in view.entries[quiet:] if e.message.kind not in QUIET_KINDS)
        view.select(quiet)
        await pilot.press("full_stop")
        assert not any(e.message.kind in QUIET_KINDS for e in view.entries)
        assert view.cursor is after  # the row under the cursor hidden: the next one is marked
        await pilot.press("full_stop")
        assert any(e.message.kind in QUIET_KINDS for e in view.entries)
        assert [n.message for n in raised(app)] == ["Dim rows hidden", "Dim rows shown"]
    app = session_app(demo("da41"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("g", "c")
        assert view.cursor is not None and view.cursor.kind == "compact"
        assert (
            "microcompacted"
            in view.render_line(
                view.rows.starts[view.cursor_index] + view.cursor.pad - round(view.scroll_offset.y)
            ).text
        )
        await pilot.press("c", "j")
        summary = view.cursor
        assert summary is not None and summary.kind == "summary"
        await pilot.press("space")
        assert summary.height > 5


async def test_a_warning_stands_out_and_is_not_hidden_with_the_dim_rows(tmp_path: Path) -> None:
    """System records of level "warning" (the model fell back, an unknown command) were dim grey rows like
    "turn took 1m22s", and `.` hid them."""
    thread = Thread()
    thread.prompt("go")
    thread.system("informational", content="Claude Opus 4 limit reached, now using Sonnet 4", level="warning")
    thread.answer(text("on it"))
    thread.system("turn_duration", durationMs=82_000, level="info")
    app = session_app(thread.write(tmp_path / "s.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        for hidden in (False, True):
            index = index_of(view, lambda e: "limit reached" in (e.message.text or ""))
            [line] = view.drawn(view.entries[index])
            assert "⚠ Claude Opus 4 limit reached, now using Sonnet 4" in line.text
            palette = Palette.of(app)
            assert {s.style.color for s in line if "limit" in s.text and s.style} == {palette.warning.color}
            assert any("turn took" in e.message.text for e in view.entries) is not hidden
            await pilot.press("full_stop")


async def test_a_recap_is_shown_whole_as_claudes_and_is_not_hidden_with_the_dim_rows(tmp_path: Path) -> None:
    """Claude Code's "while you were away" recap (a system record) was a dim row cut to one line, hidden by `.`."""
    recap = " ".join(["The parser is rewritten and its tests pass; next: the tokenizer."] * 3)
    thread = Thread()
    thread.prompt("go")
    thread.answer(text("on it"))
    thread.system("turn_duration", durationMs=82_000, level="info")
    thread.system("away_summary", content=f"{recap} (disable recaps in /config)", level="info")
    app = session_app(thread.write(tmp_path / "s.jsonl"))
    async with app.run_test(size=(80, 24)) as pilot:
        view = await loaded(pilot, app)
        for hidden in (False, True):
            entry = view.entries[index_of(view, lambda e: e.message.kind is Kind.RECAP)]
            drawn = [strip.text for strip in view.drawn(entry)]
            assert drawn[1].strip().startswith("↻ Recap · while you were away")
            assert " ".join(line.strip(" │") for line in drawn[2:]).split() == recap.split()
            assert any("turn took" in e.message.text for e in view.entries) is not hidden
            await pilot.press("full_stop")
        view.select(0)
        await find(pilot, app, "tokenizer")
        await pilot.press("enter")
        assert view.cursor is entry
        line = view.rows.starts[view.cursor_index] + 2 - round(view.scroll_offset.y)
        assert [s.text for s in view.render_line(line) if "tokenizer" in s.text] == ["tokenizer"]  # marked apart


async def test_with_quiet_rows_hidden_the_pane_starts_on_its_first_line() -> None:
    """A session that opens with a slash command under hidden meta rows: no blank line above it."""
    app = session_app(demo("36630c25"), config=Config(hide_quiet=True))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("g")
        assert view.entries[0].pad == 0 and "$ /model" in view.render_line(0).text


async def test_enter_opens_the_detail_view_raw_json_and_plan() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("enter")
        assert isinstance(app.screen, DetailScreen)
        await settled(pilot, lambda: app.screen.text)
        await pilot.press("r")
        assert app.screen.subject.mode == "raw"
        await settled(pilot, lambda: '"uuid"' in app.screen.text)
        await pilot.press("escape")
        assert app.screen.query_one(ConversationView) is view
        index = index_of(view, lambda e: e.message.slug is not None)
        view.select(index)
        await pilot.press("p")
        assert isinstance(app.screen, DetailScreen) and app.screen.subject.mode == "plan"
        assert "gentle-rolling-otter" in str(app.screen.subject.plan_path)
        await settled(pilot, lambda: app.screen.text.strip())


@pytest.mark.parametrize("planned", [True, False])
async def test_a_prompt_header_names_its_plan_only_when_there_is_one(tmp_path: Path, planned: bool) -> None:
    """And p opens that plan: the one beside the session's projects folder (not the roots', which the app was
    given: this session is opened by its path from elsewhere)."""
    root = demo_copy(tmp_path)
    if not planned:
        (root.parent / "plans" / "gentle-rolling-otter.md").unlink()
    app = session_app(next(root.glob("*/67df*.jsonl")))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        index = index_of(view, lambda e: e.kind == "header" and e.message.kind is Kind.PROMPT and bool(e.message.slug))
        view.select(index)
        await pilot.pause()
        shown = view.render_line(view.rows.starts[index] - round(view.scroll_offset.y) + view.entries[index].pad).text
        assert "❯ You" in shown and ("plan gentle-rolling-otter" in shown) is planned
        await pilot.press("p")
        await pilot.pause()
        opened = app.screen.subject.plan_path if isinstance(app.screen, DetailScreen) else None
        assert opened == (str(root.parent / "plans" / "gentle-rolling-otter.md") if planned else None)


async def test_the_detail_view_fits_a_call_s_headline_to_the_screen(tmp_path: Path) -> None:
    """Its line was cut at 100 cells, "File does not exi…", on a 160-column screen."""
    thread = Thread()
    thread.prompt("read it")
    thread.answer(tool_use("t1", "Read", file_path="/home/u/proj/.github/workflows/ci.yml"))
    error = "File does not exist. Current working directory: /home/u/proj/some/rather/deep/folder/of/the/project"
    thread.result("t1", f"<tool_use_error>{error}</tool_use_error>", is_error=True)
    app = session_app(thread.write(tmp_path / "s.jsonl"))
    async with app.run_test(size=(160, 30)) as pilot:
        view = await loaded(pilot, app)
        view.select(index_of(view, lambda e: e.call is not None))
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.text)
        body = app.screen.query_one(DetailBody)
        await settled(pilot, lambda: error in body.plain_line(0).text)


async def test_tool_detail_reads_the_whole_output_back(tmp_path: Path) -> None:
    thread = Thread()
    thread.prompt("print a lot")
    thread.answer(tool_use("t1", "Bash", command="seq 60000"))
    output = "\n".join(str(i) for i in range(60_000))
    thread.result("t1", output, toolUseResult={"stdout": output, "stderr": ""})
    path = thread.write(tmp_path / "big.jsonl")
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        view.select(index_of(view, lambda e: e.call is not None))
        await pilot.press("enter")
        assert isinstance(app.screen, DetailScreen)
        await settled(pilot, lambda: app.screen.text)
        assert app.screen.text.endswith("59999")  # the whole output, for copy and $PAGER
        for _ in range(12):
            app.screen.action_scroll(1)  # as keys that come in one read of the terminal: no refresh between them
        await pilot.pause()
        assert app.screen.query_one("#detail-scroll").scroll_y == 12


async def test_a_call_that_never_got_a_result_says_so_expanded_and_opened(tmp_path: Path) -> None:
    """Its row said "no result" (the session stopped long ago) but, expanded, opened or seen in its message's
    detail, it said "running"."""
    thread = Thread()
    thread.prompt("run it")
    thread.answer(tool_use("t1", "Bash", command="python radical_musical_ai.py"))
    app = session_app(thread.write(tmp_path / "s.jsonl"))

    async def detail_text() -> str:
        await settled(pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.subject.mode == "content")
        body = app.screen.query_one(DetailBody)
        await settled(pilot, lambda: "Reading…" not in body.plain_line(0).text)
        facts = str(app.screen.query_one("#detail-facts", Static).render())
        return facts + "\n".join(body.plain_line(y).text for y in range(body.size.height))

    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        index = index_of(view, lambda e: e.call is not None)
        view.select(index)
        await pilot.press("space")
        shown = "\n".join(strip.text for strip in view.drawn(view.entries[index]))
        assert "no result" in shown and "running" not in shown
        await pilot.press("enter")
        shown = await detail_text()
        assert "no result" in shown and "running" not in shown
        await pilot.press("escape")
        view.select(index_of(view, lambda e: e.kind == "header" and e.message.kind is Kind.ASSISTANT))
        await pilot.press("enter")
        shown = await detail_text()
        assert "no result" in shown and "running" not in shown


@pytest.mark.parametrize("keys", [("enter", "r"), ("r",)])  # r in the detail view, or on the call in the pane
async def test_a_calls_raw_json_is_its_own_record_and_its_result(tmp_path: Path, keys: tuple[str, ...]) -> None:
    thread = Thread()
    thread.prompt("run it")
    thread.answer({"type": "thinking", "thinking": "let me run it"}, msg_id="m1")
    thread.answer(tool_use("t1", "Bash", command="./run"), msg_id="m1")
    thread.result("t1", "all good")
    app = session_app(thread.write(tmp_path / "s.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        view.select(index_of(view, lambda e: e.call is not None))
        await pilot.press(*keys)
        await settled(pilot, lambda: isinstance(app.screen, DetailScreen) and '"uuid"' in app.screen.text)
        raw = app.screen.text
        assert '"tool_use"' in raw and '"all good"' in raw and "let me run it" not in raw
        facts = str(app.screen.query_one("#detail-facts", Static).render())
        assert "lines 3 and 4" in facts and "id t1" in facts


async def test_copy_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """y and o on a tool call: its whole output, read from the file in a thread (30 MB of one line, say)."""
    from claude_tui.core import source
    from claude_tui.ui import actions
    from claude_tui.ui.screens import message_actions

    app = session_app(demo("67df"))
    copied: list[str] = []
    paged: list[str] = []
    read_in: list[int] = []

    def whole(path: str, call: Any) -> str:
        read_in.append(threading.get_ident())
        return full_output(path, call)

    full_output = source.full_output
    monkeypatch.setattr(source, "full_output", whole)
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    monkeypatch.setattr(actions, "open_in_pager", lambda app, text: paged.append(text))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("j", "y", "Y")
        assert "full-text search" in copied[0]
        assert copied[1] == "cd /home/ada/code/notes-api && claude --resume 67df1d90-4225-4d2b-a6d6-45556e8a9ebb"
        call = index_of(view, lambda e: e.call is not None and e.call.result is not None and e.depth == 0)
        view.select(call)
        await pilot.press("y")  # on a tool call: its whole output, as the detail view copies it
        await settled(pilot, lambda: len(copied) == 3)
        assert copied[2] == view.entries[call].call.result.text and copied[2] not in copied[0]
        assert raised(app) and raised(app)[-1].message.startswith(f"Copied the {view.entries[call].call.name} output (")
        await pilot.press("o")
        await settled(pilot, lambda: paged)
        assert paged == [copied[2]]
        monkeypatch.setattr(message_actions, "BIG_COPY", len(copied[2]) - 1)  # a copy a terminal may drop: said so
        await pilot.press("y")
        await settled(pilot, lambda: len(copied) == 4)
        told = raised(app)[-1]
        assert told.severity == "warning" and "a terminal may refuse one this big; o pages it" in told.message
    assert len(read_in) == 3 and threading.get_ident() not in read_in  # never on the screen's thread


async def test_appended_records_stream_in_and_follow(tmp_path: Path) -> None:
    thread = Thread()
    thread.prompt("first")
    thread.answer(text("one"))
    path = thread.write(tmp_path / "live.jsonl")
    app = session_app(path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        count = len(view.entries)
        thread.answer(tool_use("t9", "Bash", command="make"))
        for i in range(60):
            thread.prompt(f"more {i}")
            thread.answer(text(f"answer {i}"))
        with path.open("ab") as f:
            f.write(b"".join(orjson.dumps(r) + b"\n" for r in thread.records[2:]))
        view.read_more()
        await loaded(pilot, app)
        assert len(view.entries) > count + 100
        assert view.cursor_index == len(view.entries) - 1  # following: the newest is in view
        assert view.scroll_offset.y == view.max_scroll_y
        running = next(e for e in view.entries if e.call is not None)
        assert running.call.status == "running"
        with path.open("ab") as f:
            f.write(orjson.dumps(Thread().result("t9", "done", uuid="u9999")) + b"\n")  # not the first's u0001
        view.read_more()
        await loaded(pilot, app)
        assert running.call.status == "ok"
        assert "✓ Bash" in view.drawn(running)[running.pad].text


async def test_reveal_opens_what_hides_a_message() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        session = view.session
        assert session is not None
        sub = next(s for s in session.subagents if s.parent_call is not None)
        target = sub.visible()[-1]
        assert view.reveal(target)
        assert view.cursor is not None and view.cursor.message is target and view.cursor.depth == 1
        assert target in view.highlighted


async def notes_after_next_prompt(config: Config, key: str) -> list[str]:
    """The notices of an app started with `config`, whose `key` must move to the next prompt."""
    app = session_app(demo("dce61781"), config=config)
    notes: list[str] = []
    app.notify = lambda message, **kw: notes.append(str(message))  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await pilot.press(key)
        assert view.cursor is not None and view.cursor.message.kind is Kind.PROMPT
    return notes


async def test_keys_can_be_remapped_and_a_clash_is_told() -> None:
    notes = await notes_after_next_prompt(Config(keys={"conversation.next_prompt": "n"}), "n")
    assert [n.split(": ", 1)[1] for n in notes] == [
        "key 'n' is both conversation.next_prompt and conversation.next_match"
    ]


async def test_a_mistyped_binding_id_or_theme_is_told() -> None:
    config = Config(
        theme="no-such-theme",
        keys={"conversation.nextprompt": "x", "conversation.next_prompt": "J", "search.hits.down": "ctrl+n"},
    )
    notes = await notes_after_next_prompt(config, "J")
    assert notes[0] == "Unknown theme 'no-such-theme'; see ctrl+p → Theme"
    assert [n.split(": ", 1)[1] for n in notes[1:]] == [
        "keys.conversation.nextprompt is no binding's id (the help screen, ?, lists them)"
    ]


async def test_the_documented_config_example_works_without_a_clash(tmp_path: Path) -> None:
    page = (Path(__file__).parents[2] / "docs" / "configuration.md").read_text(encoding="utf-8")
    example = page.split("```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "config.toml").write_text(example, encoding="utf-8")
    config = load_config(tmp_path / "config.toml")
    assert config.problems == [] and config.keys["conversation.next_prompt"] == "],J"
    assert await notes_after_next_prompt(config, "J") == []


async def test_hints_name_the_keys_as_remapped(real_projects: Path) -> None:
    """A hint that names a key names the one the config file gave its binding."""
    path = (
        real_projects / "-Users-dain-workspace-coderabbit-review-helper" / "8a69e93c-e842-471d-a053-5c316757e5e9.jsonl"
    )
    keys = {"conversation.toggle": "v", "conversation.only_prompts": "w", "conversation.only_errors": "ctrl+e"}
    app = session_app(path, config=Config(keys=keys))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        marker = next(e for e in view.entries if e.kind == "agent")
        assert "▸ warmup subagent · v opens · no call" in "".join(s.text for s in view.drawn(marker))
        await pilot.press("w")
        assert "only prompts · w again shows everything" in str(app.screen.query_one(PaneNote).render())
        await pilot.press("w", "ctrl+e")
        await settled(pilot, lambda: view.pane_filter is not None and view.pane_filter.what == "errors")
        assert "press ^e to show everything" in "".join(s.text for s in view.render_lines(view.region))


async def test_an_empty_session_file_with_subagents_is_dated_by_them_and_said_empty(real_projects: Path) -> None:
    """Its header said "no session file" (the file is there, empty) and gave no date: its subagents' records have
    one, as stats and the list now say."""
    path = (
        real_projects / "-Users-dain-workspace-coderabbit-review-helper" / "4227a68e-2b1f-4923-b824-6e04a67f77c1.jsonl"
    )
    app = session_app(path)
    async with app.run_test(size=(160, 30)) as pilot:
        await loaded(pilot, app)
        _, facts = str(app.screen.query_one(SessionHeader).render()).split("\n")
        assert facts.startswith("27 Nov '25 · 48s · ") and " · an empty session file · 2 subagents" in facts, facts


async def test_a_subagent_transcript_opened_on_its_own_shows_what_it_holds(real_projects: Path) -> None:
    """Its session has no file, so the list offers the transcript itself: no conversation but the subagent's,
    open at once (a closed marker alone would show nothing)."""
    path = real_projects / "-Users-dain-workspace-coderabbit-review-helper" / "agent-f36dc5e5.jsonl"
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        # the header describes the file as stats does ("0 prompts · … · 1 subagent", untitled, said it)
        title, facts = str(app.screen.query_one(SessionHeader).render()).split("\n")
        assert title.startswith("Investigate pagination issues in extract-coderabbit-feedback.py")
        assert " · sonnet-4.5 · 1 prompt · 8 tool calls · a subagent's transcript · ⎇ main · /Users/dain/" in facts
        [marker] = [e for e in view.entries if e.kind == "agent"]
        assert "▾ subagent · space closes" in "".join(s.text for s in view.drawn(marker))
        assert sum(e.depth == 1 for e in view.entries) > 10
        view.select(view.entries.index(marker))
        await pilot.press("space")  # closed by hand, it stays closed
        view.read_more()
        await loaded(pilot, app)
        assert view.entries == [marker]


async def test_a_click_selects_and_expands() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        index = index_of(view, lambda e: e.call is not None and e.call.name == "Write")
        entry = view.entries[index]
        view.scroll_to(y=view.rows.starts[index], animate=False, immediate=True)
        await pilot.pause()
        await pilot.click(ConversationView, offset=(10, entry.pad))
        assert view.cursor is entry and entry.key in view.expanded


async def test_huge_output_and_image_never_block(tmp_path: Path) -> None:
    thread = Thread()
    thread.prompt("go")
    thread.answer(tool_use("t1", "Bash", command="cat huge.log"))
    huge = "x" * 200 + "\n"
    thread.result("t1", huge * 150_000)  # 30 MB on one line
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "A" * 2_800_000}}
    thread.raw({**thread.prompt("look"), "message": {"role": "user", "content": [image, text("this")]}})
    thread.records.pop(-2)
    thread.answer(text("done"))
    path = thread.write(tmp_path / "huge.jsonl")
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        index = index_of(view, lambda e: e.call is not None)
        view.select(index)
        call = view.entries[index].call
        assert call is not None and call.result is not None and len(call.result.text) <= PREVIEW_CHARS  # never 30 MB
        await pilot.press("space")
        strips = view.drawn(view.entries[index])
        assert "30.1 MB" in "\n".join(s.text for s in strips) and len(strips) < 100  # a preview, not 150,000 rows
        image_entry = next(e for e in view.entries if e.kind == "image")
        assert "image/png · 2.1 MB" in view.drawn(image_entry)[0].text


async def test_j_on_a_tall_last_entry_reads_down_and_stays_at_its_end(tmp_path: Path) -> None:
    thread = Thread()
    thread.prompt("go")
    thread.answer(tool_use("t1", "Bash", command="seq 60"))
    thread.result("t1", "\n".join(str(i) for i in range(60)))
    path = thread.write(tmp_path / "tall.jsonl")
    app = session_app(path)
    async with app.run_test(size=(100, 20)) as pilot:
        view = await loaded(pilot, app)
        last = len(view.entries) - 1
        assert view.entries[last].call is not None
        view.select(last)
        await pilot.press("space")
        view.select(len(view.entries) - 1)
        seen = []
        for _ in range(12):
            await pilot.press("j")
            seen.append(round(view.scroll_offset.y))
        assert seen == sorted(seen) and seen[-1] == view.max_scroll_y > 0  # down, and no jump back to the top
        assert view.cursor_index == len(view.entries) - 1


@pytest.mark.parametrize("key", ["ctrl+d", "pagedown", "ctrl+u", "pageup"])
async def test_a_page_move_keeps_the_cursor_on_screen_through_a_tall_entry(tmp_path: Path, key: str) -> None:
    """Paging through an expanded call taller than the screen put the cursor on the row after it, off screen."""
    thread = Thread()
    thread.prompt("go")
    thread.answer(tool_use("t1", "Bash", command="seq 60"))
    thread.result("t1", "\n".join(str(i) for i in range(60)))
    for i in range(3):
        thread.prompt(f"and then {i}")
        thread.answer(text(f"done {i}"))
    app = session_app(thread.write(tmp_path / "tall.jsonl"))
    async with app.run_test(size=(100, 12)) as pilot:  # the output shows 20 lines: more than the screen
        view = await loaded(pilot, app)
        call = index_of(view, lambda e: e.call is not None)
        view.select(call)
        await pilot.press("space")
        if key in ("ctrl+u", "pageup"):
            await pilot.press("G")
        seen = []
        for _ in range(6):
            await pilot.press(key)
            index, top = view.cursor_index, round(view.scroll_offset.y)
            assert index is not None
            assert view.rows.starts[index] + view.entries[index].pad < top + view._view.height
            assert view.rows.starts[index + 1] > top
            seen.append(index)
        assert call in seen  # the cursor stays on the tall call while the pages go through it


PASTED = "fix this:\n# not a heading\n- removed line\n+ added line\n> not a quote\n    indented **stars** `ticks`\n1. x"


async def test_prompts_are_shown_as_typed(tmp_path: Path) -> None:
    thread = Thread()
    thread.prompt(PASTED)
    thread.answer(text("# Heading\n- item"))
    app = session_app(thread.write(tmp_path / "s.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        prompt = view.entries[index_of(view, lambda e: e.kind == "text")]
        drawn = [strip.text.rstrip() for strip in view.drawn(prompt)]
        assert [line.split("▎ ", 1)[1] for line in drawn] == PASTED.split("\n")
        answer = view.entries[index_of(view, lambda e: e.kind == "text" and e.message.kind is Kind.ASSISTANT)]
        drawn = "\n".join(strip.text for strip in view.drawn(answer))
        assert "# Heading" not in drawn and "• item" in drawn  # answers stay Markdown


async def test_a_toast_holds_a_path_on_one_line() -> None:
    """ "Exported to <path>" was folded at 60 cells, inside the file's name."""
    app = session_app(demo("dce61781"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await loaded(pilot, app)
        path = "/tmp/review/exports/4ee0c484-e994-4f01-b1be-6cd86456e2af.md"
        app.notify(f"Exported to {path}")
        await pilot.pause()
        toast = app.screen.query("Toast").first()
        assert toast.content_size.width >= len(path)


async def test_export_asks_where_then_writes_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = demo("dce61781")
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)

        async def export(key: str, target: Path | None = None) -> ExportPrompt:
            await pilot.press(key)
            await settled(pilot, lambda: isinstance(app.screen, ExportPrompt))
            if target is not None:
                app.screen.query_one(Input).value = str(target)
                await pilot.pause()
            return app.screen  # type: ignore[return-value]

        def hint(prompt: ExportPrompt) -> str:
            return str(prompt.query_one("#export-hint", Static).render())

        prompt = await export("x")
        assert prompt.query_one(Input).value == str(tmp_path / f"{path.stem}.md")  # the default: here
        await pilot.press("escape")
        assert not isinstance(app.screen, ExportPrompt) and not list(tmp_path.iterdir())

        await export("X", tmp_path / "talk.html")
        await pilot.press("enter")
        await settled(pilot, lambda: (tmp_path / "talk.html").is_file() and not isinstance(app.screen, ExportPrompt))
        assert (tmp_path / "talk.html").read_text().startswith("<!DOCTYPE html>")

        (tmp_path / "kept.md").write_text("mine")
        prompt = await export("x", tmp_path / "kept.md")
        await pilot.press("enter")
        assert app.screen is prompt and "exists" in hint(prompt)  # asked, not replaced
        assert (tmp_path / "kept.md").read_text() == "mine"
        await pilot.press("enter")
        await settled(pilot, lambda: (tmp_path / "kept.md").read_text() != "mine")

        prompt = await export("x", path.parent / "x.md")
        await pilot.press("enter")
        assert app.screen is prompt and "never writes under a projects folder" in hint(prompt)
        await pilot.press("escape")
        assert not (path.parent / "x.md").exists()


async def test_export_reads_the_session_a_message_at_a_time_under_the_views_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The export runs in a thread: the live reader adding to the session meanwhile made it fail ("dictionary
    changed size during iteration"), so it reads the session under the view's lock. It held that lock for the
    whole export: on a 98 MB session the screen, which draws under it, took no key for 2 s. Now it holds it
    for each message and lets go between two."""
    from claude_tui.core import export

    log: list[str] = []
    real = export._Walker.message
    monkeypatch.setattr(export._Walker, "message", lambda walker, *a: (log.append("message"), real(walker, *a)))
    thread = Thread()
    for n in range(3):
        thread.prompt(f"question {n}")
        thread.answer(text(f"answer {n}"))
    app = session_app(thread.write(tmp_path / "proj" / "s1.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        view.session_lock = LoggedLock(view.session_lock, log)  # type: ignore[assignment]
        await pilot.press("x")
        await settled(pilot, lambda: isinstance(app.screen, ExportPrompt))
        app.screen.query_one(Input).value = str(tmp_path / "out.md")
        await pilot.press("enter")
        await settled(pilot, lambda: (tmp_path / "out.md").is_file())
    assert "answer 2" in (tmp_path / "out.md").read_text()
    assert log[-18:] == ["take", "message", "let go"] * 6


class LoggedLock:
    """A lock that notes in `log` when a worker thread (not the screen's) takes it and lets go of it."""

    def __init__(self, lock: Any, log: list[str]) -> None:
        self.lock, self.log = lock, log

    def __enter__(self) -> None:
        self.lock.__enter__()
        self._note("take")

    def __exit__(self, *exc: object) -> None:
        self._note("let go")
        self.lock.__exit__(*exc)

    def _note(self, event: str) -> None:
        if threading.current_thread() is not threading.main_thread():
            self.log.append(event)


async def test_the_header_counts_slash_commands_beside_prompts(tmp_path: Path) -> None:
    thread = Thread()
    thread.prompt("<command-name>/review</command-name><command-args>the parser</command-args>")
    thread.answer(text("Reviewed."))
    thread.prompt("thanks")
    thread.answer(text("You're welcome."))
    app = session_app(thread.write(tmp_path / "s1.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        header = app.screen.query_one(SessionHeader)
        assert "1 prompt, 1 command · 0 tool calls" in str(header.render())


def api_error(thread: Thread, said: str) -> None:
    """Claude Code's own stand-in answer for a failed call: model `<synthetic>`, usage all zeros."""
    record = thread.answer(text(said), model="<synthetic>", output_tokens=0)
    record["isApiErrorMessage"] = True
    record["message"]["usage"] = dict.fromkeys(record["message"]["usage"], 0)


async def test_an_api_error_gives_its_turn_no_model_and_no_context(tmp_path: Path) -> None:
    """The header of a turn ending in an API error said "0 ctx" (the error's zeros), and one of an API error
    alone named the model "synthetic"."""
    thread = Thread()
    thread.prompt("go")
    thread.answer(text("working"), model="claude-opus-4-7", output_tokens=143)
    api_error(thread, "API Error: Request rejected (429)")
    thread.prompt("again")
    api_error(thread, "You've hit your weekly limit")
    app = session_app(thread.write(tmp_path / "s1.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        headers = [e for e in view.entries if e.kind == "header" and e.message.kind is not Kind.PROMPT]
        shown = [view.drawn(e)[-1].text for e in headers]
        assert "opus-4.7" in shown[0] and "123 ctx · 143 out" in shown[0]
        assert "synthetic" not in shown[1] and "ctx" not in shown[1]


@pytest.mark.parametrize(
    ("models", "shown"),
    [
        (("claude-sonnet-4-5-20250929", "claude-haiku-5-5"), " · $0.02+ (no price for claude-haiku-5-5) · "),
        (("glm-5",), " · $? (no price for glm-5) · "),
    ],
)
async def test_the_header_says_which_models_its_cost_leaves_out(
    tmp_path: Path, models: tuple[str, ...], shown: str
) -> None:
    """It showed "$0.02" for 1,000 tokens of Sonnet and 50,000 of a model with no price, as if complete."""
    thread = Thread()
    thread.prompt("hello")
    for model in models:
        thread.answer(text("hi"), model=model, output_tokens=1000 if model.startswith("claude-s") else 50_000)
    app = session_app(thread.write(tmp_path / "s1.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        assert shown in str(app.screen.query_one(SessionHeader).render())


async def test_the_header_says_its_cost_and_models_include_the_subagents(tmp_path: Path) -> None:
    """It showed the cost of the session and its subagents, and the models of the session's file alone: the
    subagents' part of the cost and the models only they used are said beside their count."""
    thread = Thread(session_id="s1")
    thread.prompt("delegate")
    thread.answer(tool_use("t1", "Task", description="look", prompt="look around"), model="claude-haiku-4-5-20251001")
    path = thread.write(tmp_path / "s1.jsonl")
    agent = Thread(session_id="s1")
    agent.prompt("look around", None, isSidechain=True, agentId="abc")
    agent.answer(text("found it"), model="claude-opus-4-6", output_tokens=100_000)
    agent.write(tmp_path / "s1" / "subagents" / "agent-abc.jsonl")
    app = session_app(path)
    async with app.run_test(size=(200, 40)) as pilot:
        await loaded(pilot, app)
        header = str(app.screen.query_one(SessionHeader).render())
        assert " · 100.3k tokens · $2.50 · haiku-4.5 · 1 prompt · 1 tool call · 1 subagent ($2.50, opus-4.6) · " in (
            header
        )


async def test_the_header_of_a_session_of_another_year_says_its_day(tmp_path: Path) -> None:
    thread = Thread(session_id="s1")
    thread.prompt("hello", timestamp="2025-09-02T17:52:00.000Z")
    thread.answer(text("hi"))["timestamp"] = "2025-09-02T18:01:32.000Z"
    app = session_app(thread.write(tmp_path / "s1.jsonl"))
    async with app.run_test(size=(200, 40)) as pilot:
        await loaded(pilot, app)
        assert str(app.screen.query_one(SessionHeader).render()).split("\n")[1].startswith("2 Sep '25 · 9m32s")


async def test_next_error_opens_the_subagent_that_holds_it(tmp_path: Path) -> None:
    """An inline (1.0.x) subagent's failed call: `e` opens the subagent at it, `E` comes back to it."""
    t = Thread(version="1.0.50")
    t.prompt("research")
    t.answer(tool_use("task1", "Task", description="look", prompt="Find the loader"), msg_id="m1")
    main_last = t.last
    for record in (
        t.prompt("Find the loader", parent=None),
        t.answer(tool_use("g1", "Grep", pattern="loader"), msg_id="s1"),
        t.result("g1", "grep: bad pattern", is_error=True),
        t.answer(text("It is in config.py"), msg_id="s2"),
    ):
        record["isSidechain"] = True
    t.last = main_last
    t.result("task1", "It is in config.py")
    t.answer(text("Done."), msg_id="m2")
    app = session_app(t.write(tmp_path / "s1.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        view.select(0)
        await pilot.press("e")
        cursor = view.cursor
        assert cursor is not None and cursor.depth == 1 and cursor.call is not None and cursor.call.id == "g1"
        await pilot.press("h", "h", "G", "E")  # closed again; from the end, back to it
        cursor = view.cursor
        assert cursor is not None and cursor.call is not None and cursor.call.id == "g1"


async def test_an_api_error_written_as_an_answer_is_an_error_row(tmp_path: Path) -> None:
    """Claude Code 2.1 writes a rate limit as an assistant record (isApiErrorMessage) with a text block:
    it is drawn as an error, and `e` and `!` reach it, as they do an API error of a system record."""
    t = Thread(version="2.1.220")
    t.prompt("go on")
    t.answer(text("You've hit your weekly limit · resets Jul 27 at 11pm"), msg_id="e1")["isApiErrorMessage"] = True
    t.prompt("and now?")
    t.answer(text("Fine again."), msg_id="m2")
    app = session_app(t.write(tmp_path / "s1.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        [row] = [e for e in view.entries if e.message.kind is Kind.API_ERROR and e.kind != "header"]
        assert row.kind == "row" and "✗ API error  You've hit your weekly limit" in view.drawn(row)[-1].text
        view.select(0)
        await pilot.press("e")
        assert view.cursor is row
        await pilot.press("exclamation_mark")
        assert view.entries == [row]


async def test_the_header_counts_the_subagents_errors_that_e_visits(real_projects: Path) -> None:
    path = real_projects / "-src-deep-manifest" / "a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl"
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        header = str(app.screen.query_one(SessionHeader).render())
        assert "108 tool calls (4 errors)" in header and "1 subagent (1 error, $0.07, haiku-4.5)" in header
        visited: list[str] = []
        view.select(0)
        for _ in range(5):
            await pilot.press("e")
            cursor = view.cursor
            assert cursor is not None and cursor.call is not None and cursor.call.status == "error"
            visited.append(cursor.call.id)
        assert len(set(visited)) == 5


@pytest.mark.parametrize(("calls", "dim"), [(5, True), (1000, False)])
async def test_a_turns_figures_are_right_once_read_when_more_of_it_comes_in_the_next_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, calls: int, dim: bool
) -> None:
    """A turn's header was drawn from the first batch, and the turn went on in the next, which began with a dim row
    (an attachment between a call's result and the next call, 2.1.225: session 43e7d642), or 400 rows below it: the
    header was kept, its "ctx · out" the first batch's (75.4k · 11.4k for 141.8k · 30.5k) until `.` drew it again."""
    t = Thread(version="2.1.225")
    t.prompt("list the build")
    first = 0
    for i in range(1, calls + 1):
        t.answer(tool_use(f"t{i}", "Bash", command=f"ls part{i}"), msg_id=f"m{i}", output_tokens=1000)
        t.result(f"t{i}", f"part{i} ok")
        first = first or len(t.bytes())  # the first batch: up to the first result
        if dim:
            reminder = {"type": "total_tokens_reminder", "text": "<total_tokens>Infinite tokens left</total_tokens>"}
            t._base("attachment", True, attachment=reminder)
    path = t.write(tmp_path / "s1.jsonl")
    monkeypatch.setattr("claude_tui.ui.widgets.conversation.feed.FIRST_BATCH", first)
    monkeypatch.setattr("claude_tui.ui.widgets.conversation.feed.DRAW_WAIT", 60.0)  # the first screen drawn first
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        [header] = [e for e in view.entries if e.kind == "header" and e.message.kind is Kind.ASSISTANT]
        shown = view.drawn(header)[-1].text
        view._cache.clear()
        again = view.drawn(header)[-1].text
        assert again == shown and f" {human_count(1000 * calls)} out " in shown, shown


async def test_the_header_says_how_far_a_big_read_has_got(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its facts grow while a big session is read: the header says they are counted so far, and how far."""
    thread = Thread()
    for i in range(200):
        thread.prompt(f"step {i}")
        thread.answer(tool_use(f"t{i}", "Bash", command=f"make part{i}"), msg_id=f"m{i}")
        thread.result(f"t{i}", f"build line {i} ok\n" * 1000)
    path = thread.write(tmp_path / "big.jsonl")
    for name, value in (("FIRST_BATCH", 65536), ("BATCH", 262144), ("APPLY_MOST", 1), ("APPLY_EVERY", 0.0)):
        monkeypatch.setattr(f"claude_tui.ui.widgets.conversation.feed.{name}", value)
    statuses: list[str] = []
    show = SessionHeader.show
    monkeypatch.setattr(
        SessionHeader, "show", lambda self, *a: (statuses.append(a[2] if len(a) > 2 else ""), show(self, *a))
    )
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        widget = app.screen.query_one(SessionHeader)
        header = str(widget.render())
        read = [s for s in statuses if s.startswith("reading")]
        widget.show(view.session, "a long title " * 20, "reading 1.0 MB of 2.0 MB")
        assert str(widget.render()).split("\n")[1].startswith("reading 1.0 MB of 2.0 MB · so far: ")
    size = path.stat().st_size
    assert len(read) > 2 and read[-1] != read[0] and all(s.endswith(f"of {size / 1e6:.1f} MB") for s in read), read
    assert "200 prompts" in header and "reading" not in header and "so far" not in header


def slow_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rewound: bool = False) -> Path:
    """A session of 200 turns read in small batches, its rows made one a frame: the read takes many frames;
    `rewound`: the last prompt was typed again after the first turn, and its branch is the one shown."""
    thread = Thread()
    results = []
    for i in range(200):
        thread.prompt(f"step {i}")
        thread.answer(tool_use(f"t{i}", "Bash", command=f"make part{i}"), msg_id=f"m{i}")
        results.append(thread.result(f"t{i}", f"build line {i} ok\n" * 1000))
    if rewound:
        thread.prompt("step 1, again", parent=results[0]["uuid"])
        thread.answer(text("the real end"), msg_id="again")
    for name, value in (("FIRST_BATCH", 65536), ("BATCH", 262144), ("APPLY_MOST", 1), ("APPLY_EVERY", 0.0)):
        monkeypatch.setattr(f"claude_tui.ui.widgets.conversation.feed.{name}", value)
    poll = SessionTail.poll

    def slowly(self: SessionTail, limit: int) -> Any:
        time.sleep(0.05)  # a slow disk, whatever the machine
        return poll(self, limit)

    monkeypatch.setattr(SessionTail, "poll", slowly)
    return thread.write(tmp_path / "projects" / "-home-u-big" / "big.jsonl")


async def test_g_while_a_session_is_read_goes_to_its_real_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = session_app(slow_read(tmp_path, monkeypatch))
    async with app.run_test(size=SIZE) as pilot:
        view = app.screen.query_one(ConversationView)
        deadline = time.monotonic() + 20
        while not (view.reading and len(view.entries) > 3):  # not `settled`: its last pause may see the read out
            assert time.monotonic() < deadline, "timed out"
            await asyncio.sleep(0.01)
        view.action_last()  # G (a pilot's key press waits for the app to be idle: the read's end)
        early = len(view.entries)
        assert view.reading
        await settled(pilot, lambda: not view.reading)
        await pilot.pause()
        assert early < len(view.entries) == 800 and view.cursor is view.entries[-1], early


async def first_rows_of_a_read(view: ConversationView) -> None:
    """Wait until a session being read shows its first rows, the read still under way."""
    deadline = time.monotonic() + 20
    while not (view.reading and len(view.entries) > 5):
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_g_while_a_session_is_read_goes_to_its_real_end_when_a_later_branch_replaces_its_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows G landed on are those of a branch that the end of the file leaves (a prompt typed again): the
    cursor went with them, and G stopped there (on the 98 MB corpus session, the end of the first 4 MB)."""
    app = session_app(slow_read(tmp_path, monkeypatch, rewound=True))
    async with app.run_test(size=SIZE) as pilot:
        view = app.screen.query_one(ConversationView)
        await first_rows_of_a_read(view)
        view.action_last()
        landed = view.cursor
        await settled(pilot, lambda: not view.reading)
        await pilot.pause()
        assert landed not in view.entries and view.cursor is view.entries[-1]
        assert "the real end" in view.drawn(view.cursor)[-1].text and view.scroll_offset.y == view.max_scroll_y


async def test_a_move_after_g_while_a_session_is_read_keeps_the_cursor_where_it_went(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = session_app(slow_read(tmp_path, monkeypatch))
    async with app.run_test(size=SIZE) as pilot:
        view = app.screen.query_one(ConversationView)
        await first_rows_of_a_read(view)
        view.action_last()
        view.action_cursor(-1)  # k: the user reads there
        moved = view.cursor
        await settled(pilot, lambda: not view.reading)
        await pilot.pause()
        assert moved is not None and view.cursor is moved and len(view.entries) == 800


async def test_a_search_hit_in_an_api_error_lands_on_its_error_row(tmp_path: Path) -> None:
    """The error's text is on the row under its header, which has no block: the hit landed on the header
    (a prompt suggestion's API error, 2.1: session 8c870161)."""
    t = Thread()
    t.prompt("suggest what I type next")
    error = (
        'API Error: 400 {"type":"error","error":{"message":"thinking.enabled.budget_tokens: Input should be >= 1024"}}'
    )
    t.answer(text(error), msg_id="e1")["isApiErrorMessage"] = True
    path = t.write(tmp_path / "projects" / "-home-u-proj" / "s1.jsonl")
    library = Library([tmp_path / "projects"], tmp_path / "cache")
    library.refresh()
    [hit] = library.search("budget_tokens", kind="api_error")
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        app.main.open_hit(hit)
        await settled(pilot, lambda: not view.reading and not app.main.hit_pending)
        assert view.cursor is not None and view.cursor.kind == "row" and view.cursor.message.kind is Kind.API_ERROR


async def test_a_search_hit_opened_while_its_session_is_read_is_shown_once_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its message read but its row not made yet: it waited for neither, and said "another branch"."""
    path = slow_read(tmp_path, monkeypatch)
    library = Library([tmp_path / "projects"], tmp_path / "cache")
    library.refresh()
    [hit] = library.search("part199", kind="tool_input")
    app = session_app(path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        view = app.screen.query_one(ConversationView)
        app.main.open_hit(hit)
        await settled(pilot, lambda: not view.reading and not app.main.hit_pending)
        await pilot.pause()
        assert view.cursor is not None and view.cursor.call is not None and "part199" in str(view.cursor.call.input)
        assert not [n.message for n in raised(app) if "branch" in n.message]


async def test_subagents_no_call_started_come_last_under_a_marker_that_opens(real_projects: Path) -> None:
    """2.0.x warmups: counted in the header, so shown too, closed, after the conversation; found by `/`."""
    path = (
        real_projects / "-Users-dain-workspace-coderabbit-review-helper" / "8a69e93c-e842-471d-a053-5c316757e5e9.jsonl"
    )
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        assert "2 subagents" in str(app.screen.query_one(SessionHeader).render())
        markers = [e for e in view.entries if e.kind == "agent"]
        assert len(markers) == 2 and view.entries[-2:] == markers and not any(e.depth for e in view.entries)
        drawn = "".join(s.text for s in view.drawn(markers[0]))
        assert "▸ warmup subagent · space opens · no call in this session started it" in drawn
        view.select(view.entries.index(markers[0]))
        await pilot.press("space")
        assert "▾ warmup subagent · space closes" in "".join(s.text for s in view.drawn(markers[0]))
        inside = [e for e in view.entries if e.depth == 1]
        assert [e.kind for e in inside] == ["header", "text", "header", "text"]
        assert inside[1].message.plain_text == "Warmup" and view.entries[-1] is markers[1]
        view.select(view.entries.index(inside[-1]))
        await pilot.press("h")  # from inside, back up to the marker
        assert view.cursor is markers[0]
        await pilot.press("h")
        assert not any(e.depth for e in view.entries)
        bar = await find(pilot, app, "search through your codebase")  # in the second, closed
        assert len(bar.matches) == 1
        await pilot.press("enter")
        cursor = view.cursor
        assert cursor is not None and cursor.depth == 1 and "search through your codebase" in cursor.message.plain_text
        assert markers[1].key in view.expanded


async def test_following_and_filters_keep_to_the_conversation_above_the_subagents_no_call_started(
    real_projects: Path,
) -> None:
    path = (
        real_projects / "-Users-dain-workspace-coderabbit-review-helper" / "cb2e607c-c758-415a-8b45-c49e4631906a.jsonl"
    )
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        marker = next(e for e in view.entries if e.kind == "agent")
        last_prompt = [e for e in view.entries if e.kind == "header" and e.message.kind is Kind.PROMPT][-1]
        view.select(view.entries.index(marker))
        await pilot.press("P")  # the marker is hidden: the nearest row above it, not the first prompt
        assert view.cursor is not None and view.cursor.message is last_prompt.message
        await pilot.press("P")
        view.select(view.entries.index(marker))
        before = view.scroll_offset.y
        await pilot.press("space")  # at the bottom of the screen: what it opened is brought into view
        top = view.rows.starts[view.entries.index(marker)]
        assert view.scroll_offset.y == min(top, view.max_scroll_y) > before
        await pilot.press("L")  # following: the newest message, not the subagent's last row
        assert any(e.depth for e in view.entries[view.entries.index(marker) :])
        cursor = view.cursor
        assert cursor is not None and cursor.depth == 0 and cursor.kind != "agent"
        assert view.entries.index(cursor) < view.entries.index(marker)


@pytest.mark.parametrize(
    ("cwd", "command"),
    [
        ("/home/u/my proj", "cd '/home/u/my proj' && claude --resume s1"),
        ("-experiments/worktrees", "cd -- -experiments/worktrees && claude --resume s1"),
    ],
)
def test_the_resume_command_runs_in_a_shell(tmp_path: Path, cwd: str, command: str) -> None:
    """Quoted, and a folder that starts with `-` is not taken for one of cd's options (a real file's cwd)."""
    thread = Thread(cwd=cwd)
    thread.prompt("hi")
    assert copy_line(DEFAULT_COMMAND, of_session(read_session(thread.write(tmp_path / "s1.jsonl")))) == command


async def test_a_jump_to_what_the_pane_filter_hides_shows_everything(real_projects: Path) -> None:
    """e under P, ] under !: the next error or prompt is shown (the filter set off, and said so, as find does);
    'No next error' only when there is none."""
    app = session_app(real_projects / "example-sessions" / "400429ba-c1e1-4ef5-a7ec-fe40608df53b.jsonl")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        view = await loaded(pilot, app)

        def told() -> str:
            return raised(app)[-1].message

        async def jump(keys: tuple[str, ...], key: str, landed: Callable[[Entry], bool], what: str) -> None:
            await pilot.press(*keys)
            start = view.cursor
            assert view.pane_filter is not None and start is not None
            await pilot.press(key)
            assert view.pane_filter is None and told() == f"The pane filter hid this {what}: showing everything"
            assert view.cursor is not None and landed(view.cursor)
            assert view.entries.index(view.cursor) > view.entries.index(start)

        await jump(("P", "right_square_bracket"), "e", is_error, "error")
        await jump(("P",), "c", lambda e: e.kind in ("compact", "summary"), "compaction")
        await jump(("g", "exclamation_mark"), "right_square_bracket", lambda e: e.kind == "header", "prompt")
        await pilot.press("exclamation_mark", "G", "e")
        assert view.pane_filter is not None and view.pane_filter.what == "errors" and told() == "No next error"


async def test_the_first_time_shown_on_a_new_day_shows_the_date(real_projects: Path) -> None:
    """The turn at 23:58 runs past midnight with no header of its own: the next time shown (00:08:19) is the
    first on 4 Oct, and says so, with everything shown, with only the prompts, and with dim rows hidden."""
    path = real_projects / "-Users-dain-workspace-danieldemmel-me-next" / "9e953218-585f-4692-89df-9e0747a31c68.jsonl"
    app = session_app(path)
    async with app.run_test(size=(160, 45)) as pilot:
        view = await loaded(pilot, app)

        def times() -> list[tuple[str, bool, str]]:
            """Each time shown in the conversation: its day, whether its date is shown with it, and its line."""
            clock, out = view.clock, []
            for entry in (e for e in view.entries if dates_its_time(e) and e.depth == 0):
                stamp, line = entry.message.timestamp, view.drawn(entry)[-1].text.rstrip()
                out.append((clock.date(stamp), line.endswith(f"{clock.day(stamp)} · {clock.clock_time(stamp)}"), line))
            return out

        for keys in ((), ("P",), ("P", "full_stop")):
            await pilot.press(*keys)
            shown = times()
            assert any(line.endswith("Sat 4 Oct 2025 · 00:08:19") for _, _, line in shown)
            days = [day for day, _, _ in shown]
            assert [dated for _, dated, _ in shown] == [day != before for before, day in pairwise([None, *days])]


async def test_a_big_session_is_freed_when_another_is_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    """A big session's objects were frozen from the cycle collector while shown, and frozen again with the next
    one's: about 10 MB of each session opened stayed for good (890 MB after 60 opens of two 12 MB sessions)."""
    import gc

    from claude_tui.ui.widgets.conversation import feed

    monkeypatch.setattr(feed, "FREEZE_MESSAGES", 1)  # every session counts as big
    app = session_app(demo("67df"))
    frozen = []
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            view = await loaded(pilot, app)
            for prefix in ("3396", "67df") * 4:
                view.open(demo(prefix))
                await settled(pilot, lambda: view.read_whole and view.session is not None and view.session.messages)
                frozen.append(gc.get_freeze_count())
    finally:
        gc.unfreeze()
    # each open of the two demo sessions froze ~800 objects more (their garbage); now a few dozen (Textual's)
    assert frozen[-1] - frozen[1] < 1000, frozen


@pytest.mark.parametrize(("keys", "where"), [("G", -1), ("j j", 2), ("G k g", 0)])
async def test_moves_typed_before_the_first_rows_are_made_once_they_come(tmp_path: Path, keys: str, where: int) -> None:
    """A session opened and G (or j) typed at once, before its first rows were made (over SSH, in one burst
    with Enter): the move did nothing and was lost. Now the moves wait for the first rows, in order, and G goes
    on to the real end as the read goes on."""
    thread = Thread()
    for i in range(200):
        thread.prompt(f"question {i}")
        thread.answer(text(f"answer {i}"))
    path = thread.write(tmp_path / "s.jsonl")
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        with view.session_lock:  # the read of the session opened again waits: no row of it is made
            view.open(path)
            for key in keys.split():
                app.post_message(events.Key(key, key))
            await pilot.pause()
            assert view.reading and not view.entries
        await settled(pilot, lambda: not view.reading)
        await handled(pilot, app)
        assert view.cursor_index == where % len(view.entries)


async def test_the_cursor_on_the_bottom_row_stays_in_view_when_a_bar_takes_a_line(real_projects: Path) -> None:
    """The find bar below the pane and the pane filter's note above it take a line of the pane: the cursor on its
    bottom row stays in view (it was left just under the pane's edge)."""
    app = session_app(real_projects / "example-sessions" / "400429ba-c1e1-4ef5-a7ec-fe40608df53b.jsonl")
    async with app.run_test(size=(80, 24)) as pilot:
        view = await loaded(pilot, app)

        def bottom_in_view() -> bool:
            cursor = view.cursor_index
            return cursor is not None and view.scroll_offset.y + view.size.height >= view.rows.starts[cursor + 1]

        index = len(view.entries) // 2
        view.select(index, scroll=False)
        view.scroll_to(y=view.rows.starts[index + 1] - view.size.height, animate=False, immediate=True)
        await pilot.pause()
        assert view.scroll_offset.y + view.size.height == view.rows.starts[index + 1]
        await pilot.press("slash")
        await pilot.pause()
        assert view.cursor_index == index and bottom_in_view()
        await pilot.press("escape")
        task = next(
            e
            for e in view.entries
            if e.call is not None and e.call.name == "Task" and "encryption" in str(e.call.input)
        )
        view.set_expanded(task, True)
        await pilot.pause()
        view.select(next(i for i in range(view.entries.index(task), len(view.entries)) if view.entries[i].depth))
        await pilot.press("exclamation_mark")  # the cursor, hidden, goes to the last error: the bottom row
        await pilot.pause()
        assert view.cursor_index == len(view.entries) - 1 and bottom_in_view()


async def test_the_scrollbar_s_thumb_is_where_the_view_is_once_the_bar_shows() -> None:
    """A scroll made while the bar is still hidden (the pane just grew past the screen, not laid out yet: a
    search hit opened as its session is read) left the thumb at the top (the snapshot of a hit in a subagent
    drew it there one time in three)."""
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        assert view.scroll_y == 0 and view.max_scroll_y > 10
        view.show_vertical_scrollbar = False  # not laid out since it grew
        view.scroll_to(y=10, animate=False, immediate=True, force=True)
        await pilot.pause()  # laid out: the bar shows
        assert view.show_vertical_scrollbar and view.vertical_scrollbar.position == view.scroll_y == 10
