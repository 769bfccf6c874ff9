"""Full-text search over the index: queries, hits and snippets.

A query is words that must all match, and "quoted words" that must match as a phrase;
a word ending in `*` matches as a prefix. Anything else (unbalanced quotes, FTS syntax
characters, `-` or `:`) is taken as plain words: a query never reaches FTS5 unquoted.
A part with no letter or digit (`🎉`, `->`), loose or in a phrase, is left out, and said to be: the index
holds none.

The index keeps no copy of the text, so a hit's snippet (and a phrase's check) is read
from the session file at the row's byte offset: a few lines per search.
"""

from __future__ import annotations

import heapq
import os
import re
import sqlite3
import time
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import accumulate, pairwise
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from claude_tui.core.cjk import CJK_CHARS, has_cjk, spaced_cjk
from claude_tui.core.content import content_items, record_content
from claude_tui.core.facts import project_path
from claude_tui.core.files import has_transcript, owning_folder, session_file
from claude_tui.core.index.extract import owner_of, title_of
from claude_tui.core.index.locks import error_code
from claude_tui.core.index.schema import text_schemas
from claude_tui.core.index.texts import API_ERROR, ROLES, ROW_KINDS, copied_record, line_block, record_texts
from claude_tui.core.model import own_session_id
from claude_tui.core.reader import ReadError, open_readonly
from claude_tui.core.records import parse_line
from claude_tui.core.sanitize import searchable, visible_controls
from claude_tui.core.times import age_seconds, plausible

#: Snippets mark each match as MARK_START + match + MARK_END.
MARK_START, MARK_END = "\x02", "\x03"
SNIPPET_CHARS = 160
#: Candidates a search may reject (their text lacks a phrase, or a CJK word as written) before it stops
#: and says so: each costs a line read from its file.
MAX_REJECTED = 20_000
#: Rows held back at most while their place in time is not yet sure (see newest_first). A history whose files were
#: read in an order unlike their times (copied or restored: their mtimes are the copy's) holds back nearly every
#: match of a common word; past this many, the rows are taken from each text database in order of time instead.
HELD_MAX = 5_000
#: Rows taken at a time in order of time: each take sorts every match of its database.
TIMED_PAGE = 1_000
#: SQLite's steps between two askings of a search's `stop`, and the rows between two in Python.
STOP_STEPS, STOP_ROWS = 100_000, 200
_TOKEN = re.compile(r"[^\W_]+")  # what FTS5's unicode61 tokenizer keeps: letters and digits
_PARTS = re.compile(r'"([^"]*)"|(\S+)')
#: What may close or open a word in a sentence (`fix it.`, `(see x)`): not part of the word searched for.
_SENTENCE = ".,;:!?()[]{}<>'\"`"
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass
class SearchHit:
    """One matching message."""

    session_id: str
    path: Path  #: the session file
    project: str
    title: str
    message_uuid: str | None
    role: str  #: user, assistant or tool
    kind: str  #: one of texts.ROW_KINDS: prompt, answer, thinking, tool_input, tool_output, ...
    tool: str | None
    timestamp: str | None
    snippet: str  #: matches marked with MARK_START ... MARK_END
    file: Path  #: the file holding the message: the session file, or a subagent transcript
    offset: int  #: byte offset of the message's line in `file`
    is_error: bool = False  #: a failed tool call's input or output, or an API error
    call_id: str | None = None  #: tool_input and tool_output: the tool_use id
    terms: tuple[str, ...] = ()  #: the words and "phrases" of the query that found it, as typed


class _BaseLetters(dict[int, str]):
    """A str.translate table: a letter with diacritics to its base letter (é to e), as the index folds
    them; one character for one, so that a match in the folded text is at the same place in the text."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        parts = unicodedata.normalize("NFD", char)
        base = parts[0] if len(parts) > 1 and all(unicodedata.combining(c) for c in parts[1:]) else char
        self[code] = base
        return base


_BASE_LETTERS = _BaseLetters()


def unaccented(text: str) -> str:
    """`text` with its letters' diacritics removed, as long as `text`."""
    return text if text.isascii() else text.translate(_BASE_LETTERS)


#: What a search cut short says.
CUT_SHORT = "the search stopped after many messages with the words but not as written: older matches may be missing"


#: Why a part of a query with no letter or digit is never found.
WORDS_ONLY = "the index holds words and numbers"


