"""Keys sent in a burst (as a terminal sends keys typed fast, over SSH, or pasted) at the moment of each
transition: a screen opening or closing, a session being read, the library refreshed. Each lands where the
same keys typed slowly land (see claude_tui/ui/keygate.py)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.containers import VerticalScroll
from textual.widgets import Input
from ui_support import CLOCK, browser_ready, burst, demo, demo_copy, handled, loaded, session_app, settled

from claude_tui.ui.app import ClaudeTUI
from claude_tui.ui.screens import detail
from claude_tui.ui.screens import search as search_screen
from claude_tui.ui.screens.detail import DetailScreen
from claude_tui.ui.screens.export_prompt import ExportPrompt
from claude_tui.ui.screens.help import HelpScreen
from claude_tui.ui.screens.search import SearchScreen
from claude_tui.ui.widgets.projects import ProjectTree

SIZE = (120, 40)


@pytest.fixture
def roots(tmp_path: Path) -> list[Path]:
    return [demo_copy(tmp_path)]


@pytest.mark.parametrize("pane", ["1", "2", "3"])
async def test_keys_typed_right_after_ctrl_k_are_the_query(roots: list[Path], pane: str) -> None:
    """ctrl+k, `needle` and Enter at once: the search screen opened with an empty query (the letters went to the
    session list's filter, or to the screen before its query box had the focus). Paced a second apart, it worked."""
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        await browser_ready(pilot, app)
        await pilot.press(pane)
        burst(app, "ctrl+k", *"needle", "enter")
        await handled(pilot, app)
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        await settled(pilot, lambda: screen._shown == screen._token)
        assert screen.query_one("#search-query", Input).value == "needle" and screen._asked[0] == "needle*"
        assert not app.main.query("#sessions-filter") or not app.main.query_one("#sessions-filter", Input).value


async def test_an_enter_typed_while_the_querys_search_is_under_way_opens_no_hit_of_less_of_it(
    roots: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last letter started its search at once (the one before was long enough ago); Enter, typed before that
    search came back, opened the first hit of the query without that letter."""
    monkeypatch.setattr(search_screen, "DEBOUNCE", 0.0)  # each key searches at once
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("ctrl+k", *"toke")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        await settled(pilot, lambda: screen.hits and screen._shown == screen._token)
        held, search = threading.Event(), app.state.library.search
        monkeypatch.setattr(app.state.library, "search", lambda *a, **kw: (held.wait(20), search(*a, **kw))[1])
        burst(app, "n", "enter")
        await handled(pilot, app)
        assert app.screen is screen and screen._shown != screen._token  # the search of "token" is under way
        held.set()
        await settled(pilot, lambda: screen._shown == screen._token)
        assert app.screen is screen and screen.query_one("#search-query", Input).value == "token"


async def test_keys_typed_right_after_the_help_key_scroll_the_help() -> None:
    """`?` and three `j`: the `j`s moved the conversation's cursor, the help opened unscrolled."""
    app = session_app(demo("67df"))
    async with app.run_test(size=(120, 20)) as pilot:
        view = await loaded(pilot, app)
        cursor = view.cursor_index
        burst(app, "question_mark", "j", "j", "j")
        await handled(pilot, app)
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.query_one("#help-box", VerticalScroll).scroll_y == 3 and view.cursor_index == cursor


async def test_keys_typed_right_after_escape_from_the_help_move_in_the_conversation() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        view.select(0)
        await pilot.press("question_mark")
        await settled(pilot, lambda: isinstance(app.screen, HelpScreen))
        burst(app, "escape", "j", "j")
        await handled(pilot, app)
        assert app.screen is app.main and view.cursor_index == 2


async def test_keys_typed_right_after_enter_on_a_row_go_to_its_full_view() -> None:
    """Enter then G on a long output: G went to the end of the view before its text was read (or to the
    conversation, before the view had opened), and the text came in at its top."""
    app = session_app(demo("67df"))
    async with app.run_test(size=(120, 16)) as pilot:
        view = await loaded(pilot, app)
        calls = [(len(str(e.call.result)), i) for i, e in enumerate(view.entries) if e.call and e.call.result]
        view.select(max(calls)[1])  # the longest output
        cursor = view.cursor_index
        burst(app, "enter", "G")
        await handled(pilot, app)
        screen = app.screen
        assert isinstance(screen, DetailScreen) and screen.filled and view.cursor_index == cursor
        scroll = screen.query_one("#detail-scroll", VerticalScroll)
        assert scroll.max_scroll_y > 0 and scroll.scroll_y == scroll.max_scroll_y


async def test_a_full_view_whose_read_fails_says_so_and_takes_the_keys_typed_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The keys typed while a full view reads its text wait for it: a read that fails fills it with why."""

    def broken(*_: object) -> str:
        raise OSError("the disk went away")

    monkeypatch.setattr(detail, "full_output", broken)
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        view.select(next(i for i, e in enumerate(view.entries) if e.call is not None))
        burst(app, "enter", "y")
        await handled(pilot, app)
        screen = app.screen
        assert isinstance(screen, DetailScreen) and screen.filled
        assert app.clipboard == "Cannot show this: OSError: the disk went away"
        burst(app, "escape", "j")
        await handled(pilot, app)
        assert app.screen is app.main


async def test_keys_typed_right_after_the_export_key_edit_its_path() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        cursor = view.cursor_index
        burst(app, "x", "end", *".bak")
        await handled(pilot, app)
        screen = app.screen
        assert isinstance(screen, ExportPrompt) and view.cursor_index == cursor
        assert screen.query_one("#export-path", Input).value == f"{screen.default}.bak"


async def test_keys_typed_right_after_ctrl_p_are_the_palettes() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        cursor = view.cursor_index
        burst(app, "ctrl+p", *"theme")
        await handled(pilot, app)
        assert isinstance(app.screen, CommandPalette) and view.cursor_index == cursor
        assert app.screen.query_one(Input).value == "theme"


async def test_a_move_right_after_the_tree_is_filtered_starts_from_the_row_the_filter_chose(
    roots: list[Path],
) -> None:
    """The rebuilt tree put its cursor on the chosen row once drawn: a `j` handled before that moved from the row
    before, and the drawing then took the cursor back (`co`, Escape, `j` in one burst, on a busy machine)."""
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        await browser_ready(pilot, app)
        tree = app.main.query_one(ProjectTree)
        rows = [node.data.name for node in tree._rows() if node.data is not None]
        tree.set_filter("weather")  # the filter chooses weather-cli
        await pilot.pause()
        tree.set_filter("")  # Escape
        tree.action_cursor_down()  # j, in the same turn of the loop: no drawing between
        await pilot.pause()
        assert tree.cursor_node is not None and tree.cursor_node.data is not None
        assert tree.cursor_node.data.name == rows[rows.index("weather-cli") + 1]
