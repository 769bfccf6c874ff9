"""The conversation pane's rows, with no Textual in it: the messages shown, their entries and where each begins.

Every entry's height is known (measured, not drawn) and their starts are prefix sums searched with bisect.
Entries built once are kept in a pool by what they show, so a row hidden and shown again (a filter, `.`, another
branch) comes back measured, with its drawing's parse kept.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from itertools import accumulate
from typing import TYPE_CHECKING

from claude_tui.core.model import QUIET_KINDS, Kind, Message, Problem, ToolCall
from claude_tui.ui.widgets.conversation.entries import Entry, build, continues_turn, is_error
from claude_tui.ui.widgets.conversation.filters import PaneFilter

if TYPE_CHECKING:
    from claude_tui.core.session import Session


def _top(entry: Entry) -> int:
    return entry.top


class EntryList:
    """The pane's top-level messages, their entries and the entries' starts."""

    def __init__(self, expanded: set[object]) -> None:
        self.expanded = expanded  #: the keys of the entries opened (the view's set, shared)
        self.messages: list[Message] = []  #: top-level messages shown, in order
        self.main_end = 0  #: how many of them are the branch's; after them, the unstarted subagents' (see _listed)
        self.agents: dict[Message, Session] = {}  #: the first message of each of those subagents
        self.entries: list[Entry] = []
        #: Every entry built for this session, by what it shows (see the module's docstring).
        self.built: dict[tuple[object, ...], Entry] = {}
        self.starts: list[int] = [0]  #: first line of each entry, and the total at the end

    def clear(self) -> None:
        """No rows, and none kept."""
        self.messages, self.entries, self.starts = [], [], [0]
        self.main_end, self.agents = 0, {}
        self.built.clear()

    @property
    def total(self) -> int:
        """Lines of all entries."""
        return self.starts[-1]

    def sync_starts(self) -> None:
        """Sum the entries' heights again."""
        self.starts = list(accumulate((e.height for e in self.entries), initial=0))

    def truncate(self, start: int) -> list[Entry]:
        """Drop the entries from `start` on; those dropped."""
        dropped = self.entries[start:]
        del self.entries[start:]
        del self.starts[start + 1 :]
        return dropped

    def extend(self, new: list[Entry]) -> None:
        """Add measured entries at the end."""
        start = len(self.entries)
        self.entries.extend(new)
        self.starts.extend(accumulate((e.height for e in new), initial=self.starts[-1]))
        del self.starts[start]  # the kept total, repeated as the first of the new sums

    def entry_at(self, line: int) -> int | None:
        """The index of the entry that line `line` is on."""
        index = bisect_right(self.starts, line) - 1
        return index if 0 <= index < len(self.entries) else None

    def first_line(self, index: int) -> int:
        """The first line of entry `index` below its padding."""
        return self.starts[index] + self.entries[index].pad

    def index_of(self, entry: Entry, hint: int) -> int | None:
        """Where `entry` is (looked for at `hint` first)."""
        if hint < len(self.entries) and self.entries[hint] is entry:
            return hint
        try:
            return self.entries.index(entry)
        except ValueError:
            return None

    def range_of(self, top: int) -> tuple[int, int]:
        """The indices of the entries of top-level message `top`."""
        return bisect_left(self.entries, top, key=_top), bisect_right(self.entries, top, key=_top)

    def first_of(self, top: int) -> int:
        """The index of the first entry of message `top` or after it."""
        return bisect_left(self.entries, top, key=_top)

    def top_of(self, message: Message) -> int | None:
        """Where `message` is among the top-level messages."""
        messages = self.messages
        main_end = min(self.main_end, len(messages))  # while a big read is applied, some are still to come
        index = bisect_left(messages, message.index, 0, main_end, key=lambda m: m.index)
        if index < main_end and messages[index] is message:
            return index
        return next((i for i in range(main_end, len(messages)) if messages[i] is message), None)

    def in_place_of(self, gone: Entry, appendix: bool) -> Entry | None:
        """The row that takes the place of one no longer shown: the first from its line on, else the last (the last
        too for a row in the `appendix` after the conversation: a subagent no call started)."""
        last = self.entries[-1] if self.entries else None
        if appendix:
            return last
        line = line_of(gone.message)
        return next((e for e in self.entries if line_of(e.message) >= line), last)

    def build_range(
        self, start: int, end: int, problems: list[Problem], pane_filter: PaneFilter | None, hide_quiet: bool
    ) -> list[Entry]:
        """Entries of messages `start` to `end` (and of the damaged lines among them, the session's `problems`;
        `end` at the last message also takes the damaged lines after it) that `pane_filter` keeps; those built
        before are reused."""
        messages, pool = self.messages, self.built
        expanded = self.expanded
        previous = self.previous_of(start)
        out: list[Entry] = []
        lines = [p.line_no for p in problems]
        main_end = min(end, self.main_end)
        after = line_of(messages[start - 1]) if 0 < start <= main_end else 0
        for top in range(start, main_end):
            message = messages[top]
            line = line_of(message)
            for problem in problems[bisect_right(lines, after) : bisect_right(lines, line)]:
                if pane_filter is None:
                    out.append(reuse(Entry("problem", message, top, problem=problem), pool))
            after = max(after, line)
            if pane_filter is None:  # entries_of's work, inline: a whole session is built at times
                out += (reuse(e, pool) for e in build(message, top, 0, previous, expanded, hide_quiet))
            else:
                out += self.entries_of(message, top, 0, previous, pane_filter, hide_quiet)
            if message.kind not in QUIET_KINDS:
                previous = message
        if start <= self.main_end <= end and messages and pane_filter is None:  # damaged lines after the last
            last = messages[max(0, self.main_end - 1)]
            for problem in problems[bisect_right(lines, after) :]:
                out.append(reuse(Entry("problem", last, self.main_end, problem=problem), pool))
        # `start` may be the end of a list that shrank (a subagent listed last moved under its call): no message there
        opened = main_end < start < end and messages[self.marker_of(start)] in expanded
        for top in range(max(start, main_end), end):  # the subagents no call started, each under its marker
            message = messages[top]
            if (agent := self.agents.get(message)) is not None:
                previous, opened = None, message in expanded
                if pane_filter is None:
                    out.append(reuse(Entry("agent", message, top, pad=1 if top else 0, agent=agent), pool))
            if opened:
                out += self.entries_of(message, top, 1, previous, pane_filter, hide_quiet)
                if message.kind not in QUIET_KINDS:
                    previous = message
        return out

    def entries_of(
        self,
        message: Message,
        top: int,
        depth: int,
        previous: Message | None,
        pane_filter: PaneFilter | None,
        hide_quiet: bool,
    ) -> list[Entry]:
        """The entries of a top-level message that `pane_filter` keeps (built before: reused)."""
        pool = self.built
        if pane_filter is not None and not pane_filter.may_keep(message):
            return []
        entries = build(message, top, depth, previous, self.expanded, hide_quiet)
        return [reuse(e, pool) for e in entries if pane_filter is None or pane_filter.keeps(e)]

    def marker_of(self, top: int) -> int:
        """Where the subagent that message `top` belongs to (one no call started) begins: the top of the
        message its marker is keyed by."""
        return next(i for i in range(top, self.main_end - 1, -1) if self.messages[i] in self.agents)

    def previous_of(self, top: int) -> Message | None:
        """The message before `top` that a turn may continue from (none across a subagent's marker)."""
        index = self.previous_index(top)
        return None if index is None else self.messages[index]

    def previous_index(self, top: int) -> int | None:
        """The top of `previous_of(top)`."""
        messages, agents = self.messages, self.agents
        if top < len(messages) and messages[top] in agents:
            return None
        for index in range(top - 1, -1, -1):
            if messages[index].kind not in QUIET_KINDS:
                return index
            if messages[index] in agents:
                return None
        return None

    def turn_header(self, top: int) -> int | None:
        """The index of the header of the turn that message `top` belongs to. The turn may be long (hundreds of
        calls, their dim rows between): its header is found by its messages."""
        messages, start = self.messages, top
        while (previous := self.previous_index(start)) is not None and continues_turn(
            messages[start], messages[previous]
        ):
            start = previous
        for at in range(self.first_of(start), len(self.entries)):
            entry = self.entries[at]
            if entry.top != start:
                break
            if entry.kind == "header" and entry.depth == 0:
                return at
        return None

    def turn_of(self, header: Entry) -> list[Message]:
        """The messages answered under one assistant header."""
        if header.depth:
            return [header.message]
        turn = [header.message]
        for message in self.messages[header.top + 1 :]:
            if message.kind in QUIET_KINDS:
                continue
            if not continues_turn(message, turn[-1]):
                break
            turn.append(message)
        return turn


