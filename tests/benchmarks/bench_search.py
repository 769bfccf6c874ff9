"""Benchmark of both searches (issue 6), each in the real app in a pseudo-terminal of 200x50.

    python tests/benchmarks/bench_search.py [--session FILE] [--history DIR] [--cache DIR] [--runs N]

Defaults: /work/bench/big.jsonl (100 MB, `make_corpus.py big.jsonl --one-session 100`) and
/work/bench/c1500 (1.2 GB, 1,500 sessions). Times run from writing the key to the pty until
the text it should bring is on the screen (the app's output, escape codes stripped).

In the session: a copy of the session with one unique word planted at the start of a tool
output 70% of the way down (collapsed, far below the first screen). The find bar is opened
and the word typed a key at a time (how long each key takes to show while the searches of
the previous keys run: typing must never wait); then

- Enter once the count is shown: to the output line, expanded and scrolled to, on screen
  (target < 300 ms);
- from the top again, the last key of the word typed again and Enter pressed at once: the
  search starts over from the cursor and the jump waits for it to reach the word.

Across the history (the index warm: built first into --cache, or a temporary folder, not
measured): the search screen, words typed a key at a time after a pause, from each key to
its results on screen (target < 100 ms; each key after a pause searches at once, a burst of
keys once it stops, 150 ms later), and the same for the last key of a word typed in one burst
(the keys that arrive before the first search starts are searched with it).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

import orjson
from installed import compile_package

SIZE = (200, 50)
NEEDLE = "zqxneedle4242"
WORDS = ["config", "worker", "offset", "thread", "commit"]
_ANSI = re.compile(rb"\x1b(?:\[[0-9;?<>=$ ]*[A-Za-z~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][A-Z0-9]|[=>78cDEHM])")


class Term:
    """A child process in a pseudo-terminal, and what it has written."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
        self.child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        self.raw = b""

    def _pump(self, timeout: float) -> bool:
        if select.select([self.master], [], [], timeout)[0]:
            with contextlib.suppress(OSError):
                self.raw += os.read(self.master, 1 << 20)
                return True
        return False

    def settle(self, quiet: float = 0.2) -> None:
        """Read until the app has written nothing for `quiet` seconds (what it was drawing is drawn)."""
        while self._pump(quiet):
            pass

    def send(self, data: bytes) -> tuple[float, int]:
        """Write `data`; returns when (perf_counter) and where in the output it was written."""
        while self._pump(0):
            pass
        mark = len(self.raw)
        os.write(self.master, data)
        return time.perf_counter(), mark

    def wait(self, text: str, since: tuple[float, int] | None = None, timeout: float = 60) -> float:
        """Seconds from `since` (a send) until `text` is in what was written after it."""
        started, mark = since or (time.perf_counter(), len(self.raw))
        wanted = text.encode()
        while True:
            if wanted in _ANSI.sub(b"", self.raw[mark:]):
                return time.perf_counter() - started
            if time.perf_counter() - started > timeout:
                tail = _ANSI.sub(b"", self.raw[-3000:])
                raise TimeoutError(f"{text!r} not seen in {timeout}s; screen text: {tail!r}")
            self._pump(0.002)

    def quiet(self, text: str, seconds: float, timeout: float = 120) -> None:
        """Wait until `text` has not been written for `seconds`."""
        deadline = time.perf_counter() + timeout
        last = time.perf_counter()
        mark = len(self.raw)
        while time.perf_counter() - last < seconds:
            assert time.perf_counter() < deadline, f"{text!r} still written after {timeout}s"
            self._pump(0.05)
            if text.encode() in _ANSI.sub(b"", self.raw[mark:]):
                last, mark = time.perf_counter(), len(self.raw)

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.child.pid, signal.SIGTERM)
        deadline = time.perf_counter() + 10
        while self.child.poll() is None and time.perf_counter() < deadline:
            self._pump(0.05)
        if self.child.poll() is None:
            self.child.kill()
            self.child.wait()
        os.close(self.master)


