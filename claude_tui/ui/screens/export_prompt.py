"""Where an export goes: a path to confirm or edit before anything is written."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from claude_tui.core.files import is_under

HINT = "Enter: write   Esc: cancel"


class ExportPrompt(ModalScreen[Path | None]):
    """The export's path, prefilled. Enter writes there (a second Enter to replace a file that exists);
    a path under a projects folder is refused; Escape writes nothing."""

    DEFAULT_CSS = """
    ExportPrompt {
        align: center middle;
        background: $background 60%;
        & #export-box {
            width: 90; max-width: 100%; height: auto; border: round $primary; background: $surface; padding: 0 1;
        }
        & #export-path { margin: 1 0; }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel", id="export.cancel")]

    def __init__(self, title: str, default: Path, roots: list[Path]) -> None:
        super().__init__()
        self.title_text, self.default, self.roots = title, default, roots
        self._replace: Path | None = None  #: a file that exists, which a second Enter replaces

    def compose(self) -> ComposeResult:
        with Vertical(id="export-box"):
            yield Static(Text(self.title_text, style="bold"), id="export-title")
            yield Input(str(self.default), id="export-path", select_on_focus=False)
            yield Static(Text(HINT, style="dim"), id="export-hint")

    @on(Input.Changed)
    def _edited(self) -> None:
        self._replace = None
        self._hint(HINT, "dim")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            self._hint("Name a file to write", "bold red")
            return
        path = Path(text).expanduser().absolute()
        if is_under(path, self.roots):
            self._hint("claude-tui never writes under a projects folder: choose another place", "bold red")
        elif path.is_dir():
            self._hint("That is a folder: name a file in it", "bold red")
        elif path.exists() and path != self._replace:
            self._replace = path
            self._hint("That file exists: Enter again to replace it", "bold yellow")
        else:
            self.dismiss(path)

    def _hint(self, text: str, style: str) -> None:
        self.query_one("#export-hint", Static).update(Text(text, style=style))
