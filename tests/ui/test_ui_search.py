"""Pilot tests of both searches: the find bar in the open session, the pane filters, and the search screen."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from textual import events
from textual.strip import Strip
from textual.widgets import Input, Select, Static
from textual.widgets._toast import Toast

from claude_tui.core.model import Kind
from claude_tui.core.search import MARK_END, MARK_START, SearchHit, SearchStopped, parse_query
from claude_tui.ui.app import ClaudeTUI
from claude_tui.ui.highlight import match_styles
from claude_tui.ui.screens.detail import DetailBody, DetailScreen
from claude_tui.ui.screens.main import MainScreen
from claude_tui.ui.screens.search import HitList, SearchScreen, as_typed, words_of
from claude_tui.ui.widgets import findbar
from claude_tui.ui.widgets.conversation import ConversationView
from claude_tui.ui.widgets.findbar import FindBar, PaneNote
from claude_tui.ui.widgets.projects import ProjectTree
from claude_tui.ui.widgets.sessions import SessionList
from tests.jsonl import Thread, text, tool_use
from tests.ui_support import (
    CLOCK,
    browser_ready,
    demo,
    demo_copy,
    drained,
    find,
    handled,
    index_of,
    loaded,
    palette,
    raised,
    session_app,
    settled,
)

SIZE = (120, 40)


def toasts_shown(app: ClaudeTUI) -> list[Toast]:
    return list(app.screen.query(Toast))


def line_of(view: ConversationView) -> Strip | None:
    """The line on screen that holds the current match (drawn on its background), if one does."""
    _, current = match_styles(view.app)
    lines = (view.render_line(y) for y in range(view.size.height))
    return next((line for line in lines if any(s.style and s.style.bgcolor == current.bgcolor for s in line)), None)


async def test_matches_highlight_as_you_type_and_are_counted() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        bar = await find(pilot, app, "full-text")
        assert bar.active and bar.input.has_focus
        assert bar.status_text == "5 matches"
        other, _ = match_styles(app)
        lines = [view.render_line(y) for y in range(view.size.height)]
        marked = [s for line in lines for s in line if s.style is not None and s.style.bgcolor == other.bgcolor]
        assert marked and {s.text for s in marked} == {"full-text"}  # on screen, highlighted, before Enter
        await pilot.press("backspace", *"T")
        await settled(pilot, lambda: bar.done)
        assert bar.status_text == "no matches"  # a capital: case counts


async def test_enter_opens_the_collapsed_tool_output_that_holds_the_match() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        bar = await find(pilot, app, "4 passed")
        bash = next(e for e in view.entries if e.call is not None and e.call.name == "Bash")
        assert bash.key not in view.expanded
        await pilot.press("enter")
        assert view.has_focus and view.cursor is bash and bash.key in view.expanded
        assert bar.status_text == "match 1 of 1"
        line = line_of(view)
        assert line is not None and "4 passed in 0.52s" in line.text
        _, current = match_styles(app)
        assert any(s.text == "4 passed" and s.style.bgcolor == current.bgcolor for s in line)


async def test_a_match_inside_a_subagent_opens_its_task() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        task = next(e for e in view.entries if e.call is not None and e.call.name == "Task")
        await find(pilot, app, "deps.py")
        await pilot.press("enter")
        entry = view.cursor
        assert entry is not None and entry.depth == 1 and entry.call is not None and entry.call.name == "Glob"
        assert task.call in view.expanded and entry.key in view.expanded
        line = line_of(view)
        assert line is not None and "notes_api/deps.py" in line.text


async def test_n_and_N_go_through_the_matches_and_wrap() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        bar = await find(pilot, app, "updated_at")
        await pilot.press("enter")
        assert bar.status_text == "match 1 of 17"
        await pilot.press("n", "n")
        assert bar.status_text == "match 3 of 17"
        await pilot.press("N")
        assert bar.status_text == "match 2 of 17"
        await pilot.press("N", "N")
        assert bar.status_text == "match 17 of 17"  # wrapped around
        await pilot.press("G", "n")  # from the cursor (the end), not from the last match: wraps to the top
        assert bar.status_text == "match 1 of 17"
        await pilot.press("G", "N")
        assert bar.status_text == "match 17 of 17"
        await pilot.press("escape")
        assert not bar.active and view.marker is None and view.has_focus
        await pilot.press("n")  # the last search again, with its highlights
        assert bar.active and view.marker is not None


async def test_n_after_G_wraps_to_the_first_match_even_when_it_was_the_last_one_visited() -> None:
    """With the first match the last one visited, G then n (or g then n) skipped it and went to the second."""
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        bar = await find(pilot, app, "updated_at")
        await pilot.press("enter")
        assert bar.status_text == "match 1 of 17"
        await pilot.press("G", "n")  # none after the cursor: wraps to the first
        assert bar.status_text == "match 1 of 17"
        await pilot.press("g", "n")  # the first after the cursor
        assert bar.status_text == "match 1 of 17"
        await pilot.press("N", "g", "N")  # the same going up: from the last match visited, g then N wraps to it
        assert bar.status_text == "match 17 of 17"


async def test_n_and_N_go_by_the_row_under_the_cursor_not_its_whole_message(tmp_path: Path) -> None:
    """On a tool call below a match of its own message, N passed the match over (and wrapped to the last) and n
    went up to it: both compared whole messages."""
    thread = Thread()
    thread.prompt("start")
    thread.answer(text("the word alpha is here"), tool_use("t1", "Bash", command="ls"), msg_id="m1")
    thread.result("t1", "a.txt")
    thread.prompt("and alpha again")
    app = session_app(thread.write(tmp_path / "s.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        bash = next(i for i, e in enumerate(view.entries) if e.call is not None)
        bar = await find(pilot, app, "alpha")
        await pilot.press("escape")
        for key, expected in (("N", "match 1 of 2"), ("n", "match 2 of 2")):
            view.select(bash)
            await pilot.press(key)
            assert bar.status_text == expected


async def test_a_match_in_a_subagent_no_call_started_is_numbered_where_the_pane_draws_it(tmp_path: Path) -> None:
    """Matches in a subagent drawn after the conversation were placed by their line in its own file: from the
    last prompt, n went to it as "match 1 of 4", then to the first prompt as "match 2 of 4"."""
    thread = Thread(session_id="s1")
    for i in range(12):
        thread.prompt(f"prompt {i}" + (" WORD" if i in (1, 6, 10) else ""))
        thread.answer(text(f"answer {i}"))
    path = thread.write(tmp_path / "s1.jsonl")
    warmup = Thread(session_id="s1")
    warmup.prompt("Warmup", None, isSidechain=True, agentId="w1")
    warmup.answer(text("Ready. WORD in the warmup"))
    warmup.write(tmp_path / "s1" / "subagents" / "agent-w1.jsonl")
    app = session_app(path)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        assert view.entries[-1].agent is not None  # the subagent is drawn last
        view.select(index_of(view, lambda e: e.message.plain_text == "prompt 5"))
        bar = await find(pilot, app, "WORD")
        seen = []
        for key in ("enter", "n", "n", "n"):
            await pilot.press(key)
            assert view.cursor is not None
            seen.append((view.cursor.message.plain_text.split(" WORD")[0], bar.status_text))
        assert seen == [
            ("prompt 6", "match 2 of 4"),
            ("prompt 10", "match 3 of 4"),
            ("Ready.", "match 4 of 4"),
            ("prompt 1", "match 1 of 4"),
        ]


async def test_every_match_in_one_long_output_is_counted(tmp_path: Path) -> None:
    """Matches in one piece of text were counted up to 1,000, with no "+" to say so."""
    thread = Thread()
    thread.prompt("run the tests")
    thread.answer(tool_use("t1", "Bash", command="pytest"), msg_id="m1")
    thread.result("t1", "\n".join(f"test_{i} passed" for i in range(3000)))
    app = session_app(thread.write(tmp_path / "s.jsonl"))
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot, app)
        bar = await find(pilot, app, "passed")
        assert bar.status_text == "3,000 matches"


def repeated(tmp_path: Path, messages: int, words: int) -> Path:
    """A session of `messages` prompts, each the word "ab" `words` times."""
    thread = Thread()
    for i in range(messages):
        thread.prompt(f"part {i}: " + "ab " * words)
    return thread.write(tmp_path / "s.jsonl")


async def test_N_from_the_first_of_more_matches_than_are_held_goes_to_the_last(tmp_path: Path) -> None:
    """Past 50,000 matches, N from the first wrapped to the 50,000th, not to the last of the conversation."""
    app = session_app(repeated(tmp_path, 3, 20_000))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        view.select(0)
        bar = await find(pilot, app, "ab")
        assert bar.status_text == "50,000+ matches" and len(bar.matches) == findbar.MAX_HITS
        await pilot.press("enter")
        assert bar.status_text == "match 1 of 50,000+"
        await pilot.press("N")
        current = bar.current
        assert current is not None and current.hit.message is view.messages[-1]
        assert current.hit.start == current.hit.part.text.rindex("ab")
        await pilot.press("n")
        assert bar.status_text == "match 1 of 50,000+"


async def test_n_and_N_visit_every_match_of_more_than_are_held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A capped count holds the matches nearest the cursor: going past them counts again around the match."""
    monkeypatch.setattr(findbar, "MAX_HITS", 8)
    app = session_app(repeated(tmp_path, 10, 2))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        view.select(index_of(view, lambda e: e.message is view.messages[1]))
        bar = await find(pilot, app, "ab")
        assert bar.status_text == "8+ matches"
        await pilot.press("escape")
        every = [(m.index, start) for m in view.messages for start in (8, 11)]
        for key, order in (("n", every[2:] + every[:2]), ("N", every[0::-1] + every[:0:-1])):
            seen = []
            for _ in every:
                await pilot.press(key)
                await settled(pilot, lambda: bar._pending is None and bar._fresh is None)
                assert bar.current is not None and len(bar.matches) <= 8
                seen.append((bar.current.hit.message.index, bar.current.hit.start))
            assert seen == order


