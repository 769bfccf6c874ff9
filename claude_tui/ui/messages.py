"""The library's messages: what its feeds (the index's load, the watcher's refresh) post to the screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message as TextualMessage

if TYPE_CHECKING:
    from claude_tui.core.library import Project


class LibraryLoaded(TextualMessage):
    """The projects as the index holds them (`final`: after bringing it up to date; `live`: a change the watcher
    saw, whose rows keep their places under a user in the tree or the list, where an index load sorts them)."""

    def __init__(
        self,
        projects: list[Project],
        notices: list[str],
        error: str | None = None,
        *,
        final: bool = True,
        update: bool = False,
        live: bool = False,
    ) -> None:
        super().__init__()
        self.projects, self.notices, self.error, self.final, self.live = projects, notices, error, final, live
        self.update = update  #: read from the index early: bring the index up to date next


class LibraryProgress(TextualMessage):
    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done, self.total = done, total
