"""The tests: core/ (the core and the command line, no app), ui/ (the app under Pilot, its snapshots, the ui's
unit tests), e2e/ (the installed command in tmux), benchmarks/ (timings, run by hand). The helpers here serve every
folder and are imported as ``tests.<module>``."""
