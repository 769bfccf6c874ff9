"""Search: queries taken as plain words, hits newest first with marked snippets; the index and search commands."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from claude_tui.cli import library as library_cli
from claude_tui.cli import main
from claude_tui.cli.library import unmark
from claude_tui.core import search
from claude_tui.core.index import jobs
from claude_tui.core.library import Library
from claude_tui.core.loader import read_session
from claude_tui.core.model import Kind
from claude_tui.core.reader import ReadError
from claude_tui.core.search import (
    CUT_SHORT,
    MARK_END,
    MARK_START,
    parse_query,
    parse_since,
    parse_until,
    snippet,
    unaccented,
)
from tests.library_data import Writer, encode, simple_project

M, E = MARK_START, MARK_END


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    folder = tmp_path / "projects" / encode("/home/u/alpha")
    old = Writer("old", cwd="/home/u/alpha", start=0)
    old.prompt("How do I parse JSON lines in Python?")
    old.answer({"type": "text", "text": "Use orjson.loads on each line; JSON lines are one object a line."})
    old.write(folder)
    new = Writer("new", cwd="/home/u/alpha", start=86_400)
    new.prompt("The parser breaks on lines with two JSON objects")
    new.tool("Bash", {"command": "pytest -q tests/test_records.py"}, "FAILED test_two_objects - JSONDecodeError", True)
    new.answer({"type": "thinking", "thinking": "split the line where a record starts"})
    new.answer({"type": "text", "text": "Fixed: recovered both records."})
    new.write(folder)
    other = Writer("other", cwd="/home/u/beta", start=40_000)
    other.prompt("Unrelated question about JSON schemas")
    other.answer()
    other.write(tmp_path / "projects" / encode("/home/u/beta"))
    library = Library([tmp_path / "projects"], tmp_path / "cache")
    library.refresh()
    return library


@pytest.mark.parametrize(
    ("query", "fts"),
    [
        ("json lines", '"json" "lines"'),
        ('"json lines"', '"json" "lines"'),
        ('"unbalanced quote', '"unbalanced" "quote"'),
        ("AND OR NOT", '"AND" "OR" "NOT"'),
        ("foo:bar (baz) ^qux", '"foo" "bar" "baz" "qux"'),
        ("-minus col:umn NEAR(a b)", '"minus" "col" "umn" "NEAR" "a" "b"'),
        ("pars*", '"pars"*'),
        ("x.py x.py", '"x" "py"'),
        ('say "it\'s" done', '"say" "it" "s" "done"'),
    ],
)
def test_any_query_becomes_quoted_words(query: str, fts: str) -> None:
    assert parse_query(query).fts == fts


@pytest.mark.parametrize("query", ["", "   ", '""', "*", "()", "-- ::"])
def test_a_query_with_no_words_is_an_error(query: str) -> None:
    with pytest.raises(ValueError, match="nothing to search for"):
        parse_query(query)


def test_a_part_with_no_letter_or_digit_is_left_out_and_said_to_be(
    lib: Library, capsys: pytest.CaptureFixture[str]
) -> None:
    """The index holds words and numbers: 🎉 or -> can never match, so they are not searched for silently."""
    assert parse_query("parser 🎉 -> 🎉 C++").left_out == ("🎉", "->")
    assert lib.search("parser 🎉").left_out == ("🎉",) and not lib.search("parser").left_out
    root = str(lib.roots[0])
    assert main(["search", "--json", "--projects-dir", root, "--", "parser", "->"]) == 0
    out, err = capsys.readouterr()
    assert [orjson.loads(line)["session_id"] for line in out.splitlines()] == ["new"]
    assert err == "claude-tui: left out '->': the index holds words and numbers\n"
    assert main(["search", "--json", "--projects-dir", root, "🎉"]) == 2  # an error, as a bad date is
    assert capsys.readouterr() == (
        "",
        "claude-tui: nothing to search for: the index holds words and numbers, not '🎉'\n",
    )


def test_a_symbol_inside_a_phrase_is_left_out_and_said_to_be(lib: Library, capsys: pytest.CaptureFixture[str]) -> None:
    """A quoted phrase is its words one after the other: the arrow in "deploy -> prod" is not looked for
    (the phrase finds "deploy => prod" and "deploy prod" too), so it is said to be left out, as a loose one is."""
    query = parse_query('"deploy -> prod" "ship 🎉 it" "json ->"')
    assert query.left_out == ("->", "🎉")
    arrow = parse_query('"deploy -> prod"')  # what the phrase then matches: its words, whatever is between them
    assert arrow.accepts("deploy => prod") and arrow.accepts("deploy prod") and not arrow.accepts("deploy to prod")
    assert parse_query('"-> =>"' + " json").left_out == ("->", "=>")
    assert not parse_query('"json lines"').left_out
    assert main(["search", "--json", "--projects-dir", str(lib.roots[0]), '"two -> JSON objects"']) == 0
    out, err = capsys.readouterr()
    assert [orjson.loads(line)["session_id"] for line in out.splitlines()] == ["new"]
    assert err == "claude-tui: left out '->': the index holds words and numbers\n"


def test_bad_queries_search_as_plain_words(lib: Library) -> None:
    for query in ['"two json', "two (json", "two:json", "(two json)", "two^json*", "two OR"[:3]]:
        hits = lib.search(query)
        assert hits, query
        assert all(h.session_id == "new" for h in hits), query


def test_hits_are_newest_first_with_marked_snippets(lib: Library) -> None:
    hits = lib.search("json")  # JSONDecodeError is another word
    assert [(h.session_id, h.kind) for h in hits] == [
        ("new", "prompt"), ("other", "prompt"), ("old", "answer"), ("old", "prompt")
    ]  # fmt: skip
    assert hits[0].snippet == f"The parser breaks on lines with two {M}JSON{E} objects"
    assert hits[2].snippet == f"Use orjson.loads on each line; {M}JSON{E} lines are one object a line."
    [tool] = lib.search("failed")
    assert (tool.tool, tool.is_error, tool.role, tool.kind) == ("Bash", True, "tool", "tool_output")
    [call] = lib.search("pytest", role="tool")
    assert tool.call_id and tool.call_id.startswith("toolu_") and call.call_id == tool.call_id
    assert hits[0].call_id is None
    first = hits[-1]
    assert (first.title, first.project, first.role) == ("How do I parse JSON lines in Python?", "/home/u/alpha", "user")
    assert first.message_uuid and first.timestamp == "2026-01-05T09:00:01.000Z"
    assert first.path == first.file and first.path.name == "old.jsonl"
    timestamps = [h.timestamp for h in hits]
    assert timestamps == sorted(timestamps, reverse=True)


@pytest.mark.parametrize("grown", [False, True])
def test_newest_first_across_sessions_whatever_order_they_were_read(tmp_path: Path, grown: bool) -> None:
    """A session written to last (read last, so its rows have the highest ids) holds old hits too:
    a hit newer than those, in a session read before it, must still come first."""
    folder = tmp_path / "projects" / encode("/home/u/alpha")
    long = Writer("long", start=0)  # a week-long session, still being written
    for i in range(30):
        long.prompt(f"look at the widget number {i}")
    recent = Writer("recent", start=5 * 86_400)  # ended yesterday
    recent.prompt("the widget is fixed")
    recent.write(folder, mtime=1_000_000)
    path = long.write(folder, mtime=2_000_000)  # modified last: read last
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    if grown:  # now it grows: the new rows, read later, are above every other
        long.clock = 6 * 86_400
        long.prompt("one more widget question")
        long.append(path, 30)
        lib.refresh()
    hits = lib.search("widget", limit=3)
    expected = ["long", "recent", "long"] if grown else ["recent", "long", "long"]
    assert [h.session_id for h in hits] == expected
    stamps = [h.timestamp for h in hits]
    assert stamps == sorted(stamps, reverse=True)
    assert len(lib.search("widget", limit=100)) == 31 + grown
    assert len(lib.search("widget", limit=10**20)) == 31 + grown  # more than SQLite's integers hold


@pytest.mark.parametrize(
    "filters",
    [{"query": "widget"}, {"query": "", "role": "user"}, {"query": "widget", "project": "alp", "since": "2026-01-08"}],
)
def test_a_history_read_in_an_order_unlike_its_times_holds_back_few_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filters: dict[str, Any]
) -> None:
    """Copied or restored, a history's files have mtimes unlike their times: the newest messages may be in the file
    read first, and every row read after them waits for its place in time. Past HELD_MAX of those, the rows are
    taken in order of time from each text database instead: the same hits, in the same order."""
    folders = [tmp_path / "projects" / encode(cwd) for cwd in ("/home/u/alpha", "/home/u/beta")]
    latest = Writer("latest", cwd="/home/u/alpha", start=20 * 86_400)  # read last, its hits given at once
    for n in range(3):
        latest.prompt(f"widget latest {n}")
    latest.write(folders[1], mtime=2_000_000)
    for i in range(12):  # then the oldest session written last
        w = Writer(f"s{i:02d}", cwd=f"/home/u/{'alpha' if i % 2 else 'beta'}", start=(12 - i) * 86_400)
        for n in range(4):
            w.prompt(f"widget {i} {n}")
            w.answer({"type": "text", "text": f"the widget {i} {n} works"})
        w.write(folders[i % 2], mtime=1_000_000 + i)
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    query = filters.pop("query")
    expected = [(h.session_id, h.timestamp, h.kind) for h in lib.search(query, limit=30, **filters)]
    timed = []
    monkeypatch.setattr(search, "HELD_MAX", 3)
    monkeypatch.setattr(search, "TIMED_PAGE", 4)  # several takes
    monkeypatch.setattr(search, "_timed_candidates", _spy(search._timed_candidates, timed))
    found = [(h.session_id, h.timestamp, h.kind) for h in lib.search(query, limit=30, **filters)]
    assert timed and found == expected
    stamps = [stamp for _, stamp, _ in found]
    assert len(found) == 30 and stamps == sorted(stamps, reverse=True)


@pytest.mark.parametrize("after", [0, 1, 3, 40])
def test_a_search_gives_up_when_its_stop_says_so(lib: Library, monkeypatch: pytest.MonkeyPatch, after: int) -> None:
    """At once, in SQLite's steps or between the rows taken: SearchStopped, and the index reads on as before."""
    monkeypatch.setattr(search, "STOP_STEPS", 1)
    monkeypatch.setattr(search, "STOP_ROWS", 1)
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > after

    with pytest.raises(search.SearchStopped):
        lib.search("json", stop=stop)
    assert len(asked) == after + 1
    assert {h.session_id for h in lib.search("json", stop=lambda: False)} == {"old", "new", "other"}