def left_out_note(parts: tuple[str, ...]) -> str:
    """What a search says of the parts of its query it left out (SearchQuery.left_out)."""
    return f"left out {_listed(parts)}: {WORDS_ONLY}"


def _listed(parts: tuple[str, ...]) -> str:
    return ", ".join(f"'{part}'" for part in parts)


class SearchStopped(Exception):
    """A search given up when its `stop` said so (a newer one was asked for)."""


class Hits(list["SearchHit"]):
    """Hits, newest first. `cut_short`: the search stopped after rejecting MAX_REJECTED candidates,
    so older matches may be missing (see CUT_SHORT). `left_out`: the query's parts it could not
    look for (see left_out_note)."""

    cut_short = False
    left_out: tuple[str, ...] = ()


@dataclass
class SearchQuery:
    """A parsed query: FTS5 expression, and what a snippet marks and a candidate must show."""

    fts: str  #: every word the index must hold
    words: list[tuple[str, bool]]  #: (token, is a prefix): the words not in a phrase, marked in a snippet
    phrases: list[tuple[list[str], bool]]  #: token sequences that must be adjacent, the last maybe a prefix
    literals: list[str]  #: words with CJK characters (looked up a character at a time): they must appear as written
    terms: tuple[str, ...] = ()  #: the words and phrases as typed (a prefix's `*` left off)
    left_out: tuple[str, ...] = ()  #: the parts typed with no letter or digit (🎉, ->): the index holds none

    _compiled: dict[bool, tuple[list[re.Pattern[str]], re.Pattern[str]]] = field(default_factory=dict, repr=False)

    def patterns(self, cjk: bool) -> tuple[list[re.Pattern[str]], re.Pattern[str]]:
        """The phrases, and a marker of phrases, words and literals, as found in an unaccented text;
        `cjk`: for a text holding CJK characters (see _letter)."""
        if cjk not in self._compiled:
            phrases = [_phrase(tokens, prefix, cjk) for tokens, prefix in self.phrases]
            letter = _letter(cjk)
            words = sorted(self.words, key=lambda t: len(t[0]), reverse=True)
            alternatives = [re.escape(unaccented(t)) + (f"{letter}*" if p else "") for t, p in words]
            bounded = f"(?<!{letter})(?:{'|'.join(alternatives)})(?!{letter})" if alternatives else ""
            parts = [p.pattern for p in phrases] + [re.escape(unaccented(t)) for t in self.literals]
            self._compiled[cjk] = phrases, re.compile("|".join(x for x in (*parts, bounded) if x), re.I)
        return self._compiled[cjk]

    def accepts(self, text: str) -> bool:
        plain = unaccented(text)
        if not all(pattern.search(plain) for pattern in self.patterns(has_cjk(plain))[0]):
            return False
        folded = plain.casefold() if self.literals else ""
        return all(unaccented(literal).casefold() in folded for literal in self.literals)


def parse_query(text: str) -> SearchQuery:
    """Words and "phrases" -> SearchQuery; ValueError when nothing searchable is left.

    A word the index splits (snake_case, a/path, a CJK run) is a phrase of its parts; `*` after it
    makes its last part a prefix. A word that starts or ends with a symbol (C++, -Wall) must be in
    the text as typed (any case). A part with no letter or digit (🎉, ->), loose or in a phrase, is left out."""
    terms: list[tuple[str, bool]] = []
    words: list[tuple[str, bool]] = []
    phrases: list[tuple[list[str], bool]] = []
    literals: list[str] = []
    typed: list[str] = []
    left_out: list[str] = []
    for quoted, bare in _PARTS.findall(text):
        tokens = _TOKEN.findall(quoted if quoted else bare)
        left_out += [part for part in (quoted or bare).split() if not _TOKEN.search(part)]  # a phrase's too
        if not tokens:
            continue
        typed.append(quoted.strip() or bare.rstrip("*"))
        prefix = bool(bare) and bare.endswith("*")
        symbol = bare.rstrip("*").strip(_SENTENCE)
        literal = bool(symbol) and not (_TOKEN.match(symbol[0]) and _TOKEN.match(symbol[-1]))
        if literal:  # C++, -Wall, #123, __init__: the index keeps their letters; the text must show it as typed
            literals.append(symbol)
        for i, token in enumerate(tokens):
            if has_cjk(token):  # each character is a word in the index; the whole must be in the text
                literals.append(token)
                terms += [(piece, False) for piece in spaced_cjk(token).split()]
            else:
                terms.append((token, prefix and i == len(tokens) - 1))
                if len(tokens) == 1 and not literal:
                    words.append(terms[-1])
        if len(tokens) > 1:
            phrases.append((tokens, prefix))
    left = tuple(dict.fromkeys(left_out))
    if not terms:
        why = f"{WORDS_ONLY}, not {_listed(left)}" if left else "give a word of letters or digits"
        raise ValueError(f"nothing to search for: {why}")
    unique = list(dict.fromkeys(terms))
    fts = " ".join(f'"{t}"' + ("*" if p else "") for t, p in unique)
    return SearchQuery(fts, list(dict.fromkeys(words)), phrases, literals, tuple(dict.fromkeys(typed)), left)


