"""The conversation pane's rows without Textual: prefix sums, the reuse pool, splicing."""

from __future__ import annotations

import ast
from pathlib import Path

from claude_tui.core.loader import read_session
from claude_tui.ui.widgets.conversation import entry_list
from claude_tui.ui.widgets.conversation.entry_list import EntryList

FIXTURE = Path(__file__).parent / "fixtures" / "claude_2_1_shapes.jsonl"


def rows_of(path: Path) -> EntryList:
    """The rows of the session at `path`, each entry as tall as its top message's number plus one."""
    session = read_session(path)
    rows = EntryList(set())
    rows.messages = session.visible()
    rows.main_end = len(rows.messages)
    rows.entries = rows.build_range(0, len(rows.messages), session.all_problems(), None, False)
    for entry in rows.entries:
        entry.height = entry.top + 1
    rows.sync_starts()
    return rows


def test_the_starts_are_the_sums_of_the_heights_and_each_line_finds_its_entry() -> None:
    rows = rows_of(FIXTURE)
    assert len(rows.entries) > 10
    assert rows.total == sum(e.height for e in rows.entries)
    for index, entry in enumerate(rows.entries):
        assert rows.entry_at(rows.starts[index]) == index
        assert rows.entry_at(rows.starts[index] + entry.height - 1) == index
    assert rows.entry_at(rows.total) is None


def test_range_of_a_message_holds_its_entries_and_only_them() -> None:
    rows = rows_of(FIXTURE)
    for top in range(len(rows.messages)):
        start, end = rows.range_of(top)
        assert all(e.top == top for e in rows.entries[start:end])
        assert rows.first_of(top) == start


def test_truncated_and_extended_rows_keep_their_sums_and_built_again_are_the_same_entries() -> None:
    rows = rows_of(FIXTURE)
    before, sums = list(rows.entries), list(rows.starts)
    keep = len(rows.messages) // 2
    start = rows.first_of(keep)
    dropped = rows.truncate(start)
    assert dropped == before[start:] and rows.starts == sums[: start + 1]
    again = rows.build_range(keep, len(rows.messages), [], None, False)
    assert all(a is b for a, b in zip(again, dropped, strict=False))  # the pool gave back the entries measured before
    rows.extend(again)
    assert rows.starts == sums and rows.entries == before


def test_the_entry_list_imports_no_textual() -> None:
    tree = ast.parse(Path(entry_list.__file__).read_text())
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [n for n in names if n.split(".")[0] in ("textual", "rich")]
