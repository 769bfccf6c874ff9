"""Sessions read from disk: a session file and its subagents' transcripts (found by files.py) into a Session."""

from __future__ import annotations

from pathlib import Path

from claude_tui.core.files import agent_files, agent_role, folder_only, is_agent_file, workflow_run
from claude_tui.core.model import AgentRole, Problem
from claude_tui.core.reader import Reader, ReadError
from claude_tui.core.session import Session


def agent_session(path: Path, session_id: str) -> Session:
    """An empty Session for the subagent transcript at `path` of session `session_id`, knowing what ran it."""
    role = agent_role(path)
    return Session(
        path,
        session_id=session_id,
        agent=True,
        role=role,
        run=workflow_run(path) if role is AgentRole.WORKFLOW else None,
    )


def read_session(path: Path, *, agents: bool = True) -> Session:
    """Read a whole session file, and its subagent transcripts, into a Session.

    A file that cannot be read raises ReadError; an unreadable subagent file becomes a problem note.
    """
    session = session_of(path, Reader(str(path)))
    if agents:
        attach_agents(session, agent_files(path, session_id=session.id))
        if not session.records and folder_only(path):
            session.adopt_agents()
    return session


def session_of(path: Path, reader: Reader, stop: int | None = None) -> Session:
    """A Session of the lines `reader` reads from `path`, to its end or to byte `stop`; subagent files aside. A
    session whose file is not there but whose folder is (see folder_only) has no lines."""
    session = Session(path, agent=is_agent_file(path))
    session.from_start = reader.offset == 0
    try:
        session.feed(reader.iter_lines(stop=stop))
    except ReadError as exc:
        if not (exc.missing and folder_only(path)):
            raise
    return session


def attach_agents(session: Session, paths: list[Path]) -> None:
    """Read these subagent transcripts into `session`."""
    for agent_path in paths:
        sub = agent_session(agent_path, session.id)
        try:
            _, sub_lines = Reader(str(agent_path)).read_all()
        except ReadError as exc:
            session.problems.append(Problem(0, 0, f"{agent_path.name}: {exc}"))
            continue
        sub.feed(sub_lines)
        session.attach_agent(sub)
