"""Benchmark of following live sessions (issue 5): latency, a 20,000-record soak, new sessions, idle CPU.

    python tests/benchmarks/bench_live.py [--history DIR] [--records N] [--only PHASE ...]

Each phase runs in its own process. The app runs headless in it (App.run_test); a writer in
another process appends to a session file as Claude Code does (one write per record, or two
for a record split mid-line):

- latency: the app follows the session (`--follow SESSION`) while the writer appends 400 records
  at about 25 a second, every other one in two pieces 20 ms apart. Per record, the time from its
  newline reaching the file to its message drawn on screen (a hook on the conversation's
  render_line; both processes read CLOCK_MONOTONIC). Targets: p50 < 50 ms, p95 < 150 ms.
- latency-long: the same, following a session that already holds 60,000 messages.
- burst-latency: the same at 1,000 records a second for 10 s (every other record split, no pause).
- soak: the writer appends 20,000 records at full speed (prompts, answers streamed in chunks,
  tool calls and their results; every other record split mid-line). Then the model must hold
  exactly the file's records, none lost or doubled (compared with a one-shot read of the file),
  and every key press (sent from another thread every 20 ms, as a terminal's input thread
  does, alternating k, which pauses following, and End, which resumes it) must have been
  answered, its action run and the next frame drawn, within 100 ms.
- burst: the same at 1,000 records a second for 10 s (a key every 100 ms).
- tree: the browser on the history plus a scratch root; projects and sessions written to the
  scratch root, and the time until the tree (a project) or the list (a session) shows them.
  Target: under 0.5 s.
- idle: `claude-tui --projects-dir HISTORY` in a real pseudo-terminal, left alone, its CPU time
  over 20 s from /proc (all its threads, the watcher's too), against a minimal Textual app's.
  Target: under 1% of a core.

The history (default /work/bench/c1500: 1,500 sessions, 1.2 GB) is also a root in the phases
that follow a session, so that the library's refreshes weigh on them as on a real user's. Its
index is built once in the cache folder (not measured).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import json
import os
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path
from typing import Any

SIZE = (160, 50)
PHASES = ["latency", "latency-long", "burst-latency", "soak", "burst", "tree", "idle"]

WRITER = r"""
import os, random, sys, time
import orjson

path, count, rate, mode, log, gap, prefix = sys.argv[1:8]
count, rate, gap = int(count), float(rate), float(gap)
rng = random.Random(7)
WORDS = ("the a to of and in that it is for on with as was this be by are or at from not but which have "
         "file test function value error module import return class config path index session record").split()
MODEL = "claude-sonnet-4-5-20250929"
USAGE = {"input_tokens": 3, "output_tokens": 20, "cache_read_input_tokens": 900, "cache_creation_input_tokens": 40}
sid = os.path.basename(path)[:-6]
state = {"parent": None, "n": 0}

def words(n):
    return " ".join(rng.choice(WORDS) for _ in range(n))

def rec(kind, message, **extra):
    state["n"] += 1
    uuid = f"{prefix}-{state['n']:06d}"
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + ".000Z"
    record = {"parentUuid": state["parent"], "isSidechain": False, "userType": "external", "cwd": "/home/dev/live",
              "sessionId": sid, "version": "2.1.9", "gitBranch": "main", "type": kind, "uuid": uuid,
              "timestamp": stamp, "message": message, **extra}
    state["parent"] = uuid
    return uuid, record

def answer(mid, block):
    return rec("assistant", {"id": mid, "model": MODEL, "role": "assistant", "type": "message", "content": [block],
                             "stop_reason": None, "usage": USAGE})

def plain(i):
    if i % 2 == 0:
        return [rec("user", {"role": "user", "content": words(25)})]
    return [answer(f"{prefix}-msg-{i}", {"type": "text", "text": words(80)})]

def turn(i):
    tid = f"{prefix}-toolu-{i}"
    return [
        rec("user", {"role": "user", "content": words(30)}),
        answer(f"{prefix}-msg-{i}", {"type": "thinking", "thinking": words(60), "signature": "x"}),
        answer(f"{prefix}-msg-{i}", {"type": "text", "text": words(40)}),
        answer(f"{prefix}-msg-{i}", {"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": words(6)}}),
        rec("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tid, "content": words(120)}]},
            toolUseResult={"stdout": words(120), "stderr": "", "interrupted": False}),
        answer(f"{prefix}-msg-{i}b", {"type": "text", "text": words(50)}),
    ]

