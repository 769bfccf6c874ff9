"""The command palette's providers: jump to any project or session by name; pane filters for the open session
("Show only Edit calls", "Show everything")."""

from __future__ import annotations

import asyncio
import heapq
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from claude_tui.core.collector import gc_paused
from claude_tui.core.facts import Project, SessionInfo, quiet
from claude_tui.ui.hosts import PaletteHost, PaneHost
from claude_tui.ui.text import one_line
from claude_tui.ui.widgets.conversation.filters import PaneFilter
from claude_tui.ui.widgets.sessions import title_of

#: A palette row: the text shown, the text matched (lowered), what choosing it calls with its item, the item (a
#: project or a session) and its project's name.
_Candidate = tuple[str, str, Callable[[Any], None], Project | SessionInfo, str]

#: Hits offered per search, at most.
MAX_HITS = 60
#: Characters of a session title (and of a project name or branch) shown and matched.
TITLE_CHARS = 60


def match(query: str, text: str) -> tuple[float, list[tuple[int, int]]] | None:
    """Where each word of `query` first occurs in `text` (case-insensitive) and a score; None if one is missing.

    Linear in the text. Textual's fuzzy matcher tries every way of placing the query's letters in
    the candidate: on long candidates and queries ("Ok, so there") one key took minutes.
    """
    return Query(query).match(text.lower())


class Query:
    """A palette query, lowered and split once for all the rows it is matched against."""

    __slots__ = ("whole", "words")

    def __init__(self, query: str) -> None:
        self.words = query.lower().split()
        self.whole = " ".join(self.words)

    def match(self, lowered: str) -> tuple[float, list[tuple[int, int]]] | None:
        """`match` of a lowered text."""
        spans = []
        for word in self.words:
            start = lowered.find(word)
            if start < 0:
                return None
            spans.append((start, start + len(word)))
        if not spans:
            return None
        at_word_start = sum(start == 0 or not lowered[start - 1].isalnum() for start, _ in spans)
        score = at_word_start / len(spans) + sum(end - start for start, end in spans) / len(lowered)
        if self.whole in lowered:
            score += 1
        return score, spans


class HistoryProvider(Provider):
    """Projects and sessions of the library, matched by name (a project's path too), title (or first prompt) and
    branch.

    Its rows are made in a thread as the palette opens (a key typed meanwhile waits for them, the screen does not),
    and kept for the projects they were made of: the next opening reuses them."""

    async def startup(self) -> None:
        await asyncio.to_thread(self._all)

    def _all(self) -> list[_Candidate]:
        host = self.app
        assert isinstance(host, PaletteHost)
        state = host.state
        projects = state.projects
        kept = state.palette_rows
        if kept is not None and kept[0] is projects:
            return kept[1]
        with gc_paused():  # tens of thousands of new strings: a collector pass would walk the whole library
            rows = self._candidates(projects)
        state.palette_rows = (projects, rows)
        return rows

    def _candidates(self, projects: list[Project]) -> list[_Candidate]:
        """(shown text, text matched, callback, item, its project's name) for each project and session; the help
        line is made only for the rows shown (see `_help`: at 15,000 sessions, for all it took half the time)."""
        host = self.app
        assert isinstance(host, PaletteHost)
        choose_project, choose_session = host.choose_project, host.choose_session
        out: list[_Candidate] = []
        branches: dict[str | None, str] = {}  #: each branch's text, made once: a history has few
        for project in projects:
            name = one_line(project.name, TITLE_CHARS)
            text = f"project  {name}"  # matched by its path too, shown under it: five projects may be named "dl"
            out.append((text, f"{text} {one_line(project.path)}".lower(), choose_project, project, name))
            for info in project.sessions:
                if quiet(info):
                    continue
                title = title_of(info)
                branch = branches.get(info.branch)
                if branch is None:
                    branch = branches[info.branch] = one_line(info.branch, TITLE_CHARS)
                text = f"session  {one_line(title, TITLE_CHARS)}"
                out.append((text, f"session  {title} {name} {branch}".lower(), choose_session, info, name))
        return out

    def _help(self, item: object, name: str) -> str:
        """The line under a row: a project's path; a session's project, age and branch."""
        if isinstance(item, SessionInfo):
            host = self.app
            assert isinstance(host, PaletteHost)
            branch = one_line(item.branch, TITLE_CHARS)
            return f"{name} · {host.state.clock.ago(item.ended or item.started)}" + (f" · {branch}" if branch else "")
        return item.path if isinstance(item, Project) else ""

    async def discover(self) -> Hits:
        for text, _, callback, item, name in self._all()[:12]:
            yield DiscoveryHit(text, partial(callback, item), help=self._help(item, name))

    async def search(self, query: str) -> Hits:
        """The MAX_HITS best matches (every candidate is scored: a few ms for thousands of sessions)."""
        matched = Query(query).match
        scored = [(r, c) for c in self._all() if (r := matched(c[1])) is not None]
        for (score, spans), (text, _, callback, item, name) in heapq.nlargest(
            MAX_HITS, scored, key=lambda pair: pair[0][0]
        ):
            shown = Content(text)
            for start, end in spans:
                if end <= len(text):
                    shown = shown.stylize(self.match_style or "", start, end)
            yield Hit(score, shown, partial(callback, item), help=self._help(item, name))


class PaneFilterProvider(Provider):
    """One command per tool the open session called, and one that shows everything again."""

    def _commands(self) -> list[tuple[str, str, Callable[[], None]]]:
        screen = self.screen
        if not isinstance(screen, PaneHost) or screen.conversation.session is None:
            return []
        view = screen.conversation
        with view.session_lock:
            counts = Counter(call.name for call in view.session.calls.values()) if view.session else Counter()
        out: list[tuple[str, str, Callable[[], None]]] = []
        if view.pane_filter is not None:
            out.append(("Show everything", f"instead of {view.pane_filter.label}", partial(view.set_pane_filter, None)))
        for name, count in counts.most_common():
            show = partial(view.set_pane_filter, PaneFilter("tool", name))
            out.append((f"Show {PaneFilter('tool', name).label}", f"{count:,} in this session", show))
        return out

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, help_text, callback in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), callback, help=help_text)
