"""The usage screen (issue 34): opened with U and from the palette, its reports, from a bar, a project or a model to
its sessions and on to one at its first prompt, live updates, an empty history."""

from __future__ import annotations

import re
import sqlite3
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from rich.color import Color, ColorSystem
from rich.style import Style
from rich.text import Text
from textual.widgets import OptionList

from claude_tui.cli.demo import demo_roots
from claude_tui.ui.app import ClaudeTUI
from claude_tui.ui.clock import Clock
from claude_tui.ui.messages import LibraryLoaded
from claude_tui.ui.palette import Palette
from claude_tui.ui.screens import usage
from claude_tui.ui.screens.usage import UsageScreen, UsageSessions, short_names
from claude_tui.ui.widgets.usage_chart import SHADES, Bar, BarChart, bar_chart, layout, share_bar, stacked_bar
from tests.jsonl import Thread, text
from tests.ui.test_ui_colors import contrast, drawn_row, pairs
from tests.ui_support import browser_ready, demo_copy, drained, palette, settled

#: In the demo's last 5-hour block (2026-04-21, 15:00 to 20:00 UTC).
CLOCK = Clock.frozen("2026-04-21T18:30:00Z")
SIZE = (100, 30)


@pytest.fixture
def roots(tmp_path: Path) -> list[Path]:
    return [demo_copy(tmp_path)]


async def usage_screen(pilot: Any, app: ClaudeTUI) -> UsageScreen:
    """The usage screen, opened with U once the browser is ready, its figures counted."""
    await browser_ready(pilot, app)
    await pilot.press("U")
    return await counted(pilot, app)


async def counted(pilot: Any, app: ClaudeTUI) -> UsageScreen:
    screen = app.screen
    assert isinstance(screen, UsageScreen)
    await settled(pilot, lambda: screen.figures is not None or screen._error is not None)
    return screen


def shown(screen: UsageScreen, selector: str) -> str:
    return str(screen.query_one(selector).render())


