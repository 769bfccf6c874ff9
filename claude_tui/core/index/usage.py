"""The index's usage tables: written as files are read (store.py, pool.py), read by the usage report (usage_report.py).

- `usage`: per file, each assistant message's usage once, by message id: its `usage.priced_as` key (the model,
  marked when it is billed at other rates), time, token counts, and whether the record is a copy of another
  session's (see copies.py);
- `usage_sums`: the same summed per file, quarter hour and key, with the times of the first and last message
  summed: a report over the whole history reads a few rows a session, not one a message;
- `usage_dups`: the message ids that more than one file holds (a record copied into another session's file, a
  subagent copied into progress records beside its own transcript, a side question's replay of its session): a
  report takes their rows out of the sums and counts each message once (see `read_sums`).

A quarter hour lies within one day in every time zone (their offsets are whole quarter hours, and so are the times
their clocks change), and a 5-hour block starts and ends on an hour: the sums lose nothing a report needs.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import fields
from typing import Any, NamedTuple, TypeVar

from claude_tui.core.usage import Tokens, model_of, priced_as

#: Seconds in a quarter hour, the sums' unit of time.
QUARTER = 900
#: The quarter hour of a message with no time.
NO_TIME = -1
#: The token counts of a message, as Tokens names them and usage.usage_counts gives them: the tables' columns.
COUNTS = tuple(f.name for f in fields(Tokens))
_COLUMNS = ", ".join(f"{name} INTEGER NOT NULL" for name in COUNTS)
#: Where a row of `usage` has its output tokens.
_OUTPUT = 5 + COUNTS.index("output")

SCHEMA = f"""
CREATE TABLE usage(
    file INTEGER NOT NULL, mid TEXT NOT NULL, key TEXT NOT NULL, ts INTEGER, copied INTEGER NOT NULL, {_COLUMNS},
    PRIMARY KEY (file, mid)
) WITHOUT ROWID;
CREATE INDEX usage_mid ON usage(mid);
CREATE TABLE usage_sums(
    file INTEGER NOT NULL, quarter INTEGER NOT NULL, key TEXT NOT NULL, messages INTEGER NOT NULL, {_COLUMNS},
    first INTEGER, last INTEGER,
    PRIMARY KEY (file, quarter, key)
) WITHOUT ROWID;
CREATE TABLE usage_dups(mid TEXT PRIMARY KEY) WITHOUT ROWID;
"""

_INSERT = f"INSERT OR REPLACE INTO usage VALUES ({','.join('?' * (5 + len(COUNTS)))})"
_ADD = (
    f"INSERT INTO usage_sums VALUES ({','.join('?' * (6 + len(COUNTS)))})"
    " ON CONFLICT(file, quarter, key) DO UPDATE SET messages = messages + excluded.messages, "
    + ", ".join(f"{name} = {name} + excluded.{name}" for name in COUNTS)
    + ", first = min(first, coalesce(excluded.first, first)), last = max(last, coalesce(excluded.last, last))"
)
T = TypeVar("T")
#: Ids bound at a time in an `IN (...)` list.
_BATCH = 500

Row = tuple[Any, ...]  #: a row of `usage`: (file id, message id, key, epoch seconds or None, copied, *COUNTS)
_Sums = dict[Any, list[Any]]  #: (..., quarter, key) -> [messages, *COUNTS, first, last]


def record(db: sqlite3.Connection, fid: int, continued: bool, usages: list[tuple[Any, ...]]) -> None:
    """Write the usage a read of file `fid` found (Extractor.usages: (file id, message id, model, epoch seconds,
    copied, *COUNTS)), keeping the sums and the ids that several files hold. `continued`: the read went on from an
    offset, so a message may be in the file's rows already, with the usage it had then."""
    if not usages:
        return
    rows = [(f, mid, priced_as(model, Tokens(*counts)) or "", ts, copied, *counts)
            for f, mid, model, ts, copied, *counts in usages]  # fmt: skip
    old = {row[1]: row for row in _rows_of(db, fid, [row[1] for row in rows])} if continued else {}
    sums: _Sums = {}
    for row in rows:
        if (before := old.get(row[1])) is not None:
            _add(sums, (), before, -1)  # a message grown since the last read: its new usage replaces the old
        _add(sums, (), row, 1)
    for part in _batches([row[1] for row in rows if row[1] not in old]):
        marks = ",".join("?" * len(part))
        held = db.execute(f"SELECT DISTINCT mid FROM usage WHERE mid IN ({marks}) AND file != ?", [*part, fid])
        db.executemany("INSERT OR IGNORE INTO usage_dups VALUES (?)", held.fetchall())
    db.executemany(_INSERT, rows)
    db.executemany(_ADD, [(fid, quarter, key, *values) for (quarter, key), values in sums.items()])


