"""Content of a shape Claude Code does not write (a tool input that is a string, text that is a dict, a tool
result that is a dict or nested lists, a prompt that is a number, a bare string as a block) is read by one rule:
what search finds, the session shows, `/` finds and the exports write, with a note on the odd shape."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from claude_tui.core.export import export_session
from claude_tui.core.find import Query, locate
from claude_tui.core.find import find as find_in
from claude_tui.core.library import Library
from claude_tui.core.loader import read_session
from claude_tui.core.search import MARK_END, MARK_START
from claude_tui.ui.palette import Palette
from claude_tui.ui.tools import body, summary
from tests.jsonl import Thread, text, tool_use
from tests.ui_support import find, loaded, session_app


def _content(rec: dict[str, Any], content: Any) -> None:
    rec["message"]["content"] = content


def _message(rec: dict[str, Any], message: str) -> None:
    rec["message"] = message


#: name -> (what writes the odd part into a thread, the word it holds)
CASES: dict[str, tuple[Callable[[Thread], Any], str]] = {
    "a tool input that is a string": (
        lambda t: (t.answer({"type": "tool_use", "id": "g", "name": "Grep", "input": "just a string zebra"}),
                   t.result("g", "24 lines")),
        "zebra",
    ),
    "a text that is a dict": (lambda t: t.answer({"type": "text", "text": {"a": "zebra"}}), "zebra"),
    "a text that is a list": (lambda t: t.answer({"type": "text", "text": ["zebra", "list"]}), "zebra"),
    "a tool result that is a dict": (
        lambda t: (t.answer(tool_use("r", "Read", file_path="/x")),
                   t.result("r", {"type": "text", "text": "dict result zebra"})),
        "zebra",
    ),
    "a tool result of nested lists": (
        lambda t: (t.answer(tool_use("r", "Read", file_path="/x")),
                   t.result("r", [[{"type": "text", "text": "deep zebra"}], ["x", ["y"]]])),
        "zebra",
    ),
    "a bare string in a tool result": (
        lambda t: (t.answer(tool_use("r", "Read", file_path="/x")),
                   t.result("r", [{"type": "text", "text": 5}, "str zebra"])),
        "zebra",
    ),
    "a prompt that is a dict": (lambda t: t.prompt({"type": "text", "text": "dict content zebra"}), "zebra"),  # type: ignore[arg-type]
    "a prompt that is a number": (lambda t: t.prompt(12345), "12345"),  # type: ignore[arg-type]
    "an assistant block that is a string": (lambda t: t.answer("bare string block zebra"), "zebra"),  # type: ignore[arg-type]
    "an assistant block that is a list": (lambda t: t.answer(["nested", "zebra"]), "zebra"),  # type: ignore[arg-type]
    "an assistant content that is a dict": (
        lambda t: _content(t.answer(text("x")), {"type": "text", "text": "zebra dict"}),
        "zebra",
    ),
    "a user message that is a string": (lambda t: _message(t.prompt("x"), "string message zebra"), "zebra"),
    "an assistant message that is a string": (lambda t: _message(t.answer(text("x")), "string zebra"), "zebra"),
}  # fmt: skip


def odd_session(tmp_path: Path, case: str) -> tuple[Path, str]:
    t = Thread(session_id="odd")
    t.prompt("first question")
    write, word = CASES[case]
    write(t)
    t.prompt("a last prompt")
    t.answer(text("done"))
    return t.write(tmp_path / "projects" / "-home-u-proj" / "odd.jsonl"), word


@pytest.mark.parametrize("case", CASES)
def test_what_search_finds_the_session_shows_find_finds_and_exports_write(tmp_path: Path, case: str) -> None:
    path, word = odd_session(tmp_path, case)
    library = Library([tmp_path / "projects"], tmp_path / "cache")
    library.refresh()
    [hit] = library.search(word)
    assert f"{MARK_START}{word}{MARK_END}" in hit.snippet
    assert hit.timestamp is not None and hit.message_uuid is not None
    session = read_session(path)
    assert any("shown as" in p.message for p in session.problems), session.problems  # the odd shape is noted
    found = next(find_in(session, Query(word)))
    placed = locate(session, str(hit.file), hit.offset, hit.kind, hit.call_id)
    assert placed is not None and placed[0] is found.message
    for fmt in ("markdown", "html", "json"):
        assert word in export_session(session, fmt), fmt


def test_a_tool_input_that_is_not_an_object_is_kept_and_shown(tmp_path: Path) -> None:
    path, _ = odd_session(tmp_path, "a tool input that is a string")
    session = read_session(path)
    [call] = session.calls.values()
    assert call.input == "just a string zebra" and call.args == {}
    assert summary(call, None)[0] == "just a string zebra"
    shown = "\n".join(row.text.plain for row in body(call, 80, Palette.from_variables({}, True), None))
    assert "just a string zebra" in shown
    [exported] = [c for m in orjson.loads(export_session(session, "json"))["messages"] for c in m["tool_calls"]]
    assert exported["input"] == "just a string zebra"


@pytest.mark.parametrize("case", CASES)
async def test_the_find_bar_finds_it_in_the_opened_session(tmp_path: Path, case: str) -> None:
    path, word = odd_session(tmp_path, case)
    app = session_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        bar = await find(pilot, app, word)
        assert bar._status_text() == "1 match"
        if case == "a tool input that is a string":  # the call's row says it
            assert "Grep    just a string zebra" in "".join(s.text for s in view.render_lines(view.region))
