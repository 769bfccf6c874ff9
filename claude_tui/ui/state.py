"""What the screens share, in one object the app owns and hands down (no screen reaches up into the app for it)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_tui.ui.clock import Clock
from claude_tui.ui.config import Config

if TYPE_CHECKING:
    from claude_tui.core.library import Library, Project
    from claude_tui.core.usage_feed import UsageFeed
    from claude_tui.ui.prefetch import Prefetch


class AppState:
    """The history's roots, the user's config, the clock, the library (the index's handle, opened when first
    wanted), the projects last loaded from it, its usage as last counted, and what the launcher read before the app
    started."""

    def __init__(
        self,
        roots: list[Path],
        *,
        config: Config | None = None,
        clock: Clock | None = None,
        library: Library | None = None,
        prefetch: Prefetch | None = None,
    ) -> None:
        self.roots = roots
        self.config = config or Config()
        self.clock = clock or Clock()
        self.prefetch = prefetch
        self.projects: list[Project] = []  #: as the last load of the library found them (the palette's, too)
        #: the palette's rows (see palette_commands.HistoryProvider), and the projects they were made of
        self.palette_rows: tuple[list[Project], list[Any]] | None = None
        self._library = library
        self._usage: UsageFeed | None = None

    @property
    def library(self) -> Library:
        if self._library is None:
            from claude_tui.core.library import Library  # the index is opened when first wanted

            self._library = Library(self.roots)
        return self._library

    @property
    def usage(self) -> UsageFeed:
        """The history's usage, kept between the usage screen's counts (made when first wanted)."""
        if self._usage is None:
            from claude_tui.core.usage_feed import UsageFeed

            self._usage = UsageFeed(self.roots)
        return self._usage
