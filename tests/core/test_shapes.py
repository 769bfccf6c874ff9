"""Every shape in the real corpus has a declared treatment (core/shapes.py), and the facts records state."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from claude_tui.core.records import parse_line
from claude_tui.core.shapes import (
    ATTACHMENT_TYPES,
    BLOCK_TYPES,
    PROGRESS_TYPES,
    RECORD_TYPES,
    SYSTEM_SUBTYPES,
    fact_of,
)


def records(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a file, a progress record's copied record after it."""
    for line in path.read_bytes().splitlines():
        for obj in parse_line(line).objects if line.strip() else ():
            yield obj
            data = obj.get("data")
            if isinstance(data, dict) and isinstance(data.get("message"), dict):
                yield data["message"]


def shapes_of(obj: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(where, shape) of every shape in one record: its type, its subtype or data.type or attachment type, and
    the types of the blocks of its content and of its results' content."""
    rtype = obj.get("type")
    yield "record type", rtype
    if rtype == "system":
        yield "system subtype", obj.get("subtype")
    elif rtype == "progress" and isinstance(obj.get("data"), dict):
        yield "progress data.type", obj["data"].get("type")
    elif rtype == "attachment" and isinstance(obj.get("attachment"), dict):
        yield "attachment type", obj["attachment"].get("type")
    message = obj.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    for block in content if isinstance(content, list) and rtype in BLOCK_TYPES else ():
        if isinstance(block, dict):
            yield f"{rtype} block", block.get("type")
            inner = block.get("content") if block.get("type") == "tool_result" else None
            for part in inner if isinstance(inner, list) else ():
                if isinstance(part, dict):
                    yield "tool_result block", part.get("type")


DECLARED = {
    "record type": RECORD_TYPES,
    "system subtype": SYSTEM_SUBTYPES,
    "progress data.type": PROGRESS_TYPES,
    "attachment type": ATTACHMENT_TYPES,
    **{f"{where} block": table for where, table in BLOCK_TYPES.items()},
}


def test_every_shape_of_the_real_corpus_has_a_declared_treatment(real_projects: Path) -> None:
    """A new real file with a shape claude_tui does not know fails here until core/shapes.py declares it."""
    found: Counter[tuple[str, Any]] = Counter()
    for path in sorted(real_projects.rglob("*.jsonl")):
        for obj in records(path):
            found.update(shapes_of(obj))
    undeclared = sorted((where, repr(shape)) for where, shape in found if shape not in DECLARED[where])
    assert not undeclared, f"shapes with no treatment in claude_tui/core/shapes.py: {undeclared}"
    assert len(found) > 60  # the walk reached every kind of shape
    assert {where for where, _ in found} == DECLARED.keys()


def test_the_facts_records_state() -> None:
    """Real records of each fact type (anonymised), and the same with their fields of the wrong type."""
    assert fact_of("agent-name", {"agentName": "snmp-plan-E2 3"}) == ("agent_name", "snmp-plan-E2 3")
    assert fact_of("permission-mode", {"permissionMode": "auto"}) == ("permission_mode", "auto")
    pr = {"prNumber": 58, "prUrl": "https://gitlab.com/o/r/-/merge_requests/58", "prRepository": "o/r"}
    assert fact_of("pr-link", pr) == ("pr_links", {"number": "58", "url": pr["prUrl"], "repository": "o/r"})
    teleport = {"remoteSessionId": "session_01ABCdef234", "branch": "main", "messageCount": 3}
    came = {"session": "session_01ABCdef234", "branch": "main"}
    assert fact_of("teleported-from", teleport) == ("teleported_from", came)
    assert fact_of("worktree-state", {"worktreeSession": {"worktreePath": "/r/.claude/worktrees/w"}}) == (
        "worktree",
        "/r/.claude/worktrees/w",
    )
    assert fact_of("worktree-state", {"worktreeSession": None}) == ("worktree", None)  # left it
    for odd in (None, ["x"], {"a": 1}, True, ""):
        assert fact_of("agent-name", {"agentName": odd}) is None
        assert fact_of("pr-link", {"prNumber": odd, "prUrl": odd}) is None
    assert fact_of("mode", {}) is None
