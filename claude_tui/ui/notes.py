"""What the records folded into a row add to it: the hook runs and Claude Code's notices, in the row's expanded
body and in its detail view (core/hooks.py decides what folds where; tools.headline draws the mark, `↪2`)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from claude_tui.core.hooks import headline, shown
from claude_tui.core.humanize import plural
from claude_tui.core.model import Hook, Message
from claude_tui.core.source import persisted_text
from claude_tui.ui.lines import Row
from claude_tui.ui.palette import Palette
from claude_tui.ui.text import coloured, one_line

#: Lines of what a hook said shown under it in an expanded row (the detail view shows all of it).
SAID_LINES = 3


def _said(hook: Hook) -> list[str]:
    """The lines a hook printed or passed on, then those of its errors."""
    return [line for line in f"{hook.output}\n{hook.errors}".splitlines() if line.strip()]


def rows(notes: list[Message] | None, palette: Palette) -> list[Row]:
    """The records folded into an expanded call: each hook's headline and command and the first lines of what it
    said; each notice's words."""
    out: list[Row] = []
    for note in shown(notes):
        hook = note.hook
        if hook is None:
            out.append(Row(Text(f"ⓘ {one_line(note.text, 400)}", palette.dim), 2))
            continue
        head = Text.assemble(("↪ ", palette.faint), (one_line(headline(hook), 200), palette.dim))
        if hook.command:
            head.append(f"  $ {one_line(hook.command, 400)}", palette.faint)
        out.append(Row(head, 4))
        said = _said(hook)
        out += [Row(Text("  ") + coloured(line[:2_000], palette.faint), 4) for line in said[:SAID_LINES]]
        if len(said) > SAID_LINES:
            more = plural(len(said) - SAID_LINES, "more line")
            out.append(Row(Text(f"  … {more} · enter to see all", palette.faint), 4))
    return out


def detail(notes: list[Message] | None, palette: Palette, path: str) -> list[RenderableType]:
    """The records folded into a row, in its detail view: every hook with its command, what it printed and its
    errors, whole (read from the `tool-results/` folder of the session file `path` when Claude Code moved it
    there); every notice."""
    notes = shown(notes)
    if not notes:
        return []
    told = any(note.hook is not None for note in notes)
    parts: list[RenderableType] = [Text(""), Text("hooks" if told else "notices", palette.faint)]
    for note in notes:
        parts += hook_detail(note.hook, palette, path) if note.hook else [Text(f"ⓘ {note.text}", palette.dim)]
    return parts


def hook_detail(hook: Hook, palette: Palette, path: str) -> list[RenderableType]:
    """One hook run in full: its headline, its command, what it said (its colours kept; see `detail`) and its
    errors."""
    parts: list[RenderableType] = [
        Text.assemble(("↪ ", palette.warning if hook.failed else palette.faint), (headline(hook), palette.bold))
    ]
    if hook.command:
        parts.append(Text.assemble(("$ ", palette.accent), coloured(hook.command)))
    if hook.output.strip():
        parts.append(coloured(persisted_text(path, hook.output).rstrip("\n"), palette.dim))
    if hook.errors.strip():
        parts.append(coloured(hook.errors.rstrip("\n"), palette.error))
    return parts
