"""The index: a SQLite cache of every session file's facts, and a full-text table of its text.

One database in the user's cache folder (`cache_dir()`):

- `files`: per file its size, mtime, inode, the byte offset read so far, its facts (JSON)
  and the state needed to read on from that offset (see extract.State);
- `summaries`: summary records by leaf, for titles;
- `marks`: the uuids of each file that a summary may name (see extract.Extractor.marks), so that a summary
  read after the file that holds its message titles that file's session without reading the file again;
- `usage`, `usage_sums`, `usage_dups`: each assistant message's usage once per file, and sums of it, so that a
  total over the whole history counts a message once however many files hold it (see usage.py).

Beside it, one text database per worker process (`index-text-N.sqlite3`, attached as `textN`),
so that workers fill the full-text index side by side rather than in turns:

- `rows` and `fts`: one row per searchable part of a message (prompt, answer, thinking,
  tool input, tool output), keyed by the order text arrived (see extract.Extractor), with its
  record's time (NULL for a record without one: no date filter lets it through). `fts` is
  a contentless FTS5 table (no copy of the text, no positions): snippets and phrase checks
  read the session file itself, at the row's byte offset, when a hit is shown. Its segments are
  merged only once 64 pile up at a level (not a few at every commit, as by default): that made
  a quarter of the cost of filling it, and a query over many segments still takes a millisecond;
- `reads`: per read of a file, its lowest row id and its newest timestamp, so that search can
  tell when no row below an id can be newer than the hits it holds (search.newest_first).

A worker commits a file's rows to its text database first, then the file's new offset to the
index. Stopped between the two (killed), the rows are written again by the next read, and
search drops the duplicates.

It is a cache: a missing, old, corrupt or locked database is rebuilt or replaced by one in
memory, never fatal; so is one on a full disk. A file replaced or deleted leaves its rows behind as dead weight
(a contentless FTS5 table cannot forget a row without its text); search ignores them,
and the database is rebuilt from scratch when they outnumber the live ones.

Nothing is ever written under a projects folder.

The modules: schema (the tables and files), texts (what text of a record is searchable), extract (one pass over
a file's lines: its facts and rows), jobs (the files to read and a read's results), pool (running jobs, here or
in worker processes), locks (writers and their waits), store (the Index), usage (usage counted once per message).
"""
