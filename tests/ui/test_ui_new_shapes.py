"""Pilot tests of Claude Code 2.1's shapes in the pane: MCP tools, hooks and progress folded into their rows,
attachments."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.core.export import export_session
from claude_tui.core.loader import read_session
from claude_tui.core.model import Kind
from claude_tui.ui.app import ClaudeTUI
from claude_tui.ui.palette import Palette
from claude_tui.ui.screens.detail import DetailBody, DetailScreen
from claude_tui.ui.widgets.conversation import ConversationView
from tests.core.test_hooks import attach, hook, progress
from tests.jsonl import Thread, text, tool_use
from tests.ui.test_ui_live import append, pane
from tests.ui_support import index_of, loaded, session_app, settled


async def test_an_mcp_call_shows_its_server_and_tool_in_full_on_a_wide_screen(tmp_path: Path) -> None:
    thread = Thread(version="2.1.118")
    thread.prompt("look it up")
    thread.answer(tool_use("call_9451bd056aa64f25825f805d", "mcp__linear-server__get_issue", id="ENG-1421"))
    thread.result("call_9451bd056aa64f25825f805d", "ENG-1421: the parser drops CRLF lines")
    thread.answer(text("done"))
    app = session_app(thread.write(tmp_path / "s.jsonl"))
    async with app.run_test(size=(200, 30)) as pilot:
        view = await loaded(pilot, app)
        entry = view.entries[index_of(view, lambda e: e.call is not None)]
        assert "✓ linear-server · get_issue ENG-1421  1 line" in view.drawn(entry)[-1].text


REAL = Path(__file__).parents[1] / "fixtures" / "real"


def screen(view: ConversationView) -> list[str]:
    """The pane's lines as the screen shows them now."""
    return [view.render_line(y).text.rstrip() for y in range(view.size.height)]


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_a_hook_heavy_session_opens_on_its_conversation(size: tuple[int, int]) -> None:
    """Its first screen was mostly `↪ hook` rows, several identical ones per call (issue 31, defect 3)."""
    app = session_app(REAL / "hooks_turn.jsonl")
    async with app.run_test(size=size) as pilot:
        view = await loaded(pilot, app)
        lines = screen(view)
        assert not any("↪ hook" in line or "+ attachment" in line for line in lines)
        assert lines[0].startswith("▌ ❯ You") and lines[0].endswith("↪3  Sat 18 Apr · 13:18:42")
        if size == (160, 45):  # the calls are on the first screen: one hook ran for each
            calls = [line for line in lines if "✓ ToolSearch" in line or "✓ Bash" in line]
            assert len(calls) == 2 and all(line.endswith(("↪1   0.0s", "↪1   0.1s")) for line in calls), calls


async def test_an_open_call_lists_its_hooks_and_its_detail_view_shows_them_whole() -> None:
    app = session_app(REAL / "hooks_turn.jsonl")
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        index = index_of(view, lambda e: e.call is not None and e.call.name == "Bash")
        view.select(index)
        await pilot.press("space")
        body = [strip.text.strip() for strip in view.drawn(view.entries[index])]
        at = body.index('↪ PostToolUse:Bash · exit 0 · 78 ms  $ "${CLAUDE_PLUGIN_ROOT}/scripts/clmail.cmd" actor busy')
        assert body[at + 1] == "Status set to busy: -experiments/worktrees"
        await pilot.press("enter")
        detail = app.screen
        assert isinstance(detail, DetailScreen)
        await settled(pilot, lambda: "PostToolUse" in _text(detail))
        shown = _text(detail)
        assert "↪ PostToolUse:Bash · exit 0 · 78 ms" in shown and "$ " in shown
        assert "Status set to busy: -experiments/worktrees" in shown
        await pilot.press("escape", "g", "enter")  # the prompt's: the hooks of its turn
        await settled(pilot, lambda: isinstance(app.screen, DetailScreen) and "UserPromptSubmit" in _text(app.screen))
        shown = _text(app.screen)
        assert shown.index("SessionStart:startup · exit 0 · 1,203 ms") < shown.index("UserPromptSubmit · exit 0")
        assert "clmail 6.0.10 session registered" in shown and "Stop · exit 0 · 102 ms" in shown