def forget(db: sqlite3.Connection, fid: int) -> None:
    """Remove a file's usage (its ids stay in usage_dups: a report finds them held once, and counts them so)."""
    db.execute("DELETE FROM usage WHERE file=?", (fid,))
    db.execute("DELETE FROM usage_sums WHERE file=?", (fid,))


def _rows_of(db: sqlite3.Connection, fid: int, mids: list[str]) -> Iterable[Row]:
    for part in _batches(mids):
        yield from db.execute(
            f"SELECT * FROM usage WHERE file=? AND mid IN ({','.join('?' * len(part))})", [fid, *part]
        )


def _batches(items: list[T]) -> Iterable[list[T]]:
    return (items[i : i + _BATCH] for i in range(0, len(items), _BATCH))


def _add(sums: _Sums, where: tuple[Any, ...], row: Row, sign: int) -> None:
    """Add (`sign` 1) or take away (-1) a message's row from the sums of `where` (its file's: ()) at its quarter
    hour and key; what is added counts in the first and last times."""
    ts = row[3]
    place = (*where, NO_TIME if ts is None else ts - ts % QUARTER, row[2])
    values = sums.get(place)
    if values is None:
        values = sums[place] = [0] * (1 + len(COUNTS)) + [None, None]
    values[0] += sign
    for i, count in enumerate(row[5:], 1):
        values[i] += sign * count
    if sign > 0 and ts is not None:
        values[-2] = ts if values[-2] is None else min(values[-2], ts)
        values[-1] = ts if values[-1] is None else max(values[-1], ts)


#: A file under the roots: (id, path, folder, agent, and as JSON: the session ids its records name, its owner (for a
#: subagent's transcript), its working folders).
FileRow = tuple[int, str, str, bool, str | None, str | None, str | None]
_SUM_COLUMNS = f"file, quarter, key, messages, {', '.join(COUNTS)}, first, last"
_FILE_COLUMNS = "id, path, folder, agent, " + ", ".join(
    f"json_extract(CAST(facts AS TEXT), '$.{name}')" for name in ("sids", "owner", "cwds")
)


class UsageRead(NamedTuple):
    """The usage of the files under some roots, as `read_usage` reads it."""

    state: list[Any]  #: the files' state then (see usage_state)
    #: summed per file, quarter hour and key: (file id, quarter (NO_TIME for no time), key ("" for none), messages,
    #: *COUNTS, first, last)
    sums: list[tuple[Any, ...]]
    files: list[FileRow]  #: the files, to tell their sessions
    touched: set[int]  #: the files whose sums were mended because they share messages with others (see _count_once)
    stamps: dict[int, int]  #: by file id: what changes whenever its usage may have (see file_stamps), when asked


def read_usage(db: sqlite3.Connection, roots: Sequence[str], stamped: bool = False) -> UsageRead:
    """The usage of the files under `roots`, each message counted once over them all: a message that several files
    hold counts with the usage of the one with the most output tokens (a streamed message's last chunk may be only in
    a copy), in the file that holds it as its own (see _count_once), at the time it has there. `stamped`: with the
    files' stamps, read in the same snapshot."""
    marks = ",".join("?" * len(roots))
    under = f"file IN (SELECT id FROM files WHERE root IN ({marks}))"
    db.execute("BEGIN")  # one snapshot for all the reads, whatever a writer commits meanwhile
    try:
        state = usage_state(db, roots)
        stamps = file_stamps(db, roots) if stamped else {}
        sums = db.execute(f"SELECT {_SUM_COLUMNS} FROM usage_sums WHERE {under}", roots).fetchall()
        held: dict[str, list[Row]] = {}
        for row in db.execute(f"SELECT u.* FROM usage_dups d CROSS JOIN usage u ON u.mid = d.mid WHERE {under}", roots):
            held.setdefault(row[1], []).append(row)
        sql = f"SELECT {_FILE_COLUMNS} FROM files WHERE root IN ({marks})"
        files: list[FileRow] = db.execute(sql, roots).fetchall()
    finally:
        db.execute("COMMIT")
    sums, touched = _counted_once(sums, held, files)
    return UsageRead(state, sums, files, touched, stamps)


def _counted_once(
    sums: list[tuple[Any, ...]], held: dict[str, list[Row]], files: list[FileRow]
) -> tuple[list[tuple[Any, ...]], set[int]]:
    """The sums of `files`, each message that several of them hold (`held`: the rows of usage_dups' ids, by id)
    counted once (see _count_once); and the files whose sums that changed."""
    copies = [rows for rows in held.values() if len(rows) > 1]
    touched = {row[0] for rows in copies for row in rows}
    if not touched:
        return sums, touched
    mended: _Sums = {(fid, quarter, key): values for fid, quarter, key, *values in sums if fid in touched}
    agents = {row[0] for row in files if row[3]}
    for rows in copies:
        _count_once(mended, rows, agents)
    return [row for row in sums if row[0] not in touched] + [(*at, *values) for at, values in mended.items()], touched


