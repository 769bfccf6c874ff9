"""`claude-tui usage`: the reports as a table and as JSON lines, their options, bad input and an empty history."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from claude_tui.cli import main
from claude_tui.cli import usage as usage_cli
from tests.library_data import Writer, encode

SONNET = "claude-sonnet-4-5-20250929"
START = int(datetime(2026, 1, 5, 9, tzinfo=UTC).timestamp())  #: Writer's clock starts here


def _at(stamp: str) -> int:
    """Writer's clock for a record written at `stamp` (UTC)."""
    return int(datetime.fromisoformat(stamp).replace(tzinfo=UTC).timestamp()) - START - 1


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two projects: alpha answered on Jan 5 at 23:30 UTC and Jan 6 at 10:00 (sonnet), beta on Jan 6 at 11:00 (sonnet
    and glm-5, which has no price)."""
    monkeypatch.setenv("CLAUDE_TUI_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "projects"
    alpha = Writer("alpha-1", "/home/u/alpha", start=_at("2026-01-05T23:30:00"))
    alpha.prompt("go")
    alpha.answer(out=100, usage={"input_tokens": 1, "output_tokens": 100, "cache_read_input_tokens": 1000,
                                 "cache_creation_input_tokens": 10})  # fmt: skip
    alpha.clock = _at("2026-01-06T10:00:00")
    alpha.answer(out=200)
    alpha.write(root / encode("/home/u/alpha"))
    beta = Writer("beta-1", "/home/u/beta", start=_at("2026-01-06T11:00:00"))
    beta.prompt("go")
    beta.answer(out=300)
    beta.answer(out=400, model="glm-5")
    beta.write(root / encode("/home/u/beta"))
    return root


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["usage", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict]:
    code, out, err = _run(capsys, *args, "--json")
    assert code == 0, err
    return [orjson.loads(line) for line in out.splitlines()]


def test_daily_is_the_default_report_a_table_with_a_totals_row(
    history: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, "--projects-dir", str(history), "--timezone", "UTC")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["Date", "Input", "Output", "Cache", "write", "Cache", "read", "Total", "Cost"]
    assert lines[1].split() == ["2026-01-05", "1", "100", "10", "1,000", "1,111", "$0.00"]
    assert lines[2].split() == ["2026-01-06", "9", "900", "0", "300", "1,209", "$0.01+"]
    assert set(lines[3]) == {"-"}
    assert lines[4].split() == ["Total", "10", "1,000", "10", "1,300", "2,320", "$0.01+"]
    assert lines[5] == "+ no price for glm-5: their tokens are counted, not their cost"


def test_breakdown_adds_a_row_per_model_under_each_period(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "monthly", "--breakdown", "--projects-dir", str(history), "--timezone", "UTC")
    rows = [line.split() for line in out.splitlines()[1:4]]
    assert rows == [
        ["2026-01", "10", "1,000", "10", "1,300", "2,320", "$0.01+"],
        [SONNET, "7", "600", "10", "1,200", "1,817", "$0.01"],
        ["glm-5", "3", "400", "0", "100", "503", "?"],
    ]
    assert out.splitlines()[2].startswith(f"  {SONNET}")


def test_json_is_one_object_per_period_with_its_models(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = _json(capsys, "--projects-dir", str(history), "--timezone", "UTC")
    assert first["period"] == "2026-01-05" and first["sessions"] == 1 and first["messages"] == 1
    assert (first["input_tokens"], first["output_tokens"], first["cache_creation_tokens"]) == (1, 100, 10)
    assert (first["cache_read_tokens"], first["total_tokens"], first["unpriced_models"]) == (1000, 1111, [])
    assert first["cost_usd"] == pytest.approx((1 * 3 + 100 * 15 + 10 * 3.75 + 1000 * 0.3) / 1e6, abs=1e-6)
    assert second["sessions"] == 2 and second["unpriced_models"] == ["glm-5"]
    assert second["models"]["glm-5"]["cost_usd"] is None and second["models"]["glm-5"]["output_tokens"] == 400
    assert second["cost_usd"] == pytest.approx(second["models"][SONNET]["cost_usd"], abs=1e-6)


def test_a_report_with_no_priced_model_has_a_null_cost(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (beta,) = _json(capsys, "session", "--projects-dir", str(history), "--project", "beta", "--until", "2026-01-06")
    assert beta["cost_usd"] is not None  # sonnet priced
    (glm,) = [m for name, m in beta["models"].items() if name == "glm-5"]
    assert (glm["cost_usd"], glm["unpriced_models"]) == (None, ["glm-5"])


def test_weeks_months_and_sessions(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--projects-dir", str(history), "--timezone", "UTC")
    assert [p["period"] for p in _json(capsys, "weekly", *args)] == ["2026-W02"]
    assert [p["period"] for p in _json(capsys, "monthly", *args)] == ["2026-01"]
    alpha, beta = _json(capsys, "session", *args)  # by last activity
    assert (alpha["session_id"], alpha["project"], alpha["output_tokens"]) == ("alpha-1", "/home/u/alpha", 300)
    assert alpha["path"] == str(history / encode("/home/u/alpha") / "alpha-1.jsonl")
    assert alpha["last_activity"] == "2026-01-06T10:00:00+00:00"
    assert beta["session_id"] == "beta-1"
    _, out, _ = _run(capsys, "session", *args)
    assert out.splitlines()[1].split()[0] == "alpha-1" and out.splitlines()[1].endswith("/home/u/alpha")


def test_the_time_zone_decides_the_day(
    history: Path, capsys: pytest.CaptureFixture[str], zone: Callable[[str], None]
) -> None:
    """alpha's first answer, at 23:30 UTC, is on the 6th in Paris (the local zone here) and in Tokyo."""
    zone("Europe/Paris")
    assert [p["period"] for p in _json(capsys, "--projects-dir", str(history))] == ["2026-01-06"]
    days = _json(capsys, "--projects-dir", str(history), "--timezone", "America/New_York")
    assert [(p["period"], p["output_tokens"]) for p in days] == [("2026-01-05", 100), ("2026-01-06", 900)]


