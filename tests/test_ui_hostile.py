"""The app on the hostile file: text is shown as text, nothing reaches the terminal, and it stays quick.

Markup in a session (`[bold]`, `[link=…]`, `[@click=…]`) must be drawn literally, with no style, link
or action behind it; escape sequences and other controls must be drawn as visible placeholders, but for
the SGR colours of tool output, which become styles (drawn by Textual, not passed through). The
checks look at every strip of the conversation (all expanded), the browser's panes, and the detail
screens, as Textual would send them to the terminal.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.strip import Strip
from ui_support import CLOCK, NoLibrary, browser_ready, loaded, settled

from claude_tui.ui.app import ClaudeTUI
from claude_tui.ui.screens.detail import DetailScreen
from claude_tui.ui.widgets.conversation import ConversationView
from tests.hostile import SESSION_ID, Case, write_hostile

SIZE = (140, 45)
#: What must never reach a terminal: C0 controls but newline, DEL, C1 controls.
RAW_CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
#: Markup of the hostile file, each to be drawn literally.
LITERAL = [
    "[bold]not bold[/bold]",
    "[link=https://x]click me[/link]",
    "[@click=app.quit]quit the app[/]",
    "[/][/bold][/link]",
]


@pytest.fixture(scope="module")
def hostile_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Case]]:
    path = tmp_path_factory.mktemp("ui-hostile") / "projects" / "-home-u-hostile" / f"{SESSION_ID}.jsonl"
    return path, write_hostile(path)


def screen_text(app: ClaudeTUI) -> str:
    """The characters of the whole screen, as drawn."""
    svg = app.export_screenshot()
    body = svg[svg.index("<g class=") :] if "<g class=" in svg else svg
    return html.unescape(re.sub(r"<[^>]+>", "", body)).replace("\xa0", " ")


def all_strips(view: ConversationView) -> Iterator[Strip]:
    for entry in view.entries:
        yield from view._strips(entry, view._width)


def assert_inert(strips: list[Strip]) -> str:
    """No control characters, no links or actions on any segment; returns the text."""
    for strip in strips:
        for segment in strip:
            assert not RAW_CONTROLS.search(segment.text), repr(segment.text)
            style = segment.style
            if style is not None:
                assert not style.link, (segment.text, style.link)
                assert not (style.meta or {}).get("@click"), (segment.text, style.meta)
    return "\n".join(strip.text for strip in strips)


async def test_the_hostile_file_is_drawn_to_its_end(hostile_file: tuple[Path, list[Case]]) -> None:
    path, _ = hostile_file
    app = ClaudeTUI([path.parent.parent], session=path, library=NoLibrary(), clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        view = app.screen.query_one(ConversationView)
        await settled(pilot, lambda: not view.reading)
        assert "marker after duplicate-record" in "\n".join(s.text for s in all_strips(view))


async def test_markup_and_escapes_are_drawn_as_text(hostile_file: tuple[Path, list[Case]]) -> None:
    path, _ = hostile_file
    app = ClaudeTUI([path.parent.parent], session=path, library=NoLibrary(), clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await settled(pilot, lambda: not view.reading)
        for entry in list(view.entries):
            if entry.call is not None or entry.kind == "thinking":
                view.set_expanded(entry, True)
        await pilot.pause()
        strips = list(all_strips(view))
        text = assert_inert(strips)
        for literal in LITERAL:
            assert literal in text, literal
        shown = (
            "␛]0;pwned title␇",
            "␛]52;c;",
            "␛]8;;https://evil.example",
            "ding␇␇␇",
            "safe text␈",
            "\\u202euser",
            "◌ Ba␛]0;pwned␇sh ",
        )
        for placeholder in shown:
            assert placeholder in text, placeholder
        assert "red ␛[2J␛[H \\x9b32mgreen\\x9b0m" in text  # SGR as a style; cursor moves and 8-bit CSI visible
        assert "␛[31m" not in text and "␛[1m" not in text
        assert re.search(r"kept *\n.*apart *\n.*\n.*by separators", text)  # each separator breaks the line
        red = [seg for strip in strips for seg in strip if seg.text == "red" and seg.style and seg.style.color]
        assert red and red[0].style is not None and red[0].style.color.number == 1  # type: ignore[union-attr]
        screen = screen_text(app)
        assert not RAW_CONTROLS.search(screen), [m.group() for m in RAW_CONTROLS.finditer(screen)][:5]


async def test_detail_screens_are_inert_and_keys_still_move(hostile_file: tuple[Path, list[Case]]) -> None:
    path, _ = hostile_file
    app = ClaudeTUI([path.parent.parent], session=path, library=NoLibrary(), clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await settled(pilot, lambda: not view.reading)
        wanted = ("toolu_huge", "toolu_meta", "toolu_name", "toolu_click", "toolu_img")  # 30 MB, names, markup, image
        calls = [i for i, e in enumerate(view.entries) if e.call is not None and e.call.id in wanted]
        assert len(calls) == len(wanted)
        for index in calls:
            view.select(index)
            await pilot.press("enter")
            await settled(pilot, lambda: isinstance(app.screen, DetailScreen))
            await pilot.pause()
            screen = screen_text(app)
            assert not RAW_CONTROLS.search(screen), [m.group() for m in RAW_CONTROLS.finditer(screen)][:5]
            await pilot.press("escape")
            await settled(pilot, lambda: not isinstance(app.screen, DetailScreen))
        await pilot.press("G", "g", "j", "j", "k")
        assert view.cursor_index == 1


async def test_the_browser_shows_hostile_titles_and_facts_as_text(
    hostile_file: tuple[Path, list[Case]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = hostile_file
    monkeypatch.setenv("CLAUDE_TUI_CACHE_DIR", str(tmp_path / "cache"))
    app = ClaudeTUI([path.parent.parent], clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        await browser_ready(pilot, app)
        screen = screen_text(app)
        assert not RAW_CONTROLS.search(screen), [m.group() for m in RAW_CONTROLS.finditer(screen)][:5]
        assert "[red]␛]0;title␇" in screen


# ------------------------------------------------------------ damaged and unreadable files in the pane


async def test_each_damaged_line_gets_its_note_in_the_pane(hostile_file: tuple[Path, list[Case]]) -> None:
    path, cases = hostile_file
    app = ClaudeTUI([path.parent.parent], session=path, library=NoLibrary(), clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await settled(pilot, lambda: not view.reading)
        text = "\n".join(s.text for s in all_strips(view))
        for case in cases:
            if case.damaged:
                assert case.note in text, case.name


@pytest.mark.parametrize("kind", ["fifo", "directory"])
async def test_an_unreadable_session_says_why_in_the_pane(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "s.jsonl"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    app = ClaudeTUI([tmp_path], session=path, library=NoLibrary(), clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        view = app.screen.query_one(ConversationView)
        await settled(pilot, lambda: not view.reading)
        await pilot.pause()
        assert ("not a regular file" if kind == "fifo" else "a directory") in screen_text(app)


async def test_a_session_of_damaged_lines_only_shows_them(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\x00\x01\x02binary\n\xff\xff\n" + b"{not json\n" * 10)
    app = ClaudeTUI([tmp_path], session=path, library=NoLibrary(), clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        view = app.screen.query_one(ConversationView)
        await settled(pilot, lambda: not view.reading)
        await pilot.pause()
        text = screen_text(app)
    assert "This session has no messages, only 12 problems (12 unreadable lines):" in text
    assert "⚠ line 1: invalid JSON" in text and "⚠ line 3: invalid JSON" in text and "… and 4 more" in text


async def test_a_thread_that_cannot_be_followed_is_noted_in_the_pane(tmp_path: Path) -> None:
    """A parent in no file and a loop of parents: every message is shown, each gap with its note."""
    path = tmp_path / "s.jsonl"
    path.write_bytes((Path(__file__).parent / "fixtures" / "broken_threads.jsonl").read_bytes())
    app = ClaudeTUI([tmp_path], session=path, library=NoLibrary(), clock=CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        view = await loaded(pilot, app)
        await pilot.pause()
        text = screen_text(app)
        notes = [e.problem.message for e in view.entries if e.kind == "problem" and e.problem is not None]
    assert "2 problems" in text and "Continue where we left off." in text and "Is it done?" in text
    assert "⚠ line 8: parentUuid ffffffff names no record in the file" in text
    assert [n.split(":")[0] for n in notes] == [
        "parentUuid ffffffff names no record in the file",
        "parentUuid 0000000f leads back to this record (a loop)",
    ]
