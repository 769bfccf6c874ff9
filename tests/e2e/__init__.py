"""End to end: the installed `claude-tui` in a real terminal (tmux), driven by keys and read off the screen."""
