"""Benchmark of the usage report (issue 34): `claude-tui usage daily` against an index with nothing to do.

    python tests/benchmarks/bench_usage.py CORPUS [--cache DIR] [--runs N]

CORPUS is a projects folder (the 15,000-session history, /work/bench/h15000; a small one for the app's figure,
/work/bench/c1500). The index is built first in `--cache` (a fresh folder by default: give the one of an earlier
run to skip that). Measured in one run, best of N, the two commands taking turns:

- `claude-tui index` with nothing new (the reference), and `claude-tui usage` (daily) on the same index: the target
  is at most 2x (both whole processes: start-up, the update's stat of every file, then the report); the usage
  kept beside the index from the run before (nothing changed), and read again from the index (the kept file
  removed: as after a change);
- the peak memory of `claude-tui usage`;
- in this process, what the app's usage screen recomputes on a live update: the report's spends read from the index,
  the last 30 days, 12 weeks and 12 months, the top projects and models, the current 5-hour block.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from installed import compile_package

from claude_tui.core.index.store import Index
from claude_tui.core.usage_report import CACHE, load_usage

TARGET = 2.0


def timed(cmd: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def screen(corpus: Path, cache: Path) -> float:
    """Seconds to read the usage and make what the app's screen shows of it (its own `figures`)."""
    from claude_tui.core.usage_figures import figures

    started = time.perf_counter()
    figures(load_usage(Index(cache, [corpus]), [corpus]), time.time())
    return time.perf_counter() - started


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
    indexes, usages, rereads = [], [], []
    for _ in range(a.runs):
        indexes.append(timed(index, env))
        usages.append(timed(usage, env))
        (cache / CACHE).unlink()
        rereads.append(timed(usage, env))
    best_index = min(indexes)
    print(f"index, no change  {best_index:7.3f} s  (best of {a.runs}; median {sorted(indexes)[a.runs // 2]:.3f} s)")
    for what, times in (("usage daily", usages), ("  read again", rereads)):
        ratio = min(times) / best_index
        met = "met" if ratio <= TARGET else "MISSED"
        print(f"{what:17} {min(times):7.3f} s  (best of {a.runs}; median {sorted(times)[a.runs // 2]:.3f} s)"
              f"  = {ratio:.2f}x the index, target {TARGET:.0f}x: {met}")  # fmt: skip
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory       {peak:7.0f} MB  (the largest child: an index or a usage run)")
    best = min(screen(corpus, cache) for _ in range(a.runs))
    print(f"usage screen      {best:7.3f} s  (best of {a.runs}: spends from the index, 30 days, 12 weeks, 12 months,"
          " top projects and models, the current block)")  # fmt: skip


if __name__ == "__main__":
    main()
