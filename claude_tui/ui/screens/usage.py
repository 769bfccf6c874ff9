"""The usage screen (issue 34): cost per day, week or month as bars, the tokens per kind of the period under the
cursor, the running 5-hour block, and the top projects and models with their share. A bar, a project or a model
lists its sessions; Enter on one opens it at its first prompt. The figures are counted again in a worker whenever
the library changes (a result older than the newest asked for is dropped)."""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from claude_tui.core.usage import Tokens, UsageTotal
from claude_tui.core.usage_figures import RECENT, Figures, figures
from claude_tui.core.usage_report import Period, Usage
from claude_tui.ui.bindings import key_display
from claude_tui.ui.messages import LibraryLoaded
from claude_tui.ui.palette import Palette
from claude_tui.ui.widgets.conversation.entries import short_model
from claude_tui.ui.widgets.keybar import KeyBar
from claude_tui.ui.widgets.sessions import title_of
from claude_tui.ui.widgets.usage_chart import SHADES, Bar, BarChart, share_bar, stacked_bar

if TYPE_CHECKING:
    from claude_tui.core.facts import SessionInfo
    from claude_tui.ui.hosts import UsageHost
    from claude_tui.ui.state import AppState

#: What a period of each report is called.
_NOUN = {"daily": "day", "weekly": "week", "monthly": "month"}
#: The token kinds, as the stacked bar and its legend name them.
KINDS = ("input", "output", "cache write", "cache read")


def read_usage(state: AppState) -> Usage:
    """(thread) The usage of the history, from the index as it is, in the clock's time zone: read again for the files
    that changed since the last count."""
    return state.usage.read(state.library.index, state.clock.tz)


def count_figures(state: AppState, before: Figures | None) -> Figures:
    """(thread) The figures now: from those shown `before`, for the sessions that changed since they were counted."""
    usage = read_usage(state)
    change = state.usage.change(before.usage, usage) if before is not None else None
    return figures(usage, state.clock.now(), before, change)


def listed_sessions(state: AppState, paths: list[str]) -> list[SessionInfo | None]:
    """The sessions of these files as the session list has them (None: not listed)."""
    wanted = set(paths)
    infos = {s.file: s for p in state.projects for s in p.sessions if s.file in wanted}
    return [infos.get(path) for path in paths]


