"""Text as the UI shows it: one line of anything, tool names, paths, durations, tool output's colours."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from claude_tui.core.content import as_text
from claude_tui.core.sanitize import folded, visible_controls, visible_controls_but_sgr


def one_line(text: Any, limit: int = 300) -> str:
    """Text folded to one line (whitespace collapsed), at most `limit` characters (a cut one ends with "…")."""
    if _plain(text) and len(text) <= limit:  # the usual title: nothing to show otherwise, nor to fold, nor to cut
        return text
    return folded(visible_controls(as_text(text)[: limit * 4]), limit)


def _plain(text: Any) -> bool:
    """Text that is its own one line: printable (no control, no line break, no space but " "), and no space at
    its ends or two in a row."""
    return type(text) is str and text.isprintable() and "  " not in text and text[:1] != " " != text[-1:]


def tool_name(name: str, limit: int = 40) -> str:
    """A tool's name as people read it, at most `limit` characters: an MCP tool (`mcp__<server>__<tool>`)
    as its server and tool, `linear-server · get_issue`."""
    server, sep, tool = name.removeprefix("mcp__").partition("__") if name.startswith("mcp__") else ("", "", "")
    return one_line(f"{server} · {tool}" if sep and server and tool else name, limit)


def short_path(path: str, cwd: str | None) -> str:
    """`path` relative to `cwd` when it lies under it (Windows paths too, whose case does not count)."""
    if not cwd:
        return path
    for sep, fold in (("/", str), ("\\", str.lower)):
        base = cwd.rstrip(sep) + sep
        if fold(path).startswith(fold(base)):
            return path[len(base) :]
    return path


def duration(seconds: float | None) -> str:
    """Seconds as people read a run's time: `4.2s`, `42s`, `3m07s` ("" for none)."""
    if seconds is None:
        return ""
    if seconds < 10:
        return f"{seconds:.1f}s"
    if seconds < 60:
        return f"{seconds:.0f}s"
    return f"{int(seconds // 60)}m{int(seconds % 60):02d}s"


def coloured(text: str, style: Style | None = None) -> Text:
    """Tool output with its SGR colours and bold as styles; every other control shown as a placeholder."""
    shown = Text.from_ansi(visible_controls_but_sgr(text), style=style or "")
    shown.expand_tabs(4)
    return shown