records = []
i = 0
while len(records) < count:
    records += plain(i) if mode == "plain" else turn(i)
    i += 1
records = records[:count]
fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
times = {}
start = time.monotonic()
for n, (uuid, record) in enumerate(records):
    if rate:
        delay = start + n / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    line = orjson.dumps(record) + b"\n"
    if n % 2:  # every other record in two pieces, split mid-line
        half = len(line) // 2
        os.write(fd, line[:half])
        if gap:
            time.sleep(gap)
        os.write(fd, line[half:])
    else:
        os.write(fd, line)
    times[uuid] = time.monotonic()
os.close(fd)
with open(log, "w") as f:
    f.write(orjson.dumps({"start": start, "end": time.monotonic(), "times": times}).decode())
"""

MINIMAL = """
from textual.app import App
from textual.widgets import Static

class Minimal(App):
    def compose(self):
        yield Static("paintedword")

Minimal().run()
"""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


async def settle(predicate: Any, timeout: float = 60.0, step: float = 0.005) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the app did not settle")
        await asyncio.sleep(step)


def write_records(path: Path, count: int, rate: float, mode: str, log: Path, gap: float, prefix: str) -> list[str]:
    return [sys.executable, "-c", WRITER, str(path), str(count), str(rate), mode, str(log), str(gap), prefix]


# ---------------------------------------------------------------- following (latency, soak, burst)


class Probe:
    """Key presses from another thread, as a terminal's input thread sends them; each one's answer."""

    def __init__(self, app: Any, view: Any, every: float) -> None:
        self.app, self.view, self.every = app, view, every
        self.stop = threading.Event()
        self.answered: list[float] = []  #: seconds from the key to the first frame after its action
        self.unanswered = 0  #: keys with no action and frame within 2 s
        self._current: dict[str, float] | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def hook(self) -> None:
        """Note when the keys' actions run and when the next frame after them is drawn."""
        view = self.view
        for name in ("action_cursor", "action_last"):
            original = getattr(view, name)

            def acted(*args: Any, _original: Any = original) -> Any:
                probe = self._current
                if probe is not None and "acted" not in probe:
                    probe["acted"] = time.monotonic()
                return _original(*args)

            setattr(view, name, acted)
        display = self.app._display

        def frame(screen: Any, update: Any) -> None:
            display(screen, update)
            probe = self._current
            if update is not None and probe is not None and "acted" in probe and "framed" not in probe:
                probe["framed"] = time.monotonic()
                self._done.set()

        self.app._display = frame

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        from textual import events

        driver = self.app._driver
        while not self.stop.is_set():
            key = "k" if self.view.follow else "end"
            self._done.clear()
            probe = {"t0": time.monotonic()}
            self._current = probe
            event = events.Key(key, "k" if key == "k" else None)
            event.set_sender(self.app)
            driver.send_message(event)
            if self._done.wait(2.0):
                self.answered.append(probe["framed"] - probe["t0"])
            else:
                self.unanswered += 1
            self._current = None
            time.sleep(self.every)

    async def finish(self) -> None:
        self.stop.set()
        await asyncio.to_thread(self._thread.join, 5)


def describe(session: Any) -> list[tuple[Any, ...]]:
    """What a model holds, to compare two: per message its uuid, kind, blocks, calls' results, chunks."""
    rows = []
    for m in session.messages:
        calls = tuple((b.call.id, b.call.status) for b in m.blocks if b.call is not None)
        rows.append((m.uuid, m.kind.value, len(m.blocks), m.message_id, calls, len(m.extra_spans or ())))
    return rows