async def test_n_and_N_from_a_cursor_moved_away_from_a_capped_count_go_next_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A capped count holds the matches nearest where it started: with the cursor moved to the top, n went to
    the first of those (the middle of the session), not to the first match under the cursor; N the same."""
    monkeypatch.setattr(findbar, "MAX_HITS", 8)
    app = session_app(repeated(tmp_path, 10, 2))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        view.select(index_of(view, lambda e: e.message is view.messages[5]))
        bar = await find(pilot, app, "ab")
        assert bar.status_text == "8+ matches"
        await pilot.press("escape")
        for where, key, expected in ((0, "n", (0, 8)), (-1, "N", (8, 11))):
            view.select(index_of(view, lambda e, where=where: e.message is view.messages[where]))
            await pilot.press(key)
            await settled(pilot, lambda: bar._pending is None and bar._fresh is None)
            assert bar.current is not None
            assert (bar.current.hit.message.index, bar.current.hit.start) == expected


async def test_n_goes_on_through_matches_past_what_the_pane_shows(tmp_path: Path) -> None:
    thread = Thread()
    thread.prompt("run the tests")
    thread.answer(tool_use("t1", "Bash", command="pytest"), msg_id="m1")
    thread.result("t1", "\n".join(f"test_{i} passed" for i in range(200)))
    thread.answer(text("done"))
    app = session_app(thread.write(tmp_path / "s.jsonl"))
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot, app)
        bar = await find(pilot, app, "passed")
        await pilot.press("enter")
        seen = [bar.status_text]
        for _ in range(40):
            await pilot.press("n")
            seen.append(bar.status_text)
        assert [s.split(" · ")[0] for s in seen] == [f"match {i} of 200" for i in range(1, 42)]
        assert seen[-1].endswith(" · past the pane: ⏎ opens it")  # the pane shows the output's head
        await pilot.press("enter")  # the detail view lands on that match, highlighted
        await settled(pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.text)
        body = app.screen.query_one(DetailBody)
        await settled(pilot, lambda: body.current[0] >= 0)
        line, cell = body.current
        assert body.plain_line(line).text[cell:].startswith("passed") and "test_40 passed" in body.plain_line(line).text
        scroll = app.screen.query_one("#detail-scroll")
        assert scroll.scroll_offset.y <= line < scroll.scroll_offset.y + scroll.size.height
        _, current = body.marks
        assert any(s.style and s.style.bgcolor == current.bgcolor for s in body.render_line(line))


async def test_a_match_past_what_the_detail_view_shows_is_said_to_be_in_the_pager(tmp_path: Path) -> None:
    thread = Thread()
    thread.prompt("dump it")
    thread.answer(tool_use("t1", "Bash", command="cat big.log"), msg_id="m1")
    thread.result("t1", "x" * 80 + "\n" + "filler line\n" * 6_000 + "NEEDLEATEND")
    app = session_app(thread.write(tmp_path / "s.jsonl"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await loaded(pilot, app)
        bar = await find(pilot, app, "NEEDLEATEND")
        await pilot.press("enter")
        assert bar.status_text == "match 1 of 1 · past the pane: ⏎ opens it"
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.text)
        await settled(pilot, lambda: raised(app))
        said = [n.message for n in raised(app)]
        assert said == ["The match is past the first 50,000 characters shown here: o opens it all in $PAGER"]


@pytest.mark.parametrize("keys", ["/jest", "/pen"])
async def test_keys_typed_fast_after_slash_land_in_the_find_bar(keys: str) -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        cursor = view.cursor_index
        bar = app.screen.query_one(FindBar)  # added hidden once the first frame was drawn
        # the second time straight after Escape, and over the last query (selected when the bar opens)
        for typed in (keys, "\x1b/up"):
            for key in typed:  # all in the queue before the first is handled, as a fast typist's keys arrive
                name = {"/": "slash", "\x1b": "escape"}.get(key, key)
                app.post_message(events.Key(name, None if key == "\x1b" else key))
            await handled(pilot, app)
            await settled(pilot, lambda: bar.done)
            assert bar.input.value == typed.split("/")[1]
            assert bar.active and bar.input.has_focus
            assert view.cursor_index == cursor and view.pane_filter is None  # no key ran as a conversation key
        await pilot.press("escape")
        assert not bar.active and view.has_focus


async def test_an_enter_typed_with_the_query_jumps_to_its_first_match() -> None:
    """A query and its Enter in one burst (a paste, a macro): the Enter must not find the box still empty."""
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        cursor = view.cursor_index
        bar = app.screen.query_one(FindBar)
        for key in "/passed\r":
            name = {"/": "slash", "\r": "enter"}.get(key, key)
            app.post_message(events.Key(name, None if key == "\r" else key))
        await settled(pilot, lambda: bar.current is not None)
        assert bar.active and bar.input.value == "passed" and view.cursor_index != cursor
        assert bar.status_text.startswith("match 1 of ")


async def test_keys_typed_after_slash_before_the_find_bar_is_there_land_in_it() -> None:
    """The find bar is added after the first frame: a / typed before that, and what follows it, still find."""
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        cursor = view.cursor_index
        await app.screen.query_one(FindBar).remove()  # as it is before the first frame
        for key in "/jest":
            app.post_message(events.Key("slash" if key == "/" else key, key))
        await settled(pilot, lambda: bool(app.screen.query(FindBar)) and app.screen.query_one(FindBar).active)
        bar = app.screen.query_one(FindBar)
        await settled(pilot, lambda: bar.input.value == "jest")
        assert bar.input.has_focus and view.cursor_index == cursor and view.pane_filter is None


async def test_regex_toggle_and_a_bad_pattern() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        bar = await find(pilot, app, "updated_?at|passed")
        assert bar.status_text == "no matches"
        await pilot.press("ctrl+r")
        await settled(pilot, lambda: bar.done)
        assert bar.regex and bar.status_text == "18 matches"
        await pilot.press("(")
        assert bar.status_text == "bad regex: missing )"  # short: the box keeps its room
        assert bar.input.size.width > SIZE[0] // 2
        await pilot.press("enter")  # says why; nothing breaks
        assert bar.input.has_focus
        await pilot.press("escape")
        assert not bar.active


async def test_a_notice_while_finding_leaves_the_find_bar_in_view() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await loaded(pilot, app)
        bar = await find(pilot, app, "zqxqz")
        await pilot.press("enter")
        assert bar.status_text == "no matches"  # said in the bar, not over it
        app.notify("a notice")
        await settled(pilot, lambda: (toasts := toasts_shown(app)) and all(t.region for t in toasts))
        assert all(t.region.bottom <= bar.region.y for t in toasts_shown(app))
        await pilot.press("escape", "escape")
        app.notify("after")
        await settled(pilot, lambda: any(t._notification.message == "after" and t.region for t in toasts_shown(app)))
        assert max(t.region.bottom for t in toasts_shown(app)) == SIZE[1] - 1  # the bar closed: down again


@pytest.fixture
def big_session(tmp_path: Path) -> Path:
    """Many long tool outputs (read back whole from the file when searched)."""
    thread = Thread()
    for i in range(300):
        thread.prompt(f"step {i}")
        thread.answer(tool_use(f"t{i}", "Bash", command=f"make part{i}"), msg_id=f"m{i}")
        thread.result(f"t{i}", f"build line {i} ok\n" * 3000 + ("needle at the end\n" if i == 299 else ""))
    thread.answer(text("done"))
    return thread.write(tmp_path / "big.jsonl")


async def test_a_search_is_cancelled_by_the_next_key(big_session: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ended: list[tuple[str, bool]] = []
    original = findbar.find

    def spy(session: Any, query: Any, *args: Any, **kw: Any) -> Iterator[Any]:
        cancelled = args[-1]
        deadline = time.monotonic() + 30

        def slowly() -> bool:  # each search but the last goes on until it is stopped, whatever the machine
            while query.text != "needle" and not cancelled() and time.monotonic() < deadline:
                time.sleep(0.002)
            return cancelled()

        yield from original(session, query, *args[:-1], slowly, **kw)
        ended.append((query.text, cancelled()))

    monkeypatch.setattr(findbar, "find", spy)
    app = session_app(big_session)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("slash")
        await pilot.pause()
        bar = app.screen.query_one(FindBar)
        await pilot.press(*"needle")
        await settled(pilot, lambda: bar.done and bar.input.value == "needle")
        assert bar.status_text == "1 match"
        assert ("needle", False) in ended  # the last search ran to the end
        assert any(cancelled for query, cancelled in ended if query != "needle")  # earlier ones were stopped
        await pilot.press("enter")
        assert view.cursor is not None and view.cursor.call is not None and view.cursor.call.id == "t299"
        assert line_of(view) is None and bar.status_text.endswith("past the pane: ⏎ opens it")  # the bar says so


async def test_pane_filters() -> None:
    app = session_app(demo("dce61781"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        before = view.entries
        everything = len(before)
        await pilot.press("P")
        assert view.entries and all(e.message.kind is Kind.PROMPT for e in view.entries)
        assert view.pane_filter is not None and view.entries == [e for e in before if view.pane_filter.keeps(e)]
        note = app.screen.query_one(PaneNote)
        assert note.display and "only prompts" in str(note.render())
        await pilot.press("exclamation_mark")
        assert view.entries and all(e.call is not None and e.call.status == "error" for e in view.entries)
        assert view.pane_filter is not None and view.entries == [e for e in before if view.pane_filter.keeps(e)]
        await pilot.press("exclamation_mark")
        assert len(view.entries) == everything and not note.display
        assert view.entries == before  # the same rows, measured once: none was built again
        view.select(index_of(view, lambda e: e.call is not None and e.call.name == "Bash"))
        await pilot.press("T")
        assert view.entries and all(e.call is not None and e.call.name == "Bash" for e in view.entries)
        await pilot.press("T")
        assert len(view.entries) == everything
        await palette(pilot, app, "only Read")
        await pilot.press("enter")
        await settled(pilot, lambda: view.pane_filter is not None)
        assert all(e.call is not None and e.call.name == "Read" for e in view.entries)


async def test_a_filter_that_keeps_nothing_says_so(tmp_path: Path) -> None:
    thread = Thread()
    thread.prompt("all fine?")
    thread.answer(text("yes"), tool_use("t1", "Bash", command="true"))
    thread.result("t1", "")
    app = session_app(thread.write(tmp_path / "s.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("exclamation_mark")
        assert not view.entries
        middle = view.render_line(view.size.height // 2).text.strip()
        assert middle == "No errors to show — press ! to show everything"
        await pilot.press("exclamation_mark")
        assert view.entries


async def test_find_shows_a_match_the_filter_hides() -> None:
    app = session_app(demo("67df"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("P")
        await find(pilot, app, "4 passed")
        await pilot.press("enter")
        assert view.pane_filter is None and view.cursor is not None and view.cursor.call is not None


# ---------------------------------------------------------------- across all sessions


@pytest.fixture
def roots(tmp_path: Path) -> list[Path]:
    return [demo_copy(tmp_path)]


async def search(pilot: Any, app: ClaudeTUI, query: str) -> SearchScreen:
    await pilot.press("ctrl+k")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, SearchScreen)
    await pilot.press(*query)
    await settled(pilot, lambda: not screen.searching and not screen.pending and screen.hits)
    return screen


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_the_highlighted_hit_is_one_colour_on_the_cursor(roots: list[Path], theme: str) -> None:
    """Its dim where-and-when kept its grey on the cursor's colour (about 1.4:1), as the session list's did."""
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        await browser_ready(pilot, app)
        app.theme = theme
        screen = await search(pilot, app, "notes")
        hits = screen.query_one(HitList)
        assert len(screen.hits) > 1 and not any(hit.is_error for hit in screen.hits[:2])
        for focused in (False, True):  # the cursor blurred (the query has the focus), then focused
            if focused:
                await pilot.press("down")
            assert hits.has_focus == focused and hits.cursor == 0
            cursor, other = hits.render_line(0), hits.render_line(2)  # each hit's title, where and who
            assert len({(s.style.color, s.style.dim) for s in cursor if s.text.strip() and s.style}) == 1, cursor.text
            assert len({(s.style.color, s.style.dim) for s in other if s.text.strip() and s.style}) == 2  # its dim


async def test_more_hits_come_when_the_cursor_reaches_the_last(tmp_path: Path) -> None:
    thread = Thread(session_id="many", cwd="/home/u/many")
    for i in range(150):
        thread.prompt(f"needle number {i}")
        thread.answer(text("ok"))
    thread.write(tmp_path / "projects" / "-home-u-many" / "many.jsonl")
    app = ClaudeTUI([tmp_path / "projects"], clock=CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await browser_ready(pilot, app)
        screen = await search(pilot, app, "needle")
        status = screen.query_one("#search-status", Static)
        assert len(screen.hits) == 100 and "100+ messages" in str(status.render())
        await pilot.press("down", "end")  # to the results, then the last of them
        await settled(pilot, lambda: len(screen.hits) == 150)
        hits = screen.query_one(HitList)
        assert hits.cursor == 99 and "150 messages" in str(status.render())
        await pilot.press("end")
        assert hits.cursor == 149 and len(screen.hits) == 150  # all there is


async def test_a_hit_of_another_year_says_its_day(tmp_path: Path) -> None:
    """A time of day needs its day: "2 Sep '25 18:01", not "Sep '25 18:01"."""
    thread = Thread(session_id="old", cwd="/home/u/old")
    thread.prompt("needle of last year", timestamp="2025-09-02T18:01:00.000Z")
    thread.write(tmp_path / "projects" / "-home-u-old" / "old.jsonl")
    app = ClaudeTUI([tmp_path / "projects"], clock=CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await browser_ready(pilot, app)
        screen = await search(pilot, app, "needle")
        lines = [screen.query_one(HitList).render_line(y).text for y in range(3)]
        assert any("old · 2 Sep '25 18:01 · you" in line for line in lines), lines


async def test_a_search_a_newer_one_followed_gives_up_and_shows_nothing(
    roots: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first search came to the index after the second was asked for: it gives up (on a big history it would
    take seconds for nothing), and only the second's results are shown, with their count."""
    app = ClaudeTUI(roots, clock=CLOCK)
    answered: list[int] = []
    handle = SearchScreen.on_search_screen_results

    def counted(screen: SearchScreen, message: SearchScreen.Results) -> None:
        answered.append(message.token)
        handle(screen, message)

    monkeypatch.setattr(SearchScreen, "on_search_screen_results", counted)
    async with app.run_test(size=(140, 40)) as pilot:
        await browser_ready(pilot, app)
        real, asked, go_on = app.state.library.search, [], {"notes*": threading.Event(), "deps*": threading.Event()}

        stopped: list[str] = []

        def held(text: str, **kw: Any) -> Any:
            asked.append(text)
            go_on[text].wait(10)
            try:
                return real(text, **kw)
            except SearchStopped:
                stopped.append(text)
                raise

        app.state.library.search = held  # type: ignore[method-assign]
        await pilot.press("ctrl+k")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        query = screen.query_one("#search-query", Input)
        for words in ("notes", "deps"):
            query.value = words
            await settled(pilot, lambda words=words: asked[-1:] == [f"{words}*"] and not screen.pending)
        go_on["notes*"].set()
        await settled(pilot, lambda: stopped == ["notes*"])
        assert not screen.hits and "messages" not in str(screen.query_one("#search-status", Static).render())
        go_on["deps*"].set()
        await settled(pilot, lambda: screen.hits)
        assert answered == [2] and any(h.tool == "Glob" for h in screen.hits)


