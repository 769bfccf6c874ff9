"""The usage kept between the usage screen's counts (usage_feed.py): after every kind of change to a history it gives
what a whole read gives (load_usage), and it reads whole only where a change cannot be told apart."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from claude_tui.core.index.store import Index
from claude_tui.core.index.usage import file_stamps
from claude_tui.core.usage_feed import UsageFeed
from claude_tui.core.usage_figures import Figures, figures
from claude_tui.core.usage_report import Period, Usage, load_usage
from tests.core import layout_data as real
from tests.core.test_usage_report import at, spend
from tests.library_data import EPOCH, Writer, encode

PROJECT = "/home/u/proj"
EPOCH_S = EPOCH.timestamp()
NOW = at("2026-12-02T15:00:00+00:00")


def spends(usage: Usage) -> list[str]:
    return sorted(map(repr, usage.spends))


class History:
    """A history, its index, a feed of its usage, and a check of the feed against a whole read at each change.
    `kept`: the feed is kept in a file between reads and taken back from it (as the `usage` command keeps it)."""

    def __init__(self, tmp_path: Path, kept: bool = False) -> None:
        self.root = tmp_path / "projects"
        self.folder = self.root / encode(PROJECT)
        self.folder.mkdir(parents=True)
        self.index = Index(tmp_path / "cache", [self.root])
        self.feed = UsageFeed([self.root])
        self.kept = kept

    def check(self, whole: bool) -> Usage:
        """Bring the index up to date; the feed's usage must be a whole read's, read whole (or not) as `whole` says."""
        self.index.update([self.root])
        if self.kept and self.feed.state is not None:
            report, _, rest = self.feed.dump().partition(b"\n")  # as kept_usage keeps it: the report, then the rest
            taken = UsageFeed.taken([self.root], orjson.loads(report), rest)
            assert taken is not None and taken.state == self.feed.state
            assert [repr(s) for s in taken.usage().spends] == [repr(s) for s in self.feed.usage().spends]
            taken.whole_reads = self.feed.whole_reads
            self.feed = taken
        before = self.feed.whole_reads
        usage = self.feed.read(self.index)
        assert spends(usage) == spends(load_usage(self.index, [self.root]))
        fresh = UsageFeed([self.root]).read(self.index)
        assert [repr(s) for s in usage.spends] == [repr(s) for s in fresh.spends]  # in the same order too
        assert self.feed.whole_reads - before == int(whole)
        return usage


def session(folder: Path, sid: str, start: int, *outputs: int, cwd: str = PROJECT) -> tuple[Writer, Path]:
    w = Writer(sid, cwd, start)
    w.prompt("go")
    for out in outputs:
        w.answer(out=out)
    return w, w.write(folder)


@pytest.mark.parametrize("kept", [False, True])
def test_each_change_reads_only_the_files_it_touched(tmp_path: Path, kept: bool) -> None:
    h = History(tmp_path, kept)
    w, path = session(h.folder, "a", 0, 10, 20)
    session(h.folder, "b", 5000, 7)
    assert h.check(whole=True).total().total.tokens.output == 37  # the first read
    assert h.check(whole=False).total().total.tokens.output == 37  # nothing changed

    w.answer(out=300)
    w.append(path, len(w.records) - 1)  # a live session goes on
    assert h.check(whole=False).total().total.tokens.output == 337

    session(h.folder, "c", 9000, 4000)  # a new session
    other = h.root / encode("/home/u/other")
    session(other, "d", 9500, 50_000, cwd="/home/u/other")  # in a new project
    usage = h.check(whole=False)
    assert {p.name: p.total.tokens.output for p in usage.periods("project")} == {PROJECT: 4337, "/home/u/other": 50_000}

    agent = Writer("a", PROJECT, 100)
    agent.answer(out=600_000)
    (h.folder / "a" / "subagents").mkdir(parents=True)
    (h.folder / "a" / "subagents" / "agent-a1.jsonl").write_bytes(agent.lines())  # a subagent: its session's usage
    usage = h.check(whole=False)
    assert {p.name: p.total.tokens.output for p in usage.periods("session")}["a"] == 600_330

    w.records[-1]["message"]["usage"] = {"output_tokens": 1}
    path.write_bytes(w.lines())  # rewritten, smaller: a new file under a new id, the old one gone
    assert h.check(whole=False).total().total.tokens.output == 600_000 + 31 + 7 + 4000 + 50_000
    (h.folder / "b.jsonl").unlink()
    assert h.check(whole=False).total().total.tokens.output == 600_000 + 31 + 4000 + 50_000


@pytest.mark.parametrize("kept", [False, True])
def test_a_subagent_that_comes_before_its_session_moves_to_it_when_it_comes(tmp_path: Path, kept: bool) -> None:
    """A flat 2.0 transcript belongs to the session its records name once that session's file is there: the file
    that changed is the session's, but the subagent's spends move too."""
    h = History(tmp_path, kept)
    agent = Writer("s1", PROJECT, 100)
    agent.answer(out=5)
    (h.folder / "agent-a1b2c3d4.jsonl").write_bytes(agent.lines())
    before = h.check(whole=True)
    session(h.folder, "s1", 0, 10)
    after = h.check(whole=False)
    assert {p.name for p in before.periods("session")} != {p.name for p in after.periods("session")}
    assert {p.name: p.total.tokens.output for p in after.periods("session")} == {"s1": 15}


@pytest.mark.parametrize("kept", [False, True])
def test_a_project_renamed_by_a_new_files_working_folder_renames_its_old_files_spends(
    tmp_path: Path, kept: bool
) -> None:
    """A folder's project path is told from its files' working folders: a file that tells it better renames the
    project of every file there."""
    h = History(tmp_path, kept)
    folder = h.root / encode("/home/u/a-b")
    session(folder, "x", 0, 10, cwd="/somewhere/else")
    before = {p.name for p in h.check(whole=True).periods("project")}
    session(folder, "y", 100, 20, cwd="/home/u/a-b")
    after = h.check(whole=False)
    assert {p.name: p.total.tokens.output for p in after.periods("project")} == {"/home/u/a-b": 30}
    assert before != {"/home/u/a-b"}


@pytest.mark.parametrize(("change", "whole"), [("another copy", False), ("origin grows", False), ("copy gone", True)])
@pytest.mark.parametrize("kept", [False, True])
def test_messages_that_several_files_hold_are_read_again_with_every_file_holding_them(
    change: str, whole: bool, kept: bool, real_projects: Path, tmp_path: Path
) -> None:
    """A record copied into another session's file counts once, in its own: a change to either may move its count,
    so the files that share it are read again together; a file removed that shared some has the history read whole."""
    h = History(tmp_path, kept)
    session(h.folder, "plain", 0, 1)
    h.check(whole=True)
    origin, copy = real.continued_sessions(h.root / "-x", real_projects)
    h.check(whole=False)  # the copy's message ids are held twice now
    actions: dict[str, Callable[[], None]] = {
        "another copy": lambda: real.background_copy(h.root / "-home-nick-work-libnn"),
        "origin grows": lambda: _grow(origin),
        "copy gone": copy.unlink,
    }
    actions[change]()
    h.check(whole=whole)
    session(h.folder, "later", 99_000, 2)
    h.check(whole=False)  # and a change to another file is read alone again


def test_an_origin_that_comes_after_its_copy_takes_its_messages_from_the_copy(
    real_projects: Path, tmp_path: Path
) -> None:
    """A `--continue` copy read before the session it copied (a history copied over in pieces): the copied message
    counts in the copy until its origin comes, then in its origin only. The copy did not change: it is read again
    because it shares the message."""
    h = History(tmp_path)
    origin, _ = real.continued_sessions(h.root / "-x", real_projects)
    kept = origin.read_bytes()
    origin.unlink()
    before = {p.name: p.total.tokens.output for p in h.check(whole=True).periods("session")}
    origin.write_bytes(kept)
    after = {p.name: p.total.tokens.output for p in h.check(whole=False).periods("session")}
    assert before == {real.CONTINUED_SID: 5 + 77 + 18}
    assert after == {real.ORIGIN_SID: 5, real.CONTINUED_SID: 77 + 18}


@pytest.mark.parametrize("kept", [False, True])
def test_a_side_questions_session_that_goes_on_is_read_with_its_replays(tmp_path: Path, kept: bool) -> None:
    """The real /btw transcripts replay their session's messages: each append to the session reads its file and
    theirs again, not the history."""
    h = History(tmp_path, kept)
    session(h.folder, "plain", 0, 1)
    main, _ = real.side_question_session(h.root / "-home-nick-work-libnn")
    h.check(whole=True)
    for _ in range(2):
        _grow(main)
        h.check(whole=False)


def test_a_files_stamp_is_the_same_in_every_process(tmp_path: Path) -> None:
    """The `usage` command keeps the files' stamps between runs: processes with other hash seeds find them the same."""
    h = History(tmp_path)
    session(h.folder, "a", 0, 10)
    session(h.folder, "b", 100, 20)
    h.index.update([h.root])
    here = h.index.read([h.root], lambda db: file_stamps(db, [str(h.root)]))
    script = (
        "import sqlite3, sys; from claude_tui.core.index.usage import file_stamps; "
        "print(sorted(file_stamps(sqlite3.connect(sys.argv[1]), [sys.argv[2]]).items()))"
    )
    found = [
        subprocess.run(
            [sys.executable, "-c", script, str(h.index.path), str(h.root)],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    ]
    assert len(here) == 2 and found == [f"{sorted(here.items())}\n"] * 2


def _grow(path: Path) -> None:
    records = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    with open(path, "ab") as f:
        f.write(orjson.dumps({**records[-1], "uuid": "00000000-0000-4000-8000-0000000000fe"}) + b"\n")


# ---------------------------------------------------------------- the figures counted again from those shown


def shown(f: Figures) -> list[object]:
    """Everything the screen shows of its figures, and the spends of each period it lists."""

    def period(p: Period | None) -> object:
        if p is None:
            return None
        listed = sorted(map(repr, p.sessions)), sorted(map(repr, p.spends))  # in the order they came: not shown
        return (p.name, p.total, p.messages, p.first, p.last, *listed)

    return [
        {report: [period(p) for p in periods] for report, periods in f.recent.items()},
        [(period(p), share) for p, share in f.projects],
        [(period(p), share) for p, share in f.models],
        period(f.block),
        f.block.running if f.block else None,
    ]


@pytest.mark.parametrize("seed", range(6))
def test_figures_counted_from_those_shown_are_those_counted_anew(seed: int, tmp_path: Path) -> None:
    """Random changes to a history of a few projects and models, around now (days, weeks, months and blocks that
    begin and end): after each, the figures patched from the last are those of the whole usage."""
    rng = random.Random(seed)
    h = History(tmp_path)
    now = NOW
    models = ["claude-sonnet-4-5-20250929", "claude-opus-4-6", "claude-haiku-4-5-20251001", "model-with-no-price"]
    writers: dict[str, tuple[Writer, Path]] = {}

    def answer(w: Writer) -> None:
        w.clock = (
            int(now - EPOCH_S) - rng.randrange(0, 40 * 86400)
            if rng.random() < 0.3
            else w.clock + rng.choice([30, 900, 3600, 6 * 3600])
        )
        w.answer(out=rng.randrange(1, 5000), model=rng.choice(models))

    for i in range(6):
        cwd = f"/home/u/p{i % 3}"
        w = Writer(f"s{i}", cwd, int(now - EPOCH_S) - rng.randrange(0, 60 * 86400))
        w.prompt("go")
        answer(w)
        writers[w.chain.session_id] = (w, w.write(h.root / encode(cwd)))
    usage = h.check(whole=True)
    before = figures(usage, now)
    for step in range(12):
        action = rng.random()
        if action < 0.6:  # a session goes on
            w, path = writers[rng.choice(sorted(writers))]
            start = len(w.records)
            for _ in range(rng.randrange(1, 4)):
                answer(w)
            w.append(path, start)
        elif action < 0.8:  # a new one
            cwd = f"/home/u/p{rng.randrange(4)}"
            w = Writer(f"n{step}", cwd, int(now - EPOCH_S) - rng.randrange(0, 3 * 86400))
            w.prompt("go")
            answer(w)
            writers[w.chain.session_id] = (w, w.write(h.root / encode(cwd)))
        else:  # one removed
            sid = rng.choice(sorted(writers))
            writers.pop(sid)[1].unlink()
        now += rng.choice([60, 3600, 86400, 8 * 86400])
        usage = h.check(whole=False)
        change = h.feed.change(before.usage, usage)
        assert change is not None
        after = figures(usage, now, before, change)
        assert shown(after) == shown(figures(usage, now))
        before = after
    assert h.feed.change(before.usage, UsageFeed([h.root]).read(h.index)) is None  # another read's: none to patch


def test_a_period_patched_is_new_and_the_one_shown_stays_as_it_was() -> None:
    a, b, c = (spend(f"2026-03-0{d}T10:00:00+00:00", output=d) for d in (1, 2, 3))
    period = Period("p", [a, b])
    patched = period.patched([a], [c])
    assert (period.total.tokens.output, len(period.spends)) == (3, 2)
    assert (patched.total.tokens.output, patched.first, patched.spends) == (5, b.first, [b, c])
    with pytest.raises(ValueError):
        period.patched([c], [])
