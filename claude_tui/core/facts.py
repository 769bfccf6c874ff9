"""What the library knows of each project and session (library.py reads it from the index).

Kept apart from the library, which imports the index and the search: the app receives these
pickled from a child process at start-up (ui/prefetch.py) and need not import those to read them.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from claude_tui.core.times import parse_time

#: A session written to within this many seconds is live.
LIVE_SECONDS = 60.0
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")


def encode_path(path: str) -> str:
    """A path as Claude Code names its project folder: every character but a letter or digit becomes `-`."""
    return _NOT_ALNUM.sub("-", path)


def split_path(path: str) -> tuple[str, str]:
    """(parent, name) of a working folder's path, which may be Windows' (`e:\\src\\app`)."""
    parent, _, name = path.rstrip("/\\").rpartition("/" if "/" in path else "\\")
    return parent, name or path


def project_path(folder_name: str, cwds: Iterable[str], firsts: Iterable[str]) -> str:
    """The real path of the project folder `folder_name`: the one of its sessions' working folders (`cwds`)
    that the name encodes, else the first working folder (`firsts`) most of its sessions had, else the name."""
    exact = next((c for c in cwds if encode_path(c) == folder_name), None)
    common = Counter(firsts).most_common(1)
    return exact or (common[0][0] if common else folder_name)


@dataclass
class SessionInfo:
    """One session file's facts, from the index."""

    file: str  #: the session file's path as the index holds it
    id: str
    project: str  #: the project's real path
    title: str
    first_prompt: str
    started: str | None  #: ISO timestamps
    ended: str | None
    duration_s: float | None  #: from the first record to the last
    active_s: float | None  #: the same, less the pauses over an hour (core/timeline.py)
    prompts: int
    commands: int  #: slash and `!` commands
    messages: int  #: prompts and assistant messages
    tool_calls: int
    tool_errors: int
    tokens: int  #: all tokens, subagents included
    cost_usd: float | None  #: at list price, subagents included; None when no model has a price
    unpriced: list[str]  #: the models with no price that used tokens: left out of `cost_usd`
    models: list[str]  #: the one that wrote the most first
    subagent_models: list[str]  #: those only its subagents with transcripts of their own used, as `models`
    branch: str | None  #: the last git branch seen
    size: int
    mtime: float
    empty: bool
    warmup: bool
    subagents: int
    error: str | None = None  #: why the file could not be read, when it could not
    orphan_of: str | None = None  #: a subagent's transcript whose session has no file: that session's id
    no_file: bool = False  #: a session folder with no file beside it: its subagents' transcripts are all there is
    continues: str | None = None  #: the session whose records its file begins with a copy of (see copies.py)
    background: bool = False  #: a session sent to the background, re-run as a copy of the one it `continues`

    @cached_property
    def path(self) -> Path:
        """The session file (made when asked for: a Path for each of thousands of sessions costs more
        than the rest of their facts)."""
        return Path(self.file)

    @property
    def live(self) -> bool:
        """Written to within the last LIVE_SECONDS. A file dated later than now (copied with its
        times kept, or written by a machine whose clock is ahead) is live only within as much."""
        return abs(time.time() - self.mtime) < LIVE_SECONDS

    @cached_property
    def last_activity(self) -> float:
        """Epoch seconds of the last record, else of the last write (a copied file's time is the copy's); read
        once (sorts ask it of every session)."""
        recorded = parse_time(self.ended or self.started)
        return recorded if recorded is not None else self.mtime


def quiet(info: SessionInfo) -> bool:
    """An empty or warmup session: the list hides it unless `a` shows them (a live one with a prompt
    or a command shows, and one that cannot be read: it says why)."""
    return not info.error and (info.warmup or (info.empty and not (info.live and info.first_prompt)))


@dataclass
class Project:
    """A project folder and its sessions."""

    folder: Path
    path: str  #: the real path, from the sessions' cwd
    name: str  #: a short display name: the basename of `path`
    repo: str | None  #: the repository this is a worktree of; None when top-level
    sessions: list[SessionInfo] = field(default_factory=list)  #: newest first
    #: (sessions, of which not quiet) when `sessions` holds only the newest: a front page's (see front.py)
    counts: tuple[int, int] | None = None

    def counted(self) -> tuple[int, int]:
        """How many sessions it has, and how many of them the list shows unless `a` shows all (not quiet)."""
        if self.counts is not None:
            return self.counts
        return len(self.sessions), sum(not quiet(s) for s in self.sessions)

    @property
    def last_activity(self) -> float:
        return max((s.last_activity for s in self.sessions), default=0.0)

    @property
    def live(self) -> bool:
        return any(s.live for s in self.sessions)