class UsageScreen(Screen[None]):
    """Usage over time, with its charts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="usage.close"),
        Binding("d", "report('daily')", "Days", id="usage.daily"),
        Binding("w", "report('weekly')", "Weeks", id="usage.weekly"),
        Binding("m", "report('monthly')", "Months", id="usage.monthly"),
    ]

    DEFAULT_CSS = """
    UsageScreen {
        background: $background;
        & #usage-title {
            height: 1; padding: 0 1 0 2; background: $boost; text-style: bold;
            text-wrap: nowrap; text-overflow: ellipsis;
        }
        & BarChart { height: 3fr; min-height: 6; max-height: 16; margin: 0 1; }
        & #usage-period { height: 3; margin: 0 2; text-wrap: nowrap; text-overflow: ellipsis; }
        & #usage-block { height: auto; max-height: 2; margin: 0 2; }
        & #usage-shares { height: 2fr; min-height: 4; }
        & #usage-shares > OptionList {
            width: 1fr; height: 1fr; border: none; border-top: solid $panel; background: $background; padding: 0 1;
            border-title-color: $text-muted;
        }
        & #usage-shares > OptionList:focus {
            border: none; border-top: solid $primary; border-title-color: $text; background-tint: transparent;
        }
    }
    """

    class Computed(Message):
        def __init__(self, token: int, figures: Figures | None, error: str | None) -> None:
            super().__init__()
            self.token, self.figures, self.error = token, figures, error

    def __init__(self, host: UsageHost) -> None:
        super().__init__()
        self.host = host
        self.report = "daily"
        self.figures: Figures | None = None
        self._token = 0
        self._chosen: str | None = None  #: the name of the period under the cursor (kept as the figures change)
        self._error: str | None = None
        self._counting = False  #: a count is under way
        self._again = False  #: the history changed while it counted

    def compose(self) -> ComposeResult:
        yield Static(id="usage-title")
        yield BarChart(id="usage-chart")
        yield Static(id="usage-period")
        yield Static(id="usage-block")
        with Horizontal(id="usage-shares"):
            yield OptionList(id="usage-projects")
            yield OptionList(id="usage-models")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#usage-projects").border_title = "Top projects, all time"
        self.query_one("#usage-models").border_title = "Top models, all time"
        self.query_one(BarChart).focus()
        self._draw()
        self.recompute()

    # ---------------------------------------------------------------- counting

    def recompute(self) -> None:
        """Count the figures again, in a worker; while one counts, once more when it is done (a burst of changes
        to a big history costs two counts, not one each)."""
        if self._counting:
            self._again = True
            return
        self._counting = True
        self._token += 1
        self._count(self._token)

    @work(thread=True, exclusive=True, group="usage", exit_on_error=False, description="count the usage")
    def _count(self, token: int) -> None:
        try:
            found = count_figures(self.host.state, self.figures)
        except Exception as exc:  # a broken or busy index must not take the screen down
            self.post_message(self.Computed(token, None, f"The usage cannot be read: {exc}"))
            return
        self.post_message(self.Computed(token, found, None))

    def on_usage_screen_computed(self, message: Computed) -> None:
        if message.token != self._token:
            return  # counted before a newer count was asked for
        self._counting = False
        self._error = message.error
        self.figures = message.figures or self.figures
        self._draw()
        if self._again:
            self._again = False
            self.recompute()

    def on_library_loaded(self, message: LibraryLoaded) -> None:
        """The history changed or the index was brought up to date (the browser says so): count again."""
        self.recompute()

    # ---------------------------------------------------------------- drawing

    @property
    def periods(self) -> list[Period]:
        return self.figures.recent[self.report] if self.figures else []

    def _draw(self) -> None:
        periods = self.periods
        names = [p.name for p in periods]
        cursor = names.index(self._chosen) if self._chosen in names else len(periods) - 1
        priced = any(p.total.cost for p in periods)
        bars = [Bar(_value(p, priced), self._label(p.name), _amount(p.total, priced)) for p in periods]
        empty = "" if any(bar.value for bar in bars) else self._empty(len(periods))  # said only when all are 0
        self.query_one(BarChart).show(bars, cursor, self._error or empty)
        total = sum((p.total.cost or 0.0) for p in periods) if priced else sum(p.total.tokens.total for p in periods)
        spent = f"${total:,.2f}" if priced else f"{int(total):,} tokens"
        what = "Cost" if priced else "Tokens"
        title = f"Usage · {what} per {_NOUN[self.report]}, the last {len(periods) or RECENT[self.report]}"
        keys = " · ".join(f"{self._key(r)} {_NOUN[r]}s" for r in RECENT if r != self.report)
        title = f"{title}: {spent} · {keys}" if periods else title
        self.query_one("#usage-title", Static).update(
            Text(f"{title} · {self._error}" if self._error and periods else title, no_wrap=True, overflow="ellipsis")
        )
        self._show_period(cursor)
        self._show_block()
        self._show_shares()

    def _empty(self, count: int) -> str:
        """What an empty chart says: that these periods had no usage, and when the last was (a history of months
        ago opened on the last 30 days: the months show it)."""
        if self.figures is None:
            return "Counting…"
        usage = self.figures.usage
        last = max((spend.quarter for spend in usage.spends if spend.quarter is not None), default=None)
        said = f"No usage in these {count} {_NOUN[self.report]}s"
        if last is None:
            return said
        hint = f": {self._key('monthly')} shows months" if self.report != "monthly" else ""
        day = usage.day_of(last)
        return f"{said} · the last was on {day.day} {day:%b %Y}{hint}"

    def _key(self, report: str) -> str:
        return key_display(self.app, self.BINDINGS, f"usage.{report}")

    def _label(self, name: str) -> str:
        """A period's name under its bar: 21 Apr, W17, Apr."""
        if self.report == "daily":
            return f"{date.fromisoformat(name):%d %b}".lstrip("0")
        if self.report == "weekly":
            return name[5:]
        return f"{date.fromisoformat(name + '-01'):%b}"

    def _full_name(self, name: str) -> str:
        """A period's name in full: Tue 21 Apr 2026, Week of 20 Apr 2026, April 2026."""
        if self.report == "daily":
            return f"{date.fromisoformat(name):%a} {self._label(name)} {name[:4]}"
        if self.report == "weekly":
            start = date.fromisocalendar(int(name[:4]), int(name[6:]), 1)
            return f"Week of {start.day} {start:%b %Y}"
        return f"{date.fromisoformat(name + '-01'):%B %Y}"

    def _show_period(self, cursor: int) -> None:
        """The period under the cursor: its cost, tokens and sessions; its tokens per kind as a bar."""
        box = self.query_one("#usage-period", Static)
        periods = self.periods
        if not periods:
            box.update("")
            return
        period = periods[cursor]
        self._chosen = period.name
        palette = Palette.of(self.app)
        total = period.total
        count = len(period.sessions)
        line = Text.assemble((self._full_name(period.name), palette.bold), f" · {_amount(total, True)}")
        line.append(f" · {total.tokens.total:,} tokens · {count:,} session{'s' if count != 1 else ''}")
        if count:
            line.append(f" · {key_display(self.app, BarChart.BINDINGS, 'usage.chart.choose')} lists them", palette.dim)
        styles = _kind_styles(palette)
        counts = _kinds(total.tokens)
        legend = Text(no_wrap=True, overflow="ellipsis")
        for i, (kind, number, style) in enumerate(zip(KINDS, counts, styles, strict=True)):
            legend.append(f"{SHADES[i]} {kind} ", style).append(f"{number:,}   ")
        legend.rstrip()
        bar = stacked_bar(list(zip(counts, styles, strict=True)), max(1, self.size.width - 4))
        box.update(Text("\n").join([line, bar, legend]))

    def _show_block(self) -> None:
        """The running 5-hour block: how much it used, how fast, when it ends; or when the last one ended."""
        box = self.query_one("#usage-block", Static)
        found = self.figures
        block = found.block if found else None
        palette = Palette.of(self.app)
        clock = self.host.state.clock
        if found is None or block is None:
            box.update(Text("No 5-hour block yet" if found else "", palette.dim))
            return
        burn = block.burn(found.now)
        if burn is None:
            box.update(Text(f"No 5-hour block running: the last ended {clock.day(block.end)} "
                            f"{clock.clock_time(block.end, seconds=False)}", palette.dim))  # fmt: skip
            return
        left = int(burn.minutes_left)
        done = 1 - burn.minutes_left * 60 / (block.end - block.start)
        text = Text.assemble(
            ("5-hour block ", palette.bold),
            f"{clock.clock_time(block.start, seconds=False)}–{clock.clock_time(block.end, seconds=False)} ",
            share_bar(done, 10, palette.accent),
            f" {left // 60}h {left % 60:02d}m left · used {block.total.tokens.total:,} tokens",
            f", {_amount(block.total, True)}" if block.total.cost is not None else "",
            f" · {burn.tokens_per_minute:,.0f} tokens a minute",
            f", ${burn.usd_per_hour:,.2f} an hour" if burn.usd_per_hour is not None else "",
            f" · at this pace {burn.projected_tokens:,} tokens",
            f", ${burn.projected_usd:,.2f}" if burn.projected_usd is not None else "",
            " by its end",
        )
        box.update(text)

    def _show_shares(self) -> None:
        found = self.figures
        for name, shares in (("projects", found.projects if found else []), ("models", found.models if found else [])):
            box = self.query_one(f"#usage-{name}", OptionList)
            width = box.content_region.width or self.size.width // 2 - 4
            if len(shares) > box.content_region.height:  # its scrollbar will take its room (not yet shown)
                width -= box.styles.scrollbar_size_vertical
            highlighted = box.highlighted
            names = [p.name for p, _ in shares]
            names = short_names(names) if name == "projects" else [short_model(n) for n in names]
            rows = [_share_row(n, p, s, width, Palette.of(self.app)) for n, (p, s) in zip(names, shares, strict=True)]
            box.set_options([Option(row) for row in rows])
            if shares:
                box.highlighted = min(highlighted or 0, len(shares) - 1)

    def on_resize(self, event: events.Resize) -> None:
        self._draw()

    # ---------------------------------------------------------------- choosing

    @on(BarChart.Moved)
    def _moved(self, message: BarChart.Moved) -> None:
        self._show_period(message.index)

    @on(BarChart.Chosen)
    def _bar_chosen(self, message: BarChart.Chosen) -> None:
        periods = self.periods
        if 0 <= message.index < len(periods):
            self._list(self._full_name(periods[message.index].name), periods[message.index])

    @on(OptionList.OptionSelected)
    def _share_chosen(self, message: OptionList.OptionSelected) -> None:
        found = self.figures
        if found is None:
            return
        shares = found.projects if message.option_list.id == "usage-projects" else found.models
        if 0 <= message.option_index < len(shares):
            period = shares[message.option_index][0]
            self._list(period.name, period)

    def _list(self, title: str, period: Period) -> None:
        """The sessions of a period, in a screen of their own."""
        if self.figures is None or not period.sessions:
            self.notify(f"No sessions in {title}", timeout=2, markup=False)
            return
        self.app.push_screen(UsageSessions(self.host, title, self.figures.usage.sessions(period)))

    def action_report(self, report: str) -> None:
        if report != self.report:
            self.report, self._chosen = report, None
            self._draw()

    def action_close(self) -> None:
        self.app.pop_screen()

    def again(self) -> UsageScreen:
        """This screen made again, on the same report and period (its figures counted anew)."""
        screen = UsageScreen(self.host)
        screen.report, screen._chosen = self.report, self._chosen
        return screen


