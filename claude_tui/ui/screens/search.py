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
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.geometry import Size
from textual.message import Message as TextualMessage
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Checkbox, Input, Select, Static

from claude_tui.core.find import Query
from claude_tui.core.search import CUT_SHORT, MARK_END, MARK_START, Hits, SearchHit, SearchStopped, left_out_note
from claude_tui.ui.bindings import CURSOR_MOVES, cursor_bindings, key_display
from claude_tui.ui.clock import Clock
from claude_tui.ui.highlight import match_styles
from claude_tui.ui.palette import cursor_row, foreground
from claude_tui.ui.text import one_line, tool_name
from claude_tui.ui.widgets.keybar import KeyBar

if TYPE_CHECKING:
    from claude_tui.ui.hosts import SearchHost

#: Seconds of quiet typing before a search runs (a key after a longer pause searches at once).
DEBOUNCE = 0.15
#: Hits shown at most.
LIMIT = 100
#: Below this width the filters take two rows, so that their hints show whole.
NARROW_FILTERS = 110
#: Who wrote it: a label, and the search filter it stands for.
_ROLES = [
    ("you", ("role", "user")),
    ("Claude", ("role", "assistant")),
    ("thinking", ("kind", "thinking")),  # Claude's: the only one who thinks
    ("tools", ("role", "tool")),
]
#: What the status says before anything is asked.
_INVITATION = "Type to search every session, or set a filter above"
_WORD_END = re.compile(r"[^\W_]{2,}$")
_MARKED = re.compile(f"{MARK_START}(.*?){MARK_END}")


def as_typed(text: str) -> str:
    """The query for what is being typed: its last word, still growing, as a prefix (`conf` finds config)."""
    if text.count('"') % 2 or not _WORD_END.search(text):
        return text
    return text + "*"


def words_of(hit: SearchHit) -> Query | None:
    """What found a hit, as a find query in its session (any case): the query's words and phrases, and
    the forms its snippet marks (`é` where the query has `e`); one of them, or all as alternatives."""
    marked = [m for m in _MARKED.findall(hit.snippet) if m]
    found = sorted({w.lower() for w in (*hit.terms, *marked)}, key=len, reverse=True)
    if not found:
        return None
    if len(found) == 1 and len(found[0].split()) == 1:
        return Query(found[0])
    # a phrase's words may be apart by any whitespace, a line break and indent say, as the index found them
    return Query("|".join(r"\s+".join(map(re.escape, w.split())) for w in found), regex=True)