def _text(screen: object) -> str:
    body = screen.query_one(DetailBody)  # type: ignore[attr-defined]
    return "\n".join(body.render_line(y).text for y in range(body.size.height))


async def test_a_failed_hook_is_a_warning_row_that_dim_rows_hidden_keep() -> None:
    app = session_app(REAL / "hook_failed.jsonl")
    async with app.run_test(size=(140, 30)) as pilot:
        view = await loaded(pilot, app)
        for _ in ("shown", "with the dim rows hidden"):
            row = view.entries[index_of(view, lambda e: e.message.kind is Kind.WARNING)]
            [line] = view.drawn(row)
            assert (
                "⚠ Stop hook failed (exit 127): Failed with non-blocking status code: /bin/sh: notify-send" in line.text
            )
            palette = Palette.of(app)
            assert {s.style.color for s in line if "failed" in s.text and s.style} == {palette.warning.color}
            await pilot.press("full_stop")
        await pilot.press("full_stop")
        view.select(index_of(view, lambda e: e.message.kind is Kind.WARNING))
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, DetailScreen) and "notify-send" in _text(app.screen))
        shown = _text(app.screen)
        assert "↪ Stop · exit 127 · 58 ms" in shown and "DBUS_SESSION_BUS_ADDRESS" in shown  # its command
        await pilot.press("y")  # copied as shown
        assert app.clipboard.startswith("Stop · exit 127 · 58 ms\np=$(pgrep -x dunst | head -1);")


async def test_attachments_say_what_they_are() -> None:
    app = session_app(REAL / "session_start.jsonl")
    async with app.run_test(size=(120, 30)) as pilot:
        view = await loaded(pilot, app)
        lines = screen(view)
        assert any(line.startswith("  + selected in Cursor: supabase/config.toml:283 · Google") for line in lines)
        assert not any("deferred_tools_delta" in line or "skill_listing" in line for line in lines)
        assert lines[0].endswith("↪5  Mon 15 Jun · 12:17:18"), lines[0]


async def test_a_running_commands_row_shows_its_latest_output_then_its_result(tmp_path: Path) -> None:
    """A long command wrote an empty `bash_progress` row a second; now its line says what it printed last."""
    t = Thread(version="2.1.114")
    t.prompt("build it")
    t.answer(tool_use("toolu_b", "Bash", command="make"), msg_id="m1")
    for record in t.records:  # a minute before the clock's now: running, not abandoned
        record["timestamp"] = "2026-04-22T09:59:00.000Z"
    path = t.write(tmp_path / "s.jsonl")
    app = session_app(path, follow=True)
    async with app.run_test(size=(120, 30)) as pilot:
        view = await loaded(pilot, app)
        session = view.session
        assert session is not None
        t.records = []
        for n, out in enumerate(["", "cc -c a.c", "cc -c a.c\ncc -c b.c"]):
            append(path, {**progress(t, "toolu_b", n, out), "timestamp": f"2026-04-22T09:59:5{n}.000Z"})
        await settled(pilot, lambda: "cc -c b.c" in pane(view))
        entry = view.entries[index_of(view, lambda e: e.call is not None)]
        [line] = view.drawn(entry)
        assert "◌ Bash    make  cc -c b.c" in line.text and "running" in line.text
        assert [e.kind for e in view.entries] == ["header", "text", "header", "tool"]  # no progress row
        append(path, t.result("toolu_b", "built\nok"))
        await settled(pilot, lambda: session.calls["toolu_b"].status == "ok" and "2 lines" in pane(view))
        assert "cc -c" not in pane(view)


