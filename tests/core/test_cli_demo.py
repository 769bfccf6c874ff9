"""`--demo` with every subcommand (issue 35, the first run): the bundled demo history as the projects folder, its
newest session for stats and export given none, its index in the cache as any other's."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from claude_tui.cli.demo import DEMO_PROJECTS

#: The demo's top-level session files (not its subagents' transcripts).
SESSIONS = [f for f in DEMO_PROJECTS.glob("*/*.jsonl") if not f.name.startswith("agent-")]


def newest() -> Path:
    """The demo's session with the latest record, read from its files."""

    def last(path: Path) -> str:
        stamps = [orjson.loads(line).get("timestamp") for line in path.read_bytes().splitlines() if line.strip()]
        return max((s for s in stamps if s), default="")

    return max(SESSIONS, key=last)


def demo(temp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`claude-tui ARGS` as a script runs it (no terminal), its output captured; the demo copied under `temp`
    (not the machine's temporary folder, where other tests copy theirs)."""
    return subprocess.run(
        [sys.executable, "-m", "claude_tui", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "TMPDIR": str(temp)},
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("args", [("--demo", "stats", "--json"), ("stats", "--demo", "--json")])
def test_stats_of_the_demo_is_its_newest_session(tmp_path: Path, args: tuple[str, ...]) -> None:
    out = demo(tmp_path, *args)
    assert out.returncode == 0, out.stderr
    (facts,) = map(orjson.loads, out.stdout.splitlines())
    assert facts["session_id"] == newest().stem
    assert Path(facts["path"]).is_relative_to(tmp_path)  # the demo's copy, not the package's files


def test_stats_of_a_demo_session_named(tmp_path: Path) -> None:
    named = sorted(SESSIONS)[0]
    out = demo(tmp_path, "--demo", "stats", named.stem[:8])
    assert out.returncode == 0, out.stderr
    assert f"session   {named.stem}" in out.stdout


def test_export_of_the_demo_is_its_newest_session_in_markdown(tmp_path: Path) -> None:
    out = demo(tmp_path, "--demo", "export")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("# ") and f"- **Session:** {newest().stem}\n" in out.stdout
    assert "\n## Prompt · " in out.stdout


def test_search_finds_a_word_of_the_demo(tmp_path: Path) -> None:
    out = demo(tmp_path, "--demo", "search", "itsdangerous", "--json")
    assert out.returncode == 0, out.stderr
    hits = [orjson.loads(line) for line in out.stdout.splitlines()]
    assert hits and all("itsdangerous" in h["snippet"].lower() for h in hits)
    assert {h["session_id"] for h in hits} >= {newest().stem}
    assert demo(tmp_path, "--demo", "search", "nowhereinthedemo").returncode == 1


def test_usage_of_the_demo_is_a_table_with_a_totals_row(tmp_path: Path) -> None:
    out = demo(tmp_path, "--demo", "usage")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[:2] == ["Date", "Input"] and lines[0].endswith("Cost")
    assert re.fullmatch(r"Total +[\d,]+ .* \$\d+\.\d\d", lines[-1])
    assert all(re.match(r"2026-\d\d-\d\d ", line) for line in lines[1:-2])


def test_index_of_the_demo_reports_it_and_keeps_it_in_the_cache(tmp_path: Path) -> None:
    out = demo(tmp_path, "--demo", "index")
    assert out.returncode == 0, out.stderr
    projects = len({f.parent for f in SESSIONS})
    assert re.fullmatch(rf"{projects} projects, {len(SESSIONS)} sessions, [\d.]+ MB in [\d.]+ s \(.*\)\n", out.stdout)
    assert (Path(os.environ["XDG_CACHE_HOME"]) / "claude-tui" / "index.sqlite3").is_file()
    copy = tmp_path / f"claude-tui-demo-{os.getuid()}"
    folders = (DEMO_PROJECTS, DEMO_PROJECTS.parent / "plans")
    bundled = {p.relative_to(DEMO_PROJECTS.parent) for folder in folders for p in folder.rglob("*") if p.is_file()}
    assert {p.relative_to(copy) for p in copy.rglob("*") if p.is_file()} == bundled  # nothing written beside it


@pytest.mark.parametrize("command", ["stats", "export", "index", "search", "usage"])
def test_demo_with_a_projects_folder_is_one_line_of_error(tmp_path: Path, command: str) -> None:
    out = demo(tmp_path, "--demo", command, "--projects-dir", str(tmp_path))
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr == "claude-tui: --demo and --projects-dir cannot go together: the demo is a history of its own\n"


@pytest.mark.parametrize("command", ["stats", "export"])
def test_without_the_demo_a_session_is_still_required(tmp_path: Path, command: str) -> None:
    out = demo(tmp_path, command)
    assert out.returncode == 2 and out.stderr.endswith("error: the following arguments are required: SESSION\n")