async def test_U_opens_the_usage_screen_with_the_last_30_days(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        chart = screen.query_one(BarChart)
        assert len(chart.bars) == 30 and chart.has_focus
        assert chart.cursor == 29 and chart.bars[-1].shown == "$0.27"  # today, as `claude-tui usage` counts it
        assert "Tue 21 Apr 2026 · $0.27 · 196,941 tokens · 1 session" in shown(screen, "#usage-period")
        assert "cache read 169,248" in shown(screen, "#usage-period")
        block = shown(screen, "#usage-block")
        assert "15:00–20:00" in block and "1h 30m left" in block and "an hour" in block
        projects = screen.query_one("#usage-projects", OptionList)
        assert "57%" in str(projects.get_option_at_index(0).prompt) and "notes-api" in str(
            projects.get_option_at_index(0).prompt
        )
        await pilot.press("escape")
        assert app.screen is app.main


async def test_the_palette_opens_it(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        await browser_ready(pilot, app)
        found = await palette(pilot, app, "Usage")
        assert found.option_count and "Usage" in str(found.get_option_at_index(0).prompt)
        await pilot.press("enter")
        await counted(pilot, app)


async def test_w_m_and_d_switch_weeks_months_and_days(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        chart = screen.query_one(BarChart)
        await pilot.press("w")
        assert len(chart.bars) == 12 and chart.bars[-1].label == "W17" and chart.cursor == 11
        await pilot.press("home", "l")
        assert chart.cursor == 1 and "Week of 9 Feb 2026 · $0.28" in shown(screen, "#usage-period")
        assert "per week" in shown(screen, "#usage-title")
        await pilot.press("m")
        assert [b.label for b in chart.bars[-4:]] == ["Jan", "Feb", "Mar", "Apr"]
        assert [b.shown for b in chart.bars[-4:]] == ["$0.53", "$1.44", "$0.00", "$0.27"]
        assert "April 2026" in shown(screen, "#usage-period")
        await pilot.press("d")
        assert len(chart.bars) == 30 and "per day" in shown(screen, "#usage-title")


async def test_a_bar_lists_its_sessions_and_enter_opens_one_at_its_first_prompt(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        await usage_screen(pilot, app)
        await pilot.press("home", "end", "left", "right", "enter")  # back to today's bar, and choose it
        await settled(pilot, lambda: isinstance(app.screen, UsageSessions))
        sessions = app.screen
        assert isinstance(sessions, UsageSessions) and len(sessions.sessions) == 1
        ref = sessions.sessions[0].session
        assert ref is not None and ref.id.startswith("3396f347")
        await pilot.press("enter")
        await settled(pilot, lambda: app.screen is app.main)
        view = app.main.conversation
        await settled(pilot, lambda: view.session is not None and view.session.id == ref.id and not view.reading)
        await settled(pilot, lambda: app.main._at_prompt is None)
        first = next(m for m in view.session.messages if m.typed)
        assert view.cursor is not None and view.cursor.message is first
        assert view.cursor_index > 0  # the rows before it (a file opened in the IDE) are not where it opens


async def test_a_click_on_a_bar_puts_the_cursor_on_it_and_a_double_click_lists_its_sessions(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        await pilot.press("m")
        chart = screen.query_one(BarChart)
        places = layout(chart.bars, chart.cursor, chart.size.width)
        february = next(i for i, b in enumerate(chart.bars) if b.label == "Feb")
        x = places.start + (february - places.first) * places.slot
        await pilot.click(BarChart, offset=(x, chart.size.height - 3))
        assert chart.cursor == february and "February 2026" in shown(screen, "#usage-period")
        await pilot.click(BarChart, offset=(x, chart.size.height - 3), times=2)
        await settled(pilot, lambda: isinstance(app.screen, UsageSessions))
        assert len(app.screen.sessions) == 4


async def test_escape_on_a_session_opened_from_usage_goes_back_to_its_list_then_the_chart(roots: list[Path]) -> None:
    """Escape on a session opened from a month's list did nothing (from search it goes back to the results)."""
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        await pilot.press("m")
        chart = screen.query_one(BarChart)
        february = next(i for i, b in enumerate(chart.bars) if b.label == "Feb")
        await pilot.press(*["left"] * (chart.cursor - february), "enter")
        await settled(pilot, lambda: isinstance(app.screen, UsageSessions))
        await pilot.press("down", "enter")
        await settled(pilot, lambda: app.screen is app.main and app.main._at_prompt is None)
        await pilot.press("escape")
        await settled(pilot, lambda: isinstance(app.screen, UsageSessions))
        listed = app.screen.query_one(OptionList)
        assert listed.highlighted == 1 and len(app.screen.sessions) == 4  # the row it was opened from
        await pilot.press("escape")
        await settled(pilot, lambda: isinstance(app.screen, UsageScreen))
        chart = app.screen.query_one(BarChart)
        await settled(pilot, lambda: bool(chart.bars) and "February 2026" in shown(app.screen, "#usage-period"))
        assert app.screen.report == "monthly"
        await pilot.press("escape")
        await settled(pilot, lambda: app.screen is app.main)
        await pilot.press("escape")  # once back, escape no longer opens them
        assert app.screen is app.main


async def test_a_project_and_a_model_list_their_sessions(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        figures = screen.figures
        assert figures is not None
        await pilot.press("tab", "enter")  # the top project
        await settled(pilot, lambda: isinstance(app.screen, UsageSessions))
        top = figures.projects[0][0]
        assert app.screen.sessions and {p.session for p in app.screen.sessions} == set(top.sessions)
        await pilot.press("escape")
        await settled(pilot, lambda: app.screen is screen)
        await pilot.press("tab", "down", "enter")  # the second model
        await settled(pilot, lambda: isinstance(app.screen, UsageSessions))
        assert {p.session for p in app.screen.sessions} == set(figures.models[1][0].sessions)


async def test_a_session_written_meanwhile_is_counted(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        before = screen.figures
        assert before is not None
        thread = Thread(session_id="fresh", cwd="/home/ada/scratch")
        thread.prompt("count me")
        thread.answer(text("counted"), model="claude-opus-4-6", output_tokens=50_000)
        for record in thread.records:
            record["timestamp"] = "2026-04-21T18:00:00.000Z"
        thread.write(roots[0] / "-home-ada-scratch" / "fresh.jsonl")
        await settled(pilot, lambda: screen.figures is not before)
        after = screen.figures
        assert after is not None
        assert after.recent["daily"][-1].total.tokens.output == before.recent["daily"][-1].total.tokens.output + 50_000
        assert "1h 30m left" in shown(screen, "#usage-block") and "2 sessions" in shown(screen, "#usage-period")


async def test_the_index_brought_up_to_date_counts_again(roots: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """ctrl+r (as a first index finishing) over the usage screen: it counted only on the watcher's changes."""
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        reads: list[int] = []
        read = usage.read_usage

        def counting(state: Any) -> Any:
            reads.append(1)
            return read(state)

        monkeypatch.setattr(usage, "read_usage", counting)
        await pilot.press("ctrl+r")
        await settled(pilot, lambda: reads and not screen._counting)
        assert app.screen is screen


async def test_an_empty_history_shows_an_empty_chart_that_says_so(tmp_path: Path) -> None:
    (tmp_path / "projects").mkdir()
    app = ClaudeTUI([tmp_path / "projects"], clock=CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: app.main.has_class("-empty"))
        await pilot.press("U")
        screen = await counted(pilot, app)
        chart = screen.query_one(BarChart)
        assert len(chart.bars) == 30 and not any(b.value for b in chart.bars)
        assert "No usage in these 30 days" in str(chart.render())
        assert "No 5-hour block yet" in shown(screen, "#usage-block")
        await pilot.press("enter", "w", "enter")  # no sessions to list: said, no crash
        assert app.screen is screen and "No usage in these 12 weeks" in str(chart.render())


async def test_an_empty_chart_says_when_the_last_usage_was_and_which_key_shows_it(roots: list[Path]) -> None:
    """A history whose last use is months old opened on 30 empty days, with no word of where its usage was."""
    app = ClaudeTUI(roots, clock=Clock.frozen(CLOCK.now() + 200 * 86400))
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        chart = screen.query_one(BarChart)
        await settled(pilot, lambda: "No usage in these 30 days · the last was on " in str(chart.render()))
        assert ": m shows months" in str(chart.render())


async def test_the_demo_opens_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # not the copy every claude-tui --demo of this user makes
    app = ClaudeTUI(demo_roots(), clock=CLOCK)  # as `claude-tui --demo` makes it
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await usage_screen(pilot, app)
        await pilot.press("m")
        chart = screen.query_one(BarChart)
        assert [b.label for b in chart.bars if b.value] == ["Jan", "Feb", "Apr"]
        assert "5-hour block 15:00–20:00" in shown(screen, "#usage-block")


def test_the_chart_draws_bars_in_eighths_and_says_when_all_are_zero() -> None:
    plain = Palette.few_colors(dark=True)
    bars = [Bar(0.0, "1 Apr", "$0"), Bar(1.0, "2 Apr", "$1.00"), Bar(0.5, "3 Apr", "$0.50"), Bar(0.01, "4", "$0.01")]
    lines = bar_chart(bars, 2, 20, 6, "", plain, Style(bold=True)).plain.split("\n")
    assert len(lines) == 6 and lines[0].startswith("$1.00 │")
    columns = ["".join(line[7 + 3 * i] for line in lines[:4]) for i in range(4)]  # bars 2 wide, a space apart
    assert columns == ["    ", "████", "  ██", "   ▁"]  # half of 4 rows is 2; a small bar is never none
    assert "3 Apr" in lines[5]  # the cursor's label
    empty = bar_chart([Bar(0.0, "x", "$0")] * 5, 4, 40, 6, "Nothing", plain, Style()).plain
    assert "Nothing" in empty
    assert stacked_bar([(1, Style()), (3, Style())], 8).plain == "██▓▓▓▓▓▓"
    assert stacked_bar([(1, Style()), (0, Style()), (1000, Style())], 5).plain == "█▒▒▒▒"  # a tiny part shows
    assert share_bar(0.5, 4, Style()).plain == "██  " and share_bar(0.0, 2, Style()).plain == "  "


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_the_bars_stay_apart_and_readable_with_16_colours(
    roots: list[Path], theme: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a terminal of 16 colours (TERM=screen), the bar under the cursor is a colour of its own, the token kinds
    differ by their shade of block, and every bar stands out from the background."""
    monkeypatch.setenv("TERM", "screen")
    monkeypatch.delenv("COLORTERM", raising=False)
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        app.theme = theme
        await pilot.press("m", "left", "left")  # the cursor on February's bar
        await pilot.pause()
        chart = screen.query_one(BarChart)
        bottom = chart.content_region.height - 3  # the bars' lowest row, over the baseline and the labels
        background = Color.parse(app.get_css_variables()["background"]).downgrade(ColorSystem.STANDARD)
        bars = {fg for text, fg, _ in pairs(app, drawn_row(app, chart, bottom)) if set(text) <= set("█▁▂▃▄▅▆▇")}
        assert len(bars) == 2, bars  # the cursor's, and the others'
        assert all(contrast(colour, background) >= 3 for colour in bars)
        period = screen.query_one("#usage-period")
        shades = {text[0] for text, _, _ in pairs(app, drawn_row(app, period, 1))}
        assert shades == set(SHADES)


def test_projects_of_one_name_are_told_apart_by_the_folder_that_differs() -> None:
    """Real: five `…/buildroot/dl` projects, which their last name alone made five `dl` rows."""
    paths = ["/home/m/NOS-v6/buildroot/dl", "/home/m/edsg4000/buildroot/dl", "/home/m/app", "/srv/x/app", "/home/m/cli"]
    assert short_names(paths) == ["NOS-v6/…/dl", "edsg4000/…/dl", "m/app", "x/app", "cli"]


async def test_figures_counted_before_a_newer_count_are_dropped(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        first = screen.figures
        screen.recompute()  # a change came: the count asked for before it is stale
        await settled(pilot, lambda: screen.figures is not first)
        newest = screen.figures
        screen.post_message(screen.Computed(screen._token - 1, first, None))  # the stale count, back late
        await drained(pilot)
        assert screen.figures is newest


async def test_a_history_with_no_price_charts_its_tokens(tmp_path: Path) -> None:
    """A model through a proxy that has no price (glm): the bars are its tokens, and its cost is never $0."""
    thread = Thread(session_id="proxy", cwd="/home/ada/proxied")
    thread.prompt("hello")
    thread.answer(text("hi"), model="glm-4.6", output_tokens=1_000)
    for record in thread.records:
        record["timestamp"] = "2026-04-21T12:00:00.000Z"
    thread.write(tmp_path / "projects" / "-home-ada-proxied" / "proxy.jsonl")
    app = ClaudeTUI([tmp_path / "projects"], clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        chart = screen.query_one(BarChart)
        assert chart.bars[-1].value == 1_123 and chart.bars[-1].shown == "1,123"
        assert "Tokens per day" in shown(screen, "#usage-title")
        assert "· ? ·" in shown(screen, "#usage-period")
        assert "?" in str(screen.query_one("#usage-models", OptionList).get_option_at_index(0).prompt)


async def test_an_index_that_cannot_be_read_is_said_and_the_figures_shown_stay(
    roots: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        shown_before = screen.figures

        def broken(state: Any) -> None:
            raise sqlite3.DatabaseError("database disk image is malformed")

        monkeypatch.setattr(usage, "read_usage", broken)
        screen.recompute()
        await settled(pilot, lambda: screen._error is not None)
        assert screen.figures is shown_before
        assert "The usage cannot be read: database disk image is malformed" in shown(screen, "#usage-title")


async def test_an_index_that_cannot_be_read_at_first_says_so_on_the_chart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "projects").mkdir()
    app = ClaudeTUI([tmp_path / "projects"], clock=CLOCK)

    def broken(state: Any) -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(usage, "read_usage", broken)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: app.main.has_class("-empty"))
        await pilot.press("U")
        screen = await counted(pilot, app)
        assert screen.figures is None
        assert "The usage cannot be read" in str(screen.query_one(BarChart).render())


async def test_changes_while_the_usage_is_counted_make_one_count_after_it(
    roots: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a big history a count takes seconds and the library changes every two: the counts must not pile up in
    threads of their own (a thread worker cannot be cancelled once it runs)."""
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        gate, reads = threading.Event(), []
        read = usage.read_usage

        def slow(state: Any) -> Any:
            reads.append(1)
            gate.wait(20)
            return read(state)

        monkeypatch.setattr(usage, "read_usage", slow)
        screen.recompute()
        await settled(pilot, lambda: reads)
        for _ in range(3):
            screen.post_message(LibraryLoaded([], [], live=True))
            await drained(pilot)  # one by one, as the watcher sends them
        gate.set()
        await settled(pilot, lambda: len(reads) == 2 and not screen._counting)
        await drained(pilot)
        assert len(reads) == 2  # the one under way, and one for the three changes that came meanwhile


async def test_the_period_line_never_wraps_over_its_token_bar(roots: list[Path]) -> None:
    """At 80 columns a week's line ran to two, and pushed the legend of the token kinds out of sight."""
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(60, 24)) as pilot:
        screen = await usage_screen(pilot, app)
        await pilot.press("w")
        await pilot.pause()
        period = screen.query_one("#usage-period")
        rows = [strip.text for strip in period.render_lines(period.region.reset_offset)]  # type: ignore[attr-defined]
        assert rows[0].startswith("Week of 20 Apr 2026") and rows[2].lstrip().startswith("█ input")


async def test_U_from_a_list_of_sessions_goes_back_to_the_usage_screen(roots: list[Path]) -> None:
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await usage_screen(pilot, app)
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, UsageSessions))
        await pilot.press("U")
        await settled(pilot, lambda: app.screen is screen)
        assert len(app.screen_stack) == 2  # the browser and the one usage screen


def _long_named_history(root: Path) -> None:
    """Nine projects, more than the usage screen's lists show at 80x24, one of them with a long name; one project
    has a session of last year as well as one of this year."""
    for n in range(9):
        name = "firmware-build-of-the-mds4xgl3-gateway" if n == 0 else f"p{n}"
        for year, when in (("2026", "2026-04-21"), ("2025", "2025-11-27"))[: 2 if n == 0 else 1]:
            sid = f"{n:08d}-{year}-4000-8000-000000000000"
            thread = Thread(session_id=sid, cwd=f"/home/u/{name}")
            thread.prompt(f"build it in {year}")
            thread.answer(text("built"), msg_id=f"msg_{sid}", model="claude-opus-4-8", output_tokens=1000 * (10 - n))
            for record in thread.records:
                record["timestamp"] = record["timestamp"].replace("2026-01-05", when)
            thread.write(root / f"-home-u-{name}" / f"{sid}.jsonl")


async def test_the_lists_fit_their_rows_to_a_small_terminal(tmp_path: Path) -> None:
    """At 80x24 a long project name is cut with an ellipsis, not dropped for want of room; models are named as
    everywhere else (opus-4.8); the sessions' list keeps their time apart from their title, whatever the year."""
    _long_named_history(tmp_path / "projects")
    app = ClaudeTUI([tmp_path / "projects"], clock=CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await usage_screen(pilot, app)
        await pilot.pause()
        for box in screen.query(OptionList):
            width = box.scrollable_content_region.width
            rows = [box.get_option_at_index(i).prompt for i in range(box.option_count)]
            assert rows and all(isinstance(r, Text) and r.cell_len <= width for r in rows), (width, rows)
        projects = screen.query_one("#usage-projects", OptionList)
        top = str(projects.get_option_at_index(0).prompt)
        assert top.rstrip().endswith("…") and " firmware-b" in top, top
        models = screen.query_one("#usage-models", OptionList)
        assert str(models.get_option_at_index(0).prompt).endswith(" opus-4.8")
        await pilot.press("tab", "enter")  # the top project's sessions
        await settled(pilot, lambda: isinstance(app.screen, UsageSessions))
        rows = [str(app.screen.query_one(OptionList).get_option_at_index(i).prompt) for i in range(2)]
        assert [re.search(r"\d\d:\d\d +build it", r) is not None for r in rows] == [True, True], rows
        assert len({r.index("build it") for r in rows}) == 1  # the titles line up
        assert any("27 Nov 2025 09:00  build it" in r for r in rows), rows


async def test_a_session_whose_messages_count_in_another_is_marked_and_the_title_says_why(tmp_path: Path) -> None:
    """__fixtures__/1-continue-run-ls-tool (as the real corpus has it): a session continued in another file repeats
    its first answers, message ids and all; the usage counts each once, in the first session, so the second's
    figure is less than the list's, and says so."""
    root = tmp_path / "projects" / "-home-u-proj"
    first = Thread(session_id="00000000-0000-4000-8000-00000000000a", cwd="/home/u/proj")
    first.prompt("say lol")
    first.answer(text("lol"), msg_id="msg_shared", model="claude-opus-4-8", output_tokens=50_000)
    first.write(root / f"{first.session_id}.jsonl")
    then = Thread(session_id="00000000-0000-4000-8000-00000000000b", cwd="/home/u/proj")
    then.prompt("say lol")
    then.answer(text("lol"), msg_id="msg_shared", model="claude-opus-4-8", output_tokens=50_000)
    then.prompt("now run ls")
    then.answer(text("done"), msg_id="msg_own", model="claude-opus-4-8", output_tokens=1_000)
    for record in then.records:
        record["timestamp"] = record["timestamp"].replace("2026-01-05", "2026-04-21")
    for record in first.records:
        record["timestamp"] = record["timestamp"].replace("2026-01-05", "2026-04-20")
    then.write(root / f"{then.session_id}.jsonl")
    app = ClaudeTUI([tmp_path / "projects"], clock=CLOCK)
    async with app.run_test(size=(160, 30)) as pilot:
        await usage_screen(pilot, app)
        await pilot.press("tab", "enter")  # the project's sessions
        await settled(pilot, lambda: isinstance(app.screen, UsageSessions))
        title = shown(app.screen, "#usage-sessions-title")
        assert "* some of its messages count in the session they were first in" in title
        rows = [str(app.screen.query_one(OptionList).get_option_at_index(i).prompt) for i in range(2)]
        marked = [row for row in rows if re.match(r"\s*\$[\d.]+\*", row)]
        assert len(marked) == 1, rows
        tokens = int(re.search(r"([\d,]+) tokens", marked[0]).group(1).replace(",", ""))  # type: ignore[union-attr]
        assert tokens < 2_000  # the continued session's own answer: its repeat of the first counts there
