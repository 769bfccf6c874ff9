"""Write docs/keys.md from the app's bindings, so that the page cannot drift from the keys.

    python scripts/keys_doc.py            # write docs/keys.md
    python scripts/keys_doc.py --check    # exit 1 when docs/keys.md is not what this script writes

The sections are the help screen's (`?`), in its order, then the places it does not list.
tests/ui/test_keys_doc.py runs the check.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from textual.binding import Binding
from textual.keys import _character_to_key

from claude_tui.ui.app import _help_sections, _unlisted_binding_owners

DOC = Path(__file__).resolve().parents[1] / "docs" / "keys.md"

#: Titles of the places the help screen does not list, by class name (else the class name).
UNLISTED_TITLES = {
    "FilterInput": "Filter (project tree, session list)",
    "ExportPrompt": "Export prompt (x, X)",
    "HelpScreen": "Help screen (?)",
    "HitList": "Search results",
}

HEAD = """# Keys

<!-- Written by scripts/keys_doc.py from the app's bindings: do not edit; run `python scripts/keys_doc.py`. -->

Every binding has an id. Remap a key by its id in the `[keys]` table of the config file
(see [configuration.md](configuration.md)); `?` in the app shows these tables with your keymap applied.
The browser's and the conversation's actions, but for moves, are also in the command palette (`ctrl+p`),
which also jumps to any project or session by name.
Keys are written as in the config file, with Textual's names (`ctrl+k`, `shift+tab`, `pagedown`),
except that a character is shown as itself (`?` for `question_mark`).
"""


#: Textual's names of the printable characters (question_mark, full_stop, ...): the character each names.
CHARACTERS = {_character_to_key(chr(code)): chr(code) for code in range(33, 127)}

TAIL = """## Notes

- In the project tree and the session list, typing filters the rows; a letter that is a key there (`j`, `k`,
  `s`, `a`, ...) does its job, so start with `/` to type a filter that begins with one. From the filter,
  `enter` opens the highlighted row and the arrows move in the list; `escape` clears it.
- `space` on a row with nothing to fold opens it in full.
- `y` copies the message, or a tool call's whole output, through OSC 52 (the terminal's clipboard);
  `Y` copies the command that resumes the session in Claude Code; `o` opens the message in `$PAGER`.
- `R` resumes the session in Claude Code, in the folder it ran in, and follows what it writes when claude
  exits; "Fork this session" in the palette does the same with `--fork-session`
  (see [configuration.md](configuration.md#resuming-a-session)).
- `x` and `X` export the session as Markdown or HTML, to `<session-id>.md` or `.html` in the current folder,
  or to a path you type; never under a projects folder.
- `L` pins the view to the newest message; scrolling up pauses following, `end` resumes it.
- `T` shows only the calls of the tool under the cursor (the palette has one "Show only … calls" per tool).
- In the search screen, `ctrl+o` keeps only errors: failed tool calls and API errors.
"""


def key_name(key: str) -> str:
    """A key as the config file names it (`ctrl+k`, `pagedown`), but a character as itself (`?`)."""
    *modifiers, name = key.strip().split("+")
    return "+".join([*modifiers, CHARACTERS.get(name, name)])


def cell(text: str) -> str:
    """`text` as code in a Markdown table cell (a `|` escaped, a backtick fenced by two)."""
    fence = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return f"{fence}{pad}{text}{pad}{fence}".replace("|", "\\|")


def section(title: str, owner: Any) -> str:
    """One place's bindings as a table: keys, what they do, id."""
    rows = [
        f"| {' '.join(cell(key_name(k)) for k in b.key.split(','))} | {b.description} | `{b.id}` |"
        for b in owner.BINDINGS
        if isinstance(b, Binding) and b.id
    ]
    return "\n".join([f"## {title}", "", "| Keys | Action | Id |", "|---|---|---|", *rows, ""])


def keys_doc() -> str:
    """The text of docs/keys.md."""
    places = _help_sections()
    places += [(UNLISTED_TITLES.get(owner.__name__, owner.__name__), owner) for owner in _unlisted_binding_owners()]
    return "\n".join([HEAD, *(section(title, owner) for title, owner in places), TAIL])


def main(argv: list[str]) -> int:
    text = keys_doc()
    if argv == ["--check"]:
        if DOC.exists() and DOC.read_text(encoding="utf-8") == text:
            return 0
        print(f"{DOC} is not what the bindings say: run python scripts/keys_doc.py", file=sys.stderr)
        return 1
    DOC.parent.mkdir(exist_ok=True)
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
