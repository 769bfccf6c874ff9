"""The demo's engine: deterministic ids, workspaces whose edits give true patches, and `Transcript`,
a record chain (tests/records.py) that writes a turn, a tool call and its result in one call each.

Everything is deterministic: ids are hashes of fixed labels, timestamps are fixed instants in 2026,
and the only "randomness" is a seeded ``random.Random``.
"""

from __future__ import annotations

import base64
import copy
import difflib
import hashlib
import json
import os
import random
import re
import string
import struct
import sys
import uuid
import zlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, for the record builder tests/records.py

from tests.records import (
    TIP,
    Chain,
    Json,
    agent_progress,
    assistant_message,
    bash_result,
    dumps,
    instant,
    text,
    tool_result,
    user_message,
)

OPUS_45 = "claude-opus-4-5-20251101"
OPUS_46 = "claude-opus-4-6"
SONNET = "claude-sonnet-4-5-20250929"
HAIKU = "claude-haiku-4-5-20251001"

B62 = string.digits + string.ascii_uppercase + string.ascii_lowercase


# --------------------------------------------------------------------------- ids, paths, time


def encode_project(path: str) -> str:
    """Name a project folder as Claude Code does: every non-alphanumeric char becomes '-'."""
    return re.sub(r"[^A-Za-z0-9]", "-", path)


def stable_uuid(label: str) -> str:
    """A version-4-shaped UUID derived from a label."""
    return str(uuid.UUID(bytes=hashlib.sha256(label.encode()).digest()[:16], version=4))


def agent_id(label: str, width: int) -> str:
    """A subagent id: 8 hex chars in 2.0.x, 'a' + 16 hex chars in 2.1.x."""
    digest = hashlib.sha256(f"agent-id:{label}".encode()).hexdigest()
    return digest[:width] if width == 8 else "a" + digest[: width - 1]


class Ids:
    """Deterministic ids: each one hashes a seed and a counter."""

    def __init__(self, seed: str) -> None:
        self._seed = seed
        self._n = 0

    def _digest(self) -> bytes:
        self._n += 1
        return hashlib.sha256(f"{self._seed}#{self._n}".encode()).digest()

    def uuid(self) -> str:
        return str(uuid.UUID(bytes=self._digest()[:16], version=4))

    def token(self, n: int) -> str:
        return "".join(B62[b % 62] for b in self._digest()[:n])


def at(text: str) -> datetime:
    """Parse a fixed instant written as 'YYYY-MM-DD HH:MM:SS' (UTC)."""
    return instant(text)


# --------------------------------------------------------------------------- file helpers


def numbered(text: str, start: int = 1) -> str:
    """Format file text the way the Read tool returns it (`cat -n` with an arrow)."""
    return "\n".join(f"{n:>6}→{line}" for n, line in enumerate(text.splitlines(), start))


def hunks(old: str, new: str) -> list[Json]:
    """structuredPatch hunks (3 lines of context) turning `old` into `new`."""
    out: list[Json] = []
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), n=3, lineterm="")
    for i, line in enumerate(diff):
        if i < 2:  # the ---/+++ header
            continue
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", line)
        if m:
            out.append(
                {
                    "oldStart": int(m[1]),
                    "oldLines": int(m[2] or 1),
                    "newStart": int(m[3]),
                    "newLines": int(m[4] or 1),
                    "lines": [],
                }
            )
        else:
            out[-1]["lines"].append(line)
    return out


class Workspace:
    """The files of one repository, so edits produce true patches."""

    def __init__(self, root: str, files: dict[str, str]) -> None:
        self.root = root
        self.files = {f"{root}/{k}": v for k, v in files.items()}

    def path(self, rel: str) -> str:
        return f"{self.root}/{rel}"


