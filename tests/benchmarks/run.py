"""Every benchmark's figures in one table: the figure, its value, the reference measured in the same run, the
ratio, the target, and whether it is met (a missed target says MISSED; the command still succeeds).

    python tests/benchmarks/run.py                    # the benchmarks' own corpora, as each bench_*.py runs them
    python tests/benchmarks/run.py --quick            # the same figures in under a minute, on small data
    python tests/benchmarks/run.py --history-10x DIR  # and those of a history 10 times the usual one

The full run uses the corpora of the bench_*.py beside it (/work/bench/c1500 and /work/bench/big.jsonl, made by
../shared/corpus/make_corpus.py when missing; see each file) and their references: a bare orjson loop, `rg -l`,
a minimal Textual app. `--quick` makes small data of its own on first use and keeps it in $TMPDIR
(claude-tui-bench-quick/), and takes the best of a few runs; wall time is beside CPU time where a busy
machine distorts the first. `--history-10x DIR` adds a history of 15,000 sessions (`make_corpus.py DIR
--sessions 15000 --projects 200 --scale 12000 --seed 13`, 14 GB): a cold index (several minutes: its cache is
kept for the next runs, under $TMPDIR), search, the browser's first frame, and the list's work on its biggest
project. Every value is measured in this run. Beside the timings, valgrind counts the instructions stats' model
spends per record against the bare loop's (bench_instructions.py): a figure a busy machine cannot move.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_app
import bench_index
import bench_instructions
import bench_stats
import bench_usage
from installed import compile_package

#: ../shared/corpus beside the repository (as the tests find it: $CLAUDE_TUI_CORPUS), else the machine's.
_CORPUS = os.environ.get("CLAUDE_TUI_CORPUS", str(Path(__file__).resolve().parents[3] / "shared" / "corpus"))
MAKE_CORPUS = next(
    (p / "make_corpus.py" for p in (Path(_CORPUS), Path("/work/shared/corpus")) if (p / "make_corpus.py").exists()),
    Path(_CORPUS) / "make_corpus.py",
)
QUICK_DIR = Path(tempfile.gettempdir()) / "claude-tui-bench-quick"
WORDS = ("Overloaded", "compacted", "session")


@dataclass
class Row:
    figure: str
    value: float
    unit: str  #: "s", "ms", "MB" or "%"
    reference: str = ""  #: what it is compared with, measured in the same run
    ref_value: float | None = None
    target: float | None = None  #: the ratio (or, with no reference, the value) not to exceed
    note: str = ""

    @property
    def ratio(self) -> float | None:
        return self.value / self.ref_value if self.ref_value else None

    @property
    def met(self) -> str:
        if self.target is None:
            return ""
        measured = self.ratio if self.ref_value is not None else self.value
        return "met" if measured is not None and measured <= self.target else "MISSED"


def _number(value: float, unit: str) -> str:
    return f"{value:,.0f} {unit}" if unit in ("MB", "ms", "instr") and value >= 10 else f"{value:.3g} {unit}"


def table(rows: list[Row]) -> str:
    lines = [f"{'figure':58}{'value':>11}  {'reference':38}{'ratio':>7}{'target':>9}  ", "-" * 128]
    for r in rows:
        ref = f"{r.reference} {_number(r.ref_value, r.unit)}" if r.ref_value is not None else r.reference
        ratio = f"{r.ratio:.2f}x" if r.ratio is not None else ""
        target = "" if r.target is None else (f"<={r.target:g}x" if r.ref_value is not None else f"<={r.target:g}")
        line = f"{r.figure[:58]:58}{_number(r.value, r.unit):>11}  {ref[:38]:38}{ratio:>7}{target:>9}  {r.met}"
        lines.append(line + (f"  ({r.note})" if r.note else ""))
    return "\n".join(lines)


# ---------------------------------------------------------------- timing


def timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, children included) of one run of `cmd`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    if done.returncode not in (0, 1):  # 1: search and rg found nothing
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def best(
    commands: dict[str, list[str]], runs: int, env: dict[str, str] | None = None
) -> dict[str, tuple[float, float]]:
    """Best wall and best CPU seconds of each command, the runs interleaved so that load weighs on all alike."""
    seen: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, cmd in commands.items():
            seen[name].append(timed(cmd, env))
    return {name: (min(w for w, _ in v), min(c for _, c in v)) for name, v in seen.items()}


def tui() -> str:
    return str(Path(sys.executable).parent / "claude-tui")


# ---------------------------------------------------------------- data


def make(target: Path, *args: str) -> Path:
    """`target` as make_corpus.py makes it with `args`, made now when it is not there (whole or not at all)."""
    if target.exists():
        return target
    print(f"making {target} (make_corpus.py {' '.join(args)}; kept for the next runs)...", file=sys.stderr, flush=True)
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    subprocess.run([sys.executable, str(MAKE_CORPUS), str(partial), *args], check=True, stdout=subprocess.DEVNULL)
    partial.rename(target)
    return target


def data(quick: bool) -> tuple[Path, Path]:
    """(one big session, a history): small ones of our own for --quick, else the benchmarks' own."""
    if quick:
        QUICK_DIR.mkdir(exist_ok=True)
        return (
            make(QUICK_DIR / "session.jsonl", "--one-session", "12"),  # over stats.SPLIT_BYTES: counted in halves
            make(QUICK_DIR / "history", "--sessions", "120", "--projects", "8", "--scale", "40", "--seed", "5"),
        )
    bench = Path("/work/bench")
    return (
        make(bench / "big.jsonl", "--one-session", "100"),
        make(bench / "c1500", "--sessions", "1500", "--projects", "40", "--scale", "1000", "--seed", "11"),
    )


