"""The record builder (tests/records.py) writes records in the key order of real Claude Code files, and the
demo and the fixtures are exactly what their builders write (so a change to a builder cannot drift silently)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from tests.records import Chain, assistant_message, text, user_message

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
DEMO = ROOT / "claude_tui" / "demo"
START = datetime(2026, 1, 5, 9, tzinfo=UTC)


def chain(version: str, entrypoint: str | None = None) -> Chain:
    return Chain("s1", "/home/u/proj", version, uuids=lambda: "u1", start=START, entrypoint=entrypoint)


def test_chain_writes_the_key_order_of_real_records() -> None:
    """The orders are those of real files (corpus: a 2.0.42 session of -Users-dain-workspace-JSSoundRecorder,
    a 2.1.216 session of -Users-1curafu-Desktop-Fitcheck-Fitcheck)."""
    old = chain("2.0.42")
    user = old.record("user", {"message": user_message("hi")})
    assert list(user) == [
        "parentUuid", "isSidechain", "userType", "cwd", "sessionId", "version", "gitBranch",
        "type", "message", "uuid", "timestamp",
    ]  # fmt: skip
    message = assistant_message("msg_1", "claude-sonnet-4-5-20250929", text("ok"), "end_turn", {})
    answer = old.record("assistant", {"message": message, "requestId": "req_1"})
    assert list(answer) == [
        "parentUuid", "isSidechain", "userType", "cwd", "sessionId", "version", "gitBranch",
        "message", "requestId", "type", "uuid", "timestamp",
    ]  # fmt: skip
    assert list(message) == ["model", "id", "type", "role", "content", "stop_reason", "stop_sequence", "usage"]
    assert answer["parentUuid"] == user["uuid"]
    new = chain("2.1.216", entrypoint="cli")
    prompt = new.record(
        "user",
        {"message": user_message("hi")},
        prompt_id="p1",
        trailer={"permissionMode": "default", "promptSource": "user"},
    )
    assert list(prompt) == [
        "parentUuid", "isSidechain", "promptId", "type", "message", "uuid", "timestamp", "permissionMode",
        "promptSource", "userType", "entrypoint", "cwd", "sessionId", "version", "gitBranch",
    ]  # fmt: skip


def copy_into(tmp: Path, *paths: str) -> None:
    for rel in paths:
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, tmp / rel)


def files_under(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_make_fixtures_writes_the_fixtures_as_committed(tmp_path: Path) -> None:
    copy_into(tmp_path, "tests/records.py", "tests/fixtures/make_fixtures.py")
    subprocess.run([sys.executable, "tests/fixtures/make_fixtures.py"], cwd=tmp_path, check=True, capture_output=True)
    written = files_under(tmp_path / "tests" / "fixtures")
    del written["make_fixtures.py"]
    committed = files_under(FIXTURES)
    for name in ("README.md", "make_fixtures.py", "claude_2_1_shapes.jsonl"):  # written by hand (real lines)
        del committed[name]
    committed = {name: data for name, data in committed.items() if not name.startswith(("real/", "__pycache__/"))}
    assert written.keys() == committed.keys()
    assert written == committed


def test_make_demo_writes_the_demo_as_committed(tmp_path: Path) -> None:
    demo_scripts = [str(p.relative_to(ROOT)) for p in (ROOT / "scripts" / "demo").glob("*.py")]
    copy_into(tmp_path, "tests/records.py", "scripts/make_demo.py", *demo_scripts)
    subprocess.run([sys.executable, "scripts/make_demo.py"], cwd=tmp_path, check=True, capture_output=True)
    written = files_under(tmp_path / "claude_tui" / "demo")
    committed = files_under(DEMO)
    del committed["README.md"]
    assert written.keys() == committed.keys()
    assert written == committed