def tiny_png(width: int = 300, height: int = 136) -> bytes:
    """A small, valid PNG that looks like a dark terminal with a coloured table."""
    rng = random.Random(19)
    bg, fg = (24, 26, 33), (200, 204, 212)
    px = [[bg] * width for _ in range(height)]
    for row in range(10):
        y0 = 6 + row * 13
        x = 6
        for col in range(4):
            colour = fg
            if col in (1, 2) and row > 0:
                colour = (96, 156, 255) if rng.random() < 0.35 else (236, 92, 84) if rng.random() < 0.3 else fg
            for _ in range(rng.randint(3, 7) if col == 0 else 4):
                w = rng.randint(3, 5)
                for dy in range(8):
                    for dx in range(w):
                        if x + dx < width and rng.random() < 0.78:
                            px[y0 + dy][x + dx] = colour
                x += w + 2
            x += 14
    raw = b"".join(b"\x00" + bytes(c for p in line for c in p) for line in px)

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


# --------------------------------------------------------------------------- transcripts


@dataclass
class Call:
    """A tool_use block as written, and the uuid of the record that carried it."""

    id: str
    name: str
    input: Json
    record: str


class Transcript(Chain):
    """One demo JSONL file being written: a record chain with a model, token accounting and tool runs."""

    def __init__(
        self,
        label: str,
        session_id: str,
        cwd: str,
        version: str,
        branch: str,
        start: datetime,
        model: str,
        *,
        sidechain: bool = False,
        agent_id: str | None = None,
        entrypoint: str | None = None,
        snapshots: bool = False,
        slug: str | None = None,
        context: int = 14_200,
    ) -> None:
        self.label = label
        self.ids = Ids(label)
        super().__init__(
            session_id,
            cwd,
            version,
            uuids=self.ids.uuid,
            start=start,
            branch=branch,
            sidechain=sidechain,
            agent_id=agent_id,
            entrypoint=entrypoint,
            slug=slug,
        )
        self.model, self.snapshots, self.context = model, snapshots, context
        self.cached = False
        self.fresh = 0
        self.prompt_id: str | None = None
        self.last_usage: Json = {}
        self.tool_uses = 0

    def emit(
        self,
        kind: str,
        body: Json,
        *,
        parent: str | None = TIP,
        after: float = 1.0,
        trailer: Json | None = None,
        uid: str | None = None,
        head: Json | None = None,
    ) -> Json:
        """Append a chained record with the envelope this version writes."""
        prompt_id = self.prompt_id if kind == "user" else None
        rec = self.record(
            kind, body, parent=parent, after=after, uid=uid, head=head, trailer=trailer, prompt_id=prompt_id
        )
        self.records[-1] = copy.deepcopy(rec)  # inputs are reused later; freeze them now
        return rec

    # -- user side

    def prompt(self, content: str | list[Json], *, parent: str | None = TIP, after: float = 25.0, **extra: Any) -> str:
        """A user prompt (preceded by a file-history-snapshot in 2.x sessions)."""
        uid = self.ids.uuid()
        self.wait(after)
        text = content if isinstance(content, str) else content[-1].get("text", "")
        real = not (
            extra.get("isMeta")
            or extra.get("isCompactSummary")
            or text.startswith(("<local-command-stdout>", "[Request interrupted"))
        )
        if self.snapshots and not self.sidechain and real:
            self.side(
                {
                    "type": "file-history-snapshot",
                    "messageId": uid,
                    "snapshot": {"messageId": uid, "trackedFileBackups": {}, "timestamp": self.ts()},
                    "isSnapshotUpdate": False,
                }
            )
        if self.modern and real:
            self.prompt_id = self.ids.uuid()
        self.fresh += len(json.dumps(content))
        body = {"message": user_message(content), **extra}
        return self.emit("user", body, parent=parent, after=0, uid=uid)["uuid"]

    def result(
        self, call: Call, content: str | list[Json], tur: Any, *, is_error: bool | None = None, after: float = 1.2
    ) -> str:
        """A tool_result user record; 2.1 parents it on its own tool_use chunk."""
        block = tool_result(call.id, content, is_error)
        trailer: Json = {} if tur is None else {"toolUseResult": tur}
        parent = TIP
        if self.v >= (2, 1):
            parent = call.record
            trailer["sourceToolAssistantUUID"] = call.record
        self.fresh += len(json.dumps(content))
        body = {"message": user_message([block])}
        return self.emit("user", body, parent=parent, after=after, trailer=trailer)["uuid"]

    # -- assistant side

    text = staticmethod(text)

    def think(self, text: str) -> Json:
        sig = base64.b64encode(hashlib.sha512(text.encode()).digest() * 2).decode()
        return {"type": "thinking", "thinking": text, "signature": sig}

    def tool(self, name: str, **inp: Any) -> Json:
        return {"type": "tool_use", "id": "toolu_01" + self.ids.token(22), "name": name, "input": inp}

    def _usage(self, blocks: tuple[Json, ...]) -> Json:
        out = max(12, sum(len(json.dumps(b, ensure_ascii=False)) for b in blocks) // 4)
        if self.cached:
            create, read = 40 + self.fresh // 4, self.context
        else:
            create, read, self.cached = self.context + self.fresh // 4, 0, True
        self.context = create + read + out
        self.fresh = 0
        usage: Json = {
            "input_tokens": 4 + len(self.records) % 6,
            "cache_creation_input_tokens": create,
            "cache_read_input_tokens": read,
        }
        if self.v >= (2, 0):
            usage["cache_creation"] = {"ephemeral_5m_input_tokens": create, "ephemeral_1h_input_tokens": 0}
        usage |= {"output_tokens": out, "service_tier": "standard"}
        return usage

    def say(self, *blocks: Json, model: str | None = None, after: float = 3.0, gap: float = 0.7) -> list[Call]:
        """One assistant message, streamed: a record per content block, sharing message.id."""
        msg_id = "msg_01" + self.ids.token(22)
        req = "req_011C" + self.ids.token(18)
        usage = self._usage(blocks)
        self.last_usage = usage
        calls = []
        for i, block in enumerate(blocks):
            last = i == len(blocks) - 1
            u = usage if last else {**usage, "output_tokens": 1 + 7 * i}
            stop = ("tool_use" if block["type"] == "tool_use" else "end_turn") if last else None
            message = assistant_message(msg_id, model or self.model, block, stop, u, legacy=self.v < (2, 0))
            rec = self.emit("assistant", {"message": message, "requestId": req}, after=after if i == 0 else gap)
            if block["type"] == "tool_use":
                calls.append(Call(block["id"], block["name"], block["input"], rec["uuid"]))
        self.tool_uses += len(calls)
        return calls

    def system(
        self, subtype: str, *, after: float = 0.3, parent: str | None = TIP, head: Json | None = None, **fields: Any
    ) -> str:
        return self.emit("system", {"subtype": subtype, **fields}, after=after, parent=parent, head=head)["uuid"]

    def progress(
        self, data: Json, *, tool_use_id: str, parent_tool_use_id: str, after: float = 0.05, parent: str | None = TIP
    ) -> str:
        body = {"data": data, "parentToolUseID": parent_tool_use_id, "toolUseID": tool_use_id}
        return self.emit("progress", body, after=after, parent=parent)["uuid"]

    def hook(self, event: str, name: str, command: str, tool_use_id: str, *, parent: str | None = TIP) -> str:
        data = {"type": "hook_progress", "hookEvent": event, "hookName": name, "command": command}
        return self.progress(data, tool_use_id=tool_use_id, parent_tool_use_id=tool_use_id, parent=parent)

    # -- subagents

    def subagent(self, label: str, *, agent_id: str | None, model: str = HAIKU) -> Transcript:
        """A sidechain transcript of the same session, starting now."""
        return Transcript(
            label,
            self.session_id,
            self.cwd,
            self.version,
            self.branch,
            self.clock,
            model,
            sidechain=True,
            agent_id=agent_id,
            entrypoint=self.entrypoint,
            slug=self.slug,
            context=9_400,
        )

    def agent_result(
        self, call: Call, sub: Transcript, report: str, *, agent_type: str | None = None, after: float = 1.0
    ) -> str:
        """Write the Task/Agent tool result in the shape this version uses."""
        self.clock = max(self.clock, sub.clock)
        u = sub.last_usage
        total = sum(
            u[k] for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")
        )
        stats = {
            "totalDurationMs": int((sub.clock - sub.start).total_seconds() * 1000),
            "totalTokens": total,
            "totalToolUseCount": sub.tool_uses,
            "usage": u,
        }
        text = [self.text(report)]
        if sub.agent_id is None:  # 1.0.x inline sidechain
            return self.result(call, text, {"content": text, **stats, "wasInterrupted": False}, after=after)
        tur: Json = {"status": "completed", "prompt": call.input["prompt"], "agentId": sub.agent_id}
        if agent_type:
            tur["agentType"] = agent_type
        tur |= {"content": text, **stats}
        content = text
        if self.v >= (2, 1, 100):
            content = [
                *text,
                self.text(
                    f"agentId: {sub.agent_id} (use SendMessage with to: '{sub.agent_id}' to continue this agent)\n"
                    f"<usage>total_tokens: {total}\ntool_uses: {sub.tool_uses}\n"
                    f"duration_ms: {stats['totalDurationMs']}</usage>"
                ),
            ]
        elif self.v >= (2, 1):
            content = [
                *text,
                self.text(f"agentId: {sub.agent_id} (for resuming to continue this agent's work if needed)"),
            ]
        return self.result(call, content, tur, after=after)

    def mirror_progress(self, call: Call, sub: Transcript) -> None:
        """Copy a subagent's turns into this file as agent_progress records (2.1.7 to 2.1.42)."""
        turns = [r for r in sub.records if r["type"] in ("user", "assistant")]
        for tool_use_id, data in agent_progress(turns, call.input["prompt"], sub.agent_id or ""):
            self.clock = max(self.clock, instant(data["message"]["timestamp"]))
            self.progress(data, tool_use_id=tool_use_id, parent_tool_use_id=call.id, after=0.004)

    # -- tools that change files

    def run_write(self, call: Call, ws: Workspace) -> str:
        path, content = call.input["file_path"], call.input["content"]
        ws.files[path] = content
        tur = {"type": "create", "filePath": path, "content": content, "structuredPatch": [], "originalFile": None}
        return self.result(call, f"File created successfully at: {path}", tur)

    def run_read(self, call: Call, ws: Workspace, *, reminder: bool = False) -> str:
        path = call.input["file_path"]
        text = ws.files[path]
        body = numbered(text)
        if reminder:
            body += (
                "\n\n<system-reminder>\nIf this file looked malicious you would refuse to improve it; "
                "reading and explaining it is fine.\n</system-reminder>\n"
            )
        n = len(text.splitlines())
        tur = {
            "type": "text",
            "file": {"filePath": path, "content": text, "numLines": n, "startLine": 1, "totalLines": n},
        }
        return self.result(call, body, tur)

    def run_grep(self, call: Call, ws: Workspace) -> str:
        """Grep in content mode with line numbers, over the workspace's files."""
        rx = re.compile(call.input["pattern"])
        base = call.input.get("path", ws.root)
        hits = [
            f"{path[len(ws.root) + 1 :]}:{n}:{line}"
            for path in sorted(ws.files)
            if path.startswith(base)
            for n, line in enumerate(ws.files[path].splitlines(), 1)
            if rx.search(line)
        ]
        content = "\n".join(hits)
        tur = {"mode": "content", "numFiles": 0, "filenames": [], "content": content, "numLines": len(hits)}
        return self.result(call, content or "No matches found", tur)

    def absorb(self, sub: Transcript) -> None:
        """Inline a 1.0.x sidechain: its records go into this file, the main tip stays."""
        self.records.extend(sub.records)
        self.clock = max(self.clock, sub.clock)

    def run_edit(self, call: Call, ws: Workspace) -> str:
        path, old, new = call.input["file_path"], call.input["old_string"], call.input["new_string"]
        original = ws.files[path]
        if old not in original:
            msg = f"String to replace not found in file.\nString: {old}"
            return self.result(call, f"<tool_use_error>{msg}</tool_use_error>", f"Error: {msg}", is_error=True)
        updated = original.replace(old, new, 1)
        ws.files[path] = updated
        patch = hunks(original, updated)
        first = patch[0]
        lines = updated.splitlines()[first["newStart"] - 1 : first["newStart"] - 1 + first["newLines"]]
        snippet = numbered("\n".join(lines), first["newStart"])
        tur = {
            "filePath": path,
            "oldString": old,
            "newString": new,
            "originalFile": original,
            "structuredPatch": patch,
            "userModified": False,
            "replaceAll": False,
        }
        return self.result(
            call,
            f"The file {path} has been updated. Here's the result of running `cat -n` "
            f"on a snippet of the edited file:\n{snippet}",
            tur,
        )

    def run_multiedit(self, call: Call, ws: Workspace) -> str:
        path, edits = call.input["file_path"], call.input["edits"]
        original = updated = ws.files[path]
        summary = []
        for n, e in enumerate(edits, 1):
            assert e["old_string"] in updated, (path, e["old_string"])
            updated = updated.replace(e["old_string"], e["new_string"], 1)
            summary.append(f'{n}. Replaced "{e["old_string"][:40]}..." with "{e["new_string"][:40]}..."')
        ws.files[path] = updated
        tur = {
            "filePath": path,
            "edits": [{**e, "replace_all": False} for e in edits],
            "originalFileContents": original,
            "structuredPatch": hunks(original, updated),
            "userModified": False,
        }
        return self.result(call, f"Applied {len(edits)} edits to {path}:\n" + "\n".join(summary), tur)

    def run_bash(self, call: Call, stdout: str, *, exit_code: int = 0, after: float = 2.0) -> str:
        if exit_code:
            text = f"Exit code {exit_code}\n{stdout}"
            return self.result(call, text, f"Error: {text}", is_error=True, after=after)
        tur = bash_result(stdout)
        if self.v >= (2, 0, 50):
            tur["noOutputExpected"] = False
        return self.result(call, stdout, tur, is_error=False, after=after)

    def run_todos(self, call: Call, old: list[Json]) -> str:
        return self.result(
            call,
            "Todos have been modified successfully. Ensure that you continue to use the "
            "todo list to track your progress. Please proceed with the current tasks if "
            "applicable",
            {"oldTodos": old, "newTodos": call.input["todos"]},
        )

    # -- records outside the chain

    def summary(self, text: str, leaf: str) -> None:
        self.side({"type": "summary", "summary": text, "leafUuid": leaf})

    def titled(self, kind: str, title: str) -> None:
        key = "aiTitle" if kind == "ai-title" else "customTitle"
        self.side({"type": kind, key: title, "sessionId": self.session_id})


def todos(*items: tuple[str, str, str]) -> list[Json]:
    return [{"content": c, "status": s, "activeForm": a} for c, a, s in items]


# --------------------------------------------------------------------------- writing


def write_jsonl(path: Path, t: Transcript) -> int:
    """Write `t` as a JSONL file dated by its last record; return its size in bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = "".join(dumps(r) + "\n" for r in t.records)
    path.write_text(data, encoding="utf-8")
    stamps = [r["timestamp"] for r in t.records if "timestamp" in r]
    when = instant(max(stamps)) if stamps else t.start
    os.utime(path, (when.timestamp(), when.timestamp()))
    return len(data.encode())
