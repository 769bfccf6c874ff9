"""A session and its subagent files, read incrementally into one Session.

Opening a session and following it are the same thing: `poll()` reads whatever
was appended since the last call (from offset 0 the first time), in bounded
batches if asked, and reports what changed. Files that shrink or are replaced
are read again; a deleted file is noted and what was read is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from claude_tui.core.files import agent_files, folder_only
from claude_tui.core.loader import agent_session
from claude_tui.core.model import Problem
from claude_tui.core.reader import Reader, ReadError
from claude_tui.core.session import Session
from claude_tui.core.update import Update


@dataclass
class AgentTail:
    reader: Reader
    session: Session
    attached: bool = False  #: read and attached to the main session (a file unreadable at first is not yet)


@dataclass
class SessionTail:
    """Follows one session file and its subagent transcripts."""

    path: Path
    session: Session = field(init=False)
    reader: Reader = field(init=False)
    agents: dict[Path, AgentTail] = field(default_factory=dict)
    foreign: set[str] = field(default_factory=set)  #: the paths of flat agent files of other sessions
    deleted: bool = False  #: the file was gone at the last poll (what was read is kept)
    error: str | None = None  #: why the file cannot be read, when it cannot

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        self.session = Session(self.path)
        self.reader = Reader(str(self.path))

    @property
    def caught_up(self) -> bool:
        """True when everything in the file (but a partial last line) has been read."""
        return self.reader.offset + self.reader.pending >= self.reader.size

    @property
    def size(self) -> int:
        return self.reader.size

    def poll(self, limit: int | None = None) -> Update:
        """Read what was appended (at most about `limit` bytes of the main file), then the subagent files."""
        update = self._poll_main(limit)
        if self.caught_up and not self.error:
            self._poll_agents(update)
        return update

    def _poll_main(self, limit: int | None) -> Update:
        try:
            started_over, lines = self.reader.read(limit)
        except ReadError as exc:
            if self.reader.missing:
                self.deleted = not folder_only(self.path)  # a session folder with no file was never deleted
                self.error = None
            else:
                self.error = str(exc)
            return Update()
        self.deleted, self.error = False, None
        update = Update()
        if started_over:
            update = self.session.reset()
            self.agents.clear()
        fed = self.session.feed(lines)
        fed.started_over = fed.started_over or update.started_over
        fed.threads_changed = fed.threads_changed or update.threads_changed
        return fed

    def _poll_agents(self, update: Update) -> None:
        for path in agent_files(self.path, self.foreign, self.session.id):
            tail = self.agents.get(path)
            new = tail is None
            if tail is None:
                sub = agent_session(path, self.session.id)
                tail = self.agents[path] = AgentTail(Reader(str(path)), sub)
            try:
                started_over, lines = tail.reader.read()
            except ReadError as exc:
                if new:
                    self.session.problems.append(Problem(0, 0, f"{path.name}: {exc}"))
                continue
            if started_over:
                tail.session.reset()
            if tail.session.feed(lines) or not tail.attached:
                if not tail.attached:
                    self.session.attach_agent(tail.session)
                    tail.attached = update.threads_changed = True
                elif tail.session.parent_call is None:
                    self.session.link_agent(tail.session)  # created empty: its first prompt names its call now
                call = tail.session.parent_call
                if call is not None:
                    update.touch(call.message)
                self.session.version += 1
        if self.reader.missing and not self.deleted:  # a session folder with no file (see files.folder_only)
            self.session.adopt_agents()
