"""Benchmark of the index and search against the parse floor and ripgrep (issue 3).

    python tests/benchmarks/bench_index.py CORPUS [--words W ...] [--runs N]

CORPUS is a projects folder, e.g. one made by
`python ../shared/corpus/make_corpus.py /work/bench/c1500 --sessions 1500 --projects 40 --scale 1000 --seed 11`.
Measured in one run, with the files in the page cache (the reference loop reads them first):

- the parse floor: a bare single-core loop that reads every .jsonl file and orjson-parses every line;
- cold `claude-tui index` with a fresh cache folder (whole process), its peak memory;
- `claude-tui index` again with nothing changed;
- `claude-tui index` after appending to 5 sessions (the appended lines are removed afterwards);
- `claude-tui search WORD` with the index warm (whole process) against `rg -l WORD CORPUS`;
- two floors, the least any Python index or search of this design could take: for the index, the
  bare loop's parse plus the full-text table's own work on the text the index keeps (its extractor
  cuts it; only the inserts are timed), shared by two cores with nothing else, and beside it what the
  extractor itself costs on one core; for search, a process
  that starts Python, imports sqlite3, stats every session file (the refresh) and reads the index's
  file table, and no query at all.

Peak memory is the largest resident set of any one process (getrusage of the children) and
the largest total over claude-tui and its worker processes, sampled every 10 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import orjson
from installed import compile_package

from claude_tui.core.index.extract import Extractor, State, read_chunks
from claude_tui.core.index.schema import TEXT_SCHEMA, tune

APPENDED_WORD = "zanzibar"


def bare_loop(corpus: Path) -> tuple[float, int, int]:
    """Seconds to read and orjson-parse every line of every .jsonl file on one core; (s, files, bytes)."""
    started = time.perf_counter()
    files = size = 0
    for dirpath, _, names in os.walk(corpus):
        for name in names:
            if not name.endswith(".jsonl"):
                continue
            with open(os.path.join(dirpath, name), "rb") as f:
                data = f.read()
            files += 1
            size += len(data)
            for line in data.split(b"\n"):
                if line:
                    try:  # noqa: SIM105 - a bare try is the cheapest: the reference must not be slowed
                        orjson.loads(line)
                    except orjson.JSONDecodeError:
                        pass
    return time.perf_counter() - started, files, size


def extract_and_fts_seconds(corpus: Path) -> tuple[float, float]:
    """Seconds the index's extractor takes over every file (its parse included), and seconds SQLite takes to put
    the text it keeps into a full-text table made and tuned as the index's, in one transaction."""
    with tempfile.TemporaryDirectory() as folder:
        db = sqlite3.connect(os.path.join(folder, "fts.sqlite3"), isolation_level=None)
        tune(db, "main", wal=True)
        db.executescript(TEXT_SCHEMA.format(s="main"))  # the index's own settings
        db.execute("BEGIN")
        spent = extracting = 0.0
        for n, path in enumerate(sorted(corpus.rglob("*.jsonl"))):
            started = time.perf_counter()
            fd = os.open(path, os.O_RDONLY)
            try:
                ex = Extractor(State(path.name.startswith("agent-")), n, n << 40)
                for lines, off, _ in read_chunks(fd, 0, os.fstat(fd).st_size):
                    ex.feed(lines, off)
            finally:
                os.close(fd)
            extracting += time.perf_counter() - started
            started = time.perf_counter()
            db.executemany("INSERT INTO fts(rowid, text) VALUES (?,?)", ex.texts)
            spent += time.perf_counter() - started
        started = time.perf_counter()
        db.execute("COMMIT")
        spent += time.perf_counter() - started
        db.close()
    return extracting, spent


SEARCH_FLOOR = """
import os, sqlite3, sys
for project in os.scandir(sys.argv[1]):
    if project.is_dir():
        for entry in os.scandir(project.path):
            if entry.name.endswith(".jsonl"):
                entry.stat()
db = sqlite3.connect(f"file:{sys.argv[2]}?mode=ro", uri=True)
db.execute("SELECT path, size, mtime_ns, inode, offset FROM files").fetchall()
"""


class TreeMemory:
    """Samples the total resident memory of a process and its descendants."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self.done = pid, 0, False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done:
            self.peak = max(self.peak, sum(_rss(p) for p in _tree(self.pid)))
            time.sleep(0.01)

    def stop(self) -> int:
        self.done = True
        self.thread.join()
        return self.peak


def _tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:
            continue
    return pids


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def run(cmd: list[str], env: dict[str, str], memory: bool = False) -> tuple[float, str, int]:
    """Wall seconds, stdout and (when asked) the peak total memory of a command."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sampler = TreeMemory(proc.pid) if memory and os.path.isdir("/proc") else None
    out, err = proc.communicate()
    elapsed = time.perf_counter() - started
    peak = sampler.stop() if sampler else 0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {err.strip()}")
    return elapsed, out, peak


