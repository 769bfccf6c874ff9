"""The command line as scripts use it: stats, errors as one line, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from claude_tui.cli import main
from claude_tui.core import files, forked
from tests.core.usage_count import counts_of, objects, requests, tokens
from tests.jsonl import Thread, text
from tests.library_data import Writer


def run(
    *args: str | bytes, cwd: Path | None = None, env: dict[str, str] | None = None, closed: int | None = None
) -> subprocess.CompletedProcess[str]:
    """`claude-tui ARGS`, its output captured; `env` added to the environment, descriptor `closed` closed."""
    return subprocess.run(
        [sys.executable, "-m", "claude_tui", *args],
        capture_output=True,
        text=True,
        errors="backslashreplace",  # what is not UTF-8 (a narrow encoding's output) shown, not a failure
        cwd=cwd,
        env={**os.environ, **env} if env else None,
        preexec_fn=None if closed is None else lambda: os.close(closed),
    )


def make_home(tmp_path: Path) -> Path:
    projects = tmp_path / "projects"
    t = Thread(session_id="0f1e2d3c-0000-4000-8000-000000000001")
    t.prompt("make the parser tolerant")
    t.answer(text("Done."), msg_id="m1")
    t.write(projects / "-home-u-proj" / "0f1e2d3c-0000-4000-8000-000000000001.jsonl")
    t2 = Thread(session_id="0f1e2d3c-0000-4000-8000-000000000002")
    t2.prompt("second")
    t2.write(projects / "-home-u-proj" / "0f1e2d3c-0000-4000-8000-000000000002.jsonl")
    return projects


def test_stats_json_by_id_prefix(tmp_path: Path) -> None:
    projects = make_home(tmp_path)
    out = run("stats", "0f1e2d3c-0000-4000-8000-000000000001", "--json", "--projects-dir", str(projects))
    assert out.returncode == 0, out.stderr
    facts = orjson.loads(out.stdout)
    assert facts["title"] == "make the parser tolerant"
    assert facts["project"] == "/home/u/proj"
    assert (facts["user_prompts"], facts["assistant_messages"]) == (1, 1)


def test_usage_as_a_process_ends_with_its_whole_report_out_and_its_usage_kept(tmp_path: Path) -> None:
    """`usage` ends its own process once its output is out (no freeing of a history's sums one by one): the report is
    whole, and what it keeps for the next run is written."""
    projects, cache = make_home(tmp_path), tmp_path / "cache"
    env = {"CLAUDE_TUI_CACHE_DIR": str(cache), "PYTHONUNBUFFERED": ""}  # its output buffered, as into any pipe
    out = run("usage", "daily", "--projects-dir", str(projects), env=env)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("Date") and lines[-1].startswith("Total") and len(lines) == 4  # a day, a rule, total
    assert [p.name for p in cache.rglob("usage.json")] == ["usage.json"]
    again = run("usage", "daily", "--json", "--projects-dir", str(projects), env=env)  # from what was kept
    assert again.returncode == 0, again.stderr
    (day,) = [orjson.loads(line) for line in again.stdout.splitlines()]
    assert (day["period"], day["messages"]) == (lines[1].split()[0], 1)


def test_a_session_file_whose_name_is_not_utf8(tmp_path: Path) -> None:
    """Its stats as JSON (U+FFFD for the bytes), and a search of the others that says it left it out
    (the index cannot hold its name: search raised)."""
    projects = make_home(tmp_path)
    odd = projects / "-home-u-proj" / os.fsdecode(b"odd-\xff.jsonl")
    t = Thread(session_id="odd")
    t.prompt("make the parser tolerant of odd names")
    t.write(odd)
    env = {"CLAUDE_TUI_CACHE_DIR": str(tmp_path / "cache")}
    out = run("stats", "--json", str(odd), env=env)
    assert out.returncode == 0, out.stderr
    facts = orjson.loads(out.stdout)
    assert facts["path"].endswith("odd-\ufffd.jsonl") and facts["title"] == "make the parser tolerant of odd names"
    out = run("search", "tolerant", "--json", "--projects-dir", str(projects), env=env)
    assert out.returncode == 0, out.stderr
    assert [orjson.loads(line)["session_id"] for line in out.stdout.splitlines()] == [
        "0f1e2d3c-0000-4000-8000-000000000001"
    ]
    assert "files whose names are not UTF-8 are left out of the index: 1" in out.stderr
    assert "odd-\\xff.jsonl" in out.stderr


def test_a_subagent_transcript_by_the_id_search_gives_it(tmp_path: Path) -> None:
    """Search names a subagent's transcript whose session file is gone by its own name: stats and
    export take that name too, flat (2.0.x) or under its session's folder (2.1.x)."""
    projects = make_home(tmp_path)
    for where in ("agent-1a2b3c4d.jsonl", "gone-session/subagents/agent-5e6f7a8b.jsonl"):
        t = Thread(session_id="gone-session")
        t.prompt("look at the lexer")
        t.answer(text("It is fine."), msg_id="m1")
        t.write(projects / "-home-u-proj" / where)
    for name in ("agent-1a2b3c4d", "agent-5e6f"):
        out = run("stats", name, "--json", "--projects-dir", str(projects))
        assert out.returncode == 0, out.stderr
        assert orjson.loads(out.stdout)["title"] == "look at the lexer"
    out = run("stats", "agent-", "--projects-dir", str(projects))
    assert out.returncode == 2 and "ambiguous: 2 sessions match (agent-1a2b3c4d, agent-5e6f7a8b)" in out.stderr


def test_the_projects_folder_may_come_before_the_subcommand(tmp_path: Path) -> None:
    projects = make_home(tmp_path)
    for before in (["--projects-dir", str(projects)], [f"--projects-dir={projects}"]):
        out = run(*before, "stats", "0f1e2d3c-0000-4000-8000-000000000001", "--json")
        assert out.returncode == 0, out.stderr
        assert orjson.loads(out.stdout)["title"] == "make the parser tolerant"


def test_a_session_path_that_starts_with_a_dash_is_not_taken_for_an_option(tmp_path: Path) -> None:
    """Every project folder's name starts with -: run in the projects folder, `stats -home-u-proj/ID.jsonl`
    printed the help (-h), and `stats -Users-…/ID.jsonl` said that SESSION was missing."""
    projects = make_home(tmp_path)
    home = "-home-u-proj/0f1e2d3c-0000-4000-8000-000000000001.jsonl"
    (projects / "-Users-u-app").symlink_to(projects / "-home-u-proj")
    users = home.replace("-home-u-proj", "-Users-u-app")
    for path in (home, users):
        for given in ([path], ["--", path]):
            out = run("stats", "--projects-dir", ".", "--json", *given, cwd=projects)
            assert out.returncode == 0, out.stderr
            assert orjson.loads(out.stdout)["title"] == "make the parser tolerant"
        out = run("export", path, "--projects-dir", ".", cwd=projects)
        assert out.returncode == 0 and "make the parser tolerant" in out.stdout, out.stderr
        out = run("--projects-dir", ".", path, cwd=projects)  # the app parsed it: it needs a terminal
        assert out.returncode == 2 and "the app needs a terminal" in out.stderr, out.stderr
    for missing in ("-Users-u-app/missing.jsonl", "-home-u-proj/missing.jsonl"):  # not argparse's -h, nor a hint
        out = run("stats", missing, cwd=projects)
        assert out.returncode == 2 and out.stderr == f"claude-tui: no such file: ./{missing}\n", out.stderr


def test_stats_human_output_for_several(tmp_path: Path) -> None:
    projects = make_home(tmp_path)
    files = sorted(str(p) for p in projects.rglob("*.jsonl"))
    out = run("stats", *files)
    assert out.returncode == 0, out.stderr
    assert "make the parser tolerant" in out.stdout and "second" in out.stdout
    assert "1 prompt, 1 answer" in out.stdout


def test_stats_of_several_sessions_reads_their_folder_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The other session files of a folder are read for the summaries that title a session (written into a
    later session's file): they were read again for each session asked for, and `stats` of a folder's 828
    sessions read its 578 MB 828 times (6 minutes)."""
    folder = tmp_path / "projects" / "-home-u-proj"
    writers = [Writer(f"s{i}", start=100 * i) for i in range(4)]
    for i, w in enumerate(writers):
        w.prompt(f"prompt {i}")
        w.answer()
        if i == 0:  # at the top of a later session's file, where Claude Code writes it
            writers[3].meta("summary", summary="Summary of s0", leafUuid=w.last)
    paths = [w.write(folder) for w in writers]
    opened: Counter[str] = Counter()
    open_readonly = files.open_readonly

    def counted(path: str | os.PathLike[str]) -> int:
        opened[Path(path).name] += 1
        return open_readonly(path)

    monkeypatch.setattr(files, "open_readonly", counted)
    monkeypatch.setattr(forked, "can_fork", lambda: False)  # the scan in this process, where it is counted
    assert main(["stats", "--json", *map(str, paths)]) == 0
    titles = [orjson.loads(line)["title"] for line in capsys.readouterr().out.splitlines()]
    assert titles == ["Summary of s0", "prompt 1", "prompt 2", "prompt 3"]
    assert {name: n for name, n in opened.items() if name.endswith(".jsonl")} == {p.name: 1 for p in paths}


def test_stats_goes_on_after_a_session_it_cannot_find(tmp_path: Path) -> None:
    projects = make_home(tmp_path)
    first, second = (f"0f1e2d3c-0000-4000-8000-00000000000{i}" for i in (1, 2))
    out = run("stats", first, "zzzz", second, "--json", "--projects-dir", str(projects))
    assert out.returncode == 2 and out.stderr.count("no session matches 'zzzz'") == 1
    assert [orjson.loads(line)["session_id"] for line in out.stdout.splitlines()] == [first, second]


def test_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    projects = make_home(tmp_path)
    (tmp_path / "dir.jsonl").mkdir()
    cases = [
        (("stats", "nothing-like-this", "--projects-dir", str(projects)), "no session matches"),
        (("stats", "0f1e2d3c", "--projects-dir", str(projects)), "ambiguous"),
        (("stats", str(tmp_path / "missing.jsonl")), "no such file"),
        (("stats", str(tmp_path / "dir.jsonl")), "a directory"),
        (("export", "0f1e2d3c", "--projects-dir", str(projects)), "ambiguous"),
        (("stats", "0f1e2d3c", "--projects-dir", str(tmp_path / "nowhere")), "no projects folder at"),
        (("serch", "parser", "--projects-dir", str(projects)), "no command 'serch': did you mean 'search'?"),
        (("statss", "--projects-dir", str(projects)), "no command 'statss': did you mean 'stats'?"),
        (("--projects-dir", str(projects), "serch", "parser"), "no command 'serch': did you mean 'search'?"),
        (("--demo", "--projects-dir", str(projects)), "--demo and --projects-dir cannot go together"),
    ]
    for args, message in cases:
        out = run(*args)
        assert out.returncode == 2, args
        assert message in out.stderr, (args, out.stderr)
        assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def run_in_terminal(
    *args: str, stdin: bool = True, stdout: bool = True, term: str = "xterm-256color"
) -> subprocess.CompletedProcess[str]:
    """`claude-tui ARGS` with a pseudo-terminal as stdin and stdout (else /dev/null, a pipe); stderr captured."""
    master, terminal = os.openpty()
    try:
        return subprocess.run(
            [sys.executable, "-m", "claude_tui", *args],
            stdin=terminal if stdin else subprocess.DEVNULL,
            stdout=terminal if stdout else subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            timeout=30,
            env={**os.environ, "TERM": term},
        )
    finally:
        os.close(terminal)
        os.close(master)


def test_the_apps_session_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    projects = make_home(tmp_path)
    (tmp_path / "dir.jsonl").mkdir()
    for session, message in ((str(tmp_path / "dir.jsonl"), "a directory"), ("", "no session named")):
        out = run_in_terminal(session, "--projects-dir", str(projects))
        assert out.returncode == 2 and message in out.stderr and out.stderr.count("\n") == 1, out.stderr


@pytest.mark.parametrize(("stdin", "stdout"), [(False, False), (False, True), (True, False)])
def test_the_app_without_a_terminal_says_so_and_exits_2(stdin: bool, stdout: bool, tmp_path: Path) -> None:
    """`claude-tui </dev/null`, `claude-tui SESSION | head`: no app (it would run until killed), one line."""
    out = run_in_terminal("--projects-dir", str(make_home(tmp_path)), stdin=stdin, stdout=stdout)
    not_one = "stdout" if stdin else "stdin"
    expected = f"the app needs a terminal ({not_one} is not one); for scripts see search, stats and export"
    assert (out.returncode, out.stderr, out.stdout or "") == (2, f"claude-tui: {expected}\n", "")


def test_the_app_in_a_terminal_that_takes_no_escapes_says_so_and_exits_2(tmp_path: Path) -> None:
    """Under TERM=dumb the app drew its screen all the same, in escape sequences the terminal shows as text."""
    out = run_in_terminal("--projects-dir", str(make_home(tmp_path)), term="dumb")
    expected = (
        "the app needs a terminal that takes escape sequences (TERM is dumb); for scripts see search, stats and export"
    )
    assert (out.returncode, out.stderr) == (2, f"claude-tui: {expected}\n")


def test_a_line_break_in_a_message_is_shown_not_made(tmp_path: Path) -> None:
    """Messages are one line each, for people and scripts, whatever a path holds."""
    projects = make_home(tmp_path)
    session = "0f1e2d3c-0000-4000-8000-000000000001"
    out = run("export", session, "--projects-dir", str(projects), "-o", str(projects / "nl\nline" / "x.md"))
    assert out.stderr == f"claude-tui: refusing to write under a projects folder: {projects}/nl␊line/x.md\n"
    env = {"CLAUDE_TUI_CACHE_DIR": str(tmp_path / "cache")}
    out = run("search", "x", "--projects-dir", str(tmp_path / "no\r\nwhere"), env=env)
    assert out.stderr == f"claude-tui: no projects folder at {tmp_path}/no␊where\nno matches\n"


def test_export_never_writes_under_claude_codes_projects_folders(tmp_path: Path) -> None:
    """Not under the folders given, nor $CLAUDE_CONFIG_DIR's nor ~/.claude's, whatever --projects-dir says."""
    projects = make_home(tmp_path)
    session = str(projects / "-home-u-proj" / "0f1e2d3c-0000-4000-8000-000000000001.jsonl")
    env = {"HOME": str(tmp_path / "home"), "CLAUDE_CONFIG_DIR": str(tmp_path / "config")}
    for folder in (projects, tmp_path / "home" / ".claude" / "projects", tmp_path / "config" / "projects"):
        target = folder / "p" / "x.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        out = run("export", session, "--projects-dir", str(tmp_path / "other"), "-o", str(target), env=env)
        assert (out.returncode, out.stderr) == (2, f"claude-tui: refusing to write under a projects folder: {target}\n")
        assert not target.exists()
    out = run("export", session, "-o", str(tmp_path / "home" / "x.md"), env=env)
    assert out.returncode == 0 and (tmp_path / "home" / "x.md").exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize("command", ["stats", "export", "search"])
def test_output_that_cannot_be_written_is_one_line_and_exit_2(command: str, tmp_path: Path) -> None:
    projects = make_home(tmp_path)
    args = [command, "parser" if command == "search" else "0f1e2d3c-0000-4000-8000-000000000001"]
    env = {**os.environ, "CLAUDE_TUI_CACHE_DIR": str(tmp_path / "cache")}
    with open("/dev/full", "w") as full:
        out = subprocess.run(
            [sys.executable, "-m", "claude_tui", *args, "--projects-dir", str(projects)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
    assert (out.returncode, out.stderr) == (2, "claude-tui: No space left on device\n")


@pytest.mark.parametrize("closed", [1, 2])
@pytest.mark.parametrize("command", ["stats", "export", "search", "index"])
def test_a_closed_stream_is_as_dev_null(command: str, closed: int, tmp_path: Path) -> None:
    """`>&-` or `2>&-`: what would go there is gone, the rest and the exit status are as they would be."""
    projects = make_home(tmp_path)
    args = {"search": ["parser", "--limit", "1"], "index": []}.get(command, ["0f1e2d3c-0000-4000-8000-000000000001"])
    env = {"CLAUDE_TUI_CACHE_DIR": str(tmp_path / "cache")}
    out = run(command, *args, "--projects-dir", str(projects), env=env, closed=closed)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    assert (out.stdout == "") == (closed == 1)


@pytest.mark.parametrize("narrow", [{"PYTHONIOENCODING": "latin-1"}, {"LC_ALL": "C", "PYTHONUTF8": "0"}])
@pytest.mark.parametrize("command", ["stats", "export", "search"])
def test_an_output_encoding_without_a_character_gets_a_stand_in(
    command: str, narrow: dict[str, str], tmp_path: Path
) -> None:
    """In a locale without `→` the text is shown with `?` for it; a document (export) and JSON stay UTF-8.
    A query typed in UTF-8 where the locale is C is read as UTF-8."""
    t = Thread(session_id="narrow")
    t.prompt("the résumé → parser")
    t.write(tmp_path / "projects" / "-p" / "narrow.jsonl")
    env = {**narrow, "PYTHONCOERCECLOCALE": "0", "CLAUDE_TUI_CACHE_DIR": str(tmp_path / "cache")}
    out = run(
        command, "résumé" if command == "search" else "narrow", "--projects-dir", str(tmp_path / "projects"), env=env
    )
    assert out.returncode == 0, out.stderr
    assert ("résumé → parser" if command == "export" else "? parser") in out.stdout


def test_a_query_that_is_not_utf8_is_said_to_be(tmp_path: Path) -> None:
    env = {"CLAUDE_TUI_CACHE_DIR": str(tmp_path / "cache")}
    out = run("search", b"caf\xe9", "--projects-dir", str(make_home(tmp_path)), env=env)
    assert (out.returncode, out.stderr) == (2, "claude-tui: QUERY is not valid UTF-8 text\n")


def test_stats_on_real_sessions(real_projects: Path) -> None:
    files = [str(p) for p in sorted(real_projects.glob("*/*.jsonl")) if not p.name.startswith("agent-")][:10]
    out = run("stats", "--json", *files)
    assert out.returncode == 0, out.stderr
    rows = [orjson.loads(line) for line in out.stdout.splitlines()]
    assert [r["session_id"] for r in rows] == [Path(f).stem for f in files]
    for row, file in zip(rows, files, strict=True):  # counted on their own (tests/core/usage_count.py)
        assert row["records"] == sum(1 for _ in objects(Path(file))), file
        assert counts_of(row["tokens"]) == tokens(requests([Path(file)])), file


def test_stats_human_output_is_one_block_per_session(tmp_path: Path) -> None:
    t = Thread(session_id="s-title")
    t.raw({"type": "custom-title", "customTitle": "two\nlines", "sessionId": "s-title"})
    t.prompt("hello")
    t.answer(text("hi"), model="claude-sonnet-4-5-20250929")
    t.answer(text("hi again"), model="claude-opus-9")
    first = t.write(tmp_path / "p" / "s-title.jsonl")
    second = make_home(tmp_path) / "-home-u-proj" / "0f1e2d3c-0000-4000-8000-000000000001.jsonl"
    out = run("stats", str(first), str(second), env={"TZ": "UTC0"})
    assert out.returncode == 0, out.stderr
    blocks = out.stdout.split("\n\n")
    assert len(blocks) == 2 and blocks[0].startswith("two lines\n  session   s-title\n")
    assert "  when      2026-01-05 09:00:05 .. 09:00:15 UTC  (10s)\n" in blocks[0]
    assert "cache write  $0.00+ (no price for claude-opus-9)\n" in blocks[0]
    assert blocks[1].startswith("make the parser tolerant\n")


#: Los Angeles' rule, whole (no zone database needed): 2025-09-03 00:52 UTC is 2025-09-02 17:52 PDT.
LOS_ANGELES = "PST8PDT,M3.2.0,M11.1.0"


def late_evening(tmp_path: Path) -> Path:
    """A session of 2025-09-02 17:52:31 to 18:02:03 in Los Angeles: the next day in UTC."""
    t = Thread(session_id="s-late")
    t.prompt("hello")["timestamp"] = "2025-09-03T00:52:31.000Z"
    t.answer(text("hi"))["timestamp"] = "2025-09-03T01:02:03.000Z"
    return t.write(tmp_path / "p" / "s-late.jsonl")


def test_stats_says_local_times_and_json_keeps_utc(
    tmp_path: Path, zone: Callable[[str], None], capsys: pytest.CaptureFixture[str]
) -> None:
    """As the app and `search` do: the stats of an evening in Los Angeles are not of 00:52 UTC the next day."""
    path = late_evening(tmp_path)
    zone(LOS_ANGELES)
    assert main(["stats", str(path)]) == 0
    assert "  when      2025-09-02 17:52:31 .. 18:02:03 PDT  (" in capsys.readouterr().out
    assert main(["stats", str(path), "--json"]) == 0
    facts = orjson.loads(capsys.readouterr().out)
    assert (facts["started"], facts["ended"]) == ("2025-09-03T00:52:31.000Z", "2025-09-03T01:02:03.000Z")


def test_help_names_every_subcommand() -> None:
    out = run("--help")
    assert out.returncode == 0
    assert "Subcommands: stats, export, index, search" in " ".join(out.stdout.split())


@pytest.mark.parametrize(
    ("asked", "meant"),
    [
        (("help",), ("--help",)),
        (("-help",), ("--help",)),
        (("help", "search"), ("search", "--help")),
        (("--projects-dir", "elsewhere", "help"), ("--help",)),
        (("--projects-dir=elsewhere", "-help"), ("--help",)),
        (("--projects-dir", "a", "--projects-dir", "b", "help", "stats"), ("stats", "--help")),
        (("help", "--projects-dir", "elsewhere", "index"), ("index", "--help")),
    ],
)
def test_help_as_a_word_shows_the_usage(asked: tuple[str, ...], meant: tuple[str, ...]) -> None:
    """`claude-tui help` said "no session matches 'help'"; `-help`, "ignored explicit argument 'elp'"; with the
    roots before it (as the app takes them), `help` was read as a session."""
    out, expected = run(*asked), run(*meant)
    assert (out.returncode, out.stdout, out.stderr) == (0, expected.stdout, "") and expected.stdout.startswith("usage:")


def test_a_file_named_help_is_a_session_not_a_request_for_help(tmp_path: Path) -> None:
    (tmp_path / "help").write_text("")
    out = run("help", cwd=tmp_path)
    assert out.returncode == 2 and "usage:" not in out.stdout and "the app needs a terminal" in out.stderr
