"""The usage report's core: days, weeks and months in any time zone, 5-hour blocks, shares and the sessions of a
period (usage_report.py), and the index's sums that feed it, each message counted once (index/usage.py)."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import orjson
import pytest

from claude_tui.core.files import sibling_summaries
from claude_tui.core.index.store import Index
from claude_tui.core.index.usage import read_usage
from claude_tui.core.stats import tally_file
from claude_tui.core.usage import Tokens
from claude_tui.core.usage_report import Period, SessionRef, Spend, Usage, file_sessions, load_usage
from tests.core import layout_data as real
from tests.library_data import Writer, encode

SONNET = "claude-sonnet-4-5-20250929"
OPUS = "claude-opus-4-6"
ALPHA = SessionRef("/p/-home-u-alpha/a.jsonl", "a", "/home/u/alpha")
UTC_ZONE = ZoneInfo("UTC")
BETA = SessionRef("/p/-home-u-beta/b.jsonl", "b", "/home/u/beta")


def at(stamp: str) -> int:
    return int(datetime.fromisoformat(stamp).timestamp())


def spend(stamp: str, output: int = 1000, key: str | None = SONNET, session: SessionRef = ALPHA) -> Spend:
    """One message's usage at `stamp` (UTC unless it says otherwise), in its quarter hour."""
    moment = at(stamp)
    return Spend(session, moment - moment % 900, key, 1, Tokens(input=10, output=output), moment, moment)


def names(periods: list[Period]) -> list[tuple[str, int]]:
    return [(p.name, p.total.tokens.output) for p in periods]


# ---------------------------------------------------------------- days, weeks, months


def test_a_message_belongs_to_the_day_of_its_time_in_the_reports_zone() -> None:
    spends = [spend("2026-03-07T23:30:00+00:00", 1), spend("2026-03-08T03:00:00+00:00", 2)]
    assert names(Usage(spends, UTC).periods("daily")) == [("2026-03-07", 1), ("2026-03-08", 2)]
    assert names(Usage(spends, ZoneInfo("America/New_York")).periods("daily")) == [("2026-03-07", 3)]
    assert names(Usage(spends, ZoneInfo("Asia/Tokyo")).periods("daily")) == [("2026-03-08", 3)]


def test_days_across_a_change_of_the_clocks() -> None:
    """New York's clocks went forward at 07:00 UTC on 2026-03-08 and back at 06:00 UTC on 2026-11-01: midnight is
    05:00 UTC before the first, 04:00 UTC between them and 05:00 UTC again after."""
    new_york = ZoneInfo("America/New_York")
    spends = [
        spend("2026-03-08T04:59:00+00:00", 1),  # 23:59 EST, on the 7th
        spend("2026-03-08T05:00:00+00:00", 2),  # 00:00 EST: the 8th
        spend("2026-03-09T03:59:00+00:00", 4),  # 23:59 EDT, still the 8th (a day of 23 hours)
        spend("2026-03-09T04:00:00+00:00", 8),  # 00:00 EDT: the 9th
        spend("2026-11-01T05:30:00+00:00", 16),  # 01:30 EDT, then 01:30 EST an hour later: both the 1st
        spend("2026-11-01T06:30:00+00:00", 32),
        spend("2026-11-02T04:59:00+00:00", 64),  # 23:59 EST: a day of 25 hours
        spend("2026-11-02T05:00:00+00:00", 128),
    ]
    assert names(Usage(spends, new_york).periods("daily")) == [
        ("2026-03-07", 1), ("2026-03-08", 2 + 4), ("2026-03-09", 8), ("2026-11-01", 16 + 32 + 64), ("2026-11-02", 128)
    ]  # fmt: skip


@pytest.mark.parametrize("zone", ["Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Chatham", "America/St_Johns"])
def test_quarter_hours_lose_no_day_in_any_zone(zone: str, tmp_path: Path) -> None:
    """The index sums usage per quarter hour: every zone's offset (+5:45, +10:30, +12:45, -3:30) and every change of
    its clocks falls on one, so a quarter hour's messages all have the same day there. Messages a minute either
    side of each midnight of a year (its clocks' changes included), through the index."""
    tz = ZoneInfo(zone)
    first = datetime(2026, 1, 1, tzinfo=tz)
    midnights = [int((first + timedelta(days=d)).timestamp()) for d in range(366)]
    moments = sorted({m + shift for m in midnights for shift in (-60, 0, 59)})
    w = Writer("sess", "/home/u/proj")
    for moment in moments:
        w.clock = moment - int(datetime(2026, 1, 5, 9, tzinfo=UTC).timestamp()) - 1
        w.answer(out=1)
    w.write(tmp_path / "projects" / encode("/home/u/proj"))
    expected: dict[str, int] = {}
    for m in moments:
        day = datetime.fromtimestamp(m, tz).date().isoformat()
        expected[day] = expected.get(day, 0) + 1
    assert names(_usage(tmp_path / "projects", tmp_path / "cache", tz).periods("daily")) == sorted(expected.items())


