"""R: the terminal handed to `claude --resume <id>` in the session's folder, and the app back where it was, following
the session claude wrote. The command and the reasons it cannot run are the core's (core/resume.py)."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from claude_tui.core.resume import Blocker, Target, command_argv, copy_line, of_info, of_session, refusal
from claude_tui.ui.actions import run_in_terminal
from claude_tui.ui.config import tilde
from claude_tui.ui.widgets.sessions import SessionList

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

    from claude_tui.core.facts import SessionInfo
    from claude_tui.ui.live import Live
    from claude_tui.ui.state import AppState
    from claude_tui.ui.widgets.conversation import ConversationView


class ResumeHost(Protocol):
    """What R asks of the main screen: what is chosen and open, the state (the config), following, and Live."""

    state: AppState
    follow: bool
    live: Live

    @property
    def app(self) -> App[Any]: ...

    @property
    def focused(self) -> Widget | None: ...

    @property
    def conversation(self) -> ConversationView: ...

    def open_session(self, info: SessionInfo) -> None: ...


class AskScreen(ModalScreen[bool]):
    """A question answered with y or n (Escape: no)."""

    DEFAULT_CSS = """
    AskScreen { align: center middle; }
    AskScreen > Vertical { width: 90; max-width: 100%; height: auto; border: round $warning; background: $surface;
        padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "dismiss(True)", "Yes", id="ask.yes"),
        Binding("n,escape", "dismiss(False)", "No", id="ask.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.question, style="bold"))
            yield Static(Text("y: yes   n: no", style="dim"))


def target_of(screen: ResumeHost) -> tuple[Target, SessionInfo | None] | None:
    """What R resumes: the session under the list's cursor when the list has the focus (and that session, when it is
    not the one open, to open on coming back), else the conversation's."""
    focused = screen.focused  # the list (the one there is) when it has the focus
    chosen = focused.chosen if isinstance(focused, SessionList) else None
    session = screen.conversation.session
    if chosen is not None and (session is None or chosen.file != session.path):
        return of_info(chosen), chosen
    return (of_session(session), None) if session is not None else None


def copy_command(screen: ResumeHost, fork: bool = False) -> None:
    """Copy the command that resumes (or forks) the session, as a line for a shell."""
    found = target_of(screen)
    if found is not None:
        app = screen.app
        command = copy_line(screen.state.config.resume_command, found[0], fork=fork)
        app.copy_to_clipboard(command)
        app.notify(f"Copied: {command}", timeout=3, markup=False)


def resume(screen: ResumeHost, fork: bool = False) -> None:
    """Resume (or fork) the session in its folder; when it cannot run, say why in one line and change nothing (a
    folder that is gone: ask whether to run in the current folder instead)."""
    found = target_of(screen)
    if found is None:
        return
    target, info = found
    app = screen.app
    refused = refusal(target, screen.state.config.resume_command)
    if refused is None:
        _run(screen, target, target.cwd or os.getcwd(), info, fork)
    elif refused.blocker is Blocker.GONE:
        here = os.getcwd()

        def answered(yes: bool | None) -> None:
            if yes:
                _run(screen, target, here, info, fork)

        app.push_screen(AskScreen(f"{refused.text}. Resume in the current folder {tilde(here)} instead?"), answered)
    else:
        app.notify(refused.text, severity="warning", markup=False)


def _run(screen: ResumeHost, target: Target, cwd: str, info: SessionInfo | None, fork: bool) -> None:
    """Hand the terminal to the command in `cwd`; back, follow what it wrote: the session (opened, if `info`), or the
    one it started (a fork), which the library refreshed now shows."""
    app = screen.app
    argv = command_argv(screen.state.config.resume_command, target.session_id, cwd, fork=fork)
    handed = time.time()
    ran = run_in_terminal(app, argv, cwd)
    if isinstance(ran, Exception):
        app.notify(f"Cannot resume: {ran}", severity="warning", markup=False)
        return
    if ran:  # what it said is gone with its screen: that it failed is said here
        app.notify(f"{argv[0]} exited with status {ran}", severity="warning", timeout=8, markup=False)
    if info is not None:
        screen.open_session(info)
    screen.follow = True
    screen.conversation.set_follow_mode(True)
    screen.live.handed_over(handed)
    screen.live.reads.wake(urgent=True)
    screen.live.refreshes.wake(urgent=True)