def median_run(cmd: list[str], env: dict[str, str], runs: int) -> float:
    return statistics.median(run(cmd, env)[0] for _ in range(runs))


def append_to_sessions(corpus: Path, count: int, seed: int = 1) -> list[tuple[Path, int]]:
    """Append a few records (copies of each file's last lines, with a marker word) to `count` sessions."""
    sessions = sorted(p for p in corpus.glob("*/*.jsonl") if not p.name.startswith("agent-"))
    chosen = random.Random(seed).sample(sessions, count)
    restore = []
    for path in chosen:
        size = path.stat().st_size
        lines = [line for line in path.read_bytes()[-200_000:].split(b"\n")[1:] if line.startswith(b"{")][-10:]
        marker = orjson.dumps({"type": "user", "uuid": f"bench-{path.stem}", "timestamp": "2027-06-01T00:00:00Z",
                               "message": {"role": "user", "content": f"a prompt about {APPENDED_WORD}"}})  # fmt: skip
        with open(path, "ab") as f:
            f.write(b"\n".join([*lines, marker]) + b"\n")
        restore.append((path, size))
    return restore


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--words", nargs="+", default=[APPENDED_WORD, "Overloaded", "compacted", "session"])
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    corpus = a.corpus.resolve()
    claude_tui = [sys.executable, "-m", "claude_tui"]
    cache = Path(tempfile.mkdtemp(prefix="bench-index-"))
    env = {**os.environ, "CLAUDE_TUI_CACHE_DIR": str(cache)}
    index = [*claude_tui, "index", "--projects-dir", str(corpus)]
    compile_package()
    try:
        bare_loop(corpus)  # warm the page cache
        bare, files, size = bare_loop(corpus)
        print(f"corpus            {corpus}: {files} files, {size / 1e6:,.0f} MB, {os.cpu_count()} cores")
        print(f"bare orjson loop  {bare:6.2f} s  (one core: read and parse every line)")

        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        cold, out, tree_peak = run(index, env, memory=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        biggest = after.ru_maxrss / 1024
        print(f"cold index        {cold:6.2f} s  = {cold / bare:.2f}x the bare loop, CPU {cpu:.1f} s  ({out.strip()})")
        print(f"peak memory       {tree_peak / 1e6:6.0f} MB total (claude-tui and its workers), "
              f"{biggest:.0f} MB the largest process")  # fmt: skip

        extracting, fts = extract_and_fts_seconds(corpus)
        floor = (bare + fts) / 2
        print(f"floor, index      {floor:6.2f} s  = {floor / bare:.2f}x the bare loop: its parse and the FTS inserts "
              f"({fts:.2f} s) on two cores, no extraction, no start-up")  # fmt: skip
        print(f"extractor         {extracting:6.2f} s  = {extracting / bare:.2f}x the bare loop on one core (its parse "
              "included): the index's facts and rows, in Python")  # fmt: skip

        warm = median_run(index, env, a.runs)
        print(f"no-change index   {warm:6.3f} s  (median of {a.runs})")

        restore = append_to_sessions(corpus, 5)
        try:
            appended, out, _ = run(index, env)
            print(f"append-to-5 index {appended:6.3f} s  = {appended / cold:.1%} of cold  ({out.strip()})")
            search_floor = median_run([sys.executable, "-c", SEARCH_FLOOR, str(corpus), str(cache / "index.sqlite3")],
                                      env, a.runs)  # fmt: skip
            print(f"floor, search     {search_floor:6.3f} s  (Python, sqlite3, a stat of every file, the file table)")
            for word in a.words:
                ours = median_run([*claude_tui, "search", word, "--projects-dir", str(corpus)], env, a.runs)
                rg = median_run(["rg", "-l", word, str(corpus)], env, a.runs) if shutil.which("rg") else float("nan")
                found = run([*claude_tui, "search", word, "--projects-dir", str(corpus), "--limit", "1000", "--json"],
                            env)[1].count("\n")  # fmt: skip
                print(f"search {word!r:14} {ours:6.3f} s  vs rg -l {rg:6.3f} s  = {ours / rg:.2f}x  ({found} hits; "
                      f"the floor {search_floor / rg:.2f}x)")  # fmt: skip
        finally:
            for path, length in restore:
                os.truncate(path, length)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