# ---------------------------------------------------------------- figures


def stats_rows(session: Path, runs: int) -> list[Row]:
    """bench_stats: `stats --json` on one big session against a bare orjson loop over it."""
    found = best(
        {
            "bare": [sys.executable, "-c", bench_stats.BARE_LOOP, str(session)],
            "stats": [tui(), "stats", "--json", str(session)],
        },
        runs,
    )
    mb = session.stat().st_size / 1e6
    return [
        Row(
            f"stats --json, {mb:.0f} MB session: wall",
            found["stats"][0],
            "s",
            "bare orjson loop",
            found["bare"][0],
            1.5,
        ),
        Row("stats --json: CPU (two cores)", found["stats"][1], "s", "bare orjson loop", found["bare"][1]),
    ]


def instruction_rows(session: Path) -> list[Row]:
    """bench_instructions: what stats' model spends on the first half, counted (not timed) against the bare loop."""
    if not bench_instructions.available():
        print("no valgrind: the instruction count is left out (apt-get install valgrind)", file=sys.stderr)
        return []
    model, bare, records = bench_instructions.counts(session)
    return [
        Row(
            f"stats' model, first half: instructions per record ({records:,})",
            model / records,
            "instr",
            "bare orjson loop",
            bare / records,
            note="counted, not timed: the same on any machine",
        )
    ]


def index_rows(history: Path, cache: Path, runs: int) -> list[Row]:
    """bench_index: a cold index of `history` into `cache` (left warm for the next figures) against the bare loop, its
    peak memory, an index with nothing changed and after appending to 5 sessions."""
    env = {**os.environ, "CLAUDE_TUI_CACHE_DIR": str(cache)}
    index = [tui(), "index", "--projects-dir", str(history)]
    bare = min(bench_index.bare_loop(history)[0] for _ in range(2))  # the first run warms the page cache
    shutil.rmtree(cache, ignore_errors=True)
    cold, _, peak = bench_index.run(index, env, memory=True)
    again = min(bench_index.run(index, env)[0] for _ in range(runs))
    restore = bench_index.append_to_sessions(history, 5)
    try:
        appended = bench_index.run(index, env)[0]
    finally:
        for path, size in restore:
            os.truncate(path, size)
        bench_index.run(index, env)  # the cache as the files are again
    return [
        Row(f"cold index, {history.name}", cold, "s", "bare orjson loop", bare, 1.0, "issue 3: blocked"),
        Row("cold index: peak memory, all processes", peak / 1e6, "MB", target=300),
        Row("index again, nothing changed", again, "s", target=0.3),
        Row("index after appending to 5 sessions", appended, "s", "cold index", cold, 0.1),
    ]


