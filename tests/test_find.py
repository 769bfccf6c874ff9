"""Finding text in a session, collapsed parts and subagents included; reading long outputs back."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from claude_tui.core.find import Query, find, locate
from claude_tui.core.library import Library
from claude_tui.core.loader import read_session
from claude_tui.core.source import full_output, raw_json
from tests.jsonl import Thread, text, tool_use


def session_file(tmp_path: Path) -> Path:
    t = Thread(session_id="main")
    t.prompt("Where is the Config loader?")
    t.answer(
        {"type": "thinking", "thinking": "maybe in settings.py"},
        tool_use("b", "Bash", command="grep -r loader"),
        msg_id="m1",
    )
    t.result("b", "line\n" * 5000 + "NEEDLE at the very end\n")
    t.answer(tool_use("task", "Task", prompt="look deeper"), msg_id="m2")
    t.result("task", "ok", toolUseResult={"agentId": "a1"})
    t.answer(text("The config loader is in app/config.py"), msg_id="m3")
    path = t.write(tmp_path / "p" / "main.jsonl")
    sub = Thread(session_id="main")
    sub.prompt("look deeper", parent=None, isSidechain=True)
    sub.answer(text("found the hidden_gem in a subagent"), tool_use("g", "Grep", pattern="deep_call"), msg_id="s1")
    sub.write(tmp_path / "p" / "main" / "subagents" / "agent-a1.jsonl")
    return path


def test_smart_case_and_regex() -> None:
    assert Query("config").spans("Config config CONFIG") == [(0, 6), (7, 13), (14, 20)]
    assert Query("Config").spans("Config config") == [(0, 6)]
    assert Query(r"a\d+", regex=True).spans("a1 b2 a33") == [(0, 2), (6, 9)]
    assert Query("a.c").spans("abc a.c") == [(4, 7)]  # literal unless regex
    with pytest.raises(Exception):  # noqa: B017 - re.error
        Query("(", regex=True)


def test_finds_in_collapsed_parts_and_subagents(tmp_path: Path) -> None:
    path = session_file(tmp_path)
    s = read_session(path)
    where = {h.part.where for h in find(s, Query("loader"))}
    assert where == {"text", "tool_input"}
    assert [h.part.where for h in find(s, Query("settings.py"))] == ["thinking"]
    gem = list(find(s, Query("hidden_gem")))
    assert len(gem) == 1 and gem[0].part.nested is not None and gem[0].part.call is s.calls["task"]
    assert gem[0].part.tool is None and gem[0].part.block == 0
    [deep] = find(s, Query("deep_call"))
    assert deep.part.call is s.calls["task"] and deep.part.tool is not None and deep.part.tool.name == "Grep"
    assert deep.part.tool in deep.part.nested.tool_calls


def test_long_output_searched_whole_only_when_asked(tmp_path: Path) -> None:
    path = session_file(tmp_path)
    s = read_session(path)
    assert list(find(s, Query("NEEDLE"))) == []  # beyond the preview
    hits = list(find(s, Query("NEEDLE"), full_output=lambda call: full_output(str(path), call)))
    assert len(hits) == 1 and hits[0].part.where == "tool_output"


def test_search_starts_at_the_cursor_and_wraps(tmp_path: Path) -> None:
    s = read_session(session_file(tmp_path))
    last = len(s.visible()) - 1
    order = [h.message.index for h in find(s, Query("loader"), start=last)]
    assert order[0] == s.visible()[last].index and order[-1] < order[0]


def test_a_backward_search_finds_the_same_hits_last_first(tmp_path: Path) -> None:
    s = read_session(session_file(tmp_path))
    for start in range(len(s.visible())):
        forward = [(h.message.index, h.part.where, h.start) for h in find(s, Query("o"), start=start)]
        backward = [(h.message.index, h.part.where, h.start) for h in find(s, Query("o"), start=start, backward=True)]
        assert backward == forward[::-1] and len(forward) > 10
    assert Query("ab").spans("ab ab ab", 2, last=True) == [(3, 5), (6, 8)]
    assert Query("a.", regex=True).spans("ab ac ad", 2, last=True) == [(3, 5), (6, 8)]


def test_a_cancelled_search_stops_between_parts(tmp_path: Path) -> None:
    s = read_session(session_file(tmp_path))
    asked: list[int] = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) > 2

    assert list(find(s, Query("zzz"), cancelled=cancelled)) == [] and len(asked) == 3


def test_locate_finds_where_an_index_hit_is(tmp_path: Path) -> None:
    path = session_file(tmp_path)
    s = read_session(path)
    library = Library([tmp_path], tmp_path / "cache")
    library.refresh()

    def where(query: str) -> tuple[object, object, object]:
        [hit] = library.search(query)
        found = locate(s, str(hit.file), hit.offset, hit.kind, hit.call_id, Query(query).pattern)
        assert found is not None
        return found

    message, call, block = where("hidden_gem")
    assert call is None and block is not None and "hidden_gem" in block.text
    assert message in s.calls["task"].subagent.messages
    message, call, block = where("settings")
    assert call is None and block is not None and block.type == "thinking" and message is s.calls["b"].message
    message, call, block = where("grep")
    assert call is s.calls["b"] and message is call.message
    assert locate(s, str(path), 10**9, "answer") is None


def test_a_call_a_side_question_replays_is_located_in_the_side_question(tmp_path: Path) -> None:
    """/btw writes `agent-aside_question-*` (2.1.72, session e0f1ea34): the session's messages again, its calls
    with their ids, then the side question. A hit in the replayed call is that call, not the session's own."""
    t = Thread(session_id="main")
    t.prompt("rerun the benchmark")
    t.answer(tool_use("toolu_1", "Read", file_path="/bench/results.md"), msg_id="m1")
    t.result("toolu_1", "fps 30")
    path = t.write(tmp_path / "p" / "main.jsonl")
    aside = Thread(session_id="main")
    aside.prompt("rerun the benchmark", parent=None, isSidechain=True, agentId="aside_question-287e")
    aside.answer(tool_use("toolu_1", "Read", file_path="/bench/results.md"), msg_id="m1")
    aside.result("toolu_1", "fps 30")
    aside.prompt("what changed?")
    aside.answer(text("nothing"))
    side_file = aside.write(tmp_path / "p" / "main" / "subagents" / "agent-aside_question-287e.jsonl")
    s = read_session(path)
    [side] = s.subagents
    library = Library([tmp_path], tmp_path / "cache")
    library.refresh()
    [hit] = library.search("results", kind="tool_input")
    assert hit.file == path  # the replay copies the session's records: the index holds them once, the session's
    found = locate(s, str(hit.file), hit.offset, hit.kind, hit.call_id)
    assert found is not None and found[1] is s.calls["toolu_1"]
    replayed = side_file.read_bytes()
    offset = replayed.rfind(b"\n", 0, replayed.index(b'"toolu_1"')) + 1  # the replayed call's record
    found = locate(s, str(side_file), offset, "tool_input", "toolu_1")
    assert found is not None and found[1] is side.calls["toolu_1"]