def follow_phase(
    history: Path | None, count: int, rate: float, mode: str, gap: float, probe_every: float, seed: int = 4
) -> dict:
    from claude_tui.core.library import Library
    from claude_tui.core.reader import Reader
    from claude_tui.core.session import Session
    from claude_tui.ui.app import ClaudeTUI
    from claude_tui.ui.widgets.conversation import ConversationView

    out: dict[str, Any] = {}
    visible: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="bench-live-") as scratch_dir:
        scratch = Path(scratch_dir)
        root = scratch / "projects"
        path = root / "-home-dev-live" / "5a1e0000-0000-4000-8000-000000000001.jsonl"
        path.parent.mkdir(parents=True)
        log = scratch / "writer.json"
        subprocess.run(write_records(path, seed, 0, "plain", scratch / "seed.json", 0, "seed"), check=True)
        roots = [root, *([history] if history else [])]
        app = ClaudeTUI(roots, session=path, follow=True, library=Library(roots))

        async def run() -> None:
            async with app.run_test(size=SIZE) as pilot:
                view = app.screen.query_one(ConversationView)
                await settle(lambda: view.entries and not view.reading and app.state.projects)
                await pilot.pause(1.0)  # the library read, the first screen drawn
                original = view.render_line

                def render_line(y: int) -> Any:
                    index = view.rows.entry_at(view.scroll_offset.y + y)
                    if index is not None:
                        uuid = view.entries[index].message.uuid
                        if uuid is not None and uuid not in visible:
                            visible[uuid] = time.monotonic()
                    return original(y)

                view.render_line = render_line  # type: ignore[method-assign]
                probe = Probe(app, view, probe_every)
                if probe_every:
                    probe.hook()
                    probe.start()
                writer = subprocess.Popen(write_records(path, count, rate, mode, log, gap, "live"))
                started = time.monotonic()
                while writer.poll() is None:
                    await asyncio.sleep(0.05)
                size = path.stat().st_size
                tail = view.tail
                await settle(lambda: tail.reader.offset == size and not view.reading, timeout=120)
                out["caught_up_s"] = time.monotonic() - started
                if probe_every:
                    await probe.finish()
                    out["keys"] = len(probe.answered)
                    out["keys_unanswered"] = probe.unanswered
                    out["key_p50_ms"] = statistics.median(probe.answered) * 1000
                    out["key_p99_ms"] = pct(probe.answered, 0.99) * 1000
                    out["key_max_ms"] = max(probe.answered) * 1000
                await pilot.press("end")
                await pilot.pause(0.3)
                final = Session.from_lines(Reader(str(path)).read_all()[1], path)
                with view.session_lock:
                    session = view.session
                    out["same_model"] = describe(session) == describe(final)
                    out["records_file"] = final.records
                    out["records_model"] = session.records
                    out["messages"] = len(session.messages)
                    out["doubled"] = len(session.messages) - len({m.uuid for m in session.messages})
                out["shown_last"] = view.messages[-1].uuid == final.visible()[-1].uuid
                out["at_end"] = view.scroll_offset.y == view.max_scroll_y
                app.exit()

        asyncio.run(run())
        written = json.loads(log.read_text())
    out["write_s"] = written["end"] - written["start"]
    out["records_written"] = len(written["times"])
    latencies = [visible[u] - t for u, t in written["times"].items() if u in visible]
    out["seen"] = len(latencies)
    if latencies:
        out["latency_p50_ms"] = statistics.median(latencies) * 1000
        out["latency_p95_ms"] = pct(latencies, 0.95) * 1000
        out["latency_max_ms"] = max(latencies) * 1000
    return out


# ---------------------------------------------------------------- new projects and sessions in the tree


def write_session(path: Path, cwd: str, prompt: str) -> None:
    """A new session file with a prompt and its answer, appended as Claude Code appends."""
    path.parent.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    base = {"isSidechain": False, "cwd": cwd, "sessionId": path.stem, "version": "2.1.9", "timestamp": stamp}
    lines = [
        {**base, "type": "user", "uuid": f"{path.stem}-1", "parentUuid": None,
         "message": {"role": "user", "content": prompt}},
        {**base, "type": "assistant", "uuid": f"{path.stem}-2", "parentUuid": f"{path.stem}-1",
         "message": {"id": f"{path.stem}-m", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
                     "content": [{"type": "text", "text": "on it"}], "usage": {"output_tokens": 2}}},
    ]  # fmt: skip
    with path.open("ab") as f:
        f.write(b"".join(json.dumps(line).encode() + b"\n" for line in lines))


