"""The browser screen: the project tree, the session list and the conversation, their filter boxes, and
what moves between them.

Widgets post small messages up; the screen handles them and calls methods down.
Blocking work (the library, reading a session, exports) runs in thread workers
that post messages and never touch widgets.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from claude_tui.ui import library_feed
from claude_tui.ui.bindings import key_display
from claude_tui.ui.config import tilde
from claude_tui.ui.first_steps import no_history_page
from claude_tui.ui.live import Live
from claude_tui.ui.messages import LibraryLoaded, LibraryProgress
from claude_tui.ui.screens.message_actions import MESSAGE_ACTIONS, MessageActions
from claude_tui.ui.state import AppState
from claude_tui.ui.typed_name import TypedName
from claude_tui.ui.widgets.conversation import ConversationView
from claude_tui.ui.widgets.filter_input import FilterInput
from claude_tui.ui.widgets.header import SessionFacts, SessionHeader
from claude_tui.ui.widgets.keybar import KeyBar
from claude_tui.ui.widgets.projects import ProjectTree
from claude_tui.ui.widgets.sessions import SessionList
from claude_tui.ui.widgets.sidebar import Sidebar
from claude_tui.ui.widgets.status import LiveStatus

if TYPE_CHECKING:  # and what the first screen does not show is imported when it is wanted
    from textual.binding import ActiveBinding

    from claude_tui.core.library import Project, SessionInfo
    from claude_tui.core.search import SearchHit
    from claude_tui.ui.prefetch import Prefetch
    from claude_tui.ui.widgets.findbar import FindBar

#: Seconds the session cursor must rest before the session under it opens.
OPEN_DELAY = 0.12
#: Seconds after the first frame before the index is brought up to date (when it had projects).
UPDATE_DELAY = 0.3
#: Columns from which the tree, the list and the conversation are side by side.
WIDE_FROM = 110


def _resume_gc() -> None:
    """After the first frame: the cycle collector, which the launcher turned off for the start
    (launch.py), goes on; what the start made is frozen first, or its first pass would walk all of it."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


