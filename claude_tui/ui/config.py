"""The user's settings: `$XDG_CONFIG_HOME/claude-tui/config.toml`.

```toml
theme = "tokyo-night"        # any Textual theme: textual-dark, textual-light, nord, gruvbox, ...
hide_quiet = false           # start with hook/system/attachment rows hidden

[keys]                       # binding id = "key[,key...]"  (see the help screen, `?`, for the ids)
"conversation.next_prompt" = "],J"
"app.quit" = "q,ctrl+q"
```

A file that cannot be read never stops the app: what is wrong is reported once, on screen.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_THEME = "textual-dark"


@dataclass
class Config:
    theme: str = DEFAULT_THEME
    hide_quiet: bool = False
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
    keys = data.get("keys", {})
    if not isinstance(keys, dict):
        config.problems.append(f"{path}: [keys] must be a table")
        keys = {}
    for binding_id, value in keys.items():
        if isinstance(value, str) and value.strip():
            config.keys[binding_id] = value
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            config.keys[binding_id] = ",".join(value)
        else:
            config.problems.append(f"{path}: keys.{binding_id} must be a key name or a list of them")
    unknown = sorted(set(data) - {"theme", "hide_quiet", "keys"})
    if unknown:
        config.problems.append(f"{path}: unknown settings {', '.join(unknown)}")
    return config