def tree_phase(history: Path | None, rounds: int) -> dict:
    from claude_tui.core.library import Library
    from claude_tui.ui.app import ClaudeTUI
    from claude_tui.ui.widgets.projects import ProjectTree
    from claude_tui.ui.widgets.sessions import SessionList

    projects: list[float] = []
    sessions: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-tree-") as scratch:
        root = Path(scratch) / "projects"
        root.mkdir()
        roots = [*([history] if history else []), root]
        app = ClaudeTUI(roots, library=Library(roots))

        async def run() -> None:
            async with app.run_test(size=SIZE) as pilot:
                tree = app.screen.query_one(ProjectTree)
                listed = app.screen.query_one(SessionList)
                await settle(lambda: tree.border_title == "Projects" and app.state.projects)
                await pilot.pause(1.0)
                for i in range(rounds):
                    name = f"fresh-project-{i}"
                    folder = root / f"-home-dev-{name}"
                    started = time.monotonic()
                    write_session(folder / f"p{i}.jsonl", f"/home/dev/{name}", f"start {name}")
                    await settle(lambda n=name: any(n in str(node.label) for node in tree.root.children), 10, 0.002)
                    projects.append(time.monotonic() - started)
                    await pilot.pause(0.3)
                    tree.move_cursor(next(n for n in tree.root.children if name in str(n.label)))
                    await settle(lambda n=name: listed.shown and n in listed.shown[0].project, 10)
                    await pilot.pause(0.3)
                    started = time.monotonic()
                    write_session(folder / f"s{i}.jsonl", f"/home/dev/{name}", f"second session {i}")
                    await settle(lambda i=i: any(s.title == f"second session {i}" for s in listed.shown), 10, 0.002)
                    sessions.append(time.monotonic() - started)
                    await pilot.pause(0.5)
                app.exit()

        asyncio.run(run())
    return {
        "rounds": rounds,
        "project_median_ms": statistics.median(projects) * 1000,
        "project_max_ms": max(projects) * 1000,
        "session_median_ms": statistics.median(sessions) * 1000,
        "session_max_ms": max(sessions) * 1000,
    }


# ---------------------------------------------------------------- idle CPU (a real process in a pty)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime, all threads


