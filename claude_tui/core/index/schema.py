"""The index's databases: the tables of the index and of its text databases (one per worker), where they are,
how they are attached and tuned (a cache needs no durability: a lost write is read again)."""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from pathlib import Path

from claude_tui.core.index import usage as usage_index

SCHEMA_VERSION = 30
DB_NAME = "index.sqlite3"
TEXT_NAME = "index-text-{}.sqlite3"

SCHEMA = f"""
CREATE TABLE meta(key TEXT PRIMARY KEY, value);
CREATE TABLE files(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    path TEXT NOT NULL UNIQUE,
    root TEXT NOT NULL,
    folder TEXT NOT NULL,
    agent INTEGER NOT NULL,
    size INTEGER NOT NULL DEFAULT -1,
    mtime_ns INTEGER NOT NULL DEFAULT -1,
    inode INTEGER NOT NULL DEFAULT -1,
    offset INTEGER NOT NULL DEFAULT 0,
    nrows INTEGER NOT NULL DEFAULT 0,
    project TEXT,
    facts BLOB,
    state BLOB,
    tail BLOB,
    error TEXT
);
-- covers the check of every file for changes: it reads this index, not the rows and their blobs
CREATE INDEX files_stamp ON files(root, path, size, mtime_ns, inode, offset, id);
-- the few files that could not be read: each update tries them again
CREATE INDEX files_unreadable ON files(root, path) WHERE error IS NOT NULL;
CREATE TABLE summaries(file INTEGER NOT NULL, folder TEXT NOT NULL, leaf TEXT NOT NULL, summary TEXT NOT NULL);
CREATE INDEX summaries_file ON summaries(file);
CREATE INDEX summaries_leaf ON summaries(folder, leaf);
CREATE TABLE marks(file INTEGER NOT NULL, uuid TEXT NOT NULL);
CREATE INDEX marks_file ON marks(file);
CREATE INDEX marks_uuid ON marks(uuid);
{usage_index.SCHEMA}
INSERT INTO meta VALUES ('schema', {SCHEMA_VERSION}), ('dead', 0), ('top', 1);
"""

TEXT_SCHEMA = """
CREATE TABLE {s}.rows(
    id INTEGER PRIMARY KEY, file INTEGER, off INTEGER, kind INTEGER, blk INTEGER, tool TEXT, err INTEGER, ts INTEGER
);
CREATE TABLE {s}.reads(lo INTEGER, ts INTEGER);
CREATE VIRTUAL TABLE {s}.fts USING fts5(text, content='', detail=none, columnsize=0);
INSERT INTO {s}.fts(fts, rank) VALUES ('hashsize', 8388608);
INSERT INTO {s}.fts(fts, rank) VALUES ('automerge', 0);
INSERT INTO {s}.fts(fts, rank) VALUES ('crisismerge', 64);
"""


def cache_dir() -> Path:
    """$CLAUDE_TUI_CACHE_DIR, else $XDG_CACHE_HOME/claude-tui, else ~/.cache/claude-tui."""
    own = os.environ.get("CLAUDE_TUI_CACHE_DIR")
    if own:
        return Path(own).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "claude-tui"


def text_path(index_path: Path, shard: int) -> Path:
    return index_path.with_name(TEXT_NAME.format(shard))


def text_schemas(db: sqlite3.Connection) -> list[str]:
    """The text databases attached to a connection: text0, text1, ..."""
    return [name for _, name, _ in db.execute("PRAGMA database_list") if name.startswith("text")]


def has_text(db: sqlite3.Connection, schema: str) -> bool:
    return db.execute(f"SELECT 1 FROM {schema}.sqlite_master WHERE name='fts'").fetchone() is not None


def shard_count(db: sqlite3.Connection) -> int:
    row = db.execute("SELECT value FROM meta WHERE key='shards'").fetchone()
    return row[0] if row else 0


def attach_texts(db: sqlite3.Connection, index_path: Path | None, shards: int, read_only: bool = False) -> None:
    """Attach the text databases beside the index (in memory with an index in memory)."""
    for k in range(shards):
        if index_path is None:
            target = ":memory:"
        else:
            path = text_path(index_path, k)
            target = read_only_uri(path) if read_only else str(path)
        db.execute("ATTACH DATABASE ? AS ?", (target, f"text{k}"))
        if not read_only:
            tune(db, f"text{k}", wal=index_path is not None)


def tune(db: sqlite3.Connection, schema: str, wal: bool) -> None:
    """A cache needs no durability: a lost write is read again."""
    if wal:
        db.execute(f"PRAGMA {schema}.journal_mode=WAL")
    db.execute(f"PRAGMA {schema}.synchronous=OFF")
    db.execute(f"PRAGMA {schema}.cache_size=-8192")


def read_only_uri(path: Path) -> str:
    return f"file:{urllib.parse.quote(str(path))}?mode=ro"
