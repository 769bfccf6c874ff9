"""Benchmark of the hostile file (tests/hostile.py): a 30 MB output line, a 2 MB image, damaged lines.

    python tests/benchmarks/bench_hostile.py [--runs N]

What the UI tests check for behaviour, measured here for time, each against a reference taken in the same run:

- reading the file into a Session, against a bare orjson loop over its lines;
- reading a 30 MB output back whole from the file, against reading the file's bytes;
- in one headless app: the first entries drawn and the whole file drawn (from `run_test`'s start); space on the
  30 MB call, Enter (its detail screen) and `G g j j k`, each against as many keys bound to nothing (the
  cost of the key presses themselves).

Medians of N runs; the machine should be idle.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hostile import SESSION_ID, write_hostile

from claude_tui.core.loader import read_session
from claude_tui.core.source import full_output

SIZE = (160, 50)


def bare_loop(path: Path) -> int:
    """The parse floor: every line through orjson, the bad ones skipped."""
    count = 0
    with open(path, "rb") as f:
        for line in f:
            try:
                orjson.loads(line)
                count += 1
            except orjson.JSONDecodeError:
                pass
    return count


def timed(job: Callable[[], object]) -> float:
    started = time.perf_counter()
    job()
    return time.perf_counter() - started


async def in_app(path: Path) -> dict[str, float]:
    """Seconds of each step in one headless app on `path`."""
    from claude_tui.ui.app import ClaudeTUI
    from claude_tui.ui.screens.detail import DetailScreen
    from claude_tui.ui.widgets.conversation import ConversationView

    class Quiet:
        projects: list[object] = []  # noqa: RUF012
        notices: list[str] = []  # noqa: RUF012

        def reload(self) -> None: ...

        def refresh(self, progress: object = None) -> None: ...

    async def until(pilot, done: Callable[[], object]) -> None:  # type: ignore[no-untyped-def]
        while not done():
            await pilot.pause(0.001)

    found: dict[str, float] = {}
    app = ClaudeTUI([path.parent.parent], session=path, library=Quiet())  # type: ignore[arg-type]
    started = time.perf_counter()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.query(ConversationView))
        view = app.screen.query_one(ConversationView)
        await until(pilot, lambda: view.entries)
        found["first entries"] = time.perf_counter() - started
        await until(pilot, lambda: not view.reading)
        found["whole file drawn"] = time.perf_counter() - started
        huge = next(i for i, e in enumerate(view.entries) if e.call is not None and e.call.id == "toolu_huge")
        view.select(huge)
        await pilot.pause()
        t0 = time.perf_counter()
        await pilot.press("f12")
        found["reference: a key bound to nothing"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        await pilot.press("space")
        found["space on the 30 MB output"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DetailScreen))
        await pilot.pause()
        found["enter: its detail screen"] = time.perf_counter() - t0
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, DetailScreen))
        t0 = time.perf_counter()
        await pilot.press(*["f12"] * 5)
        found["reference: five keys bound to nothing"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        await pilot.press("G", "g", "j", "j", "k")
        found["G g j j k"] = time.perf_counter() - t0
        assert view.cursor_index == 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "projects" / "-home-u-hostile" / f"{SESSION_ID}.jsonl"
        write_hostile(path)
        size_mb = path.stat().st_size / 1e6
        session = read_session(path)
        huge = session.calls["toolu_huge"]
        runs: dict[str, list[float]] = {}
        for _ in range(args.runs):
            steps = {
                "reference: bare orjson loop": timed(lambda: bare_loop(path)),
                "read_session": timed(lambda: read_session(path)),
                "reference: read the file's bytes": timed(path.read_bytes),
                "full_output of the 30 MB call": timed(lambda: full_output(str(path), huge)),
                **asyncio.run(in_app(path)),
            }
            for label, seconds in steps.items():
                runs.setdefault(label, []).append(seconds)
    median = {label: statistics.median(times) for label, times in runs.items()}
    print(f"hostile file: {size_mb:.1f} MB, {len(session.messages)} messages, median of {args.runs} runs\n")
    references = {
        "read_session": "reference: bare orjson loop",
        "full_output of the 30 MB call": "reference: read the file's bytes",
        "space on the 30 MB output": "reference: a key bound to nothing",
        "enter: its detail screen": "reference: a key bound to nothing",
        "G g j j k": "reference: five keys bound to nothing",
    }
    for label, seconds in median.items():
        ratio = f"{seconds / median[references[label]]:8.2f}x" if label in references else ""
        print(f"  {label:40}{seconds * 1000:9.1f} ms{ratio}")


if __name__ == "__main__":
    main()
