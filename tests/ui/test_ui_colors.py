"""The app on a terminal of 16 colours or fewer (TERM=screen, xterm, linux): Rich turns each colour into the nearest
of those 16, and what is drawn must stay readable and keep its meaning there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich._palettes import STANDARD_PALETTE
from rich.color import Color, ColorSystem
from rich.segment import Segment
from textual.widget import Widget

from claude_tui.ui.app import ClaudeTUI
from claude_tui.ui.palette import Palette
from claude_tui.ui.screens.search import HitList, SearchScreen
from claude_tui.ui.widgets.projects import ProjectTree
from claude_tui.ui.widgets.sessions import SessionList
from tests.ui_support import CLOCK, browser_ready, demo_copy, settled

GUIDES = " │├└─▌"  #: the tree's guides and the conversation's cursor bar: beside a cursor row, not text on it
THEMES = ["textual-dark", "textual-light", "tokyo-night", "nord", "gruvbox"]


@pytest.fixture
def roots(tmp_path: Path) -> list[Path]:
    return [demo_copy(tmp_path)]


@pytest.fixture
def screen_term(monkeypatch: pytest.MonkeyPatch) -> None:
    """tmux's default TERM, no COLORTERM: Rich draws with its 16 standard colours."""
    monkeypatch.setenv("TERM", "screen")
    monkeypatch.delenv("COLORTERM", raising=False)


def luminance(color: Color) -> float:
    """The relative luminance (WCAG) of one of the 16 colours, as Rich's standard palette (VGA) has it."""
    assert color.number is not None and color.type.name == "STANDARD", color
    channels = [c / 255 for c in STANDARD_PALETTE[color.number]]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: Color, other: Color) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def drawn_row(app: ClaudeTUI, widget: Widget, y: int) -> list[Segment]:
    """Row `y` of `widget`'s content as it goes to the terminal (the screen's filters applied), in its cells."""
    region = widget.content_region
    strip = app.screen._compositor.render_strips()[region.y + y]  # the whole screen, composed
    return list(strip.crop(region.x, region.right))


def pairs(app: ClaudeTUI, segments: list[Segment]) -> set[tuple[str, Color, Color]]:
    """Each visible character's text, colour and background as the terminal gets them."""
    system = ColorSystem.STANDARD
    assert app.console._color_system == system
    found = set()
    for text, style, _ in segments:
        if text.strip(GUIDES) and style is not None:
            assert style.color is not None and style.bgcolor is not None, (text, style)
            fg, bg = style.color.downgrade(system), style.bgcolor.downgrade(system)
            found.add((text.strip(), *((bg, fg) if style.reverse else (fg, bg))))
    return found


def assert_readable(app: ClaudeTUI, widget: Widget, y: int, what: str) -> None:
    found = pairs(app, drawn_row(app, widget, y))
    assert found, what
    poor = [
        (text, fg.number, bg.number, round(contrast(fg, bg), 1)) for text, fg, bg in found if contrast(fg, bg) < 4.5
    ]
    assert not poor, (what, poor)


@pytest.mark.usefixtures("screen_term")
@pytest.mark.parametrize("theme", THEMES)
async def test_every_cursor_row_is_readable_with_16_colours(roots: list[Path], theme: str) -> None:
    """Over SSH in tmux (TERM=screen) the highlighted rows were white on cyan (2.9:1), their dim cells grey on cyan
    (1.2:1); each row under a cursor, focused or not, is now in one pair of colours at 4.5:1 or more."""
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(160, 45)) as pilot:
        view = await browser_ready(pilot, app)
        app.theme = theme
        tree, sessions = app.main.query_one(ProjectTree), app.main.query_one(SessionList)
        for focused in (tree, sessions, view):
            focused.focus()
            await pilot.pause()
            assert_readable(app, tree, tree.cursor_line - round(tree.scroll_offset.y), f"tree, {focused.id} focused")
            assert_readable(app, sessions, 1 + sessions.cursor - round(sessions.scroll_offset.y), f"list, {focused.id}")
        assert view.cursor is not None
        top = view.rows.starts[view.entries.index(view.cursor)] + view.cursor.pad - round(view.scroll_offset.y)
        for row in range(top, top + view.cursor.height - view.cursor.pad):
            assert_readable(app, view, row, f"conversation row {row}")
        await pilot.press("ctrl+k", *"token")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        await settled(pilot, lambda: not screen.searching and not screen.pending and screen.hits)
        hits = screen.query_one(HitList)
        for focused in (False, True):  # the cursor blurred (the query has the focus), then focused
            if focused:
                await pilot.press("down")
            assert hits.has_focus == focused and hits.cursor == 0
            for row in (0, 1):
                assert_readable(app, hits, row, f"hit row {row}, focused: {focused}")
        words = {text for text, _, bg in pairs(app, drawn_row(app, hits, 1)) if bg.number != 6}  # off the cyan
        assert "token" in words  # the found word keeps its own colours on the cursor's row