class HitList(ScrollView, can_focus=True):
    """The hits, two lines each (who and where; the snippet), drawn only when on screen."""

    MOVES = CURSOR_MOVES
    BINDINGS: ClassVar[list[BindingType]] = [
        *cursor_bindings("search.hits"),
        Binding("enter", "open", "Open", id="search.hits.open", key_display="⏎"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {"hit-list--cursor", "hit-list--cursor-blurred", "hit-list--dim"}

    DEFAULT_CSS = """
    HitList {
        overflow-x: hidden;
        scrollbar-size-vertical: 1;
        & > .hit-list--cursor { background: $block-cursor-background; color: $block-cursor-foreground; }
        & > .hit-list--cursor-blurred { background: $block-cursor-blurred-background; }
        & > .hit-list--dim { color: $text-muted; }
    }
    """

    class Chosen(TextualMessage):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class AtEnd(TextualMessage):
        """The cursor went down to the last hit."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[tuple[Text, Text, Text]] = []  #: title, where and who, snippet
        self.cursor = 0
        self._strips: dict[tuple[int, int], Strip] = {}

    def show(self, lines: list[tuple[Text, Text, Text]], cursor: int = 0) -> None:
        """Show these hits (title, where and who, snippet), the cursor on the first (or on `cursor`, where it
        was before more of them came)."""
        self.lines, self.cursor = lines, min(cursor, max(0, len(lines) - 1))
        self._strips.clear()
        self.virtual_size = Size(self.size.width, 2 * len(lines))
        if not cursor:
            self.scroll_to(y=0, animate=False, immediate=True, force=True)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        line = round(self.scroll_offset.y) + y
        index, row = divmod(line, 2)
        base = self.rich_style
        if index >= len(self.lines):
            return Strip.blank(width, base)
        if index == self.cursor:  # drawn each time: its dim facts take the cursor's colour, not the cache's grey
            name = "hit-list--cursor" if self.has_focus else "hit-list--cursor-blurred"
            strip = cursor_row(self, self._draw(index, row, width, Style()), name)
        elif (cached := self._strips.get((line, width))) is None:
            strip = self._strips[line, width] = self._draw(index, row, width, foreground(self, "hit-list--dim"))
        else:
            strip = cached
        return strip.apply_style(base)

    def _draw(self, index: int, row: int, width: int, dim: Style) -> Strip:
        """A hit's first line (its title, and at the right where and who, in `dim`) or its snippet."""
        title, facts, snippet = self.lines[index]
        if row:
            text = snippet.copy()
        else:
            room = max(8, width - facts.cell_len - 2)
            text = title.copy()
            text.truncate(room, overflow="ellipsis", pad=True)
            text.append_text(Text("  ") + facts)
            text.stylize_before(dim, len(text) - len(facts))  # under the facts' own styles: an error's red stays
        text.truncate(width, overflow="ellipsis", pad=True)
        return Strip(list(text.render(self.app.console)), width)

    def action_cursor(self, delta: int) -> None:
        if not self.lines:
            return
        self.cursor = max(0, min(self.cursor + delta, len(self.lines) - 1))
        top, height = round(self.scroll_offset.y), self.scrollable_content_region.height
        if 2 * self.cursor < top:
            self.scroll_to(y=2 * self.cursor, animate=False, immediate=True, force=True)
        elif 2 * self.cursor + 2 > top + height:
            self.scroll_to(y=2 * self.cursor + 2 - height, animate=False, immediate=True, force=True)
        self.refresh()
        if delta > 0 and self.cursor == len(self.lines) - 1:
            self.post_message(self.AtEnd())

    def action_open(self) -> None:
        if self.lines:
            self.post_message(self.Chosen(self.cursor))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = (round(self.scroll_offset.y) + offset.y) // 2
        if index < len(self.lines):
            again = index == self.cursor
            self.cursor = index
            self.refresh()
            if again or event.chain > 1:
                self.action_open()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class SearchScreen(Screen[None]):
    """The query, the filters, and the hits of the index."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="search.close"),
        # before the query box's own ctrl+k (delete to the end of the line): ctrl+k here is the query, all of it
        Binding("ctrl+k", "app.search_all", "Back to the query", show=False, priority=True, id="search.query"),
        Binding("enter", "open", "Open", id="search.open", key_display="⏎"),
        Binding("down", "results", "Results", show=False, id="search.results"),
        Binding("ctrl+o", "errors", "Errors only", id="search.errors"),
        Binding("ctrl+l", "clear", "Clear", id="search.clear"),
    ]

    #: no ClassVar: Textual declares it `ClassVar[...] | None`, which type checkers read as an instance variable
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_FILTERS, "-wide")]  # noqa: RUF012

    DEFAULT_CSS = """
    SearchScreen {
        background: $background;
        & #search-title { height: 1; padding: 0 1 0 2; background: $boost; text-style: bold; }
        & #search-query { margin: 1 2 0 2; }
        & #search-filters { height: 1; margin: 1 2 0 2; }
        & #search-filters > Input { width: 1fr; margin: 0 1 0 0; }
        & #search-filters > Select { width: 16; margin: 0 1 0 0; }
        &.-wide #search-filters > #search-tool { width: 20; }
        &.-wide #search-filters > #search-since { width: 24; }
        & #search-filters > Checkbox { width: auto; }
        & #search-filters > Checkbox > .toggle--button { color: $panel; }  /* off: no X at all */
        & #search-filters > Checkbox.-on > .toggle--button { color: $text-success; }
        &.-narrow #search-filters { layout: grid; grid-size: 3; grid-gutter: 0 1; height: 2; }  /* hints whole */
        &.-narrow #search-filters > * { width: 1fr; margin: 0; }
        & #search-status { height: 1; margin: 1 2 0 2; color: $text-muted; }
        & #search-status.-error { color: $error; }
        & #search-results { height: 1fr; margin: 0 1; background: $background; }
    }
    """

    class Results(TextualMessage):
        def __init__(self, token: int, hits: Hits, error: str | None, cursor: int = 0) -> None:
            super().__init__()
            self.token, self.hits, self.error, self.cursor = token, hits, error, cursor

    def __init__(self, host: SearchHost) -> None:
        super().__init__()
        self.host = host  #: the app: the library searched, and where a hit is shown
        self.hits: list[SearchHit] = []
        self._token = 0
        self._shown = 0  #: the token whose results are on screen
        self._asked: tuple[str, dict[str, Any]] = ("", {})  #: the query and filters of the results shown
        self._limit = LIMIT  #: hits asked for: LIMIT more each time the cursor reaches the last
        self._last = 0.0  #: when the last search started
        self._timer: Any = None
        self._styles = (Style(), Style())
        self.back_to_results = False  #: set when Escape comes back from a hit opened here: resume on the results

    @property
    def pending(self) -> bool:
        """A search waits for the typing to stop (DEBOUNCE)."""
        return self._timer is not None

    @property
    def searching(self) -> bool:
        """A search is under way: the hits shown are those of an earlier query, or of none."""
        return self._shown != self._token

    def compose(self) -> ComposeResult:
        yield Static("Search all sessions", id="search-title")
        yield Input(placeholder='words, "a phrase", prefix*', id="search-query", compact=True)
        with Horizontal(id="search-filters"):
            yield Input(placeholder="project", id="search-project", compact=True)
            yield Select(_ROLES, prompt="any role", id="search-role", compact=True)
            yield Input(placeholder="tool (Bash, Edit…)", id="search-tool", compact=True)
            yield Input(placeholder=f"since (7d, {_week_ago(self.host.state.clock)})", id="search-since", compact=True)
            yield Input(placeholder="until", id="search-until", compact=True)
            yield Checkbox("errors only", id="search-errors", compact=True)
        yield Static(id="search-status")
        yield HitList(id="search-results")
        yield KeyBar()

    def on_mount(self) -> None:
        self._styles = match_styles(self.app)
        self._status(_INVITATION)

    def on_screen_resume(self) -> None:
        if self.back_to_results and self.hits:
            self.query_one(HitList).focus()
        else:
            self.focus_query()
        self.back_to_results = False
        self.search_again()  # what was written meanwhile is found too

    def focus_query(self) -> None:
        """The focus on the query, its text selected (typing replaces it)."""
        query = self.query_one("#search-query", Input)
        query.focus()
        query.select_all()

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
        role = self.query_one("#search-role", Select).value
        filters = {
            "project": self._field("project"),
            **(dict([role]) if isinstance(role, tuple) else {}),
            "tool": self._field("tool"),
            "since": self._field("since"),
            "until": self._field("until"),
            "errors_only": self.query_one("#search-errors", Checkbox).value,
        }
        if not text.strip() and not any(filters.values()):
            self._asked, self._shown = (text, filters), self._token  # nothing asked: nothing to search again
            self._fill([])
            self._status(_INVITATION)
            return
        self._asked, self._limit = (as_typed(text), filters), LIMIT
        self._run(self._token, *self._asked, LIMIT, 0)

    def on_hit_list_at_end(self) -> None:
        """The cursor on the last hit, and there may be more: the next LIMIT of them, the cursor kept."""
        if len(self.hits) < self._limit or self.searching:
            return  # all there is, or a search is under way
        self._limit += LIMIT
        self._rerun()

    def search_again(self) -> None:
        """The search shown, done again (the index has grown since), its cursor kept; not while one is
        under way or the query is being typed."""
        text, filters = self._asked
        if not self.searching and not self.pending and (text.strip() or any(filters.values())):
            self._rerun()

    def _rerun(self) -> None:
        self._token += 1
        self._run(self._token, *self._asked, self._limit, self.query_one(HitList).cursor)

    def _field(self, name: str) -> str | None:
        return self.query_one(f"#search-{name}", Input).value.strip() or None

    @work(thread=True, exclusive=True, group="search", exit_on_error=False, description="search the index")
    def _run(self, token: int, text: str, filters: dict[str, Any], limit: int, cursor: int) -> None:
        try:
            hits = self.host.state.library.search(text, limit=limit, stop=lambda: token != self._token, **filters)
        except SearchStopped:
            return  # a newer search was asked for: its results are those shown
        except ValueError as exc:
            self.post_message(self.Results(token, Hits(), str(exc)))
            return
        except Exception as exc:  # a broken or busy index must not take the screen down
            self.post_message(self.Results(token, Hits(), f"the index cannot be searched: {exc}"))
            return
        self.post_message(self.Results(token, hits, None, cursor))

    def on_search_screen_results(self, message: Results) -> None:
        if message.token != self._token:
            return  # a newer search started since this one
        self._shown = message.token
        if message.error:
            self._fill([])  # what is below the error is not what was asked for
            self._status(message.error, error=True)
            return
        self._fill(message.hits, message.cursor)
        self._status(self._found(message.hits))

    def _found(self, hits: Hits) -> str:
        """What the status says of hits: how many, what of the query was left out, the keys that go on."""
        count = len(hits)
        more = "+" if count >= self._limit else ""
        noun = "message" if count == 1 else "messages"
        parts = [f"{count:,}{more} {noun}, newest first" if count else "Nothing found"]
        if hits.left_out:
            parts.append(left_out_note(hits.left_out))
        if count:
            parts.append(f"{key_display(self.app, self.BINDINGS, 'search.open')} opens one")
        if more:
            down = key_display(self.app, HitList.BINDINGS, "search.hits.down", prefer="↓")
            parts.append(f"{down} on the last shows more")
        if hits.cut_short:
            parts.append(CUT_SHORT)
        return " · ".join(parts)

    def _fill(self, hits: list[SearchHit], cursor: int = 0) -> None:
        self.hits = hits
        self.query_one(HitList).show([self._hit_text(hit) for hit in hits], cursor)

    def _hit_text(self, hit: SearchHit) -> tuple[Text, Text, Text]:
        """The title; the project, when and who; the snippet with its matches marked."""
        clock = self.host.state.clock
        title = Text.assemble((one_line(hit.title or "(untitled)", 200), "bold"))
        project = re.split(r"[\\/]", hit.project.rstrip("/\\"))[-1] or hit.project
        when = f"{clock.ago(hit.timestamp, day=True)} {clock.clock_time(hit.timestamp, seconds=False)}"
        facts = Text(f"{one_line(project, 40)} · {when} · ")  # in the list's dim colour, off the cursor
        facts.append(_who(hit), "bold red" if hit.is_error else "bold")
        body = Text("  ")
        marked = self._styles[1]
        for index, piece in enumerate(re.split(f"[{MARK_START}{MARK_END}]", hit.snippet)):
            body.append(piece, marked if index % 2 else "")
        return title, facts, body

    def _status(self, text: str, *, error: bool = False) -> None:
        status = self.query_one("#search-status", Static)
        status.set_class(error, "-error")
        status.update(Text(text, no_wrap=True, overflow="ellipsis"))

    # ---------------------------------------------------------------- actions

    @on(HitList.Chosen)
    async def _chosen(self, event: HitList.Chosen) -> None:
        event.stop()
        await self._open(event.index)

    @on(Input.Submitted)
    async def action_open(self) -> None:
        if self._timer is not None:  # Enter right after typing: search what was typed first
            self._timer.stop()
            self.search()
            return
        if self.searching:  # the hits shown may be those of less of the query
            return
        await self._open(self.query_one(HitList).cursor)

    async def _open(self, index: int) -> None:
        if 0 <= index < len(self.hits):
            await self.host.open_hit(self.hits[index])

    def action_results(self) -> None:
        """Down from the query: to the results, at once: the Downs typed right behind it (a burst, over SSH) are
        theirs, not the query box's."""
        if self.hits:
            self.set_focus(self.query_one(HitList))

    def action_errors(self) -> None:
        box = self.query_one("#search-errors", Checkbox)
        box.value = not box.value

    def action_clear(self) -> None:
        for box in self.query(Input):
            box.value = ""
        self.query_one("#search-role", Select).clear()
        self.query_one("#search-errors", Checkbox).value = False
        self.focus_query()

    def action_close(self) -> None:
        self.app.pop_screen()


def _week_ago(clock: Clock) -> str:
    """The date a week before today (the hint's example: the same day as "7d")."""
    return clock.date(clock.now() - 7 * 86400)


#: Who wrote a hit's text, by its kind; a tool call's and its output's are named by the tool.
_WHO = {
    "prompt": "you",
    "answer": "Claude",
    "thinking": "thinking",
    "api_error": "API error ✗",
    "summary": "compaction summary",
    "command_output": "command output",
    "recap": "Claude's recap",
    "notification": "task notification",
    "peer": "a peer's message",
}


def _who(hit: SearchHit) -> str:
    """Who wrote the matching text: you, Claude (its thinking, an API error, a compaction's summary, a recap), a
    command's output, or a tool call or its output."""
    if hit.kind in _WHO:
        return _WHO[hit.kind]
    tool = tool_name(hit.tool or "tool", 60)
    what = "call" if hit.kind == "tool_input" else "output"
    return f"{tool} {what}" + (" ✗" if hit.is_error else "")