def _letter(cjk: bool) -> str:
    """A letter or digit that the index keeps inside a word. A CJK character is a word of its own, but
    its ranges take milliseconds to compile: without `cjk`, for a text with none, they are left out."""
    return f"[^\\W_{CJK_CHARS}]" if cjk else r"[^\W_]"


def _phrase(tokens: list[str], prefix: bool, cjk: bool) -> re.Pattern[str]:
    """Tokens one after the other, apart by anything but letters and digits (or nothing, next to a CJK
    character, as the index splits them); the last a prefix or a whole word."""
    letter = _letter(cjk)
    body = re.escape(unaccented(tokens[0]))
    for before, token in pairwise(tokens):
        gap = r"[\W_]*" if has_cjk(before[-1]) or has_cjk(token[0]) else r"[\W_]+"
        body += gap + re.escape(unaccented(token))
    head = "" if has_cjk(tokens[0][0]) else f"(?<!{letter})"
    tail = f"{letter}*(?!{letter})" if prefix else ("" if has_cjk(tokens[-1][-1]) else f"(?!{letter})")
    return re.compile(head + body + tail, re.I)


def parse_since(value: str) -> int:
    """Epoch seconds from a date (2026-01-31), a date and time, or an age (12h, 3d, 2w, 6m, 1y)."""
    value = value.strip()
    if (age := age_seconds(value)) is not None:
        return int(time.time()) - age
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"not a date: {value!r} (try 2026-01-31, 2026-01-31T09:00 or 7d)") from None
    if moment.tzinfo is None:
        moment = _local(moment)  # a date the user typed is local time
    return int(moment.timestamp())


def _local(moment: datetime) -> datetime:
    """`moment` in the local time zone; in UTC at the ends of what a datetime holds (0001-01-01,
    9999-12-31), where the local offset would take it out of range: hours off, where no record is."""
    try:
        return moment.astimezone()
    except (ValueError, OverflowError):
        return moment.replace(tzinfo=UTC)


def parse_until(value: str) -> int:
    """Epoch seconds where a range ending at `value` stops: a date's whole day is in it."""
    stamp = parse_since(value)
    return stamp + 86400 if _DAY.match(value.strip()) else stamp


def snippet(text: str, query: SearchQuery, width: int = SNIPPET_CHARS) -> str:
    """A window of `text` around the first match, whitespace folded, controls made visible, matches marked."""
    text = text[:1_000_000]
    plain = unaccented(text)
    phrases, marker = query.patterns(has_cjk(plain))
    first = next((m for pattern in phrases if (m := pattern.search(plain))), None)
    first = first or marker.search(plain)
    start = max(0, first.start() - width // 3) if first else 0
    end = min(len(text), start + width)
    piece = visible_controls(" ".join(text[start:end].split()))  # inert: no escape reaches a terminal
    marked, done = [], 0
    for match in marker.finditer(unaccented(piece)):
        marked += [piece[done : match.start()], MARK_START, piece[match.start() : match.end()], MARK_END]
        done = match.end()
    marked.append(piece[done:])
    return ("…" if start > 0 else "") + "".join(marked) + ("…" if end < len(text) else "")


def opening(text: str, width: int = SNIPPET_CHARS) -> str:
    """The start of `text` as a snippet with nothing marked (a hit found by its filters alone)."""
    piece = visible_controls(" ".join(text[: 4 * width].split()))
    return piece[:width] + ("…" if len(piece) > width or len(text) > 4 * width else "")


def kinds_for(role: str | None, kind: str | None) -> list[int] | None:
    """Row kind codes allowed by a role and a kind filter (None: all)."""
    codes = set(range(len(ROW_KINDS)))
    if role:
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r}: user, assistant or tool")
        codes &= {i for i, r in enumerate(ROLES) if r == role}
    if kind:
        name = kind.replace(" ", "_").replace("-", "_")
        if name not in ROW_KINDS:
            raise ValueError(f"unknown kind {kind!r}: {', '.join(ROW_KINDS)}")
        codes &= {ROW_KINDS.index(name)}
    return None if len(codes) == len(ROW_KINDS) else sorted(codes)


