"""`stats` counts a big file's two halves at once and merges their tallies: the facts must be those
of the file read whole, wherever the cut falls."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

from claude_tui.core import stats
from claude_tui.core.files import is_agent_file
from claude_tui.core.loader import read_session
from claude_tui.core.stats import session_stats, tally_file

FIXTURES = Path(__file__).parents[1] / "fixtures"


def line_starts(path: Path) -> list[int]:
    data = path.read_bytes()
    return [0] + [i + 1 for i, byte in enumerate(data) if byte == ord("\n") and i + 1 < len(data)]


def sessions_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.jsonl") if not is_agent_file(p) and p.parent.name != "subagents")


def check_cuts(files: list[Path], cuts_per_file: int | None, rng: random.Random) -> tuple[int, int]:
    """Compare, at the cuts tried, the merged (or read-on) facts with the whole file's; (merged, read whole)."""
    merged = read_whole = 0
    for path in files:
        whole = session_stats(read_session(path))
        starts = line_starts(path)[1:]
        cuts = starts if cuts_per_file is None else rng.sample(starts, min(cuts_per_file, len(starts)))
        for cut in cuts:
            session, tally = tally_file(path, cut)
            assert tally.facts() == whole, (path, cut)
            if session.records < tally.records:
                merged += 1
            else:
                read_whole += 1
    return merged, read_whole


def test_every_cut_of_every_fixture(tmp_path: Path) -> None:
    """Each rare shape (forks, compactions old and new, inline and copied subagents, malformed lines,
    unknown types, invalid UTF-8, two records on a line...) cut at every line."""
    merged, read_whole = check_cuts(sessions_under(FIXTURES), None, random.Random(0))
    assert merged > 50
    assert read_whole > 10  # halves linked across the cut were read as one


PROMPT = b'{"type":"user","uuid":"p%d","message":{"content":"go on"}}'
ANSWER = b'{"type":"assistant","uuid":"a%d","message":{"id":"m%d","content":[{"type":"text","text":"ok"}]}}'
UNKNOWN = b'{"type":"telemetry-blob","uuid":"t%d"}'
ODD_USAGE = b'{"type":"assistant","uuid":"o%d","message":{"id":"o%d","content":"ok","usage":{"output_tokens":"5"}}}'
BOUNDARY = b'{"type":"system","subtype":"compact_boundary","uuid":"b1","parentUuid":null,"content":"Compacted"}'
SUMMARY = b'{"type":"user","isCompactSummary":true,"uuid":"c1","parentUuid":null,"message":{"content":"Summary"}}'
#: A message whose parent is `parent`: one written later, or none in the file.
CHILD = b'{"type":"user","uuid":"%s","parentUuid":"%s","message":{"content":"go on"}}'


def turns(n: int) -> list[bytes]:
    return [PROMPT % n, ANSWER % (n, n), PROMPT % (n + 1), ANSWER % (n + 1, n + 1)]


#: Files with one link the halves cannot count apart, each alone, between turns that can be cut freely.
LINKED = {
    "a record written twice": [*turns(1), PROMPT % 9, *turns(3), PROMPT % 9, *turns(5)],
    "an unknown type seen twice": [*turns(1), UNKNOWN % 1, *turns(3), UNKNOWN % 2, *turns(5)],
    "unreadable usage twice": [*turns(1), ODD_USAGE % (1, 1), *turns(3), ODD_USAGE % (2, 2), *turns(5)],
    "a compaction summary right after its boundary": [*turns(1), BOUNDARY, SUMMARY, *turns(3)],
    "progress copies of a subagent with its own file": (FIXTURES / "agent_progress.jsonl").read_bytes().splitlines(),
    "a parent written after its child": [*turns(1), CHILD % (b"k1", b"late"), *turns(3), CHILD % (b"late", b"p4")],
}
STAMPED = b'{"type":"user","uuid":"p%d","timestamp":"%s","message":{"content":"go on"}}'
#: Times an hour apart or more: a pause, whether the cut falls inside it or not.
PAUSED = [
    STAMPED % (i, t)
    for i, t in enumerate(
        (
            b"2026-01-02T10:00:00Z",
            b"2026-01-02T10:59:00.500Z",
            b"2026-01-02T12:00:00.500Z",
            b"2026-01-02T12:30:00Z",
            b"2026-01-03T09:00:00Z",
            b"2026-01-03T09:05:00Z",
        )
    )
]


