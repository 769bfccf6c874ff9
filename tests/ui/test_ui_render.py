"""The pane's text machinery: wrapping, Markdown lines, diffs, tool lines, times. No app needed."""

from __future__ import annotations

import difflib
import json
import time
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, timedelta, timezone
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console, Group
from rich.style import Style
from rich.text import Text

from claude_tui.core import diff as core_diff
from claude_tui.core import sanitize
from claude_tui.core.agents import report_of
from claude_tui.core.humanize import human_size
from claude_tui.core.model import PREVIEW_CHARS, Block, Kind, Message, ToolCall, ToolResult
from claude_tui.ui import diff, lines, render, tools
from claude_tui.ui.clock import Clock
from claude_tui.ui.palette import Palette
from claude_tui.ui.widgets.conversation.entries import Entry, build, dates_its_time, first_of_day, short_model
from claude_tui.ui.widgets.conversation.painter import Painter

PALETTE = Palette.from_variables({}, dark=True)
WORDS = st.text(alphabet=st.sampled_from("ab cd日本 \t`*_~&;#-|>[]()"), max_size=300)


def _call(name: str, inp: dict, text: str = "", structured: object = None, error: bool = False) -> ToolCall:
    message = Message(Kind.ASSISTANT, "u1", None, "2026-01-05T09:00:00Z", None, 0)
    call = ToolCall("t1", name, inp, message)
    call.result = ToolResult(text, len(text), error, "2026-01-05T09:00:03Z", None, [], structured)
    return call


@given(WORDS, st.integers(min_value=1, max_value=40), st.integers(min_value=0, max_value=6))
def test_wrapped_lines_fit_and_keep_every_character(text: str, width: int, hang: int) -> None:
    text = text.replace("\t", " ")
    cuts = lines.wrap_offsets(text, width, hang)
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    assert "".join(pieces) == text
    for number, piece in enumerate(pieces):
        room = width if number == 0 else max(1, width - hang)
        assert cell_len(piece.rstrip(" ")) <= max(room, max((cell_len(c) for c in piece), default=0))


def test_a_long_word_after_indentation_is_not_pushed_below_a_blank_line() -> None:
    """A numbered line of a Read output: its number stays on the first line, the long word folded after it."""
    line = "     7→[![oclif](https://img.shields.io/badge/cli-oclif-brightgreen.svg)](https://oclif.io)"
    for text in (line, line.replace("oclif", "ocłif")):  # ASCII, and counted in cells
        cuts = lines.wrap_offsets(text, 40)
        assert cuts[0] == 40 and text[:40].startswith("     7→[![oc")
    assert lines.wrap_offsets("    indented words that wrap here", 20) == [19]  # words still wrap whole


def test_cjk_text_breaks_between_its_characters() -> None:
    """Written without spaces, it fills each line (a space early on does not cut it short); a latin
    word beside it still wraps whole."""
    text = "这是 一个很长的中文句子没有空格所以每行都应该填满"
    cuts = lines.wrap_offsets(text, 20)
    widths = [cell_len(text[a:b]) for a, b in pairwise([0, *cuts, len(text)])]
    assert len(widths) == 3 and all(w >= 19 for w in widths[:-1])  # a wide character left for the next line
    assert lines.wrap_offsets("中文中文 parser中文", 12) == [5]  # not inside "parser"


def test_korean_breaks_between_words_and_no_line_starts_with_a_closing_mark() -> None:
    """Korean is written with spaces: its words stay whole, as latin ones do; a Chinese or Japanese line does not
    start with 。, ，, ）or a space, nor end with （ or 「 (the break moves one character back)."""
    korean = "이것은 한국어 문장입니다 그리고 단어가 중간에서 끊어지면 안 됩니다"
    pieces = [korean[a:b] for a, b in pairwise([0, *lines.wrap_offsets(korean, 20), len(korean)])]
    assert all(p.endswith(" ") for p in pieces[:-1]) and "".join(pieces) == korean, pieces
    for text in (
        "这是一个很长的中文句子，没有空格。所以每行都应该填满（尽量）",
        "一二三四五六七八九。十一二三",
        "一二三四五六七八「九十」",
        "保留 RUST_TARGET_DIR 的產物。 merge 的產物 在 Opus 5 上變成偏壓 fan-out。",  # bd1e5fbe, 5bccb0bf: mixed
    ):
        for width in range(4, 24):
            cuts = lines.wrap_offsets(text, width)
            for a, b in pairwise([0, *cuts, len(text)]):
                line = text[a:b]
                assert cell_len(line.rstrip()) <= width and line[0] not in " ，。）」" and line[-1] not in "（「", (
                    width,
                    text[a:b],
                )


@given(st.text(alphabet="ab cd", max_size=200), st.integers(min_value=1, max_value=30))
def test_ascii_and_cell_wrapping_agree(text: str, width: int) -> None:
    assert lines._wrap_ascii(text, width, 3) == lines._wrap_cells(text, width, 3)


@settings(max_examples=60)
@given(WORDS, st.integers(min_value=8, max_value=60))
def test_measure_is_exactly_what_render_draws(text: str, width: int) -> None:
    markdown = lines.parse(text)
    drawn = lines.render(markdown, width, PALETTE)
    assert len(drawn) == lines.measure(markdown, width)
    assert all(line.cell_len <= width + 1 for line in drawn)  # a space may hang past the edge


def _styled(line: lines.MdLine) -> list[tuple[str, str]]:
    """A Markdown line's styled pieces: (the text, its style)."""
    return [(line.text[a:b], style) for a, b, style in line.spans]


def test_markdown_lines_hide_markers_and_style_spans() -> None:
    md = lines.parse("# Title\n- use `ruff` and **care**\n```python\nx = 1\n```\n> quoted\n---")
    kinds = [line.kind for line in md.lines]
    assert kinds == ["h1", "item", "label", "code", "quote", "rule"]
    item = md.lines[1]
    assert item.text == "• use ruff and care"
    assert _styled(item) == [("ruff", "code"), ("care", "bold")]
    nested = lines.parse("**run `make test` first** and *see `log`*").lines[0]
    assert nested.text == "run make test first and see log"
    assert _styled(nested) == [
        ("run make test first", "bold"),
        ("make test", "code"),
        ("see log", "italic"),
        ("log", "code"),
    ]


def test_underscores_tildes_and_html_entities_are_markup_too() -> None:
    """`__bold__`, `_italic_` and `~~struck~~` were shown with their markers, and `&amp;` as written."""
    text = "__bold__, _italic_, ~~gone~~ and *x*: &amp; &lt;T&gt; &quot;q&quot; &#39;s&#39; a&nbsp;b &#8594; &#x2192;"
    line = lines.parse(text).lines[0]
    assert line.text == "bold, italic, gone and x: & <T> \"q\" 's' a\xa0b → →"
    assert _styled(line) == [("bold", "bold"), ("italic", "italic"), ("gone", "strike"), ("x", "italic")]
    drawn = lines.render(lines.parse(text), 80, PALETTE)[0]
    assert drawn.get_style_at_offset(Console(), 16).strike
    link = lines.parse("[a &amp; _b_](https://x.io/?a=1&amp;b=2) &#27; &bogus;").lines[0]
    assert link.text == "a & b (https://x.io/?a=1&b=2) &#27; &bogus;"  # no control character, nor a made-up one
    assert _styled(link) == [("a & b", "link"), ("b", "italic"), ("(https://x.io/?a=1&b=2)", "url")]