def search(
    db: Any,
    roots: list[Path],
    query: str,
    *,
    limit: int = 50,
    project: str | None = None,
    role: str | None = None,
    kind: str | None = None,
    since: str | None = None,
    until: str | None = None,
    tool: str | None = None,
    errors_only: bool = False,
    stop: Callable[[], bool] | None = None,
) -> Hits:
    """Hits for `query` among the files under `roots`, newest first (`since` <= time < `until`), those
    without a time last (no date filter lets them through); with no words but a filter, every message the
    filters let through. ValueError for a bad filter. `stop` is asked now and then whether to give up: then
    SearchStopped is raised (a search on a big history may take seconds, and the query typed has changed)."""
    if not query.strip() and not any((project, role, kind, since, until, tool, errors_only)):
        raise ValueError("nothing to search for: give a word, or a filter")
    q = parse_query(query) if query.strip() else None
    where = _conditions(
        roots, q, project=project, role=role, kind=kind, since=since, until=until, tool=tool, errors_only=errors_only
    )
    if stop is not None:
        if stop():
            raise SearchStopped
        db.set_progress_handler(stop, STOP_STEPS)  # a true answer interrupts the statement under way
    try:
        found = _gather(db, _rows_by_time(db, where, q is not None, limit), q, limit, stop)
    except sqlite3.OperationalError as exc:
        if error_code(exc) == sqlite3.SQLITE_INTERRUPT:  # by `stop`
            raise SearchStopped from exc
        raise
    finally:
        if stop is not None:
            db.set_progress_handler(None, 0)
    found.left_out = q.left_out if q is not None else ()
    return found


class _Where(NamedTuple):
    """The conditions of a search: on a row and its text (`r`, `fts`), on its file (`f`); each with its arguments."""

    rows: list[str]
    row_args: list[Any]
    files: list[str]
    file_args: list[Any]


def _conditions(
    roots: list[Path],
    q: SearchQuery | None,
    *,
    project: str | None,
    role: str | None,
    kind: str | None,
    since: str | None,
    until: str | None,
    tool: str | None,
    errors_only: bool,
) -> _Where:
    """The SQL conditions a row (`r`), its text (`fts`) and its file (`f`) must meet, and their arguments:
    under `roots`, holding the query's words, let through by each filter. ValueError for a bad filter."""
    where = _Where([], [], [f"f.root IN ({','.join('?' * len(roots))})"], [str(r) for r in roots])
    if q is not None:
        where.rows.append("fts MATCH ?")
        where.row_args.append(q.fts)
    codes = kinds_for(role, kind)
    if codes is not None:
        where.rows.append(f"r.kind IN ({','.join(str(c) for c in codes)})")
    if project:
        pattern = "%" + project.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        where.files.append("(f.project LIKE ? ESCAPE '\\' OR f.folder LIKE ? ESCAPE '\\')")
        where.file_args.extend([pattern, pattern])
    if since:
        where.rows.append("r.ts >= ?")
        where.row_args.append(parse_since(since))
    if until:
        where.rows.append("r.ts < ?")
        where.row_args.append(parse_until(until))
    if tool:
        where.rows.append("r.tool = ? COLLATE NOCASE")
        where.row_args.append(tool)
    if errors_only:  # failed tool calls, and API errors
        where.rows.append(f"(r.err = 1 OR r.kind = {API_ERROR})")
    return where


#: What a search takes of each row: its id, where its text is, its time, its file's.
_COLUMNS = "r.off, r.kind, r.blk, r.tool, r.err, r.ts, f.path, f.folder, f.agent, f.facts"


