"""The help screen: every binding, its keys (as remapped) and its id for the config file."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Static

from claude_tui.ui.bindings import keymap_of, shown_keys
from claude_tui.ui.config import config_path, tilde
from claude_tui.ui.first_steps import first_steps

#: Narrower than this, a binding's id goes under its description (beside it, the description had no room).
IDS_BESIDE = 72


class BindingTable:
    """The bindings of one place as a table of keys, description and id, laid out for the width it gets."""

    def __init__(
        self, title: str, owner: type[DOMNode], keymap: dict[str, str], display: Callable[[Binding], str]
    ) -> None:
        self.title = title
        self.rows = [
            ("  ".join(shown_keys(b, keymap, display)), b.description, b.id)
            for b in owner.BINDINGS
            if isinstance(b, Binding) and b.id
        ]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        beside = options.max_width >= IDS_BESIDE
        table = Table(
            title=self.title, title_justify="left", title_style="bold", box=None, expand=True, padding=(0, 1),
            show_header=False,
        )  # fmt: skip
        table.add_column("keys", style="bold", width=14, no_wrap=True)
        table.add_column("action", ratio=1)
        if beside:
            table.add_column("id", style="dim", no_wrap=True, width=34)
        for keys, description, id_ in self.rows:
            if beside:
                table.add_row(keys, description, id_)
            else:
                table.add_row(keys, Text.assemble(description, "\n", (id_, "dim")))
        yield table


class HelpScreen(ModalScreen[None]):
    """Keys, grouped by where they work."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        background: $background 60%;
        & #help-box {
            width: 96; max-width: 100%; height: 90%; border: round $primary; background: $surface; padding: 0 1;
        }
        & #help-title { margin: 0 0 1 0; }
        & .help-section, & #help-first-steps { margin: 0 0 1 0; }
        & #help-note { margin: 1 0; }
    }
    """

    MOVES = frozenset({"scroll", "page"})  #: its scrolls, which change neither the focus nor the screen (keygate.py)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close", id="help.close"),
        Binding("j", "scroll(1)", "Down", show=False, id="help.down"),
        Binding("k", "scroll(-1)", "Up", show=False, id="help.up"),
        Binding("ctrl+d", "page(0.5)", "Half a page down", show=False, id="help.half_down"),
        Binding("ctrl+u", "page(-0.5)", "Half a page up", show=False, id="help.half_up"),
    ]

    def __init__(self, sections: list[tuple[str, type[DOMNode]]]) -> None:
        super().__init__()
        self.sections = sections

    def action_scroll(self, lines: int) -> None:
        # now, not after the next refresh: keys typed fast would each start from where the first one did
        self.query_one("#help-box").scroll_relative(y=lines, animate=False, immediate=True)

    def action_page(self, pages: float) -> None:
        """A part of a page (as the conversation's ctrl+d and ctrl+u)."""
        box = self.query_one("#help-box")
        box.scroll_relative(y=round(pages * box.size.height), animate=False, immediate=True)

    def _first_steps(self, keymap: dict[str, str], display: Callable[[Binding], str]) -> Table:
        """The five things a newcomer does first, with the keys as remapped."""
        bindings = {b.id: b for _, owner in self.sections for b in owner.BINDINGS if isinstance(b, Binding)}
        table = Table(
            title="First steps", title_justify="left", title_style="bold", box=None, expand=True, padding=(0, 1),
            show_header=False,
        )  # fmt: skip
        table.add_column("what", style="bold", width=14, no_wrap=True)
        table.add_column("how", ratio=1)
        for what, how in first_steps(lambda id_: shown_keys(bindings[id_], keymap, display)[0]):
            table.add_row(what, how)
        return table

    def compose(self) -> ComposeResult:
        keymap = keymap_of(self.app)
        display = self.app.get_key_display
        with VerticalScroll(id="help-box"):
            yield Static(Text("claude-tui · keys", style="bold"), id="help-title")
            yield Static(self._first_steps(keymap, display), id="help-first-steps")
            for title, owner in self.sections:
                yield Static(BindingTable(title, owner, keymap, display), classes="help-section")
            note = Text.assemble(
                ("Remap any key by its id in ", "dim"),
                (tilde(config_path()), "bold"),
                ("  ([keys] table), e.g.\n", "dim"),
                ('  "conversation.next_prompt" = "],J"\n', ""),
                ("ctrl+p opens the command palette: every action, every project and session by name.", "dim"),
            )
            yield Static(note, id="help-note")
