"""Which messages a reader sees: the uuid/parentUuid tree cut into segments at forks.

A segment is a run of the tree between forks: a branch head (the first prompt of
a branch) starts a new one, every other message lives in its parent's. Reading a
session is reading the segments on one path from the root; by default, the path
that ends at the newest message. Computed in one pass, after the records are in,
so it costs nothing while a file is read and a fork found late changes nothing else; a live
session's new messages are added to the layout (`extend`) until one starts a branch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_tui.core.model import Fork, Kind, Message

if TYPE_CHECKING:
    from claude_tui.core.session import Session


@dataclass(slots=True)
class Layout:
    """Segments, the newest message under each, and the messages on the path being read."""

    segment_parent: list[int]
    newest: list[int]  #: per segment: index of the newest message in it or below it
    branch_segments: dict[int, list[int]]  #: id(fork) -> segment of each branch
    visible: list[Message]
    active: set[int]  #: segments on the path being read
    count: int  #: messages laid out

    @classmethod
    def of(cls, session: Session) -> Layout:
        parents, newest = [-1], [-1]
        branches: dict[int, list[int]] = {id(f): [] for f in session.forks}
        by_uuid = session.message_by_uuid
        for message in session.messages:
            parent = by_uuid(message.parent) if message.parent else None
            base = parent.segment if parent is not None and parent.index < message.index else 0
            if message.fork is not None:
                parents.append(base)
                newest.append(-1)
                base = len(parents) - 1
                branches[id(message.fork)].append(base)
            message.segment = base
            newest[base] = message.index
        for seg in range(len(parents) - 1, 0, -1):  # a segment's id is larger than its parent's
            up = parents[seg]
            newest[up] = max(newest[up], newest[seg])
        layout = cls(parents, newest, branches, [], set(), len(session.messages))
        active = layout.active = layout.active_segments(session.forks)
        layout.visible = [m for m in session.messages if m.segment in active and shown(m)]
        return layout

    def extend(self, session: Session) -> bool:
        """Lay out the messages appended since (a live session grows by a few at a time): False when
        one starts a branch or lands off the path being read, which may change that path."""
        by_uuid = session.message_by_uuid
        parents, newest, active = self.segment_parent, self.newest, self.active
        added = []
        for message in session.messages[self.count :]:
            parent = by_uuid(message.parent) if message.parent else None
            base = parent.segment if parent is not None and parent.index < message.index else 0
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

    def off_path(self, session: Session) -> list[Message]:
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
    """Tool results are shown in their calls; those whose call is not in the file, on their own."""
    return message.kind is not Kind.TOOL_RESULT or any(block.call is not None for block in message.blocks)
