"""The main screen's actions on what is under the conversation's cursor: copy it (y), its raw JSON (r), its plan
(p), the pager (o), the export of the session (x, X); the detail screen.

The bindings are the main screen's (their ids `app.*`); these are the actions they run, and their thread workers.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.screen import Screen

from claude_tui.ui.bindings import key_display
from claude_tui.ui.clock import Clock
from claude_tui.ui.state import AppState
from claude_tui.ui.widgets.conversation import ConversationView

if TYPE_CHECKING:
    from threading import RLock

    from claude_tui.core.find import Query
    from claude_tui.core.model import Message, ToolCall
    from claude_tui.ui.widgets.conversation.entries import Entry

#: Characters of a copy (OSC 52: base64 in one escape sequence) beyond which terminals and tmux may drop it.
BIG_COPY = 1_000_000
#: Actions on the message under the conversation's cursor (see MainScreen.check_action).
MESSAGE_ACTIONS = frozenset({"copy_message", "raw", "plan", "pager"})


class MessageActions(Screen[None]):
    """Actions on the message under the conversation's cursor (the main screen's base)."""

    state: AppState
    clock: Clock

    @property
    def conversation(self) -> ConversationView:
        return self.query_one(ConversationView)

    def _push_detail(
        self,
        message: Message,
        call: Any = None,
        mode: str = "content",
        plan: Path | None = None,
        find: tuple[Query, int] | None = None,
    ) -> None:
        from claude_tui.ui.screens.detail import DetailScreen, Subject

        session = self.conversation.session
        if session is None:
            return
        subject = Subject(session, message, call, mode, str(plan) if plan else None, find)
        self.app.push_screen(DetailScreen(subject, self.clock))

    def _cursor_entry(self) -> Entry | None:
        entry = self.conversation.cursor
        if entry is None:
            self.notify("Select a message first", timeout=2)
        return entry

    def _with_cursor_text(self, then: Callable[[str, str], None]) -> None:
        """Hand `then` what is under the cursor, for the clipboard and the pager, and what it is: a tool call's
        whole output (as the detail view copies it), else the message."""
        from claude_tui.ui.render import message_text

        entry = self._cursor_entry()
        session = self.conversation.session
        if entry is None:
            return
        call = entry.call
        if call is not None and call.result is not None and session is not None:
            self._read_output(session.path, call, then)
        else:
            then(message_text(entry.message), "the message")

    @work(thread=True, group="cursor-text", exit_on_error=False)
    def _read_output(self, path: str, call: ToolCall, then: Callable[[str, str], None]) -> None:
        """Read a tool call's whole output from the file (30 MB of one line, maybe) and hand it to `then`."""
        from claude_tui.core.source import full_output
        from claude_tui.ui.text import tool_name

        text = full_output(path, call)
        self.app.call_from_thread(then, text, f"the {tool_name(call.name, 60)} output")

    def action_copy_message(self) -> None:
        def copy(text: str, what: str) -> None:
            self.app.copy_to_clipboard(text)
            if len(text) > BIG_COPY:  # the copy is an escape sequence to the terminal, which may drop one this long
                pager = key_display(self.app, self.BINDINGS, "app.pager")
                big = f"Copied {what} ({len(text):,} characters): a terminal may refuse one this big; {pager} pages it"
                self.notify(big, severity="warning", timeout=6, markup=False)
            else:
                self.notify(f"Copied {what} ({len(text):,} characters)", timeout=2, markup=False)

        self._with_cursor_text(copy)

    def action_raw(self) -> None:
        entry = self._cursor_entry()
        if entry is not None:
            self._push_detail(entry.message, entry.call, "raw")

    def action_plan(self) -> None:
        from claude_tui.core.files import plan_file

        entry = self._cursor_entry()
        session = self.conversation.session
        if entry is None or session is None:
            return
        message = entry.message
        slug = message.slug or next(reversed(session.slugs), None)
        path = plan_file(slug, Path(session.path)) if slug else None
        if path is None:
            self.notify(
                f"No plan file for {slug}" if slug else "No plan file for this message", timeout=2, markup=False
            )
            return
        if message.slug is None:
            message = next((m for m in session.messages if m.slug == slug), message)
        self._push_detail(message, None, "plan", path)

    def action_pager(self) -> None:
        from claude_tui.ui import actions

        self._with_cursor_text(lambda text, _: actions.open_in_pager(self.app, text))

    def action_export(self, fmt: str) -> None:
        from claude_tui.core.files import protected_folders
        from claude_tui.ui import actions
        from claude_tui.ui.screens.export_prompt import ExportPrompt

        session = self.conversation.session
        if session is None:
            return

        title = f"Export this session as {'HTML' if fmt == 'html' else 'Markdown'} to"
        protected = protected_folders(self.state.roots, Path(session.path))
        prompt = ExportPrompt(title, actions.export_path(session, fmt), protected)

        def write(target: Path | None) -> None:
            if target is not None:
                self._export(session, self.conversation.session_lock, fmt, target)

        self.app.push_screen(prompt, write)

    @work(thread=True, group="export", exit_on_error=False)
    def _export(self, session: Any, lock: RLock, fmt: str, target: Path) -> None:
        """Write `session` as `fmt` to `target`; `lock` (the view's) keeps the live reader out while a message is
        read, and lets it (and the screen, which draws under it) in between two."""
        from claude_tui.core.export import export_session
        from claude_tui.writing import write_export

        try:
            write_export(target, export_session(session, fmt, lock=lock))
        except OSError as exc:
            self.app.notify(f"Cannot write {target}: {exc.strerror or exc}", severity="error", markup=False)
            return
        except Exception as exc:  # a worker's failure is otherwise silent: the user waits for a file
            self.app.notify(f"The export failed: {exc!r}", severity="error", markup=False)
            return
        self.app.notify(f"Exported to {target}", timeout=4, markup=False)
