"""Benchmark: the machine instructions `stats` spends on a big session's first half, against a bare orjson loop.

    python tests/benchmarks/bench_instructions.py big.jsonl

Wall time on a shared 2-core machine swings by a third from run to run; an instruction count does not. Under
valgrind (callgrind), with a fixed hash seed, this counts the instructions of: the half `stats` reads in its
own process (from the first byte to `stats`' cut) fed into a Session and tallied; the same bytes split into
lines and parsed by a bare orjson loop; and, taken from both, the interpreter's start and the same imports. The
ratio moves only when the code does: a stop that makes the model do more work per record shows here first.
Needs valgrind (apt-get install valgrind).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from claude_tui.core.stats import _split_point

#: The three programs counted: each imports the same, then does nothing, the model's work or the bare loop's.
PROGRAM = """
import gc, sys
from pathlib import Path
import orjson
from claude_tui.core.loader import session_of
from claude_tui.core.reader import Reader
from claude_tui.core.stats import Tally, _split_point
gc.disable()  # as stats runs: no collector passes
path = Path(sys.argv[1])
cut = _split_point(path)
if sys.argv[2] == "model":
    Tally.of(session_of(path, Reader(str(path)), stop=cut))
elif sys.argv[2] == "bare":
    with open(path, "rb") as f:
        for line in f.read(cut).split(b"\\n"):
            if line.strip():
                orjson.loads(line)
"""


def available() -> bool:
    return shutil.which("valgrind") is not None


def instructions(session: Path, what: str) -> int:
    """Instructions counted by callgrind for one run of PROGRAM doing `what` ("none", "model" or "bare")."""
    valgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    done = subprocess.run(
        [*valgrind, sys.executable, "-c", PROGRAM, str(session), what],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed on {what}: {done.stderr[-2000:]}")
    return int(found.group(1))


def counts(session: Path) -> tuple[int, int, int]:
    """(the model's instructions, the bare loop's, the records read), start and imports taken from both."""
    with ThreadPoolExecutor(3) as pool:
        none, model, bare = pool.map(lambda what: instructions(session, what), ("none", "model", "bare"))
    with open(session, "rb") as f:
        records = sum(1 for line in f.read(_split_point(session)).split(b"\n") if line.strip())
    return model - none, bare - none, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("session", type=Path, help="a session file (e.g. from make_corpus.py --one-session 100)")
    args = parser.parse_args()
    if not available():
        sys.exit("valgrind is not installed: apt-get install valgrind")
    model, bare, records = counts(args.session)
    print(f"records in the first half: {records:,}")
    print(f"stats' model (feed and tally)   {model / 1e6:9.1f} M instructions   {model / records:9,.0f} per record")
    print(f"bare orjson loop                {bare / 1e6:9.1f} M instructions   {bare / records:9,.0f} per record")
    print(f"ratio: {model / bare:.2f}x")


if __name__ == "__main__":
    main()