def test_the_last_word_typed_is_a_prefix() -> None:
    assert as_typed("conf") == "conf*"
    assert as_typed("json conf") == "json conf*"
    assert as_typed("c") == "c"  # one letter would match half the index
    assert as_typed("conf ") == "conf "
    assert as_typed('"json lines') == '"json lines'
    assert as_typed("pars*") == "pars*"


def test_a_hit_opened_finds_all_its_query_words_not_only_those_its_snippet_shows() -> None:
    terms = parse_query('Gerard favo* "git worktree" x.py').terms
    assert terms == ("Gerard", "favo", "git worktree", "x.py")
    snippet = f"ask {MARK_START}Gérard{MARK_END} about it"
    path = Path("s.jsonl")
    hit = SearchHit("s", path, "p", "t", None, "user", "prompt", None, None, snippet, path, 0, terms=terms)
    words = words_of(hit)
    assert words is not None and not words.case_sensitive
    text = "Gérard and gerard like Favorites in git worktree, not xapy; git\n    worktree"
    found = [text[a:b] for a, b in words.spans(text)]
    assert found == ["Gérard", "gerard", "Favo", "git worktree", "git\n    worktree"]  # as the index, across lines
    one = SearchHit("s", path, "p", "t", None, "user", "prompt", None, None, "", path, 0, terms=("git worktree",))
    phrase = words_of(one)
    assert phrase is not None and [text[a:b] for a, b in phrase.spans(text)] == ["git worktree", "git\n    worktree"]


