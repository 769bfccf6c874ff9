"""Search all sessions: the full-text index, as you type, newest first.

A search runs in a thread worker after each pause in typing (the first key after a
pause at once, the keys of a burst once it stops), and a result that arrives after a
newer search started is dropped. Enter opens the hit's session in the browser with
the message in view; Escape there comes back here, the query and results kept.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message as TextualMessage
from textual.screen import Screen
from textual.widgets import Checkbox, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from claude_tui.core.search import MARK_END, MARK_START, Hit
from claude_tui.ui.tools import one_line
from claude_tui.ui.widgets.findbar import match_styles
from claude_tui.ui.widgets.keybar import KeyBar

if TYPE_CHECKING:
    from claude_tui.ui.app import ClaudeTUI

#: Seconds of quiet typing before a search runs (a key after a longer pause searches at once).
DEBOUNCE = 0.15
#: Hits shown at most.
LIMIT = 100
#: Hits added to the list per frame.
BATCH = 25
_ROLES = [("you", "user"), ("Claude", "assistant"), ("tools", "tool")]
_WORD_END = re.compile(r"[^\W_]{2,}$")
_MARKED = re.compile(f"{MARK_START}(.*?){MARK_END}")


def as_typed(text: str) -> str:
    """The query for what is being typed: its last word, still growing, as a prefix (`conf` finds config)."""
    if text.count('"') % 2 or not _WORD_END.search(text):
        return text
    return text + "*"


def words_of(hit: Hit) -> re.Pattern[str] | None:
    """The words a hit's snippet marks, as one case-insensitive pattern."""
    marked = sorted({m.lower() for m in _MARKED.findall(hit.snippet) if m}, key=len, reverse=True)
    return re.compile("|".join(re.escape(m) for m in marked), re.I) if marked else None


