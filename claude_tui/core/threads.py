"""Which messages a reader sees: the uuid/parentUuid tree cut into segments at forks.

A segment is a run of the tree between forks: a branch head (the first prompt of
a branch) starts a new one, every other message lives in its parent's. Reading a
session is reading the segments on one path from the root; by default, the path
that ends at the newest message. Computed in one pass, after the records are in,
so it costs nothing while a file is read and a fork found late changes nothing else; a live
session's new messages are added to the layout (`extend`) until one starts a branch.

A parent written after its child (Claude Code does so at times) is followed all the same. A message whose
parent is not in the file (but for the first: a resumed session names the end of the one it resumes), or
whose parents loop back to it, starts a thread of its own where it was written, and gets a note (`notes`):
no message is lost, and the gap is said.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from claude_tui.core.model import Fork, Kind, Message, Problem


class Tree(Protocol):
    """What a layout reads of a session: its messages in file order, its forks, and its uuids."""

    messages: list[Message]
    forks: list[Fork]
    from_start: bool  #: read from the file's first byte (not a tail of it)

    def message_by_uuid(self, uuid: str) -> Message | None: ...


@dataclass(slots=True)
class Layout:
    """Segments, the newest message under each, and the messages on the path being read."""

    segment_parent: list[int]
    newest: list[int]  #: per segment: index of the newest message in it or below it
    branch_segments: dict[int, list[int]]  #: id(fork) -> segment of each branch
    visible: list[Message]
    active: set[int]  #: segments on the path being read
    count: int  #: messages laid out
    notes: list[Problem]  #: where the thread could not be followed, by line
    missing: list[tuple[str, Problem]]  #: the parents named that are not in the file (yet), and their notes

    @classmethod
    def of(cls, session: Tree) -> Layout:
        layout = cls([-1], [-1], {id(f): [] for f in session.forks}, [], set(), len(session.messages), [], [])
        placed = [False] * len(session.messages)
        by_uuid, newest = session.message_by_uuid, layout.newest
        for index, message in enumerate(session.messages):
            if placed[index]:
                continue
            parent = by_uuid(message.parent) if message.parent else None
            if parent is not None and placed[parent.index] and message.fork is None:  # the usual case
                base = message.segment = parent.segment  # in its parent's segment, as _place puts it
                newest[base] = max(newest[base], index)
                placed[index] = True
                continue
            chain, base = layout._unplaced_chain(session, message, placed)
            for link in reversed(chain):  # from the placed ancestor (or a new root) down
                base = layout._place(link, base)
                placed[link.index] = True
        for seg in range(len(layout.segment_parent) - 1, 0, -1):  # a segment's id is larger than its parent's
            up = layout.segment_parent[seg]
            layout.newest[up] = max(layout.newest[up], layout.newest[seg])
        layout.notes.sort(key=lambda note: note.line_no)
        active = layout.active = layout.active_segments(session.forks)
        layout.visible = [m for m in session.messages if m.segment in active and shown(m)]
        return layout

    def _unplaced_chain(self, session: Tree, message: Message, placed: list[bool]) -> tuple[list[Message], int]:
        """`message` and its parents not yet laid out, and the segment the topmost goes in: its parent's, or
        the root's (0) with a note when that parent is not in the file or is one of the chain (a loop)."""
        chain, seen = [message], {message.index}
        while uuid := chain[-1].parent:
            parent = session.message_by_uuid(uuid)
            if parent is not None and placed[parent.index]:
                return chain, parent.segment
            if parent is not None and parent.index not in seen:  # written after its child: followed all the same
                chain.append(parent)
                seen.add(parent.index)
                continue
            # a compaction's parent is logical, and a file's first message's the end of the session it resumes:
            # both are often in another file
            if chain[-1].kind is not Kind.COMPACT_BOUNDARY and (chain[-1].index > 0 or not session.from_start):
                note = gap_note(chain[-1], uuid, looped=parent is not None)
                self.notes.append(note)
                if parent is None:
                    self.missing.append((uuid, note))
            break
        return chain, 0

    def _place(self, message: Message, base: int) -> int:
        """Put `message` in segment `base`, or in a new one under it when it heads a branch; its segment."""
        if message.fork is not None:
            self.segment_parent.append(base)
            self.newest.append(-1)
            base = len(self.segment_parent) - 1
            self.branch_segments[id(message.fork)].append(base)
        message.segment = base
        self.newest[base] = max(self.newest[base], message.index)
        return base

    def extend(self, session: Tree) -> bool:
        """Lay out the messages appended since (a live session grows by a few at a time): False when
        one starts a branch, lands off the path being read or has no parent laid out before it, or when a
        parent missing till now has come: each may change that path."""
        by_uuid = session.message_by_uuid
        parents, newest, active = self.segment_parent, self.newest, self.active
        added = []
        if any(by_uuid(uuid) is not None for uuid, _ in self.missing):
            return False
        for message in session.messages[self.count :]:
            parent = by_uuid(message.parent) if message.parent else None
            if message.parent and (parent is None or parent.index >= message.index):
                return False
            base = parent.segment if parent is not None else 0
            if message.fork is not None or base not in active:
                return False
            message.segment = segment = base
            while segment >= 0:  # the newest message under each segment up to the root
                newest[segment] = message.index
                segment = parents[segment]
            if shown(message):
                added.append(message)
        self.count = len(session.messages)
        if added:
            self.visible = self.visible + added  # a new list: views compare it with the one they show
        return True

    def off_path(self, session: Tree) -> list[Message]:
        """The messages of the branches not being read, in file order."""
        return [m for m in session.messages[: self.count] if m.segment not in self.active and shown(m)]

    def newest_branch(self, fork: Fork) -> int:
        newest = [self.newest[s] for s in self.branch_segments[id(fork)]]
        return newest.index(max(newest))

    def branches_to(self, segment: int, forks: list[Fork]) -> list[tuple[Fork, int]]:
        """Each fork on the way from the root to `segment`, and the index of its branch that leads there."""
        path: set[int] = set()
        while segment > 0:  # segment 0 is the root's, on every path
            path.add(segment)
            segment = self.segment_parent[segment]
        return [(f, i) for f in forks for i, s in enumerate(self.branch_segments[id(f)]) if s in path]

    def active_segments(self, forks: list[Fork]) -> set[int]:
        """Segments on the path being read: at each fork reached, the chosen or newest branch."""
        active = {0}
        # By first head: an outer fork's first head comes before any fork that grew from it.
        for fork in sorted(forks, key=lambda f: f.heads[0].index):
            segments = self.branch_segments[id(fork)]
            home = self.segment_parent[segments[0]]
            if home in active:
                chosen = fork.chosen if fork.chosen is not None else self.newest_branch(fork)
                active.add(segments[chosen])
        return active


def shown(message: Message) -> bool:
    """Tool results are shown in their calls; those whose call is not in the file, on their own. A record folded
    into another row (a hook run, progress; see hooks.py) or away has no row."""
    if message.folded:
        return False
    return message.kind is not Kind.TOOL_RESULT or any(block.call is not None for block in message.blocks)


def gap_note(message: Message, parent: str, *, looped: bool) -> Problem:
    """The note on a message whose thread cannot be followed up from it."""
    where = (message.span.line_no, message.span.offset) if message.span else (0, 0)
    why = "leads back to this record (a loop)" if looped else "names no record in the file"
    return Problem(*where, f"parentUuid {parent[:8]} {why}: shown where it was written, as a thread of its own")
