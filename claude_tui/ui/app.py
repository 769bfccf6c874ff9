"""The app: its bindings, theme and command palette, over the browser screen (screens/main.py)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from claude_tui.ui.bindings import key_clashes, keymap_of, shown_keys, unknown_ids
from claude_tui.ui.clock import Clock
from claude_tui.ui.config import Config, config_path
from claude_tui.ui.hosts import Reopened
from claude_tui.ui.keygate import KeyGate, ScreenFilled
from claude_tui.ui.palette import few_color_variables, few_colors
from claude_tui.ui.screens.main import MainScreen
from claude_tui.ui.state import AppState
from claude_tui.ui.widgets.conversation import ConversationView
from claude_tui.ui.widgets.filter_input import FilterInput
from claude_tui.ui.widgets.projects import ProjectTree
from claude_tui.ui.widgets.sessions import SessionList

if TYPE_CHECKING:  # and what the first screen does not show is imported when it is wanted
    from textual.command import Provider

    from claude_tui.core.library import Library, Project, SessionInfo
    from claude_tui.core.search import SearchHit
    from claude_tui.ui.prefetch import Prefetch


def _history_provider() -> type[Provider]:
    """The palette's projects and sessions (textual.command is imported when the palette opens)."""
    from claude_tui.ui.palette_commands import HistoryProvider

    return HistoryProvider


def _filter_provider() -> type[Provider]:
    """The palette's pane filters: one per tool of the open session."""
    from claude_tui.ui.palette_commands import PaneFilterProvider

    return PaneFilterProvider


class ClaudeTUI(App[None]):
    """Browse Claude Code history."""

    CSS_PATH = str(Path(__file__).with_name("app.tcss"))
    TITLE = "claude-tui"
    COMMANDS = App.COMMANDS | {_history_provider, _filter_provider}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("question_mark", "help", "Keys", id="app.help", key_display="?"),
        Binding("ctrl+r", "reload", "Reload history", show=False, id="app.reload"),
        Binding("ctrl+k", "search_all", "Search all sessions", id="app.search_all", key_display="^k"),
        Binding("U", "usage", "Usage", show=False, id="app.usage"),
    ]

    def __init__(
        self,
        roots: list[Path],
        *,
        session: Path | None = None,
        follow: bool = False,
        config: Config | None = None,
        clock: Clock | None = None,
        library: Library | None = None,
        prefetch: Prefetch | None = None,
    ) -> None:
        super().__init__()
        self.state = AppState(roots, config=config, clock=clock, library=library, prefetch=prefetch)
        self.direct = session
        self.follow = follow
        self.keys = KeyGate(self, super().on_event)

    async def on_event(self, event: events.Event) -> None:
        """A key from the terminal goes through the gate (keygate.py): in order, each once the one before is handled."""
        if isinstance(event, events.Key) and not event.is_forwarded:
            await self.keys.take(event)
        else:
            await super().on_event(event)

    def on_screen_filled(self, message: ScreenFilled) -> None:
        self.keys.filled(message.screen)

    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, self.keys.screen_changed)
        problems = list(self.state.config.problems)
        if self.state.config.keys:
            self.set_keymap(self.state.config.keys)
            owners = [owner for _, owner in _help_sections()]
            where = self.state.config.path or config_path()
            keymap = self.state.config.keys
            mistakes = unknown_ids([*owners, *_unlisted_binding_owners()], keymap) + key_clashes(owners, keymap)
            problems += [f"{where}: {mistake}" for mistake in mistakes]
        try:
            self.theme = self.state.config.theme
        except Exception:
            self.notify(
                f"Unknown theme {self.state.config.theme!r}; see ctrl+p → Theme", severity="warning", markup=False
            )
        for problem in problems:
            self.notify(problem, severity="warning", timeout=8, markup=False)

    def get_css_variables(self) -> dict[str, str]:
        """The theme's variables; with 16 colours or fewer, those that carry a meaning in colours that stay
        themselves (the nearest of 16 to a theme's colour can be any: white on cyan for textual-dark's cursor)."""
        variables = super().get_css_variables()
        if few_colors(self):
            variables.update(few_color_variables(self.current_theme.dark))
        return variables

    def get_default_screen(self) -> MainScreen:
        """The browser is the first screen: a screen pushed in on_mount is drawn once in the start-up
        batch, unseen, and again after it."""
        return MainScreen(self.state, session=self.direct, follow=self.follow, hide_quiet=self.state.config.hide_quiet)

    def compose(self) -> ComposeResult:
        """The browser's widgets, mounted into the default screen before the app is ready."""
        yield from self.main.widgets()

    @property
    def main(self) -> MainScreen:
        return next(s for s in self.screen_stack if isinstance(s, MainScreen))

    def action_help(self) -> None:
        from claude_tui.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(_help_sections()))

    def action_reload(self) -> None:
        self.main.refresh_library()
        self.notify("Reading the history again…", timeout=1.5)

    def action_search_all(self) -> None:
        """The search screen over the whole history (the same one each time: the last query kept)."""
        from claude_tui.ui.screens.search import SearchScreen

        if isinstance(self.screen, SearchScreen):
            self.screen.focus_query()
            return
        if not self.is_screen_installed("search"):
            self.install_screen(SearchScreen(self), "search")
        self.push_screen("search")

    async def open_hit(self, hit: SearchHit) -> None:
        """Show a search hit in the browser."""
        while len(self.screen_stack) > 1 and not isinstance(self.screen, MainScreen):
            await self.pop_screen()
        self.main.open_hit(hit)

    async def action_usage(self) -> None:
        """The usage screen: cost and tokens over time (the one open, if one is: back to it from its lists)."""
        from claude_tui.ui.screens.usage import UsageScreen

        usage = next((s for s in self.screen_stack if isinstance(s, UsageScreen)), None)
        if usage is None:
            await self.push_screen(UsageScreen(self))
            return
        while self.screen is not usage:
            await self.pop_screen()

    async def open_at_prompt(self, path: Path) -> None:
        """Show a session in the browser, at its first prompt; escape there opens the screens left again."""
        left: list[Screen[Any]] = []
        while len(self.screen_stack) > 1 and not isinstance(self.screen, MainScreen):
            if isinstance(self.screen, Reopened):
                left.insert(0, self.screen.again())
            await self.pop_screen()
        self.main.open_at_prompt(path, left)

    def choose_project(self, project: Project) -> None:
        self.main.choose_project(project)

    def choose_session(self, info: SessionInfo) -> None:
        self.main.choose_session(info)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.title == "Keys":  # Textual's panel: ours shows every key, remapped, with its id
                command = SystemCommand("Keys", "Every key, by where it works, with its id", self.action_help)
            yield command
        if not isinstance(screen, MainScreen):
            return
        view = screen.conversation
        for owner, target in ((MainScreen, screen), (ConversationView, view), (ClaudeTUI, self)):
            for binding in owner.BINDINGS:
                if not isinstance(binding, Binding) or not binding.id or binding.id in _NOT_COMMANDS:
                    continue
                keys = "  ".join(shown_keys(binding, keymap_of(self), self.get_key_display))
                yield SystemCommand(binding.description, f"{keys} · {binding.id}", _runner(target, binding.action))
        fork, copy = _runner(screen, "resume(True)"), _runner(screen, "copy_resume(True)")
        yield SystemCommand("Fork this session", "Resume it in Claude Code under a new id (--fork-session)", fork)
        yield SystemCommand("Copy fork command", "The command that forks it, for a shell", copy)