class SearchScreen(Screen[None]):
    """The query, the filters, and the hits of the index."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="search.close"),
        Binding("enter", "open", "Open", id="search.open", key_display="⏎"),
        Binding("down", "results", "Results", show=False, id="search.results"),
        Binding("ctrl+o", "errors", "Errors only", id="search.errors"),
        Binding("ctrl+l", "clear", "Clear", id="search.clear"),
    ]

    DEFAULT_CSS = """
    SearchScreen {
        background: $background;
        & #search-title { height: 1; padding: 0 1 0 2; background: $boost; text-style: bold; }
        & #search-query { margin: 1 2 0 2; }
        & #search-filters { height: 1; margin: 1 2 0 2; }
        & #search-filters > Input { width: 1fr; margin: 0 1 0 0; }
        & #search-filters > Select { width: 16; margin: 0 1 0 0; }
        & #search-filters > Checkbox { width: auto; }
        & #search-status { height: 1; margin: 1 2 0 2; color: $text-muted; }
        & #search-status.-error { color: $error; }
        & #search-results { height: 1fr; margin: 0 1; border: none; background: $background; }
    }
    """

    class Results(TextualMessage):
        def __init__(self, token: int, hits: list[Hit], error: str | None) -> None:
            super().__init__()
            self.token, self.hits, self.error = token, hits, error

    def __init__(self) -> None:
        super().__init__()
        self.hits: list[Hit] = []
        self._token = 0
        self._shown = 0  #: the token whose results are on screen
        self._last = 0.0  #: when the last search started
        self._timer: Any = None
        self._styles = (Style(), Style())

    def compose(self) -> ComposeResult:
        yield Static("Search all sessions", id="search-title")
        yield Input(placeholder='words, "a phrase", prefix*', id="search-query", compact=True)
        with Horizontal(id="search-filters"):
            yield Input(placeholder="project", id="search-project", compact=True)
            yield Select(_ROLES, prompt="any role", id="search-role", compact=True)
            yield Input(placeholder="tool (Bash, Edit…)", id="search-tool", compact=True)
            yield Input(placeholder="since (2026-01-31, 7d)", id="search-since", compact=True)
            yield Input(placeholder="until", id="search-until", compact=True)
            yield Checkbox("errors only", id="search-errors", compact=True)
        yield Static(id="search-status")
        yield OptionList(id="search-results", compact=True)
        yield KeyBar()

    @property
    def app_(self) -> ClaudeTUI:
        return self.app  # type: ignore[return-value]

    def on_mount(self) -> None:
        self._styles = match_styles(self.app)
        self._status("Type to search every session (the index of the whole history)")

    def on_screen_resume(self) -> None:
        self.query_one("#search-results" if self.hits else "#search-query").focus()

    # ---------------------------------------------------------------- searching

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _changed(self) -> None:
        """Search now after a pause, else once the typing stops."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if time.monotonic() - self._last >= DEBOUNCE:
            self.search()
        else:
            self._timer = self.set_timer(DEBOUNCE, self.search)

    def search(self) -> None:
        """Search for what the query and the filters say (in a worker)."""
        self._timer = None
        self._token += 1
        self._last = time.monotonic()
        text = self.query_one("#search-query", Input).value
        if not text.strip():
            self._shown = self._token
            self._fill([])
            self._status("Type to search every session (the index of the whole history)")
            return
        role = self.query_one("#search-role", Select).value
        filters = {
            "project": self._field("project"),
            "role": role if isinstance(role, str) else None,
            "tool": self._field("tool"),
            "since": self._field("since"),
            "until": self._field("until"),
            "errors_only": self.query_one("#search-errors", Checkbox).value,
        }
        self._run(self._token, as_typed(text), filters)

    def _field(self, name: str) -> str | None:
        return self.query_one(f"#search-{name}", Input).value.strip() or None

    @work(thread=True, exclusive=True, group="search", exit_on_error=False, description="search the index")
    def _run(self, token: int, text: str, filters: dict[str, Any]) -> None:
        try:
            hits = self.app_.library.search(text, limit=LIMIT, **filters)
        except ValueError as exc:
            self.post_message(self.Results(token, [], str(exc)))
            return
        except Exception as exc:  # a broken or busy index must not take the screen down
            self.post_message(self.Results(token, [], f"the index cannot be searched: {exc}"))
            return
        self.post_message(self.Results(token, hits, None))

    def on_search_screen_results(self, message: Results) -> None:
        if message.token < self._shown:
            return  # an older search than the one on screen
        self._shown = message.token
        if message.error:
            self._status(message.error, error=True)
            return
        self._fill(message.hits)
        count = len(message.hits)
        more = "+" if count >= LIMIT else ""
        self._status(f"{count}{more} messages, newest first · ⏎ opens one" if count else "Nothing found")

    def _fill(self, hits: list[Hit]) -> None:
        """Show `hits`: a screenful at once, the rest a batch per frame (laying out one costs half a ms)."""
        self.hits = hits
        results = self.query_one(OptionList)
        results.clear_options()
        self._more(self._shown, 0)
        if hits:
            results.highlighted = 0

    def _more(self, token: int, start: int) -> None:
        if token != self._shown:
            return  # newer results are on screen
        end = start + BATCH
        self.query_one(OptionList).add_options(
            [Option(self._hit_text(hit), id=str(i)) for i, hit in enumerate(self.hits[start:end], start)]
        )
        if end < len(self.hits):
            self.call_after_refresh(self._more, token, end)

    def _hit_text(self, hit: Hit) -> Text:
        """Title · project · when · who, then the snippet with its matches marked."""
        clock = self.app_.clock
        head = Text(no_wrap=True, overflow="ellipsis")
        head.append(one_line(hit.title or "(untitled)", 120), "bold")
        head.append(f"  {one_line(hit.project, 80)}", "dim")
        head.append(f"  {clock.ago(hit.timestamp)} {clock.clock_time(hit.timestamp, seconds=False)}", "dim")
        head.append(f"  {_who(hit)}", "bold red" if hit.is_error else "bold")
        body = Text("  ", no_wrap=True, overflow="ellipsis")
        marked = self._styles[1]
        for index, piece in enumerate(re.split(f"[{MARK_START}{MARK_END}]", hit.snippet)):
            body.append(piece, marked if index % 2 else "")
        return Text("\n", no_wrap=True, overflow="ellipsis").join([head, body])

    def _status(self, text: str, *, error: bool = False) -> None:
        status = self.query_one("#search-status", Static)
        status.set_class(error, "-error")
        status.update(Text(text, no_wrap=True, overflow="ellipsis"))

    # ---------------------------------------------------------------- actions

    @on(OptionList.OptionSelected)
    async def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        await self._open(event.option_index)

    @on(Input.Submitted)
    async def action_open(self) -> None:
        if self._timer is not None:  # Enter right after typing: search what was typed first
            self._timer.stop()
            self.search()
            return
        highlighted = self.query_one(OptionList).highlighted
        await self._open(highlighted if highlighted is not None else 0)

    async def _open(self, index: int) -> None:
        if 0 <= index < len(self.hits):
            await self.app_.open_hit(self.hits[index])

    def action_results(self) -> None:
        if self.hits:
            self.query_one(OptionList).focus()

    def action_errors(self) -> None:
        box = self.query_one("#search-errors", Checkbox)
        box.value = not box.value

    def action_clear(self) -> None:
        for box in self.query(Input):
            box.value = ""
        self.query_one("#search-role", Select).clear()
        self.query_one("#search-errors", Checkbox).value = False
        self.query_one("#search-query").focus()

    def action_close(self) -> None:
        self.app.pop_screen()


def _who(hit: Hit) -> str:
    """Who wrote the matching text: you, Claude (or its thinking), or a tool call or its output."""
    if hit.kind == "prompt":
        return "you"
    if hit.kind == "answer":
        return "Claude"
    if hit.kind == "thinking":
        return "thinking"
    tool = one_line(hit.tool or "tool", 40)
    what = "call" if hit.kind == "tool_input" else "output"
    return f"{tool} {what}" + (" ✗" if hit.is_error else "")