def _select(where: _Where, words: bool) -> tuple[str, list[Any]]:
    """The query for one text database (`{s}`), and its arguments but the last two: the rows meeting `where` below a
    row id (the next argument), by falling row id, at most a number of them (the last)."""
    # by the FTS table's own row ids when there are words: it gives them in that order, unsorted
    texts, rowid = _texts(words)
    sql = (
        f"SELECT {rowid}, {_COLUMNS} FROM {texts} JOIN files f ON f.id = r.file"
        f" WHERE {' AND '.join(where.files + where.rows)} AND {rowid} < ? ORDER BY {rowid} DESC LIMIT ?"
    )
    return sql, where.file_args + where.row_args


def _select_by_time(where: _Where, words: bool) -> tuple[str, list[Any]]:
    """The query for one text database (`{s}`), and its arguments but the last four: the rows meeting `where` below a
    time and a row id at that time (the next three arguments: time, the same time, row id), newest first (then by
    falling row id), at most a number of them (the last). Sorted by their ids and times alone, the rest joined after."""
    texts, rowid = _texts(words)
    files = f"r.file IN (SELECT f.id FROM files f WHERE {' AND '.join(where.files)})"
    sql = (
        f"SELECT t.id, {_COLUMNS} FROM ("
        f"SELECT {rowid} AS id, coalesce(r.ts, 0) AS at FROM {texts} WHERE {' AND '.join([*where.rows, files])}"
        f" AND (coalesce(r.ts, 0) < ? OR (coalesce(r.ts, 0) = ? AND {rowid} < ?)) ORDER BY at DESC, id DESC LIMIT ?"
        ") t JOIN {s}.rows r ON r.id = t.id JOIN files f ON f.id = r.file ORDER BY t.at DESC, t.id DESC"
    )
    return sql, where.row_args + where.file_args


def _texts(words: bool) -> tuple[str, str]:
    """The tables a search reads, and the row id it goes by: the FTS table's, when there are words."""
    return ("{s}.fts JOIN {s}.rows r ON r.id = fts.rowid", "fts.rowid") if words else ("{s}.rows r", "r.id")


def _rows_by_time(db: Any, where: _Where, words: bool, limit: int) -> Iterator[tuple[Any, ...]]:
    """The rows meeting `where` in every text database, newest first (see newest_first), fetched a page at a time;
    past HELD_MAX rows held back, taken from each database in order of time from the newest again (those given
    already come again: _gather drops them, as it drops a row written twice)."""
    page = min(max(2 * limit, 100), 10_000)  # rows fetched at a time (any --limit fits SQLite's integers)
    schemas = text_schemas(db)
    sql, args = _select(where, words)
    shards = [_candidates(db, sql.format(s=schema), args, page) for schema in schemas]
    try:
        yield from newest_first(heapq.merge(*shards, key=itemgetter(0), reverse=True), _reads(db, schemas), HELD_MAX)
    except _HeldTooMany:
        sql, args = _select_by_time(where, words)
        timed = [_timed_candidates(db, sql.format(s=schema), args) for schema in schemas]
        yield from heapq.merge(*timed, key=_time_order, reverse=True)


def _gather(
    db: Any, rows: Iterator[tuple[Any, ...]], q: SearchQuery | None, limit: int, stop: Callable[[], bool] | None
) -> Hits:
    """The newest `limit` hits of `rows` (given newest first), a row written twice (a worker killed
    mid-write) once; cut short after MAX_REJECTED rows whose text lacks a phrase or a word as written.
    SearchStopped when `stop` says so (asked every STOP_ROWS rows)."""
    found = Hits()
    rejected = 0
    hits: list[tuple[int, str, int, SearchHit]] = []
    sessions: dict[str, tuple[str, str, str]] = {}
    seen: set[tuple[str, int, int, int]] = set()
    with _Lines() as lines:
        for n, row in enumerate(rows):
            if stop is not None and n % STOP_ROWS == STOP_ROWS - 1 and stop():
                raise SearchStopped
            if len(hits) >= limit and (row[6] or 0) < hits[-1][0]:
                break  # the hits of the last second are all in: their order is by the exact timestamp
            if (part := (row[7], row[1], row[2], row[3])) in seen:
                continue
            seen.add(part)
            hit = _hit(db, row, q, lines, sessions)
            if hit is not None:
                hits.append((row[6] or 0, hit.timestamp or "", row[0], hit))
            elif (rejected := rejected + 1) >= MAX_REJECTED:
                found.cut_short = True  # the hits so far are the newest: rows come in order of time
                break
    hits.sort(key=lambda h: h[:3], reverse=True)
    found.extend(h[3] for h in hits[:limit])
    return found