def _spy(fn: Callable[..., Any], calls: list[object]) -> Callable[..., Any]:
    def spied(*args: Any) -> Any:
        calls.append(args)
        return fn(*args)

    return spied


def test_all_words_must_match_and_phrases_must_be_adjacent(lib: Library) -> None:
    assert {h.session_id for h in lib.search("json lines")} == {"old", "new"}
    phrase = lib.search('"json lines"')
    assert [(h.session_id, h.kind) for h in phrase] == [("old", "answer"), ("old", "prompt")]
    assert f"{M}JSON lines{E}" in phrase[1].snippet  # the phrase marked, not each word where it appears
    assert lib.search('"lines json"') == []


def test_prefixes(lib: Library) -> None:
    assert {h.kind for h in lib.search("recover*")} == {"answer"}
    assert lib.search("recover") == []


def test_filters(lib: Library, zone: Callable[[str], None]) -> None:
    zone("UTC0")  # the days of --since and --until are local
    assert {h.role for h in lib.search("json", role="user")} == {"user"}
    assert {h.kind for h in lib.search("pytest", role="tool")} == {"tool_input"}
    assert {h.session_id for h in lib.search("json", project="beta")} == {"other"}
    assert {h.kind for h in lib.search("split", kind="thinking")} == {"thinking"}
    assert [h.tool for h in lib.search("pytest", tool="bash")] == ["Bash"]
    assert [h.kind for h in lib.search("failed", errors_only=True)] == ["tool_output"]
    assert lib.search("json", errors_only=True) == []
    assert {h.session_id for h in lib.search("json", since="2026-01-06")} == {"new"}
    assert {h.session_id for h in lib.search("json", until="2026-01-05")} == {"old", "other"}  # the whole day
    assert lib.search("json", since="2026-01-06", until="2026-01-06T00:30") == []
    assert len(lib.search("json", limit=2)) == 2
    with pytest.raises(ValueError, match="unknown role"):
        lib.search("json", role="robot")


