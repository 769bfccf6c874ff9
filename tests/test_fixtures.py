"""Each rare shape in tests/fixtures gives exactly what tests/fixtures/README.md says it should."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.core.files import session_files, sibling_summaries
from claude_tui.core.loader import read_session
from claude_tui.core.model import Kind
from claude_tui.core.stats import session_stats
from claude_tui.core.tail import SessionTail
from claude_tui.core.usage import Tokens, price_for, priced_as, read_usage
from tests.jsonl import text

FIXTURES = Path(__file__).parent / "fixtures"


def facts(name: str) -> dict:
    path = FIXTURES / name
    return session_stats(read_session(path), sibling_summaries(path))


@pytest.mark.parametrize(
    ("name", "records", "malformed"),
    [
        ("empty.jsonl", 0, 0),
        ("two_records_one_line.jsonl", 4, 0),
        ("invalid_utf8.jsonl", 3, 0),
        ("lone_surrogate.jsonl", 3, 0),
        ("malformed_lines.jsonl", 3, 7),
        ("unknown_types.jsonl", 7, 0),
        ("dangling.jsonl", 6, 0),
    ],
)
def test_damaged_files(name: str, records: int, malformed: int) -> None:
    f = facts(name)
    assert (f["records"], f["malformed_lines"]) == (records, malformed)


def test_damage_notes_name_their_lines() -> None:
    problems = facts("invalid_utf8.jsonl")["problems"]
    assert problems == ["line 2: invalid UTF-8 replaced"]
    assert "line 1: lone surrogate replaced" in facts("lone_surrogate.jsonl")["problems"]
    assert any(p.startswith("line 2: 2 record(s)") for p in facts("two_records_one_line.jsonl")["problems"])


def test_partial_last_line_waits_when_following(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes((FIXTURES / "partial_last_line.jsonl").read_bytes())
    tail = SessionTail(path)
    tail.poll()
    assert tail.session.records == 3 and tail.reader.pending == 450
    with path.open("ab") as f:
        f.write((FIXTURES / "partial_last_line.rest").read_bytes())
    tail.poll()
    assert tail.session.records == 4 and tail.reader.pending == 0


def test_unknown_types_are_kept() -> None:
    s = read_session(FIXTURES / "unknown_types.jsonl")
    assert [m.text for m in s.messages if m.kind is Kind.UNKNOWN] == ["telemetry-blob", "future-kind"]
    assert s.record_types["telemetry-blob"] == 1
    assert any(b.type == "hologram" for m in s.messages for b in m.blocks)


def test_fork_fixture() -> None:
    s = read_session(FIXTURES / "fork.jsonl")
    assert len(s.forks) == 1 and s.forks[0].parent == "00000008-0000-4000-8000-000000000002"
    assert s.visible()[-1].uuid == "00000008-0000-4000-8000-000000000009"
    assert session_stats(s)["assistant_messages"] == 4


def test_compaction_fixtures() -> None:
    f = facts("compaction.jsonl")
    assert (f["compactions"], f["microcompactions"], f["user_prompts"]) == (1, 1, 4)
    assert facts("compaction_pre2.jsonl")["compactions"] == 1


def test_streamed_usage_counted_once() -> None:
    f = facts("streamed.jsonl")
    assert f["assistant_messages"] == 2
    assert f["tokens"]["output"] == 139
    assert f["unpaired_tool_calls"] == 0


@pytest.mark.parametrize(
    ("usage", "cost"),
    [
        ({"cache_creation_input_tokens": 1_000_000}, 3.75),  # the 5-minute cache, as before 2025
        ({"cache_creation_input_tokens": 1_000_000, "cache_creation": {"ephemeral_5m_input_tokens": 1_000_000}}, 3.75),
        ({"cache_creation_input_tokens": 1_000_000, "cache_creation": {"ephemeral_1h_input_tokens": 1_000_000}}, 6.0),
        ({"cache_creation_input_tokens": 10, "cache_creation": {"ephemeral_1h_input_tokens": 99}}, 10 * 6.0 / 1e6),
        ({"cache_creation_input_tokens": 4, "cache_creation": {"ephemeral_1h_input_tokens": "x"}}, 4 * 3.75 / 1e6),
    ],
)
def test_a_write_to_the_one_hour_cache_costs_twice_the_input(usage: dict, cost: float) -> None:
    tokens, _ = read_usage(usage)
    assert tokens is not None and tokens.cost("claude-sonnet-4-5") == pytest.approx(cost)
    assert tokens.total == usage["cache_creation_input_tokens"]  # the 1-hour writes are a part of them


@pytest.mark.parametrize(
    ("model", "price"),
    [
        ("claude-opus-4-20250514", 15.0),
        ("claude-opus-4-1-20250805", 15.0),
        ("claude-opus-4-5-20251101", 5.0),
        ("claude-opus-4-7", 5.0),
        ("claude-sonnet-4-5-20250929", 3.0),
        ("claude-haiku-4-5-20251001", 1.0),
        ("claude-3-5-sonnet-20241022", 3.0),
        ("claude-sonnet-4-5[1m]", 3.0),
        ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", 3.0),  # Amazon Bedrock's ids
        ("eu.anthropic.claude-opus-4-1-20250805-v1:0", 15.0),
        ("global.anthropic.claude-haiku-4-5-20251001-v1:0", 1.0),
        ("anthropic.claude-3-5-sonnet-20241022-v2:0", 3.0),
        ("claude-sonnet-4-5@20250929", 3.0),  # Google Vertex AI's
        ("claude-3-5-sonnet-v2@20241022", 3.0),
        ("us.anthropic.claude-opus-5-v1:0", 5.0),
        ("claude-opus-4-8", 5.0),
        ("claude-opus-5", 5.0),
        ("claude-opus-5[1m]", 5.0),
        ("claude-opus-5-5", 4.0),
        ("claude-fable-5", 10.0),
        ("claude-sonnet-5", 2.0),
        ("claude-sonnet-4-6", 3.0),
        ("claude-fable-5-1", None),  # a version the table does not know is not priced as an older one
        ("claude-sonnet-5-5", None),
        ("claude-opus-4-9", None),
        ("claude-haiku-4-6", None),
        ("<synthetic>", None),
    ],
)
def test_models_are_priced_by_their_own_version(model: str, price: float | None) -> None:
    row = price_for(model)
    assert (row[0] if row else None) == price


def test_a_bedrock_request_over_200k_input_tokens_is_billed_at_long_context_rates() -> None:
    model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    row = price_for(priced_as(model, Tokens(input=200_001)))
    assert (row[0] if row else None) == 6.0


def test_the_model_and_the_index_price_one_hour_writes_alike(tmp_path: Path) -> None:
    from claude_tui.core.library import Library
    from tests.library_data import Writer

    w = Writer("s1")
    w.prompt("cache this")
    writes = {"ephemeral_5m_input_tokens": 1000, "ephemeral_1h_input_tokens": 2000}
    usage = {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 3000, "cache_creation": writes}
    w.answer(usage=usage)
    path = w.write(tmp_path / "projects" / "p")
    facts = session_stats(read_session(path))
    assert facts["tokens"]["cache_creation_1h"] == 2000
    assert facts["cost_usd"] == pytest.approx((10 * 3 + 5 * 15 + 1000 * 3.75 + 2000 * 6) / 1e6)
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    assert lib.projects[0].sessions[0].cost_usd == facts["cost_usd"]


def test_a_request_over_200k_input_tokens_is_billed_at_long_context_rates(tmp_path: Path) -> None:
    from claude_tui.core.library import Library
    from tests.library_data import Writer

    w = Writer("s1")
    w.prompt("read the whole repository")
    long = {"input_tokens": 5, "cache_creation_input_tokens": 10_000, "cache_read_input_tokens": 250_000}
    w.answer(text("a"), text("b"), usage={**long, "output_tokens": 2000})  # streamed: counted once
    w.records[-2]["message"] = {**w.records[-2]["message"], "usage": {"input_tokens": 5, "output_tokens": 1}}
    w.answer(usage={"input_tokens": 5, "cache_read_input_tokens": 199_995, "output_tokens": 1000})  # 200K: not over
    w.answer(model="claude-opus-4-6", usage={**long, "output_tokens": 100})  # no long-context rates
    path = w.write(tmp_path / "projects" / "p")
    facts = session_stats(read_session(path))
    long_rates = (5 * 6 + 10_000 * 7.5 + 250_000 * 0.6 + 2000 * 22.5) / 1e6
    standard = (5 * 3 + 199_995 * 0.3 + 1000 * 15) / 1e6
    opus = (5 * 5 + 10_000 * 6.25 + 250_000 * 0.5 + 100 * 25) / 1e6
    assert facts["cost_usd"] == pytest.approx(long_rates + standard + opus)
    assert facts["tokens"]["output"] == 3100 and facts["models"] == ["claude-sonnet-4-5-20250929", "claude-opus-4-6"]
    lib = Library([tmp_path / "projects"], tmp_path / "cache")
    lib.refresh()
    info = lib.projects[0].sessions[0]
    assert (info.cost_usd, info.models) == (facts["cost_usd"], facts["models"])


def test_inline_sidechain_and_agent_progress() -> None:
    inline = read_session(FIXTURES / "sidechain_inline.jsonl")
    assert len(inline.subagents) == 1 and inline.subagents[0].parent_call is not None
    assert [m.uuid[-2:] for m in inline.visible() if m.uuid] == ["01", "02", "09"]
    progress = read_session(FIXTURES / "agent_progress.jsonl")
    sub = progress.subagents[0]
    assert sub.source == "progress" and sub.agent_id == "a13c0ffee13c0ffee"
    assert all(c.result is not None for c in sub.calls.values()) and len(sub.calls) == 1
    assert not any(c.name == "Bash" for c in progress.calls.values())


def test_project_folder() -> None:
    project = FIXTURES / "projects" / "-home-u-proj"
    sessions = sorted(session_files(project))
    assert len(sessions) == 3
    titles = [session_stats(read_session(p), sibling_summaries(p))["title"] for p in sessions]
    assert titles[:2] == ["Fix the flaky login test", "Which tests use the freezer fixture?"]
    for path in sessions[1:]:
        s = read_session(path)
        task = next(c for c in s.calls.values() if c.name in ("Task", "Agent"))
        assert task.subagent is not None and task.subagent.source == "file"
