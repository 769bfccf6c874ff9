"""Matches on drawn lines: where a query matches on a Strip (in cells), the Strip with them highlighted, and the
theme's styles for them (the find bar, the detail view and the search screen share them)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.color import Color
from textual.strip import Strip

from claude_tui.core.find import Query
from claude_tui.ui.palette import ANSI, TEXT_CONTRAST, ansi, few_colors, readable

#: Matches highlighted on one drawn line at most.
LINE_MATCHES = 40


def match_cells(strip: Strip, query: Query) -> list[tuple[int, int]]:
    """Where `query` matches on a drawn line, in cells."""
    text = strip.text
    spans = query.spans(text, LINE_MATCHES)
    if not spans or len(text) == strip.cell_length:
        return spans
    return [(cell_len(text[:start]), cell_len(text[:end])) for start, end in spans]


def highlight(strip: Strip, cells: list[tuple[int, int]], styles: tuple[Style, Style], here: int = -1) -> Strip:
    """`strip` with the matches at `cells` highlighted, the one starting at cell `here` brighter."""
    if not cells:
        return strip
    other, current = styles
    cuts = sorted({c for span in cells for c in span} | {strip.cell_length})
    spans = dict(cells)
    out = []
    for start, piece in zip([0, *cuts], strip.divide(cuts), strict=False):
        if start in spans:
            piece = Strip(Segment.apply_style(piece, post_style=current if start == here else other), piece.cell_length)
        out.append(piece)
    return Strip.join(out)


def match_styles(app: App[object]) -> tuple[Style, Style]:
    """Backgrounds for matches and for the current one, from the theme's warning colour (with 16 colours, where
    its tint would be any of them, yellow and bright yellow under black)."""
    if few_colors(app):
        dark, black = app.current_theme.dark, ANSI["black"]
        found, here = (ansi(role, dark) for role in ("found", "found-here"))
        return Style(color=black, bgcolor=found), Style(color=black, bgcolor=here, bold=True)
    variables = app.get_css_variables()
    try:
        background = Color.parse(variables.get("background") or "#000000")
        warning = Color.parse(variables.get("warning") or "#ffa62b")
    except Exception:  # a theme variable that is not a plain colour
        background, warning = Color.parse("#000000"), Color.parse("#ffa62b")
    return (
        Style(bgcolor=(background + warning.with_alpha(0.4)).hex),
        Style(bgcolor=warning.hex, color=readable(background.hex, warning, TEXT_CONTRAST), bold=True),
    )