#: Bindings that make no sense as palette commands (moving one row, going back).
_NOT_COMMANDS = frozenset(
    {
        "conversation.down",
        "conversation.up",
        "conversation.open",
        "conversation.expand",
        "conversation.collapse",
        "app.back",
        "app.next_pane",
        "app.previous_pane",
        "app.filter",
        "app.quit",
        "app.help",
    }
)


def _help_sections() -> list[tuple[str, Any]]:
    """The help screen's sections: a title and what has the bindings."""
    from claude_tui.ui.screens.detail import DetailScreen
    from claude_tui.ui.screens.search import SearchScreen
    from claude_tui.ui.screens.usage import UsageScreen
    from claude_tui.ui.widgets.findbar import FindInput
    from claude_tui.ui.widgets.usage_chart import BarChart

    return [
        ("Everywhere", ClaudeTUI),
        ("Browser", MainScreen),
        ("Conversation", ConversationView),
        ("Find bar", FindInput),
        ("Project tree", ProjectTree),
        ("Session list", SessionList),
        ("Detail view", DetailScreen),
        ("Search all sessions", SearchScreen),
        ("Usage", UsageScreen),
        ("Usage chart", BarChart),
    ]


def _unlisted_binding_owners() -> list[Any]:
    """What has bindings the help screen does not list (they may be remapped all the same)."""
    from claude_tui.ui.resume import AskScreen
    from claude_tui.ui.screens.export_prompt import ExportPrompt
    from claude_tui.ui.screens.help import HelpScreen
    from claude_tui.ui.screens.search import HitList
    from claude_tui.ui.screens.usage import UsageSessions

    return [FilterInput, ExportPrompt, HelpScreen, HitList, AskScreen, UsageSessions]


def _runner(target: Any, action: str) -> Any:
    async def run() -> None:
        await target.run_action(action)

    return run
