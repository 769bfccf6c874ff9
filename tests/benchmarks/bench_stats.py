"""Benchmark: `claude-tui stats --json` on one big session against a bare orjson loop over the same file.

    python /work/shared/corpus/make_corpus.py big.jsonl --one-session 100
    python tests/benchmarks/bench_stats.py big.jsonl [--runs 5]

Both are timed as whole processes (interpreter start-up included on both sides), in the same run,
alternating, best of N; the package byte-compiled first, as an installed one is. Target (issue 2):
stats at most 1.5x the bare loop. `stats` counts a file of 8 MB or more in two halves at once, on two
cores; the CPU column (user + system, children included) shows that total, and how much of a slow run
was the machine being busy with others.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import time

from installed import compile_package

BARE_LOOP = """
import sys, orjson
with open(sys.argv[1], "rb") as f:
    for line in f:
        if line.strip():
            orjson.loads(line)
"""


def timed(cmd: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run of `cmd`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("session", help="a session file (e.g. from make_corpus.py --one-session 100)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    compile_package()
    tui = shutil.which("claude-tui") or "claude-tui"
    commands = {
        "bare orjson loop": [sys.executable, "-c", BARE_LOOP, args.session],
        "claude-tui stats --json": [tui, "stats", "--json", args.session],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, cmd in commands.items():
            wall, used = timed(cmd)
            times[name].append(wall)
            cpu[name].append(used)
    ref = min(times["bare orjson loop"])
    for name, values in times.items():
        print(
            f"{name:26s} best {min(values):6.3f} s   median {statistics.median(values):6.3f} s"
            f"   cpu best {min(cpu[name]):6.3f} s"
        )
    ratio = min(times["claude-tui stats --json"]) / ref
    print(f"ratio (best/best): {ratio:.2f}x   target <= 1.5x   {'OK' if ratio <= 1.5 else 'MISSED'}")


if __name__ == "__main__":
    main()