def test_a_record_glued_to_one_the_index_read_without_its_newline_is_located(tmp_path: Path) -> None:
    """The index reads a finished last line that has no newline; the next record, written with no newline
    between (Claude Code's known bug), is indexed at an offset inside the line a whole read sees as one."""
    t = Thread(session_id="glued")
    t.prompt("the first question")
    t.answer(text("an aardvark answer"))
    path = t.write(tmp_path / "-home-u-proj" / "glued.jsonl")
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    library = Library([tmp_path], tmp_path / "cache")
    library.refresh()
    late = Thread(session_id="glued")
    late.prompt("a zebra question", uuid="u1001")
    with path.open("ab") as f:
        f.write(late.bytes())
    library.refresh()
    s = read_session(path)
    assert [p.message for p in s.problems] == ["2 record(s) recovered"]
    for word, wanted in (("zebra", "a zebra question"), ("aardvark", "an aardvark answer")):
        [hit] = library.search(word)
        found = locate(s, str(hit.file), hit.offset, hit.kind, hit.call_id, Query(word).pattern)
        assert found is not None and found[0].plain_text == wanted, word


def test_raw_json_reads_the_records_back(tmp_path: Path) -> None:
    path = session_file(tmp_path)
    s = read_session(path)
    answer = s.calls["b"].message
    raw = raw_json(str(path), answer.spans)
    assert '"thinking": "maybe in settings.py"' in raw and '"command": "grep -r loader"' in raw
    assert orjson.loads(raw.split("\n}\n")[0] + "\n}")["type"] == "assistant"