def test_local_time_is_the_default_zone(zone: Callable[[str], None]) -> None:
    zone("Asia/Tokyo")
    assert names(Usage([spend("2026-03-07T23:30:00+00:00")]).periods("daily")) == [("2026-03-08", 1000)]
    assert Usage([]).moment(at("2026-03-07T23:30:00+00:00")).isoformat() == "2026-03-08T08:30:00+09:00"


def test_weeks_are_iso_weeks_and_months_calendar_months() -> None:
    spends = [
        spend("2026-12-27T12:00:00+00:00", 1),  # a Sunday: week 52 of 2026
        spend("2026-12-28T12:00:00+00:00", 2),  # Monday: week 53
        spend("2027-01-03T12:00:00+00:00", 4),  # Sunday: still week 53 of 2026
        spend("2027-01-04T12:00:00+00:00", 8),  # week 1 of 2027
    ]
    usage = Usage(spends, UTC)
    assert names(usage.periods("weekly")) == [("2026-W52", 1), ("2026-W53", 2 + 4), ("2027-W01", 8)]
    assert names(usage.periods("monthly")) == [("2026-12", 1 + 2), ("2027-01", 4 + 8)]


def test_recent_periods_end_at_now_and_keep_the_empty_ones() -> None:
    usage = Usage([spend("2026-02-26T10:00:00+00:00", 1), spend("2026-03-01T10:00:00+00:00", 2)], UTC)
    now = at("2026-03-02T08:00:00+00:00")
    assert names(usage.recent("daily", 5, now)) == [
        ("2026-02-26", 1), ("2026-02-27", 0), ("2026-02-28", 0), ("2026-03-01", 2), ("2026-03-02", 0)
    ]  # fmt: skip
    assert names(usage.recent("weekly", 2, now)) == [("2026-W09", 1 + 2), ("2026-W10", 0)]
    assert names(usage.recent("monthly", 3, now)) == [("2026-01", 0), ("2026-02", 1), ("2026-03", 2)]


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Kiritimati", "America/Adak", "Australia/Lord_Howe"])
def test_recent_periods_hold_what_the_whole_historys_periods_hold(zone: str) -> None:
    """The recent periods are made of the spends near them only: each holds what it holds among the periods of the
    whole history, in zones a day apart and one whose clock moves by half an hour, at every edge of a month."""
    start = at("2025-10-01T00:00:00+00:00")
    usage = Usage(
        [spend(datetime.fromtimestamp(start + i * 4999, UTC).isoformat(), i) for i in range(3000)], ZoneInfo(zone)
    )
    whole = {report: {p.name: p for p in usage.periods(report)} for report in ("daily", "weekly", "monthly")}
    for day in range(0, 200, 3):
        now = start + day * 86400 + 3600 * (day % 24)
        for report, count in (("daily", 30), ("weekly", 12), ("monthly", 12)):
            recent = usage.recent(report, count, now)
            expected = [(p.name, (whole[report].get(p.name) or Period(p.name)).total.tokens.output) for p in recent]
            assert names(recent) == expected and len(recent) == count


def test_since_and_until_are_days_of_the_zone_both_included() -> None:
    spends = [spend(f"2026-03-0{d}T02:00:00+00:00", d) for d in range(1, 6)]
    usage = Usage(spends, ZoneInfo("America/New_York"))  # 02:00 UTC is the evening before there
    assert names(usage.where(date(2026, 3, 2), date(2026, 3, 3)).periods("daily")) == [
        ("2026-03-02", 3), ("2026-03-03", 4)
    ]  # fmt: skip