class UsageSessions(Screen[None]):
    """The sessions of a day, week, month, project or model, the costliest first; Enter opens one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="usage.sessions.close"),
    ]

    DEFAULT_CSS = """
    UsageSessions {
        background: $background;
        & #usage-sessions-title {
            height: 1; padding: 0 1 0 2; background: $boost; text-style: bold;
            text-wrap: nowrap; text-overflow: ellipsis;
        }
        & OptionList, & OptionList:focus {
            height: 1fr; border: none; background: $background; background-tint: transparent; padding: 0 1;
        }
    }
    """

    def __init__(self, host: UsageHost, title: str, sessions: list[Period], highlighted: int = 0) -> None:
        super().__init__()
        self.host, self.title_text, self.sessions = host, title, sessions
        self._highlighted = highlighted

    def compose(self) -> ComposeResult:
        count = len(self.sessions)
        infos = listed_sessions(self.host.state, [p.session.path if p.session else "" for p in self.sessions])
        pairs = zip(self.sessions, infos, strict=True)
        shared = [info is not None and p.total.tokens.total < info.tokens for p, info in pairs]
        title = f"Sessions of {self.title_text}: {count:,}, the costliest first"
        if any(shared):  # a resumed session's file repeats its parent's messages: each counts once, in the first
            title += " · * some of its messages count in the session they were first in"
        yield Static(Text(title, no_wrap=True, overflow="ellipsis"), id="usage-sessions-title")
        width = max((len(self._when(p)) for p in self.sessions), default=0)
        rows = (self._row(p, i, s, width) for p, i, s in zip(self.sessions, infos, shared, strict=True))
        listed = OptionList(*(Option(row) for row in rows))
        listed.highlighted = min(self._highlighted, count - 1) if count else None
        yield listed
        yield KeyBar()

    def _when(self, period: Period) -> str:
        """When a session last used tokens: its day and time."""
        clock = self.host.state.clock
        return f"{clock.day(period.last)} {clock.clock_time(period.last, seconds=False)}" if period.last else "-"

    def _row(self, period: Period, info: SessionInfo | None, shared: bool, when_width: int) -> Text:
        """A session's cost (marked `shared` when some of its messages count in another session), tokens, when it
        last used them (padded to `when_width`), title and project."""
        palette = Palette.of(self.app)
        ref = period.session
        title = title_of(info) if info is not None else (ref.id if ref else period.name)
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{_amount(period.total, True):>9}", palette.bold).append("*" if shared else " ", palette.bold)
        text.append(f"{period.total.tokens.total:>12,} tokens  ", palette.dim)
        text.append(f"{self._when(period):<{when_width}}  ", palette.dim)
        text.append(title.replace("\n", " "))
        if ref is not None:
            text.append(f" · {_short(ref.project)}", palette.dim)
        text.truncate(max(20, self.app.size.width - 4), overflow="ellipsis")  # a list's row wraps: one line each
        return text

    @on(OptionList.OptionSelected)
    def _chosen(self, message: OptionList.OptionSelected) -> None:
        ref = self.sessions[message.option_index].session
        if ref is not None:  # from the app's queue: this screen's own waits for its handlers, and it is popped
            self.app.call_later(self.host.open_at_prompt, Path(ref.path))

    def action_close(self) -> None:
        self.app.pop_screen()

    def again(self) -> UsageSessions:
        """This screen made again, its cursor on the same row."""
        return UsageSessions(self.host, self.title_text, self.sessions, self.query_one(OptionList).highlighted or 0)


def _value(period: Period, priced: bool) -> float:
    return (period.total.cost or 0.0) if priced else float(period.total.tokens.total)


def _amount(total: UsageTotal, priced: bool) -> str:
    """A cost as shown ("?" when no model used has a price, "+" when some have none); tokens when not `priced`."""
    if not priced:
        return f"{total.tokens.total:,}"
    if total.cost is None:
        return "?" if total.tokens.total else "$0.00"
    return f"${total.cost:,.2f}" + ("+" if total.unpriced_models else "")


def _kinds(tokens: Tokens) -> list[int]:
    return [tokens.input, tokens.output, tokens.cache_creation, tokens.cache_read]


def _kind_styles(palette: Palette) -> list[Style]:
    return [palette.prompt, palette.accent, palette.ok, palette.tool]


def _short(project: str, parts: int = 1) -> str:
    """A project's last folder name; with `parts`, the name `parts` from the end before it (`NOS-v6/…/dl`)."""
    names = project.rstrip("/\\").replace("\\", "/").split("/")
    if parts == 1 or len(names) < parts:
        return names[-1] or project
    return "/".join([names[-parts], *(["…"] if parts > 2 else []), names[-1]])


def short_names(projects: list[str]) -> list[str]:
    """Each project's last folder name, with the one before it that tells it from others of that name (the
    `dl` folders of many a build: `NOS-v6/…/dl`, `edsg4000/…/dl`)."""
    names = [_short(p) for p in projects]
    for parts in range(2, 8):
        counts = Counter(names)
        if all(counts[n] == 1 for n in names):
            break
        names = [_short(p, parts) if counts[n] > 1 else n for p, n in zip(projects, names, strict=True)]
    return names


def _share_row(name: str, period: Period, share: float, width: int, palette: Palette) -> Text:
    """A project or model on one line of `width` cells: its share as a bar and a percentage, its cost, its name (cut
    in its middle when it is too long)."""
    text = share_bar(share, 8, palette.prompt)
    text.no_wrap, text.overflow = True, "ellipsis"
    text.append(f" {share:4.0%}", palette.bold).append(f" {_amount(period.total, True):>7}  ", palette.dim)
    room = max(4, width - text.cell_len)
    tail = name[name.rfind("/") :] if "/" in name else ""
    text.append(name if len(name) <= room else name[: max(1, room - len(tail) - 1)] + "…" + tail)
    return text
