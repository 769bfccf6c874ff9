"""claude-tui: browse, follow and search Claude Code history in the terminal."""

__version__ = "0.1.0"