def test_messages_with_no_time_count_in_sessions_not_in_days() -> None:
    untimed = Spend(ALPHA, None, SONNET, 2, Tokens(output=7), None, None)
    usage = Usage([spend("2026-03-01T10:00:00+00:00", 1), untimed], UTC)
    assert names(usage.periods("daily")) == [("2026-03-01", 1)]
    assert names(usage.periods("session")) == [("a", 8)]
    assert usage.untimed == 2


# ---------------------------------------------------------------- cost, models, projects, sessions


def test_a_model_with_no_price_has_no_cost_and_is_named() -> None:
    usage = Usage([spend("2026-03-01T10:00:00+00:00", key="glm-5"), spend("2026-03-02T10:00:00+00:00")], UTC)
    first, second = usage.periods("daily")
    assert (first.total.cost, first.total.unpriced_models) == (None, frozenset({"glm-5"}))
    assert second.total.cost == pytest.approx((10 * 3 + 1000 * 15) / 1e6) and not second.total.unpriced_models
    whole = usage.total().total
    assert whole.cost == second.total.cost and whole.unpriced_models == {"glm-5"}


def test_long_context_requests_count_under_their_model() -> None:
    """Sonnet 4.5 bills a request of over 200k input tokens at other rates: summed apart, shown with its model."""
    long = Spend(ALPHA, 0, SONNET + " (long context)", 1, Tokens(input=250_000, output=100), 0, 0)
    (day,) = Usage([spend("1970-01-01T00:00:00+00:00", 100), long], UTC).periods("daily")
    (model,) = day.models()
    assert model == SONNET
    assert day.models()[SONNET].cost == pytest.approx((10 * 3 + 100 * 15 + 250_000 * 6 + 100 * 22.5) / 1e6)


def test_projects_and_models_by_share_and_the_sessions_of_each() -> None:
    spends = [
        spend("2026-03-01T10:00:00+00:00", 3000, OPUS, ALPHA),
        spend("2026-03-01T11:00:00+00:00", 1000, SONNET, BETA),
        spend("2026-03-02T10:00:00+00:00", 1000, SONNET, ALPHA),
    ]
    usage = Usage(spends, UTC)
    projects = usage.shares("project")
    assert [(p.name, round(share, 3)) for p, share in projects] == [("/home/u/alpha", 0.857), ("/home/u/beta", 0.143)]
    assert [p.name for p, _ in usage.shares("model")] == [OPUS, SONNET]
    (sonnet,) = [p for p, _ in usage.shares("model") if p.name == SONNET]
    assert [s.session for s in usage.sessions(sonnet)] == [ALPHA, BETA]  # the costliest first; in a tie, the latest
    (day,) = usage.where(date(2026, 3, 1), date(2026, 3, 1)).periods("daily")
    assert [s.session for s in usage.sessions(day)] == [ALPHA, BETA]
    assert [s.session for s in usage.sessions(projects[1][0])] == [BETA]
    assert usage.where(project="BETA").total().sessions == {BETA: None}  # a part of the path, whatever the case


def test_shares_of_tokens_when_nothing_has_a_price() -> None:
    usage = Usage([spend("2026-03-01T10:00:00+00:00", 3, "glm-5"), spend("2026-03-01T10:00:00+00:00", 1, "kimi")])
    assert [(p.name, share) for p, share in usage.shares("model")] == [("glm-5", 13 / 24), ("kimi", 11 / 24)]


# ---------------------------------------------------------------- blocks


def test_a_block_starts_on_the_hour_of_the_first_message_after_the_last_block_ended() -> None:
    spends = [
        spend("2026-03-01T09:40:00+00:00", 1),  # a block 09:00-14:00
        spend("2026-03-01T13:59:00+00:00", 2),
        spend("2026-03-01T14:00:00+00:00", 4),  # ends it: the next 14:00-19:00
        spend("2026-03-02T02:15:00+00:00", 8),  # after a gap: 02:00-07:00
    ]
    blocks = Usage(spends, UTC).blocks(now=at("2026-03-05T00:00:00+00:00"))
    assert [(b.name, b.total.tokens.output, b.running) for b in blocks] == [
        ("2026-03-01T09:00:00+00:00", 1 + 2, False),
        ("2026-03-01T14:00:00+00:00", 4, False),
        ("2026-03-02T02:00:00+00:00", 8, False),
    ]
    assert [(b.end - b.start) for b in blocks] == [5 * 3600] * 3