class MainScreen(MessageActions):
    """Project tree and session list on the left, the conversation on the right."""

    #: no ClassVar: Textual declares it `ClassVar[...] | None`, which type checkers read as an instance variable
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE_FROM, "-wide")]  # noqa: RUF012

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("z", "zoom", "Zoom", id="app.zoom"),
        Binding("escape", "back", "Back", show=False, id="app.back"),
        Binding("tab", "app.focus_next", "Next pane", show=False, id="app.next_pane"),
        Binding("shift+tab", "app.focus_previous", "Previous pane", show=False, id="app.previous_pane"),
        Binding("1", "focus_pane('projects')", "Projects", show=False, id="app.focus_projects"),
        Binding("2", "focus_pane('sessions')", "Sessions", show=False, id="app.focus_sessions"),
        Binding("3", "focus_pane('conversation')", "Conversation", show=False, id="app.focus_conversation"),
        Binding("slash", "filter", "Filter", show=False, id="app.filter"),
        Binding("y", "copy_message", "Copy message", show=False, id="app.copy_message"),
        Binding("Y", "copy_resume", "Copy resume command", show=False, id="app.copy_resume"),
        Binding("R", "resume", "Resume in Claude Code", show=False, id="app.resume"),
        Binding("r", "raw", "Raw JSON", show=False, id="app.raw"),
        Binding("p", "plan", "Plan", show=False, id="app.plan"),
        Binding("o", "pager", "Open in $PAGER", show=False, id="app.pager"),
        Binding("x", "export('markdown')", "Export Markdown", show=False, id="app.export"),
        Binding("X", "export('html')", "Export HTML", show=False, id="app.export_html"),
        Binding("L", "toggle_follow", "Follow the session as it is written", show=False, id="app.follow"),
    ]

    def __init__(self, state: AppState, *, session: Path | None, follow: bool, hide_quiet: bool) -> None:
        super().__init__()
        self.state = state  #: what the screens share (the app's)
        self.clock = state.clock
        self.direct = session
        self.follow = follow
        self.hide_quiet = hide_quiet
        self.info: SessionInfo | None = None
        self._open_timer: Any = None
        self._listed: str | None = None  #: the path of the project whose sessions the list holds
        self._hit: SearchHit | None = None  #: a search hit to show once its session is read
        self._at_prompt: Path | None = None  #: a session to show at its first prompt once it is read
        #: a session opened from another screen (search, usage), and what escape on it does: back to that screen
        self._way_back: tuple[Path, Callable[[], object]] | None = None
        self._typed_early: str | None = None  #: keys typed after / while the find bar was still being added
        self._typed_name = TypedName()  #: the moves' letters typed in a list right before its filter starts
        self._up_to_date = False  #: the projects of the index brought up to date have been shown
        #: (project folder, session file) opened as the newest of a first index still growing: a later load picks
        #: the newest again while the tree and the list are still on them and the list has the focus (the user
        #: has chosen nothing else, nor gone to read or browse)
        self._early_pick: tuple[str, str] | None = None
        self._told_of: str | None = None  #: a new session said to have started while following was paused
        self._noticed: set[str] = set()  #: the library's notices already toasted (the index keeps them all)
        self._wide_zoom = session is not None  #: zoomed when last wide (narrow, the zoom shows the conversation)
        self.live = Live(self, self)
        #: Textual reads AUTO_FOCUS from the screen on each resume; this one's depends on what it opened
        self.AUTO_FOCUS = "#conversation" if session is not None else "#sessions"  # type: ignore[misc]

    def widgets(self) -> ComposeResult:
        """The browser's widgets, which the app composes into this screen (see ClaudeTUI.compose)."""
        with Horizontal(id="body"):
            with Sidebar(panes=("projects-pane", "sessions-pane"), id="sidebar"):
                with Vertical(id="projects-pane"):  # a pane: the tree, and its filter box under it when typed in
                    yield ProjectTree(id="projects")
                with Vertical(id="sessions-pane"):
                    yield SessionList(self.clock, id="sessions")
                yield SessionFacts(self.clock, id="session-facts")
            with Vertical(id="reader"):
                yield SessionHeader(self.clock, id="session-header")
                yield ConversationView(self.clock, id="conversation")
                yield LiveStatus(id="live-status")
        yield Static(id="empty")
        yield KeyBar()

    def on_mount(self) -> None:
        self.call_after_refresh(_resume_gc)  # first: before the reads that the first frame sets off
        self.call_after_refresh(self._add_find_bar)
        tree = self.query_one(ProjectTree)
        tree.border_title = "Projects"
        tree.note = f"No sessions in {', '.join(tilde(root) for root in self.state.roots)}"
        self.query_one("#sessions").border_title = "Sessions"
        self.conversation.hide_quiet = self.hide_quiet
        self.query_one(SessionHeader).show(None, "Reading your history…")
        if self.direct is not None:
            self.add_class("-zoomed")
            self.conversation.open(self.direct, at_end=self.follow)  # read while the first frame is drawn
        if self.state.prefetch is not None and self.state.prefetch.ready():
            early = library_feed.prefetched(self.state.prefetch)
            if not early.update and self.state.prefetch.ready():  # the whole library has come too: it alone is shown
                early = library_feed.prefetched(self.state.prefetch)
            self.on_library_loaded(early)  # in the first frame
            if not early.update:  # the front page: the whole library comes next
                self._collect(self.state.prefetch)
        elif self.state.prefetch is not None:
            self._collect(self.state.prefetch)
        else:
            self.refresh_library()
        roots = [r.expanduser() for r in self.state.roots]
        self.call_after_refresh(self.live.start, roots, self.direct.parent if self.direct else None)

    def on_unmount(self) -> None:
        self.live.stop.set()

    @work(thread=True, group="library", exit_on_error=False)
    def _collect(self, prefetch: Prefetch) -> None:
        """The projects read while the app started that were not ready at mount, up to the whole library."""
        library_feed.collect(prefetch, self.post_message)

    # ---------------------------------------------------------------- the library

    @work(thread=True, exclusive=True, group="library", exit_on_error=False)
    def refresh_library(self) -> None:
        """Show what the index holds at once, then bring it up to date and show that (see library_feed.load)."""
        library_feed.load(self.state.library, self.post_message)

    def on_library_progress(self, message: LibraryProgress) -> None:
        if message.total:
            self.query_one(ProjectTree).border_title = f"Projects · indexing {message.done}/{message.total}"

    def on_library_loaded(self, message: LibraryLoaded) -> None:
        """The projects read (what the index held, brought up to date, or changed under the watcher's eyes)."""
        self._show_library(message)
        if message.live or message.final:
            self._tell_screens_above(message)
        if message.live:
            self._library_changed(message)

    def _show_library(self, message: LibraryLoaded) -> None:
        """The tree and the list show the projects read."""
        if message.update and not message.projects:
            self.refresh_library()  # the index held nothing: bring it up to date now
            return
        if message.update:  # what the index held is on screen: bring it up to date once that is drawn
            self.call_after_refresh(self.set_timer, UPDATE_DELAY, self.refresh_library)
        self.state.projects = message.projects
        if message.final:
            self.query_one(ProjectTree).border_title = "Projects"
        empty = not message.projects and self.direct is None and self.conversation.session is None
        self._tell_problems(message, first_run=empty and message.final)
        if empty:
            if message.final:
                self._show_empty(self.state.roots, message.notices)
            return  # (the last session deleted while shown: it stays, with an empty tree and list)
        self.remove_class("-empty")
        self._show_projects(message)
        if self.direct is not None:
            self.info = self._info_of(self.direct)
            self.update_header()
        if message.final:
            self._search_again()

    def _tell_problems(self, message: LibraryLoaded, first_run: bool) -> None:
        """Toast the library's notices not toasted yet (the first-run page says them) and its error."""
        if not first_run:
            fresh = [notice for notice in message.notices if notice not in self._noticed]
            self._noticed.update(fresh)
            for notice in fresh[:3]:
                self.notify(notice, severity="warning", timeout=6, markup=False)
        if message.error:
            self.notify(f"Could not read the history: {message.error}", severity="error", timeout=10, markup=False)

    def _show_projects(self, message: LibraryLoaded) -> None:
        """The tree shows the projects loaded, on the one to show (see `_project_to_show`), and the list its
        sessions; the newest is opened when none is (or following catches up with one)."""
        # following: the newest session is the one that started since the index was last brought up to date
        catch_up = message.final and not self._up_to_date and self.follow and self.direct is None
        self._up_to_date |= message.final
        tree = self.query_one(ProjectTree)
        chosen = self.query_one(SessionList).chosen
        picked = (str(tree.chosen.folder), chosen.file) if tree.chosen is not None and chosen is not None else None
        untouched = picked == self._early_pick and isinstance(self.focused, SessionList)  # where the app put it
        catch_up |= self._early_pick is not None and untouched
        self._early_pick = None
        project = self._project_to_show(message.projects, tree.chosen, catch_up)
        tree.set_projects(message.projects, project, keep_places=message.live)
        if project is None:  # no history, but a session is shown: the one named by its path (or deleted since)
            sessions = self.query_one(SessionList)
            sessions.note = f"Showing {self.direct.name} alone, opened by its path" if self.direct is not None else ""
            sessions.set_sessions([])
            sessions.border_title = "Sessions"  # of no project
            self._listed = None
            return
        open_newest = self.direct is None and (self.info is None or catch_up)
        shown = self._show_project(project, open_newest=open_newest, keep_places=message.live)
        if open_newest and not message.final and shown is not None:
            self._early_pick = (str(project.folder), shown.file)
        if open_newest and self.follow:
            self.call_after_refresh(self._read)  # what is followed in front, on a narrow screen too

    def _project_to_show(self, projects: list[Project], current: Project | None, catch_up: bool) -> Project | None:
        """The `current` project still (unless following catches up with a newer session), else the session's
        opened directly, else that of the newest session."""
        # the same folder (a project's path comes from its sessions, and may change as more are read), or the
        # same path (a project under two roots takes the folder of its newest session)
        keep = None
        if current is not None and not catch_up:
            keep = next((p for p in projects if p.folder == current.folder or p.path == current.path), None)
        return keep or (self._project_of(self.direct) if self.direct else None) or self._newest_shown(projects)

    def _search_again(self) -> None:
        """The search screen, if it is open, searches again: the index has what was written since."""
        from claude_tui.ui.screens.search import SearchScreen

        if isinstance(self.app.screen, SearchScreen):
            self.app.screen.search_again()

    def _newest_shown(self, projects: list[Project]) -> Project | None:
        """The project of the most recently active session the list shows (the first one, if it shows none)."""
        sessions = self.query_one(SessionList)
        shown = [(-s.last_activity, i) for i, p in enumerate(projects) for s in p.sessions if sessions.shows_kind(s)]
        return projects[min(shown)[1]] if shown else (projects[0] if projects else None)

    def _project_of(self, path: Path) -> Project | None:
        file = str(path)
        return next((p for p in self.state.projects if any(s.file == file for s in p.sessions)), None)

    def _info_of(self, path: Path) -> SessionInfo | None:
        file = str(path)
        return next((s for p in self.state.projects for s in p.sessions if s.file == file), None)

    def _show_empty(self, roots: list[Path], notices: list[str]) -> None:
        """The first-run page: where claude-tui looked, and what the look found wrong (a folder one level off)."""
        self.query_one("#empty", Static).update(no_history_page(roots, notices))
        self.add_class("-empty")

    # ---------------------------------------------------------------- choosing

    @on(ProjectTree.ProjectChosen)
    def _project_chosen(self, message: ProjectTree.ProjectChosen) -> None:
        chosen = self.query_one(ProjectTree).chosen
        if message.project is not None and chosen is not None and message.project.path == chosen.path:  # not stale
            self._list_chosen(message.project)

    def _list_chosen(self, project: Project) -> None:
        """The list shows the sessions of the project just chosen, its newest opened, unless it shows them already
        (Enter on the tree listed them before the tree's message came)."""
        if project.path != self._listed:
            self._show_project(project, open_newest=True)

    @on(SessionList.HiddenToggled)
    def _hidden_toggled(self) -> None:
        self.query_one(ProjectTree).set_show_quiet(self.query_one(SessionList).show_hidden)

    def action_open_row(self, pane: str) -> None:
        """Enter in the tree or the list (the binding of each: a message from the pane would come after the keys
        typed next)."""
        target = self.query_one(f"#{pane}")
        assert isinstance(target, ProjectTree | SessionList)
        self.open_row(target)

    def open_row(self, pane: ProjectTree | SessionList) -> None:
        """Open the project or the session under the cursor of `pane`, and move the focus on to the list or the
        conversation now: the keys typed next are for it."""
        if isinstance(pane, SessionList):
            if pane.chosen is not None:
                self._open_now(pane.chosen)
        elif (project := pane.choose_cursor()) is not None:
            self._list_chosen(project)  # now: the keys typed next move in its list
            self.set_focus(self.query_one(SessionList))

    def _list_sessions(self, project: Project, chosen: str | None, keep_places: bool = True) -> SessionList:
        """The list holds the sessions of `project`, and its title says so."""
        sessions = self.query_one(SessionList)
        self._listed = project.path
        sessions.border_title = f"Sessions · {tilde(project.path)}"
        sessions.set_sessions(project.sessions, chosen, keep_places=keep_places)
        return sessions

    def _show_project(self, project: Project, *, open_newest: bool, keep_places: bool = True) -> SessionInfo | None:
        """List the sessions of `project`, and open its newest if asked: that one is returned."""
        session = self.conversation.session
        chosen = None if open_newest or session is None else str(session.path)
        sessions = self._list_sessions(project, chosen, keep_places)
        if open_newest and sessions.shown:
            sessions.move_to(0)  # the same project listed again keeps its cursor: the top row is wanted
            self.call_after_refresh(self._open_if_chosen, sessions.shown[0])  # the list first, then its session
            return sessions.shown[0]
        if open_newest:
            self.info = None
            key = key_display(self.app, SessionList.BINDINGS, "sessions.hidden")
            self.conversation.clear(f"No sessions here ({key} shows empty and warmup ones)")
            self.update_header()
        return None

    def _open_if_chosen(self, info: SessionInfo) -> None:
        """Open `info` unless the list's cursor has left it meanwhile (a key typed at once opens its own)."""
        chosen = self.query_one(SessionList).chosen
        if chosen is not None and chosen.file == info.file:
            self.open_session(info)

    @on(SessionList.SessionChosen)
    def _session_chosen(self, message: SessionList.SessionChosen) -> None:
        if message.open:
            self._open_now(message.info)
            return
        if self._open_timer is not None:
            self._open_timer.stop()
        self._open_timer = self.set_timer(OPEN_DELAY, lambda: self.open_session(message.info))

    def _open_now(self, info: SessionInfo) -> None:
        """Open `info` now (not when the cursor has rested on it), in front and focused."""
        if self._open_timer is not None:
            self._open_timer.stop()
        self.open_session(info)
        self._read()

    def open_session(self, info: SessionInfo) -> None:
        if self.info is not None and self.info.file == info.file and self.conversation.session:
            return
        self.info = info
        self.conversation.open(info.path, at_end=self.follow)
        self.update_header()

    def on_resize(self, event: events.Resize) -> None:
        """From wide to narrow and back: narrow, the pane with the focus is in front; wide, the zoom is the one
        the user had there. (The zoom changes with the breakpoint's class, in one go: between the two, a pane
        hidden for a moment would lose the focus.)"""
        narrow = event.size.width < WIDE_FROM
        if not self.has_class("-narrow" if not narrow else "-wide"):
            return  # no change, or the first size
        reader, conversation = self.query_one("#reader"), self.conversation  # the reader: with the find bar
        in_conversation = self.focused is not None and reader in self.focused.ancestors_with_self
        if narrow:
            self._wide_zoom = self.has_class("-zoomed")
        zoomed = in_conversation if narrow else self._wide_zoom
        self.update_classes({"-narrow": narrow, "-wide": not narrow, "-zoomed": zoomed}, animate=False)
        if zoomed and not in_conversation:
            conversation.focus()

    def _read(self) -> None:
        """The conversation in front (alone on a narrow screen), focused."""
        if self.has_class("-narrow"):
            self.add_class("-zoomed")
        self.set_focus(self.conversation)

    def _clear_filters(self) -> None:
        """No filter on the tree or the list: a jump shows its project and session wherever they are."""
        for box in self.query(FilterInput):
            box.reset()
        self.query_one(ProjectTree).set_filter("")  # now: the Input.Changed above comes after the jump
        self.query_one(SessionList).set_filter("")

    def choose_project(self, project: Project) -> None:
        self._clear_filters()
        project = next((p for p in self.state.projects if p.path == project.path), project)  # as of the last refresh
        self.query_one(ProjectTree).set_projects(self.query_one(ProjectTree).projects, project)
        self._show_project(project, open_newest=True)
        self.action_focus_pane("sessions")  # unzoomed: the list is not hidden

    def choose_session(self, info: SessionInfo) -> None:
        """Show a session chosen by the user, in its project's list; `info` may be from before the last
        refresh of the library (the palette's), which replaced every project and session."""
        self._clear_filters()
        info = self._info_of(Path(info.file)) or info
        project = next((p for p in self.state.projects if any(s is info for s in p.sessions)), None)
        if project is not None:
            self.query_one(ProjectTree).set_projects(self.query_one(ProjectTree).projects, project)
            self._list_sessions(project, info.file)
        self.open_session(info)
        self._read()

    # ---------------------------------------------------------------- the conversation

    @on(ConversationView.Loaded)
    def _loaded(self, message: ConversationView.Loaded) -> None:
        if message.done:
            self.live.header.wake()  # a session written fast would have its facts counted many times a second
        else:
            self.update_header(SessionHeader.progress(message.offset, message.size))
        self.live.loaded(message.session, message.done)
        if (bar := self.find_bar) is not None:
            bar.session_loaded(message.session, message.done)

    @on(ConversationView.FollowChanged)
    def _follow_changed(self) -> None:
        self.live.show_status()
        if self.conversation.follow:  # End, after a new session started while following was paused
            self._follow_successor(self.state.projects)

    def _tell_screens_above(self, message: LibraryLoaded) -> None:
        """The screens over the browser (the usage screen) count again when the history changed or the index was
        brought up to date (a first index finished, ctrl+r)."""
        for screen in self.app.screen_stack:
            if screen is not self:
                screen.post_message(LibraryLoaded(message.projects, message.notices, live=True))

    def _library_changed(self, message: LibraryLoaded) -> None:
        """The watcher saw the history change (shown now): switch to a new session when following."""
        if self.info is not None:
            self.info = self._info_of(self.info.path) or self.info
        if not self._follow_successor(message.projects):
            self.update_header()

    def _follow_successor(self, projects: list[Project]) -> bool:
        """Switch to a session that started in the followed one's project (after /clear, say); paused (the
        user reading above), only say so. Whether it switched."""
        new = self.live.successor(projects, self.info)
        if new is None:
            return False
        project = self._project_of(new.path)
        where = project.name if project is not None else "this project"
        if not self.conversation.follow:
            if new.file != self._told_of:
                self._told_of = new.file
                key = key_display(self.app, ConversationView.BINDINGS, "conversation.last", prefer="end")
                self.notify(f"A new session started in {where}: {key} follows it", title="Following", markup=False)
            return False
        self.query_one(SessionList).set_sessions(self.query_one(SessionList).sessions, new.file)
        self.open_session(new)
        self.notify(f"A new session started in {where}: following it", title="Following", timeout=8, markup=False)
        return True

    def redraw_library(self) -> None:
        """Draw the tree and the list again (their live markers)."""
        tree = self.query_one(ProjectTree)
        tree.set_projects(tree.projects)
        sessions = self.query_one(SessionList)
        sessions.set_sessions(sessions.sessions)

    def action_toggle_follow(self) -> None:
        self.follow = not self.follow
        self.conversation.set_follow_mode(self.follow)
        self.notify("Following the session" if self.follow else "Stopped following", timeout=1.5)

    def update_header(self, status: str = "") -> None:
        view = self.conversation
        self.query_one(SessionFacts).show(self.info)
        title = self.info.title if self.info is not None else ""
        with view.session_lock:
            if view.session is not None:  # a title written since the index read the file
                title = view.session.custom_title or view.session.ai_title or title
            self.query_one(SessionHeader).show(view.session, title, status)

    # ---------------------------------------------------------------- finding

    async def _add_find_bar(self) -> None:
        """The find bar under the conversation, hidden until / opens it: added once the first frame is
        drawn, which needs none of its code."""
        from claude_tui.ui.widgets.findbar import FindBar

        if not self.query(FindBar):
            await self.query_one("#reader").mount(FindBar(self.conversation, id="find-bar"), after=self.conversation)

    @property
    def hit_pending(self) -> bool:
        """A search hit opened waits for its session to be read, to be brought into view."""
        return self._hit is not None

    @property
    def up_to_date(self) -> bool:
        """The projects of the index brought up to date have been shown."""
        return self._up_to_date

    @property
    def find_bar(self) -> FindBar | None:
        """The find bar, once it is mounted."""
        bar = self.query("#find-bar")
        return bar.first() if bar and bar.first().is_mounted else None  # type: ignore[return-value]

    @on(ConversationView.FindRequested)
    async def _find_requested(self, message: ConversationView.FindRequested) -> None:
        await self._add_find_bar()  # n or N pressed before the first frame was drawn
        if (bar := self.find_bar) is None:
            return
        if message.step:
            bar.step(message.step)
        else:
            bar.open()

    async def _open_find_bar_early(self) -> None:
        """/ pressed before the find bar was added: add it, open it, and type what came after the / into it."""
        await self._add_find_bar()
        if (bar := self.find_bar) is not None:
            bar.open()
            bar.input.replace(self._typed_early or "", *bar.input.selection)
        self._typed_early = None

    @on(ConversationView.Filtered)
    async def _filtered(self, message: ConversationView.Filtered) -> None:
        from claude_tui.ui.widgets.findbar import PaneNote

        note = self.query(PaneNote).first() if self.query(PaneNote) else None
        if note is None:
            note = PaneNote(id="pane-note")
            await self.query_one("#reader").mount(note, before=self.conversation)
        note.show(message.pane_filter)

    def open_hit(self, hit: SearchHit) -> None:
        """Open the session of a search hit, with its message in view once it is read."""
        self._hit = hit
        self._way_back = (hit.path, self._to_search_results)
        self._open_file(hit.path)
        self._show_hit()

    def open_at_prompt(self, path: Path, back: list[Screen[Any]]) -> None:
        """Open a session with the cursor on its first prompt once it is read (a session of the usage screen);
        escape on it opens the screens `back` (those it was chosen in)."""
        self._at_prompt = path
        self._way_back = (path, partial(self._reopen, back)) if back else None
        self._open_file(path)
        self._show_prompt()

    def _open_file(self, path: Path) -> None:
        info = self._info_of(path)
        if info is not None:
            self.choose_session(info)
        else:
            self.conversation.open(path)
            self._read()

    @on(ConversationView.Loaded)
    def _show_prompt(self) -> None:
        """The cursor on the first prompt of the session opened at it, once that prompt has its row."""
        path, view = self._at_prompt, self.conversation
        if path is None or view.session is None or Path(view.session.path) != path:
            return
        with view.session_lock:
            prompt = next((m for m in view.session.messages if m.typed), None)
        if (prompt is not None and view.reveal(prompt, highlight=False)) or not view.reading:
            self._at_prompt = None

    @on(ConversationView.Loaded)
    def _show_hit(self) -> None:
        """Bring the search hit's message into view, opening what hides it, when it has been read."""
        hit, view = self._hit, self.conversation
        if hit is None or view.session is None or Path(view.session.path) != hit.path:
            return
        from claude_tui.core.find import locate
        from claude_tui.core.model import QUIET_KINDS
        from claude_tui.ui.screens.search import words_of

        words = words_of(hit)
        pattern = words.pattern if words is not None else None
        with view.session_lock:
            found = locate(view.session, str(hit.file), hit.offset, hit.kind, hit.call_id, pattern)
        if found is None:
            if not view.reading:
                self._hit = None
                self.notify("That message is not in the session any more", timeout=3)
            return
        message, call, block = found
        shown = view.reveal(message, call, block=block)
        if not shown and view.reading:
            return  # read, but its row not made yet (rows come a few hundred a frame): at the next Loaded
        self._hit = None
        if not shown and view.pane_filter is not None:
            view.set_pane_filter(None)
            shown = view.reveal(message, call, block=block)
        if not shown and view.hide_quiet and message.kind in QUIET_KINDS:
            view.hide_quiet = False
            self.notify("Dim rows shown: the message opened is one", timeout=3)
            shown = view.reveal(message, call, block=block)
        entry = view.cursor
        if not shown or entry is None:
            self.notify("That message has no row in the conversation", timeout=4)
            return
        if entry.expandable and entry.key not in view.expanded:
            view.set_expanded(entry, True)
        if words is not None and (bar := self.find_bar) is not None:
            bar.seek(words, " ".join(hit.terms))  # the words highlighted, the cursor on the first (n and N go on)

    @on(ConversationView.OpenRequested)
    def _open_requested(self, message: ConversationView.OpenRequested) -> None:
        bar = self.find_bar
        self._push_detail(message.message, message.call, find=bar.target() if bar is not None else None)

    # ---------------------------------------------------------------- actions

    def action_zoom(self) -> None:
        self.toggle_class("-zoomed")
        if self.has_class("-zoomed"):
            self.set_focus(self.conversation)
        elif self.has_class("-narrow") or self.focused is None:  # the focus was in the pane the unzoom hides
            self.set_focus(self.query_one(SessionList))

    def action_back(self) -> None:
        if (bar := self.find_bar) is not None and bar.active:
            bar.close()  # and, on a search hit's session, back to the results: the bar showed its words
            self._go_back()
            return
        if self._clear_filter_of_focused() or self._go_back():
            return
        if self.has_class("-zoomed"):
            self.remove_class("-zoomed")
            self.set_focus(self.query_one(SessionList))

    def _go_back(self) -> bool:
        """Back to the screen the open session was opened from (search's results, the usage screens), if it was."""
        session = self.conversation.session
        if self._way_back is None or session is None or Path(session.path) != self._way_back[0]:
            return False
        back, self._way_back = self._way_back[1], None
        back()
        return True

    def _reopen(self, screens: list[Screen[Any]]) -> None:
        for screen in screens:
            self.app.push_screen(screen)

    def _to_search_results(self) -> None:
        """The search screen, on its results and query as they were."""
        from claude_tui.ui.screens.search import SearchScreen

        search = self.app.get_screen("search")
        assert isinstance(search, SearchScreen)
        search.back_to_results = True
        self.app.push_screen(search)

    def _clear_filter_of_focused(self) -> bool:
        """Clear the filter of the focused tree or list, if it has one."""
        focused = self.focused
        if not isinstance(focused, ProjectTree | SessionList) or not focused.filter_text:
            return False
        self._filter_box(isinstance(focused, ProjectTree)).action_clear()
        return True

    def action_focus_pane(self, name: str) -> None:
        if name != "conversation" and self.has_class("-zoomed"):
            self.remove_class("-zoomed")
        elif name == "conversation" and self.has_class("-narrow"):
            self.add_class("-zoomed")
        self.set_focus(self.query_one(f"#{name}"))  # now, not later: the keys typed next are the pane's

    def action_filter(self) -> None:
        if self.has_class("-zoomed"):
            self.remove_class("-zoomed")
        self.set_focus(self._filter_box(isinstance(self.focused, ProjectTree)))  # now: the next keys are its

    def _filter_box(self, projects: bool) -> FilterInput:
        """The filter box under the tree or the list, in its pane, made the first time it is needed."""
        name = "projects" if projects else "sessions"
        found = self.query(f"#{name}-filter")
        box = found.first(FilterInput) if found else FilterInput(name, f"/ filter {name}", id=f"{name}-filter")
        if not found:
            self.query_one(f"#{name}-pane").mount(box)
        box.add_class("-active")
        return box

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The actions on the message under the conversation's cursor are off while the tree or the list has
        the focus: there their letters start a filter (`project` filters, rather than showing a plan)."""
        return not (action in MESSAGE_ACTIONS and isinstance(self.focused, ProjectTree | SessionList))

    def on_key(self, event: events.Key) -> None:
        """Type-to-filter: a printable key that nothing bound, typed in the tree or the list; and / in the
        conversation, which opens the find bar. A key taken here goes no further."""
        focused, character = self.focused, event.character
        if not (event.is_printable and character and isinstance(focused, ProjectTree | SessionList)):
            self._typed_name.clear()
        if isinstance(focused, FilterInput) and focused.act_now(event.key):  # sent to a pane before the box had it
            took = True
        elif event.key == "backspace" and isinstance(focused, ProjectTree | SessionList) and focused.filter_text:
            took = self._delete_in_filter(focused)
        elif not event.is_printable or not character:
            took = False
        elif isinstance(focused, Input):  # typed fast, it was sent to a pane before the box took the focus
            focused.replace(character, *focused.selection)  # as the box does: over what is selected
            took = True
        elif isinstance(focused, ConversationView):
            took = self._find_key(focused, character, self.active_bindings.get(event.key))
        elif isinstance(focused, ProjectTree | SessionList):
            took = self._filter_key(focused, character, self.active_bindings.get(event.key))
        else:
            took = False
        if took:
            event.stop()

    def _delete_in_filter(self, pane: ProjectTree | SessionList) -> bool:
        """Backspace in a filtered tree or list: back to editing its filter, a character fewer."""
        box = self._filter_box(isinstance(pane, ProjectTree))
        self.set_focus(box)
        box.action_delete_left()
        return True

    def _find_key(self, view: ConversationView, character: str, bound: ActiveBinding | None) -> bool:
        """A key typed in the conversation: for the find bar while it is on its way; / opens it."""
        if self._typed_early is not None:  # the find bar is on its way: these keys are for it
            self._typed_early += character
            return True
        if bound is None or bound.node is not view or bound.binding.action != "find(0)":
            return False
        if (bar := self.find_bar) is not None:
            bar.open()  # here, not as a binding: that would run after the keys typed next reach us
        else:
            self._typed_early = ""
            self.run_worker(self._open_find_bar_early())
        return True

    def _filter_key(self, pane: ProjectTree | SessionList, character: str, bound: ActiveBinding | None) -> bool:
        """A key typed in the tree or the list: / opens its filter; a printable key that nothing bound starts it,
        with the list's moves typed right before it if they start a name it shows (see typed_name.py)."""
        if bound is not None and bound.node is self and bound.binding.action == "filter":
            self._typed_name.clear()
            self.action_filter()  # here, not as a binding: that would run after the keys typed next reach us
            return True
        if character.isspace() or (bound is not None and bound.enabled):
            if bound is not None and bound.node is pane and bound.binding.action.split("(")[0] in pane.MOVES:
                self._typed_name.moved(pane, character)  # perhaps the first letter of a name
            else:
                self._typed_name.clear()
            return False
        box = self._filter_box(isinstance(pane, ProjectTree))
        self.set_focus(box)  # at once, not after the keys already queued: those are sent to the box
        box.insert_text_at_cursor(self._typed_name.start(pane, character))
        return True

    @on(Input.Changed, "#projects-filter")
    def _project_filter(self, event: Input.Changed) -> None:
        self._set_filter(self.query_one(ProjectTree), event.input)

    @on(Input.Changed, "#sessions-filter")
    def _session_filter(self, event: Input.Changed) -> None:
        self._set_filter(self.query_one(SessionList), event.input)

    def _set_filter(self, pane: ProjectTree | SessionList, box: Input) -> None:
        """Filter `pane` by what `box` holds, without the moves' letters it began with if they hide every row."""
        if (rest := self._typed_name.without_letters(pane, box.value)) is not None:
            box.value, box.cursor_position = rest, len(rest)
        pane.set_filter(box.value)
        if isinstance(pane, SessionList):  # no row chosen: the facts under the list are of none
            self.query_one(SessionFacts).show(self.info if pane.chosen is not None else None)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if isinstance(event.widget, FilterInput) and not event.widget.value:
            event.widget.remove_class("-active")

    def action_copy_resume(self, fork: bool = False) -> None:
        from claude_tui.ui.resume import copy_command

        copy_command(self, fork)

    def action_resume(self, fork: bool = False) -> None:
        from claude_tui.ui.resume import resume

        resume(self, fork)
