"""Benchmark of the app (issue 4): paint times against a minimal Textual app, a 100 MB session.

    python tests/benchmarks/bench_app.py [--history DIR] [--session FILE] [--runs N] [--browser-only]

Defaults: /work/bench/c1500 (`make_corpus.py c1500 --sessions 1500 --projects 40 --scale 1000
--seed 11`) and /work/bench/big.jsonl (`make_corpus.py big.jsonl --one-session 100`).

Measured in one run, each whole process in a real pseudo-terminal of 200x50, from the spawn
to the moment the expected text is on the screen (median of N runs):

- a minimal Textual app that paints one word (the reference);
- the browser on the 1,500-session history with its index warm: the tree and the list painted;
- `claude-tui big.jsonl`: the first screen (its first prompt);
- peak memory of each (the child's largest resident set).

The package is byte-compiled first, as an installed one is. The machine should be idle:
the runs are interleaved so that load weighs on all alike, but the app uses two cores.

Then, in one headless process on the 100 MB session: reading it all, End to the last message
on screen, and the work of scrolling one page (paging through, drawing every line).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import re
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

from installed import compile_package

SIZE = (200, 50)
_ANSI = re.compile(rb"\x1b(?:\[[0-9;?<>=$ ]*[A-Za-z~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][A-Z0-9]|[=>78cDEHM])")

MINIMAL = """
from textual.app import App
from textual.widgets import Static

class Minimal(App):
    def compose(self):
        yield Static("paintedword")

Minimal().run()
"""


def in_pty(
    argv: list[str], markers: list[str], env: dict[str, str], quit_key: bytes, timeout: float = 60
) -> tuple[float, int]:
    """Seconds from spawn until every marker is on screen, and the child's peak RSS in MB."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    started = time.perf_counter()
    child = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, preexec_fn=_own_terminal
    )
    os.close(slave)
    wanted = [m.encode() for m in markers]
    raw = b""
    elapsed = None
    try:
        while elapsed is None:
            if time.perf_counter() - started > timeout:
                raise TimeoutError(f"{markers} not seen; screen text: {_ANSI.sub(b'', raw)[-2000:]!r}")
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    raw += os.read(master, 1 << 20)
                except OSError as exc:  # the child closed the terminal: it ended
                    raise RuntimeError(f"{argv} ended early; screen text: {_ANSI.sub(b'', raw)[-2000:]!r}") from exc
                text = _ANSI.sub(b"", raw)
                if all(m in text for m in wanted):
                    elapsed = time.perf_counter() - started
        time.sleep(0.3)
        os.write(master, quit_key)
        usage = _reap(child, master, deadline=time.perf_counter() + 10)
    finally:
        if child.returncode is None:
            child.kill()
            usage = _reap(child, master, deadline=time.perf_counter() + 10)
        os.close(master)
    return elapsed, round(usage.ru_maxrss / 1024)


