"""Rich styles for drawn lines, derived from the current Textual theme.

Line-API widgets draw Rich segments themselves, so they cannot use CSS for each
span; they take their colours from here, rebuilt when the theme changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.strip import Strip

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

#: Colours Rich sends to a terminal of 16 colours as themselves: its standard palette's (VGA) values, which the
#: nearest-colour match maps to their own number. Any other colour lands on whichever of the 16 is nearest.
ANSI = {
    "black": "#000000",
    "red": "#AA0000",
    "green": "#00AA00",
    "yellow": "#AA5500",
    "blue": "#0000AA",
    "cyan": "#00AAAA",
    "white": "#AAAAAA",
    "bright_black": "#555555",
    "bright_red": "#FF5555",
    "bright_green": "#55FF55",
    "bright_yellow": "#FFFF55",
    "bright_cyan": "#55FFFF",
    "bright_white": "#FFFFFF",
}

#: With 16 colours, each role's colour for a dark theme and for a light one. Never bright black on a dark background (an
#: 8-colour terminal draws it as black), and the cursor's black on cyan whatever the theme: the nearest of 16 made
#: textual-dark's white on cyan (2.9:1), and tokyo-night's success, warning and error all the same grey.
FEW: dict[str, tuple[str, str]] = {
    "background": ("black", "bright_white"),  #: not the grey that many a dark theme's comes out as (nord, dracula)
    "text": ("bright_white", "black"),
    "dim": ("white", "bright_black"),
    "prompt": ("bright_cyan", "blue"),
    "tool": ("cyan", "blue"),
    "accent": ("yellow", "yellow"),
    "success": ("bright_green", "green"),
    "warning": ("bright_yellow", "yellow"),
    "error": ("bright_red", "red"),
    "divider": ("blue", "blue"),
    "cursor": ("cyan", "cyan"),
    "cursor-text": ("black", "black"),
    "blurred": ("blue", "white"),  #: the cursor of a pane without the focus, under the text colour
    "match": ("blue", "white"),  #: a found message's background
    "found": ("yellow", "yellow"),  #: found words' background, under black text
    "found-here": ("bright_yellow", "bright_yellow"),  #: the current one's
}


def few_colors(app: App[Any]) -> bool:
    """Whether the terminal gets 16 colours or fewer (TERM=screen, xterm or linux and no COLORTERM)."""
    return app.console.color_system in ("standard", "windows")


def ansi(role: str, dark: bool) -> str:
    """The colour of `role` (a key of FEW) with 16 colours."""
    return ANSI[FEW[role][0 if dark else 1]]


def few_color_variables(dark: bool) -> dict[str, str]:
    """The theme variables that carry a meaning, in colours that stay themselves with 16 colours."""
    variables = {
        "background": ansi("background", dark),
        "block-cursor-background": ansi("cursor", dark),
        "block-cursor-foreground": ansi("cursor-text", dark),
        "block-cursor-blurred-background": ansi("blurred", dark),
        "block-cursor-blurred-foreground": ansi("text", dark),
        "text-muted": ansi("dim", dark),
    }
    for name in ("success", "warning", "error"):
        variables[name] = variables[f"text-{name}"] = ansi(name, dark)
    return variables


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
    cursor: Style  #: background of the selected entry (with a colour: every cell of the entry in both, see on_cursor)
    cursor_mark: Style
    match: Style  #: background of a highlighted (found) message
    divider: Style
    pygments_theme: str

    @classmethod
    def of(cls, app: App[object]) -> Palette:
        """The palette for `app`'s theme and terminal."""
        dark = app.current_theme.dark
        return cls.few_colors(dark) if few_colors(app) else cls.from_variables(app.get_css_variables(), dark)

    @classmethod
    def few_colors(cls, dark: bool) -> Palette:
        """For a terminal of 16 colours, whatever the theme: tints (a diff's lines, code's background) are left out."""

        def fg(role: str, bold: bool | None = None) -> Style:
            return Style(color=ansi(role, dark), bold=bold)

        return cls(
            text=fg("text"),
            dim=fg("dim"),
            faint=fg("dim"),
            bold=fg("text", bold=True),
            prompt=fg("prompt", bold=True),
            assistant=fg("accent", bold=True),
            accent=fg("accent"),
            ok=fg("success"),
            error=fg("error"),
            running=fg("warning"),
            warning=fg("warning"),
            tool=fg("tool", bold=True),
            heading=fg("prompt", bold=True),
            inline_code=fg("accent"),
            code_bg=Style(),
            add=Style(),
            remove=Style(),
            add_word=fg("success", bold=True),
            remove_word=fg("error", bold=True),
            cursor=Style(color=ansi("cursor-text", dark), bgcolor=ansi("cursor", dark)),
            cursor_mark=fg("cursor", bold=True),
            match=Style(bgcolor=ansi("match", dark)),
            divider=fg("divider"),
            pygments_theme="monokai" if dark else "friendly",
        )

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

        def ink(name: str, fallback: str, alpha: float | None = None, ratio: float = TEXT_CONTRAST) -> str:
            """A colour for text: the theme's, made to stand out from the background (readable)."""
            return readable(c(name, fallback, alpha), background, ratio)

        fg = ink("foreground", "#e0e0e0" if dark else "#202020")
        primary, secondary = ink("primary", "#0178d4"), ink("secondary", "#004578")
        accent, success = ink("accent", "#fea62b"), ink("success", "#4ebf71")
        error, warning = ink("error", "#ba3c5b"), ink("warning", "#ffa62b")
        muted = ink("foreground", fg, 0.6)
        faint = ink("foreground", fg, 0.38, FAINT_CONTRAST)
        code_bg = (surface + Color.parse(fg).with_alpha(0.04)).hex
        tint = 0.16 if dark else 0.13
        return cls(
            text=Style(color=fg),
            dim=Style(color=muted),
            faint=Style(color=faint),
            bold=Style(color=fg, bold=True),
            prompt=Style(color=ink("primary-lighten-2", primary) if dark else primary, bold=True),
            assistant=Style(color=accent, bold=True),
            accent=Style(color=accent),
            ok=Style(color=success),
            error=Style(color=ink("error-lighten-2", error) if dark else error),
            running=Style(color=warning),
            warning=Style(color=warning),
            tool=Style(color=ink("secondary-lighten-2", secondary) if dark else secondary, bold=True),
            heading=Style(color=ink("primary-lighten-2", primary) if dark else primary, bold=True),
            inline_code=Style(
                color=ink("accent-lighten-2", accent) if dark else ink("accent-darken-2", accent), bgcolor=code_bg
            ),
            code_bg=Style(bgcolor=code_bg),
            add=Style(bgcolor=(background + Color.parse(success).with_alpha(tint)).hex),
            remove=Style(bgcolor=(background + Color.parse(error).with_alpha(tint)).hex),
            add_word=Style(color=success, bold=True),
            remove_word=Style(color=error, bold=True),
            cursor=Style(bgcolor=(background + Color.parse(primary).with_alpha(0.18)).hex),
            cursor_mark=Style(color=ink("primary-lighten-2", primary) if dark else primary, bold=True),
            match=Style(bgcolor=(background + Color.parse(warning).with_alpha(0.22)).hex),
            divider=Style(color=c("secondary-lighten-1", secondary) if dark else secondary),
            pygments_theme="monokai" if dark else "friendly",
        )

    def on_cursor(self, strip: Strip) -> Strip:
        """`strip` on the cursor's background, its dim and faint text in the text colour: grey on the cursor's
        tint is hard to read (1.7:1 in textual-light). A cursor with a colour of its own (16 colours) paints every
        cell in its two colours."""
        if self.cursor.color is not None:
            return over(strip, self.cursor)
        grey, lift = {self.dim.color, self.faint.color}, Style(color=self.text.color)
        lifted = [
            Segment(s.text, s.style + lift, s.control) if s.style is not None and s.style.color in grey else s
            for s in strip
        ]
        return Strip(lifted, strip.cell_length).apply_style(self.cursor)