@pytest.mark.parametrize(
    "text",
    [
        "snake_case_name, a_b_c, MAX_LINE_CHARS and __dunder_ names",
        "see src/_private_/x.py, __init__.py and pkg/__main__.py",
        "lib/*.py or src/*.ts, 2 * 3 * 4",
        "_ not italic _ and ~~ not struck ~~ and ~one~",
        "AT&T, a && b, &amp without a semicolon",
    ],
)
def test_underscores_in_names_and_paths_are_not_emphasis(text: str) -> None:
    line = lines.parse(text).lines[0]
    assert (line.text, line.spans) == (text, ())


def test_code_keeps_its_markers_and_entities() -> None:
    md = lines.parse("`&amp; __x__ _y_ ~~z~~` &amp;\n```\n&lt; __a__ _b_\n```")
    assert [(line.text, line.spans) for line in md.lines] == [
        ("&amp; __x__ _y_ ~~z~~ &", ((0, 21, "code"),)),
        ("&lt; __a__ _b_", ()),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "__bold words__ and _italic words_ and ~~struck words~~ " * 4,
        "&amp;&lt;&gt;&quot;&#39;&nbsp;&#8594;&#x2192; " * 12,
        "- an item with __bold__ and &amp; that wraps onto the next lines " * 3,
    ],
)
def test_inline_markup_measures_what_it_draws(text: str) -> None:
    md = lines.parse(text)
    for width in range(1, 121):
        assert len(lines.render(md, width, PALETTE)) == lines.measure(md, width), width


def test_a_code_block_that_names_no_language_opens_with_its_code() -> None:
    """A real answer's fence with no language (Claude Code 2.1.114): no stray "code" line above the path."""
    text = "Your existing worktree lives at:\n\n```\n-experiments/worktrees/.claude/worktrees/agent-a4ca7529\n```\n"
    drawn = [line.plain.rstrip() for line in lines.render(lines.parse(text), 80, PALETTE)]
    assert drawn == ["Your existing worktree lives at:", "", "-experiments/worktrees/.claude/worktrees/agent-a4ca7529"]
    named = lines.parse("```python\nx = 1\n```")
    assert [(line.kind, line.text) for line in named.lines] == [("label", "python"), ("code", "x = 1")]


def test_links_show_their_text_then_their_address() -> None:
    md = lines.parse("See [the **guide**](https://x.io/a_b), <https://y.io> and [top](#top); `[not](a link)`")
    line = md.lines[0]
    assert line.text == "See the guide (https://x.io/a_b), https://y.io and top; [not](a link)"
    assert _styled(line) == [
        ("the guide", "link"),
        ("guide", "bold"),
        ("(https://x.io/a_b)", "url"),
        ("https://y.io", "link"),
        ("top", "link"),
        ("[not](a link)", "code"),
    ]
    drawn = lines.render(md, 200, PALETTE)[0]
    assert drawn.get_style_at_offset(Console(), 5).underline
    assert not drawn.get_style_at_offset(Console(), 15).underline
    assert lines.parse("[x](y)", markdown=False).lines[0].text == "[x](y)"  # a prompt is shown as typed
    forms = {
        "[Python (language)](https://w.org/Python_(lang))": "Python (language) (https://w.org/Python_(lang))",
        '[MDN](https://m.org/ "MDN docs")': "MDN (https://m.org/)",
        "[[#123] fix it](https://g.com/1)": "[#123] fix it (https://g.com/1)",
        "[my file](<a b.md>)": "my file (a b.md)",
        "\\[not a link\\](https://n.org)": "\\[not a link\\](https://n.org)",
    }
    assert {source: lines.parse(source).lines[0].text for source in forms} == forms


def _drawn(text: str, width: int) -> list[str]:
    """`text` drawn at `width`, as plain lines; checked against what `measure` says it takes."""
    md = lines.parse(text)
    drawn = [line.plain for line in lines.render(md, width, PALETTE)]
    assert len(drawn) == lines.measure(md, width), (width, drawn)
    return drawn


def test_tables_line_up() -> None:
    texts = _drawn("| a | long header |\n|---|---|\n| wide cell | x |", 80)
    assert texts == ["a         │ long header", "──────────┼────────────", "wide cell │ x"]


WIDE_TABLE = (
    "| Plan | What | Status |\n|---|---|---|\n"
    "| 01 setup | Next 16 + TS6 + Tailwind v4 + shadcn | ✅ committed |\n"
    "| 02 auth | Clerk middleware, `auth()` in **server** components | ⏳ in review |"
)


def test_a_table_wider_than_the_pane_wraps_its_cells_inside_their_columns() -> None:
    """Cut with "…", the widest cell squeezed the others to nothing; wrapped, each column keeps its words whole
    (the wide one shrinks first) and the columns still line up."""
    drawn = _drawn(WIDE_TABLE, 40)
    assert drawn == [
        "Plan     │ What           │ Status",
        "─────────┼────────────────┼─────────────",
        "01 setup │ Next 16 + TS6  │ ✅ committed",
        "         │ + Tailwind v4  │",
        "         │ + shadcn       │",
        "02 auth  │ Clerk          │ ⏳ in review",
        "         │ middleware,    │",
        "         │ auth() in      │",
        "         │ server         │",
        "         │ components     │",
    ]
    server = lines.render(lines.parse(WIDE_TABLE), 40, PALETTE)[8]
    assert server.get_style_at_offset(Console(), 12).bold  # still bold, wrapped
    fits = _drawn(WIDE_TABLE, 80)  # as before: a line a row
    assert len(fits) == 4 and fits[2] == "01 setup │ Next 16 + TS6 + Tailwind v4 + shadcn          │ ✅ committed"


def test_column_widths_share_the_room_fairly() -> None:
    """Columns that fit keep their widths; else the widest shrink first to a shared level, each keeping its
    longest word while those all fit; the cells left over go to the columns cut."""
    assert lines.fit_columns((5, 10), (5, 4), 20) == (5, 10)
    assert lines.fit_columns((5, 30, 30), (5, 9, 4), 40) == (5, 18, 17)
    assert lines.fit_columns((5, 30, 30), (5, 20, 4), 30) == (5, 20, 5)  # a long word keeps its column wide
    assert lines.fit_columns((5, 30, 30), (5, 20, 10), 20) == (5, 8, 7)  # words that cannot all fit are cut
    assert lines.fit_columns((5, 30), (5, 9), 1) == (1, 1)


