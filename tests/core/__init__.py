"""Tests of the core and the command line: parsing, sessions, the index, search, stats, usage, export, the
builders and the house rules. A few (the read-only proof, odd content, the 2.1 layouts) also open the app, to check
that it shows what the core reads."""