@pytest.mark.usefixtures("screen_term")
@pytest.mark.parametrize("theme", THEMES)
async def test_colours_that_mean_something_stay_apart_with_16_colours(roots: list[Path], theme: str) -> None:
    """The nearest of 16 colours made a warning and a running call red like an error (textual-dark), or every one of
    them grey (tokyo-night), and the dim text bright black, which an 8-colour terminal draws black on black."""
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(160, 45)) as pilot:
        await browser_ready(pilot, app)
        app.theme = theme
        await pilot.pause()
        palette = Palette.of(app)
        system = ColorSystem.STANDARD
        background = Color.parse(app.get_css_variables()["background"]).downgrade(system)

        def shown(style: Any) -> Color:
            return style.color.downgrade(system)

        meaning = {name: shown(getattr(palette, name)) for name in ("text", "ok", "error", "warning", "prompt")}
        assert len(set(meaning.values())) == len(meaning), meaning
        for name in ("text", "dim", "faint", "ok", "error", "warning", "prompt", "assistant", "tool"):
            color = shown(getattr(palette, name))
            assert color.number != 8 or app.current_theme.dark is False, (name, "bright black on a dark background")
            assert contrast(color, background) >= 3, (name, color, background)
        assert shown(palette.dim) != shown(palette.text)
        assert shown(palette.add_word) != shown(palette.remove_word)


async def test_truecolor_keeps_the_theme_s_colours(roots: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """With COLORTERM=truecolor (the snapshots') the cursor is the theme's, untouched."""
    monkeypatch.setenv("COLORTERM", "truecolor")
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(160, 45)) as pilot:
        await browser_ready(pilot, app)
        variables = app.get_css_variables()
        assert variables["block-cursor-background"] == app.current_theme.primary.upper()
        assert Palette.of(app) == Palette.from_variables(variables, app.current_theme.dark)


@pytest.mark.parametrize("theme", [*THEMES, "solarized-light", "catppuccin-latte"])
async def test_text_stands_out_from_the_background_in_every_theme(
    roots: list[Path], monkeypatch: pytest.MonkeyPatch, theme: str
) -> None:
    """textual-light drew Claude's name and the commands at 1.5:1 on its background, ✓ at 1.8:1, times at 2.2:1, and
    the current search match's words at 1.5:1 on its orange."""
    from textual.color import Color as TextualColor

    from claude_tui.ui.highlight import match_styles
    from claude_tui.ui.palette import FAINT_CONTRAST, TEXT_CONTRAST
    from claude_tui.ui.palette import contrast as ratio

    monkeypatch.setenv("COLORTERM", "truecolor")
    app = ClaudeTUI(roots, clock=CLOCK)
    async with app.run_test(size=(120, 36)) as pilot:
        await browser_ready(pilot, app)
        app.theme = theme
        palette = Palette.of(app)
        background = TextualColor.parse(app.get_css_variables()["background"])

        def stands(style: Any, on: TextualColor) -> float:
            return ratio(TextualColor.parse(style.color.triplet.hex), on)

        for name in ("text", "dim", "bold", "prompt", "assistant", "accent", "ok", "error", "warning", "tool"):
            assert stands(getattr(palette, name), background) >= TEXT_CONTRAST, name
        assert stands(palette.faint, background) >= FAINT_CONTRAST
        here = match_styles(app)[1]
        assert stands(here, TextualColor.parse(here.bgcolor.triplet.hex)) >= TEXT_CONTRAST