@pytest.mark.parametrize(
    "table",
    [
        WIDE_TABLE,
        "| 移除 RUST_TARGET_DIR | 保留 RUST_TARGET_DIR |\n|---|---|\n"  # 1240745b (2.1.222): code and <br> in cells
        "| `3rdparty_rust_dhcpd_parser`<br>`plugin_moxa_dhcp_server` | `lib_moxa_rust_poe`<br>`plugin_moxa_mdns` |",
        "| | cherry-pick | `checkout <br> -- Makefile` |\n|---|---|---|\n"
        "| 取什麼 | 那個 commit 的 **diff** | 那個分支 tip 的 **檔案內容(整份)** |\n| 範圍 | 該 commit 動到的所有檔 |",
        "| a |\n|---|\n| " + "word " * 60 + "|\n| x | y | extra cells |",
        "|---|\n| lone rule |",
    ],
)
def test_a_table_measures_what_it_draws_at_every_width(table: str) -> None:
    """Each row as tall as its tallest cell, wrapped; no line wider than the pane, and none cut short once the
    columns have room (below that a line is cut with "…")."""
    for width in range(1, 121):
        drawn = _drawn(table, width)
        assert all(cell_len(line) <= width for line in drawn), (width, drawn)
        assert width < 30 or not any(line.endswith("…") for line in drawn), (width, drawn)


CELLS = st.lists(st.sampled_from(["ab", "cdefghijklmn", " ", "日本", "`", "**", "_", "<br>", "&amp;"]), max_size=20)


@settings(max_examples=60)
@given(
    st.lists(st.lists(CELLS.map("".join), min_size=1, max_size=5), min_size=1, max_size=6),
    st.integers(min_value=1, max_value=120),
)
def test_random_tables_measure_what_they_draw(rows: list[list[str]], width: int) -> None:
    text = "\n".join("| " + " | ".join(row) + " |" for row in [rows[0], ["---"] * len(rows[0]), *rows[1:]])
    drawn = _drawn(text, width)
    assert all(cell_len(line) <= width for line in drawn)
    assert width < 30 or not any(line.endswith("…") for line in drawn)


def test_a_br_in_a_table_cell_breaks_the_line_but_not_in_code() -> None:
    """Claude writes <br> for a line break in a cell (1240745b, 43e7d642); inside `code` it is only text."""
    drawn = _drawn("| a | b |\n|---|---|\n| one<br>two<br/>three<BR /> | `x <br> y` |", 80)
    assert drawn == ["a     │ b", "──────┼─────────", "one   │ x <br> y", "two   │", "three │"]


def test_huge_text_is_capped() -> None:
    md = lines.parse("line\n" * 100_000)
    assert len(md.lines) <= lines.MAX_BLOCK_LINES and md.omitted > 0
    md = lines.parse("x" * 10_000_000)
    assert len(md.lines[0].text) <= lines.MAX_LINE_CHARS + 1
    assert lines.render(md, 80, PALETTE)[-1].plain == "… the rest of this line · enter to read all"
    md = lines.parse("x" * 10_000_000 + "\nlast")
    assert lines.render(md, 80, PALETTE)[-1].plain == "… 2 more lines · enter to read all"


def test_control_characters_are_shown_inert() -> None:
    md = lines.parse("red \x1b[31mtext\x07 and an OSC 52 \x1b]52;c;aGk=\x07")
    assert "\x1b" not in md.lines[0].text and "␛" in md.lines[0].text


def test_edit_diff_from_structured_patch_and_from_strings() -> None:
    patch = [{"oldStart": 3, "oldLines": 2, "newStart": 3, "newLines": 3, "lines": [" a", "-b", "+c", "+d"]}]
    call = _call(
        "Edit", {"file_path": "/p/x.py", "old_string": "b", "new_string": "c\nd"}, "ok", {"structuredPatch": patch}
    )
    assert core_diff.counts(core_diff.hunks_of(call)) == (2, 1)
    rows = diff.render_hunks(core_diff.hunks_of(call), "/p/x.py", PALETTE)
    assert [row.text.plain for row in rows] == ["3   a", "4 - b", "4 + c", "5 + d"]
    call = _call("Edit", {"file_path": "/p/x.py", "old_string": "a\nb\nc", "new_string": "a\nB\nc"})
    hunks = core_diff.hunks_of(call)
    assert core_diff.counts(hunks) == (1, 1)
    rows = diff.render_hunks(hunks, "/p/x.py", PALETTE)
    assert [row.text.plain for row in rows] == ["  a", "- b", "+ B", "  c"]  # where in the file: not known


def test_a_failed_deletion_removes_its_lines_and_claims_no_line_numbers() -> None:
    """A failed Edit has no patch: its empty new_string was diffed as one blank line (`+1 -114`), and the
    diff was numbered from line 1 as if that were where it was in the file."""
    old = "\n".join(f"line {i}" for i in range(114))
    call = _call("Edit", {"file_path": "/p/x.py", "old_string": old, "new_string": ""}, "not found", error=True)
    hunks = core_diff.hunks_of(call)
    assert core_diff.counts(hunks) == (0, 114)
    assert "x.py  not found" in tools.headline(call, 80, PALETTE, "/p", False).plain  # why it failed, not +0 -114
    rows = diff.render_hunks(hunks, "/p/x.py", PALETTE)
    assert [row.text.plain for row in rows[:2]] == ["- line 0", "- line 1"]
    assert core_diff.unified(call)[2:4] == ["@@ -?,114 +?,0 @@", "-line 0"]


