"""Write screenshots/*.svg of the demo history with App.save_screenshot (shown in the README).

    python scripts/screenshots.py [OUT_DIR]

The demo is copied to a temporary folder with old file times (so nothing shows as
live) and looked at with a frozen clock, so the pictures only change when the app does.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "claude_tui" / "demo"
MTIME = 1_776_000_000.0
NOW = "2026-04-22T10:00:00Z"

Step = Callable[[Any, Any], Awaitable[None]]


def demo_copy(folder: Path) -> Path:
    target = folder / "claude"
    shutil.copytree(DEMO / "projects", target / "projects")
    shutil.copytree(DEMO / "plans", target / "plans")
    for path in target.rglob("*"):
        os.utime(path, (MTIME, MTIME))
    return target / "projects"


async def wait(pilot: Any, ready: Callable[[], object]) -> None:
    for _ in range(2000):
        if ready():
            break
        await pilot.pause(0.01)
    await pilot.pause(0.1)


def conversation(app: Any) -> Any:
    from claude_tui.ui.widgets.conversation import ConversationView

    return app.screen.query_one(ConversationView)


async def browser_ready(pilot: Any, app: Any) -> None:
    await wait(pilot, lambda: app.state.projects and app.main.query_one("#projects").border_title == "Projects")
    await session_ready(pilot, app)


async def session_ready(pilot: Any, app: Any) -> None:
    view = conversation(app)
    await wait(pilot, lambda: not view.reading and view.entries)


def expand(test: Callable[[Any], bool], *, nth: int = 0) -> Step:
    async def step(pilot: Any, app: Any) -> None:
        view = conversation(app)
        index = [i for i, e in enumerate(view.entries) if test(e)][nth]
        view.select(index, top=True)
        view.set_expanded(view.entries[index], True)
        view.select(index, top=True)
        view.focus()

    return step


def keys(*names: str) -> Step:
    async def step(pilot: Any, app: Any) -> None:
        await pilot.press(*names)
        await pilot.pause(0.2)

    return step


async def shoot(
    out: Path,
    name: str,
    size: tuple[int, int],
    roots: list[Path],
    session: str | None,
    steps: list[Step],
    theme: str | None = None,
) -> None:
    from claude_tui.ui.app import ClaudeTUI
    from claude_tui.ui.clock import Clock
    from claude_tui.ui.config import Config

    path = next(roots[0].rglob(f"{session}*.jsonl")) if session else None
    config = Config(theme=theme) if theme else None
    app = ClaudeTUI(roots, session=path, clock=Clock.frozen(NOW), config=config)
    async with app.run_test(size=size) as pilot:
        await (session_ready if session else browser_ready)(pilot, app)
        for step in steps:
            await step(pilot, app)
        await pilot.pause(0.3)
        app.save_screenshot(str(out / f"{name}.svg"))
    print(f"{out / name}.svg")


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["XDG_CACHE_HOME"] = str(Path(folder) / "cache")
        os.environ["XDG_CONFIG_HOME"] = str(Path(folder) / "config")
        os.environ["COLORTERM"] = "truecolor"  # the theme's colours, whatever terminal runs this (not 16 of them)
        roots = [demo_copy(Path(folder))]
        edit = expand(lambda e: e.call is not None and e.call.name == "Edit", nth=1)
        shots: list[tuple[str, tuple[int, int], str | None, list[Step], str | None]] = [
            ("main-200x50", (200, 50), None, [keys("3")], None),
            ("main-80x24", (80, 24), None, [], None),
            ("reading-80x24", (80, 24), None, [keys("enter")], None),
            ("edit-diff", (140, 44), "67df", [edit], None),
            ("fork", (140, 44), "67df", [keys("f")], None),
            ("compaction", (140, 44), "da41", [expand(lambda e: e.kind == "summary"), keys("k", "k")], None),
            ("subagent", (140, 44), "67df", [expand(lambda e: e.call is not None and e.call.name == "Task")], None),
            (
                "errors",
                (140, 44),
                "dce61781",
                [keys("e"), expand(lambda e: e.call is not None and e.call.status == "error")],
                None,
            ),
            ("help", (140, 44), None, [keys("question_mark")], None),
            (
                "detail",
                (140, 44),
                "67df",
                [expand(lambda e: e.call is not None and e.call.name == "Edit"), keys("enter")],
                None,
            ),
            ("light", (140, 44), None, [keys("3")], "textual-light"),
            ("find", (140, 44), "67df", [keys("slash", *"deps.py"), keys("enter")], None),
            ("search", (140, 44), None, [keys("ctrl+k", *"deps")], None),
        ]
        for name, size, session, steps, theme in shots:
            await shoot(out, name, size, roots, session, steps, theme)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "screenshots"))
