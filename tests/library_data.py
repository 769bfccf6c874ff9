"""Small projects folders for the library, index and search tests."""

from __future__ import annotations

import itertools
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from tests.records import Chain

#: The time a Writer's clock counts seconds from.
EPOCH = datetime(2026, 1, 5, 9, tzinfo=UTC)
#: The Claude Code version that Writer's records say wrote them.
VERSION = "2.1.9"

_ids = itertools.count(1)


def uid() -> str:
    return f"00000000-0000-4000-8000-{next(_ids):012d}"


class Writer:
    """Records of one session, chained by parentUuid, one second apart: a `Chain` (tests/records.py) with the
    body after the envelope, and a clock counted in seconds from EPOCH."""

    def __init__(self, sid: str, cwd: str = "/home/u/proj", start: int = 0, branch: str = "main") -> None:
        self.chain = Chain(
            sid, cwd, VERSION, uuids=uid, start=EPOCH + timedelta(seconds=start), branch=branch, body_last=True
        )

    @property
    def clock(self) -> int:
        """Seconds from EPOCH to the time of the last record: the next one is a second later."""
        return int((self.chain.clock - EPOCH).total_seconds())

    @clock.setter
    def clock(self, seconds: int) -> None:
        self.chain.clock = EPOCH + timedelta(seconds=seconds)

    @property
    def last(self) -> str | None:
        """The uuid the next record chains to."""
        return self.chain.tip

    @property
    def records(self) -> list[dict[str, Any]]:
        return self.chain.records

    @records.setter
    def records(self, records: list[dict[str, Any]]) -> None:
        self.chain.records = records

    def _rec(self, rtype: str, **extra: Any) -> dict[str, Any]:
        return self.chain.record(rtype, extra, after=1)

    def prompt(self, text: str | list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        return self._rec("user", message={"role": "user", "content": text}, **extra)

    def answer(
        self,
        *blocks: dict[str, Any],
        model: str = "claude-sonnet-4-5-20250929",
        out: int = 10,
        usage: dict[str, Any] | None = None,
    ) -> str:
        """One record per block (streamed), sharing a message id; returns the id."""
        mid = f"msg_{uid()[-8:]}"
        usage = usage or {"input_tokens": 3, "output_tokens": out, "cache_read_input_tokens": 100}
        for block in blocks or ({"type": "text", "text": "ok"},):
            self._rec("assistant", message={"id": mid, "model": model, "role": "assistant", "content": [block],
                                            "usage": usage})  # fmt: skip
        return mid

    def tool(self, name: str, inp: dict[str, Any], output: str, error: bool = False) -> str:
        tid = f"toolu_{uid()[-8:]}"
        self.answer({"type": "tool_use", "id": tid, "name": name, "input": inp})
        content = [{"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": error}]
        self._rec("user", message={"role": "user", "content": content})
        return tid

    def meta(self, rtype: str, **fields: Any) -> None:
        self.chain.side({"type": rtype, "sessionId": self.chain.session_id, **fields})

    def lines(self) -> bytes:
        return b"".join(orjson.dumps(r) + b"\n" for r in self.records)

    def write(self, folder: Path, mtime: float | None = None) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.chain.session_id}.jsonl"
        path.write_bytes(self.lines())
        if mtime is not None:
            os.utime(path, (mtime, mtime))
        return path

    def append(self, path: Path, start: int) -> None:
        """Append the records from index `start` on."""
        with open(path, "ab") as f:
            f.write(b"".join(orjson.dumps(r) + b"\n" for r in self.records[start:]))


def encode(path: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in path)


def simple_project(root: Path, cwd: str = "/home/u/proj", sessions: int = 2, start: int = 0) -> list[Path]:
    """A project folder with `sessions` small sessions."""
    paths = []
    for i in range(sessions):
        w = Writer(f"sess-{encode(cwd)}-{i}", cwd, start=start + i * 1000)
        w.prompt(f"please fix the parser number {i}")
        w.answer({"type": "thinking", "thinking": "the tokenizer drops quotes"}, {"type": "text", "text": "Fixed it."})
        w.tool("Bash", {"command": "pytest -q tests/test_parser.py"}, "1 failed: AssertionError in parser", error=True)
        w.answer({"type": "text", "text": f"All green now, session {i}."})
        paths.append(w.write(root / encode(cwd)))
    return paths


def tree_state(root: Path) -> dict[str, tuple[int, int]]:
    """Every path under `root` with its size and mtime: to show nothing was written there."""
    state = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            st = os.stat(os.path.join(dirpath, name))
            state[os.path.join(dirpath, name)] = (st.st_size if name in filenames else 0, st.st_mtime_ns)
    return state
