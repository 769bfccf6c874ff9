"""Build small session files in tests: records with uuids chained like Claude Code writes them."""

from __future__ import annotations

from itertools import count
from pathlib import Path
from typing import Any

import orjson

from tests.records import TIP, Chain, instant, text, tool_use

__all__ = ["Thread", "text", "tool_use"]


class Thread(Chain):
    """Writes records whose parentUuid chains to the previous record unless told otherwise.

    A `parent` of True means the tip; uuids are ``u0001``, ``u0002``…, five seconds apart."""

    def __init__(self, session_id: str = "s1", cwd: str = "/home/u/proj", version: str = "2.1.9") -> None:
        numbers = count(1)
        super().__init__(
            session_id,
            cwd,
            version,
            uuids=lambda: f"u{next(numbers):04d}",
            start=instant("2026-01-05T09:00:00"),
            body_last=True,
        )
        self._n = 0

    @property
    def last(self) -> str | None:
        """The tip: the uuid the next record chains to."""
        return self.tip

    @last.setter
    def last(self, uuid: str | None) -> None:
        self.tip = uuid

    def _base(self, rtype: str, parent: str | bool | None, **extra: Any) -> dict[str, Any]:
        self._n += 1
        return self.record(
            rtype, extra, parent=TIP if parent is True else (None if parent is False else parent), after=5
        )

    def prompt(
        self, text: str | list[dict[str, Any]], parent: str | bool | None = True, **extra: Any
    ) -> dict[str, Any]:
        return self._base("user", parent, message={"role": "user", "content": text}, **extra)

    def answer(
        self,
        *blocks: dict[str, Any],
        msg_id: str | None = None,
        model: str = "claude-sonnet-4-5-20250929",
        output_tokens: int = 10,
        parent: str | bool | None = True,
    ) -> dict[str, Any]:
        """One record per block, all sharing one message id (streamed); returns the last."""
        msg_id = msg_id or f"msg_{self._n:04d}"
        rec: dict[str, Any] = {}
        for i, block in enumerate(blocks or ({"type": "text", "text": "ok"},)):
            rec = self._base(
                "assistant",
                parent if i == 0 else True,
                message={
                    "id": msg_id,
                    "model": model,
                    "role": "assistant",
                    "type": "message",
                    "content": [block],
                    "stop_reason": "end_turn" if i == len(blocks) - 1 else None,
                    "usage": {
                        "input_tokens": 3,
                        "output_tokens": output_tokens + i,
                        "cache_read_input_tokens": 100,
                        "cache_creation_input_tokens": 20,
                    },
                },
            )
        return rec

    def result(self, tool_id: str, content: Any, is_error: bool = False, **extra: Any) -> dict[str, Any]:
        block = {"type": "tool_result", "tool_use_id": tool_id, "content": content, "is_error": is_error}
        return self._base("user", True, message={"role": "user", "content": [block]}, **extra)

    def system(self, subtype: str, parent: str | bool | None = True, **extra: Any) -> dict[str, Any]:
        return self._base("system", parent, subtype=subtype, **extra)

    def raw(self, record: dict[str, Any]) -> dict[str, Any]:
        return self.side(record)

    def bytes(self) -> bytes:
        return b"".join(orjson.dumps(r) + b"\n" for r in self.records)

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(self.bytes())
        return path