def _own_terminal() -> None:
    """In the child: make the pty its controlling terminal, so that closing it hangs the child up."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _reap(child: subprocess.Popen[bytes], master: int, deadline: float) -> os.struct_rusage:  # type: ignore[name-defined]
    """Wait for the child (draining its output), and return its resource usage."""
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            child.returncode = status
            return usage
        if time.perf_counter() > deadline:
            child.kill()
        if select.select([master], [], [], 0.05)[0]:
            with contextlib.suppress(OSError):
                os.read(master, 1 << 20)


def browser_markers(history: Path) -> list[str]:
    """The newest project's name and its newest session's title, as the tree and the list show them."""
    from claude_tui.core.library import Library
    from claude_tui.ui.widgets.sessions import title_of

    library = Library([history])
    library.refresh()
    project = library.projects[0]
    newest = max((s for s in project.sessions if not (s.empty or s.warmup)), key=lambda s: s.last_activity)
    return [project.name, title_of(newest)[:12], "Msgs"]


def first_prompt(session: Path) -> str:
    from claude_tui.core.content import prompt_text
    from claude_tui.core.model import Kind
    from claude_tui.core.tail import SessionTail

    tail = SessionTail(session)
    tail.poll(1 << 20)
    prompt = next(m for m in tail.session.visible() if m.kind is Kind.PROMPT)
    return prompt_text(prompt)[:24]


# ---------------------------------------------------------------- in-app measurements (child process)


def child_session(session: Path, out: Path) -> None:
    """Open `session` headless; write how long reading, End and paging take."""
    import resource

    from claude_tui.ui.app import ClaudeTUI
    from claude_tui.ui.widgets.conversation import ConversationView

    class Quiet:
        projects: list[object] = []  # noqa: RUF012
        notices: list[str] = []  # noqa: RUF012

        def reload(self) -> None: ...

        def refresh(self, progress: object = None) -> None: ...

    results: dict[str, object] = {}
    started = time.perf_counter()

    async def auto(pilot) -> None:  # type: ignore[no-untyped-def]
        app = pilot.app
        while not app.screen.query(ConversationView):
            await pilot.pause(0.001)
        view = app.screen.query_one(ConversationView)
        while not view.entries or not view.rows.starts[-1]:
            await pilot.pause(0.001)
        results["first_screen_in_process_s"] = time.perf_counter() - started
        while view.reading:
            await pilot.pause(0.005)
        results["read_all_s"] = time.perf_counter() - started
        results["messages"] = len(view.messages)
        results["entries"] = len(view.entries)
        results["lines"] = view.rows.starts[-1]
        await pilot.press("g")
        await pilot.pause()
        t0 = time.perf_counter()
        await pilot.press("end")
        await pilot.pause()
        results["end_s"] = time.perf_counter() - t0
        last = len(view.entries) - 1
        assert view.cursor_index == last and view.scroll_offset.y == view.max_scroll_y
        assert view.entries[last].message is view.messages[-1] or view.entries[last].depth == 0
        await pilot.press("g")
        await pilot.pause()
        height = view.size.height
        works = []
        for _ in range(300):
            t0 = time.perf_counter()
            view.action_page(1)
            for y in range(height):
                view.render_line(y)
            works.append((time.perf_counter() - t0) * 1000)
        works.sort()
        results["page_ms_median"] = statistics.median(works)
        results["page_ms_p95"] = works[int(len(works) * 0.95)]
        results["page_ms_max"] = works[-1]
        results["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        app.exit()

    app = ClaudeTUI([session.parent], session=session, library=Quiet())  # type: ignore[arg-type]
    app.run(headless=True, size=SIZE, auto_pilot=auto)
    out.write_text(json.dumps(results))


# ---------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--history", type=Path, default=Path("/work/bench/c1500"))
    parser.add_argument("--session", type=Path, default=Path("/work/bench/big.jsonl"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--browser-only", action="store_true", help="only the minimal app and the browser")
    parser.add_argument("--child-session", nargs=2, metavar=("SESSION", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_session:
        child_session(Path(args.child_session[0]), Path(args.child_session[1]))
        return

    binary = str(Path(sys.executable).parent / "claude-tui")
    compile_package()
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(
            os.environ,
            TERM="xterm-256color",
            XDG_CACHE_HOME=f"{scratch}/cache",
            XDG_CONFIG_HOME=f"{scratch}/config",
            COLUMNS=str(SIZE[0]),
            LINES=str(SIZE[1]),
        )
        os.environ["XDG_CACHE_HOME"] = env["XDG_CACHE_HOME"]
        minimal = Path(scratch) / "minimal.py"
        minimal.write_text(MINIMAL)
        print(f"indexing {args.history} (not measured)...", flush=True)
        markers = browser_markers(args.history)
        prompt = None if args.browser_only else first_prompt(args.session)

        # interleave the runs, so that a busy moment of the machine weighs on all of them alike
        reference, browser, opening = [], [], []
        for _ in range(args.runs):
            reference.append(in_pty([sys.executable, str(minimal)], ["paintedword"], env, b"\x11"))
            browser.append(in_pty([binary, "--projects-dir", str(args.history)], markers, env, b"q"))
            if prompt is not None:
                opening.append(in_pty([binary, str(args.session)], [prompt], env, b"q"))
        ref = statistics.median(r[0] for r in reference)
        rows = [
            ("minimal Textual app, one word", reference),
            ("browser, 1,500 sessions indexed: tree + list", browser),
            (f"open {args.session.name} ({args.session.stat().st_size / 1e6:.0f} MB): first screen", opening),
        ]
        print(f"\n{'':58}{'median':>9}{'x minimal':>11}{'best':>8}{'x minimal':>11}{'peak RSS':>10}")
        best_ref = min(r[0] for r in reference)
        for label, results in rows[: 3 if opening else 2]:
            value = statistics.median(r[0] for r in results)
            best = min(r[0] for r in results)
            peak = max(r[1] for r in results)
            times = f"{value * 1000:7.0f}ms{value / ref:10.2f}x{best * 1000:6.0f}ms{best / best_ref:10.2f}x"
            print(f"{label:58}{times}{peak:8d}MB")
        if args.browser_only:
            return

        out = Path(scratch) / "session.json"
        subprocess.run([sys.executable, __file__, "--child-session", str(args.session), str(out)], check=True, env=env)
        found = json.loads(out.read_text())
        print(
            f"\n{args.session.name}: {found['messages']:,} messages, {found['entries']:,} entries, "
            f"{found['lines']:,} lines (headless, in one process)"
        )
        print(f"  first screen (in process)   {found['first_screen_in_process_s'] * 1000:7.0f} ms")
        print(f"  whole file read             {found['read_all_s'] * 1000:7.0f} ms")
        print(f"  End -> last message shown   {found['end_s'] * 1000:7.1f} ms")
        print(
            f"  one page of scrolling       {found['page_ms_median']:7.2f} ms median, "
            f"{found['page_ms_p95']:.2f} ms p95, {found['page_ms_max']:.2f} ms max (300 pages)"
        )
        print(f"  peak memory                 {found['peak_rss_mb']:7.0f} MB")


if __name__ == "__main__":
    main()
