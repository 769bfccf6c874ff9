"""The command line (the entry point `claude_tui.cli:main`): main dispatches, a module per subcommand runs it."""

from claude_tui.cli.main import main

__all__ = ["main"]
