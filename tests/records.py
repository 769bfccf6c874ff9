"""One builder of Claude Code records, shared by the demo generator, the test fixtures and the tests.

`Chain` writes the envelope that Claude Code puts on every chained record (parentUuid, isSidechain,
userType, cwd, sessionId, version, gitBranch, agentId, slug, type, uuid, timestamp), in the key order
the version writes, with a clock and the tip of the uuid chain. The functions below it build the
bodies (messages and content blocks) the three callers share.

It lives in tests/ so that the package ships no test code, and is imported as ``tests.records``, as
the tests import ``tests.jsonl``: ``scripts/demo/engine.py`` and ``tests/fixtures/make_fixtures.py``
put the checkout on ``sys.path`` first. Every caller's output is byte-identical to what it wrote before this module.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

Json = dict[str, Any]

#: The sentinel parent: "whatever the chain's tip is".
TIP = "\x00tip"


def iso(when: datetime) -> str:
    """A timestamp as Claude Code writes it: UTC, milliseconds, a ``Z``."""
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def instant(text: str) -> datetime:
    """Parse ``YYYY-MM-DDTHH:MM:SS`` (or a written timestamp) as a UTC instant."""
    return datetime.fromisoformat(text.removesuffix("Z")).replace(tzinfo=UTC)


def dumps(rec: Json) -> str:
    """One record as one JSON line's text: compact, non-ASCII kept, like Claude Code."""
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":"))


def version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in version.split("."))


class Chain:
    """The records of one session file: their envelope, a clock and the tip of the uuid chain.

    Claude Code writes the envelope first and the body after ``type`` (an assistant's body before it)
    up to 2.1.99; from 2.1.100 promptId follows isSidechain, the body comes right after ``type`` and the
    envelope last (real 2.1.100+ assistant records put their body before ``type``; this one does not,
    so that the demo's files stay as they are). ``body_last`` puts the body after the timestamp
    instead: the layout the fixtures and the tests have always used, kept so that their bytes do not
    change.
    """

    def __init__(
        self,
        session_id: str,
        cwd: str,
        version: str,
        *,
        uuids: Callable[[], str],
        start: datetime,
        branch: str = "main",
        sidechain: bool = False,
        agent_id: str | None = None,
        entrypoint: str | None = None,
        slug: str | None = None,
        body_last: bool = False,
    ) -> None:
        self.session_id, self.cwd, self.version, self.branch = session_id, cwd, version, branch
        self.sidechain, self.agent_id, self.entrypoint, self.slug = sidechain, agent_id, entrypoint, slug
        self.uuids = uuids
        self.start: datetime = start
        self.clock: datetime = start
        self.body_last = body_last
        self.records: list[Json] = []
        self.tip: str | None = None

    @property
    def v(self) -> tuple[int, ...]:
        return version_tuple(self.version)

    @property
    def modern(self) -> bool:
        """2.1.100+ puts the envelope after the body and adds entrypoint/promptId."""
        return self.v >= (2, 1, 100)

    def ts(self) -> str:
        return iso(self.clock)

    def wait(self, seconds: float) -> None:
        self.clock += timedelta(seconds=seconds)

    def side(self, rec: Json) -> Json:
        """Append a record that is not part of the uuid chain."""
        self.records.append(rec)
        return rec

    def record(
        self,
        kind: str,
        body: Json,
        *,
        parent: str | None = TIP,
        after: float = 0.0,
        uid: str | None = None,
        head: Json | None = None,
        trailer: Json | None = None,
        prompt_id: str | None = None,
        sidechain: bool | None = None,
        agent_id: str | None = None,
    ) -> Json:
        """Append a chained record `after` seconds on, with this file's envelope; it becomes the tip.

        `head` follows parentUuid (logicalParentUuid), `trailer` follows the timestamp;
        `sidechain` and `agent_id` override the file's for this record.
        """
        self.wait(after)
        uid = uid or self.uuids()
        first: Json = {"parentUuid": self.tip if parent == TIP else parent, **(head or {})}
        first["isSidechain"] = self.sidechain if sidechain is None else sidechain
        env: Json = {"userType": "external"}
        if self.entrypoint:
            env["entrypoint"] = self.entrypoint
        env |= {"cwd": self.cwd, "sessionId": self.session_id, "version": self.version, "gitBranch": self.branch}
        agent = agent_id or self.agent_id
        ident = {"agentId": agent} if agent else {}
        slug = {"slug": self.slug} if self.slug else {}
        tail = {"uuid": uid, "timestamp": self.ts(), **(trailer or {})}
        if self.body_last:
            rec = {**first, **env, **ident, **slug, "type": kind, **tail, **body}
        elif self.modern:
            if prompt_id:
                first["promptId"] = prompt_id
            rec = {**first, **ident, "type": kind, **body, **tail, **env, **slug}
        elif kind == "assistant":
            rec = {**first, **env, **ident, **slug, **body, "type": kind, **tail}
        else:
            rec = {**first, **env, **ident, **slug, "type": kind, **body, **tail}
        self.records.append(rec)
        self.tip = uid
        return rec


# --------------------------------------------------------------------------- bodies


def text(value: str) -> Json:
    return {"type": "text", "text": value}


def tool_use(tool_id: str, name: str, **inp: Any) -> Json:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": inp}


def tool_result(tool_id: str, content: Any, is_error: bool | None = None) -> Json:
    """A tool_result block; `is_error` is left out when None, as some versions do."""
    block: Json = {"tool_use_id": tool_id, "type": "tool_result", "content": content}
    if is_error is not None:
        block["is_error"] = is_error
    return block


def user_message(content: str | list[Json]) -> Json:
    return {"role": "user", "content": content}


def assistant_message(
    msg_id: str, model: str, block: Json, stop: str | None, usage: Json, *, legacy: bool = False
) -> Json:
    """One streamed chunk of an assistant message; 1.0.x (`legacy`) wrote the model after the role."""
    ident = {"id": msg_id, "type": "message", "role": "assistant"}
    head = {**ident, "model": model} if legacy else {"model": model, **ident}
    return {**head, "content": [block], "stop_reason": stop, "stop_sequence": None, "usage": usage}


def bash_result(stdout: str) -> Json:
    """The toolUseResult of a Bash call that exited 0."""
    return {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}


def agent_progress(turns: list[Json], prompt: str, agent_id: str) -> Iterator[tuple[str, Json]]:
    """For each user or assistant record of a subagent: the toolUseID and data of the agent_progress
    record that mirrors it in the parent file (2.1.7 to 2.1.42); the id names the latest message."""
    current = next(r["message"]["id"] for r in turns if r["type"] == "assistant")
    for rec in turns:
        nested: Json = {"type": rec["type"], "message": rec["message"]}
        if rec["type"] == "assistant":
            current = rec["message"]["id"]
            nested["requestId"] = rec["requestId"]
        nested |= {"uuid": rec["uuid"], "timestamp": rec["timestamp"]}
        data = {
            "message": nested,
            "normalizedMessages": [],
            "type": "agent_progress",
            "prompt": prompt,
            "agentId": agent_id,
        }
        yield f"agent_{current}", data
