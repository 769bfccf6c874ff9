"""Pilot tests of Claude Code 2.1's shapes in the pane: MCP tools, hooks and progress folded into their rows,
attachments."""

from __future__ import annotations

from pathlib import Path

from jsonl import Thread, text, tool_use
from ui_support import index_of, loaded, session_app


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
