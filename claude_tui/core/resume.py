"""Carrying a session on in Claude Code: which session and folder, the command that resumes (or forks) it, and
why it cannot run here. The app's side (suspending, asking, following) is ui/resume.py.

The command is the config's `resume_command`, split into words with shlex before its placeholders are filled:
a session id or a folder with spaces or quotes stays one argument, and no shell ever reads it.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import PureWindowsPath
from string import Formatter
from typing import TYPE_CHECKING

from claude_tui.core.files import session_dir
from claude_tui.core.model import is_session_id

if TYPE_CHECKING:
    from claude_tui.core.facts import SessionInfo
    from claude_tui.core.session import Session

DEFAULT_COMMAND = "claude --resume {session_id}"
#: What Claude Code takes to carry a session on under a new id, leaving the old one as it was.
FORK_OPTION = "--fork-session"
#: {session_id}; {cwd}, the folder the command runs in; {fork}, FORK_OPTION when forking (a word of its own left
#: out when resuming). A command without {fork} forks with FORK_OPTION added at its end.
PLACEHOLDERS = ("session_id", "cwd", "fork")


@dataclass(frozen=True)
class Target:
    """What a resume needs of a session: the id Claude Code knows it by, and the folder it ran in."""

    session_id: str
    cwd: str | None  #: its records' first cwd (the folder its project is named after); None when none names one


def of_session(session: Session) -> Target:
    """A session's target: a subagent's transcript resumes its parent session (the sessionId its records name, or
    the `<id>/subagents/` folder it is in); a file not named by its id, the id its records name (Session.id)."""
    session_id = session.id
    if session.is_agent:
        named = [sid for sid in session.session_ids if is_session_id(sid)]
        folder = session_dir(session.path).name  # `<id>/subagents/...` (a 2.0 transcript beside it: its own name)
        session_id = named[0] if named else folder if is_session_id(folder) else session_id
    return Target(session_id, session.project_path)


def of_info(info: SessionInfo) -> Target:
    """A listed session's target (a subagent's transcript listed alone resumes the session it belongs to)."""
    return Target(info.orphan_of or info.id, info.project or None)


def split_command(template: str) -> list[str]:
    """The words of a resume command; ValueError says what is wrong with it (quotes, a placeholder, nothing)."""
    words = shlex.split(template)
    if not words:
        raise ValueError("it is empty")
    if words[0] == "{fork}":  # left out when resuming: nothing would run
        raise ValueError("it must begin with its program, not {fork}")
    for word in words:
        for _, field, _, _ in Formatter().parse(word):
            if field is not None and field not in PLACEHOLDERS:
                known = ", ".join(f"{{{name}}}" for name in PLACEHOLDERS)
                raise ValueError(f"it names {{{field}}}, which is none of {known}")
    return words


def command_argv(template: str, session_id: str, cwd: str, *, fork: bool = False) -> list[str]:
    """The program and arguments that resume (or fork) session `session_id` in folder `cwd`."""
    words = split_command(template)
    values = {"session_id": session_id, "cwd": cwd, "fork": FORK_OPTION if fork else ""}
    argv = [word.format_map(values) for word in words if fork or word != "{fork}"]
    argv[0] = os.path.expanduser(argv[0])  # no shell: `~/bin/claude` is ours to expand
    if fork and not any(field == "fork" for word in words for _, field, _, _ in Formatter().parse(word)):
        argv.append(FORK_OPTION)
    return argv


def copy_line(template: str, target: Target, *, fork: bool = False) -> str:
    """The command as one line to paste in a shell: `cd <cwd> && claude --resume <id>`."""
    command = shlex.join(command_argv(template, target.session_id, target.cwd or ".", fork=fork))
    if not target.cwd:
        return command
    option_like = "-- " if target.cwd.startswith("-") else ""  # cd would take `-x/y` for an option
    return f"cd {option_like}{shlex.quote(target.cwd)} && {command}"


class Blocker(Enum):
    """Why a resume cannot run as it is."""

    PROGRAM = "program"  #: the command's program is not on PATH
    ELSEWHERE = "elsewhere"  #: the session ran on another machine
    GONE = "gone"  #: its folder is not there (or no record names one): it may run in the current folder instead


@dataclass(frozen=True)
class Refusal:
    blocker: Blocker
    text: str  #: one line that says why


def refusal(
    target: Target, template: str, *, which: Callable[[str], str | None] = shutil.which, windows: bool | None = None
) -> Refusal | None:
    """Why `template` cannot resume `target` here, or None when it can (`windows`: whether this machine is)."""
    program = split_command(template)[0]
    if which(os.path.expanduser(program)) is None:
        return Refusal(Blocker.PROGRAM, f"Cannot resume: no program {program!r} on PATH (see resume_command)")
    cwd = target.cwd
    if not cwd:
        return Refusal(Blocker.GONE, "The session names no folder it ran in")
    windows = os.name == "nt" if windows is None else windows
    if bool(PureWindowsPath(cwd).drive) != windows or (windows and cwd.startswith("/")):
        return Refusal(Blocker.ELSEWHERE, f"Cannot resume: the session ran on another machine, in {cwd}")
    if os.path.isdir(cwd):
        return None
    parent = os.path.dirname(cwd.rstrip("/\\")) or cwd
    if not os.path.isdir(parent):
        return Refusal(Blocker.ELSEWHERE, f"Cannot resume: the session ran in {cwd}, and there is no {parent} here")
    return Refusal(Blocker.GONE, f"The session's folder {cwd} no longer exists")
