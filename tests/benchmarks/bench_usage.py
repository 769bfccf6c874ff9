"""Benchmark of the usage report (issue 34): `claude-tui usage daily` against an index with nothing to do.

    python tests/benchmarks/bench_usage.py CORPUS [--cache DIR] [--runs N]

CORPUS is a projects folder (the 15,000-session history, /work/bench/h15000; a small one for the app's figure,
/work/bench/c1500). The index is built first in `--cache` (a fresh folder by default: give the one of an earlier
run to skip that). Measured in one run, best of N, the two commands taking turns:

- `claude-tui index` with nothing new (the reference), and `claude-tui usage` (daily) on the same index: the target
  is at most 2x (both whole processes: start-up, the update's stat of every file, then the report); the usage
  kept beside the index from the run before (nothing changed), after an answer is appended to the latest session
  of the biggest project (that file read on and its usage read again), and read whole from the index (the kept
  file removed: a first run);
- the peak memory of `claude-tui usage`;
- in this process, the app's usage screen: its first count, and its count again on a live update (see `screen`).
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from installed import compile_package

from claude_tui.core.index.store import Index
from claude_tui.core.usage_feed import CACHE

TARGET = 2.0
MODEL = "claude-sonnet-4-5-20250929"


def timed(cmd: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def screen(corpus: Path, cache: Path, runs: int) -> tuple[float, float]:
    """Seconds of the usage screen's first count (the spends read from the index, the last 30 days, 12 weeks and 12
    months, the top projects and models, the last 5-hour block), and the best of `runs` counts after a live update:
    a record appended to the latest session of the biggest project (see growing), the index brought up to date (not
    timed), the figures counted again as the screen counts them. The index is put back with the file after."""
    from claude_tui.core.usage_feed import UsageFeed
    from claude_tui.core.usage_figures import figures

    index, feed = Index(cache, [corpus]), UsageFeed([corpus])
    started = time.perf_counter()
    shown = figures(feed.read(index), time.time())
    first = time.perf_counter() - started
    counts = []
    try:
        with growing(corpus) as grow:
            for _ in range(runs):
                grow()
                index.update([corpus])
                started = time.perf_counter()
                usage = feed.read(index)
                shown = figures(usage, time.time(), shown, feed.change(shown.usage, usage))
                counts.append(time.perf_counter() - started)
    finally:
        index.update([corpus])
    return first, min(counts)


@contextmanager
def growing(corpus: Path) -> Iterator[Callable[[], None]]:
    """A function that appends an answer to the latest session of the biggest project, as a live session grows; the
    file is put back as it was after (its size and times)."""
    biggest = max((p for p in corpus.iterdir() if p.is_dir()), key=lambda p: sum(1 for _ in p.glob("*.jsonl")))
    target = max(biggest.glob("*.jsonl"), key=lambda p: p.stat().st_mtime)
    stat, last = target.stat(), orjson.loads(target.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1])
    answers = itertools.count()

    def grow() -> None:
        with open(target, "ab") as f:
            f.write(orjson.dumps(_answer(last, next(answers))) + b"\n")

    try:
        yield grow
    finally:
        os.truncate(target, stat.st_size)
        os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def _answer(last: dict[str, Any], n: int) -> dict[str, Any]:
    """An answer to follow the record `last`, as Claude Code writes one now."""
    usage = {"input_tokens": 5, "output_tokens": 100 + n, "cache_read_input_tokens": 2000}
    message = {
        "id": f"msg_bench_{time.time_ns()}",
        "type": "message",
        "role": "assistant",
        "model": MODEL,
        "content": [{"type": "text", "text": "done"}],
        "stop_reason": "end_turn",
        "usage": usage,
    }
    return {
        "parentUuid": last.get("uuid"),
        "isSidechain": False,
        "type": "assistant",
        "message": message,
        "uuid": str(uuid.uuid4()),
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
        "sessionId": last.get("sessionId"),
        "cwd": last.get("cwd"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--cache", type=Path, help="the index's folder (default: a fresh one)")
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    corpus = a.corpus.resolve()
    cache = a.cache or Path(tempfile.mkdtemp(prefix="bench-usage-"))
    env = {**os.environ, "CLAUDE_TUI_CACHE_DIR": str(cache)}
    claude_tui = [sys.executable, "-m", "claude_tui"]
    index = [*claude_tui, "index", "--projects-dir", str(corpus)]
    usage = [*claude_tui, "usage", "--projects-dir", str(corpus)]
    compile_package()
    print(f"corpus            {corpus}, index in {cache}")
    print(f"index (first)     {timed(index, env):7.2f} s")
    timed(usage, env)  # warm the page cache for both
    indexes, usages, grown, rereads = [], [], [], []
    with growing(corpus) as grow:
        for _ in range(a.runs):
            indexes.append(timed(index, env))
            usages.append(timed(usage, env))
            grow()
            grown.append(timed(usage, env))
            (cache / CACHE).unlink()
            rereads.append(timed(usage, env))
    timed(usage, env)  # the index and the usage kept as the file is again
    best_index = min(indexes)
    print(f"index, no change  {best_index:7.3f} s  (best of {a.runs}; median {sorted(indexes)[a.runs // 2]:.3f} s)")
    for what, times in (("usage daily", usages), ("  after a session grew", grown), ("  nothing kept", rereads)):
        ratio = min(times) / best_index
        met = "met" if ratio <= TARGET else "MISSED"
        print(f"{what:17} {min(times):7.3f} s  (best of {a.runs}; median {sorted(times)[a.runs // 2]:.3f} s)"
              f"  = {ratio:.2f}x the index, target {TARGET:.0f}x: {met}")  # fmt: skip
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory       {peak:7.0f} MB  (the largest child: an index or a usage run)")
    first, live = screen(corpus, cache, a.runs)
    met = "met" if live <= 0.1 else "MISSED"
    print(f"usage screen      {first:7.3f} s  first count: spends from the index, 30 days, 12 weeks, 12 months, top"
          " projects and models, the last block")  # fmt: skip
    print(f"                  {live:7.3f} s  counted again on a live update (best of {a.runs}; target 0.1 s: {met})")


if __name__ == "__main__":
    main()