def search_rows(history: Path, cache: Path, runs: int) -> list[Row]:
    """bench_index: `claude-tui search WORD` (index warm) against `rg -l WORD`."""
    env = {**os.environ, "CLAUDE_TUI_CACHE_DIR": str(cache)}
    rows = []
    for word in WORDS:
        found = best(
            {"ours": [tui(), "search", word, "--projects-dir", str(history)], "rg": ["rg", "-l", word, str(history)]},
            runs,
            env,
        )
        cpu = f"CPU {found['ours'][1]:.3f} s vs {found['rg'][1]:.3f} s"
        rows.append(Row(f"search {word!r}", found["ours"][0], "s", "rg -l", found["rg"][0], 1.0, cpu))
    return rows


def usage_rows(history: Path, cache: Path, runs: int) -> list[Row]:
    """bench_usage: `claude-tui usage` (daily) against `claude-tui index` with nothing to do, on the same warm index:
    with the usage kept beside the index, after an answer is appended to a session (that file read again), and read
    whole from the index (nothing kept: a first run); the app's usage screen's first count, and its count again after
    a record is appended to a session (see bench_usage.screen)."""
    env = {**os.environ, "CLAUDE_TUI_CACHE_DIR": str(cache)}
    index = [tui(), "index", "--projects-dir", str(history)]
    usage = [tui(), "usage", "--projects-dir", str(history)]
    kept = cache / bench_usage.CACHE

    def read_again() -> list[str]:
        kept.unlink(missing_ok=True)
        return usage

    subprocess.run(usage, env=env, check=True, stdout=subprocess.DEVNULL)  # kept from here on
    found = best({"index": index, "usage": usage}, runs, env)
    with bench_usage.growing(history) as grow:

        def grown() -> list[str]:
            grow()
            return usage

        after = min(timed(grown(), env)[0] for _ in range(runs))
    again = min(timed(read_again(), env)[0] for _ in range(runs))
    first, live = bench_usage.screen(history, cache, runs)
    reference = found["index"][0]
    return [
        Row("usage daily, kept", found["usage"][0], "s", "index, nothing changed", reference, 2.0),
        Row("usage daily, after a session grew", after, "s", "index, nothing changed", reference, 2.0),
        Row("usage daily, nothing kept: read whole", again, "s", "index, nothing changed", reference, 2.0),
        Row("usage screen: first count", first * 1000, "ms"),
        Row("usage screen: counted again on a live update", live * 1000, "ms", target=100),
    ]


def app_rows(history: Path, cache: Path, runs: int, sessions: str) -> list[Row]:
    """bench_app: the browser (index warm) until its tree and list are on screen, against a minimal Textual app's
    first word; the largest resident set of each."""
    env = dict(os.environ, TERM="xterm-256color", CLAUDE_TUI_CACHE_DIR=str(cache), COLUMNS="200", LINES="50")
    os.environ["CLAUDE_TUI_CACHE_DIR"] = str(cache)
    markers = bench_app.browser_markers(history)
    with tempfile.TemporaryDirectory() as scratch:
        minimal = Path(scratch) / "minimal.py"
        minimal.write_text(bench_app.MINIMAL)
        bench_app.in_pty([tui(), "--projects-dir", str(history)], markers, env, b"q")  # saves the front page
        reference, browser = [], []
        for _ in range(runs):
            reference.append(bench_app.in_pty([sys.executable, str(minimal)], ["paintedword"], env, b"\x11"))
            browser.append(bench_app.in_pty([tui(), "--projects-dir", str(history)], markers, env, b"q"))
    ref = min(r[0] for r in reference)
    return [
        Row(
            f"browser, {sessions} sessions: tree + list on screen",
            min(b[0] for b in browser),
            "s",
            "minimal Textual app",
            ref,
            1.5,
        ),
        Row(
            "browser: peak memory",
            max(b[1] for b in browser),
            "MB",
            "minimal Textual app",
            max(r[1] for r in reference),
            note="target: under 200 MB",
        ),
    ]