class UsageChange(NamedTuple):
    """What changed in the usage of the files under some roots since a read (see changed_usage)."""

    state: list[Any]  #: the files' state now (see usage_state)
    stamps: dict[int, int]  #: every file's, now
    sums: list[tuple[Any, ...]]  #: the sums of the files read again (as UsageRead.sums)
    files: list[FileRow]  #: the files read again: those that changed or came, and those sharing messages with them
    touched: set[int]  #: of those, the files whose sums were mended (see UsageRead.touched)


def changed_usage(db: sqlite3.Connection, roots: Sequence[str], stamps: dict[int, int]) -> UsageChange | None:
    """The usage of the files under `roots` that changed since a read that found these `stamps`, and of the files
    that share a message with them (its count may move between them: see _count_once); None when more changed than
    a whole read costs."""
    under = f"file IN (SELECT id FROM files WHERE root IN ({','.join('?' * len(roots))}))"
    db.execute("BEGIN")
    try:
        state, now = usage_state(db, roots), file_stamps(db, roots)
        changed = [fid for fid, stamp in now.items() if stamps.get(fid) != stamp]
        group = _sharing(db, changed, under, roots, limit=max(_BATCH, len(now) // 4))
        if group is None:
            return None
        sums, files = [], []
        held: dict[str, list[Row]] = {}
        for part in _batches(sorted(group)):
            ids = ",".join("?" * len(part))
            sums += db.execute(f"SELECT {_SUM_COLUMNS} FROM usage_sums WHERE file IN ({ids})", part).fetchall()
            files += db.execute(f"SELECT {_FILE_COLUMNS} FROM files WHERE id IN ({ids})", part).fetchall()
            copied = f"SELECT u.* FROM usage u JOIN usage_dups d ON d.mid = u.mid WHERE u.file IN ({ids})"
            for row in db.execute(copied, part):
                held.setdefault(row[1], []).append(row)
    finally:
        db.execute("COMMIT")
    sums, touched = _counted_once(sums, held, files)
    return UsageChange(state, now, sums, files, touched)


def _sharing(db: sqlite3.Connection, fids: list[int], under: str, roots: Sequence[str], limit: int) -> set[int] | None:
    """These files, and those under the roots that share a message with one of them or with one of those, ...
    (usage_dups has its id); None past `limit` files."""
    group, added = set(fids), fids
    while added and len(group) <= limit:
        mids = [
            mid
            for part in _batches(added)
            for (mid,) in db.execute(
                "SELECT DISTINCT u.mid FROM usage u JOIN usage_dups d ON d.mid = u.mid"
                f" WHERE u.file IN ({','.join('?' * len(part))})",
                part,
            )
        ]
        holders = {
            fid
            for part in _batches(mids)
            for (fid,) in db.execute(
                f"SELECT DISTINCT file FROM usage WHERE mid IN ({','.join('?' * len(part))}) AND {under}",
                [*part, *roots],
            )
        }
        added = sorted(holders - group)
        group |= holders
    return group if len(group) <= limit else None


def file_stamps(db: sqlite3.Connection, roots: Sequence[str]) -> dict[int, int]:
    """Each file's stamp, by id: the hash of its size, mtime, inode and offset, which an index update changes whenever
    it writes the file's usage (files_stamp covers them: the rows and their blobs are not read; a file's id is never
    given to another path). A hash of integers, the same in every process: it may be kept."""
    sql = f"SELECT id, size, mtime_ns, inode, offset FROM files WHERE root IN ({','.join('?' * len(roots))})"
    return {row[0]: hash(row[1:]) for row in db.execute(sql, roots)}


def usage_state(db: sqlite3.Connection, roots: Sequence[str]) -> list[Any]:
    """What changes whenever a file under `roots` is added, read on or removed: its usage may have (the count of the
    files, their highest id, and the totals of their sizes, times and offsets)."""
    sql = "SELECT count(*), max(id), total(size), total(mtime_ns), total(offset) FROM files WHERE root IN ({})"
    return list(db.execute(sql.format(",".join("?" * len(roots))), roots).fetchone())


def _count_once(sums: _Sums, rows: list[Row], agents: set[int]) -> None:
    """Take the rows of one message out of their files' sums, and put it back once (see read_usage)."""
    for row in rows:
        _add(sums, (row[0],), row, -1)
    # its own: not a copy; a session's file before a subagent's (a replay, a progress copy's transcript); the
    # earliest (a copy not known as one is written later: 1.0's `--continue` into a file named otherwise); the first
    own = min(rows, key=lambda row: (row[4], row[0] in agents, row[3] is None, row[3] or 0, row[0]))
    most = max(rows, key=lambda row: (row[_OUTPUT], row is own))
    model = model_of(most[2]) or model_of(own[2])
    key = priced_as(model, Tokens(*most[5:])) or ""
    _add(sums, (own[0],), (own[0], own[1], key, own[3], own[4], *most[5:]), 1)
