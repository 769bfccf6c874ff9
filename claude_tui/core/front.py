"""The front page: what the browser's first frame shows, saved beside the index each time the library is read
from it, and read back at start-up in a time that does not grow with the history.

Reading every session's facts from the index costs about 40 µs a session (half a second at 15,000, more than
Textual takes to start). The first frame needs only every project's row in the tree (its name and its
counts) and the rows of the newest project's list: the front keeps those, with each project's counts as
the whole library gives them (see `Project.counts`). It is good for the state of the index it was made
from (`Index.state`): a front made before the index last changed is not read. The app shows it, then the
whole library once read (see ui/prefetch.py).
"""

from __future__ import annotations

import pickle
from dataclasses import fields, replace
from typing import Any

from claude_tui import __version__
from claude_tui.core.facts import Project, SessionInfo, quiet

#: The newest sessions kept of the project shown first: more rows than a screen has.
ROWS = 100
#: Of every other project: enough to find its newest session that the list shows (its row in the tree).
OTHER_ROWS = 5
#: What makes an old front unreadable as it is: another version, other fields.
_FORMAT = (1, __version__, tuple(f.name for f in fields(SessionInfo)), tuple(f.name for f in fields(Project)))


def front_of(projects: list[Project]) -> list[Project]:
    """The projects (newest first) with their counts, and their newest sessions only: ROWS of the project of the
    newest session the list shows, OTHER_ROWS (or up to the first it shows) of the others."""
    shown = [(-s.last_activity, i) for i, p in enumerate(projects) for s in p.sessions if not quiet(s)]
    first = min(shown)[1] if shown else 0
    out = []
    for i, project in enumerate(projects):
        listed = next((n for n, s in enumerate(project.sessions) if not quiet(s)), 0) + 1
        keep = ROWS if i == first else max(OTHER_ROWS, listed)
        out.append(replace(project, sessions=project.sessions[:keep], counts=project.counted()))
    return out


def dumps(state: Any, projects: list[Project]) -> bytes:
    """The front of `projects`, made from the index in `state`, as the library saves it beside the index."""
    return pickle.dumps((_FORMAT, state, front_of(projects)), protocol=pickle.HIGHEST_PROTOCOL)


def loads(data: bytes, state: Any) -> list[Project] | None:
    """The front saved in `data` if it was made from the index in `state` (by this version), else None."""
    try:
        form, made, projects = pickle.loads(data)  # written by claude-tui in the user's own cache, as the index is
    except Exception:  # another version's, damaged: none
        return None
    return projects if form == _FORMAT and made == state else None