def test_a_message_with_no_time_is_left_out_by_dates_and_comes_last(tmp_path: Path) -> None:
    """A timestamp missing, not a time or not a string: the message has no time (it was given the time of
    the record before it, so it passed --since and --until and sorted among dated hits)."""
    folder = tmp_path / "projects" / encode("/home/u/alpha")
    early = Writer("early", cwd="/home/u/alpha")
    early.prompt("timeword early")  # 09:00:01
    early.write(folder)
    late = Writer("late", cwd="/home/u/alpha", start=100)
    late.prompt("a dated prompt")  # 09:01:41
    late.prompt("timeword missing").pop("timestamp")
    late.prompt("timeword yesterday", timestamp="yesterday")
    late.prompt("timeword number", timestamp=1767603700)
    late.prompt("timeword late")  # 09:01:45
    late.write(folder)
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()

    def found(**filters: str) -> list[str]:
        return [unmark(h.snippet)[0] for h in lib.search("timeword", **filters)]

    undated = ["timeword number", "timeword yesterday", "timeword missing"]
    assert found() == ["timeword late", "timeword early", *undated]
    assert found(since="2026-01-05T09:01:00+00:00") == ["timeword late"]
    assert found(until="2026-01-05") == ["timeword late", "timeword early"]
    assert found(since="2026-01-05", until="2026-01-05T09:01:00+00:00") == ["timeword early"]
    assert [h.timestamp for h in lib.search("timeword", limit=3)][2:] == [None]


def test_parse_since() -> None:
    assert parse_since("2026-01-06T00:00:00+00:00") == 1767657600
    assert parse_since("3d") > parse_since("2w")
    with pytest.raises(ValueError, match="not a date"):
        parse_since("last tuesday")


def test_the_first_and_last_days_a_date_can_name_are_dates(
    lib: Library, zone: Callable[[str], None], capsys: pytest.CaptureFixture[str]
) -> None:
    """In local time, 0001-01-01 is before what a date can hold in zones east of UTC (and in UTC too, for
    Python), 9999-12-31T23:59 after it west of UTC: the conversion failed (exit 2, or a traceback)."""
    root = str(lib.roots[0])
    for name in ("UTC0", "JST-9", "EST5"):
        zone(name)
        assert parse_since("0001-01-01") < parse_until("0001-01-01") < parse_since("9999-12-31T23:59")
        assert (
            main(["search", "json", "--since", "0001-01-01", "--until", "9999-12-31T23:59", "--projects-dir", root])
            == 0
        )
        assert capsys.readouterr().out.count("  [prompt]\n") == 3
        assert main(["search", "json", "--until", "0001-01-01", "--projects-dir", root]) == 1


def test_snippet_window_and_marks() -> None:
    q = parse_query("needle")
    text = "hay " * 100 + "the Needle here " + "hay " * 100
    cut = snippet(text, q)
    assert cut.startswith("…") and cut.endswith("…") and f"{M}Needle{E}" in cut
    assert len(cut) < 200
    assert unmark(f"a {M}b{E} c {M}dd{E}") == ("a b c dd", [(2, 3), (6, 8)])


def test_a_hit_whose_file_changed_keeps_its_place(lib: Library, tmp_path: Path) -> None:
    path = tmp_path / "projects" / encode("/home/u/beta") / "other.jsonl"
    path.chmod(0o644)
    hits_before = lib.search("schemas")
    assert hits_before[0].snippet
    path.write_bytes(b"")  # emptied behind the index's back: the hit stays, without a snippet
    assert [h.snippet for h in lib.search("schemas")] == [""]


def test_a_hit_in_a_subagent_names_its_session_even_when_only_the_sessions_folder_is_left(tmp_path: Path) -> None:
    """The session's folder with its subagents' transcripts is the session (one with no file) once the file is gone."""
    folder = tmp_path / "projects" / encode("/home/u/alpha")
    main_session = Writer("main")
    main_session.prompt("delegate")
    path = main_session.write(folder)
    nested = Writer("main")
    nested.answer({"type": "text", "text": "the quokka is found"})
    nested.records[-1]["isSidechain"] = True
    agent = folder / "main" / "subagents" / "agent-abc.jsonl"
    agent.parent.mkdir(parents=True)
    agent.write_bytes(nested.lines())
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    [hit] = lib.search("quokka")
    assert (hit.path, hit.file) == (path, agent)
    path.unlink()
    lib.refresh()
    [hit] = lib.search("quokka")
    assert (hit.path, hit.file) == (path, agent)


