"""Rich styles for drawn lines, derived from the current Textual theme.

Line-API widgets draw Rich segments themselves, so they cannot use CSS for each
span; they take their colours from here, rebuilt when the theme changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.strip import Strip

if TYPE_CHECKING:
    from textual.widget import Widget


@dataclass(frozen=True)
class Palette:
    """Every style the conversation pane and the renderers use."""

    text: Style
    dim: Style
    faint: Style
    bold: Style
    prompt: Style  #: the user's role label and bar
    assistant: Style
    accent: Style
    ok: Style
    error: Style
    running: Style
    warning: Style
    tool: Style
    heading: Style
    inline_code: Style
    code_bg: Style
    add: Style
    remove: Style
    add_word: Style
    remove_word: Style
    cursor: Style  #: background of the selected entry
    cursor_mark: Style
    match: Style  #: background of a highlighted (found) message
    divider: Style
    pygments_theme: str

    @classmethod
    def from_variables(cls, v: dict[str, str], dark: bool) -> Palette:
        """Build from `App.get_css_variables()`."""
        background = _color(v, "background", "#000000" if dark else "#ffffff")
        surface = _color(v, "surface", background.hex)

        def c(name: str, fallback: str, alpha: float | None = None) -> str:
            color = _color(v, name, fallback)
            if alpha is not None:
                color = color.with_alpha(alpha)
            return (background + color).hex

        fg = c("foreground", "#e0e0e0" if dark else "#202020")
        primary, secondary = c("primary", "#0178d4"), c("secondary", "#004578")
        accent, success = c("accent", "#fea62b"), c("success", "#4ebf71")
        error, warning = c("error", "#ba3c5b"), c("warning", "#ffa62b")
        muted = c("foreground", fg, 0.6)
        faint = c("foreground", fg, 0.38)
        code_bg = (surface + Color.parse(fg).with_alpha(0.04)).hex
        tint = 0.16 if dark else 0.13
        return cls(
            text=Style(color=fg),
            dim=Style(color=muted),
            faint=Style(color=faint),
            bold=Style(color=fg, bold=True),
            prompt=Style(color=c("primary-lighten-2", primary) if dark else primary, bold=True),
            assistant=Style(color=accent, bold=True),
            accent=Style(color=accent),
            ok=Style(color=success),
            error=Style(color=c("error-lighten-2", error) if dark else error),
            running=Style(color=warning),
            warning=Style(color=warning),
            tool=Style(color=c("secondary-lighten-2", secondary) if dark else secondary, bold=True),
            heading=Style(color=c("primary-lighten-2", primary) if dark else primary, bold=True),
            inline_code=Style(
                color=c("accent-lighten-2", accent) if dark else c("accent-darken-2", accent), bgcolor=code_bg
            ),
            code_bg=Style(bgcolor=code_bg),
            add=Style(bgcolor=(background + Color.parse(success).with_alpha(tint)).hex),
            remove=Style(bgcolor=(background + Color.parse(error).with_alpha(tint)).hex),
            add_word=Style(color=success, bold=True),
            remove_word=Style(color=error, bold=True),
            cursor=Style(bgcolor=(background + Color.parse(primary).with_alpha(0.18)).hex),
            cursor_mark=Style(color=c("primary-lighten-2", primary) if dark else primary, bold=True),
            match=Style(bgcolor=(background + Color.parse(warning).with_alpha(0.22)).hex),
            divider=Style(color=c("secondary-lighten-1", secondary) if dark else secondary),
            pygments_theme="monokai" if dark else "friendly",
        )

    def on_cursor(self, strip: Strip) -> Strip:
        """`strip` on the cursor's background, its dim and faint text in the text colour: grey on the cursor's
        tint is hard to read (1.7:1 in textual-light)."""
        grey, lift = {self.dim.color, self.faint.color}, Style(color=self.text.color)
        lifted = [
            Segment(s.text, s.style + lift, s.control) if s.style is not None and s.style.color in grey else s
            for s in strip
        ]
        return Strip(lifted, strip.cell_length).apply_style(self.cursor)


def foreground(widget: Widget, component: str) -> Style:
    """A component class's colour and text style, without its background (rows lie on the cursor's)."""
    style = widget.get_component_rich_style(component)
    return Style(color=style.color, bold=style.bold, italic=style.italic)


def _color(variables: dict[str, str], name: str, fallback: str) -> Color:
    try:
        return Color.parse(variables.get(name) or fallback)
    except Exception:  # "auto 87%" and friends: not a colour we can draw with
        return Color.parse(fallback)