def newest_first(
    rows: Iterator[tuple[Any, ...]], reads: list[tuple[int, int]], held_max: int
) -> Iterator[tuple[Any, ...]]:
    """`rows` (rowid first, timestamp at [6]), given by falling rowid, in order of time, newest first.

    Row ids follow the order text was read, not its time: a session read last holds old messages
    too. `reads` (lowest row id, newest timestamp of each read of a file, by rising id) bound what
    rows not yet seen can hold, so a row is given once no later one can be newer; only the rows
    of the reads that overlap the newest hits in time are taken from the database. Raises
    _HeldTooMany when more than `held_max` rows wait for that.
    """
    starts = [lo for lo, _ in reads]
    newest_below = list(accumulate((ts or 0 for _, ts in reads), max))  # [i]: newest of reads 0..i
    held: list[tuple[int, int, tuple[Any, ...]]] = []
    for row in rows:
        # rows not seen yet have ids up to this one's: they belong to the reads starting at or below it
        i = bisect_right(starts, row[0]) - 1
        bound = newest_below[i] if i >= 0 else 0
        while held and -held[0][0] >= bound:
            yield heapq.heappop(held)[2]
        heapq.heappush(held, (-(row[6] or 0), -row[0], row))
        if len(held) > held_max:
            raise _HeldTooMany
    while held:
        yield heapq.heappop(held)[2]


class _HeldTooMany(Exception):
    """newest_first would hold back more rows than it may."""


def _time_order(row: tuple[Any, ...]) -> tuple[int, int]:
    return row[6] or 0, row[0]


def _timed_candidates(db: Any, sql: str, args: list[Any]) -> Iterator[tuple[Any, ...]]:
    """The rows of one text database matching, newest first (then by falling row id), TIMED_PAGE at a time."""
    ts = below = 1 << 62
    while True:
        rows = db.execute(sql, [*args, ts, ts, below, TIMED_PAGE]).fetchall()
        yield from rows
        if len(rows) < TIMED_PAGE:
            return
        ts, below = _time_order(rows[-1])


def _reads(db: Any, schemas: list[str]) -> list[tuple[int, int]]:
    """(lowest row id, newest timestamp) of every read of a file, by rising id."""
    return sorted(pair for schema in schemas for pair in db.execute(f"SELECT lo, ts FROM {schema}.reads"))


def _candidates(db: Any, sql: str, args: list[Any], page: int) -> Iterator[tuple[Any, ...]]:
    """The rows of one text database matching, by falling row id, a page at a time."""
    below = 1 << 62
    while True:
        rows = db.execute(sql, [*args, below, page]).fetchall()
        yield from rows
        if len(rows) < page:
            return
        below = rows[-1][0]


def _hit(
    db: Any, row: tuple[Any, ...], q: SearchQuery | None, lines: _Lines, sessions: dict[str, tuple[str, str, str]]
) -> SearchHit | None:
    _, off, kind, stored, tool, err, _, path, folder, agent, facts_blob = row
    record, blk = line_block(stored)
    text, obj = _part(lines, path, off, record, kind, blk)
    if q is not None and (q.phrases or q.literals) and (text is None or not q.accepts(text)):
        return None
    if obj is not None and _copy_of_a_transcript(obj, path):
        return None  # the subagent's own file holds it, and is searched
    facts = orjson.loads(facts_blob) if facts_blob else {}
    session_path = Path(session_file(folder, owner_of(path, facts) or Path(path).stem)) if agent else Path(path)
    if agent and str(session_path) not in sessions and not session_path.is_file() and owning_folder(path) is None:
        session_path = Path(path)  # a subagent's transcript beside sessions, whose session file is gone: itself
    if str(session_path) not in sessions:
        sessions[str(session_path)] = _session_facts(db, str(session_path), facts)
    session_id, title, project = sessions[str(session_path)]
    stamp = obj.get("timestamp") if obj else None
    uuid = obj.get("uuid") if obj else None
    call_id = _call_id(obj, blk) if obj and ROW_KINDS[kind].startswith("tool") else None
    return SearchHit(
        session_id=session_id,
        path=session_path,
        project=project,
        title=title,
        message_uuid=uuid if isinstance(uuid, str) else None,
        role=ROLES[kind],
        kind=ROW_KINDS[kind],
        tool=tool,
        timestamp=stamp if isinstance(stamp, str) and plausible(stamp) else None,
        snippet=(snippet(text, q) if q is not None else opening(text)) if text else "",
        file=Path(path),
        offset=off,
        is_error=bool(err) or kind == API_ERROR,
        call_id=call_id,
        terms=q.terms if q is not None else (),
    )


