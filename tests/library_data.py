"""Small projects folders for the library, index and search tests."""

from __future__ import annotations

import itertools
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

_ids = itertools.count(1)


def uid() -> str:
    return f"00000000-0000-4000-8000-{next(_ids):012d}"


class Writer:
    """Records of one session, chained by parentUuid, one second apart."""

    def __init__(self, sid: str, cwd: str = "/home/u/proj", start: int = 0, branch: str = "main") -> None:
        self.sid, self.cwd, self.branch = sid, cwd, branch
        self.clock = start
        self.last: str | None = None
        self.records: list[dict[str, Any]] = []

    def _rec(self, rtype: str, **extra: Any) -> dict[str, Any]:
        self.clock += 1
        moment = datetime(2026, 1, 5, 9, tzinfo=UTC) + timedelta(seconds=self.clock)
        uuid = uid()
        rec = {
            "parentUuid": self.last,
            "isSidechain": False,
            "cwd": self.cwd,
            "sessionId": self.sid,
            "gitBranch": self.branch,
            "type": rtype,
            "uuid": uuid,
            "timestamp": moment.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            **extra,
        }
        self.last = uuid
        self.records.append(rec)
        return rec

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
        self.records.append({"type": rtype, "sessionId": self.sid, **fields})

    def lines(self) -> bytes:
        return b"".join(orjson.dumps(r) + b"\n" for r in self.records)

    def write(self, folder: Path, mtime: float | None = None) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.sid}.jsonl"
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