def hostile_rows(runs: int) -> list[Row]:
    """bench_hostile: reading the hostile file (a 30 MB output line, a 2 MB image, damaged lines) into a Session
    against a bare orjson loop over it, and its 30 MB output read back whole against reading the file."""
    import bench_hostile

    from claude_tui.core.loader import read_session
    from claude_tui.core.source import full_output

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "projects" / "-home-u-hostile" / f"{bench_hostile.SESSION_ID}.jsonl"
        bench_hostile.write_hostile(path)
        huge = read_session(path).calls["toolu_huge"]

        def quickest(job: Callable[[], object]) -> float:
            return min(bench_hostile.timed(job) for _ in range(runs))

        bare, read = quickest(lambda: bench_hostile.bare_loop(path)), quickest(lambda: read_session(path))
        raw, output = quickest(path.read_bytes), quickest(lambda: full_output(str(path), huge))
    return [
        Row("hostile file into a Session", read * 1000, "ms", "bare orjson loop", bare * 1000),
        Row("hostile file: its 30 MB output read back", output * 1000, "ms", "read the file's bytes", raw * 1000),
    ]


def live_rows(history: Path) -> list[Row]:
    """bench_live's latency phase: a followed session's records, newline to screen."""
    import json

    out = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).with_name("bench_live.py")),
            "--phase",
            "latency",
            "--history",
            str(history),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found = json.loads(out.strip().splitlines()[-1])
    return [
        Row("live: newline to screen, p50", found["latency_p50_ms"], "ms", target=50),
        Row("live: newline to screen, p95", found["latency_p95_ms"], "ms", target=150),
    ]


def list_rows(history: Path, cache: Path) -> list[Row]:
    """What a key press costs on the history's biggest project, in one headless app (index warm), in CPU ms of the
    UI thread: the list's
    work (its action, then drawing every line it shows) for a sort, each key of a filter and a move; and the
    palette's work on a key over every session (its rows made, as at its first key, and a word matched)."""
    import asyncio

    os.environ["CLAUDE_TUI_CACHE_DIR"] = str(cache)
    return asyncio.run(_keys(history))


async def _keys(history: Path) -> list[Row]:
    from claude_tui.ui.app import ClaudeTUI
    from claude_tui.ui.palette_commands import HistoryProvider
    from claude_tui.ui.screens.main import MainScreen
    from claude_tui.ui.widgets.sessions import SessionList

    app = ClaudeTUI([history])
    rows: list[Row] = []
    async with app.run_test(size=(200, 50)) as pilot:
        screen = app.screen
        while not (isinstance(screen, MainScreen) and app.state.projects and screen._up_to_date):
            await pilot.pause(0.01)
        project = max(app.state.projects, key=lambda p: len(p.sessions))
        listed = screen.query_one(SessionList)
        screen.choose_project(project)
        while listed.sessions is not project.sessions:
            await pilot.pause(0.01)

        def ms(action: Callable[[], object]) -> float:
            """CPU ms of the action, then every line the list shows drawn, as the next frame draws them (the UI
            thread's: a busy machine and the app's other threads leave it alone)."""
            started = time.thread_time()
            action()
            for y in range(listed.size.height):
                listed.render_line(y)
            return (time.thread_time() - started) * 1000

        n = f"{len(project.sessions):,}"
        rows.append(Row(f"list of {n}: s (sort by the next column)", ms(listed.action_sort_next), "ms", target=100))
        rows.append(Row(f"list of {n}: j", ms(lambda: listed.action_cursor(1)), "ms", target=100))
        typed = [ms(lambda n=n: listed.set_filter("parser"[:n])) for n in range(1, 7)]
        rows.append(Row(f"list of {n}: each key of a filter (slowest)", max(typed), "ms", target=100))
        provider = HistoryProvider(screen)
        made = ms(provider._all)
        count = len(provider._all())

        async def search() -> None:
            async for _ in provider.search("fix pars"):
                pass

        started = time.thread_time()
        await search()
        matched = (time.thread_time() - started) * 1000
        rows.append(Row(f"palette, {count:,} rows: its first key (rows made)", made + matched, "ms", target=100))
        rows.append(Row("palette: a key after", matched, "ms", target=100))
    return rows


