"""Every real session of ../shared/corpus/real in the app: opened, every row expanded and drawn."""

from __future__ import annotations

from pathlib import Path

from claude_tui.ui.app import ClaudeTUI
from claude_tui.ui.widgets.conversation import ConversationView
from claude_tui.ui.widgets.projects import ProjectTree
from tests.ui_support import CLOCK, NoLibrary, at_rest, browser_ready, settled


def main_sessions(projects: Path) -> list[Path]:
    return sorted(p for p in projects.glob("*/*.jsonl") if not p.name.startswith("agent-"))


async def test_every_real_session_opens_with_every_row_expanded(real_projects: Path) -> None:
    sessions = main_sessions(real_projects)
    assert len(sessions) > 50
    app = ClaudeTUI([real_projects], session=sessions[0], library=NoLibrary(), clock=CLOCK)  # type: ignore[arg-type]
    expanded = 0
    async with app.run_test(size=(100, 30)) as pilot:
        view = app.screen.query_one(ConversationView)
        for path in sessions:
            view.open(path)
            await settled(pilot, lambda: not view.reading)  # some hold no message at all
            index = 0
            while index < len(view.entries):  # an expanded subagent call splices its transcript in below
                entry = view.entries[index]
                if entry.expandable:
                    view.set_expanded(entry, True)
                    expanded += 1
                assert view.drawn(entry), (path, index)
                index += 1
            await pilot.press("G")
            await pilot.pause()
            assert view.cursor_index == (len(view.entries) - 1 if view.entries else None), path
    assert expanded > 1000


async def test_the_project_cursor_stays_in_view_through_a_resize(real_projects: Path) -> None:
    """The real history has more projects than a 24-line screen shows: wide and back, the cursor is on screen."""
    app = ClaudeTUI([real_projects], clock=CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        await browser_ready(pilot, app)
        tree = app.main.query_one(ProjectTree)
        await pilot.press("1", *"j" * 12, "enter")

        def cursor_shown() -> bool:
            top = round(tree.scroll_offset.y)
            return top <= tree.cursor_line < top + tree.scrollable_content_region.height

        await settled(pilot, lambda: at_rest(app) and cursor_shown())
        for size in ((200, 50), (80, 24)):
            await pilot.resize_terminal(*size)
            await settled(pilot, cursor_shown)
        await pilot.press("1")
        assert tree.has_focus and cursor_shown()
