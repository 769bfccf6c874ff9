"""Pilot tests of the browser: project tree, session list, filters, sorting, layout, first run, config."""

from __future__ import annotations

import dataclasses
import io
import os
import re
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Input, Static, Tree
from textual.widgets.tree import TreeNode

from claude_tui.cli.app import parser
from claude_tui.cli.demo import DEMO_PROJECTS
from claude_tui.core.index import jobs, pool, store
from claude_tui.core.index.schema import cache_dir
from claude_tui.core.library import Library, Project
from claude_tui.core.loader import read_session
from claude_tui.core.reader import ReadError
from claude_tui.ui import app as app_module
from claude_tui.ui import library_feed
from claude_tui.ui.app import ClaudeTUI, _help_sections
from claude_tui.ui.config import is_key_name, load_config
from claude_tui.ui.messages import LibraryLoaded
from claude_tui.ui.screens.help import HelpScreen
from claude_tui.ui.screens.main import MainScreen
from claude_tui.ui.widgets.conversation import ConversationView
from claude_tui.ui.widgets.header import SessionHeader
from claude_tui.ui.widgets.keybar import KeyBar
from claude_tui.ui.widgets.projects import ProjectTree
from claude_tui.ui.widgets.sessions import COLUMNS, SORTABLE, SessionList, cost_cell, model_of, quiet
from tests.jsonl import Thread, text
from tests.library_data import simple_project
from tests.ui_support import CLOCK, at_rest, browser_ready, demo_copy, handled, loaded, palette, raised, settled

WIDE = (160, 40)


def plain(renderable: object) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


#: A session of nothing but `/model`: empty.
MODEL_ONLY = (
    "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>"
)


@pytest.fixture
def roots(tmp_path: Path) -> list[Path]:
    return [demo_copy(tmp_path)]


def browser(roots: list[Path], **kw: object) -> ClaudeTUI:
    return ClaudeTUI(roots, clock=CLOCK, **kw)  # type: ignore[arg-type]