def agents_rows(history: Path) -> list[Row]:
    """Finding a session's subagent transcripts (files.agent_files) in the history's biggest project folder, which
    holds thousands of flat 2.0.x `agent-*.jsonl` beside its sessions, in a process of its own: for the first session
    opened (every one of those files' first line read), then for another (each read once while it does not change)."""
    folder = max((p for p in history.iterdir() if p.is_dir()), key=lambda p: sum(1 for _ in os.scandir(p)))
    flat = sum(1 for p in folder.glob("agent-*.jsonl"))
    first, second = orjson.loads(subprocess.run([sys.executable, "-c", AGENTS, str(folder)], check=True,
                                                capture_output=True).stdout)  # fmt: skip
    return [
        Row(f"subagents found, {flat:,} flat agent files: first open", first, "ms"),
        Row("subagents found: another session opened after", second, "ms", target=100),
    ]


#: agents_rows' program: the ms agent_files takes for two sessions of the folder argv[1], one after the other.
AGENTS = """
import sys, time, orjson
from pathlib import Path
from claude_tui.core.files import agent_files
sessions = sorted(p for p in Path(sys.argv[1]).glob("*.jsonl") if not p.name.startswith("agent-"))[:2]
took = []
for path in sessions:
    started = time.perf_counter()
    agent_files(path)
    took.append((time.perf_counter() - started) * 1000)
print(orjson.dumps(took).decode())
"""


def _seconds(job: Callable[[], object]) -> float:
    started = time.perf_counter()
    job()
    return time.perf_counter() - started


# ---------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small data, few runs: under a minute")
    parser.add_argument("--history-10x", type=Path, metavar="DIR", help="also a 15,000-session history's figures")
    args = parser.parse_args()
    compile_package()
    runs = 3 if args.quick else 5
    session, history = data(args.quick)
    cache = Path(tempfile.mkdtemp(prefix="claude-tui-bench-"))
    started = time.monotonic()
    rows: list[Row] = []
    try:
        rows += stats_rows(session, runs)
        rows += instruction_rows(session)
        rows += index_rows(history, cache, runs)
        rows += search_rows(history, cache, runs)
        rows += usage_rows(history, cache, runs)
        rows += app_rows(
            history, cache, runs, f"{sum(not p.name.startswith('agent-') for p in history.glob('*/*.jsonl')):,}"
        )
        rows += hostile_rows(runs)
        if not args.quick:
            rows += live_rows(history)
        if args.history_10x:
            big = args.history_10x
            kept = Path(tempfile.gettempdir()) / "claude-tui-bench-10x-cache"
            rows += index_rows(big, kept, 1)
            rows += search_rows(big, kept, runs)
            rows += usage_rows(big, kept, runs)
            rows += app_rows(big, kept, runs, "15,000")
            rows += list_rows(big, kept)
            rows += agents_rows(big)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    what = (
        f"quick: small data in {QUICK_DIR}, the targets set for the full corpora: compare stop to stop"
        if args.quick
        else f"{session.name}, {history.name}"
    )
    load = os.getloadavg()[0]
    took = time.monotonic() - started
    print(f"\nclaude-tui benchmarks ({what}; best of {runs}; {os.cpu_count()} cores, load {load:.1f}; {took:.0f} s)")
    print(table(rows))
    print(f"{sum(r.met == 'MISSED' for r in rows)} missed, {sum(r.met == 'met' for r in rows)} met")


if __name__ == "__main__":
    main()
