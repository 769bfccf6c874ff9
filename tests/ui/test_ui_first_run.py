"""The first screen a newcomer sees: the conversation shown at 80x24, the tree and the list sharing the height by
what they hold (issue 35, the first run)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding
from textual.widgets import Input, Static

from claude_tui.cli import main
from claude_tui.ui.app import ClaudeTUI, _help_sections
from claude_tui.ui.config import Config
from claude_tui.ui.first_steps import DEFAULT_KEYS, STEPS
from claude_tui.ui.widgets.projects import ProjectTree
from claude_tui.ui.widgets.sessions import SessionList
from claude_tui.ui.widgets.sidebar import share
from tests.library_data import Writer, simple_project
from tests.ui_support import CLOCK, browser_ready, demo_copy, settled


def test_share_gives_each_what_it_holds_while_both_fit() -> None:
    assert share(20, 5, 3) == (5, 3)
    assert share(10, 18, 4) == (6, 4)  # the list holds little: the tree takes the rest
    assert share(10, 3, 30) == (3, 7)
    assert share(10, 18, 30) == (5, 5)
    assert share(-1, 3, 3) == (0, 0)


def _rows(widget: object) -> list[str]:
    return [widget.render_line(y).text for y in range(widget.size.height)]  # type: ignore[attr-defined]


async def test_the_first_screen_at_80x24_shows_the_conversation_under_the_whole_tree_and_list(tmp_path: Path) -> None:
    app = ClaudeTUI([demo_copy(tmp_path)], clock=CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        view = await browser_ready(pilot, app)
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        await settled(pilot, lambda: tree.size.height == tree.last_line + 1)
        assert app.main.has_class("-narrow") and sessions.has_focus
        assert sessions.size.height == len(sessions.shown) + 1  # the header and every session
        assert view.region.height >= 10
        assert any("You" in row for row in _rows(view)), _rows(view)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 50)])
async def test_the_tree_and_the_list_share_the_height_by_what_they_hold(tmp_path: Path, size: tuple[int, int]) -> None:
    """17 projects of one session and the newest of two: the tree takes what the list leaves (it had 6 rows)."""
    root = tmp_path / "projects"
    for i in range(17):
        simple_project(root, cwd=f"/home/u/project-{i:02}", sessions=1, start=i * 10_000)
    simple_project(root, cwd="/home/u/newest", sessions=2, start=1_000_000)
    app = ClaudeTUI([root], clock=CLOCK)
    async with app.run_test(size=size) as pilot:
        view = await browser_ready(pilot, app)
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        await settled(pilot, lambda: tree.last_line == 17 and sessions.size.height >= 3)
        if size == (80, 24):  # half of the screen for both, the rest the conversation's
            assert tree.outer_size.height + sessions.outer_size.height == 23 // 2
            assert sessions.size.height == 3 and tree.size.height == 23 // 2 - 4 - 1
            assert view.region.height >= 10
        else:  # the whole tree, and the list under it
            assert tree.size.height == 18
            assert sessions.size.height >= 3


def test_help_begins_its_epilog_with_the_first_steps(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    steps = out[out.index("first steps") :].splitlines()[1:]
    assert [line.split("  ")[1].strip() for line in steps] == [what for what, _, _ in STEPS]
    assert "Enter on a session" in out and "ctrl+k and type" in out and "R resumes it in Claude Code" in out
    assert "--projects-dir DIR" in out  # and all that was there
    assert max(len(line) for line in steps) <= 80


def test_the_keys_help_names_are_the_bindings_own() -> None:
    bindings = {b.id: b for _, owner in _help_sections() for b in owner.BINDINGS if isinstance(b, Binding)}
    named = {"enter": "Enter", "slash": "/"}
    for id_, key in DEFAULT_KEYS.items():
        assert key in [named.get(k.strip(), k.strip()) for k in bindings[id_].key.split(",")], id_
    assert {id_ for _, ids, _ in STEPS for id_ in ids} == set(DEFAULT_KEYS)


async def test_the_help_screen_begins_with_the_first_steps_in_the_users_keys(tmp_path: Path) -> None:
    app = ClaudeTUI([demo_copy(tmp_path)], clock=CLOCK, config=Config(keys={"app.search_all": "ctrl+f"}))
    async with app.run_test(size=(80, 24)) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("question_mark")
        await settled(pilot, lambda: app.screen.query("#help-first-steps"))
        steps = app.screen.query_one("#help-first-steps", Static)
        shown = " ".join(steps.render_line(y).text for y in range(steps.size.height))
        assert "First steps" in shown and "Open a session" in shown and "Resume, export" in shown, shown
        assert "^f and type words" in shown, shown
        assert steps.region.y < 6  # at the top, in view


def _named(root: Path) -> Path:
    """A project with sessions whose names start with the list's moves (g, j, k, G), and one of the tree's."""
    titles = ("gemini: wire the API", "skills: add one", "deploy the site", "grep the logs", "report the bug")
    for i, title in enumerate(titles):
        writer = Writer(f"sess-{i}", "/home/u/tools", start=i * 1000)
        writer.prompt(title)
        writer.answer({"type": "text", "text": "Done."})
        writer.write(root / "-home-u-tools")
    simple_project(root, cwd="/home/u/gemini-proxy", sessions=1, start=-10_000)
    return root


async def test_a_name_typed_in_the_list_filters_by_it_whole_though_its_first_letters_are_moves(tmp_path: Path) -> None:
    """`gemini`: `g` jumped to the top and the filter became `emini`. Now the filter is the name; moves before a
    name they do not start stay moves, and the list's other keys (s sorts) act as before."""
    app = ClaudeTUI([_named(tmp_path / "projects")], clock=CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        box = lambda: app.main.query_one("#sessions-filter", Input)  # noqa: E731

        async def typed(*keys: str) -> list[str]:
            await pilot.press("escape", "escape", *keys)
            await settled(pilot, lambda: sessions.filter_text == box().value.lower() and box().value)
            return [s.title for s in sessions.shown]

        await pilot.press("2")
        assert await typed(*"gemini") == ["gemini: wire the API"] and box().value == "gemini"
        assert await typed("j", "j", *"dep") == ["deploy the site"] and box().value == "dep"
        assert await typed(*"skills") == ["skills: add one"] and sessions.sort_key != "when"  # s sorted
        assert box().value == "kills"
        assert await typed("G", *"repo") == ["report the bug"] and box().value == "repo"  # gr, grep, not grepo


async def test_a_name_typed_in_the_tree_filters_by_it_whole(tmp_path: Path) -> None:
    app = ClaudeTUI([_named(tmp_path / "projects")], clock=CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await browser_ready(pilot, app)
        tree = app.main.query_one(ProjectTree)
        await pilot.press("1", *"gemini")
        await settled(pilot, lambda: tree.filter_text == "gemini")
        assert [p.name for p in tree.projects if tree._matches(p)] == ["gemini-proxy"]
        assert app.main.query_one("#projects-filter", Input).value == "gemini"
