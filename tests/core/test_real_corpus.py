"""Every real session file parses, and the model's invariants hold on all of them."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import orjson
import pytest

from claude_tui.core.files import agent_files, session_files, sessions_of
from claude_tui.core.library import Library
from claude_tui.core.loader import read_session
from claude_tui.core.model import NAMED_BLOCKS, Kind
from claude_tui.core.reader import Reader
from claude_tui.core.session import Session
from claude_tui.core.stats import session_stats
from tests.core.test_session import describe, laid_out_gaps, thread_gaps
from tests.core.usage_count import cost, counts_of, requests, subagent_files, tokens


def all_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.jsonl"))


def objects_in(path: Path) -> int:
    """JSON objects in a file by a plain orjson loop (lines that are not one object are not counted)."""
    count = 0
    for line in path.read_bytes().splitlines():
        with contextlib.suppress(orjson.JSONDecodeError):
            count += isinstance(orjson.loads(line), dict)
    return count


def test_every_file_parses_and_no_record_is_lost(real_projects: Path) -> None:
    files = all_files(real_projects)
    assert len(files) > 100
    for path in files:
        session = read_session(path, agents=False)
        assert session.records == objects_in(path), path
        assert session.malformed_lines == 0, path


#: The genuine forks of the corpus (two prompts, an edited one, with one parent), read off the files by hand:
#: the session, the parent, the lines of the prompts that follow it. Local commands run as siblings are no fork.
FORKS = {
    ("03eb5929", "eb84e3ee", (18, 38)),
    ("1240745b", "bc3d3102", (1815, 1819)),
    ("719f12f0", "2e893ae0", (128, 131)),
    ("59074ea8", "c7441076", (703, 706)),
    ("59074ea8", "9ea41ca8", (1129, 1133)),
    ("d8fbf478", "c9790291", (1310, 1314)),
    ("3bf1b605", "9d1f8ede", (114, 117)),
}


def test_invariants_on_every_session(real_projects: Path) -> None:
    forks = set()
    for project in sorted(p for p in real_projects.iterdir() if p.is_dir()):
        for path in sessions_of(project):  # a folder of subagents whose session file is gone included
            s = read_session(path)
            facts = session_stats(s)
            forks |= {
                (path.name[:8], (f.parent or "")[:8], tuple(m.span.line_no for m in f.heads if m.span)) for f in s.forks
            }
            # Pairing is complete wherever a result exists.
            for call in s.calls.values():
                assert (call.result is not None) == (call.id in s.result_ids), (path, call.id)
            # A fork only where two prompts share a parent.
            for fork in s.forks:
                firsts = [m for m in s.messages if m.fork is fork]
                assert len(firsts) >= 2 and all(m.kind is Kind.PROMPT for m in firsts)
                assert len({m.parent for m in firsts}) == 1
            # A title wherever there is a prompt.
            if facts["user_prompts"]:
                assert facts["title"], path
            # Every subagent file found is attached.
            assert len([a for a in s.subagents if a.source == "file"]) == len(agent_files(path)), path
            visible = s.visible()
            assert all(m.kind is not Kind.TOOL_RESULT for m in visible)
            # Every block is one the model has a treatment for: none is shown as its raw JSON.
            blocks = {(b.type, sub.path) for sub in _with_subagents(s) for m in sub.messages for b in m.blocks}
            assert {(t, p) for t, p in blocks if t not in NAMED_BLOCKS} == set()
            # The thread's gaps are the same told with or without a layout.
            assert thread_gaps(s) == laid_out_gaps(s), path
    assert forks == FORKS


def _with_subagents(session: Session) -> list[Session]:
    """A session and its subagents' transcripts, theirs included."""
    out, stack = [], [session]
    while stack:
        out.append(here := stack.pop())
        stack.extend(here.subagents)
    return out


#: Sessions whose figures are known to differ from the independent count, and why. Fixed, a case fails here
#: until it is taken out.
COUNTED_WRONG = {
    # A /btw side question's replay of the session is left out whole, but one message's last chunks are only in
    # the replays: the session file has its first chunk (24 output tokens), the replays its last (555).
    "e0f1ea34": "msg_01G817dh counts 24 output tokens, not 555",
}


def _same_cost(a: float | None, b: float | None) -> bool:
    """Equal to the cent's ten-thousandth (the figures are rounded to 6 places, the sums made in another order)."""
    return a is b is None or (a is not None and b is not None and abs(a - b) <= 1e-6)


def test_tokens_and_cost_agree_with_a_count_of_their_own(real_projects: Path, tmp_path: Path) -> None:
    """The model (stats) and the index (the list) count usage with the same code: a reader written for the test
    (tests/core/usage_count.py) counts each session's tokens and cost from the files on its own, and both agree."""
    lib = Library([real_projects], tmp_path / "cache")
    lib.refresh()
    listed = {info.file: info for project in lib.projects for info in project.sessions}
    differ, compared = set(), 0
    for project in sorted(p for p in real_projects.iterdir() if p.is_dir()):
        for path in session_files(project):
            stats = session_stats(read_session(path))
            own, whole = requests([path]), requests([path, *subagent_files(path)])
            info, total = listed[str(path)], tokens(whole)
            agree = (
                counts_of(stats["tokens"]) == tokens(own)
                and counts_of(stats["tokens_with_subagents"]) == total
                and info.tokens == sum(total) - total[4]  # (the 1-hour writes are of the cache writes)
                and _same_cost(stats["cost_usd"], cost(own))
                and _same_cost(stats["cost_with_subagents_usd"], cost(whole))
                and _same_cost(info.cost_usd, cost(whole))
            )
            if not agree:
                differ.add(path.name[:8])
            compared += 1
    assert compared > 100 and differ == set(COUNTED_WRONG)


def test_subagents_link_to_their_task_calls(real_projects: Path) -> None:
    """Every Task/Agent call whose transcript is present is linked to it (warmup agents have no call)."""
    checked = 0
    for path in real_projects.rglob("*.jsonl"):
        if path.name.startswith("agent-") or path.parent.name == "subagents":
            continue
        s = read_session(path)
        agent_ids = {sub.agent_id for sub in s.subagents if sub.agent_id}
        for call in s.calls.values():
            structured = call.result.structured if call.result else None
            agent_id = structured.get("agentId") if isinstance(structured, dict) else None
            if call.name in ("Task", "Agent") and agent_id in agent_ids:
                assert call.subagent is not None and call.subagent.agent_id == agent_id, (path, call.id)
                checked += 1
        for sub in s.subagents:
            if sub.source == "inline":
                assert sub.parent_call is not None, path
                checked += 1
    assert checked >= 8


@pytest.mark.parametrize("seed", range(3))
def test_random_splits_equal_one_shot_read(real_projects: Path, tmp_path: Path, seed: int) -> None:
    """Growing the model as the file grows, cut anywhere (mid-line, mid-character), gives the same model."""
    rng = random.Random(seed)
    files = [p for p in all_files(real_projects) if p.stat().st_size > 2000]
    for source in rng.sample(files, 12):
        data = source.read_bytes()
        target = tmp_path / source.name
        target.write_bytes(data)
        whole = describe(Session.from_lines(Reader(str(target)).read()[1], target))
        cuts = sorted(rng.sample(range(1, len(data)), min(6, len(data) - 1)))
        target.write_bytes(b"")
        reader, session = Reader(str(target)), Session(target)
        for cut in [*cuts, len(data)]:
            target.write_bytes(data[:cut])
            session.feed(reader.read()[1])
        assert describe(session) == whole, (source, cuts)