def common_prefix(old: list[Message], new: list[Message]) -> int:
    """How many messages `old` and `new` share at their start (list comparisons run in C)."""
    low, high = 0, min(len(old), len(new))
    if old[:high] == new[:high]:
        return high
    while low < high:  # old[:low] == new[:low], old[:high + 1] != new[:high + 1]
        middle = (low + high + 1) // 2
        if old[:middle] == new[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _identity(entry: Entry) -> tuple[object, ...]:
    return (entry.kind, id(entry.message), id(entry.block or entry.problem), entry.depth)


def reuse(entry: Entry, pool: dict[tuple[object, ...], Entry]) -> Entry:
    """The entry built before for the same thing (keeping its height and drawing), updated; else `entry`,
    kept in `pool` for next time."""
    key = _identity(entry)
    old = pool.get(key)
    if old is None:
        pool[key] = entry
        return entry
    old.top, old.pad = entry.top, entry.pad
    return old


def line_of(message: Message) -> int:
    """The line of the file `message` begins on (0: none)."""
    return message.span.line_no if message.span is not None else 0


def session_of(message: Message, root: Session | None) -> Session | None:
    """The session (the root or one of its subagents, at any depth) that holds `message`."""
    if root is None:
        return None
    stack = [root]
    while stack:
        session = stack.pop()
        if session.messages and message.index < len(session.messages) and session.messages[message.index] is message:
            return session
        stack.extend(session.subagents)
    return None


def error_in(session: Session, last: bool) -> tuple[Message, ToolCall | None] | None:
    """The first (or `last`) failed call or API error in `session`, in its subagents' too."""
    found: list[tuple[int, Message, ToolCall | None]] = [
        (m.index, m, None) for m in session.messages if m.kind is Kind.API_ERROR
    ]
    for call in session.calls.values():
        if call.status == "error":
            found.append((call.message.index, call.message, call))
        else:
            found += [(call.message.index, *inside) for sub in call.subagents if (inside := error_in(sub, last))]
    pick = max if last else min
    return pick(found, key=lambda f: f[0])[1:] if found else None


JUMPS: dict[str, Callable[[Entry], bool]] = {
    "prompt": lambda e: e.kind == "header" and e.depth == 0 and e.message.kind is Kind.PROMPT,
    "error": is_error,
    "compaction": lambda e: e.kind in ("compact", "summary") and e.depth == 0,
    "fork": lambda e: e.kind == "fork",
}


def jump_targets(
    entries: list[Entry], start: int | None, what: str, direction: int, expanded: set[object]
) -> Iterator[Entry | tuple[Message, ToolCall | None]]:
    """What a jump to `what` may land on in `entries` after (or before) entry `start`, nearest first: an
    entry, or an error in a collapsed subagent (its message and call)."""
    test = JUMPS[what]
    if start is None:
        start = -1 if direction > 0 else len(entries)
    for index in range(start + 1, len(entries)) if direction > 0 else range(start - 1, -1, -1):
        entry = entries[index]
        if test(entry):
            yield entry
        call = entry.call
        if what == "error" and call is not None and call.subagents and call not in expanded:
            for sub in call.subagents if direction > 0 else reversed(call.subagents):
                inside = error_in(sub, last=direction < 0)  # a collapsed subagent: open it there
                if inside is not None:
                    yield inside
                    break