def test_a_hit_in_the_second_of_two_records_on_one_line_is_that_record(tmp_path: Path) -> None:
    """Claude Code's known bug: two records written with no newline between them, both recovered."""
    folder = tmp_path / "projects" / encode("/home/u/alpha")
    glued = Writer("glued", cwd="/home/u/alpha")
    first, second = glued.prompt("alpha bravo"), glued.prompt("zulu yankee")
    third = glued.prompt("alpha yankee")
    folder.mkdir(parents=True)
    line = orjson.dumps(first) + orjson.dumps(second)  # no newline between them
    (folder / "glued.jsonl").write_bytes(line + b"\n" + orjson.dumps(third) + b"\n")
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()

    def found(query: str) -> list[tuple[str, str | None]]:
        return [(unmark(h.snippet)[0], h.message_uuid) for h in lib.search(query)]

    assert found("zulu") == found('"zulu yankee"') == [("zulu yankee", second["uuid"])]
    assert found("yankee") == [("alpha yankee", third["uuid"]), ("zulu yankee", second["uuid"])]
    assert found("alpha") == [("alpha yankee", third["uuid"]), ("alpha bravo", first["uuid"])]
    assert len(lib.search("", role="user")) == 3


# ---------------------------------------------------------------- commands


def test_index_command_prints_a_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "projects"
    simple_project(root, cwd="/home/u/a")
    simple_project(root, cwd="/home/u/b", sessions=3)
    assert main(["index", "--projects-dir", str(root)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 projects, 5 sessions, 0.0 MB in ") and out.endswith("(read 0.0 MB)\n")
    assert main(["index", "--projects-dir", str(root)]) == 0
    assert capsys.readouterr().out.endswith("(nothing new)\n")


def test_index_command_on_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", "--projects-dir", str(tmp_path / "none")]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("0 projects, 0 sessions")
    assert f"claude-tui: no projects folder at {tmp_path / 'none'}" in captured.err


def test_index_command_on_a_folder_one_level_off(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "home" / "projects" / encode("/home/u/alpha")
    Writer("s1", cwd="/home/u/alpha").write(project)
    for given, meant in ((tmp_path / "home", project.parent), (project, project.parent)):
        assert main(["index", "--projects-dir", str(given)]) == 0
        captured = capsys.readouterr()
        assert captured.out.startswith("0 projects, 0 sessions")
        assert f"try --projects-dir {meant}\n" in captured.err
    assert main(["index", "--projects-dir", str(project.parent)]) == 0
    assert "try --projects-dir" not in capsys.readouterr().err


def test_index_command_fails_when_nothing_can_be_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "projects"
    simple_project(root, cwd="/home/u/a")
    simple_project(root, cwd="/home/u/b")
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("CLAUDE_TUI_CACHE_DIR", str(tmp_path / "file" / "cache"))
    assert main(["index", "--projects-dir", str(root)]) == 2
    captured = capsys.readouterr()
    assert "working from memory" in captured.err
    # what was read, and that it was not saved: not the summary of an index kept for next time
    assert captured.out.startswith("2 projects, 4 sessions, 0.0 MB read in ")
    assert captured.out.endswith(" s, not saved: the index could not be written\n")


def test_an_index_interrupted_says_what_it_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C: "indexed so far" only when there is an index to keep it; one project is not "1 projects"."""
    root = tmp_path / "projects"
    simple_project(root, cwd="/home/u/a")
    assert main(["index", "--projects-dir", str(root)]) == 0
    monkeypatch.setattr(library_cli, "update_index", lambda index, roots: _raise(KeyboardInterrupt()))
    assert main(["index", "--projects-dir", str(root)]) == 130
    assert capsys.readouterr().out.endswith("interrupted: 1 project, 2 sessions, 0.0 MB indexed so far\n")
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("CLAUDE_TUI_CACHE_DIR", str(tmp_path / "file" / "cache"))
    assert main(["index", "--projects-dir", str(root)]) == 130
    out = capsys.readouterr().out
    assert out == "interrupted: 0 projects, 0 sessions, 0.0 MB read so far, not saved: the index could not be written\n"


def _raise(exc: BaseException) -> None:
    raise exc


def _deny(monkeypatch: pytest.MonkeyPatch, denied: list[str]) -> None:
    """Opening a path in `denied` fails as it does without read permission (chmod 000 stops no root).
    Emptying the list gives the permission back."""
    opened = jobs.open_readonly

    def open_readonly(path: str) -> int:
        if path in denied:
            raise ReadError("permission denied")
        return opened(path)

    monkeypatch.setattr(jobs, "open_readonly", open_readonly)


def test_index_and_search_say_which_files_could_not_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One line for them all, each time (the index keeps the error), and the exit status unchanged."""
    root = tmp_path / "projects"
    paths = simple_project(root, sessions=4)
    denied = sorted(str(p) for p in paths[1:])
    _deny(monkeypatch, denied)
    said = f"claude-tui: 3 session files could not be read: {denied[0]} (permission denied), …\n"
    for _ in range(2):  # reading them, then with nothing new to read
        assert main(["index", "--projects-dir", str(root)]) == 0
        assert capsys.readouterr().err == said
    assert main(["search", "parser", "--projects-dir", str(root)]) == 0
    assert capsys.readouterr().err == said
    assert main(["search", "nowhere", "--projects-dir", str(root)]) == 1
    assert capsys.readouterr().err == said + "no matches\n"


def test_a_file_that_becomes_readable_is_read_though_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """chmod +r does not change a file's mtime: each update tries the unreadable files again."""
    root = tmp_path / "projects"
    paths = simple_project(root, sessions=2)
    denied = [str(paths[1])]
    _deny(monkeypatch, denied)

    def sessions_found() -> set[str]:
        assert main(["search", "parser", "--json", "--projects-dir", str(root)]) == 0
        return {orjson.loads(line)["path"] for line in capsys.readouterr().out.splitlines()}

    assert sessions_found() == {str(paths[0])}
    assert sessions_found() == {str(paths[0])}  # tried again, in vain
    denied.clear()
    assert sessions_found() == {str(p) for p in paths}
    assert main(["index", "--projects-dir", str(root)]) == 0
    assert capsys.readouterr().err == ""  # no more "could not be read"


def test_a_folder_given_twice_is_one_root(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "projects"
    simple_project(root, sessions=2)
    (tmp_path / "link").symlink_to(root)
    assert main(["index", "--projects-dir", str(root), "--projects-dir", str(tmp_path / "link")]) == 0
    assert capsys.readouterr().out.startswith("1 project, 2 sessions")


def test_search_command_json(lib: Library, capsys: pytest.CaptureFixture[str]) -> None:
    root = str(lib.roots[0])
    assert main(["search", "two", "objects", "--projects-dir", root, "--json", "--limit", "1"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    hit = orjson.loads(line)
    assert {"session_id", "path", "project", "message_uuid", "role", "kind", "timestamp", "snippet"} <= set(hit)
    assert hit["session_id"] == "new" and hit["path"].endswith("new.jsonl") and hit["kind"] == "tool_output"
    start, end = hit["matches"][0]
    assert hit["snippet"][start:end].lower() == "two"


def test_search_command_text(lib: Library, capsys: pytest.CaptureFixture[str]) -> None:
    root = str(lib.roots[0])
    assert main(["search", "schemas", "--projects-dir", root, "--role", "user"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("beta  Unrelated question about JSON schemas  [prompt]")
    assert out[1] == "    Unrelated question about JSON schemas"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["((("], "nothing to search for"),
        (["x", "--since", "someday"], "not a date"),
        (["x", "--limit", "0"], "--limit must be at least 1"),
        (["*"], "nothing to search for"),
        (["x", "--since", "yesterday"], "not a date"),
        (["x", "--since", "99999999999999999999d"], "not a date"),
        (["x", "--until", "99999999999999999999y"], "not a date"),
    ],
)
def test_search_command_errors(lib: Library, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    """An error exits 2, as grep's do: 1 is for no matches."""
    assert main(["search", *args, "--projects-dir", str(lib.roots[0])]) == 2
    err = capsys.readouterr().err
    assert err.startswith("claude-tui: ") and message in err and err.count("\n") == 1


@pytest.mark.parametrize("option", ["--since", "--until"])
def test_an_empty_date_is_an_error(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Not a search without that filter: an empty variable in a script (--since "$FROM") is a mistake."""
    with pytest.raises(SystemExit) as exc:
        main(["search", "x", option, " "])
    assert exc.value.code == 2
    assert f"argument {option}: an empty date" in capsys.readouterr().err


def test_search_command_without_hits(lib: Library, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "zzzyzzx", "--projects-dir", str(lib.roots[0])]) == 1
    assert capsys.readouterr().err == "no matches\n"


def test_search_command_on_a_missing_folder_finds_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing projects folder is an empty library, said so: no matches, not an error."""
    assert main(["search", "x", "--projects-dir", str(tmp_path / "none")]) == 1
    assert capsys.readouterr().err == f"claude-tui: no projects folder at {tmp_path / 'none'}\nno matches\n"


def test_the_projects_folder_before_the_command_is_kept_with_words_after_dashes(
    lib: Library, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--projects-dir", str(lib.roots[0]), "search", "--json", "--", "two", "objects"]) == 0
    assert [orjson.loads(line)["session_id"] for line in capsys.readouterr().out.splitlines()] == ["new", "new"]


def test_search_over_the_real_corpus(real_projects: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "worktree", "--projects-dir", str(real_projects), "--json", "--limit", "20"]) == 0
    hits = [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(hits) == 20
    assert all("worktree" in h["snippet"].lower() for h in hits)
    stamps = [h["timestamp"] for h in hits]
    assert stamps == sorted(stamps, reverse=True)
    assert main(["search", '"git worktree"', "--projects-dir", str(real_projects), "--json"]) == 0
    phrase = [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert phrase and all("git worktree" in " ".join(h["snippet"].lower().split()) for h in phrase)


def test_words_in_coloured_output_and_bidi_marks_are_found(tmp_path: Path) -> None:
    """A terminal shows "\x1b[31mFAILED" as the word FAILED, and so does the index (it kept "31mFAILED")."""
    w = Writer("colour", cwd="/home/u/colour")
    w.tool("Bash", {"command": "pytest"}, "\x1b[1m\x1b[31mFAILED\x1b[0m tests/test_parser.py::test_zebra", True)
    w.prompt("an \u2067isolated\u2069 word, a \x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\ and \x9b1mC1\x9b0m")
    root = tmp_path / "projects"
    w.write(root / "colour")
    lib = Library([root], tmp_path / "cache")
    lib.refresh()
    assert [h.snippet for h in lib.search("FAILED")] == [f"{M}FAILED{E} tests/test_parser.py::test_zebra"]
    assert [h.snippet for h in lib.search("isolated link C1")] == [f"an {M}isolated{E} word, a {M}link{E} and {M}C1{E}"]


def test_terminal_escapes_never_reach_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    w = Writer("evil", cwd="/home/u/\x1b[31mred")
    w.prompt("clipboard \x1b]52;c;aGk=\x07 needle \x9b2J and \x02fake marks\x03")
    w.meta("custom-title", customTitle="\x1b]0;retitled\x07 title")
    root = tmp_path / "projects"
    w.write(root / "evil")
    assert main(["search", "needle", "--projects-dir", str(root)]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x9b\x02\x03")
    assert "␛]0;retitled␇ title" in out  # the title as it is; the snippet as a terminal would show the words
    assert "clipboard needle and ␂fake marks␃" in out
    assert main(["search", "needle", "--projects-dir", str(root), "--json"]) == 0
    raw = capsys.readouterr().out
    assert not any(c in raw for c in "\x1b\x07\x9b")
    assert orjson.loads(raw)["title"] == "\x1b]0;retitled\x07 title"


class Terminal(io.StringIO):
    """Standard output or error as a terminal."""

    def isatty(self) -> bool:
        return True


def test_progress_bar_shows_files_megabytes_and_eta(monkeypatch: pytest.MonkeyPatch) -> None:
    from claude_tui.cli.library import ProgressBar
    from claude_tui.core.index.jobs import Progress

    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLUMNS", "100")
    stream = Terminal()
    bar = ProgressBar(stream)
    progress = Progress(files_done=3, files_total=10, bytes_done=50_000_000, bytes_total=200_000_000)
    progress.started -= 2.0  # two seconds for a quarter: six to go
    bar(progress)
    line = stream.getvalue()
    assert line.startswith("\rindexing [######..................] 3/10 files  50/200 MB  ETA 6s")
    bar.clear()
    assert stream.getvalue().endswith("\r\x1b[K")
    quiet = io.StringIO()
    ProgressBar(quiet)(progress)
    assert quiet.getvalue() == ""  # not a terminal: no bar
    waiting = Progress(waiting=True)
    waiting.started -= 3.0
    bar(waiting)
    told = "\rwaiting 3s for another process to finish writing the index (ctrl+c stops)\x1b[K"
    assert stream.getvalue().endswith(told)
    monkeypatch.setenv("COLUMNS", "40")
    narrow = Terminal()
    ProgressBar(narrow)(progress)  # a line as wide as the terminal wraps, and the next draws below it
    assert narrow.getvalue() == "\rindexing [######..................] 3/1\x1b[K"
    monkeypatch.setenv("TERM", "dumb")
    dumb = Terminal()
    ProgressBar(dumb)(progress)
    assert dumb.getvalue() == ""  # a terminal that takes no escapes: no bar


@pytest.mark.parametrize(("term", "colored"), [("xterm", True), ("dumb", False)])
def test_search_colours_a_terminal_that_takes_escapes(
    lib: Library, monkeypatch: pytest.MonkeyPatch, term: str, colored: bool
) -> None:
    monkeypatch.setenv("TERM", term)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr("sys.stdout", Terminal())
    assert main(["search", "schemas", "--projects-dir", str(lib.roots[0])]) == 0
    out = sys.stdout.getvalue()
    assert "Unrelated question about JSON" in out and ("\x1b[" in out) == colored


def test_search_text_marks_a_shortened_title(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long = "Please refactor the timeline filtering so that groups hide as a whole instead of item by item, keeping rows"
    w = Writer("long", cwd="/home/u/gamma")
    w.prompt(long)
    root = tmp_path / "projects"
    w.write(root / encode("/home/u/gamma"))
    assert main(["search", "timeline", "--projects-dir", str(root)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert f"  gamma  {long[:79]}…  [prompt]" in first


def test_help_texts_name_every_option_and_default(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("search", "export"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert '"quoted words" as a phrase, word* as a prefix' in out
    assert "the document's format (default: from FILE's name, .html or .json, else markdown)" in out


def test_search_command_filters_as_the_app_does(
    lib: Library, capsys: pytest.CaptureFixture[str], zone: Callable[[str], None]
) -> None:
    zone("UTC0")  # the days of --until are local
    root = str(lib.roots[0])

    def found(*args: str) -> list[tuple[str, str]]:
        main(["search", *args, "--projects-dir", root, "--json"])
        return [(h["session_id"], h["kind"]) for h in map(orjson.loads, capsys.readouterr().out.splitlines())]

    assert found("pytest", "--tool", "bash") == [("new", "tool_input")]
    assert found("pytest", "--tool", "Edit") == []
    assert found("failed", "--errors") == [("new", "tool_output")]
    assert found("json", "--until", "2026-01-05") == [("other", "prompt"), ("old", "answer"), ("old", "prompt")]
    # no word: every message the filters let through, newest first
    assert found("--errors") == [("new", "tool_output")]
    assert found("--tool", "bash") == [("new", "tool_output"), ("new", "tool_input")]
    assert found("--role", "user", "--project", "alpha") == [("new", "prompt"), ("old", "prompt")]


def test_a_search_by_filters_alone_shows_each_message_from_its_start(
    lib: Library, capsys: pytest.CaptureFixture[str]
) -> None:
    [hit] = lib.search("", errors_only=True)
    assert hit.snippet == "FAILED test_two_objects - JSONDecodeError" and hit.is_error
    assert main(["search", "--errors", "--projects-dir", str(lib.roots[0])]) == 0
    assert "FAILED test_two_objects - JSONDecodeError" in capsys.readouterr().out
    assert main(["search", "--projects-dir", str(lib.roots[0])]) == 2  # neither words nor a filter
    assert "nothing to search for" in capsys.readouterr().err


def test_words_of_scripts_written_without_spaces_are_found(tmp_path: Path) -> None:
    """Japanese and Chinese have no spaces between words: any run of their characters is found, as written."""
    folder = tmp_path / "projects" / encode("/home/u/jp")
    w = Writer("jp", cwd="/home/u/jp")
    w.prompt("オーケストレーターを最新の状態にアップデートしてください")
    w.answer({"type": "text", "text": "已更新到最新状态。API状態も確認しました"})
    w.prompt("状 と 態 は別々")  # both characters, not side by side
    w.write(folder)
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    assert [h.kind for h in lib.search("状態")] == ["answer", "prompt"]
    assert [h.kind for h in lib.search("アップデート")] == ["prompt"]
    assert [h.kind for h in lib.search("最新")] == ["answer", "prompt"]
    assert [h.kind for h in lib.search("api状態")] == ["answer"]
    assert [h.kind for h in lib.search("アップデート 最新")] == ["prompt"]
    assert lib.search("状態です") == []
    [hit] = lib.search("アップデート")
    assert f"{M}アップデート{E}" in hit.snippet


def test_a_word_with_symbols_is_found_as_typed(tmp_path: Path) -> None:
    """The index keeps letters and digits only: C++ is "c" there, but a search for it must not find every c."""
    folder = tmp_path / "projects" / encode("/home/u/sym")
    w = Writer("sym", cwd="/home/u/sym")
    for said in ("C++ templates", "a c library", "with -Wall", "the wall", "see #123.", "page 123", "in __init__"):
        w.prompt(said)
    w.write(folder)
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    found = {q: [h.snippet for h in lib.search(q)] for q in ("c++", "-Wall", "#123", "(__init__)", "two -json")}
    assert found == {
        "c++": [f"{M}C++{E} templates"],
        "-Wall": [f"with {M}-Wall{E}"],
        "#123": [f"see {M}#123{E}."],
        "(__init__)": [f"in {M}__init__{E}"],
        "two -json": [],
    }
    assert len(lib.search("wall")) == 2 and len(lib.search("c")) == 2


def test_a_slash_command_is_found_as_it_was_run(tmp_path: Path) -> None:
    """Its words, not Claude Code's wrapper tags: "command" is in every command's tags."""
    folder = tmp_path / "projects" / encode("/home/u/cmd")
    w = Writer("cmd", cwd="/home/u/cmd")
    w.prompt("<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n"
             "<command-args>the parser</command-args>")  # fmt: skip
    w.answer("Reviewed.")
    w.write(folder)
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    [hit] = lib.search("parser")
    assert (hit.kind, hit.snippet) == ("prompt", f"/review the {M}parser{E}")
    assert lib.search("command") == lib.search("running") == []


def test_what_a_command_printed_is_found_as_its_output(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / encode("/home/u/sh")
    w = Writer("sh", cwd="/home/u/sh")
    w.prompt("<bash-input>uv run pytest</bash-input>")
    printed = w.prompt(
        "<bash-stdout>FAILED test_display_name - \x1b[31mAssertionError\x1b[0m</bash-stdout><bash-stderr></bash-stderr>"
    )
    w.prompt("<command-name>/plugin</command-name>\n<command-args>marketplace add x</command-args>")
    said = w.prompt("<local-command-stdout>Successfully added marketplace: impeccable</local-command-stdout>")
    w.write(folder)
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    [hit] = lib.search("test_display_name assertionerror", role="tool")
    assert (hit.kind, hit.message_uuid) == ("command_output", printed["uuid"])
    assert hit.snippet == f"FAILED {M}test_display_name{E} - {M}AssertionError{E}"
    assert [h.message_uuid for h in lib.search("impeccable")] == [said["uuid"]]
    assert lib.search("stdout") == []  # the tags are not words of it


def test_a_prompt_queued_while_claude_worked_is_found_as_a_prompt(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / encode("/home/u/q")
    w = Writer("q", cwd="/home/u/q")
    w.prompt("first")
    attachment = {"type": "queued_command", "prompt": "is it a wrapper aroundf the ftp data?", "commandMode": "prompt"}
    queued = w._rec("attachment", attachment=attachment)
    w.answer({"type": "text", "text": "Good instinct"})
    w.write(folder)
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    [hit] = lib.search("aroundf")
    assert (hit.kind, hit.role, hit.message_uuid) == ("prompt", "user", queued["uuid"])
    assert f"wrapper {M}aroundf{E} the ftp" in hit.snippet


def test_a_compaction_summary_is_found_as_claudes(tmp_path: Path) -> None:
    """The summary that carries a conversation on after a compaction holds what was done before it."""
    folder = tmp_path / "projects" / encode("/home/u/cmp")
    w = Writer("cmp", cwd="/home/u/cmp")
    w.prompt("This session is being continued. Summary: the tokenizer was rewritten.", isCompactSummary=True)
    w.prompt("go on")
    w.write(folder)
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    [hit] = lib.search("tokenizer")
    assert (hit.kind, hit.role, hit.message_uuid) == ("summary", "assistant", w.records[0]["uuid"])
    assert f"{M}tokenizer{E}" in hit.snippet
    assert lib.search("tokenizer", role="user") == []


def test_a_recap_is_found_as_claudes_and_read_without_claude_codes_hint(tmp_path: Path) -> None:
    """Claude Code 2.1's "while you were away" recap (a system record, `away_summary`) says where the work stands:
    it is found and shown as Claude's words, without the hint on turning recaps off that ends it."""
    folder = tmp_path / "projects" / encode("/home/u/away")
    w = Writer("away", cwd="/home/u/away")
    w.prompt("merge the branches")
    recap = "Merged alice and bob into master. Next: an octopus merge of round 2. (disable recaps in /config)"
    w._rec("system", subtype="away_summary", content=recap, level="info")
    w._rec("system", subtype="away_summary", content="", level="info")  # nothing said: a dim row, no hit
    w.write(folder)
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    [hit] = lib.search("octopus")
    assert (hit.kind, hit.role, hit.message_uuid) == ("recap", "assistant", w.records[1]["uuid"])
    assert hit.snippet.endswith(f"an {M}octopus{E} merge of round 2.")
    assert lib.search("octopus", role="user") == lib.search("disable recaps") == []
    kinds = [(m.kind, m.plain_text) for m in read_session(folder / "away.jsonl").messages[1:]]
    assert kinds == [(Kind.RECAP, recap.removesuffix(" (disable recaps in /config)")), (Kind.SYSTEM, "away_summary")]


def test_api_errors_are_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An API error record's message, however deep in it, as the conversation shows it; compaction
    boundaries (level info or not) are not errors."""
    folder = tmp_path / "projects" / encode("/home/u/api")
    w = Writer("api", cwd="/home/u/api")
    w.prompt("summarise the logs")
    w._rec("system", subtype="api_error", level="error", error={"status": 529, "message": "Overloaded"})
    nested = {"status": 400, "error": {"type": "error", "error": {"type": "invalid", "message": "prompt is too long"}}}
    w._rec("system", subtype="api_error", level="error", error=nested)
    w._rec("system", subtype="compact_boundary", level="error", content="Conversation compacted")
    limit = "You've hit your weekly limit · resets Jul 27"  # Claude Code's own assistant message
    content = [{"type": "text", "text": limit}]
    message = {"id": "msg_limit", "model": "<synthetic>", "role": "assistant", "content": content}
    w._rec("assistant", isApiErrorMessage=True, message=message)
    w.write(folder)
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    [hit] = lib.search("overloaded")
    assert (hit.kind, hit.role, hit.snippet, hit.is_error) == ("api_error", "assistant", f"{M}Overloaded{E}", True)
    assert lib.search("overloaded", errors_only=True) == [hit]
    [hit] = lib.search("too long", role="assistant")
    assert hit.message_uuid == w.records[2]["uuid"]
    assert lib.search("too long", role="tool") == lib.search("compacted") == []
    [hit] = lib.search("weekly", errors_only=True)
    assert (hit.kind, hit.snippet) == ("api_error", f"You've hit your {M}weekly{E} limit · resets Jul 27")
    session = read_session(folder / "api.jsonl")
    errors = [m.plain_text for m in session.messages if m.kind is Kind.API_ERROR]
    assert errors == ["Overloaded", "prompt is too long", limit]
    assert main(["search", "overloaded", "--projects-dir", str(tmp_path / "projects")]) == 0
    out = capsys.readouterr().out
    assert "api error" in out and "error error" not in out


@pytest.mark.parametrize(
    ("query", "text", "marked"),
    [
        ("claude_code_l*", "see claude_code_log here", f"see {M}claude_code_log{E} here"),  # a split word's prefix
        ("renderer.p*", "in renderer.py line 3", f"in {M}renderer.py{E} line 3"),
        ('"nomes per"', "això és només per a tu", f"això és {M}només per{E} a tu"),  # diacritics, as the index
        ("cafe", "un café noir", f"un {M}café{E} noir"),
        ("café", "un cafe noir", f"un {M}cafe{E} noir"),
        ("README", "请在readme里写", f"请在{M}readme{E}里写"),  # a CJK neighbour is a word's edge
        ('"huggingface 数据集"', "上传到huggingface数据集", f"上传到{M}huggingface数据集{E}"),
    ],
)
def test_what_the_index_finds_the_check_accepts_and_the_snippet_marks(query: str, text: str, marked: str) -> None:
    q = parse_query(query)
    assert q.accepts(text)
    assert snippet(text, q) == marked


@pytest.mark.parametrize("query", ["cafe", "claude_code_l*", '"nomes per"', "log*", '"per a"'])
def test_the_patterns_for_texts_without_cjk_match_as_the_full_ones(query: str) -> None:
    """The patterns without CJK ranges (quick to compile) are used for texts with no CJK character."""
    q = parse_query(query)
    texts = [unaccented(t) for t in ["see claude_code_log here", "això és només per a tu", "café_noir", "logs, log_2"]]

    def found(cjk: bool) -> list[list[str]]:
        phrases, marker = q.patterns(cjk)
        return [[m for p in [*phrases, marker] for m in p.findall(t)] for t in texts]

    assert found(False) == found(True)
    assert any(found(False))


def test_a_search_that_rejects_too_many_candidates_stops_and_says_so(
    lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the newest hits are kept: rows come in order of time."""
    monkeypatch.setattr("claude_tui.core.search.MAX_REJECTED", 2)
    hits = lib.search('"json objects"')  # one candidate ("new"), accepted
    assert len(hits) == 1 and not hits.cut_short
    hits = lib.search('"lines json"')  # three candidates, none accepted
    assert hits == [] and hits.cut_short
    hits = lib.search("json")
    assert len(hits) == 4 and not hits.cut_short
    monkeypatch.setenv("CLAUDE_TUI_CACHE_DIR", str(tmp_path / "cli-cache"))
    assert main(["search", '"lines json"', "--projects-dir", str(tmp_path / "projects")]) == 1
    assert CUT_SHORT in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["-foo"], ["bar", "-foo"], ["-foo", "--limit", "3"]])
def test_a_query_word_taken_for_an_option_gets_a_hint(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["search", *argv])
    assert exc.value.code == 2
    hint = "claude-tui: to search for -foo, end the options with --: claude-tui search [OPTIONS] -- -foo"
    assert capsys.readouterr().err.splitlines()[-1] == hint


@pytest.mark.parametrize("option", ["--project", "--since", "--tool"])
def test_an_option_value_that_starts_with_a_dash_gets_its_own_hint(
    option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hint said to end the options with --, which searched for the value instead."""
    with pytest.raises(SystemExit) as exc:
        main(["search", option, "-home-u-proj", "word"])
    assert exc.value.code == 2
    hint = f"claude-tui: to give {option} a value that starts with -, join them with =: {option}=-home-u-proj"
    assert capsys.readouterr().err.splitlines()[-1] == hint


@pytest.mark.parametrize("argv", [["search", "-Wall", "x"], ["index", "extra"], ["stats", "--jsno", "x"]])
def test_a_mistake_after_a_subcommand_shows_its_usage(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert capsys.readouterr().err.startswith(f"usage: claude-tui {argv[0]} [-h] ")


def test_an_unknown_long_option_gets_no_hint(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["search", "foo", "--limti", "3"])
    assert "end the options with --" not in capsys.readouterr().err
