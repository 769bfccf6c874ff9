"""What the parts of the UI ask of the ones above them, as small Protocols: the app and the main screen implement
them, and the parts that call them import only these (calls down stay calls, synchronous, where key order needs it).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from textual.screen import Screen

    from claude_tui.core.library import Project, SessionInfo
    from claude_tui.core.search import SearchHit
    from claude_tui.ui.state import AppState
    from claude_tui.ui.widgets.conversation import ConversationView


@runtime_checkable
class PaletteHost(Protocol):
    """What the palette's projects and sessions need of the app: the state, and going to a project or session."""

    state: AppState

    def choose_project(self, project: Project) -> None: ...

    def choose_session(self, info: SessionInfo) -> None: ...


@runtime_checkable
class PaneHost(Protocol):
    """A screen that shows a conversation pane (the palette's pane filters act on it)."""

    @property
    def conversation(self) -> ConversationView: ...


class SearchHost(Protocol):
    """What the search screen needs of the app: the state (the library, the clock), and showing a hit."""

    state: AppState

    async def open_hit(self, hit: SearchHit) -> None: ...


@runtime_checkable
class Reopened(Protocol):
    """A screen that can be opened again as it is now: the way back to it from a session it opened."""

    def again(self) -> Screen[Any]: ...


class UsageHost(Protocol):
    """What the usage screen needs of the app: the state (the library, the projects, the clock), and showing a
    session at its first prompt."""

    state: AppState

    async def open_at_prompt(self, path: Path) -> None: ...


class LiveHost(PaneHost, Protocol):
    """What `Live` asks of the main screen it runs for (its timers and workers run on that screen)."""

    state: AppState
    direct: Path | None  #: the session given on the command line (None: the browser's)

    def update_header(self, status: str = "") -> None: ...

    def redraw_library(self) -> None: ...