async def test_a_hook_that_arrives_before_its_call_folds_into_it_when_the_call_comes(tmp_path: Path) -> None:
    t = Thread(version="2.1.114")
    t.prompt("go")
    path = t.write(tmp_path / "s.jsonl")
    app = session_app(path, follow=True)
    async with app.run_test(size=(120, 30)) as pilot:
        view = await loaded(pilot, app)
        t.records = []
        append(path, attach(t, hook("toolu_x", "PreToolUse")))
        await settled(pilot, lambda: "↪ hook  PreToolUse:Bash" in pane(view))
        append(path, t.answer(tool_use("toolu_x", "Bash", command="ls"), msg_id="m1"), t.result("toolu_x", "a"))
        await settled(pilot, lambda: "✓ Bash" in pane(view) and "↪ hook" not in pane(view))
        assert "↪1" in pane(view)


async def test_a_hooks_output_moved_to_tool_results_is_shown_whole_or_said_to_be_gone(tmp_path: Path) -> None:
    """A SessionStart hook's message of 10 KB (2.1.177) is a `<persisted-output>` preview; the file it names is
    read from the session's own folder (the corpus has lost it: then the preview, and a word that the rest is gone)."""
    path = tmp_path / "c1b66129-cfad-4e85-8f73-30003a489c5f.jsonl"
    path.write_bytes((REAL / "session_start.jsonl").read_bytes())
    name = "hook-d09a0bc7-160c-4f4c-b5a3-5453fc30585c-4-systemMessage.txt"
    shown = await _prompt_detail(session_app(path), "answered later")  # down to its turn's last hook
    assert "[Fitcheck] recent context, 2026-06-15" in shown  # its preview, then what became of the rest
    assert f"saved it to {name}, which is not in" in shown.replace("\n", "")
    (tmp_path / path.stem / "tool-results").mkdir(parents=True)
    (tmp_path / path.stem / "tool-results" / name).write_text("[Fitcheck] recent context\n" + "obs\n" * 3 + "END")
    shown = await _prompt_detail(session_app(path), "answered later")
    assert "obs\nobs\nobs\nEND" in shown and "is not here" not in shown
    assert "obs\nobs\nobs\nEND" in export_session(read_session(path), "markdown")


async def _prompt_detail(app: ClaudeTUI, last: str) -> str:
    """The detail view of the session's first row (a prompt), once it shows `last`."""
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, DetailScreen) and last in _text(app.screen))
        return _text(app.screen)


async def test_an_attached_document_and_an_ides_context_are_rows_and_their_detail_shows_them(tmp_path: Path) -> None:
    """-Users-admin's prompt of 2.1.117 (shortened): a Markdown file attached, its UTF-8 written as read as Latin-1;
    and the file the IDE had open, as 2.0.5 told it."""
    written = "# 产品需求知识库\n\n> **文档性质**: 喂给产品 AI 助手"
    document = {
        "type": "document",
        "source": {"type": "text", "media_type": "text/plain", "data": written.encode().decode("latin-1")},
        "title": "02_知识库.md",
    }
    thread = Thread(version="2.1.117")
    ide = "<ide_opened_file>The user opened the file /home/u/proj/plan.md in the IDE.</ide_opened_file>"
    thread.prompt([{"type": "text", "text": ide}, document, {"type": "text", "text": "开发"}])
    thread.answer(
        text("Reading it."),
        {"type": "server_tool_use", "id": "call_1", "name": "webReader", "input": {"url": "https://docs.example/a"}},
    )
    app = session_app(thread.write(tmp_path / "s.jsonl"))
    async with app.run_test(size=(100, 24)) as pilot:
        view = await loaded(pilot, app)
        lines = screen(view)
        assert f"  ▤ 02_知识库.md · text/plain · {len(written.encode())} B" in lines
        assert "  + opened in the IDE: plan.md" in lines  # the session's cwd is /home/u/proj
        assert not any("ide_opened_file" in line for line in lines), lines
        assert not any("?" in line for line in lines), lines  # no block shown as an unknown one
        assert any(line.startswith("  ◌ webReader https://docs.example/a") for line in lines), lines
        await pilot.press("home", "enter")
        await settled(pilot, lambda: isinstance(app.screen, DetailScreen) and "文档性质" in _text(app.screen))
        assert "äº" not in _text(app.screen)
