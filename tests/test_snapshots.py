"""How the app looks, at fixed terminal sizes with a frozen clock (pytest-textual-snapshot).

Regenerate after a deliberate change: pytest tests/test_snapshots.py --snapshot-update
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from ui_support import CLOCK, browser_ready, demo, demo_copy, index_of, loaded, session_app, settled

from claude_tui.ui.app import ClaudeTUI

SIZE = (140, 40)


@pytest.fixture
def browser_app(tmp_path: Path) -> ClaudeTUI:
    return ClaudeTUI([demo_copy(tmp_path)], clock=CLOCK)


def after(*steps: Callable[[Any, ClaudeTUI], Awaitable[None]]) -> Callable[[ClaudeTUI], Any]:
    """A run_before for snap_compare that performs `steps` on the app once it is ready."""

    def bind(app: ClaudeTUI) -> Callable[[Any], Awaitable[None]]:
        async def run(pilot: Any) -> None:
            for step in steps:
                await step(pilot, app)
            await pilot.pause()

        return run

    return bind


async def _browser(pilot: Any, app: ClaudeTUI) -> None:
    await browser_ready(pilot, app)


async def _session(pilot: Any, app: ClaudeTUI) -> None:
    await loaded(pilot, app)


def _expand(test: Callable[[Any], bool]) -> Callable[[Any, ClaudeTUI], Awaitable[None]]:
    async def step(pilot: Any, app: ClaudeTUI) -> None:
        view = await loaded(pilot, app)
        index = index_of(view, test)
        view.select(index, top=True)
        view.set_expanded(view.entries[index], True)
        view.select(index, top=True)

    return step


def _keys(*keys: str) -> Callable[[Any, ClaudeTUI], Awaitable[None]]:
    async def step(pilot: Any, app: ClaudeTUI) -> None:
        await pilot.press(*keys)

    return step


def test_main_screen(snap_compare: Any, browser_app: ClaudeTUI) -> None:
    assert snap_compare(browser_app, terminal_size=SIZE, run_before=after(_browser)(browser_app))


def test_main_screen_80x24(snap_compare: Any, browser_app: ClaudeTUI) -> None:
    assert snap_compare(browser_app, terminal_size=(80, 24), run_before=after(_browser)(browser_app))


def test_edit_diff(snap_compare: Any) -> None:
    app = session_app(demo("67df"))
    step = _expand(lambda e: e.call is not None and e.call.name == "Edit")
    assert snap_compare(app, terminal_size=SIZE, run_before=after(step)(app))


def test_fork(snap_compare: Any) -> None:
    app = session_app(demo("67df"))
    assert snap_compare(app, terminal_size=SIZE, run_before=after(_session, _keys("f"))(app))


def test_compaction(snap_compare: Any) -> None:
    app = session_app(demo("da41"))
    step = _expand(lambda e: e.kind == "summary")
    assert snap_compare(app, terminal_size=SIZE, run_before=after(step, _keys("k", "k"))(app))


def test_subagent(snap_compare: Any) -> None:
    app = session_app(demo("67df"))
    step = _expand(lambda e: e.call is not None and e.call.name == "Task")
    assert snap_compare(app, terminal_size=SIZE, run_before=after(step)(app))


def test_hooks_folded_into_their_rows(snap_compare: Any) -> None:
    """A hook-heavy 2.1 session (real lines): the marks of the hooks on the prompt and the calls, a call opened."""
    app = session_app(Path(__file__).parent / "fixtures" / "real" / "hooks_turn.jsonl")
    step = _expand(lambda e: e.call is not None and e.call.name == "Bash")
    assert snap_compare(app, terminal_size=SIZE, run_before=after(step, _keys("g"))(app))


def test_help_screen(snap_compare: Any, browser_app: ClaudeTUI) -> None:
    run = after(_browser, _keys("question_mark"))(browser_app)
    assert snap_compare(browser_app, terminal_size=SIZE, run_before=run)


async def _keys_now(pilot: Any, app: ClaudeTUI) -> None:
    """Draw the key bar for where the focus is now (it may have been drawn before the focus settled)."""
    app.screen.refresh_bindings()
    await pilot.pause()


def _find(query: str) -> Callable[[Any, ClaudeTUI], Awaitable[None]]:
    """Find `query` in the open session and jump to it."""

    async def step(pilot: Any, app: ClaudeTUI) -> None:
        from claude_tui.ui.widgets.findbar import FindBar

        await loaded(pilot, app)
        await pilot.press("slash", *query)
        bar = app.screen.query_one(FindBar)
        await settled(pilot, lambda: bar.done and bar.input.value == query)
        await pilot.press("enter")

    return step


def _search(query: str, *keys: str) -> Callable[[Any, ClaudeTUI], Awaitable[None]]:
    """Search all sessions for `query`, then press `keys`, the last of which opens a hit (and wait until it is
    shown)."""

    async def step(pilot: Any, app: ClaudeTUI) -> None:
        await pilot.press("ctrl+k", *query)
        screen = app.screen
        await settled(pilot, lambda: screen.hits and screen._shown == screen._token and screen._timer is None)
        if keys:
            from claude_tui.ui.screens.search import HitList

            await pilot.press(*keys[:-1])
            hit = screen.hits[screen.query_one(HitList).cursor]  # the one the last key opens
            await pilot.press(keys[-1])
            view = app.main.conversation

            def shown() -> bool:
                opened = view.session is not None and Path(view.session.path) == hit.path
                return opened and app.screen is app.main and app.main._hit is None and not view.reading

            await settled(pilot, shown)

    return step


def test_find_in_a_collapsed_tool_output(snap_compare: Any) -> None:
    app = session_app(demo("67df"))
    assert snap_compare(app, terminal_size=SIZE, run_before=after(_find("4 passed"), _keys_now)(app))


def test_find_in_a_subagent(snap_compare: Any) -> None:
    app = session_app(demo("67df"))
    assert snap_compare(app, terminal_size=SIZE, run_before=after(_find("deps.py"), _keys_now)(app))


def test_pane_filter(snap_compare: Any) -> None:
    app = session_app(demo("dce61781"))
    assert snap_compare(app, terminal_size=SIZE, run_before=after(_session, _keys("P"), _keys_now)(app))


def test_search_all_sessions(snap_compare: Any, browser_app: ClaudeTUI) -> None:
    run = after(_browser, _search("deps"), _keys_now)(browser_app)
    assert snap_compare(browser_app, terminal_size=SIZE, run_before=run)


def test_search_hit_in_a_subagent_opened(snap_compare: Any, browser_app: ClaudeTUI) -> None:
    run = after(_browser, _search("deps", *["down"] * 7, "enter"), _keys_now)(browser_app)
    assert snap_compare(browser_app, terminal_size=SIZE, run_before=run)


def test_what_claude_code_passes_on(snap_compare: Any) -> None:
    """A prompt queued while Claude worked, background tasks' notifications, another session's message, a command
    written as a system record (tests/fixtures/claude_2_1_shapes.jsonl: real 2.1 records)."""
    app = session_app(Path(__file__).parent / "fixtures" / "claude_2_1_shapes.jsonl")
    assert snap_compare(app, terminal_size=SIZE, run_before=after(_session)(app))