@pytest.mark.parametrize("link", LINKED)
def test_every_cut_of_a_file_with_a_link_across(tmp_path: Path, link: str) -> None:
    path = tmp_path / "-home-u-proj" / "s.jsonl"
    agent = path.parent / "s" / "subagents" / "agent-a13c0ffee13c0ffee.jsonl"
    agent.parent.mkdir(parents=True)
    path.write_bytes(b"\n".join(LINKED[link]) + b"\n")
    agent.write_bytes(b'{"type":"user","isSidechain":true,"uuid":"x1","message":{"content":"Count the lines"}}\n')
    merged, read_whole = check_cuts([path], None, random.Random(0))
    assert merged and read_whole


def test_parents_missing_from_the_file_do_not_keep_the_halves_apart(tmp_path: Path) -> None:
    """A parent that neither half holds is missing from the whole file too, with the same note: every cut merges
    (make_corpus.py's files name one every few hundred lines, and were read twice)."""
    path = tmp_path / "-home-u-proj" / "s.jsonl"
    path.parent.mkdir()
    path.write_bytes(b"\n".join([*turns(1), CHILD % (b"k1", b"gone1"), *turns(3), CHILD % (b"k2", b"gone2")]) + b"\n")
    assert len(session_stats(read_session(path))["problems"]) == 2
    merged, read_whole = check_cuts([path], None, random.Random(0))
    assert (merged, read_whole) == (9, 0)


def test_cuts_of_real_files(real_projects: Path) -> None:
    merged, read_whole = check_cuts(sessions_under(real_projects), 4, random.Random(7))
    assert merged > 100
    assert read_whole > 20


def test_a_problem_after_the_cut_keeps_its_line_number(tmp_path: Path) -> None:
    prompt = b'{"type":"user","uuid":"u%d","message":{"role":"user","content":"hi"}}'
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n".join([prompt % 1, prompt % 2, b"{not json", b"", prompt % 3]))
    session, tally = tally_file(path, len(prompt % 1) + 1)
    assert session.records < tally.records  # merged, not read whole
    assert tally.facts()["problems"] == session_stats(read_session(path))["problems"]
    assert [p.split(":")[0] for p in tally.facts()["problems"]] == ["line 3", "line 4"]


def test_a_big_file_is_cut_at_a_prompt_past_its_middle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats, "SPLIT_BYTES", 1000)
    answer = b'{"type":"assistant","uuid":"a%d","message":{"id":"m%d","role":"assistant","content":"%s"}}'
    result = b'{"type":"user","uuid":"r%d","message":{"content":[{"type":"tool_result","tool_use_id":"t"}]}}'
    prompt = b'{"type":"user","uuid":"p%d","message":{"role":"user","content":"go on"}}'
    lines = [answer % (n, n, b"x" * 200) for n in range(4)] + [result % 1, prompt % 1, answer % (9, 9, b"y")]
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    cut = stats._split_point(path)
    assert cut is not None and path.read_bytes()[cut:].startswith(prompt % 1)
    session, tally = tally_file(path)
    assert session.records < tally.records
    assert tally.facts() == session_stats(read_session(path))


def test_every_cut_of_a_file_with_pauses(tmp_path: Path) -> None:
    path = tmp_path / "-home-u-proj" / "s.jsonl"
    path.parent.mkdir()
    path.write_bytes(b"\n".join(PAUSED) + b"\n")
    facts = session_stats(read_session(path))
    assert facts["interruptions"] == 2
    assert facts["duration_s"] == 23 * 3600 + 5 * 60
    assert facts["active_s"] == (59 * 60 + 0.5) + (29 * 60 + 59.5) + 5 * 60  # the gaps over an hour left out
    merged, _ = check_cuts([path], None, random.Random(0))
    assert merged == len(PAUSED) - 1


@pytest.mark.parametrize("odd_id", ["", "a\0b", "\0"])
def test_a_tally_comes_back_from_its_child_whole(tmp_path: Path, odd_id: str) -> None:
    """A tally is sent with its sets of ids packed (Tally.__getstate__): the uuids keep their order, an id
    holding the separator or none at all comes back as it was, as does an empty set."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n".join(ANSWER % (n, n) for n in (3, 1, 2)) + b"\n")
    tally = tally_file(path)[1]
    tally.errors = {odd_id}
    back = pickle.loads(pickle.dumps(tally, pickle.HIGHEST_PROTOCOL))
    assert list(back.uuids) == ["a3", "a1", "a2"]
    assert back.message_ids == {"m1", "m2", "m3"}
    assert back.errors == {odd_id} and back.calls == set() and back.progress_keys == set()
    assert back.facts() == tally.facts()