def _copy_of_a_transcript(obj: dict[str, Any], path: str) -> bool:
    """A subagent's record copied into a progress record of the session file `path`, when the subagent has its own
    transcript too (which the index reads, as the session does)."""
    if copied_record(obj) is None:
        return False
    agent_id = obj["data"].get("agentId")
    return isinstance(agent_id, str) and bool(agent_id) and has_transcript(path, agent_id)


def _call_id(obj: dict[str, Any], block: int) -> str | None:
    """The tool_use id of content block `block` of a record (a tool_use or a tool_result; of a progress record, of
    the subagent's record it holds a copy of)."""
    items = content_items(record_content(copied_record(obj) or obj))[0]  # as the index numbered them
    item = items[block] if 0 <= block < len(items) else None
    value = (item.get("id") or item.get("tool_use_id")) if isinstance(item, dict) else None
    return value if isinstance(value, str) else None


def _session_facts(db: Any, path: str, fallback: dict[str, Any]) -> tuple[str, str, str]:
    """(session id, title, project) of a session file, from the index."""
    row = db.execute("SELECT folder, facts FROM files WHERE path=?", (path,)).fetchone()
    facts = orjson.loads(row[1]) if row and row[1] else fallback
    leaves = [*facts.get("leaves", ()), facts.get("last_uuid")]
    found: dict[str, str] = {}
    if row and any(leaves):
        marks = ",".join("?" * len(leaves))
        sql = f"SELECT leaf, summary FROM summaries WHERE folder=? AND leaf IN ({marks}) ORDER BY rowid"
        found.update(db.execute(sql, [row[0], *leaves]))  # of a leaf's several: the last written
    cwds = facts.get("cwds") or []
    session_id = own_session_id(Path(path).stem, facts.get("sids") or ())
    return session_id, title_of(facts, found), cwds[0] if cwds else _project_of(db, Path(path).parent)


def _project_of(db: Any, folder: Path) -> str:
    """The path of the project in `folder`, from its sessions (as the library names it)."""
    sql = "SELECT facts FROM files WHERE folder=? AND NOT agent AND facts IS NOT NULL"
    everyone = [orjson.loads(blob).get("cwds") or [] for (blob,) in db.execute(sql, (str(folder),))]
    return project_path(folder.name, [c for cwds in everyone for c in cwds], [cwds[0] for cwds in everyone if cwds])


class _Lines:
    """Reads single lines of session files by offset, keeping each file open for the search."""

    def __init__(self) -> None:
        self.fds: dict[str, int | None] = {}

    def __enter__(self) -> _Lines:
        return self

    def __exit__(self, *_: object) -> None:
        for fd in self.fds.values():
            if fd is not None:
                os.close(fd)

    def read(self, path: str, off: int) -> bytes | None:
        if path not in self.fds:
            try:
                self.fds[path] = open_readonly(path)
            except ReadError:
                self.fds[path] = None
        fd = self.fds[path]
        if fd is None:
            return None
        chunks: list[bytes] = []
        pos = off
        while True:
            chunk = os.pread(fd, 65536 if not chunks else 1 << 20, pos)
            if not chunk:
                break
            cut = chunk.find(b"\n")
            if cut >= 0:
                chunks.append(chunk[:cut])
                break
            chunks.append(chunk)
            pos += len(chunk)
        return b"".join(chunks)


def _part(
    lines: _Lines, path: str, off: int, record: int, kind: int, blk: int
) -> tuple[str | None, dict[str, Any] | None]:
    """The full text of one row, and its record (the `record`-th of its line), read back from the file."""
    data = lines.read(path, off)
    if not data:
        return None, None
    try:
        objects = [orjson.loads(data)]
    except orjson.JSONDecodeError:
        objects = parse_line(data).objects
    obj = objects[record] if record < len(objects) else None
    if not isinstance(obj, dict):
        return None, None
    for k, b, text in record_texts(obj, path):
        if k == kind and b == blk:
            return searchable(text), obj  # as the index holds it
    return None, None