async def test_search_screen_opens_a_hit_inside_a_subagent_and_comes_back(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        view = await browser_ready(pilot, app)
        screen = await search(pilot, app, "deps")
        glob = next(i for i, h in enumerate(screen.hits) if h.tool == "Glob")
        hit = screen.hits[glob]
        assert hit.file != hit.path and hit.kind == "tool_output"  # in a subagent's own file
        stamps = [h.timestamp for h in screen.hits]
        assert stamps == sorted(stamps, reverse=True)  # newest first
        await pilot.press("down", *["down"] * glob, "enter")
        assert isinstance(app.screen, MainScreen)
        await settled(pilot, lambda: not app.main.hit_pending and view.session is not None and not view.reading)
        entry = view.cursor
        assert entry is not None and entry.depth == 1 and entry.call is not None and entry.call.name == "Glob"
        assert entry.key in view.expanded and entry.message in view.highlighted and view.has_focus
        assert view.session.path == str(hit.path)
        bar = app.main.find_bar
        assert bar is not None and bar.active and bar.input.value == "deps"  # the words found in the session
        await settled(pilot, lambda: bar.done)
        assert bar._landed is entry and bar.status_text.startswith("match ")  # on the match opened
        await pilot.press("escape")  # the bar was the hit's: closed, and back to the results
        assert not bar.active
        assert app.screen is screen and screen.query_one("#search-query", Input).value == "deps"
        assert screen.query_one(HitList).has_focus  # back on the results, at the hit opened


async def test_a_hit_of_a_prefix_opens_the_find_bar_with_the_words_typed(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        view = await browser_ready(pilot, app)
        screen = await search(pilot, app, "conf")
        hit = screen.hits[0]
        await pilot.press("down", "enter")
        await settled(pilot, lambda: not app.main.hit_pending and view.session is not None and not view.reading)
        bar = app.main.find_bar
        assert bar is not None and bar.active
        await settled(pilot, lambda: bar.done)
        assert bar.input.value == "conf" and not bar.regex  # as typed, not the pattern that finds what it found
        marked = re.findall(f"{MARK_START}(.*?){MARK_END}", hit.snippet)[0]
        assert bar.query_ is not None and bar.query_.spans(marked) == [(0, len(marked))]
        assert bar.status_text.startswith("match ")
        bar.input.value = "confi"  # typed over: the box's text is the query
        await settled(pilot, lambda: bar.done and bar._searched == ("confi", False))
        assert bar.query_ is not None and bar.query_.text == "confi"


async def test_the_find_bar_counts_its_query_in_the_next_session_shown(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        view = await browser_ready(pilot, app)
        view.focus()
        bar = await find(pilot, app, "the")
        first = view.session
        counted = bar.status_text
        other = next(
            s for p in app.state.projects for s in p.sessions if first is not None and str(s.path) != first.path
        )
        app.main.open_session(other)
        await settled(pilot, lambda: view.session is not first and not view.reading and bar.done)
        assert bar.active and bar._count.session is view.session
        assert bar.status_text != counted
        found = len(bar.matches)
        assert bar.status_text == (f"{found} matches" if found else "no matches")


async def test_a_hit_in_a_tool_output_whose_call_line_is_damaged_opens_it(tmp_path: Path) -> None:
    thread = Thread(session_id="orphan", cwd="/home/u/orphan")
    thread.prompt("run it")
    thread.answer(tool_use("t1", "Bash", command="./run"), msg_id="m1")
    thread.result("t1", "ORPHANRESULT permission denied", is_error=True)
    path = thread.write(tmp_path / "projects" / "-home-u-orphan" / "orphan.jsonl")
    lines = path.read_bytes().split(b"\n")
    lines[1] = lines[1][: len(lines[1]) // 2]  # the call's line cut off
    path.write_bytes(b"\n".join(lines))
    app = ClaudeTUI([tmp_path / "projects"], clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        view = await browser_ready(pilot, app)
        await search(pilot, app, "ORPHANRESULT")
        await pilot.press("down", "enter")
        await settled(pilot, lambda: not app.main.hit_pending and not view.reading)
        entry = view.cursor
        assert entry is not None and entry.call is not None and entry.call.lost and entry.key in view.expanded
        shown = "\n".join(view.render_line(y).text for y in range(view.size.height))
        assert "✗ ?" in shown and "its call is not in the file (a damaged line?)" in shown
        assert "ORPHANRESULT permission denied" in shown and "⚠ line 2: invalid JSON" in shown


def forked_thread() -> Thread:
    """A prompt edited twice over: the first branch forked again inside; the newest branch is the last one."""
    thread = Thread(session_id="forks", cwd="/home/u/forks")
    thread.prompt("start the work")
    start = thread.answer(text("started"))["uuid"]
    thread.prompt("the first way")
    first = thread.answer(text("first way taken"))["uuid"]
    thread.prompt("go deeper", parent=first)
    thread.answer(text("the HIDDENNEEDLE is down here"))
    thread.prompt("go elsewhere", parent=first)
    thread.answer(text("elsewhere"))
    thread.prompt("the second way", parent=start)
    thread.answer(text("second way taken"))
    return thread


async def test_a_hit_on_another_branch_switches_to_the_branch_that_holds_it(tmp_path: Path) -> None:
    forked_thread().write(tmp_path / "projects" / "-home-u-forks" / "forks.jsonl")
    app = ClaudeTUI([tmp_path / "projects"], clock=CLOCK)
    async with app.run_test(size=(140, 40), notifications=True) as pilot:
        view = await browser_ready(pilot, app)
        assert view.session is not None and not any("HIDDENNEEDLE" in m.plain_text for m in view.messages)
        outer, inner = view.session.forks
        await search(pilot, app, "HIDDENNEEDLE")
        await pilot.press("down", "enter")
        await settled(pilot, lambda: not app.main.hit_pending and not view.reading)
        entry = view.cursor
        assert entry is not None and "HIDDENNEEDLE" in entry.message.plain_text
        assert view.session.branch_of(outer) == 0 and view.session.branch_of(inner) == 0
        said = [n.message for n in raised(app)]
        assert "Switched to the branch that holds this message" in said
        assert not [m for m in said if "another branch" in m]


async def test_find_says_what_other_branches_hold_and_n_goes_on_to_them(tmp_path: Path) -> None:
    """A word only on a branch not being read was "no matches", with no hint that it was there."""
    app = session_app(forked_thread().write(tmp_path / "forks.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        bar = await find(pilot, app, "HIDDENNEEDLE")
        assert bar.status_text == "no matches here · 1 on other branches: ⏎ goes there"
        await pilot.press("enter")
        await settled(pilot, lambda: not bar.counting)
        assert view.cursor is not None and "HIDDENNEEDLE" in view.cursor.message.plain_text
        assert bar.status_text == "on another branch: match 1 of 1"  # the order n goes round stands
        await pilot.press("escape")
        bar = await find(pilot, app, "way taken")
        assert bar.status_text == "1 match · 1 on other branches"
        view.select(0)
        await pilot.press("enter")
        assert (
            "first way taken" in view.cursor.message.plain_text
            and bar.status_text == "match 1 of 1 · 1 on other branches"
        )
        await pilot.press("n")  # past the last match here: on to the other branch
        await settled(pilot, lambda: not bar.counting)
        assert "second way taken" in view.cursor.message.plain_text
        assert bar.status_text == "on another branch: match 1 of 1"
        assert view.session is not None and not any("first way" in m.plain_text for m in view.messages)


async def test_n_and_N_go_round_every_match_above_a_fork_and_on_each_branch(tmp_path: Path) -> None:
    """n from the last match here went to the other branch, which was counted again as the branch read: the
    one left became "other branches", and n swapped between the two for good, never back above the fork."""
    thread = Thread(session_id="forks", cwd="/home/u/forks")
    thread.prompt("start: the WORD at the top")
    start = thread.answer(text("started, WORD again"))["uuid"]
    thread.prompt("the first way")
    thread.answer(text("first WORD taken"))
    thread.prompt("the second way", parent=start)
    thread.answer(text("second WORD taken"))
    app = session_app(thread.write(tmp_path / "forks.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        view.select(0)
        bar = await find(pilot, app, "WORD")
        await pilot.press("enter")
        rounds = (  # those of the branch read (the newest), then the other's, and round again
            ("n", ["started,", "second", "first", "start:", "started,"]),
            ("N", ["start:", "first", "second", "started,", "start:"]),
        )
        for key, order in rounds:
            seen = []
            for _ in order:
                await pilot.press(key)
                await settled(pilot, lambda: not bar.counting)
                assert view.cursor is not None
                seen.append(view.cursor.message.plain_text.split()[0])
            assert seen == order
        await pilot.press("N")  # to the other branch, which the pane switches to
        assert bar.status_text == "on another branch: match 1 of 1"
        view.select(index_of(view, lambda e: e.message.plain_text == "the first way"))
        await pilot.press("n")  # from the cursor: counted again in the pane as it is now
        await settled(pilot, lambda: not bar.counting)
        assert view.cursor is not None and view.cursor.message.plain_text == "first WORD taken"
        assert bar.status_text == "match 3 of 3 · 1 on other branches"


async def test_search_screen_opens_a_compaction_summary(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        view = await browser_ready(pilot, app)
        screen = await search(pilot, app, "continued")
        assert {h.kind for h in screen.hits} == {"summary"}
        assert "compaction summary" in screen.query_one(HitList).render_line(0).text
        await pilot.press("down", "enter")
        await settled(pilot, lambda: not app.main.hit_pending and view.session is not None and not view.reading)
        entry = view.cursor
        assert entry is not None and entry.message.kind is Kind.COMPACT_SUMMARY
        assert view.session.path == str(screen.hits[0].path)


async def test_search_screen_opens_what_a_command_printed_dim_rows_hidden_or_not(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        view = await browser_ready(pilot, app)
        screen = await search(pilot, app, "claude-opus-4-5-20251101")
        assert [h.kind for h in screen.hits] == ["command_output"]
        assert "command output" in screen.query_one(HitList).render_line(0).text
        await pilot.press("down", "enter")
        await settled(pilot, lambda: not app.main.hit_pending and view.session is not None and not view.reading)
        entry = view.cursor
        assert entry is not None and entry.message.kind is Kind.COMMAND_OUTPUT
        assert entry.message.uuid == screen.hits[0].message_uuid
        view.hide_quiet = True  # the row hidden: opening the hit shows the dim rows again
        await pilot.press("ctrl+k", "enter")
        await settled(pilot, lambda: not app.main.hit_pending)
        entry = view.cursor
        assert not view.hide_quiet and entry is not None and entry.message.kind is Kind.COMMAND_OUTPUT


async def test_the_search_screen_finds_what_was_written_after_it_searched(tmp_path: Path) -> None:
    """Open, it searches again when the library has read what was written; reopened, too."""
    thread = Thread(session_id="live", cwd="/home/u/live")
    thread.prompt("first words")
    path = thread.write(tmp_path / "projects" / "-home-u-live" / "live.jsonl")

    def say(words: str) -> None:
        with path.open("ab") as f:
            f.write(orjson.dumps(thread.prompt(words)) + b"\n")

    app = ClaudeTUI([tmp_path / "projects"], clock=CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("ctrl+k", *"zanzibar")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        status = screen.query_one("#search-status", Static)
        await settled(pilot, lambda: not screen.searching and not screen.pending)
        assert "Nothing found" in str(status.render())
        say("zanzibar at last")
        await settled(pilot, lambda: len(screen.hits) == 1)
        await pilot.press("escape")
        app.main.query_one(SessionList).focus()
        app.main.live.stop.set()  # no more refreshes by the watcher: the reopened screen must search again itself
        say("zanzibar again")
        app.state.library.refresh()
        await pilot.press("ctrl+k")
        await settled(pilot, lambda: len(screen.hits) == 2)


async def test_a_cleared_query_stays_cleared_when_the_screen_is_opened_again(roots: list[Path]) -> None:
    """The search run before the query was cleared came back, its hits under an empty query."""
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        await browser_ready(pilot, app)
        screen = await search(pilot, app, "notes")
        await pilot.press(*["backspace"] * len("notes"))
        await settled(pilot, lambda: not screen.pending and not screen.hits)
        await pilot.press("escape", "ctrl+k")
        await drained(pilot)  # opened again: the search it does again (if any) has started
        await settled(pilot, lambda: not any(w.group == "search" for w in app.workers))
        await drained(pilot)
        assert not screen.searching  # what was searched last is shown
        assert screen.query_one("#search-query", Input).value == "" and not screen.hits


async def test_ctrl_k_again_types_in_the_query_not_the_results(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        await browser_ready(pilot, app)
        screen = await search(pilot, app, "deps")
        await pilot.press("escape", "ctrl+k")
        query = screen.query_one("#search-query", Input)
        assert app.screen is screen and query.has_focus and query.selection == (0, len("deps"))
        await pilot.press(*"quota")  # over the old query; a q on the results would quit
        assert app.is_running and query.value == "quota"
        await pilot.press("home", "ctrl+k")  # in the query box too (not the box's delete-to-the-end)
        assert query.value == "quota" and query.selection == (0, len("quota"))


@pytest.mark.parametrize("fast", [False, True])
async def test_downs_in_a_burst_from_the_query_move_down_the_results(roots: list[Path], fast: bool) -> None:
    """Five Downs from the query, sent at once (over SSH): the first moves to the results, the others went to the
    query box before the focus had moved and were lost (the cursor stayed on the first hit)."""
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        await browser_ready(pilot, app)
        screen = await search(pilot, app, "notes")
        assert len(screen.hits) > 5
        for _ in range(5):
            if fast:
                app.post_message(events.Key("down", None))
            else:
                await pilot.press("down")
        hits = screen.query_one(HitList)
        await settled(pilot, lambda: hits.has_focus and hits.cursor == 4)


async def test_search_screen_filters_and_errors(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        await browser_ready(pilot, app)
        screen = await search(pilot, app, "notes")
        assert {h.project for h in screen.hits} > {"/home/ada/code/notes-api"}
        assert {h.kind for h in screen.hits} > {"thinking"}

        def kinds() -> set[str]:
            return {h.kind for h in screen.hits} if not screen.pending else set()

        screen.query_one("#search-role", Select).value = ("kind", "thinking")
        await settled(pilot, lambda: kinds() == {"thinking"})
        screen.query_one("#search-role", Select).value = ("role", "user")
        await settled(pilot, lambda: kinds() == {"prompt"})
        screen.query_one("#search-role", Select).clear()
        screen.query_one("#search-tool").value = "Bash"  # type: ignore[attr-defined]
        await settled(pilot, lambda: screen.hits and all(h.tool == "Bash" for h in screen.hits))
        screen.query_one("#search-since").value = "yesterday"  # type: ignore[attr-defined]
        await settled(pilot, lambda: screen.query_one("#search-status").has_class("-error"))
        assert "not a date" in str(screen.query_one("#search-status").render())
        assert not screen.hits and not screen.query_one(HitList).lines  # no results of an earlier search below it
        screen.query_one("#search-since").value = ""  # type: ignore[attr-defined]
        await settled(pilot, lambda: screen.hits and not screen.query_one("#search-status").has_class("-error"))
        await pilot.press("ctrl+o")
        await settled(pilot, lambda: not screen.pending and all(h.is_error for h in screen.hits))
        await pilot.press("ctrl+l")
        await settled(pilot, lambda: not screen.hits)
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


@pytest.mark.parametrize("size", [(80, 24), (109, 30), (110, 30), (140, 40)])
async def test_the_search_filters_show_their_hints_whole(roots: list[Path], size: tuple[int, int]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=size) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("ctrl+k")
        await pilot.pause()
        for box in app.screen.query("#search-filters > Input").results(Input):
            assert box.region.width > len(box.placeholder), box.placeholder


async def test_errors_only_with_no_words_lists_every_error(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        await browser_ready(pilot, app)
        await pilot.press("ctrl+k")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SearchScreen) and not screen.hits
        await pilot.press("ctrl+o")
        await settled(pilot, lambda: not screen.pending and not screen.searching and screen.hits)
        assert all(h.is_error or h.kind == "api_error" for h in screen.hits) and len({h.path for h in screen.hits}) > 1
        stamps = [h.timestamp for h in screen.hits]
        assert stamps == sorted(stamps, reverse=True)
        await pilot.press("ctrl+o")  # no words and no filter: back to the invitation
        await settled(pilot, lambda: not screen.hits)
        assert "or set a filter above" in str(screen.query_one("#search-status").render())


async def test_a_query_part_with_no_letter_or_digit_is_said_to_be_left_out(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        await browser_ready(pilot, app)
        screen = await search(pilot, app, "notes")
        status = screen.query_one("#search-status", Static)
        query = screen.query_one("#search-query", Input)
        query.value = "🎉"
        await settled(pilot, lambda: status.has_class("-error"))
        assert "nothing to search for: the index holds words and numbers, not '🎉'" in str(status.render())
        assert not screen.query_one(HitList).lines
        query.value = "notes 🎉"
        await settled(pilot, lambda: screen.hits and not screen.pending and not screen.searching)
        assert "messages, newest first · left out '🎉': the index holds words and numbers" in str(status.render())


async def test_the_palette_opens_the_search(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        await browser_ready(pilot, app)
        await palette(pilot, app, "search all sessions")
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, SearchScreen))


async def test_session_list_filter_matches_the_first_prompt_not_a_path_all_share(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(140, 40)) as pilot:
        await browser_ready(pilot, app)
        sessions = app.main.query_one(SessionList)
        first = sessions.shown[0].first_prompt
        sessions.set_filter(first[5:25])
        assert len(sessions.shown) == 1
        sessions.set_filter("nothing like this")
        assert sessions.shown == []
        tree = app.main.query_one(ProjectTree)
        tree.focus()  # the user's choice: a highlight chooses only in the focused tree
        await pilot.pause()
        tree.select_node(next(n for n in tree.root.children if str(n.label).startswith("weather")))
        await settled(pilot, lambda: {s.project for s in sessions.sessions} == {"/home/ada/code/weather-cli"})
        sessions.set_filter("weather")  # in every session's path: it would tell none apart
        kept = [s for s in sessions.sessions if sessions.shows_kind(s)]
        told = [s for s in kept if "weather" in (s.title + s.first_prompt).lower()]
        assert sessions.shown == told and len(told) < len(kept)