def idle_cpu(argv: list[str], marker: bytes, env: dict[str, str], settle_s: float, measure_s: float) -> float:
    """Percent of one core a process used over `measure_s`, once `marker` was on screen and it settled."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    seen = bytearray()
    stop = threading.Event()

    def drain() -> None:  # a terminal reads what the app writes, or the app blocks
        while not stop.is_set():
            if select.select([master], [], [], 0.1)[0]:
                with contextlib.suppress(OSError):
                    seen.extend(os.read(master, 1 << 20))

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60
        while marker not in seen:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{marker!r} never appeared")
            time.sleep(0.05)
        time.sleep(settle_s)
        before, started = _cpu_seconds(child.pid), time.monotonic()
        time.sleep(measure_s)
        used = _cpu_seconds(child.pid) - before
        return 100 * used / (time.monotonic() - started)
    finally:
        child.kill()
        child.wait()
        stop.set()
        reader.join(1)
        os.close(master)


# ---------------------------------------------------------------- main


def run_phase(name: str, args: argparse.Namespace) -> dict:
    history = args.history if args.history.is_dir() else None
    if name == "latency":
        return follow_phase(history, 400, 25.0, "plain", 0.02, probe_every=0)
    if name == "latency-long":
        return follow_phase(history, 400, 25.0, "plain", 0.02, probe_every=0, seed=60_000)
    if name == "burst-latency":
        return follow_phase(history, 10_000, 1000.0, "plain", 0.0, probe_every=0)
    if name == "soak":
        return follow_phase(history, args.records, 0.0, "mixed", 0.0, probe_every=0.02)
    if name == "burst":
        return follow_phase(history, 10_000, 1000.0, "mixed", 0.0, probe_every=0.1)
    if name == "tree":
        return tree_phase(history, 5)
    raise ValueError(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--history", type=Path, default=Path("/work/bench/c1500"))
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "claude-tui-bench-live-cache")
    parser.add_argument("--only", nargs="+", choices=PHASES)
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument("--phase", help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ["CLAUDE_TUI_CACHE_DIR"] = str(args.cache)
    if args.phase:
        print(json.dumps(run_phase(args.phase, args)))
        return
    phases = args.only or PHASES
    if args.history.is_dir():
        from claude_tui.core.library import Library

        print(f"indexing {args.history} into {args.cache} (not measured)...", flush=True)
        Library([args.history]).refresh()
    results: dict[str, dict] = {}
    for name in phases:
        if name == "idle":
            continue
        print(f"{name}...", flush=True)
        argv = [sys.executable, __file__, "--phase", name, "--history", str(args.history), "--records",
                str(args.records), "--cache", str(args.cache)]  # fmt: skip
        done = subprocess.run(argv, check=True, capture_output=True, text=True)
        results[name] = json.loads(done.stdout.strip().splitlines()[-1])
    if "idle" in phases and args.history.is_dir():
        print("idle...", flush=True)
        env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(SIZE[0]), LINES=str(SIZE[1]))
        with tempfile.TemporaryDirectory() as scratch:
            minimal = Path(scratch) / "minimal.py"
            minimal.write_text(MINIMAL)
            binary = str(Path(sys.executable).parent / "claude-tui")
            results["idle"] = {
                "app_pct": idle_cpu([binary, "--projects-dir", str(args.history)], b"Msgs", env, 5, args.idle_seconds),
                "minimal_pct": idle_cpu([sys.executable, str(minimal)], b"paintedword", env, 2, args.idle_seconds),
            }
    report(results, args)


def same(r: dict) -> None:
    ok = r["same_model"] and r["records_model"] == r["records_file"] and not r["doubled"]
    print(f"  model = one-shot read of the file: {'yes' if ok else 'NO'} ({r['records_model']:,} of "
          f"{r['records_file']:,} records, {r['messages']:,} messages, {r['doubled']} doubled; "
          f"newest message shown: {r['shown_last']}, view at the end: {r['at_end']})")  # fmt: skip


def report(results: dict[str, dict], args: argparse.Namespace) -> None:
    print(f"\nclaude-tui live benchmark · history {args.history} · {os.cpu_count()} cores")
    if "latency" in results:
        r = results["latency"]
        print(f"\nlatency: {r['records_written']} records at 25/s, every other one split mid-line 20 ms apart")
        print(f"  newline to screen  p50 {r['latency_p50_ms']:6.1f} ms  (target < 50)")
        print(f"                     p95 {r['latency_p95_ms']:6.1f} ms  (target < 150)")
        print(f"                     max {r['latency_max_ms']:6.1f} ms;  {r['seen']}/{r['records_written']} seen")
        same(r)
    if "latency-long" in results:
        r = results["latency-long"]
        print(f"\nlatency-long: the same, the session holding {r['messages'] - r['records_written']:,} messages before")
        print(f"  newline to screen  p50 {r['latency_p50_ms']:6.1f} ms, p95 {r['latency_p95_ms']:6.1f} ms, "
              f"max {r['latency_max_ms']:6.1f} ms (targets < 50, < 150)")  # fmt: skip
        same(r)
    if "burst-latency" in results:
        r = results["burst-latency"]
        print(f"\nburst-latency: {r['records_written']:,} records at 1,000/s, every other one split mid-line")
        print(f"  newline to screen  p50 {r['latency_p50_ms']:6.1f} ms, p95 {r['latency_p95_ms']:6.1f} ms, "
              f"max {r['latency_max_ms']:6.1f} ms ({r['seen']:,} records drawn; the others scrolled past between "
              "two frames)")  # fmt: skip
        same(r)
    for name, label in (("soak", "soak: at full speed"), ("burst", "burst: at 1,000 records/s")):
        if name not in results:
            continue
        r = results[name]
        print(f"\n{label}: {r['records_written']:,} records written in {r['write_s']:.2f} s, all on screen "
              f"{r['caught_up_s']:.2f} s after the writer started")  # fmt: skip
        same(r)
        print(f"  key presses answered (action + next frame): {r['keys']} keys, p50 {r['key_p50_ms']:.1f} ms, "
              f"p99 {r['key_p99_ms']:.1f} ms, max {r['key_max_ms']:.1f} ms (target < 100); "
              f"unanswered {r['keys_unanswered']}")  # fmt: skip
    if "tree" in results:
        r = results["tree"]
        print(f"\ntree: {r['rounds']} new projects and {r['rounds']} new sessions beside the history")
        print(f"  new project in the tree  median {r['project_median_ms']:.0f} ms, max {r['project_max_ms']:.0f} ms"
              " (target < 500)")  # fmt: skip
        print(f"  new session in the list  median {r['session_median_ms']:.0f} ms, max {r['session_max_ms']:.0f} ms"
              " (target < 500)")  # fmt: skip
    if "idle" in results:
        r = results["idle"]
        print(f"\nidle, watching the history ({args.idle_seconds:.0f} s, a real process in a pty):")
        print(f"  claude-tui            {r['app_pct']:.2f}% of a core (target < 1%)")
        print(f"  minimal Textual app   {r['minimal_pct']:.2f}% of a core (reference)")


if __name__ == "__main__":
    main()