#: The contrast (WCAG's ratio) text keeps against the background whatever the theme, and faint text (times, labels):
#: textual-light's accent and success, as the theme has them, are 1.5:1 and 1.8:1 on its background.
TEXT_CONTRAST, FAINT_CONTRAST = 4.5, 3.0


def readable(color: str, background: Color, ratio: float) -> str:
    """`color`, darkened on a light background (lightened on a dark one) until it stands `ratio`:1 from it."""
    shade, lighten = Color.parse(color), background.brightness < 0.5
    for _ in range(20):
        if contrast(shade, background) >= ratio:
            break
        shade = shade.lighten(0.04) if lighten else shade.darken(0.04)
    return shade.hex


def contrast(a: Color, b: Color) -> float:
    """WCAG's contrast ratio of two colours, from 1 to 21."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _luminance(color: Color) -> float:
    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    r, g, b = color.rgb
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def over(strip: Strip, style: Style) -> Strip:
    """`strip` with `style` over each cell's own (where `Strip.apply_style` puts it under them), but for the cells
    with a background of their own (a found word, black on yellow): they keep their colours."""
    painted = [
        s
        if s.style is not None and s.style.bgcolor is not None
        else Segment(s.text, (s.style or Style()) + style, s.control)
        for s in strip
    ]
    return Strip(painted, strip.cell_length)


def cursor_row(widget: Widget, strip: Strip, component: str) -> Strip:
    """A list's row under its cursor, in the cursor `component`'s colours: under the cells' own, or with 16 colours
    over them all (a dim cell, a green ●: the few backgrounds there are leave no colour readable on them all)."""
    style = widget.get_component_rich_style(component)
    return over(strip, style) if few_colors(widget.app) else strip.apply_style(style)


def foreground(widget: Widget, component: str) -> Style:
    """A component class's colour and text style, without its background (rows lie on the cursor's)."""
    style = widget.get_component_rich_style(component)
    return Style(color=style.color, bold=style.bold, italic=style.italic)


def _color(variables: dict[str, str], name: str, fallback: str) -> Color:
    try:
        return Color.parse(variables.get(name) or fallback)
    except Exception:  # "auto 87%" and friends: not a colour we can draw with
        return Color.parse(fallback)