@pytest.mark.parametrize("seed", range(20))
def test_the_last_block_is_the_last_of_all_the_blocks(seed: int) -> None:
    """Made from the spends after the last pause of 5 hours or more only, it is the one all of them end with."""
    rng = random.Random(seed)
    moment, spends = at("2026-03-01T00:00:00+00:00"), []
    for _ in range(rng.randint(1, 60)):
        moment += rng.choice([60, 900, 3600, 4 * 3600, 5 * 3600 - 900, 5 * 3600, 9 * 3600])
        spends.append(spend(datetime.fromtimestamp(moment, UTC).isoformat(), rng.randint(1, 9)))
    spends.append(UNTIMED)  # in no block
    rng.shuffle(spends)
    usage = Usage(spends, UTC)
    for now in (moment, moment + 3 * 3600, moment + 6 * 3600):
        last, block = usage.blocks(now)[-1], usage.last_block(now)
        assert block is not None
        assert (block.name, block.end, block.running, block.total.tokens.output) == (
            last.name, last.end, last.running, last.total.tokens.output
        )  # fmt: skip


#: A message with no time.
UNTIMED = Spend(ALPHA, None, SONNET, 1, Tokens(input=10, output=7), None, None)


def test_messages_with_no_time_make_no_block() -> None:
    usage = Usage([UNTIMED], UTC)
    assert usage.blocks(0) == [] and usage.last_block(0) is None


def test_the_running_block_has_a_burn_rate_and_where_it_ends_at_that_pace() -> None:
    spends = [spend("2026-03-01T09:40:00+00:00", 990), spend("2026-03-01T10:10:00+00:00", 990)]
    usage = Usage(spends, UTC)
    now = at("2026-03-01T10:40:00+00:00")  # an hour after the first message, 3h20 before the end
    block = usage.last_block(now)
    assert block is not None and block.running and block.name == "2026-03-01T09:00:00+00:00"
    burn = block.burn(now)
    assert burn is not None
    assert burn.tokens_per_minute == pytest.approx(2000 / 60)
    assert burn.minutes_left == 200
    assert burn.projected_tokens == 2000 + round(2000 / 60 * 200)
    cost = block.total.cost or 0
    assert burn.usd_per_hour == pytest.approx(cost) and burn.projected_usd == pytest.approx(cost * (1 + 200 / 60))
    ended = usage.last_block(at("2026-03-01T14:00:00+00:00"))
    assert ended is not None and ended.name == block.name and not ended.running
    assert usage.blocks(at("2026-03-01T14:00:00+00:00"))[0].burn(now) is None


def test_a_block_in_the_zone_names_its_start_with_the_offset() -> None:
    (block,) = Usage([spend("2026-07-01T09:40:00+00:00")], ZoneInfo("Asia/Kathmandu")).blocks(0)
    assert block.name == "2026-07-01T14:45:00+05:45"  # 09:00 UTC, the hour of the message


# ---------------------------------------------------------------- from the index


def _usage(root: Path, cache: Path, zone: ZoneInfo = UTC_ZONE) -> Usage:
    index = Index(cache, [root])
    index.update([root])
    return load_usage(index, [root], zone)


