"""Diffs of file edits: from Claude Code's structuredPatch hunks, or from old/new strings.

All work is capped: strings beyond MAX_DIFF_CHARS are cut before diffing, lines are
compared pair by pair only up to MAX_DIFF_PAIRS pairs per call (difflib is quadratic in
them), and at most MAX_HUNK_LINES lines are kept. The pane draws these hunks; the exporter writes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from claude_tui.core.model import ToolCall

MAX_DIFF_CHARS = 40_000
MAX_HUNK_LINES = 2_000
#: Old lines times new lines that difflib compares for one call at most (about 50 ms at worst);
#: beyond, the lines between the common first and last ones are shown removed, then added.
MAX_DIFF_PAIRS = 250_000
EDIT_TOOLS = frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit"})


@dataclass(slots=True)
class Hunk:
    old_start: int | None  #: line numbers in the file; None where unknown (a diff of the call's strings)
    new_start: int | None
    lines: list[str]  #: each starts with " ", "-" or "+"


def hunks_of(call: ToolCall) -> list[Hunk]:
    """The hunks of an Edit, MultiEdit or Write call: from its result's patch, else (no patch, or one that is
    not a list of hunks) from its input, as for a failed call."""
    structured = call.result.structured if call.result is not None else None
    if isinstance(structured, dict):
        patch = structured.get("structuredPatch")
        items = patch if isinstance(patch, list) else []
        hunks = [hunk for hunk in map(_hunk, items) if hunk is not None]
        if hunks and len(hunks) == len(items):
            return _capped(hunks)
    inp = call.args
    if call.name == "Edit":
        return _diff(_s(inp.get("old_string")), _s(inp.get("new_string")), MAX_DIFF_PAIRS)[0]
    if call.name == "MultiEdit" and isinstance(inp.get("edits"), list):
        found: list[Hunk] = []
        budget = MAX_DIFF_PAIRS  # for all the edits together
        for edit in inp["edits"][:50]:
            if isinstance(edit, dict):
                hunks, budget = _diff(_s(edit.get("old_string")), _s(edit.get("new_string")), budget)
                found += hunks
        return found
    if call.name in ("Write", "NotebookEdit"):
        content = _s(inp.get("content" if call.name == "Write" else "new_source"))[:MAX_DIFF_CHARS]
        return [Hunk(0, 1, ["+" + line for line in content.splitlines()[:MAX_HUNK_LINES]])] if content else []
    return []


def counts(hunks: list[Hunk]) -> tuple[int, int]:
    """(lines added, lines removed)."""
    added = removed = 0
    for hunk in hunks:
        for line in hunk.lines:
            if line.startswith("+"):
                added += 1
            elif line.startswith("-"):
                removed += 1
    return added, removed


def _hunk(item: Any) -> Hunk | None:
    """One hunk of a structuredPatch; None for what is not one: its lines not a list of strings (a string's
    letters are no lines), or a start that is no line number (none written: unknown)."""
    if not isinstance(item, dict):
        return None
    lines, old, new = item.get("lines"), item.get("oldStart"), item.get("newStart")
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        return None
    if not all(start is None or (type(start) is int and start >= 0) for start in (old, new)):
        return None
    return Hunk(old, new, lines)


def _capped(hunks: list[Hunk]) -> list[Hunk]:
    """The first MAX_HUNK_LINES lines of `hunks`."""
    kept: list[Hunk] = []
    budget = MAX_HUNK_LINES
    for hunk in hunks:
        if budget <= 0:
            break
        kept.append(Hunk(hunk.old_start, hunk.new_start, hunk.lines[:budget]))
        budget -= len(kept[-1].lines)
    return kept


def _diff(old: str, new: str, budget: int) -> tuple[list[Hunk], int]:
    """The hunks from `old` to `new`, and what is left of `budget` (pairs of lines difflib may compare)."""
    import difflib  # rarely needed: Claude Code writes the patch itself since 1.0

    old_lines = _split(old[:MAX_DIFF_CHARS])
    new_lines = _split(new[:MAX_DIFF_CHARS])
    pairs = len(old_lines) * len(new_lines)
    if pairs <= budget:
        groups = list(difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_grouped_opcodes(2))
        budget -= pairs
    else:
        groups = _replaced(old_lines, new_lines)
    hunks: list[Hunk] = []
    for group in groups:
        lines: list[str] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [" " + line for line in old_lines[i1:i2]]
                continue
            lines += ["-" + line for line in old_lines[i1:i2]]
            lines += ["+" + line for line in new_lines[j1:j2]]
        hunks.append(Hunk(None, None, lines[:MAX_HUNK_LINES]))  # where the strings are in the file is unknown
    return hunks, budget


def _split(text: str) -> list[str]:
    """The lines of an edit's string: none for an empty one (a deletion adds no blank line)."""
    return text.split("\n") if text else []


Opcode = tuple[str, int, int, int, int]


def _replaced(old: list[str], new: list[str]) -> list[list[Opcode]]:
    """The one group of opcodes (as difflib's) that replaces what lies between the lines `old` and `new`
    begin and end with, with two lines of context: linear, where difflib is quadratic."""
    most = min(len(old), len(new))
    head = next((i for i in range(most) if old[i] != new[i]), most)
    tail = next((i for i in range(most - head) if old[-1 - i] != new[-1 - i]), most - head)
    old_end, new_end = len(old) - tail, len(new) - tail
    if head == old_end and head == new_end:
        return []
    group = [("equal", head - min(head, 2), head, head - min(head, 2), head)] if head else []
    group.append(("replace", head, old_end, head, new_end))
    if tail:
        group.append(("equal", old_end, old_end + min(tail, 2), new_end, new_end + min(tail, 2)))
    return [group]


def unified(call: ToolCall) -> list[str]:
    """The hunks of a call as unified-diff text (header lines included), or [] when there is no change; a hunk
    whose place in the file is unknown has `?` for its start lines."""
    lines: list[str] = []
    for hunk in hunks_of(call):
        old = sum(1 for line in hunk.lines if line[:1] in (" ", "-"))
        new = sum(1 for line in hunk.lines if line[:1] in (" ", "+"))
        lines.append(f"@@ -{_range(hunk.old_start, old)} +{_range(hunk.new_start, new)} @@")
        lines += hunk.lines
    path = call.args.get("file_path") if isinstance(call.args.get("file_path"), str) else "file"
    return [f"--- {path}", f"+++ {path}", *lines] if lines else []


def _range(start: int | None, count: int) -> str:
    """A hunk header's range as diff writes it: the count only when it is not 1."""
    first = "?" if start is None else str(start)
    return first if count == 1 else f"{first},{count}"


def _s(value: Any) -> str:
    return value if isinstance(value, str) else ""