def test_since_until_and_project_narrow_it(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--projects-dir", str(history), "--timezone", "UTC")
    assert [p["period"] for p in _json(capsys, *args, "--since", "2026-01-06")] == ["2026-01-06"]
    assert [p["period"] for p in _json(capsys, *args, "--until", "20260105")] == ["2026-01-05"]
    (day,) = _json(capsys, *args, "--project", "BETA")
    assert (day["period"], day["output_tokens"], day["sessions"]) == ("2026-01-06", 700, 1)
    _, out, _ = _run(capsys, *args, "--since", "2026-01-06", "--until", "2026-01-06")
    assert out.splitlines()[-2].split()[:3] == ["Total", "9", "900"]  # the total of what is shown


def test_since_takes_an_age_as_search_does(
    history: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`usage --since 7d` said "not a date" where `search --since 7d` worked."""
    monkeypatch.setattr(usage_cli, "now", lambda: datetime(2026, 1, 7, 9, 0, tzinfo=UTC).timestamp())
    args = ("--projects-dir", str(history), "--timezone", "UTC")
    assert [p["period"] for p in _json(capsys, *args, "--since", "1d")] == ["2026-01-06"]
    assert [p["period"] for p in _json(capsys, *args, "--since", "2d")] == ["2026-01-05", "2026-01-06"]
    assert [p["period"] for p in _json(capsys, *args, "--until", "2d")] == ["2026-01-05"]


def test_blocks_mark_the_running_one_with_its_burn_rate(
    history: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    now = datetime(2026, 1, 6, 12, 30, tzinfo=UTC).timestamp()  # 150 minutes after alpha's answer at 10:00
    monkeypatch.setattr(usage_cli, "now", lambda: now)
    args = ("blocks", "--projects-dir", str(history), "--timezone", "UTC")
    ended, running = _json(capsys, *args)
    assert (ended["period"], ended["end"], ended["running"], ended["burn"]) == (
        "2026-01-05T23:00:00+00:00", "2026-01-06T04:00:00+00:00", False, None
    )  # fmt: skip
    assert (running["start"], running["end"], running["running"]) == (
        "2026-01-06T10:00:00+00:00", "2026-01-06T15:00:00+00:00", True
    )  # fmt: skip
    assert (running["total_tokens"], running["sessions"]) == (1209, 2)
    burn = running["burn"]
    assert (burn["tokens_per_minute"], burn["minutes_left"]) == (round(1209 / 150, 1), 150.0)
    assert burn["projected_tokens"] == 1209 * 2
    assert burn["projected_usd"] == pytest.approx(2 * running["cost_usd"], abs=1e-6) and burn["usd_per_hour"] > 0
    _, out, _ = _run(capsys, *args)
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["Block", "start", "End"]
    assert lines[2].startswith("2026-01-06 10:00  15:00 *") and lines[2].endswith(f"{SONNET}, glm-5")
    assert lines[-1] == (
        "* running, 2h 30m left: 8 tokens a minute, $0.00 an hour; at this pace it ends at 2,418 tokens, $0.02"
    )


def test_bad_input_is_one_line_and_status_2(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args, said in [
        (("--since", "2026-02-01", "--until", "2026-01-31"), "--since 2026-02-01 is after --until 2026-01-31"),
        (("--timezone", "Mars/Olympus"), "unknown time zone 'Mars/Olympus'"),
        (("--timezone", "../etc"), "unknown time zone '../etc'"),
        (("--since", "yesterday"), "--since: not a date: 'yesterday' (try 2026-01-31, 20260131 or an age: 7d)"),
        (("--until", "2026-02-30"), "--until: not a date: '2026-02-30'"),
    ]:
        code, out, err = _run(capsys, "--projects-dir", str(history), *args)
        assert (code, out) == (2, "") and err.startswith(f"claude-tui: {said}") and err.count("\n") == 1
    with pytest.raises(SystemExit) as exc:
        main(["usage", "hourly"])
    assert exc.value.code == 2 and "invalid choice: 'hourly'" in capsys.readouterr().err


def test_an_empty_history_is_an_empty_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_TUI_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "projects").mkdir()
    code, out, err = _run(capsys, "--projects-dir", str(tmp_path / "projects"))
    assert (code, err) == (0, "")
    header, rule, total = out.splitlines()
    assert header.split()[0] == "Date" and set(rule) == {"-"}
    assert total.split() == ["Total", "0", "0", "0", "0", "0", "$0.00"]
    assert _json(capsys, "--projects-dir", str(tmp_path / "projects")) == []
    code, out, err = _run(capsys, "blocks", "--projects-dir", str(tmp_path / "missing"))
    assert code == 0 and out.splitlines()[-1].split()[0] == "Total"
    assert err == f"claude-tui: no projects folder at {tmp_path / 'missing'}\n"


def test_messages_with_no_time_are_said_and_left_out_of_days(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_TUI_CACHE_DIR", str(tmp_path / "cache"))
    w = Writer("s", "/home/u/p")
    w.prompt("go")
    w.answer(out=5)
    w.answer(out=7)
    w.records[-1]["timestamp"] = "not a time"
    w.write(tmp_path / "projects" / encode("/home/u/p"))
    args = ("--projects-dir", str(tmp_path / "projects"), "--json")
    code, out, err = _run(capsys, *args)
    assert code == 0 and [orjson.loads(line)["output_tokens"] for line in out.splitlines()] == [5]
    assert err == "claude-tui: 1 message with no time left out of a report by date\n"
    _, out, err = _run(capsys, "session", *args)
    assert [orjson.loads(line)["output_tokens"] for line in out.splitlines()] == [12] and err == ""


@pytest.mark.parametrize("apart", [True, False])
def test_the_usage_is_kept_by_a_child_while_the_report_is_made_and_whole_when_it_ends(
    apart: bool, history: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The feed read is written beside the index by a forked child as the report is made, for a history of many
    spends (here all are many), by the command itself for one of few; the command waits for the child (here a slow
    disk), so the next run finds it whole."""
    from claude_tui.core import usage_feed
    from claude_tui.core.index.store import Index

    keep, writers = Index.keep, tmp_path / "writers"

    def slow_keep(self: Index, name: str, data: bytes) -> None:
        if name == usage_feed.CACHE:
            time.sleep(0.3)
            with open(writers, "a") as f:
                f.write(f"{os.getpid()}\n")
        keep(self, name, data)

    monkeypatch.setattr(Index, "keep", slow_keep)
    if apart:
        monkeypatch.setattr(usage_feed, "KEPT_APART", 0)
    first = _json(capsys, "--projects-dir", str(history), "--timezone", "UTC")
    pids = writers.read_text().split()
    assert len(pids) == 1 and (pids[0] != str(os.getpid())) == apart  # written by a child, or here; and done
    head, _, feed = (tmp_path / "cache" / usage_feed.CACHE).read_bytes().partition(b"\n")
    assert orjson.loads(head)["sums"] and orjson.loads(feed)["files"]
    assert _json(capsys, "--projects-dir", str(history), "--timezone", "UTC") == first
    assert len(writers.read_text().split()) == 1  # nothing changed: taken as it is, not kept again


def test_what_was_read_is_kept_beside_the_index_and_read_again_where_a_file_changed(
    history: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ("--projects-dir", str(history), "--timezone", "UTC")
    first = _json(capsys, *args)
    kept = tmp_path / "cache" / "usage.json"
    assert kept.is_file()
    from claude_tui.core import usage_feed

    def unread(*_: object) -> None:
        raise AssertionError("read again")

    with monkeypatch.context() as patched:
        patched.setattr(usage_feed, "read_usage", unread)
        patched.setattr(usage_feed, "changed_usage", unread)
        assert _json(capsys, *args) == first  # nothing changed: taken from the file as it is
    beta = history / encode("/home/u/beta") / "beta-1.jsonl"
    w = Writer("beta-1", "/home/u/beta", start=_at("2026-01-07T08:00:00"))
    w.answer(out=5)
    w.append(beta, 0)
    read_again: list[str] = []
    changed_usage = usage_feed.changed_usage

    def changed(*args: Any) -> Any:
        found = changed_usage(*args)
        read_again.extend(row[1] for row in found.files)
        return found

    with monkeypatch.context() as patched:
        patched.setattr(usage_feed, "read_usage", unread)
        patched.setattr(usage_feed, "changed_usage", changed)
        grown = _json(capsys, *args)
    assert read_again == [str(beta)]  # beta read again, not the history
    assert [p["period"] for p in grown] == ["2026-01-05", "2026-01-06", "2026-01-07"] and grown[:2] == first
    assert grown[2]["output_tokens"] == 5
    kept.unlink()  # the history read whole
    assert _json(capsys, *args) == grown
    kept.write_bytes(b'{"key": [2, [], 0')  # damaged: read whole again
    assert _json(capsys, *args) == grown
    beta.unlink()  # a file gone
    assert [p["output_tokens"] for p in _json(capsys, *args)] == [100, 200]
    other = tmp_path / "other"
    (other / encode("/home/u/alpha")).mkdir(parents=True)
    assert _json(capsys, "--projects-dir", str(other)) == []  # another history's feed: not the one kept
