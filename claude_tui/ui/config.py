"""The user's settings: `$XDG_CONFIG_HOME/claude-tui/config.toml`.

```toml
theme = "tokyo-night"        # any Textual theme: textual-dark, textual-light, nord, gruvbox, ...
hide_quiet = false           # start with the dim system and attachment rows hidden
resume_command = "claude --resume {session_id}"  # what R runs in the session's folder ({cwd}); the fork
                             # adds --fork-session at the end, or where a word {fork} stands

[keys]                       # binding id = "key[,key...]"  (see the help screen, `?`, for the ids)
"conversation.next_prompt" = "],J"
"app.quit" = "q,ctrl+q"
```

A file that cannot be read never stops the app: what is wrong is reported once, on screen.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from claude_tui.core.resume import DEFAULT_COMMAND, split_command

DEFAULT_THEME = "textual-dark"


@dataclass
class Config:
    theme: str = DEFAULT_THEME
    hide_quiet: bool = False
    resume_command: str = DEFAULT_COMMAND
    keys: dict[str, str] = field(default_factory=dict)
    path: Path | None = None
    problems: list[str] = field(default_factory=list)


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "claude-tui" / "config.toml"


def tilde(path: str | Path) -> str:
    """`path` with the home folder written as ~."""
    text, home = str(path), str(Path.home())
    return "~" + text[len(home) :] if text == home or text.startswith(home + "/") else text


def _read_toml(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    import tomllib  # only when there is a file to read

    return tomllib.loads(text)


#: The modifiers of a key, in the order Textual names them: "ctrl+shift+up", never "shift+ctrl+up".
MODIFIERS = ("alt", "ctrl", "hyper", "meta", "shift", "super")


@cache
def _key_names() -> frozenset[str]:
    """Textual's names of keys without modifiers: up, f5, pageup, tab, question_mark, ... (Textual is pinned:
    these tables are its own, some private)."""
    from textual._keyboard_protocol import FUNCTIONAL_KEYS
    from textual.keys import KEY_ALIASES, Keys, _character_to_key

    names = [key.value for key in Keys if not key.value.startswith("<")]
    names += [alias for aliases in KEY_ALIASES.values() for alias in aliases]
    names += FUNCTIONAL_KEYS.values()
    names += (_character_to_key(chr(code)) for code in range(32, 127))
    return frozenset(name.rpartition("+")[2] for name in names)


def is_key_name(key: str) -> bool:
    """Whether a key of the `[keys]` table can be pressed: one character, or a key's name after modifiers in
    Textual's order (`ctrl+shift+up`, `alt+x`); `ctlr+q`, `ctrl+banana` and `ctrl+Q` cannot."""
    if len(key) == 1:
        return key.isprintable()
    *modifiers, name = key.split("+")
    known = set(modifiers) <= set(MODIFIERS) and modifiers == sorted(set(modifiers)) and name == name.lower()
    return known and (name in _key_names() or (len(name) == 1 and name.isalnum()))  # or a letter such as é


def _read_keys(config: Config, keys: object) -> None:
    """The `[keys]` table into `config.keys`; an entry with a mistake is reported and left out (the default stays)."""
    if not isinstance(keys, dict):
        config.problems.append(f"{config.path}: [keys] must be a table")
        return
    for binding_id, value in keys.items():
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            value = ",".join(value)
        if not isinstance(value, str) or not value.strip():
            config.problems.append(f"{config.path}: keys.{binding_id} must be a key name or a list of them")
        elif bad := [key.strip() for key in value.split(",") if not is_key_name(key.strip())]:
            named = " or ".join(repr(key) for key in bad)
            config.problems.append(f"{config.path}: keys.{binding_id}: no key is named {named}; its default is kept")
        else:
            config.keys[binding_id] = value


def _read_resume_command(config: Config, command: object) -> None:
    """`resume_command` into `config`; one that cannot be split or names an unknown placeholder is reported, and the
    default kept."""
    try:
        if not isinstance(command, str):
            raise ValueError("it must be a string")
        split_command(command)
    except ValueError as exc:
        config.problems.append(f"{config.path}: resume_command: {exc}; {DEFAULT_COMMAND!r} is used")
    else:
        config.resume_command = command


def load_config(path: Path | None = None) -> Config:
    """Read the config file; a missing file gives the defaults."""
    path = path or config_path()
    config = Config(path=path)
    try:
        data = _read_toml(path)
    except FileNotFoundError:
        return config
    except (OSError, ValueError) as exc:  # ValueError: UnicodeDecodeError, tomllib.TOMLDecodeError
        config.problems.append(f"{path}: {exc}")
        return config
    theme = data.get("theme", DEFAULT_THEME)
    if isinstance(theme, str):
        config.theme = theme
    else:
        config.problems.append(f"{path}: theme must be a string")
    hide = data.get("hide_quiet", False)
    if isinstance(hide, bool):
        config.hide_quiet = hide
    else:
        config.problems.append(f"{path}: hide_quiet must be true or false")
    _read_resume_command(config, data.get("resume_command", DEFAULT_COMMAND))
    _read_keys(config, data.get("keys", {}))
    unknown = sorted(set(data) - {"theme", "hide_quiet", "resume_command", "keys"})
    if unknown:
        config.problems.append(f"{path}: unknown settings {', '.join(unknown)}")
    return config