def _compared(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pairs of lines each difflib.SequenceMatcher made from now on is given to compare."""
    given: list[int] = []

    class Counting(difflib.SequenceMatcher):
        def __init__(self, isjunk: Any, a: Sequence[str], b: Sequence[str], autojunk: bool = True) -> None:
            given.append(len(a) * len(b))
            super().__init__(isjunk, a, b, autojunk)

    monkeypatch.setattr(difflib, "SequenceMatcher", Counting)
    return given


def test_a_huge_edit_is_diffed_in_bounded_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """difflib is quadratic: 4,500 JSON-like lines a side took 12 s. The changed middle is shown whole instead."""
    compared = _compared(monkeypatch)
    old = [f'  {{"id": {i % 7},' if i % 2 == 0 else '   "name": "x"},' for i in range(2_400)]
    new = [*old[:1000], '  {"id": 99,', '   "name": "y"},', *old[1001:]]
    call = _call("Edit", {"file_path": "/p/x.json", "old_string": "\n".join(old), "new_string": "\n".join(new)})
    hunks = core_diff.hunks_of(call)
    assert sum(compared) <= core_diff.MAX_DIFF_PAIRS
    [hunk] = hunks
    assert (hunk.old_start, hunk.new_start) == (None, None)
    assert hunk.lines == [" " + old[998], " " + old[999], "-" + old[1000], "+" + new[1000], "+" + new[1001],
                          " " + old[1001], " " + old[1002]]  # fmt: skip
    small = _call("Edit", {"file_path": "/p/x.py", "old_string": "a\nb\nc", "new_string": "a\nB\nc"})
    assert core_diff.counts(core_diff.hunks_of(small)) == (1, 1) and compared[-1] == 9  # still difflib's


def test_the_edits_of_a_multiedit_share_one_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    compared = _compared(monkeypatch)
    edit = {"old_string": "\n".join(["}"] * 400), "new_string": "\n".join(["}"] * 399 + ["]"])}
    call = _call("MultiEdit", {"file_path": "/p/x.json", "edits": [edit] * 50})
    assert core_diff.counts(core_diff.hunks_of(call)) == (50, 50)
    assert sum(compared) <= core_diff.MAX_DIFF_PAIRS


def test_tool_headlines() -> None:
    call = _call("Bash", {"command": "pytest -q tests/"}, "3 passed")
    line = tools.headline(call, 60, PALETTE, "/p", False)
    assert line.plain.startswith("✓ Bash    pytest -q tests/") and line.plain.endswith("3.0s")
    assert line.cell_len == 60
    call = _call("Read", {"file_path": "/p/src/x.py"}, "boom", error=True)
    assert tools.headline(call, 60, PALETTE, "/p", False).plain.startswith("✗ Read    src/x.py  boom")
    edits = [{"old_string": "a", "new_string": "b"}]
    call = _call("MultiEdit", {"file_path": "/p/x.py", "edits": edits}, "done")
    assert "· 1 edit " in tools.headline(call, 100, PALETTE, "/p", False).plain + " "
    agent = _call("Agent", {"description": "Explore the UI", "subagent_type": "Explore"}, "found", {"agentId": "a6bf"})
    line = tools.headline(agent, 120, PALETTE, "/p", False).plain
    assert "Explore the UI  its transcript is not in the folder" in line
    running = ToolCall("t2", "Task", {"description": "look around", "subagent_type": "Explore"}, call.message)
    assert "running" in tools.headline(running, 80, PALETTE, None, False).plain


def test_long_outputs_show_their_first_lines_and_size() -> None:
    output = "\n".join(f"line {i}" for i in range(5000))
    call = _call("Bash", {"command": "seq 5000"}, output[:16_000], {"stdout": output[:16_000], "stderr": ""})
    call.result.size = 3_000_000  # as the model records a 3 MB output it keeps a preview of
    rows = lines.wrap_rows(tools.body(call, 80, PALETTE, None), 80)
    assert len(rows) < tools.OUTPUT_LINES + 10
    assert "3.0 MB" in rows[-1].plain and "+ more lines" in rows[-1].plain
    one = "x" * 16_000  # one line of 2 MB: what is cut is the rest of it, not lines
    call = _call("Bash", {"command": "cat one.txt"}, one, {"stdout": one, "stderr": ""})
    call.result.size = 2_000_000
    rows = lines.wrap_rows(tools.body(call, 80, PALETTE, None), 80)
    assert rows[-1].plain == "… the rest of this line · 2.0 MB in all · enter to see all"
    head = "\n".join(f"line {i}" for i in range(12))  # all the preview's lines shown: more lines follow
    call = _call("Read", {"file_path": "/p/big.log"}, head)
    call.result.size = 3_400_000
    rows = lines.wrap_rows(tools.body(call, 80, PALETTE, None), 80)
    assert rows[-1].plain == "… more lines · 3.4 MB in all · enter to see all"


def test_a_quiet_command_says_what_claude_code_read_in_its_exit_status() -> None:
    """grep's exit status 1 with no output showed only "(no output)": Claude Code's "No matches found" was lost."""
    bash = {"stdout": "", "stderr": "", "interrupted": False, "isImage": False}
    call = _call("Bash", {"command": "grep -r zebra src"}, "", {**bash, "returnCodeInterpretation": "No matches found"})
    assert tools.summary(call, None)[1] == "no output · No matches found"
    pane = [row.plain for row in lines.wrap_rows(tools.body(call, 80, PALETTE, None), 80)]
    assert pane[-2:] == ["(no output)", "exit status: No matches found"]
    detail = render.call_body(call, "", PALETTE, None, Clock(), 100, "s.jsonl")
    assert isinstance(detail, Group) and detail.renderables[-1].plain == "exit status: No matches found"
    plain = _call("Bash", {"command": "true"}, "", bash)
    assert tools.summary(plain, None)[1] == "no output"
    assert not any("exit status" in row.plain for row in lines.wrap_rows(tools.body(plain, 80, PALETTE, None), 80))


def test_an_output_kept_whole_says_how_many_lines_are_left_out() -> None:
    """Counted in all of it, not in the part the preview draws (207 lines said "83+ more")."""
    output = "\n".join(f"tests/test_{i:03}.py::test_case_number_{i}" for i in range(207)) + "\n"
    assert tools.PREVIEW < len(output) < PREVIEW_CHARS
    call = _call("Bash", {"command": "pytest --collect-only -q"}, output, {"stdout": output, "stderr": ""})
    rows = lines.wrap_rows(tools.body(call, 80, PALETTE, None), 80)
    assert rows[-1].plain == f"… 191 more lines · {human_size(len(output))} in all · enter to see all"
    call = _call("Read", {"file_path": "/p/a.txt"}, output)
    assert lines.wrap_rows(tools.body(call, 80, PALETTE, None), 80)[-1].plain == rows[-1].plain
    long_stdout = output * 60  # more than the model keeps (session._cap): counted in what it kept
    call = _call("Bash", {"command": "pytest"}, long_stdout[:PREVIEW_CHARS], {"stdout": long_stdout[:PREVIEW_CHARS]})
    call.result.size = len(long_stdout)
    assert "+ more lines" in lines.wrap_rows(tools.body(call, 80, PALETTE, None), 80)[-1].plain


def test_a_task_prompt_and_answer_say_how_many_lines_are_left_out() -> None:
    """Counted in all of the text, not in the part the pane looks at (1,000 lines said "393 more")."""
    text = "\n".join(f"line {i}" for i in range(1000))
    assert tools.PREVIEW < len(text) < PREVIEW_CHARS
    call = _call("Task", {"description": "look", "prompt": text}, text)
    rows = [row.text.plain for row in tools.body(call, 80, PALETTE, None)]
    assert "… 992 more lines" in rows and f"… {1000 - 2 * tools.OUTPUT_LINES} more lines" in rows
    call.result.size = 3 * len(text)  # an answer the model kept the first part of: at least that many
    assert f"… {1000 - 2 * tools.OUTPUT_LINES}+ more lines" in [
        row.text.plain for row in tools.body(call, 80, PALETTE, None)
    ]


def detail(kind: Kind, *blocks: Block) -> str:
    """The detail view's body of a message with `blocks`, as text."""
    console = Console(width=60, record=True)
    console.print(
        render.message_body(Message(kind, "u1", None, None, None, 0, list(blocks)), PALETTE, None, Clock(), "s.jsonl")
    )
    return "\n".join(line.rstrip() for line in console.export_text().split("\n"))


def test_detail_view_shows_a_prompt_as_typed_and_an_answer_as_markdown() -> None:
    typed = "# not a heading\n- removed\n+ added\n    indented"
    assert detail(Kind.PROMPT, Block("text", typed)).startswith(typed + "\n")
    answer = detail(Kind.ASSISTANT, Block("text", typed))
    assert "# not a heading" not in answer and "• removed" in answer


def test_an_agents_report_ends_with_its_usage_in_words_not_the_lines_for_the_model() -> None:
    """-experiments-worktrees (2.1.x): Claude Code adds the agent's id, worktree and <usage> to its report."""
    trailer = (
        "agentId: ab1e6e141221a29ab (use SendMessage with to: 'ab1e6e141221a29ab' to continue this agent)\n"
        "worktreePath: -experiments/worktrees/.claude/worktrees/agent-ab1e6e14\nworktreeBranch: worktree-agent-ab1e6e14"
        "\n<usage>total_tokens: 33854\ntool_uses: 17\nduration_ms: 447008</usage>"
    )
    call = _call("Agent", {"prompt": "fix it"}, "The parser is fixed.\n" + trailer)
    rows = [row.text.plain for row in tools.body(call, 100, PALETTE, None)]
    assert "The parser is fixed." in rows and not any("usage>" in r or "agentId" in r for r in rows), rows
    assert rows[-1] == "agent ab1e6e14 · 33,854 tokens · 17 tool uses · 7m27s · worktree-agent-ab1e6e14"
    console = Console(width=100, record=True)
    console.print(render.call_body(call, call.result.text, PALETTE, None, Clock(), 100, "s.jsonl"))
    shown = console.export_text()
    assert "agent ab1e6e14 · 33,854 tokens" in shown and "<usage>" not in shown
    without = "agentId: a1 (use SendMessage)\n<usage>tool_uses: 2</usage>"
    assert report_of("Done.\n" + without) == ("Done.", "agent a1 · 2 tool uses")
    assert report_of("Done. <usage> is a tag") == ("Done. <usage> is a tag", "")


def test_a_failed_edit_says_why_on_its_row_and_its_error_without_tags() -> None:
    """5bccb0bf (2.1.x): "✗ Edit SKILL.md  +6 -8" read as if the edit was made, and its body ended with
    "<tool_use_error>File has not been read yet...</tool_use_error>"."""
    why = "File has not been read yet. Read it first before writing to it."
    call = _call("Edit", {"file_path": "/p/SKILL.md", "old_string": "a\nb", "new_string": "c"}, "", error=True)
    assert call.result is not None
    call.result.text = f"<tool_use_error>{why}</tool_use_error>"
    assert tools.summary(call, "/p") == ("SKILL.md", why)
    rows = [row.text.plain for row in tools.body(call, 100, PALETTE, None)]
    assert why in rows and not any("tool_use_error" in r for r in rows), rows
    console = Console(width=100, record=True)
    console.print(render.call_body(call, call.result.text, PALETTE, None, Clock(), 100, "s.jsonl"))
    assert why in console.export_text() and "tool_use_error" not in console.export_text()
    call.result.is_error = False
    assert tools.summary(call, "/p")[1] == "+1 -2"  # made: the change


def test_the_notes_claude_code_adds_to_an_output_for_the_model_are_notes_not_output() -> None:
    """C--Users-namma--claude (2.1.x): a Read's output ended with "<system-reminder>[Truncated: PARTIAL view ...]
    </system-reminder>", shown raw and counted among its lines."""
    note = "[Truncated: PARTIAL view — showing lines 1-104 of 164 total.]"
    call = _call(
        "Read", {"file_path": "/p/a.py"}, f"     1→a\n     2→b\n\n<system-reminder>\n{note}\n</system-reminder>\n"
    )
    assert tools.summary(call, "/p") == ("a.py", "2 lines")
    rows = [row.text.plain for row in tools.body(call, 100, PALETTE, None)]
    assert f"ⓘ {note}" in rows and not any("system-reminder" in r for r in rows), rows
    console = Console(width=100, record=True)
    console.print(render.call_body(call, call.result.text, PALETTE, None, Clock(), 100, "s.jsonl"))  # type: ignore[union-attr]
    assert f"ⓘ {note}" in console.export_text() and "system-reminder" not in console.export_text()


def test_a_question_to_the_user_shows_its_options_and_the_answer() -> None:
    """5bccb0bf (2.1.x), shortened: an AskUserQuestion call was "✓ AskUserQuestion  1 line", and open, its input's
    JSON cut mid-way."""
    options = [
        {"label": "留 diagnosing-bugs（推薦）", "description": "刪掉 systematic-debugging"},
        {"label": "合併成一份"},
    ]
    questions = [{"question": "留哪一份？", "header": "留哪份", "multiSelect": False, "options": options}]
    typed = [{"question": "Which base?", "header": "Base", "options": [{"label": "main"}, {"label": "develop"}]}]
    answers = {"留哪一份？": "留 diagnosing-bugs（推薦）", "Which base?": "origin/nos7, not these"}
    call = _call(
        "AskUserQuestion",
        {"questions": questions + typed},
        'Your questions have been answered: "留哪一份？"="留 diagnosing-bugs（推薦）".',
        {"questions": questions + typed, "answers": answers},
    )
    assert tools.summary(call, None) == ("留哪一份？", "→ 留 diagnosing-bugs（推薦） · 1 more question")
    rows = [row.text.plain for row in tools.body(call, 100, PALETTE, None)]
    assert rows == [
        "? 留哪一份？  留哪份",
        "  ✓ 留 diagnosing-bugs（推薦）  刪掉 systematic-debugging",
        "  · 合併成一份",
        "? Which base?  Base",
        "  · main",
        "  · develop",
        "  → origin/nos7, not these",  # typed, not an option
    ]
    console = Console(width=100, record=True)
    console.print(render.call_body(call, call.result.text, PALETTE, None, Clock(), 100, "s.jsonl"))  # type: ignore[union-attr]
    assert "  ✓ 留 diagnosing-bugs（推薦）  刪掉 systematic-debugging" in console.export_text()
    assert '"questions"' not in console.export_text()  # not its JSON
    call.result = None  # not answered yet: the questions, then that it waits
    assert tools.summary(call, None)[1] == "1 more question"
    assert "  · 留 diagnosing-bugs（推薦）  刪掉 systematic-debugging" in [
        row.text.plain for row in tools.body(call, 100, PALETTE, None)
    ]


def test_a_result_that_is_json_with_a_message_shows_the_message() -> None:
    """-experiments-worktrees (2.1.x): SendMessage's output was its JSON, escaped newlines and all."""
    sent = {"success": True, "message": "Message sent to alice's inbox", "routing": {"content": "Round 2\n\ngo"}}
    call = _call("SendMessage", {"to": "alice", "summary": "round 2", "message": "Round 2\n\ngo"}, json.dumps(sent))
    assert tools.summary(call, None) == ("to alice: round 2", "Message sent to alice's inbox")
    rows = [row.text for row in tools.body(call, 100, PALETTE, None)]
    assert "Message sent to alice's inbox" in [r.plain for r in rows] and not any("routing" in r.plain for r in rows)
    refused = {"success": False, "message": "'reopen 4' is not an agent in this conversation."}
    call = _call("SendMessage", {"to": "reopen 4", "message": "take over"}, json.dumps(refused))
    [row] = [r.text for r in tools.body(call, 100, PALETTE, None) if "not an agent" in r.text.plain]
    assert row.style == PALETTE.error  # it failed, though Claude Code did not call it an error
    assert tools.summary(call, None) == ("to reopen 4: take over", "'reopen 4' is not an agent in this conversation.")


def test_a_meta_records_detail_shows_its_words_as_written() -> None:
    """5bccb0bf (2.1.x): a meta record all in a <system-reminder> had an empty detail (its tags read as HTML)."""
    named = '<system-reminder>\nThe user named this session "HP 800系統AI設定".\n</system-reminder>'
    assert "The user named this session" in detail(Kind.META, Block("text", named))


def test_the_detail_view_wraps_a_tables_cells_as_the_pane_does() -> None:
    """d3f32579 (2.1.x): the detail view cut a wide table's cells with "…" (and dropped a character of Chinese)
    where the conversation pane wrapped them: the view meant to show a message whole lost text."""
    table = (
        "| 條件 | 行為 | 結果 |\n|---|---|---|\n"
        "| RO 且 URI 前綴命中 agentx_owned.list | 不做本地註冊(continue,ies_auto_mibs.c:3522) "
        "| master 找不到本地 subtree → 路由到有註冊的 subagent |\n"
    )
    shown = detail(Kind.ASSISTANT, Block("text", table))

    def characters(text: str) -> Counter[str]:
        return Counter(char for char in text if char not in " \n|-│─┼")

    assert "…" not in shown and characters(shown) == characters(table)  # every character, once
    assert max(cell_len(line) for line in shown.splitlines()) <= 60
    items = (
        "1. **`iss_build` 不是「誰服務」**。"
        + "講的是 in-master 從哪個管道取值 " * 6
        + "\n2. **framework 也有**(trustedIp)。\n"
    )
    assert characters(detail(Kind.ASSISTANT, Block("text", items))) == characters(
        items.replace("*", "").replace("`", "")
    )


def test_a_meta_records_markdown_is_drawn_as_markdown() -> None:
    """1240745b (2.1.222): `/context`'s report for Claude, a meta record of Markdown, was drawn with its marks."""
    report = "## Context Usage\n\n**Model:** claude-opus-5\n\n| Category | Tokens |\n|---|---|\n| Skills | 4.1k |\n"
    shown = detail(Kind.META, Block("text", report))
    assert shown.startswith("Context Usage\n") and "Model: claude-opus-5" in shown
    assert "##" not in shown and "**" not in shown and "---" not in shown


def test_a_commands_detail_and_its_text_say_it_as_it_was_run() -> None:
    """1240745b (2.1.222): the detail read "rust-clippy-by-application /rust-clippy-by-application 請問" (its tags
    taken as Markdown's HTML), and the pager and the clipboard had the tags."""
    raw = (
        "<command-message>rust-clippy-by-application</command-message>\n<command-name>/rust-clippy-by-application"
        "</command-name>\n<command-args>請問這個\n第二行</command-args>"
    )
    assert detail(Kind.COMMAND, Block("text", raw)).startswith("/rust-clippy-by-application 請問這個\n第二行\n")
    message = Message(Kind.COMMAND, "u1", None, None, None, 0, [Block("text", raw)])
    assert render.message_text(message) == "/rust-clippy-by-application 請問這個\n第二行"
    shell = Message(Kind.COMMAND, "u2", None, None, None, 0, [Block("text", "<bash-input>ls -la</bash-input>")])
    assert render.message_text(shell) == "ls -la"


COLOURED = "\x1b[1m\x1b[31mFAILED\x1b[0m plain \x1b[2J\x1b[H\x1b]52;c;aGk=\x07\x1b]8;;https://x\x1b\\link\rbell\x07"


def _styles(text: Text, word: str) -> list[Style]:
    start = text.plain.index(word)
    return [span.style for span in text.spans if span.start <= start < span.end]  # type: ignore[misc]


def test_tool_output_colours_show_as_styles_and_other_escapes_stay_visible() -> None:
    call = _call("Bash", {"command": "pytest"}, COLOURED, {"stdout": COLOURED, "stderr": ""}, error=True)
    assert tools.headline(call, 80, PALETTE, None, False).plain.startswith("✗ Bash    pytest  FAILED plain ␛[2J")
    pane = lines.wrap_rows(tools.body(call, 200, PALETTE, None), 200)
    detail = render.call_body(call, COLOURED, PALETTE, None, Clock(), 100, "s.jsonl")
    assert isinstance(detail, Group)
    for text in (pane[2], detail.renderables[-1]):
        assert isinstance(text, Text)
        assert text.plain.startswith("FAILED plain ␛[2J␛[H␛]52;c;aGk=␇␛]8;;https://x␛\\link␍bell␇"), text.plain
        styles = _styles(text, "FAILED")
        assert any(s.bold for s in styles) and any(s.color and s.color.number == 1 for s in styles)
        assert not any(s.bold or s.color for s in _styles(text, "plain"))


def test_an_mcp_tools_name_is_its_server_and_tool_whole() -> None:
    """`mcp__linear-server__get_issue` was cut at 24 cells even at 200 columns (`mcp__linear-server__get…`)."""
    query = "feature engineering automated feature synthesis featuretools 2024 2025 best practices"
    for name, shown in (
        ("mcp__perplexity__perplexity_search", "perplexity · perplexity_search"),  # a real call (2.1.x)
        ("mcp__linear-server__get_issue", "linear-server · get_issue"),
        ("mcp__plugin_linear_linear__list_my_issues", "plugin_linear_linear · list_my_issues"),
    ):
        call = _call(name, {"max_results": 10, "query": query}, "results")
        line = tools.headline(call, 197, PALETTE, None, False).plain
        assert line.startswith(f"✓ {shown} {query}  1 line"), line  # its query says more than its 10
        assert render.title(call.message, call, Clock.frozen("2026-01-05T10:00:00Z")).startswith(f"{shown} · ")
    assert tools.tool_name("mcp__broken") == "mcp__broken" and tools.tool_name("Bash") == "Bash"
    narrow = tools.headline(_call("mcp__linear-server__get_issue", {"id": "ENG-1"}), 77, PALETTE, None, False)
    assert narrow.plain.startswith("✓ linear-server · get_issue ENG-1")


def test_hook_rows_drop_colour_codes() -> None:
    message = Message(Kind.SYSTEM, "u1", None, None, None, 0, text="Running \x1b[1mPostToolUse:Edit\x1b[22m...")
    painter = Painter(PALETTE, Clock.frozen("2026-04-22T10:00:00Z"), None, set())
    assert painter.draw(Entry("row", message, 0), 80)[0].plain.startswith("· system  Running PostToolUse:Edit...")


def test_thinking_without_text_says_so_and_does_not_open() -> None:
    message = Message(Kind.ASSISTANT, "u1", None, None, None, 0)
    painter = Painter(PALETTE, Clock.frozen("2026-04-22T10:00:00Z"), None, set())
    for block, label in (
        (Block("thinking", " \n"), "∴ Thinking (no text saved)"),
        (Block("redacted_thinking"), "∴ Thinking (redacted)"),
    ):
        entry = Entry("thinking", message, 0, block=block)
        assert not entry.expandable
        assert [line.plain.rstrip() for line in painter.draw(entry, 80)] == [label]
        assert detail(Kind.ASSISTANT, block).startswith(label + "\n")
    entry = Entry("thinking", message, 0, block=Block("thinking", "hmm"))
    assert entry.expandable and painter.draw(entry, 80)[0].plain.endswith("1 line")


def test_detail_text_is_capped_with_a_note() -> None:
    shown = render.plain("x\n" * 100_000, PALETTE)
    assert len(shown.plain) < render.DETAIL_CHARS + 200
    assert "more characters" in shown.plain


def test_short_model_names() -> None:
    assert short_model("claude-opus-4-1-20250805") == "opus-4.1"
    assert short_model("claude-sonnet-4-5-20250929") == "sonnet-4.5"
    assert short_model("claude-3-5-haiku-20241022") == "haiku-3.5"
    assert short_model("claude-opus-4-6") == "opus-4.6"
    assert short_model("<synthetic>") == "synthetic"
    assert short_model("us.anthropic.claude-sonnet-4-5-20250929-v1:0") == "sonnet-4.5"  # Amazon Bedrock's ids
    assert short_model("global.anthropic.claude-haiku-4-5-20251001-v1:0") == "haiku-4.5"
    assert short_model("anthropic.claude-3-5-sonnet-20241022-v2:0") == "sonnet-3.5"
    assert short_model("claude-opus-4-1@20250805") == "opus-4.1"  # Google Vertex AI's
    assert short_model("claude-3-5-sonnet-v2@20241022") == "sonnet-3.5"
    assert short_model("glm-5") == "glm-5"


def test_clock_is_injectable() -> None:
    clock = Clock.frozen("2026-04-22T10:00:00Z", UTC)
    assert clock.ago("2026-04-22T09:59:30Z") == "now"
    assert clock.ago("2026-04-22T07:00:00Z") == "3h ago"
    assert clock.ago("2026-04-19T10:00:00Z") == "3d ago"
    assert clock.ago("2026-01-02T10:00:00Z") == "2 Jan"
    assert clock.ago("2025-01-02T10:00:00Z") == "Jan '25"
    assert clock.ago("2026-04-22T10:00:30Z") == "now"  # a clock a little ahead
    assert clock.ago("2026-04-23T10:00:00Z") == "23 Apr"  # later than now: its date, not "now"
    assert clock.ago("2027-03-18T18:00:00Z") == "Mar '27"
    assert clock.ago("2025-09-02T18:00:00Z", day=True) == "2 Sep '25"  # beside a time of day: which day
    assert clock.ago("2026-01-02T10:00:00Z", day=True) == "2 Jan"
    assert clock.ago("2026-04-22T07:00:00Z", day=True) == "3h ago"
    assert clock.clock_time("2026-04-22T07:05:09Z") == "07:05:09"
    assert clock.day("2026-04-21T07:05:09Z") == "Tue 21 Apr"
    assert Clock().ago(time.time() - 7200) == "2h ago"


def test_times_out_of_this_century_are_not_shown() -> None:
    """Year 1 in a zone west of UTC is year 0, which no datetime holds: it crashed the header."""
    clock = Clock.frozen("2026-04-22T10:00:00Z", timezone(timedelta(hours=-5)))
    for stamp in ("0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "garbage", -62135596800.0, 1e12):
        assert (clock.ago(stamp), clock.clock_time(stamp), clock.day(stamp), clock.date(stamp)) == ("-", "", "", "")


def test_the_first_time_shown_on_a_new_day_in_the_local_zone_is_dated() -> None:
    tokyo = timezone(timedelta(hours=9))
    clock = Clock.frozen("2026-08-20T10:00:00Z", tokyo)
    painter = Painter(PALETTE, clock, None, set())

    def message(kind: Kind, stamp: str, index: int) -> Message:
        return Message(kind, f"u{index}", None, stamp, None, index, [Block("text", "/plugin")])

    evening = message(Kind.PROMPT, "2026-08-17T14:27:00Z", 0)  # 23:27 in Tokyo
    after_midnight = message(Kind.PROMPT, "2026-08-17T15:02:31Z", 1)  # 00:02 the next day there, not in UTC
    a_week_on = message(Kind.COMMAND, "2026-08-25T04:27:02Z", 2)
    answer = Message(Kind.ASSISTANT, "u3", None, "2026-08-25T04:27:34Z", None, 3, [Block("text", "ok")])
    entries: list[Entry] = []
    for top, (previous, shown) in enumerate(pairwise([None, evening, after_midnight, a_week_on, answer])):
        entries += build(shown, top, 0, previous, set(), False)
    entries.append(Entry("header", answer, 3, depth=1))  # a subagent's first row, the same day
    timed = [i for i, e in enumerate(entries) if dates_its_time(e)]
    dated = [first_of_day(entries, i, clock) for i in timed]
    assert dated == [True, True, True, False, True]  # the answer: the command said which day
    header, row = entries[timed[1]], entries[timed[2]]
    assert "Tue 18 Aug · 00:02:31" in " ".join(line.plain for line in painter.draw(header, 80, dated=True))
    assert "Tue 25 Aug · 13:27:02" in " ".join(line.plain for line in painter.draw(row, 80, dated=True))
    assert "Aug" not in " ".join(line.plain for line in painter.draw(row, 80))
    hidden = [e for e in entries if e is not row]  # a filter hid the command: the answer says which day
    assert first_of_day(hidden, hidden.index(entries[timed[3]]), clock)


def test_a_call_with_no_result_runs_until_an_hour_without_news() -> None:
    painter = Painter(PALETTE, Clock.frozen("2026-01-05T12:00:00Z"), None, set())
    message = Message(Kind.ASSISTANT, "u1", None, "2026-01-05T09:00:00Z", None, 0)

    def right(started: str) -> str:
        call = ToolCall("t1", "Bash", {"command": "make"}, message, started)
        line = painter.draw(Entry("tool", message, 0, block=Block("tool_use", call=call), call=call), 60)[0]
        return line.plain.rstrip().rsplit("  ", 1)[-1].strip()

    assert right("2026-01-05T11:55:00Z") == "running"
    assert right("2026-01-05T10:30:00Z") == "no result"  # the session stopped with it: not running


def test_palette_follows_light_and_dark() -> None:
    light = Palette.from_variables({"background": "#ffffff", "foreground": "#101010"}, dark=False)
    assert light.pygments_theme != PALETTE.pygments_theme
    assert Text("x", light.text).style == light.text


@settings(max_examples=500)
@example("a  b", 9)
@example(" a", 9)
@example("a ", 9)
@example("a\tb", 9)
@example("\u202ea", 9)
@example("abc", 2)
@given(st.text(alphabet=" a\t\n\r\x1b\x7f\x9b\u00a0\u200b\u202e\u2028\u3000é漢", max_size=14), st.integers(1, 16))
def test_one_line_gives_a_plain_title_as_it_is_and_folds_shows_and_cuts_any_other(text: str, limit: int) -> None:
    """Its shortcut for a short title with nothing to fold or show (most of them, at every palette opening)
    gives what folding, showing controls and cutting give."""
    slow = sanitize.folded(sanitize.visible_controls(text[: limit * 4]), limit)
    assert tools.one_line(text, limit) == slow


def test_one_line_marks_a_cut_with_an_ellipsis() -> None:
    assert tools.one_line("a  short\n text", 20) == "a short text"
    assert tools.one_line("please rewrite the parser", 10) == "please re…"
    assert tools.one_line("exactly ten", 11) == "exactly ten"


def test_short_path_under_the_working_folder() -> None:
    assert tools.short_path("/home/u/proj/src/a.py", "/home/u/proj") == "src/a.py"
    assert tools.short_path("/home/u/project2/a.py", "/home/u/proj") == "/home/u/project2/a.py"
    win = "e:\\Workspace\\src\\claude-code-log"
    assert tools.short_path(f"{win}\\claude_code_log\\renderer.py", win) == "claude_code_log\\renderer.py"
    assert tools.short_path("E:\\workspace\\SRC\\claude-code-log\\README.md", win + "\\") == "README.md"
    assert tools.short_path("a.py", None) == "a.py"


def test_command_output_shows_its_colours_and_drops_the_codes_that_drew_its_screen() -> None:
    """/context's output as Claude Code keeps it: synchronized-output modes, 24-bit colours, bold."""
    raw = (
        "<local-command-stdout>\x1b[?2026h\x1b[?2026l \x1b[1mContext Usage\x1b[22m\n"
        "\x1b[38;2;153;153;153mclaude-sonnet-4-5 · 66k/200k tokens (33%)\x1b[39m\x1b[2K</local-command-stdout>"
    )
    message = Message(Kind.COMMAND_OUTPUT, None, None, None, None, 0, [Block("text", raw)])
    shown = render.message_body(message, PALETTE, None, Clock(), "s.jsonl")
    assert isinstance(shown, Text)
    assert shown.plain.strip() == "Context Usage\nclaude-sonnet-4-5 · 66k/200k tokens (33%)"
    assert any(span.style and "bold" in str(span.style) for span in shown.spans)
    row = " ".join(sanitize.without_markup(raw).split())
    assert row == "Context Usage claude-sonnet-4-5 · 66k/200k tokens (33%)"


@pytest.mark.parametrize(
    "hunk",
    [
        {"oldStart": 5, "newStart": 5, "lines": "notalist"},
        {"oldStart": 5, "newStart": 5, "lines": [" a", 7, "-b"]},
        {"oldStart": -3, "newStart": 5, "lines": ["-b", "+c"]},
        {"oldStart": 5, "newStart": "5", "lines": ["-b", "+c"]},
        {"oldStart": True, "newStart": 5, "lines": ["-b", "+c"]},
        "@@ -5 +5 @@",
    ],
)
def test_a_patch_with_a_hunk_that_is_none_shows_the_calls_own_strings(hunk: Any) -> None:
    """Lines that are a string were drawn a letter a line, numbered from -5; a negative start gave `@@ --3 +0 @@`.
    Such a patch is not drawn: the call's strings are, as for a failed Edit, with no claim of where they are."""
    good = {"oldStart": 1, "newStart": 1, "lines": ["-x", "+y"]}
    call = _call(
        "Edit", {"file_path": "/p/x.py", "old_string": "b", "new_string": "c"}, "ok", {"structuredPatch": [good, hunk]}
    )
    rows = diff.render_hunks(core_diff.hunks_of(call), "/p/x.py", PALETTE)
    assert [row.text.plain for row in rows] == ["- b", "+ c"]
    assert core_diff.unified(call)[2:] == ["@@ -? +? @@", "-b", "+c"]


def test_a_hunk_with_no_start_written_has_an_unknown_place() -> None:
    patch = [{"lines": ["-b", "+c"]}]
    call = _call(
        "Edit", {"file_path": "/p/x.py", "old_string": "q", "new_string": "r"}, "ok", {"structuredPatch": patch}
    )
    assert [row.text.plain for row in diff.render_hunks(core_diff.hunks_of(call), "/p/x.py", PALETTE)] == ["- b", "+ c"]
    assert core_diff.unified(call)[2] == "@@ -? +? @@"


def test_next_prompt_and_the_prompts_filter_pass_over_task_notifications_and_peers() -> None:
    """`]` stops at what the user typed (a queued prompt too), never at a task's notification or a peer's message."""
    from claude_tui.core.loader import read_session
    from claude_tui.core.model import Kind
    from claude_tui.ui.widgets.conversation import entries
    from claude_tui.ui.widgets.conversation.entry_list import JUMPS
    from claude_tui.ui.widgets.conversation.filters import PaneFilter

    session = read_session(Path(__file__).parents[1] / "fixtures" / "claude_2_1_shapes.jsonl")
    built: list[entries.Entry] = []
    previous = None
    for message in session.visible():
        built += entries.build(message, len(built), 0, previous, set(), False)
        previous = message
    stops = [e.message.plain_text for e in built if JUMPS["prompt"](e)]
    assert stops == ["fix the parser", "also check the tests", "先不要commit; 我只想知道狀況。", "count the holdings"]
    kept = {e.message.kind for e in built if PaneFilter("prompts").keeps(e)}
    assert kept == {Kind.PROMPT}
    assert [e.kind for e in built if e.message.kind is Kind.TASK] == ["row", "row"]


def test_blank_lines_before_and_after_a_text_are_not_drawn() -> None:
    """-Users-admin/50c7f727 (2.1.117): an answer's text starting with two newlines drew two blank lines under the
    thinking above it. Blank lines inside it, and a first line's indent, stay."""
    for text, drawn in (("\n\nHello there\n\n", ["Hello there"]), ("  \n\n  x\n\n\ny", ["  x", "", "", "y"])):
        assert [line.plain for line in lines.render(lines.parse(text, markdown=False), 40, PALETTE)] == drawn