def plant(source: Path, target: Path) -> tuple[str, str]:
    """Copy `source` with NEEDLE at the start of a Bash or Grep output 70% of the way down.
    Returns the text the output line shows once found, and the session's first prompt."""
    from claude_tui.core.content import prompt_text
    from claude_tui.core.loader import read_session
    from claude_tui.core.model import Kind

    session = read_session(source)
    calls = [c for c in session.calls.values() if c.name in ("Bash", "Grep") and c.result and c.result.span]
    call = calls[len(calls) * 7 // 10]
    assert call.result is not None and call.result.span is not None
    line_no = call.result.span.line_no
    first = next(m for m in session.visible() if m.kind is Kind.PROMPT)
    shown = ""
    with source.open("rb") as src, target.open("wb") as out:
        for number, line in enumerate(src, 1):
            if number == line_no:
                record = orjson.loads(line)
                for block in record["message"]["content"]:
                    if block.get("tool_use_id") == call.id:
                        text = block["content"] if isinstance(block["content"], str) else block["content"][0]["text"]
                        text = f"{NEEDLE} {text}"
                        shown = text.split("\n")[0][:40]
                        if isinstance(block["content"], str):
                            block["content"] = text
                        else:
                            block["content"][0]["text"] = text
                line = orjson.dumps(record) + b"\n"
            out.write(line)
    return shown, prompt_text(first)[:24]


def in_session(binary: str, session: Path, env: dict[str, str], scratch: Path) -> dict[str, float | list[float]]:
    """One run of the find bar in the session."""
    copy = scratch / "needle.jsonl"
    shown, prompt = plant(session, copy)
    empty = scratch / "no-history"
    empty.mkdir(exist_ok=True)
    term = Term([binary, str(copy), "--projects-dir", str(empty)], env)
    try:
        term.wait(prompt, timeout=60)
        term.quiet("reading ", 2.0)  # the whole file read (the header says how far while it reads)
        term.wait("text in this session", term.send(b"/"))
        echoes = []
        for i in range(1, len(NEEDLE) + 1):
            echoes.append(term.wait(NEEDLE[:i], term.send(NEEDLE[i - 1].encode())))
            time.sleep(0.08)
        term.wait("1 match", timeout=60)
        term.settle()
        after_count = term.wait(shown, term.send(b"\r"))
        term.wait("match 1 of 1")
        term.send(b"\x1b")  # close the bar; to the top; the bar again, the last key again and Enter at once
        term.settle()
        term.send(b"g")
        term.settle()
        term.send(b"/")
        term.settle()
        term.send(b"\x1b[F")  # End: the query is selected, so that typing replaces it
        term.settle()
        term.send(b"\x7f")
        term.settle()
        term.send(NEEDLE[-1].encode())
        at_once = term.wait(shown, term.send(b"\r"))
    finally:
        term.close()
    return {"echo_ms": [e * 1000 for e in echoes], "enter_ms": after_count * 1000, "enter_at_once_ms": at_once * 1000}


def expected(library: object, query: str) -> str | None:
    """The text of the first result's snippet around its first match, as the screen shows it."""
    from claude_tui.core.search import MARK_END, MARK_START
    from claude_tui.ui.screens.search import as_typed

    hits = library.search(as_typed(query), limit=1)  # type: ignore[attr-defined]
    if not hits:
        return None
    snippet = hits[0].snippet
    start = max(0, snippet.find(MARK_START))
    return snippet[start:].replace(MARK_START, "").replace(MARK_END, "")[:24]


def across(binary: str, history: Path, env: dict[str, str]) -> dict[str, list[float]]:
    """One run of the search screen over the history."""
    from claude_tui.core.library import Library

    library = Library([history], Path(env["CLAUDE_TUI_CACHE_DIR"]))
    term = Term([binary, "--projects-dir", str(history)], env)
    keys: list[float] = []
    bursts: list[float] = []
    try:
        term.wait("Msgs", timeout=60)
        term.settle(1.5)  # the index checked for changes (none)
        term.wait("Type to search", term.send(b"\x0b"))
        for word in WORDS:
            before = None
            for i in range(1, len(word) + 1):
                text = expected(library, word[:i])  # first, not while the app searches
                term.settle(0.3)  # a pause: this key searches at once
                sent = term.send(word[i - 1].encode())
                if text is not None and text != before:
                    keys.append(term.wait(text, sent) * 1000)
                before = text
            term.settle(0.3)
            term.wait("Type to search", term.send(b"\x15"))  # ctrl+u: the query cleared
            term.settle(0.3)
            text = expected(library, word)
            for char in word[:-1]:
                term.send(char.encode())
            sent = term.send(word[-1].encode())
            if text is not None:
                bursts.append(term.wait(text, sent) * 1000)
            term.settle(0.3)
            term.wait("Type to search", term.send(b"\x15"))
    finally:
        term.close()
    return {"key_ms": keys, "burst_ms": bursts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--session", type=Path, default=Path("/work/bench/big.jsonl"))
    parser.add_argument("--history", type=Path, default=Path("/work/bench/c1500"))
    parser.add_argument("--cache", type=Path, help="an index of --history already built (else one is built first)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    compile_package()
    binary = str(Path(sys.executable).parent / "claude-tui")
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        cache = args.cache or scratch / "index"
        env = dict(
            os.environ,
            TERM="xterm-256color",
            XDG_CACHE_HOME=str(scratch / "cache"),
            XDG_CONFIG_HOME=str(scratch / "config"),
            CLAUDE_TUI_CACHE_DIR=str(cache),
            COLUMNS=str(SIZE[0]),
            LINES=str(SIZE[1]),
        )
        if args.cache is None:
            print(f"indexing {args.history} into {cache} (not measured)...", flush=True)
            subprocess.run([binary, "index", "--projects-dir", str(args.history)], env=env, check=True)
        found, searched = [], []
        for run in range(args.runs):
            print(f"run {run + 1} of {args.runs}...", flush=True)
            found.append(in_session(binary, args.session, env, scratch))
            searched.append(across(binary, args.history, env))
        shutil.rmtree(scratch / "cache", ignore_errors=True)

    def row(label: str, values: list[float], target: float | None = None) -> None:
        values = sorted(values)
        verdict = "" if target is None else ("  ok" if statistics.median(values) < target else "  OVER")
        goal = f"< {target:.0f} ms" if target is not None else ""
        print(
            f"{label:52}{statistics.median(values):8.0f}{values[int(len(values) * 0.9)]:8.0f}{values[-1]:8.0f}"
            f"{goal:>12}{verdict}"
        )

    size = args.session.stat().st_size / 1e6
    print(f"\n{'ms':52}{'median':>8}{'p90':>8}{'max':>8}{'target':>12}")
    print(f"in {args.session.name} ({size:.0f} MB), word 70% of the way down, in a collapsed tool output:")
    row("  a key typed in the find bar, to its echo", [e for r in found for e in r["echo_ms"]])  # type: ignore[union-attr]
    row("  Enter (count shown) to the match on screen", [r["enter_ms"] for r in found], 300)  # type: ignore[misc]
    row("  Enter at once (search from the top) to the match", [r["enter_at_once_ms"] for r in found])  # type: ignore[misc]
    print(f"across {args.history.name} (index warm):")
    row("  a key after a pause, to its results on screen", [k for r in searched for k in r["key_ms"]], 100)
    row("  a word typed in one burst, from its last key", [k for r in searched for k in r["burst_ms"]])


if __name__ == "__main__":
    main()