def test_streamed_chunks_count_once_and_a_message_that_grew_is_counted_at_its_largest(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    w = Writer("sess", "/home/u/proj")
    w.prompt("go")
    w.answer({"type": "text", "text": "a"}, {"type": "text", "text": "b"}, out=40)  # two chunks of one message
    path = w.write(root / encode("/home/u/proj"))
    assert _usage(root, tmp_path / "cache").total().total.tokens.output == 40
    mid = w.records[-1]["message"]["id"]
    w.records.append({**w.records[-1], "uuid": "00000000-0000-4000-8000-0000000000ff"})
    w.records[-1]["message"] = {**w.records[-1]["message"], "usage": {"input_tokens": 3, "output_tokens": 90}}
    w.append(path, len(w.records) - 1)  # its last chunk, read on from the offset
    usage = _usage(root, tmp_path / "cache")
    assert usage.total().total.tokens.output == 90 and usage.total().messages == 1
    db = sqlite3.connect(tmp_path / "cache" / "index.sqlite3")
    assert db.execute("SELECT messages, output FROM usage_sums").fetchall() == [(1, 90)]
    assert db.execute("SELECT output FROM usage WHERE mid=?", (mid,)).fetchall() == [(90,)]


def test_a_file_rewritten_or_deleted_takes_its_usage_with_it(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    folder = root / encode("/home/u/proj")
    w = Writer("sess", "/home/u/proj")
    w.prompt("go")
    w.answer(out=40)
    path = w.write(folder)
    other = Writer("other", "/home/u/proj", start=100)
    other.prompt("more")
    other.answer(out=7)
    other.write(folder)
    assert _usage(root, tmp_path / "cache").total().total.tokens.output == 47
    w.records[-1]["message"]["usage"] = {"output_tokens": 5}
    path.write_bytes(w.lines())  # rewritten, smaller: read again under a new id
    assert _usage(root, tmp_path / "cache").total().total.tokens.output == 12
    path.unlink()
    assert _usage(root, tmp_path / "cache").total().total.tokens.output == 7
    db = sqlite3.connect(tmp_path / "cache" / "index.sqlite3")
    for table in ("usage", "usage_sums"):
        assert db.execute(f"SELECT count(*) FROM {table} WHERE file NOT IN (SELECT id FROM files)").fetchone() == (0,)


def test_a_record_copied_into_another_session_counts_once_in_its_own(real_projects: Path, tmp_path: Path) -> None:
    """The real 1.0.56 pair: `--continue` copied the first session's answer ("lol", 5 output tokens) into the new
    file; and a 2.1 background copy of a session's chain."""
    root = tmp_path / "projects"
    real.continued_sessions(root / "-x", real_projects)
    real.background_copy(root / "-home-nick-work-libnn")
    sessions = {p.name: p.total.tokens.output for p in _usage(root, tmp_path / "cache").periods("session")}
    assert sessions == {real.ORIGIN_SID: 5, real.CONTINUED_SID: 77 + 18, real.BTW_SID: 100, real.BG_SID: 250}


def test_a_copy_not_known_as_one_counts_in_the_earliest_file(real_projects: Path, tmp_path: Path) -> None:
    """The same pair under the corpus's own names, no session ids: the copy is not known as one, and the message
    counts at its earliest time, in its first session (whichever file the index read first)."""
    source = real_projects / "__fixtures__"
    folder = tmp_path / "projects" / "__fixtures__"
    folder.mkdir(parents=True)
    for name in ("1-continue-run-ls-tool.jsonl", "0-say-lol-session.jsonl"):  # the copy written first here
        (folder / name).write_bytes((source / name).read_bytes())
    sessions = {
        p.name: p.total.tokens.output for p in _usage(tmp_path / "projects", tmp_path / "cache").periods("session")
    }
    assert sessions == {real.ORIGIN_SID: 5, real.CONTINUED_SID: 77 + 18}


def test_a_copy_whose_origin_is_gone_counts_where_it_is(real_projects: Path, tmp_path: Path) -> None:
    """Claude Code deletes old sessions: a message is then known from its copy only, and counts there."""
    root = tmp_path / "projects"
    origin, _ = real.continued_sessions(root / "-x", real_projects)
    origin.unlink()
    (session,) = _usage(root, tmp_path / "cache").periods("session")
    assert (session.name, session.total.tokens.output) == (real.CONTINUED_SID, 5 + 77 + 18)


def test_a_side_questions_replay_counts_once_with_the_fullest_chunk(tmp_path: Path) -> None:
    """The real /btw transcripts replay their session's messages; in one of them the session's file holds only a
    chunk streamed before the end (24 output tokens) and the replay the final one (555): the message counts once,
    with 555, in the session and at the time of its own file."""
    project = tmp_path / "projects" / "-home-nick-work-libnn"
    main, _ = real.side_question_session(project)
    lines = [orjson.loads(line) for line in main.read_bytes().splitlines()]
    lines[1]["message"]["usage"]["output_tokens"] = 24
    real.write(main, lines)
    usage = _usage(tmp_path / "projects", tmp_path / "cache")
    (session,) = usage.periods("session")
    assert session.session is not None and session.session.path == str(main)
    assert (session.total.tokens.output, session.messages) == (100 + 300, 2)
    assert session.first == at("2026-03-21T08:30:05+00:00")


def test_subagents_in_every_layout_count_in_their_session(tmp_path: Path) -> None:
    """1.0's inline sidechains, 2.0's flat agent-*.jsonl, 2.1's subagents/ and workflows, progress copies (2.1.31)
    alone and beside the subagent's own transcript: each message once, in its session."""
    root = tmp_path / "projects"
    project = root / "-home-u-proj"
    inline = Writer("inline", "/home/u/proj")
    inline.prompt("go")
    inline.answer(out=1)
    inline.records.append({**inline.records[-1], "isSidechain": True, "uuid": "00000000-0000-4000-8000-00000000a001",
                           "message": {**inline.records[-1]["message"], "id": "msg_sidechain"}})  # fmt: skip
    inline.write(project)
    _with_subagent(project, "flat", 100, (10, 100), project / "agent-a1b2c3d4.jsonl")
    _with_subagent(project, "nested", 200, (1000, 10_000), project / "nested" / "subagents" / "agent-a9.jsonl")
    workflows = real.workflow_session(project)
    progress = _progress_only(project)
    with_own = _progress_only(project, own_transcript=True)
    sessions = {p.name: p.total.tokens.output for p in _usage(root, tmp_path / "cache").periods("session")}
    expected_workflow = _stats_tokens(workflows)
    assert sessions == {
        "inline": 1 + 1,
        "flat": 10 + 100,
        "nested": 1000 + 10_000,
        workflows.stem: expected_workflow,
        progress.stem: _stats_tokens(progress),
        with_own.stem: _stats_tokens(with_own),
    }


def _with_subagent(project: Path, sid: str, start: int, outputs: tuple[int, int], transcript: Path) -> None:
    """A session that answered once, and its subagent's transcript at `transcript`, which answered once too."""
    session = Writer(sid, "/home/u/proj", start)
    session.prompt("go")
    session.answer(out=outputs[0])
    session.write(project)
    agent = Writer(sid, "/home/u/proj", start + 10)
    agent.answer(out=outputs[1])
    transcript.parent.mkdir(parents=True, exist_ok=True)
    transcript.write_bytes(agent.lines())


def _progress_only(project: Path, own_transcript: bool = False) -> Path:
    """tests/fixtures/agent_progress.jsonl (2.1.31: a Task's subagent copied into progress records), with or
    without the subagent's own transcript (then under another session id)."""
    lines = (Path(__file__).parents[1] / "fixtures" / "agent_progress.jsonl").read_bytes()
    sid = "0000000d-5e55-4000-8000-000000000000"
    if own_transcript:  # another session, its messages others
        sid = "0000000e-5e55-4000-8000-000000000000"
        lines = lines.replace(b"0000000d-5e55", b"0000000e-5e55").replace(b'"msg_1', b'"msg_9')
    records = [orjson.loads(line) for line in lines.splitlines()]
    path = real.write(project / f"{sid}.jsonl", records)
    if own_transcript:
        copies = [r["data"]["message"] for r in records if r["type"] == "progress"]
        own = [{**r, "isSidechain": True, "agentId": "a13c0ffee13c0ffee", "sessionId": sid} for r in copies]
        real.write(project / sid / "subagents" / "agent-a13c0ffee13c0ffee.jsonl", own)
    return path


def _stats_tokens(path: Path) -> int:
    """The output tokens `stats` counts for a session, its subagents included."""
    _, tally = tally_file(path)
    return tally.facts(sibling_summaries(path), None)["tokens_with_subagents"]["output"]


def test_messages_with_no_id_count_each_as_stats_counts_them(tmp_path: Path) -> None:
    """A message with no id cannot be told from another: each record counts, by its uuid, else its place."""
    w = Writer("noid", "/home/u/proj")
    w.prompt("go")
    for out in (4, 4, 5):
        w.answer(usage={"output_tokens": out})
        del w.records[-1]["message"]["id"]
    del w.records[-1]["uuid"]
    w.answer(usage={"output_tokens": 3})
    path = w.write(tmp_path / "projects" / encode("/home/u/proj"))
    usage = _usage(tmp_path / "projects", tmp_path / "cache")
    assert usage.total().total.tokens.output == _stats_tokens(path) == 4 + 4 + 5 + 3


# ---------------------------------------------------------------- the real corpus


def _raw_messages(root: Path) -> dict[str, dict[str, tuple[int, ...]]]:
    """Every assistant message of every file under `root`, read here with no help from claude-tui: by message id
    (else its record's uuid), the counts of its chunk with the most output tokens in each file that holds it, top
    level, inline or copied into a progress record."""
    found: dict[str, dict[str, tuple[int, ...]]] = {}
    for path in sorted(root.rglob("*.jsonl")):
        for line in path.read_bytes().splitlines():
            record = orjson.loads(line) if line.strip() else None
            if isinstance(record, dict) and record.get("type") == "progress":
                data = record.get("data")
                record = data.get("message") if isinstance(data, dict) else None
            message = record.get("message") if isinstance(record, dict) and record.get("type") == "assistant" else None
            if not isinstance(message, dict) or not isinstance(message.get("usage"), dict):
                continue
            usage = message["usage"]
            counts = tuple(usage.get(name) or 0 for name in _RAW)
            held = found.setdefault(message.get("id") or record["uuid"], {})
            if counts[1] >= held.get(str(path), (0, -1))[1]:
                held[str(path)] = counts
    return found


_RAW = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


def test_the_real_corpus_counts_each_message_once_as_stats_counts_its_session(
    real_projects: Path, tmp_path: Path
) -> None:
    """Two checks. The whole history's total is that of every message once, its chunk with the most output tokens
    wherever it is (counted here from the raw lines). And each session's total is what `stats` counts for it, its
    subagents included, unless another session's file holds one of its messages (the 1.0.56 `--continue` pair in
    `__fixtures__`, whose file names are no session ids, so the copy is not known as one) or a file of its holds a
    message with other counts (a side question's replay of its session holds the final chunk of a message whose
    session file kept an earlier one: 555 output tokens, not 24)."""
    usage = _usage(real_projects, tmp_path / "cache")
    raw = _raw_messages(real_projects)
    whole = usage.total().total.tokens
    expected = [sum(max(held.values(), key=lambda c: c[1])[i] for held in raw.values()) for i in range(4)]
    assert [whole.input, whole.output, whole.cache_read, whole.cache_creation] == expected
    index = Index(tmp_path / "cache", [real_projects])
    files = index.read([real_projects], lambda db: read_usage(db, [str(real_projects)])).files
    session_of = {path: file_sessions(files)[fid].path for fid, path, *_ in files}
    odd = set()
    for held in raw.values():
        sessions = {session_of[path] for path in held}
        if len(sessions) > 1 or len(set(held.values())) > 1:
            odd |= sessions
    assert {Path(p).name for p in odd} == {
        "0-say-lol-session.jsonl", "1-continue-run-ls-tool.jsonl", "e0f1ea34-1b45-4ca5-accb-9980f0c7e0ac.jsonl"
    }  # fmt: skip
    sessions = [Path(p.session.path) for p in usage.periods("session") if p.session is not None]
    no_file = [path for path in sessions if not path.is_file()]  # session folders with no file: their subagents
    assert len(no_file) == 2
    compared = 0
    for period, path in zip(usage.periods("session"), sessions, strict=True):
        if path.is_file() and str(path) not in odd:
            _, tally = tally_file(path)
            assert period.total.tokens.as_dict() == tally.facts(sibling_summaries(path), None)["tokens_with_subagents"]
            compared += 1
    assert compared == len(sessions) - len(no_file) - len(odd & set(map(str, sessions))) > 90


def test_fast_mode_and_web_searches_are_priced_as_stats_prices_them(tmp_path: Path) -> None:
    """A web search costs $10 a thousand beyond its tokens; fast mode has no price (usage.FAST_MARK): its tokens
    count, its cost does not, and it is named."""
    w = Writer("s", "/home/u/proj")
    w.prompt("go")
    w.answer(usage={"output_tokens": 100, "server_tool_use": {"web_search_requests": 3}}, model=OPUS)
    w.answer(usage={"output_tokens": 50, "speed": "fast"}, model=OPUS)
    path = w.write(tmp_path / "projects" / encode("/home/u/proj"))
    (day,) = _usage(tmp_path / "projects", tmp_path / "cache").periods("daily")
    total = day.total
    assert (total.tokens.output, total.tokens.web_searches) == (150, 3)
    assert total.cost == pytest.approx(100 * 25 / 1e6 + 3 * 0.01)
    assert total.unpriced_models == {OPUS + " (fast mode)"} and list(day.models()) == [OPUS]
    _, tally = tally_file(path)
    facts = tally.facts(sibling_summaries(path), None)
    assert facts["cost_with_subagents_usd"] == pytest.approx(total.cost, abs=1e-6)
    assert facts["unpriced_models"] == sorted(total.unpriced_models)