async def test_opens_on_the_newest_project_and_session(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        tree = app.main.query_one(ProjectTree)
        sessions = app.main.query_one(SessionList)
        assert tree.chosen is not None and tree.chosen.name == "feature-auth"  # the newest, a worktree
        assert tree.chosen.repo is not None
        labels = [str(node.label) for node in tree.root.children]
        assert labels[0].startswith("notes-api")  # the worktree sits under its repository
        assert sessions.has_focus and len(sessions.shown) == 1
        assert view.session is not None and view.session.id == sessions.shown[0].id


async def test_a_first_index_shows_its_sessions_as_it_grows(roots: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each file committed and reported on its own, whatever the machine's speed: the list fills as the index
    grows, and (the user moving nowhere) each listing shows the newest project listed so far."""
    monkeypatch.setattr(pool, "COMMIT_EVERY", 0.0)
    monkeypatch.setattr(store, "REPORT_EVERY", 0.0)
    monkeypatch.setattr(library_feed, "LISTING_EVERY", 0.0)
    shown: list[tuple[int, bool, str, str | None, str | None]] = []  # sessions listed, final, title, chosen, newest
    original = MainScreen.on_library_loaded

    def spy(screen: MainScreen, message: LibraryLoaded) -> None:
        original(screen, message)
        tree = screen.query_one(ProjectTree)
        chosen = str(tree.chosen.folder) if tree.chosen is not None else None
        listed = [(s.last_activity, str(p.folder)) for p in tree.projects for s in p.sessions if not quiet(s)]
        newest = max(listed)[1] if listed else None
        shown.append(
            (sum(len(p.sessions) for p in tree.projects), message.final, str(tree.border_title), chosen, newest)
        )

    monkeypatch.setattr(MainScreen, "on_library_loaded", spy)
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        total, final, title, last, _ = shown[-1]
        assert final and title == "Projects" and len(shown) > 1
        growing = [(n, t) for n, f, t, *_ in shown[:-1]]
        assert all(not f for _, f, *_ in shown[:-1])
        assert any(0 < n < total for n, _ in growing)  # some but not all, before the update ended
        assert all(t.startswith("Projects · indexing ") for n, t in growing if n)
        assert all(chosen == newest for *_, chosen, newest in shown if newest)  # (before, only quiet ones)
        assert last is not None and last.endswith("-worktrees-feature-auth")


async def test_a_first_index_ends_on_the_newest_session_though_it_was_read_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files whose times say nothing of their sessions' (a history copied without them): the newest session was
    read last, and the app stayed on the newest of the first files read."""
    monkeypatch.setattr(pool, "COMMIT_EVERY", 0.0)
    monkeypatch.setattr(store, "REPORT_EVERY", 0.0)
    monkeypatch.setattr(library_feed, "LISTING_EVERY", 0.0)
    root = tmp_path / "projects"
    for n, cwd in enumerate(("/home/u/alpha", "/home/u/beta", "/home/u/gamma", "/home/u/delta")):
        for age, path in enumerate(simple_project(root, cwd, sessions=3, start=n * 10_000)):
            os.utime(path, (1_700_000_000 - n * 100 - age, 1_700_000_000 - n * 100 - age))  # the newest, oldest
    update = store.Index.update

    def slowly(self: store.Index, roots: list[Path], progress: Any = None, cancel: Any = None) -> Any:
        """As a big history is read: the app has drawn each load before the next comes."""
        return update(self, roots, lambda done: (progress(done), time.sleep(0.05)) if progress else None, cancel)

    monkeypatch.setattr(store.Index, "update", slowly)
    loads: list[bool] = []
    original = MainScreen.on_library_loaded
    monkeypatch.setattr(MainScreen, "on_library_loaded", lambda s, m: (loads.append(m.final), original(s, m)))
    app = browser([root])
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        await settled(pilot, lambda: view.session is not None and view.session.path.endswith("delta-2.jsonl"))
        assert loads.count(False) > 1  # sessions were opened from a first index still growing
        chosen = app.main.query_one(ProjectTree).chosen
        assert chosen is not None and chosen.path == "/home/u/delta"


async def test_moving_in_the_tree_and_list_opens_sessions(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        await pilot.press("1")
        tree = app.main.query_one(ProjectTree)
        assert tree.has_focus
        await pilot.press("j", "j")
        await settled(pilot, lambda: tree.chosen is not None and tree.chosen.name == "scratch")
        sessions = app.main.query_one(SessionList)
        await settled(pilot, lambda: view.session is not None and view.session.id == sessions.shown[0].id)
        await pilot.press("2", "j")
        await settled(pilot, lambda: view.session is not None and view.session.id == sessions.shown[1].id)
        await pilot.press("enter")
        assert view.has_focus


async def test_type_to_filter_and_sort(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("1", "w", "e", "a")
        tree = app.main.query_one(ProjectTree)
        await settled(pilot, lambda: tree.filter_text == "wea")
        names = [str(node.label).split()[0] for node in tree.root.children]
        assert names == ["weather-cli"]
        await pilot.press("escape")
        assert tree.has_focus and len(tree.root.children) == 3
        tree.select_node(next(n for n in tree.root.children if str(n.label).startswith("weather")))
        await pilot.press("2")
        sessions = app.main.query_one(SessionList)
        await settled(pilot, lambda: len(sessions.shown) == 3)
        assert [s.id[:8] for s in sessions.shown] == ["36630c25", "dce61781", "35216258"]  # newest first
        await pilot.press("a")  # empty and warmup sessions too
        assert len(sessions.shown) == 4
        await pilot.press("s")  # sort by the next column: active time
        assert sessions.sort_key == "active"
        durations = [s.active_s or 0 for s in sessions.shown]
        assert durations == sorted(durations, reverse=True)
        await pilot.press("S")
        assert [s.active_s or 0 for s in sessions.shown] == sorted(durations)
        await pilot.press("c", "o", "l")  # filter by title
        await settled(pilot, lambda: len(sessions.shown) == 1)
        assert "olour" in sessions.shown[0].title.lower() or "color" in sessions.shown[0].title.lower()


async def test_the_tree_filter_takes_any_word_says_when_nothing_matches_and_backspace_edits_it(
    roots: list[Path],
) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        tree = app.main.query_one(ProjectTree)
        await pilot.press("1", *"project")  # p, r and o act on a message in the conversation, not here
        await settled(pilot, lambda: tree.filter_text == "project")
        assert [str(n.label) for n in tree.root.children] == ["No project matches “project”"]
        assert not raised(app)  # no "Select a message first"
        await pilot.press("enter", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
        await settled(pilot, lambda: tree.filter_text == "p")
        assert [str(n.label).split()[0] for n in tree.root.children] == ["notes-api"]


async def test_enter_in_a_filter_box_opens_the_row_it_left_highlighted_and_down_moves_on(roots: list[Path]) -> None:
    """As in a picker: a second Enter, or a Down that only left the box, was a key lost."""
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        await pilot.press("1", "slash", *"scratch", "enter")
        await settled(pilot, lambda: str(sessions.border_title) == "Sessions · /home/ada/scratch")
        assert tree.chosen is not None and tree.chosen.path == "/home/ada/scratch"
        await pilot.press("2", "slash", "i")
        await settled(pilot, lambda: sessions.filter_text == "i")
        assert len(sessions.shown) == 2 and sessions.cursor == 0
        await pilot.press("down")
        assert sessions.has_focus and sessions.cursor == 1
        await pilot.press("slash", "down", "up")  # back in the box: each key moves the cursor once
        assert sessions.has_focus and sessions.cursor == 0
        await pilot.press("slash", "enter")
        await settled(pilot, lambda: view.session is not None and view.session.id == sessions.shown[0].id)


async def test_rows_keep_their_places_while_the_user_is_in_the_tree_or_the_list(roots: list[Path]) -> None:
    """A refresh with other activity (two live projects, written in turns) moves no row under the cursor;
    the order is brought up to date once the focus is elsewhere."""
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)

        def tree_order() -> list[str]:
            return [node.data.path for node in tree._rows() if node.data is not None]

        await pilot.press("1")
        before = tree_order()
        tree.set_projects(list(reversed(tree.projects)))
        assert tree_order() == before
        await pilot.press("2")
        tree.set_projects(list(reversed(tree.projects)))
        assert tree_order() != before
        app.main.choose_project(
            next(p for p in app.state.projects if p.name == "weather-cli")
        )  # the list has the focus
        await settled(pilot, lambda: len(sessions.shown) == 3 and sessions.has_focus)
        listed = [s.file for s in sessions.shown]
        newer = [dataclasses.replace(s) for s in sessions.sessions]
        last = next(s for s in newer if s.file == listed[-1])
        last.ended = "2030-01-01T00:00:00.000Z"  # the last row written to now
        sessions.set_sessions(newer)
        assert [s.file for s in sessions.shown] == listed
        await pilot.press("1")
        sessions.set_sessions(newer)
        assert [s.file for s in sessions.shown] == [listed[-1], *listed[:-1]]


class StagedLibrary:
    """A first index in two loads: what the index had committed early (`reload`), then all of it (`refresh`,
    once `go` is set)."""

    def __init__(self, early: list[Project], final: list[Project]) -> None:
        self.early, self.final = early, final
        self.projects: list[Project] = []
        self.notices: list[str] = []
        self.go = threading.Event()

    def reload(self) -> None:
        self.projects = self.early

    def refresh(self, progress: object = None) -> None:
        assert self.go.wait(20)
        self.projects = self.final


@pytest.mark.parametrize("pane", ["projects", "sessions"])
async def test_the_index_s_last_load_is_shown_in_order_whatever_has_the_focus(
    roots: list[Path], tmp_path: Path, pane: str
) -> None:
    """The list (focused from the start) or the tree kept the early load's order when the index's last load
    replaced its rows: the newest session stayed near the bottom until `s` went round."""
    library = Library(roots, cache_dir=tmp_path / "cache")
    library.refresh()
    final = library.projects
    weather = next(p for p in final if p.name == "weather-cli")
    by_age = sorted(weather.sessions, key=lambda s: s.last_activity)  # early, the oldest was the newest
    early_weather = [dataclasses.replace(s, ended=f"2026-04-22T0{9 - i}:00:00.000Z") for i, s in enumerate(by_age)]
    early = [dataclasses.replace(p, sessions=early_weather) if p is weather else p for p in reversed(final)]
    staged = StagedLibrary(early, final)
    app = browser(roots, library=staged)
    async with app.run_test(size=WIDE) as pilot:
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        await settled(pilot, lambda: sessions.shown and str(sessions.border_title).endswith("weather-cli"))
        assert [s.id for s in sessions.shown] == [s.id for s in early_weather if sessions.shows_kind(s)]
        await pilot.press("down")  # the user chooses a session: the last load does not open the newest instead
        app.main.action_focus_pane(pane)
        staged.go.set()
        await settled(pilot, lambda: app.main.up_to_date)
        assert app.main.query_one(f"#{pane}").has_focus
        assert [p.path for p in tree.projects] == [p.path for p in final]
        newest_first = sorted(weather.sessions, key=lambda s: s.last_activity, reverse=True)
        assert [s.id for s in sessions.shown] == [s.id for s in newest_first if sessions.shows_kind(s)]


async def test_a_list_with_every_session_hidden_says_why(tmp_path: Path) -> None:
    t = Thread(session_id="e1", cwd="/home/u/quiet")
    t.prompt(MODEL_ONLY)  # a local command, nothing asked, no answer: an empty session
    os.utime(t.write(tmp_path / "projects" / "-home-u-quiet" / "e1.jsonl"), (1e9, 1e9))
    app = browser([tmp_path / "projects"])
    async with app.run_test(size=WIDE) as pilot:
        sessions = app.main.query_one(SessionList)
        await settled(pilot, lambda: sessions.sessions)
        assert not sessions.shown
        assert "1 empty or warmup session, hidden: a shows them" in sessions.render_line(1).text
        await pilot.press("2", "a")
        assert len(sessions.shown) == 1
        sessions.set_filter("zebra")
        assert sessions.render_line(1).text.strip() == "No session matches “zebra”"


async def test_a_session_that_cannot_be_read_is_listed_and_says_why(
    roots: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not hidden as empty (an unreadable file has no facts): the list shows it, with the reason."""
    victim = next(p for p in roots[0].rglob("*.jsonl") if p.parent.parent == roots[0])
    opened = jobs.open_readonly

    def denied(path: str) -> int:
        if path == str(victim):
            raise ReadError("permission denied")
        return opened(path)

    monkeypatch.setattr(jobs, "open_readonly", denied)
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        project = next(p for p in app.state.projects if any(s.file == str(victim) for s in p.sessions))
        app.main.choose_project(project)
        await pilot.pause()
        sessions = app.main.query_one(SessionList)
        assert any(s.file == str(victim) for s in sessions.shown)
        rows = [sessions.render_line(y).text for y in range(1, len(sessions.shown) + 1)]
        assert any("⚠ cannot read: perm" in row for row in rows), rows


async def test_zoom_and_narrow_layout(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=(80, 24)) as pilot:
        view = await browser_ready(pilot, app)
        main = app.main
        assert main.has_class("-narrow")
        assert view.region.height >= 10 and main.query_one(SessionList).has_focus  # the list over the conversation
        await pilot.press("enter")  # which is read alone
        assert main.has_class("-zoomed") and view.has_focus and view.region
        await pilot.press("escape")
        assert not main.has_class("-zoomed") and main.query_one(SessionList).has_focus
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        await pilot.press("z")
        assert app.main.has_class("-zoomed") and view.has_focus
        assert view.region.width == WIDE[0]
        await pilot.press("z")  # unzoomed: the conversation is still shown and keeps the focus
        assert not app.main.has_class("-zoomed") and view.has_focus
        await pilot.press("2", "z", "z")  # from the list, which the zoom hid: the conversation keeps it
        assert view.has_focus
    app = browser(roots)
    async with app.run_test(size=(80, 24)) as pilot:  # narrow: unzoomed, the list keeps the focus
        await browser_ready(pilot, app)
        await pilot.press("z", "z")
        assert not app.main.has_class("-zoomed") and app.main.query_one(SessionList).has_focus


async def test_a_late_highlight_of_a_rebuilt_tree_chooses_nothing(roots: list[Path]) -> None:
    """Busy, the index lists projects as it reads them: the tree is rebuilt on one project, then on another,
    before the highlight of the first is handled. That highlight must not open a project's newest session
    over the one asked for (`claude-tui SESSION` showed another session, now and then)."""
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        asked = app.state.projects[-1].sessions[-1]
        app.main.choose_session(asked)
        view = await loaded(pilot, app)
        tree = app.main.query_one(ProjectTree)
        other = next(n for n in tree._rows() if n.data is not None and n.data.path != asked.project)
        tree.focus()  # (a highlight the tree makes while it has not the focus is another test's)
        await pilot.pause()
        tree.set_projects(tree.projects)  # rebuilt: `other` is a node of the tree before
        tree.post_message(Tree.NodeHighlighted(other))
        await pilot.pause()  # the highlight is handled: what it chose, it would have chosen by now
        assert tree.chosen is not None and tree.chosen.path == asked.project
        assert app.main.info is not None and app.main.info.file == asked.file
        assert view.session is not None and str(view.session.path) == asked.file


async def test_a_session_named_outside_the_library_stays_through_the_trees_own_highlights(
    roots: list[Path], tmp_path: Path
) -> None:
    """The tree puts its cursor back on a row once it is laid out: that highlight, the focus elsewhere,
    opened the newest session over the file named on the command line (1 launch in 5 to 12)."""
    outside = tmp_path / "elsewhere" / "copy.jsonl"
    outside.parent.mkdir()
    thread = Thread(session_id="copy", cwd="/home/u/elsewhere")
    thread.prompt("a session kept outside the projects folder")
    thread.write(outside)
    app = ClaudeTUI(roots, session=outside, clock=CLOCK)
    async with app.run_test(size=WIDE) as pilot:
        view = await loaded(pilot, app)
        await settled(pilot, lambda: app.state.projects)
        tree = app.main.query_one(ProjectTree)
        await pilot.pause()
        assert not tree.has_focus
        chosen = tree.chosen.path if tree.chosen is not None else None
        for node in [n for n in tree._rows() if n.data is not None]:
            tree.move_cursor(node)  # as the tree does by itself: a NodeHighlighted of the cursor's node
            await pilot.pause()  # handled: what it chose, it would have chosen by now
            assert (tree.chosen.path if tree.chosen is not None else None) == chosen
        assert view.session is not None and Path(view.session.path) == outside
        tree.focus()  # the user moving the cursor still chooses
        await pilot.press("g")
        await settled(pilot, lambda: view.session is not None and Path(view.session.path) != outside)


async def test_escape_leaves_the_session_named_on_the_command_line_for_the_browser(roots: list[Path]) -> None:
    """`claude-tui SESSION` opens zoomed on it: Escape ("back", as everywhere) shows the browser, as `z` does."""
    asked = next(roots[0].rglob("*.jsonl"))
    app = ClaudeTUI(roots, session=asked, clock=CLOCK)
    async with app.run_test(size=WIDE) as pilot:
        view = await loaded(pilot, app)
        assert app.main.has_class("-zoomed") and view.has_focus
        await pilot.press("escape")
        assert not app.main.has_class("-zoomed") and app.main.query_one(SessionList).has_focus
        assert view.region and view.session is not None and Path(view.session.path) == asked


async def test_a_session_opened_by_its_path_with_no_history_says_so_in_the_panes(tmp_path: Path) -> None:
    """`claude-tui ~/Downloads/x.jsonl` with nothing in the projects folder: Escape shows panes that say why
    they are empty, not two blank ones."""
    projects = tmp_path / "projects"
    projects.mkdir()
    asked = tmp_path / "elsewhere" / "mine.jsonl"
    thread = Thread()
    thread.prompt("hello")
    thread.answer(text("hi"))
    thread.write(asked)
    app = ClaudeTUI([projects], session=asked, clock=CLOCK)
    async with app.run_test(size=WIDE) as pilot:
        await loaded(pilot, app)
        await pilot.press("escape")
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        await settled(pilot, lambda: "No sessions in" in tree.render_line(0).text)
        assert tree.note == f"No sessions in {projects}"  # shown cut to the pane's width
        assert sessions.render_line(1).text.strip() == "Showing mine.jsonl alone, opened by its path"
        assert not app.main.has_class("-empty")  # the session stays on screen


async def test_resizing_keeps_the_focus_and_each_width_its_zoom(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        main, sessions = app.main, app.main.query_one(SessionList)

        async def resize(size: tuple[int, int], zoomed: bool, focused: Widget) -> None:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert main.has_class("-zoomed") is zoomed and app.focused is focused

        await pilot.press("3")
        await resize((80, 24), True, view)  # narrow: the focused conversation in front, not hidden
        await resize(WIDE, False, view)  # wide again: the three panes the user had
        await pilot.press("z")
        await resize((80, 24), True, view)
        await pilot.press("escape")  # narrow: back to the list
        await resize(WIDE, True, view)  # the zoom the user chose when wide
        await pilot.press("2")
        await resize((80, 24), False, sessions)
        await pilot.press("enter")  # narrow: a session opened is in front
        await settled(pilot, lambda: main.has_class("-zoomed"))
        await resize(WIDE, False, view)


async def test_first_run_explains_where_it_looked(tmp_path: Path) -> None:
    empty = tmp_path / "nothing" / "projects"
    empty.mkdir(parents=True)
    app = browser([empty])
    async with app.run_test(size=(100, 30)) as pilot:
        main = app.main
        await settled(pilot, lambda: main.has_class("-empty"))
        text = str(main.query_one("#empty").render())
        assert str(empty) in text and "--projects-dir" in text and "--demo" in text
        assert "try --projects-dir" not in text


async def test_first_run_says_which_folder_was_meant(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "home" / "projects" / "-home-u-proj"
    Thread().write(project / "s1.jsonl")
    app = browser([home, project, tmp_path / "gone"])
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        main = app.main
        await settled(pilot, lambda: main.has_class("-empty"))
        text = " ".join(str(main.query_one("#empty").render()).split())
        assert not raised(app)  # the page says it: no toast says it again
    assert f"{home} is a Claude home, not its projects folder: try --projects-dir {home / 'projects'}" in text
    assert f"{project} holds session files itself, as one project's folder does: try --projects-dir" in text
    assert f"no projects folder at {tmp_path / 'gone'}" in text


async def test_help_lists_every_binding_with_its_id(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        shown = " ".join(plain(s.content) for s in app.screen.query(".help-section"))
        for owner in (ConversationView, MainScreen, SessionList):
            for binding in owner.BINDINGS:
                assert binding.id in shown  # type: ignore[union-attr]
        assert "tab Next pane app.next_pane" in " ".join(shown.split())  # as docs/keys.md lists it
        for owner in (owner for _, owner in _help_sections()):
            assert all(b.description for b in owner.BINDINGS if isinstance(b, Binding) and b.id), owner
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        before = app.focused
        await pilot.press("tab")
        assert app.focused is not before
        await pilot.press("shift+tab")
        assert app.focused is before
        await palette(pilot, app, "keys")  # the palette's Keys: the same screen, not Textual's panel
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, HelpScreen))


@pytest.mark.parametrize("width", [60, 120])
async def test_help_keeps_every_description_and_id_at_any_width(roots: list[Path], width: int) -> None:
    app = browser(roots)
    async with app.run_test(size=(width, 24)) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("question_mark")
        section = app.screen.query(".help-section").first(Static)
        shown = " ".join(" ".join(section.render_line(y).text.split()) for y in range(section.size.height))
        for binding in _help_sections()[0][1].BINDINGS:
            assert isinstance(binding, Binding) and binding.description in shown and binding.id in shown, shown


async def test_help_scrolls_with_the_keys_that_move_everywhere_else(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=(80, 24)) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("question_mark")
        box = app.screen.query_one("#help-box")
        await pilot.press("j", "j", "j")
        assert box.scroll_y == 3
        await pilot.press("k", "ctrl+d")
        assert box.scroll_y == 2 + round(box.size.height / 2)
        await pilot.press("ctrl+u")
        assert box.scroll_y == 2
        assert isinstance(app.screen, HelpScreen)
        for _ in range(12):  # as keys that come in one read of the terminal: no refresh between them (they
            app.screen.action_scroll(1)  # each scrolled from where the first had, and 12 made 1 line)
        await pilot.pause()
        assert box.scroll_y == 14


async def test_palette_jumps_to_a_session_by_name(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        await palette(pilot, app, "bike rides")
        await pilot.press("enter")
        await settled(pilot, lambda: view.session is not None and view.session.id.startswith("d2880ff3"))
        assert app.main.query_one(ProjectTree).chosen.name == "scratch"  # type: ignore[union-attr]
        await palette(pilot, app, "fahrenheit")  # past the part of the title the palette shows
        await pilot.press("enter")
        await settled(pilot, lambda: view.session is not None and view.session.id.startswith("dce61781"))


def test_config_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert load_config(path).theme == "textual-dark"
    path.write_text('theme = "nord"\nhide_quiet = true\n[keys]\n"conversation.next_prompt" = ["n", "N"]\n')
    config = load_config(path)
    assert (config.theme, config.hide_quiet, config.keys, config.problems) == (
        "nord",
        True,
        {"conversation.next_prompt": "n,N"},
        [],
    )
    path.write_text("theme = 3\nwhat = 1\n[keys]\nx = 5\n")
    assert len(load_config(path).problems) == 3
    path.write_text("not toml [")
    assert load_config(path).problems


def test_a_misspelt_key_name_is_told_and_the_binding_keeps_its_default(tmp_path: Path) -> None:
    """`ctlr+q` was taken as it was: the key bar said "ctlr+q Quit" and `q` no longer quit."""
    path = tmp_path / "config.toml"
    keys = {
        "app.quit": '"ctlr+q"',
        "app.help": '["question_mark", "ctrl+shift+banana"]',
        "app.zoom": '"shift+ctrl+z"',  # never pressed: Textual names it ctrl+shift+z
        "app.reload": '"ctrl+Q"',
        "app.search_all": '["ctrl+shift+k", "f5", "?", "é", "alt+é", "pageup", "ctrl+left_square_brace", "space"]',
    }
    path.write_text("[keys]\n" + "".join(f'"{binding_id}" = {value}\n' for binding_id, value in keys.items()))
    config = load_config(path)
    assert config.keys == {"app.search_all": "ctrl+shift+k,f5,?,é,alt+é,pageup,ctrl+left_square_brace,space"}
    assert [problem.removeprefix(f"{path}: ") for problem in config.problems] == [
        "keys.app.quit: no key is named 'ctlr+q'; its default is kept",
        "keys.app.help: no key is named 'ctrl+shift+banana'; its default is kept",
        "keys.app.zoom: no key is named 'shift+ctrl+z'; its default is kept",
        "keys.app.reload: no key is named 'ctrl+Q'; its default is kept",
    ]


def test_every_key_the_app_binds_is_a_key_name() -> None:
    owners = [owner for _, owner in _help_sections()] + app_module._unlisted_binding_owners()
    keys = [key for owner in owners for b in owner.BINDINGS if isinstance(b, Binding) for key in b.key.split(",")]
    assert len(keys) > 50 and [key for key in keys if not is_key_name(key.strip())] == []


async def test_theme_and_quiet_rows_from_config(roots: list[Path], tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('theme = "textual-light"\nhide_quiet = true\n')
    app = browser(roots, config=load_config(path))
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        assert app.theme == "textual-light" and view.hide_quiet


def test_command_line() -> None:
    args = parser().parse_args(["abc", "--projects-dir", "/x", "--projects-dir", "/y", "--follow"])
    assert (args.session, args.projects_dir, args.follow, args.demo) == ("abc", ["/x", "/y"], True, False)
    assert parser().parse_args(["--demo"]).demo
    assert DEMO_PROJECTS.is_dir()


async def test_palette_runs_every_action(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        await pilot.press("3")
        await palette(pilot, app, "hide dim rows")
        await pilot.press("enter")
        await settled(pilot, lambda: view.hide_quiet)


@pytest.mark.parametrize("size", [WIDE, (80, 24)])
async def test_follow_opens_the_newest_session_at_its_end(roots: list[Path], size: tuple[int, int]) -> None:
    app = browser(roots, follow=True)
    async with app.run_test(size=size) as pilot:
        view = await browser_ready(pilot, app)
        assert view.follow and view.cursor_index == len(view.entries) - 1
        # at the end once the pane is laid out (a busy machine may draw a frame before the last line is measured)
        await settled(pilot, lambda: view.scroll_offset.y == view.max_scroll_y > 0)
        assert view.has_focus and view.region.width > size[0] // 2  # in front, on a narrow screen too


def test_demo_is_copied_with_old_file_times() -> None:
    from claude_tui.cli.demo import DEMO_MTIME, demo_roots

    (root,) = demo_roots()
    files = list(root.rglob("*.jsonl"))
    assert root != DEMO_PROJECTS and len(files) == len(list(DEMO_PROJECTS.rglob("*.jsonl")))
    assert all(f.stat().st_mtime == DEMO_MTIME for f in files)
    assert (root.parent / "plans" / "gentle-rolling-otter.md").is_file()


async def test_filtering_the_tree_to_one_project_chooses_it(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        await pilot.press("1", "k")  # the first row: the one left by the filter is on the same line
        await settled(pilot, lambda: tree.chosen is not None and tree.chosen.name == "notes-api")
        await pilot.press(*"scr")
        await settled(pilot, lambda: tree.chosen is not None and tree.chosen.name == "scratch")
        assert [str(n.label).split()[0] for n in tree.root.children] == ["scratch"]
        assert str(sessions.border_title).endswith("/scratch")
        await settled(pilot, lambda: view.session is not None and view.session.id == sessions.shown[0].id)
        await pilot.press("up")  # the filter box: back to the tree, on its only row
        assert tree.has_focus
        await pilot.press("escape")  # clears the filter, the cursor kept on the project
        assert tree.filter_text == "" and len(tree.root.children) == 3
        await pilot.pause()
        assert tree.cursor_node is not None and tree.cursor_node.data is tree.chosen
        assert tree.chosen.name == "scratch"
        await pilot.press("enter")  # opens the project: on to its sessions
        assert sessions.has_focus


async def test_escape_clears_the_session_filter_from_the_list(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        await palette(pilot, app, "project weather")
        await pilot.press("enter")
        await settled(pilot, lambda: len(sessions.shown) == 3)
        await pilot.press(*"rich", "down")
        assert sessions.has_focus and len(sessions.shown) == 1
        await pilot.press("escape")
        assert sessions.filter_text == "" and len(sessions.shown) == 3


@pytest.mark.parametrize("size", [WIDE, (80, 24)])
async def test_a_project_jumped_to_while_zoomed_shows_its_list(roots: list[Path], size: tuple[int, int]) -> None:
    app = browser(roots)
    async with app.run_test(size=size) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("3", "z") if size == WIDE else await pilot.press("enter")
        await settled(pilot, lambda: app.main.has_class("-zoomed"))
        await palette(pilot, app, "project weather")
        await pilot.press("enter")
        sessions = app.main.query_one(SessionList)
        await settled(pilot, lambda: len(sessions.shown) == 3)
        assert sessions.has_focus and sessions.region and not app.main.has_class("-zoomed")


async def test_palette_jump_shows_the_session_at_80x24(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=(80, 24)) as pilot:
        view = await browser_ready(pilot, app)
        await palette(pilot, app, "bike rides")
        await pilot.press("enter")
        await settled(pilot, lambda: view.session is not None and view.session.id.startswith("d2880ff3"))
        assert app.main.has_class("-zoomed") and view.has_focus and view.region


@pytest.mark.parametrize("size", [WIDE, (80, 24)])
async def test_palette_jump_names_the_project_over_the_list(roots: list[Path], size: tuple[int, int]) -> None:
    app = browser(roots)
    async with app.run_test(size=size) as pilot:
        view = await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        assert str(sessions.border_title).endswith("/feature-auth")
        await palette(pilot, app, "bike rides")
        await pilot.press("enter")
        await settled(pilot, lambda: view.session is not None and view.session.id.startswith("d2880ff3"))
        assert str(sessions.border_title) == "Sessions · /home/ada/scratch"


async def test_a_session_chosen_from_before_a_refresh_is_shown_in_its_project(roots: list[Path]) -> None:
    """The palette's sessions are those of its opening: a live history refreshed since has new ones."""
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        asked = next(s for p in app.state.projects for s in p.sessions if s.id.startswith("d2880ff3"))
        app.main.choose_session(dataclasses.replace(asked))  # equal, but not one of the library's own
        await settled(pilot, lambda: view.session is not None and view.session.id == asked.id)
        assert tree.chosen is not None and tree.chosen.path == asked.project
        assert sessions.chosen is not None and sessions.chosen.file == asked.file
        assert str(sessions.border_title) == "Sessions · /home/ada/scratch"
        project = next(p for p in app.state.projects if p.path != asked.project)
        app.main.choose_project(dataclasses.replace(project, sessions=[]))
        await settled(pilot, lambda: app.main.info is not None and app.main.info.project == project.path)
        assert sessions.shown and {s.file for s in sessions.shown} <= {s.file for s in project.sessions}
        assert tree.chosen is not None and tree.chosen.path == project.path


async def test_filtering_the_list_shows_the_highlighted_session(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        await palette(pilot, app, "project weather")
        await pilot.press("enter")
        await settled(pilot, lambda: view.session is not None and view.session.id.startswith("36630c25"))
        await pilot.press(*"scaffold")
        await settled(pilot, lambda: view.session is not None and view.session.id.startswith("35216258"))
        assert sessions.chosen is not None and sessions.chosen.id.startswith("35216258")
        assert app.main.info is not None and app.main.info.id.startswith("35216258")


async def test_a_filter_box_sits_in_its_own_pane(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        before = (tree.region, sessions.region.width)
        await pilot.press("2", "u")
        box = app.main.query_one("#sessions-filter")
        await settled(pilot, lambda: box.region.height == 1)
        assert (tree.region, sessions.region.width) == before  # the projects keep their rows, the list its columns
        assert box.region.y == sessions.region.bottom  # under the list


@pytest.mark.parametrize(("pane", "keys", "typed"), [("2", "cas", "cas"), ("2", "/sa", "sa"), ("1", "wez", "wez")])
async def test_keys_typed_fast_land_in_the_filter_box(roots: list[Path], pane: str, keys: str, typed: str) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        await pilot.press(pane)
        sessions = app.main.query_one(SessionList)
        for key in keys:  # all in the queue before the first is handled, as a fast typist's keys arrive
            app.post_message(events.Key("slash" if key == "/" else key, key))
        await handled(pilot, app)
        name = "projects" if pane == "1" else "sessions"
        box = app.main.query_one(f"#{name}-filter", Input)
        await settled(pilot, lambda: box.has_focus)
        assert box.value == typed
        assert sessions.sort_key == "when" and not sessions.show_hidden and not app.main.has_class("-zoomed")


@pytest.mark.parametrize(
    ("start", "burst", "moved"),
    [("1", "2j", (0, 1, 0)), ("2", "3G", (0, 0, "last")), ("2", "zG", (0, 0, "last"))],
)
async def test_a_key_typed_right_after_a_pane_key_goes_to_the_pane_it_chose(
    roots: list[Path], start: str, burst: str, moved: tuple[int, int, int | str]
) -> None:
    """`2 j`, `3 G` or `z G` in one burst (over SSH): the second key went to the old pane (`G` opened a session)."""
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        await pilot.press("1", "slash", *"weather", "enter")  # a project of several sessions
        await settled(pilot, lambda: len(sessions.shown) > 1 and view.session is not None)
        await pilot.press(start)
        before = (tree.cursor_line, sessions.cursor, view.cursor_index or 0)
        for key in burst:  # both in the queue before the first is handled
            app.post_message(events.Key(key, key))
        await handled(pilot, app)
        await settled(pilot, lambda: app.focused is (sessions if burst[0] == "2" else view))
        await pilot.pause()
        last = len(view.entries) - 1
        expected = tuple(last if m == "last" else b + m for b, m in zip(before, moved, strict=True))
        assert (tree.cursor_line, sessions.cursor, view.cursor_index or 0) == expected


def _shows_chosen(view: ConversationView, sessions: SessionList) -> bool:
    """The conversation shows the session the list's cursor is on (it opens OPEN_DELAY after it was chosen)."""
    return sessions.chosen is None or (view.session is not None and view.session.id == sessions.chosen.id)


async def _after_keys(
    roots: list[Path], pane: str, typed: str, burst: list[str], fast: bool, size: tuple[int, int] = WIDE
) -> tuple[object, ...]:
    """Where the focus is, what the filter box holds, each pane's cursor, the project chosen and the zoom after
    `pane`, `typed` into its filter and then `burst`: each key handled before the next is sent, or (`fast`) the
    burst in the queue at once."""
    app = browser(roots)
    async with app.run_test(size=size) as pilot:
        view = await browser_ready(pilot, app)
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        if pane == "2":
            await pilot.press("1", "slash", *"weather", "enter")  # a project of several sessions
            await settled(pilot, lambda: len(sessions.shown) > 1 and view.session is not None)
        await pilot.press(pane, *typed)
        await settled(pilot, lambda: at_rest(app) and not view.reading and _shows_chosen(view, sessions))
        for key in burst:
            if fast:  # all in the queue before the first is handled, as over SSH
                app.post_message(events.Key(key, key if len(key) == 1 else None))
            else:
                await pilot.press(key)
        await handled(pilot, app)
        await settled(pilot, lambda: at_rest(app) and not view.reading and _shows_chosen(view, sessions))
        box = app.main.query("#projects-filter" if pane == "1" else "#sessions-filter")
        focused = app.focused.id if app.focused else None
        session = view.session.id if view.session else None
        project = tree.chosen.name if tree.chosen else None
        value, zoomed = box.first(Input).value if box else "", app.main.has_class("-zoomed")
        cursor = (view.cursor_index, view.scroll_offset.y)
        return value, focused, tree.cursor_line, sessions.cursor, session, cursor, project, zoomed


BURSTS = [("1", "co", "enter j"), ("1", "co", "up j"), ("1", "co", "escape j"), ("2", "rel", "enter j")]
BURSTS += [("2", "e", "down j"), ("2", "e", "up j"), ("2", "e", "escape j")]


@pytest.mark.parametrize(
    ("typed_first", "pane", "typed", "burst"),
    [(False, *case) for case in BURSTS] + [(True, *case) for case in [*BURSTS, ("1", "co", "down j")]],
)
async def test_a_key_typed_right_after_enter_an_arrow_or_escape_in_a_filter_goes_where_they_put_the_focus(
    roots: list[Path], pane: str, typed: str, burst: str, typed_first: bool
) -> None:
    """`we` Enter `j` in one burst (over SSH): the `j` was typed into the filter box (`wej`), before Enter had
    moved the focus to the list or the conversation; Escape `j` lost the `j`. Now a burst does what the same
    keys typed slowly do, whether the filter was typed in the same burst or before."""
    keys = burst.split()
    slow = await _after_keys(roots, pane, typed, keys, fast=False)
    panes = {"1": "projects", "2": "sessions"}
    if keys[0] == "enter":
        assert slow[:2] == (typed, {"1": "sessions", "2": "conversation"}[pane])  # where Enter on a row goes
    else:
        assert slow[:2] == ("" if keys[0] == "escape" else typed, panes[pane])
    if typed_first:
        fast = await _after_keys(roots, pane, typed, keys, fast=True)
    else:  # the filter's letters in the burst too
        fast = await _after_keys(roots, pane, "", [*typed, *keys], fast=True)
    assert fast == slow


#: A pane, then keys sent from it in one burst: Enter on a row, and keys for where it leads (or another pane).
ROW_BURSTS = [
    ("2", "enter G"),
    ("2", "enter j"),
    ("2", "enter 3"),
    ("2", "enter 1"),
    ("1", "enter j"),
    ("1", "enter 3"),
    ("2", "j enter 3"),  # the j first
    ("2", "j enter G"),  # G while the session Enter opened is read
    ("1", "j enter j"),  # onto another project: its list, not the old one
    ("1", "k enter G"),
]


@pytest.mark.parametrize("size", [WIDE, (80, 24)])
@pytest.mark.parametrize(("pane", "burst"), ROW_BURSTS)
async def test_a_key_typed_right_after_enter_on_a_row_goes_where_enter_put_the_focus(
    roots: list[Path], pane: str, burst: str, size: tuple[int, int]
) -> None:
    """Enter `G` on the session list in one burst (tmux send-keys, over SSH): the `G` went to the list, which
    kept the focus until Enter's message came, and opened the last session; on the tree, Enter `j` moved in the
    old project's list, filled with the new one's later, and Enter `3` was undone when that message put the
    focus back on the list. Now a burst does what the same keys typed slowly do, wide and narrow."""
    keys = burst.split()
    slow = await _after_keys(roots, pane, "", keys, fast=False, size=size)
    opened = {"1": "sessions", "2": "conversation"}[pane]  # where Enter on a row goes
    assert slow[1] == {"1": "projects", "3": "conversation"}.get(keys[-1], opened)
    fast = await _after_keys(roots, pane, "", keys, fast=True, size=size)
    assert fast == slow


async def test_a_long_title_is_cut_with_an_ellipsis_under_the_list(tmp_path: Path) -> None:
    thread = Thread()
    title = "please " + " ".join(f"word{i}" for i in range(60))
    thread.prompt(title)
    thread.answer(text("ok"))
    thread.write(tmp_path / "projects" / "-home-u-proj" / "s1.jsonl")
    app = browser([tmp_path / "projects"])
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        facts = app.main.query_one("#session-facts")
        shown = [facts.render_line(y).text.rstrip() for y in range(facts.size.height)]
        assert shown[0].startswith("please word0") and shown[0].endswith("…")
        assert "word59" not in "".join(shown) and shown[1].startswith("Mon 5 Jan 09:00 · ")  # not "(5 Jan)" again


async def test_the_facts_break_between_two_facts_never_inside_one(tmp_path: Path) -> None:
    thread = Thread(session_id="1b9f5c0e-51f6-4d3e-9a47-c0ffee000001")
    thread.branch = "feature/a-rather-long-branch-name"
    thread.prompt("facts")
    thread.answer(text("ok"))
    thread.write(tmp_path / "projects" / "-home-u-proj" / "1b9f5c0e-51f6-4d3e-9a47-c0ffee000001.jsonl")
    app = browser([tmp_path / "projects"])
    async with app.run_test(size=(120, 40)) as pilot:
        await browser_ready(pilot, app)
        facts = app.main.query_one("#session-facts")
        shown = [facts.render_line(y).text.strip() for y in range(facts.size.height)]
        assert "⎇ feature/a-rather-long-branch-name · 863 B" in shown  # the id on its own line, whole
        assert "1b9f5c0e-51f6-4d3e-9a47-c0ffee000001" in shown
        assert not any(line.startswith("·") or line.endswith("·") for line in shown), shown


async def test_a_session_without_times_is_dated_as_approximate(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "-home-u-proj"
    thread = Thread()
    thread.prompt("dated")
    thread.answer(text("ok"))
    dated = thread.write(folder / "dated.jsonl")
    undated = Thread()
    undated.prompt("undated")
    undated.answer(text("ok"))
    for record in undated.records:
        del record["timestamp"]
    undated_path = undated.write(folder / "undated.jsonl")
    written = (CLOCK.now() - 3 * 86400) // 60 * 60
    for path in (dated, undated_path):
        os.utime(path, (written, written))  # not live
    app = browser([tmp_path / "projects"])
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        rows = {line.split()[0]: line for line in (sessions.render_line(y).text for y in (1, 2))}
        assert " ~3d ago " in rows["undated"] and " 5 Jan " in rows["dated"]
        sessions.move_to(sessions.shown.index(next(s for s in sessions.shown if s.id == "undated")))
        facts = app.main.query_one("#session-facts")
        await settled(pilot, lambda: "undated" in facts.render_line(0).text)
        assert facts.render_line(1).text.startswith("no times recorded · file written Sun 19 Apr 10:00 (3d ago)")


def test_palette_match_finds_every_word() -> None:
    from claude_tui.ui.palette_commands import match

    assert match("AUTH tok", "session  Add token auth") == (1 + 7 / 23, [(19, 23), (13, 16)])
    assert match("token auth", "session  Add token auth")[0] > 2  # type: ignore[index]  # the words as typed
    assert match("auth jwt", "session  Add token auth") is None
    assert match("  ", "session  Add token auth") is None


async def test_palette_never_fuzzy_matches_long_texts(roots: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's fuzzy search tries every placement of the query's letters: minutes on a long title and query."""
    from textual.fuzzy import FuzzySearch

    given: list[int] = []
    real = FuzzySearch.match

    def recorded(self: FuzzySearch, query: str, candidate: str) -> tuple[float, object]:
        given.append(len(candidate))
        return real(self, query, candidate) if len(candidate) <= 80 else (0.0, ())

    monkeypatch.setattr(FuzzySearch, "match", recorded)
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        found = await palette(pilot, app, "a token auth post a")
        assert found.option_count == 1 and "Add token auth" in str(found.get_option_at_index(0).prompt)
        assert given and max(given) <= 80


async def test_palette_offers_the_best_matches(roots: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from claude_tui.ui import palette_commands

    texts = ("session  a long title that mentions deploy near its end", "session  deploy")
    monkeypatch.setattr(palette_commands, "MAX_HITS", 1)
    monkeypatch.setattr(
        palette_commands.HistoryProvider, "_candidates", lambda self, _: [(t, t, print, None, "") for t in texts]
    )
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        hits = [hit async for hit in palette_commands.HistoryProvider(app.screen).search("deploy")]
        assert [str(hit.match_display) for hit in hits] == ["session  deploy"]


async def test_the_palette_makes_the_help_line_of_the_rows_it_shows_only(
    roots: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its rows are made for every session at its first key: the help line (project, age, branch) only for the
    rows it offers (for 15,000 sessions, making them all took half of that first key)."""
    from claude_tui.ui import palette_commands

    monkeypatch.setattr(palette_commands, "MAX_HITS", 1)
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        asked: list[object] = []
        ago = type(app.state.clock).ago
        monkeypatch.setattr(
            type(app.state.clock), "ago", lambda clock, stamp, **kw: asked.append(stamp) or ago(clock, stamp, **kw)
        )
        provider = palette_commands.HistoryProvider(app.screen)
        hits = [hit async for hit in provider.search("session")]
        assert len(provider._all()) > 2 and len(hits) == 1
        assert len(asked) == 1


async def test_the_palette_tells_projects_of_one_name_apart_by_their_path(tmp_path: Path) -> None:
    """Five real projects are named "dl": typing what their paths, shown under them, say found none."""
    from claude_tui.ui import palette_commands

    for project in ("/home/moxa/sdc1/mds4xgl3/buildroot/dl", "/home/moxa/sda2/NOS_v6.0/buildroot/dl"):
        thread = Thread(cwd=project)
        thread.prompt("hello")
        thread.answer(text("ok"))
        thread.write(tmp_path / "projects" / project.replace("/", "-").replace(".", "-") / "s1.jsonl")
    app = browser([tmp_path / "projects"])
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        provider = palette_commands.HistoryProvider(app.screen)
        hits = [hit async for hit in provider.search("dl mds4xgl3")]
        assert [(str(hit.match_display), hit.help) for hit in hits] == [
            ("project  dl", "/home/moxa/sdc1/mds4xgl3/buildroot/dl")
        ]


async def test_the_palette_makes_its_rows_in_a_thread_once_for_the_projects_loaded(
    roots: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its rows are made as it opens, off the screen's thread (15,000 sessions take most of 100 ms), and kept: opened
    again on the same projects it makes none; on a library loaded again it makes them anew, with what changed."""

    from claude_tui.ui import palette_commands
    from claude_tui.ui.messages import LibraryLoaded

    made: list[bool] = []  # each making of the rows: on the screen's thread or not
    real = palette_commands.HistoryProvider._candidates

    def recorded(self: palette_commands.HistoryProvider, projects: list[Any]) -> list[Any]:
        made.append(threading.current_thread() is threading.main_thread())
        return real(self, projects)

    monkeypatch.setattr(palette_commands.HistoryProvider, "_candidates", recorded)
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        found = await palette(pilot, app, "bike rides")
        assert found.option_count == 1 and made == [False]
        await pilot.press("escape")
        await palette(pilot, app, "fahrenheit")
        assert made == [False]
        await pilot.press("escape")
        projects = list(app.state.projects)
        renamed = next(info for p in projects for info in p.sessions if info.id.startswith("d2880ff3"))
        monkeypatch.setattr(renamed, "title", "a title given since")
        app.main.post_message(LibraryLoaded(projects, [], live=True))
        await settled(pilot, lambda: app.state.projects is projects)
        found = await palette(pilot, app, "title given since")
        assert found.option_count == 1 and made == [False, False]


async def test_opens_on_the_project_of_the_newest_session_shown(tmp_path: Path) -> None:
    """A newer project whose sessions are all empty is not opened at start, and counts 0 until `a`."""
    root = tmp_path / "projects"
    old = Thread(cwd="/home/u/old")
    old.prompt("an older question")
    old.answer(text("ok"))
    empty = Thread(cwd="/home/u/new")
    empty.prompt(MODEL_ONLY, timestamp="2026-01-05T10:00:00.000Z")  # later than the old one
    for path, days in (
        (old.write(root / "-home-u-old" / "s1.jsonl"), 3),
        (empty.write(root / "-home-u-new" / "s2.jsonl"), 1),
    ):
        written = CLOCK.now() - days * 86400
        os.utime(path, (written, written))  # not live
    app = browser([root])
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        assert tree.chosen is not None and tree.chosen.name == "old" and len(sessions.shown) == 1
        labels = [str(node.label) for node in tree.root.children]
        assert labels == ["new  0", "old  1"]
        await pilot.press("2", "a")
        await pilot.pause()
        assert [str(node.label) for node in tree.root.children] == ["new  1", "old  1"]


async def test_long_project_paths_are_cut_with_an_ellipsis_in_the_tree(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    for i, cwd in enumerate(["/home/u/clients/acme-corporation/backend-services/app", "/home/u/personal/app"]):
        thread = Thread(session_id=f"s{i}", cwd=cwd)
        thread.prompt("hi")
        thread.answer(text("ok"))
        written = CLOCK.now() - 86400
        os.utime(thread.write(root / cwd.replace("/", "-") / f"s{i}.jsonl"), (written, written))
    app = browser([root])
    async with app.run_test(size=(110, 30)) as pilot:
        await browser_ready(pilot, app)
        tree = app.main.query_one(ProjectTree)
        rows = sorted(tree.render_line(y).text.rstrip() for y in range(2))
        assert rows[0].startswith("app  1  /home/u/clients/acme-corporation/") and rows[0].endswith("…")
        assert rows[1] == "app  1  /home/u/personal" and tree.virtual_size.width <= tree.size.width


async def test_worktrees_sit_under_their_repository_and_rows_of_one_name_say_where(tmp_path: Path) -> None:
    """A worktree in `<repo>/.worktrees/` sits under its repository; a repository shown only for its worktrees
    (dim) whose name another row has says where it is, as twin projects do."""
    root = tmp_path / "projects"
    for i, cwd in enumerate(["/x/repo", "/x/repo/.worktrees/feat2", "/z/repo/.claude/worktrees/a1", "/x/repo/docs"]):
        thread = Thread(session_id=f"s{i}", cwd=cwd)
        thread.prompt("hi")
        thread.answer(text("ok"))
        written = CLOCK.now() - 86400 * (i + 1)
        os.utime(thread.write(root / cwd.replace("/", "-") / f"s{i}.jsonl"), (written, written))
    app = browser([root])
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        tree = app.main.query_one(ProjectTree)
        rows = {str(top.label): [str(kid.label) for kid in top.children] for top in tree.root.children}
        assert rows == {"repo  1  /x": ["⎇ feat2  1"], "repo  /z": ["⎇ a1  1"], "docs  1": []}


@pytest.mark.parametrize("size", [WIDE, (40, 20), (24, 12)])
async def test_the_tree_measures_its_rows_without_drawing_them(tmp_path: Path, size: tuple[int, int]) -> None:
    """Tree measures every row at each rebuild (for its width): the project tree works out the width its
    `render_label` draws (worktrees, rows that say where, names cut to the pane) without drawing any row."""
    root = tmp_path / "projects"
    cwds = ["/x/repo", "/x/repo/.worktrees/feat2", "/z/repo/.claude/worktrees/a1", "/x/" + "long-name-" * 12]
    for i, cwd in enumerate(cwds):
        thread = Thread(session_id=f"s{i}", cwd=cwd)
        thread.prompt("hi")
        thread.answer(text("ok"))
        thread.write(root / cwd.replace("/", "-") / f"s{i}.jsonl")
    app = browser([root])
    async with app.run_test(size=size) as pilot:
        await browser_ready(pilot, app)
        tree = app.main.query_one(ProjectTree)
        nodes = [line.node for line in tree._tree_lines]
        assert len(nodes) == 5
        assert [tree.get_label_width(node) for node in nodes] == [Tree.get_label_width(tree, node) for node in nodes]
        drawn: list[TreeNode[Any]] = []
        draw = tree.render_label

        def drawing(node: TreeNode[Any], base_style: Style, style: Style) -> Text:
            drawn.append(node)
            return draw(node, base_style, style)

        tree.render_label = drawing  # type: ignore[method-assign]
        tree._invalidate()
        assert tree._tree_lines and drawn == []


@pytest.mark.parametrize("size", [WIDE, (120, 40), (80, 24)])
async def test_s_sorts_by_the_columns_shown_each_with_its_arrow(roots: list[Path], size: tuple[int, int]) -> None:
    app = browser(roots)
    async with app.run_test(size=size) as pilot:
        await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        shown = [key for key, _, _ in sessions._columns if key != "live"]
        assert len(shown) < len(SORTABLE)  # some columns are not shown at this width
        await pilot.press("2")
        headers = {}
        for _ in shown:
            await pilot.press("s")
            headers[sessions.sort_key] = header = sessions.render_line(0).text
            assert header.count("▼") + header.count("▲") == 1, header
        assert sorted(headers) == sorted(shown)
        labels = {key: label for key, label, *_ in COLUMNS}
        for key, header in headers.items():  # whole, the arrow right after it, then a gap before the next label
            assert re.search(rf"(?<!\S){labels[key]} [▼▲](?=  |\s*$)", header), header


async def test_sorting_by_model_follows_the_names_shown(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "-home-u-proj"
    for name, model in (("s1", "claude-opus-4-1-20250805"), ("s2", "claude-3-5-sonnet-20241022")):
        thread = Thread(session_id=name)
        thread.prompt(name)
        thread.answer(text("ok"), model=model)
        thread.write(folder / f"{name}.jsonl")
    app = browser([tmp_path / "projects"])
    async with app.run_test(size=(200, 45)) as pilot:  # wide enough for the Model column
        await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        sessions._sort_by("model")
        assert "Model ▲" in sessions.render_line(0).text
        assert [s.id for s in sessions.shown] == ["s1", "s2"]  # opus-4.1, sonnet-3.5 (claude-3-5-sonnet… first)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_the_highlighted_session_is_one_colour_on_the_cursor(roots: list[Path], theme: str) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        app.theme = theme
        app.choose_project(next(p for p in app.state.projects if len(p.sessions) > 1))
        sessions = app.main.query_one(SessionList)
        for key in ("1", "2"):  # the cursor blurred, then focused
            await pilot.press(key)
            cursor = sessions.render_line(1 + sessions.cursor - round(sessions.scroll_offset.y))
            assert len({s.style.color for s in cursor if s.text.strip() and s.style}) == 1, cursor.text
            other = sessions.render_line(2 if sessions.cursor == 0 else 1)
            assert len({s.style.color for s in other if s.text.strip() and s.style}) == 2  # its dim cells


async def test_sorted_by_a_column_the_width_drops_the_header_still_says_by_what(roots: list[Path]) -> None:
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        sessions._sort_by("tokens")
        await pilot.resize_terminal(110, 30)
        await pilot.pause()
        assert "tokens" not in [key for key, _, _ in sessions._columns]
        header = sessions.render_line(0).text
        assert "Title (by tokens ▼)" in header and header.count("▼") == 1, header


async def test_a_session_deleted_since_the_index_listed_it_gives_way_to_the_newest(tmp_path: Path) -> None:
    """The index lists the history as it was; a session deleted since is not what the app stays on."""
    root = tmp_path / "projects"
    older, newer = simple_project(root, sessions=2)
    os.utime(older, (time.time() - 600, time.time() - 600))
    Library([root], cache_dir()).refresh()
    newer.unlink()
    app = browser([root], follow=True)
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        view = app.main.conversation
        await settled(pilot, lambda: view.session is not None and Path(view.session.path) == older)
        await settled(pilot, lambda: bool(view.session and view.session.messages))


@pytest.mark.parametrize("width", [80, 50])
async def test_the_key_bar_keeps_whole_keys_and_help_when_narrow(roots: list[Path], width: int) -> None:
    app = browser(roots)
    async with app.run_test(size=(width, 24)) as pilot:
        view = await browser_ready(pilot, app)
        view.focus()
        await pilot.pause()
        bar = str(app.main.query_one(KeyBar).render()).rstrip()
        assert bar.endswith("? Keys") and "…" not in bar and len(bar) <= width, bar
        assert " / Find " in bar if width == 80 else " ⏎ Open " in bar


def test_a_cost_fits_its_column_whatever_its_size() -> None:
    """$1,221.45 was cut to "$1,221…" in the 7 cells of the Cost column."""
    width = next(w for key, _, _, w, _ in COLUMNS if key == "cost")
    cells = [cost_cell(usd) for usd in (0.27, 999.994, 1221.45, 99_999.4, 99_999.6, 123_456.0, 9_876_543.0)]
    assert cells == ["$0.27", "$999.99", "$1,221", "$99,999", "$100k", "$123k", "$9,877k"]
    assert all(len(c) <= width for c in cells[:-1])  # nine million dollars in one session may be cut
    partial = [cost_cell(usd, unpriced=True) for usd in (0.27, 999.994, 1221.45, 99_999.4, 123_456.0)]
    assert partial == ["$0.27+", "$1,000+", "$1,221+", "$100k+", "$123k+"] and all(len(c) <= width for c in partial)
    assert (cost_cell(None), cost_cell(None, unpriced=True)) == ("-", "?")


def test_the_model_column_says_when_other_models_answered_too() -> None:
    """A session mostly of Opus with a few Haiku answers showed "opus-4.5" alone, as if Opus wrote it all."""
    width = next(w for key, _, _, w, _ in COLUMNS if key == "model")

    def cell(*models: str) -> str:
        return model_of(SimpleNamespace(models=list(models)))  # type: ignore[arg-type]

    mixed = cell("claude-opus-4-5-20251101", "claude-haiku-4-5-20251001")
    assert (cell("claude-sonnet-4-5-20250929"), mixed, cell()) == ("sonnet-4.5", "opus-4.5+", "-")
    assert len(mixed) <= width


async def test_a_cost_that_leaves_out_a_model_with_no_price_says_so(tmp_path: Path) -> None:
    """1,000 tokens of Sonnet and 50,000 of a model with no price showed "$0.02" as if complete, and a session
    of such a model alone "-" as if free."""
    folder = tmp_path / "projects" / "-home-u-proj"
    for prompt, models in (("partial", ("claude-sonnet-4-5-20250929", "claude-haiku-5-5")), ("unpriced", ("glm-5",))):
        thread = Thread()
        thread.prompt(prompt)
        for model in models:
            thread.answer(text("ok"), model=model, output_tokens=1000 if model.startswith("claude-s") else 50_000)
        thread.write(folder / f"{prompt}.jsonl")
        os.utime(folder / f"{prompt}.jsonl", (CLOCK.now() - 86400, CLOCK.now() - 86400))  # not live
    app = browser([tmp_path / "projects"])
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        rows = {line.split()[0]: line.split() for line in (sessions.render_line(y).text for y in (1, 2))}
        assert rows["partial"][-1] == "$0.02+" and rows["unpriced"][-1] == "?"  # the Cost column, last at this width
        facts = app.main.query_one("#session-facts")
        sessions.move_to(sessions.shown.index(next(s for s in sessions.shown if s.id == "partial")))
        await settled(pilot, lambda: "partial" in facts.render_line(0).text)
        assert facts.render_line(3).text.rstrip() == "51.2k tokens · $0.02+ (no price for claude-haiku-5-5)"
        assert facts.render_line(4).text.rstrip() == "haiku-5.5, sonnet-4.5"  # too long to join that line


async def test_a_move_in_the_list_right_after_choosing_a_project_is_not_undone_by_its_newest_opening(
    roots: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Choosing a project opens its top session after the list is drawn; on a busy machine (CI) the session a
    `j` typed at once moved to opened first, and the top one then replaced it under the cursor on row 2."""
    app = browser(roots)
    async with app.run_test(size=WIDE) as pilot:
        view = await browser_ready(pilot, app)
        held: list[tuple[Any, tuple[Any, ...]]] = []  # the next refresh comes late: after the move's open
        monkeypatch.setattr(app.main, "call_after_refresh", lambda callback, *args: held.append((callback, args)))
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        await pilot.press("1")
        for key in ("j", "enter", "j"):
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await settled(pilot, lambda: sessions.cursor == 1 and app.main.info is sessions.chosen and not view.reading)
        assert held
        for callback, args in held:  # the refresh
            callback(*args)
        await settled(pilot, lambda: not view.reading)
        assert tree.chosen is not None and tree.chosen.name == "weather-cli" and sessions.cursor == 1
        assert sessions.chosen is not None and view.session is not None and view.session.id == sessions.chosen.id


async def test_the_search_screens_date_hint_is_a_week_before_today(roots: list[Path]) -> None:
    """Its example is the day "7d" means, by the app's clock (it was a fixed date, months old)."""
    app = ClaudeTUI(roots, clock=dataclasses.replace(CLOCK, now=lambda: 1_800_000_000.0))  # 2027-01-15
    async with app.run_test(size=WIDE) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("ctrl+k")
        await settled(pilot, lambda: app.screen.query("#search-since"))
        assert app.screen.query_one("#search-since", Input).placeholder == "since (7d, 2027-01-08)"


def test_the_header_orders_models_and_counts_commands_as_the_facts_pane_does(tmp_path: Path) -> None:
    """The model that wrote the most first (the list's Model column and facts pane have it so), and the commands
    beside the prompts (the pane said "2 prompts", the header "2 prompts, 1 command")."""
    t = Thread()
    t.prompt("look")
    t.answer(text("a glance"), model="claude-haiku-4-5-20251001", output_tokens=10)
    t.prompt(
        "<command-name>/model</command-name><command-message>model</command-message><command-args>opus</command-args>"
    )
    t.prompt("now think")
    t.answer(text("a long answer"), model="claude-opus-4-5-20251101", output_tokens=5000)
    path = t.write(tmp_path / "projects" / "-home-u-proj" / "s1.jsonl")
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    [info] = lib.projects[0].sessions
    header = SessionHeader(CLOCK)._facts(session := read_session(path), session).plain
    assert "opus-4.5, haiku-4.5" in header and "2 prompts, 1 command" in header
    assert info.models == ["claude-opus-4-5-20251101", "claude-haiku-4-5-20251001"]
    assert (info.prompts, info.commands) == (2, 1)


async def test_a_filter_that_matches_nothing_says_so_and_the_key_bar_says_the_way_out(roots: list[Path]) -> None:
    """The list says no session matches, and the key bar, blank while the box had the focus, names its keys."""
    app = browser(roots)
    async with app.run_test(size=(120, 32)) as pilot:
        await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        await pilot.press("2", "slash", *"zqxw")
        await settled(pilot, lambda: sessions.filter_text == "zqxw" and not sessions.shown)
        assert sessions.render_line(1).text.strip() == "No session matches “zqxw”"
        bar = str(app.main.query_one(KeyBar).render())
        assert "esc Clear filter" in bar and "⏎ Open the highlighted row" in bar, bar
        facts = app.main.query_one("#session-facts")
        await settled(pilot, lambda: facts.size.height == 1)  # not the facts of a session the list no longer shows
        assert not facts.render_line(0).text.strip()
        await pilot.press("escape")
        await settled(pilot, lambda: sessions.has_focus and sessions.shown)
        await settled(pilot, lambda: facts.size.height > 1 and sessions.chosen is not None)
        assert facts.render_line(0).text.strip()
