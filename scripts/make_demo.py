#!/usr/bin/env python3
"""Write the hand-authored demo Claude home that `claude-tui --demo` opens.

    python scripts/make_demo.py

It deletes and rewrites ``claude_tui/demo/projects`` and ``claude_tui/demo/plans``.
Everything is deterministic: ids are hashes of fixed labels, timestamps are fixed
instants in 2026, and the only "randomness" is a seeded ``random.Random``. The
record shapes follow real Claude Code transcripts (1.0.x, 2.0.x and 2.1.x); the
conversations themselves are original. ``claude_tui/demo/README.md`` says which
session shows which feature.
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
import shutil
import string
import struct
import sys
import uuid
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the record builder, tests/records.py

from records import (  # noqa: E402
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

DEMO = ROOT / "claude_tui" / "demo"
HOME = "/home/ada"

OPUS_45 = "claude-opus-4-5-20251101"
OPUS_46 = "claude-opus-4-6"
SONNET = "claude-sonnet-4-5-20250929"
HAIKU = "claude-haiku-4-5-20251001"

WEATHER = f"{HOME}/code/weather-cli"
NOTES = f"{HOME}/code/notes-api"
AUTH = f"{HOME}/code/notes-api-worktrees/feature-auth"
SCRATCH = f"{HOME}/scratch"

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


# --------------------------------------------------------------------------- repository contents

WEATHER_FILES = {
    "pyproject.toml": """\
[project]
name = "weather-cli"
version = "0.1.0"
description = "Current weather and a short forecast in your terminal."
requires-python = ">=3.12"
dependencies = ["httpx>=0.27", "typer>=0.12", "rich>=13.7"]

[project.scripts]
weather = "weather_cli.cli:app"

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"
""",
    "src/weather_cli/api.py": '''\
"""Thin client for the Open-Meteo geocoding and forecast APIs."""

from dataclasses import dataclass

import httpx

GEOCODE_URL = "https://geocoding-api.open-meteo.com/v1/search"
FORECAST_URL = "https://api.open-meteo.com/v1/forecast"


@dataclass(frozen=True)
class Place:
    name: str
    country: str
    latitude: float
    longitude: float


def find_place(city: str, client: httpx.Client) -> Place:
    resp = client.get(GEOCODE_URL, params={"name": city, "count": 1})
    resp.raise_for_status()
    results = resp.json().get("results")
    if not results:
        raise LookupError(f"No place called {city!r}")
    hit = results[0]
    return Place(hit["name"], hit.get("country", ""), hit["latitude"], hit["longitude"])


def forecast(place: Place, client: httpx.Client, days: int = 3) -> dict:
    params = {
        "latitude": place.latitude,
        "longitude": place.longitude,
        "current": "temperature_2m,wind_speed_10m,weather_code",
        "daily": "temperature_2m_max,temperature_2m_min,precipitation_sum",
        "forecast_days": days,
        "timezone": "auto",
    }
    resp = client.get(FORECAST_URL, params=params)
    resp.raise_for_status()
    return resp.json()
''',
    "src/weather_cli/cli.py": '''\
"""weather: current conditions and a short forecast for a city."""

import httpx
import typer
from rich.console import Console
from rich.table import Table

from weather_cli.api import find_place, forecast

app = typer.Typer(add_completion=False)
console = Console()


def render_table(data: dict) -> Table:
    daily = data["daily"]
    table = Table(title="Forecast")
    table.add_column("Day")
    table.add_column("Min", justify="right")
    table.add_column("Max", justify="right")
    table.add_column("Rain (mm)", justify="right")
    for day, lo, hi, rain in zip(
        daily["time"],
        daily["temperature_2m_min"],
        daily["temperature_2m_max"],
        daily["precipitation_sum"],
        strict=True,
    ):
        table.add_row(day, f"{lo:.1f}", f"{hi:.1f}", f"{rain:.1f}")
    return table


@app.command()
def main(city: str, days: int = typer.Option(3, min=1, max=7)) -> None:
    """Show the weather for CITY."""
    with httpx.Client(timeout=10) as client:
        place = find_place(city, client)
        data = forecast(place, client, days)
    now = data["current"]
    console.print(f"[bold]{place.name}, {place.country}[/bold]")
    console.print(f"Now: {now['temperature_2m']:.1f}°C, wind {now['wind_speed_10m']:.0f} km/h")
    console.print(render_table(data))
''',
}

WEATHER_TEST = """\
from weather_cli.cli import render_table

SAMPLE = {
    "current": {"temperature_2m": 21.4, "wind_speed_10m": 12.0, "weather_code": 1},
    "daily": {
        "time": ["2026-01-19", "2026-01-20", "2026-01-21"],
        "temperature_2m_min": [8.2, 9.0, 11.5],
        "temperature_2m_max": [17.9, 21.4, 26.3],
        "precipitation_sum": [0.0, 1.2, 0.4],
    },
}


def test_forecast_table_has_one_row_per_day():
    table = render_table(SAMPLE)
    assert table.row_count == 3


def test_forecast_table_formats_temperatures():
    table = render_table(SAMPLE)
    cells = list(table.columns[2].cells)
    assert cells == ["17.9", "21.4", "26.3"]
"""

NOTES_FILES = {
    "notes_api/db.py": '''\
"""SQLite access for notes."""

import sqlite3
from pathlib import Path

MIGRATIONS = Path(__file__).parent.parent / "migrations"


def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    return conn


def migrate(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY)")
    done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
    for script in sorted(MIGRATIONS.glob("*.sql")):
        if script.name not in done:
            conn.executescript(script.read_text())
            conn.execute("INSERT INTO schema_migrations(name) VALUES (?)", (script.name,))
    conn.commit()


def list_notes(conn: sqlite3.Connection, limit: int = 50) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT id, title, body, updated_at FROM notes ORDER BY updated_at DESC LIMIT ?",
        (limit,),
    ).fetchall()


def get_note(conn: sqlite3.Connection, note_id: int) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM notes WHERE id = ?", (note_id,)).fetchone()
''',
    "notes_api/app.py": '''\
"""HTTP routes for the notes service."""

from fastapi import Depends, FastAPI, HTTPException

from notes_api import db
from notes_api.deps import get_conn

app = FastAPI(title="notes-api")


@app.get("/notes")
def list_notes(limit: int = 50, conn=Depends(get_conn)) -> list[dict]:
    return [dict(row) for row in db.list_notes(conn, limit)]


@app.get("/notes/{note_id}")
def get_note(note_id: int, conn=Depends(get_conn)) -> dict:
    row = db.get_note(conn, note_id)
    if row is None:
        raise HTTPException(status_code=404, detail="note not found")
    return dict(row)
''',
}

PLAN_SLUG = "gentle-rolling-otter"
PLAN = """\
# Plan: full-text search for notes

## Context

Notes live in one SQLite table, `notes(id, title, body, created_at, updated_at)`, reached through
`notes_api/db.py`. Migrations are plain SQL files in `migrations/`, applied in name order by
`db.migrate()`. The API can list and fetch notes but cannot search them.

## Approach

Use SQLite's built-in **FTS5** with an *external content* table, so note text is not stored twice.

1. **Migration `003_notes_fts.sql`**
   - `CREATE VIRTUAL TABLE notes_fts USING fts5(title, body, content='notes', content_rowid='id',
     tokenize='porter unicode61');`
   - Triggers `notes_ai`, `notes_ad`, `notes_au` keep the index in step with inserts, deletes, updates.
   - Backfill existing rows: `INSERT INTO notes_fts(notes_fts) VALUES ('rebuild');`
2. **Query layer**: `db.search_notes(conn, q, limit=20)` ranks with `bm25(notes_fts, 10.0, 1.0)`, so a
   match in the title outweighs one in the body.
3. **Route**: `GET /notes/search?q=...&limit=...`; 400 when `q` is blank, 422 when `limit > 100`.
4. **Tests**: title beats body, the index follows updates and deletes, bad query syntax gives 400.

## Out of scope

- Highlighting and snippets (FTS5 `highlight()` / `snippet()` make this easy later).
- Fuzzy or prefix matching.

## Risks

- User input is FTS5 *query syntax*: a stray `"` raises `fts5: syntax error`. Quote each term before
  passing it to `MATCH`.
"""


# --------------------------------------------------------------------------- weather-cli sessions


def weather_scaffold(ws: Workspace) -> Transcript:
    """1.0.x: TodoWrite, Write, inline sidechain Task with WebFetch, pre-2.0 compaction, Edit."""
    t = Transcript(
        "weather-scaffold",
        stable_uuid("weather-scaffold"),
        WEATHER,
        "1.0.98",
        "main",
        at("2026-01-12 09:14:03"),
        SONNET,
    )
    t.prompt(
        "Let's start a small CLI called **weather-cli**. It should take a city name, look it up with "
        "the Open-Meteo APIs (no API key needed) and print the current conditions plus a 3-day "
        "forecast. Python 3.12, Typer for the CLI, httpx for HTTP, src layout with a pyproject.",
        after=0,
    )
    plan = todos(
        ("Check the Open-Meteo geocoding and forecast endpoints", "Checking the Open-Meteo endpoints", "in_progress"),
        ("Create pyproject.toml and the src layout", "Creating the project layout", "pending"),
        ("Write the API client", "Writing the API client", "pending"),
        ("Write the Typer CLI with a Rich table", "Writing the CLI", "pending"),
        ("Install and try it on a real city", "Trying it on a real city", "pending"),
    )
    [todo] = t.say(
        t.think(
            "A new project from scratch. Open-Meteo has two endpoints I need: geocoding (name -> "
            "lat/lon) and forecast. I should confirm the parameter names for `current` and `daily` "
            "instead of guessing, then lay out the package. Rich makes the table easy and Typer "
            "already depends on it."
        ),
        t.text("Nice small project. I'll track the steps as I go."),
        t.tool("TodoWrite", todos=plan),
    )
    t.run_todos(todo, [])

    prompt = (
        "Look up the Open-Meteo geocoding API and the forecast API. I need: the geocoding URL and "
        "the fields of a search result, the forecast URL, the exact parameter names for current "
        "temperature, wind speed and weather code, and for daily min/max temperature and "
        "precipitation. Report the parameter names exactly as the API spells them."
    )
    [task] = t.say(
        t.text("First I'll have a subagent check the exact parameter names."),
        t.tool("Task", description="Check Open-Meteo API parameters", prompt=prompt, subagent_type="general-purpose"),
    )
    sub = t.subagent("weather-scaffold/agent", agent_id=None)
    sub.prompt(prompt, parent=None, after=2)
    [fetch] = sub.say(
        sub.text("I'll read the geocoding API documentation first."),
        sub.tool(
            "WebFetch",
            url="https://open-meteo.com/en/docs/geocoding-api",
            prompt="What is the endpoint URL, which query parameters does it take and "
            "which fields does each result have?",
        ),
    )
    geo = (
        "The geocoding endpoint is `https://geocoding-api.open-meteo.com/v1/search`.\n\n"
        "Query parameters: `name` (required, at least 2 characters), `count` (default 10, max 100), "
        "`language` (default `en`), `format` (`json` or `protobuf`).\n\n"
        "Each entry of `results` has `id`, `name`, `latitude`, `longitude`, `elevation`, "
        "`country_code`, `country`, `timezone`, `population` and `admin1`..`admin4`. When nothing "
        "matches, the `results` key is absent."
    )
    sub.result(
        fetch,
        geo,
        {"bytes": 48213, "code": 200, "codeText": "OK", "result": geo, "durationMs": 1840, "url": fetch.input["url"]},
        after=2.4,
    )
    [fetch2] = sub.say(
        sub.tool(
            "WebFetch",
            url="https://open-meteo.com/en/docs",
            prompt="List the parameter names for current temperature at 2 m, wind "
            "speed at 10 m, weather code, and daily max/min temperature and "
            "precipitation sum. Also the forecast_days limits.",
        )
    )
    fc = (
        "Forecast endpoint: `https://api.open-meteo.com/v1/forecast` with `latitude` and `longitude`.\n\n"
        "- current: `temperature_2m`, `wind_speed_10m`, `weather_code` (comma separated in `current=`)\n"
        "- daily: `temperature_2m_max`, `temperature_2m_min`, `precipitation_sum`; `daily` requires "
        "`timezone` (use `auto`)\n- `forecast_days`: 0 to 16, default 7\n"
        "- `temperature_unit=fahrenheit` and `wind_speed_unit=mph` switch units"
    )
    sub.result(
        fetch2,
        fc,
        {"bytes": 112977, "code": 200, "codeText": "OK", "result": fc, "durationMs": 2310, "url": fetch2.input["url"]},
        after=3.1,
    )
    report = (
        "## Open-Meteo: what the CLI needs\n\n"
        "**Geocoding**: `GET https://geocoding-api.open-meteo.com/v1/search?name=<city>&count=1`\n"
        "- result fields: `name`, `country`, `latitude`, `longitude`, `timezone`\n"
        "- no match: the `results` key is missing entirely (not an empty list)\n\n"
        "**Forecast**: `GET https://api.open-meteo.com/v1/forecast`\n"
        "- `current=temperature_2m,wind_speed_10m,weather_code`\n"
        "- `daily=temperature_2m_max,temperature_2m_min,precipitation_sum` plus `timezone=auto`\n"
        "- `forecast_days` between 0 and 16\n"
        "- units: `temperature_unit=fahrenheit`, `wind_speed_unit=mph`\n\n"
        "No API key or auth header is needed for non-commercial use."
    )
    sub.say(sub.text(report), after=2.0)
    t.absorb(sub)
    t.agent_result(task, sub, report)

    plan[0]["status"], plan[1]["status"] = "completed", "in_progress"
    old_plan = todos(*[(p["content"], p["activeForm"], p["status"]) for p in plan])
    [write] = t.say(
        t.text("The `results` key can be missing, so the client must handle that. Creating the project now."),
        t.tool("Write", file_path=ws.path("pyproject.toml"), content=WEATHER_FILES["pyproject.toml"]),
    )
    t.run_write(write, ws)
    [api] = t.say(
        t.tool("Write", file_path=ws.path("src/weather_cli/api.py"), content=WEATHER_FILES["src/weather_cli/api.py"])
    )
    t.run_write(api, ws)
    [cli] = t.say(
        t.tool("Write", file_path=ws.path("src/weather_cli/cli.py"), content=WEATHER_FILES["src/weather_cli/cli.py"])
    )
    t.run_write(cli, ws)
    plan = todos(
        *[(p["content"], p["activeForm"], "completed") for p in plan[:4]],
        (plan[4]["content"], plan[4]["activeForm"], "in_progress"),
    )
    [todo] = t.say(t.tool("TodoWrite", todos=plan))
    t.run_todos(todo, old_plan)
    [sync] = t.say(
        t.tool(
            "Bash", command="uv sync && uv run weather --help", description="Install the project and show the CLI help"
        )
    )
    t.run_bash(
        sync,
        """\
Resolved 14 packages in 212ms
Installed 13 packages in 38ms
 + anyio==4.8.0
 + certifi==2025.1.31
 + click==8.1.8
 + h11==0.14.0
 + httpcore==1.0.7
 + httpx==0.28.1
 + idna==3.10
 + markdown-it-py==3.0.0
 + rich==13.9.4
 + typer==0.15.1
 + weather-cli==0.1.0 (from file:///home/ada/code/weather-cli)

 Usage: weather [OPTIONS] CITY

 Show the weather for CITY.

╭─ Arguments ─────────────────────────────────────────────────╮
│ *    city      TEXT  [default: None] [required]              │
╰──────────────────────────────────────────────────────────────╯
╭─ Options ───────────────────────────────────────────────────╮
│ --days        INTEGER RANGE [1<=x<=7]  [default: 3]          │
│ --help                                 Show this message.    │
╰──────────────────────────────────────────────────────────────╯""",
        after=4.2,
    )
    [run] = t.say(t.tool("Bash", command="uv run weather Lisbon", description="Try it on a real city"))
    t.run_bash(
        run,
        """\
Lisbon, Portugal
Now: 14.2°C, wind 17 km/h
               Forecast
┏━━━━━━━━━━━━┳━━━━━━┳━━━━━━┳━━━━━━━━━━━┓
┃ Day        ┃  Min ┃  Max ┃ Rain (mm) ┃
┡━━━━━━━━━━━━╇━━━━━━╇━━━━━━╇━━━━━━━━━━━┩
│ 2026-01-12 │ 10.1 │ 15.8 │       0.0 │
│ 2026-01-13 │  9.4 │ 16.2 │       2.3 │
│ 2026-01-14 │ 11.0 │ 17.5 │       0.6 │
└────────────┴──────┴──────┴───────────┘""",
        after=1.6,
    )
    [todo] = t.say(t.tool("TodoWrite", todos=[{**p, "status": "completed"} for p in plan]))
    t.run_todos(todo, plan)
    t.say(
        t.text("""\
`weather-cli` works end to end.

## What's in place

- `pyproject.toml`: hatchling build, `weather` console script
- `src/weather_cli/api.py`: `find_place()` (geocoding) and `forecast()`, both taking an `httpx.Client`
  so tests can pass a mock transport
- `src/weather_cli/cli.py`: a Typer command that prints the current conditions and a Rich table

## Try it

```bash
uv run weather Lisbon
uv run weather "São Paulo" --days 5
```

A city that does not exist raises `LookupError` for now; turning that into a friendly message and a
non-zero exit code would be a good next step.""")
    )

    # Pre-2.0 compaction: the summary is a new root, with no boundary record.
    t.wait(3 * 60)
    t.prompt(
        "This session is being continued from a previous conversation that ran out of context. The "
        "conversation is summarized below:\nAnalysis:\nThe user asked for a new Python CLI, weather-cli, "
        "built on the Open-Meteo APIs with Typer, httpx and Rich.\n\nSummary:\n"
        "1. Primary request: a CLI that takes a city and prints current weather and a 3-day forecast.\n"
        "2. Key facts: geocoding at /v1/search (`results` may be missing); forecast parameters "
        "`temperature_2m`, `wind_speed_10m`, `weather_code`, daily min/max and `precipitation_sum`.\n"
        "3. Files created: pyproject.toml, src/weather_cli/api.py, src/weather_cli/cli.py.\n"
        "4. State: `uv run weather Lisbon` prints the table correctly.\n"
        "5. Pending: nothing explicit.\n"
        "Please continue the conversation from where we left it off without asking the user any "
        "further questions. Continue with the last task that you were asked to work on.",
        parent=None,
        after=0,
        isCompactSummary=True,
    )
    t.context, t.cached = 6_900, False
    t.say(
        t.text(
            "Picking up where we left off: the CLI is scaffolded and working against the live API. "
            "Nothing was pending; tell me what you'd like next."
        ),
        after=2.5,
    )
    t.prompt(
        "Add a --json flag that prints the raw forecast response instead of the table. Handy for piping into jq.",
        after=75,
    )
    old = (
        "def main(city: str, days: int = typer.Option(3, min=1, max=7)) -> None:\n"
        '    """Show the weather for CITY."""\n'
        "    with httpx.Client(timeout=10) as client:\n"
        "        place = find_place(city, client)\n"
        "        data = forecast(place, client, days)\n"
    )
    new = (
        "def main(\n    city: str,\n    days: int = typer.Option(3, min=1, max=7),\n"
        '    as_json: bool = typer.Option(False, "--json", help="Print the raw API response."),\n'
        ') -> None:\n    """Show the weather for CITY."""\n'
        "    with httpx.Client(timeout=10) as client:\n"
        "        place = find_place(city, client)\n"
        "        data = forecast(place, client, days)\n"
        "    if as_json:\n        console.print_json(data=data)\n        return\n"
    )
    [edit] = t.say(
        t.text("I'll add the option and return early before any table rendering."),
        t.tool("Edit", file_path=ws.path("src/weather_cli/cli.py"), old_string=old, new_string=new),
    )
    t.run_edit(edit, ws)
    [jq] = t.say(
        t.tool(
            "Bash",
            command="uv run weather Porto --json | jq '.daily.temperature_2m_max'",
            description="Check the JSON output through jq",
        )
    )
    t.run_bash(jq, "[\n  15.1,\n  16.4,\n  14.9\n]", after=1.4)
    t.say(
        t.text(
            "Done. `--json` prints the untouched API response with `console.print_json`, which "
            "pretty-prints and colours it on a terminal and emits plain JSON when piped:\n\n"
            "```bash\nuv run weather Porto --json | jq '.daily.temperature_2m_max'\n```"
        )
    )
    return t


def weather_units(ws: Workspace) -> tuple[Transcript, list[tuple[str, Transcript]]]:
    """2.0.x: image prompt, parallel tools, MultiEdit, failing pytest, Edit miss, fork, flat agent file."""
    sid = stable_uuid("weather-units")
    t = Transcript(
        "weather-units", sid, WEATHER, "2.0.37", "units-flag", at("2026-01-19 14:02:11"), SONNET, snapshots=True
    )
    extra: list[tuple[str, Transcript]] = []

    warm = t.subagent("weather-units/warmup", agent_id=agent_id("warmup", 8))
    warm.prompt("Warmup", parent=None, after=0)
    warm.say(
        warm.text(
            "Ready. I can search this weather-cli repository: find files by pattern, grep for "
            "symbols, and read source to answer questions about it."
        ),
        after=1.8,
    )
    extra.append((f"agent-{warm.agent_id}.jsonl", warm))

    ws.files[ws.path("tests/test_cli.py")] = WEATHER_TEST
    png = base64.b64encode(tiny_png()).decode()
    t.prompt(
        [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}},
            t.text(
                "[Image #1] The temperatures are hard to read in my dark terminal, see the screenshot. "
                "Can you colour them (blue below 10°C, red above 25°C)? And add a --units option so I "
                "can get Fahrenheit."
            ),
        ],
        after=6,
    )
    cli_path, api_path = ws.path("src/weather_cli/cli.py"), ws.path("src/weather_cli/api.py")
    read, grep = t.say(
        t.think(
            "Two changes: colour in the table, units end to end. Open-Meteo converts server-side with "
            "temperature_unit, but the colour thresholds are in Celsius, so with Fahrenheit I need to "
            "convert back before comparing. Let me look at the table code and where temperatures are "
            "formatted."
        ),
        t.text("Let me look at how the table is built and where temperatures get formatted."),
        t.tool("Read", file_path=cli_path),
        t.tool("Grep", pattern=r"temperature_2m|:\.1f", path=ws.path("src"), output_mode="content", **{"-n": True}),
    )
    t.run_read(read, ws, reminder=True)
    t.run_grep(grep, ws)
    edits = [
        {
            "old_string": "from rich.table import Table\n",
            "new_string": "from rich.table import Table\nfrom rich.text import Text\n",
        },
        {
            "old_string": "def render_table(data: dict) -> Table:\n",
            "new_string": "COLD_C = 10.0\nHOT_C = 25.0\n\n\ndef styled(temp: float, unit: str) -> Text:\n"
            '    """Format a temperature: blue when cold, red when hot."""\n'
            '    celsius = temp if unit == "celsius" else (temp - 32) * 5 / 9\n'
            '    style = "blue" if celsius < COLD_C else "red" if celsius > HOT_C else ""\n'
            '    return Text(f"{temp:.1f}", style=style)\n\n\n'
            'def render_table(data: dict, unit: str = "celsius") -> Table:\n',
        },
        {
            "old_string": 'table.add_row(day, f"{lo:.1f}", f"{hi:.1f}", f"{rain:.1f}")',
            "new_string": 'table.add_row(day, styled(lo, unit), styled(hi, unit), f"{rain:.1f}")',
        },
        {
            "old_string": '    as_json: bool = typer.Option(False, "--json", help="Print the raw API response."),\n',
            "new_string": '    as_json: bool = typer.Option(False, "--json", help="Print the raw API response."),\n'
            '    units: str = typer.Option("celsius", help="celsius or fahrenheit."),\n',
        },
        {
            "old_string": "data = forecast(place, client, days)",
            "new_string": "data = forecast(place, client, days, units)",
        },
        {"old_string": "console.print(render_table(data))", "new_string": "console.print(render_table(data, units))"},
    ]
    [multi] = t.say(
        t.text(
            "The cells are plain strings today. I'll return Rich `Text` objects with a style "
            "and thread `units` through:"
        ),
        t.tool("MultiEdit", file_path=cli_path, edits=edits),
    )
    t.run_multiedit(multi, ws)
    [edit] = t.say(
        t.tool(
            "Edit",
            file_path=api_path,
            old_string="def forecast(place: Place, client: httpx.Client, days: int = 3) -> dict:\n    params = {\n",
            new_string="def forecast(\n    place: Place, client: httpx.Client, days: int = 3, "
            'units: str = "celsius"\n) -> dict:\n    params = {\n'
            '        "temperature_unit": units,\n',
        )
    )
    t.run_edit(edit, ws)
    [test] = t.say(t.tool("Bash", command="uv run pytest -q", description="Run the test suite"))
    t.run_bash(
        test,
        """\
..F...                                                                   [100%]
=================================== FAILURES ===================================
___________________ test_forecast_table_formats_temperatures ___________________

    def test_forecast_table_formats_temperatures():
        table = render_table(SAMPLE)
        cells = list(table.columns[2].cells)
>       assert cells == ["17.9", "21.4", "26.3"]
E       AssertionError: assert [<text '17.9'...26.3' 'red'>] == ['17.9', '21.4', '26.3']
E
E         At index 0 diff: <text '17.9' ''> != '17.9'
E         Use -v to get more diff

tests/test_cli.py:23: AssertionError
=========================== short test summary info ============================
FAILED tests/test_cli.py::test_forecast_table_formats_temperatures - AssertionError: assert [<tex...
1 failed, 5 passed in 0.41s""",
        exit_code=1,
        after=3.3,
    )
    test_path = ws.path("tests/test_cli.py")
    [miss] = t.say(
        t.think(
            "Expected: the cells are Text objects now. The test should compare plain text; "
            "str(Text) gives the plain string."
        ),
        t.text(
            "That's the test comparing cells to plain strings; they are `Text` objects now. "
            "I'll compare their plain text instead."
        ),
        t.tool(
            "Edit",
            file_path=test_path,
            old_string="    cells = table.columns[2].cells\n",
            new_string="    cells = [str(c) for c in table.columns[2].cells]\n",
        ),
    )
    t.run_edit(miss, ws)
    [reread] = t.say(
        t.text("My old_string didn't match; let me read the file exactly."), t.tool("Read", file_path=test_path)
    )
    t.run_read(reread, ws)
    [fix] = t.say(
        t.tool(
            "Edit",
            file_path=test_path,
            old_string="    cells = list(table.columns[2].cells)\n",
            new_string="    cells = [str(c) for c in table.columns[2].cells]\n",
        )
    )
    t.run_edit(fix, ws)
    [again] = t.say(t.tool("Bash", command="uv run pytest -q", description="Re-run the tests"))
    t.run_bash(
        again,
        "......                                                                   [100%]\n6 passed in 0.38s",
        after=2.9,
    )
    t.say(
        t.text("""\
All 6 tests pass.

| Temperature | Style |
|-------------|-------|
| below 10 °C | blue  |
| 10 to 25 °C | default |
| above 25 °C | red   |

- `--units fahrenheit` asks Open-Meteo for °F (`temperature_unit`), and `styled()` converts back to
  Celsius before comparing, so the colours mean the same thing in both units.
- The test now compares `str(cell)`, the plain text of each Rich `Text`.

One thing left: the "Now:" line still says °C even with `--units fahrenheit`.""")
    )
    fork = t.tip

    # Branch A (later abandoned): the user asked for a config file.
    t.prompt("Make the thresholds configurable in a config file too.", after=95)
    prompt = (
        "Find the conventional location for a per-user config file of a small command line tool on "
        "Linux and macOS (XDG base directory spec and what tools actually do on macOS), and whether "
        "Python 3.12 can read TOML without extra dependencies. Answer briefly with paths and a "
        "recommendation."
    )
    [task] = t.say(
        t.text("Let me check the conventions before picking a path."),
        t.tool("Task", description="Find config file conventions", prompt=prompt, subagent_type="general-purpose"),
    )
    sub = t.subagent("weather-units/agent", agent_id=agent_id("weather-units/agent", 8))
    sub.prompt(prompt, parent=None, after=1.5)
    [fetch] = sub.say(
        sub.tool(
            "WebFetch",
            url="https://specifications.freedesktop.org/basedir-spec/latest/",
            prompt="What is XDG_CONFIG_HOME and its default?",
        )
    )
    xdg = (
        "`$XDG_CONFIG_HOME` is where user-specific configuration files go. If it is unset or empty, "
        "the default is `$HOME/.config`. Applications use a subdirectory named after themselves."
    )
    sub.result(
        fetch,
        xdg,
        {"bytes": 20480, "code": 200, "codeText": "OK", "result": xdg, "durationMs": 960, "url": fetch.input["url"]},
        after=1.6,
    )
    report = (
        "- Linux: `$XDG_CONFIG_HOME/weather-cli/config.toml`, falling back to "
        "`~/.config/weather-cli/config.toml`.\n"
        "- macOS: many CLIs (git, gh, ripgrep) also use `~/.config` rather than "
        "`~/Library/Application Support`; users expect it.\n"
        "- Python 3.11+ ships `tomllib` (read-only), so no dependency is needed.\n\n"
        "Recommendation: honour `XDG_CONFIG_HOME`, default to `~/.config/weather-cli/config.toml` on "
        "both systems, read it with `tomllib`."
    )
    sub.say(sub.text(report), after=2.2)
    extra.append((f"agent-{sub.agent_id}.jsonl", sub))
    t.agent_result(task, sub, report)
    t.say(
        t.text("""\
Here's the proposal: a TOML file at `~/.config/weather-cli/config.toml` (respecting
`XDG_CONFIG_HOME`), read with the standard library.

```toml
# ~/.config/weather-cli/config.toml
[thresholds]
cold_c = 8.0
hot_c = 28.0
```

```python
import os
import tomllib
from pathlib import Path


def load_thresholds() -> tuple[float, float]:
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    path = base / "weather-cli" / "config.toml"
    if not path.exists():
        return COLD_C, HOT_C
    cfg = tomllib.loads(path.read_text()).get("thresholds", {})
    return cfg.get("cold_c", COLD_C), cfg.get("hot_c", HOT_C)
```

Shall I wire it in?"""),
        after=3.0,
    )

    # Branch B (current): the prompt was edited; same parent as branch A.
    t.wait(140)
    t.prompt(
        "Actually, skip the config file. Make the thresholds CLI options (--cold / --hot) with the "
        "current values as defaults.",
        parent=fork,
        after=0,
    )
    edits = [
        {
            "old_string": "def styled(temp: float, unit: str) -> Text:",
            "new_string": "def styled(temp: float, unit: str, cold: float = COLD_C, hot: float = HOT_C) -> Text:",
        },
        {
            "old_string": 'style = "blue" if celsius < COLD_C else "red" if celsius > HOT_C else ""',
            "new_string": 'style = "blue" if celsius < cold else "red" if celsius > hot else ""',
        },
        {
            "old_string": 'def render_table(data: dict, unit: str = "celsius") -> Table:',
            "new_string": 'def render_table(\n    data: dict, unit: str = "celsius", cold: float = COLD_C, '
            "hot: float = HOT_C\n) -> Table:",
        },
        {
            "old_string": "styled(lo, unit), styled(hi, unit)",
            "new_string": "styled(lo, unit, cold, hot), styled(hi, unit, cold, hot)",
        },
        {
            "old_string": '    units: str = typer.Option("celsius", help="celsius or fahrenheit."),\n',
            "new_string": '    units: str = typer.Option("celsius", help="celsius or fahrenheit."),\n'
            '    cold: float = typer.Option(COLD_C, help="Blue below this many °C."),\n'
            '    hot: float = typer.Option(HOT_C, help="Red above this many °C."),\n',
        },
        {"old_string": "render_table(data, units)", "new_string": "render_table(data, units, cold, hot)"},
    ]
    [multi] = t.say(
        t.text("Simpler, agreed. Threading `cold` and `hot` through with the constants as defaults:"),
        t.tool("MultiEdit", file_path=cli_path, edits=edits),
    )
    t.run_multiedit(multi, ws)
    [check] = t.say(
        t.tool(
            "Bash",
            command="uv run pytest -q && uv run weather Oslo --cold 0 --hot 5",
            description="Run tests and try the new options",
        )
    )
    t.run_bash(
        check,
        """\
......                                                                   [100%]
6 passed in 0.37s
Oslo, Norway
Now: -3.1°C, wind 9 km/h
               Forecast
┏━━━━━━━━━━━━┳━━━━━━┳━━━━━━┳━━━━━━━━━━━┓
┃ Day        ┃  Min ┃  Max ┃ Rain (mm) ┃
┡━━━━━━━━━━━━╇━━━━━━╇━━━━━━╇━━━━━━━━━━━┩
│ 2026-01-19 │ -6.2 │ -1.0 │       0.0 │
│ 2026-01-20 │ -4.8 │  0.7 │       1.9 │
│ 2026-01-21 │ -2.5 │  2.2 │       3.4 │
└────────────┴──────┴──────┴───────────┘""",
        after=4.0,
    )
    t.say(
        t.text(
            "Done: `--cold` and `--hot` (both in °C) default to 10 and 25. With `--cold 0` Oslo's "
            "sub-zero days show in blue as expected."
        )
    )
    return t, extra


def weather_release(ws: Workspace) -> Transcript:
    """2.0.x: /model slash command, isMeta caveat, Glob, rejected tool use + interrupt, a >1 h gap."""
    t = Transcript(
        "weather-release",
        stable_uuid("weather-release"),
        WEATHER,
        "2.0.55",
        "main",
        at("2026-01-26 10:30:40"),
        SONNET,
        snapshots=True,
    )
    t.prompt(
        "<local-command-caveat>Caveat: The messages below were generated by the user while running "
        "local commands. DO NOT respond to these messages or otherwise consider them in your response "
        "unless the user explicitly asks you to.</local-command-caveat>",
        after=0,
        isMeta=True,
    )
    t.prompt(
        "<command-name>/model</command-name>\n            <command-message>model</command-message>\n"
        "            <command-args></command-args>",
        after=0,
    )
    t.prompt(
        "<local-command-stdout>Set model to \x1b[1mopus (claude-opus-4-5-20251101)\x1b[22m</local-command-stdout>",
        after=4,
    )
    t.model = OPUS_45
    t.prompt(
        "Prepare the 0.2.0 release: bump the version, write a changelog entry from the commits since "
        "v0.1.0, commit, and tag it.",
        after=31,
    )
    glob, log = t.say(
        t.text("Checking for an existing changelog and collecting the commits."),
        t.tool("Glob", pattern="**/CHANGELOG*"),
        t.tool("Bash", command="git log --oneline v0.1.0..HEAD", description="Commits since v0.1.0"),
    )
    t.result(glob, "No files found", {"filenames": [], "durationMs": 41, "numFiles": 0, "truncated": False})
    t.run_bash(
        log,
        "4be9c1d Make cold/hot thresholds CLI options\n"
        "91f0a2e Colour temperatures and add --units\n"
        "e3d51a7 Add --json flag\n"
        "c08e44b Friendly error for unknown cities",
        after=0.3,
    )
    changelog = """\
# Changelog

## 0.2.0 - 2026-01-26

### Added
- `--units fahrenheit` for temperatures in °F.
- `--cold` / `--hot` thresholds; cold days show in blue, hot days in red.
- `--json` prints the raw Open-Meteo response (pipe it into `jq`).

### Changed
- An unknown city now prints a short message and exits with status 1.

## 0.1.0 - 2026-01-12

- First release: current conditions and a 3-day forecast.
"""
    [write] = t.say(t.tool("Write", file_path=ws.path("CHANGELOG.md"), content=changelog))
    t.run_write(write, ws)
    [bump] = t.say(
        t.tool(
            "Edit", file_path=ws.path("pyproject.toml"), old_string='version = "0.1.0"', new_string='version = "0.2.0"'
        )
    )
    t.run_edit(bump, ws)
    [commit] = t.say(
        t.tool(
            "Bash",
            command='git add CHANGELOG.md pyproject.toml && git commit -m "Release 0.2.0"',
            description="Commit the release",
        )
    )
    t.run_bash(
        commit,
        "[main 5d2c7e0] Release 0.2.0\n 2 files changed, 17 insertions(+), 1 deletion(-)\n"
        " create mode 100644 CHANGELOG.md",
        after=0.9,
    )
    [push] = t.say(
        t.tool(
            "Bash",
            command="git tag -a v0.2.0 -m 'weather-cli 0.2.0' && git push origin main --follow-tags",
            description="Tag and push the release",
        )
    )
    reject = (
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a "
        "file edit, the new_string was NOT written to the file). STOP what you are doing and wait for "
        "the user to tell you how to proceed."
    )
    t.result(push, reject, f"Error: {reject}", is_error=True, after=12)
    t.prompt([t.text("[Request interrupted by user for tool use]")], after=0)
    # The user comes back more than an hour later.
    t.prompt(
        "OK, CI is green now. Go ahead and tag, but don't push. I'll push from my laptop.", after=2 * 3600 + 17 * 60
    )
    [tag] = t.say(
        t.text("Understood, tagging locally only."),
        t.tool(
            "Bash",
            command="git tag -a v0.2.0 -m 'weather-cli 0.2.0' && git tag -n1 v0.2.0",
            description="Create the annotated tag",
        ),
    )
    t.run_bash(tag, "v0.2.0          weather-cli 0.2.0", after=0.5)
    t.say(
        t.text(
            "Tagged `v0.2.0` on `5d2c7e0`. Nothing was pushed. From your laptop:\n\n"
            "```bash\ngit push origin main --follow-tags\n```"
        )
    )
    return t


def weather_empty(leaf: str) -> Transcript:
    """A session with nothing real in it, but a summary that names another session."""
    t = Transcript(
        "weather-empty", stable_uuid("weather-empty"), WEATHER, "2.0.55", "main", at("2026-01-27 08:55:02"), SONNET
    )
    t.summary("Scaffold weather-cli with Open-Meteo, Typer and Rich", leaf)
    mid = t.ids.uuid()
    t.side(
        {
            "type": "file-history-snapshot",
            "messageId": mid,
            "snapshot": {"messageId": mid, "trackedFileBackups": {}, "timestamp": t.ts()},
            "isSnapshotUpdate": False,
        }
    )
    return t


# --------------------------------------------------------------------------- notes-api sessions


def notes_search(ws: Workspace) -> tuple[Transcript, list[tuple[str, Transcript]]]:
    """2.1.x: plan mode with a slug, Explore subagent file, ExitPlanMode, a 3-way fork, titles."""
    sid = stable_uuid("notes-search")
    t = Transcript("notes-search", sid, NOTES, "2.1.20", "main", at("2026-02-09 10:05:12"), OPUS_45, snapshots=True)
    extra: list[tuple[str, Transcript]] = []
    t.side({"type": "permission-mode", "permissionMode": "plan", "sessionId": sid})
    t.prompt("I want full-text search over notes (title and body). Plan it first, don't write code yet.", after=0)
    t.slug = PLAN_SLUG
    prompt = (
        "Map how notes are stored and served in /home/ada/code/notes-api: the schema and migrations, "
        "the data-access functions in notes_api/db.py, and the routes that list or fetch notes. Report "
        "file paths, table columns and how migrations are applied. Search breadth: quick."
    )
    [task] = t.say(
        t.think(
            "Plan mode: read-only. I need the schema, how migrations run and the route "
            "layout before proposing anything. An Explore agent can gather that cheaply."
        ),
        t.text("I'll map the storage and routes first."),
        t.tool("Task", description="Map notes storage and routes", prompt=prompt, subagent_type="Explore"),
    )
    aid = agent_id("notes-search/agent", 17)
    sub = t.subagent("notes-search/agent", agent_id=aid)
    sub.prompt(prompt, parent=None, after=1.1)
    py, sql = sub.say(
        sub.text("Starting with the layout."),
        sub.tool("Glob", pattern="notes_api/**/*.py"),
        sub.tool("Glob", pattern="migrations/*.sql"),
    )
    files = ["notes_api/__init__.py", "notes_api/app.py", "notes_api/db.py", "notes_api/deps.py"]
    sub.result(
        py,
        "\n".join(f"{NOTES}/{f}" for f in files),
        {"filenames": [f"{NOTES}/{f}" for f in files], "durationMs": 18, "numFiles": 4, "truncated": False},
    )
    migs = ["migrations/001_notes.sql", "migrations/002_updated_at.sql"]
    sub.result(
        sql,
        "\n".join(f"{NOTES}/{f}" for f in migs),
        {"filenames": [f"{NOTES}/{f}" for f in migs], "durationMs": 9, "numFiles": 2, "truncated": False},
        after=0.1,
    )
    [read] = sub.say(sub.tool("Read", file_path=ws.path("notes_api/db.py")))
    sub.run_read(read, ws)
    [grep] = sub.say(
        sub.tool("Grep", pattern=r"@app\.(get|post|put|delete)", path=NOTES, output_mode="content", **{"-n": True})
    )
    sub.run_grep(grep, ws)
    report = """\
## Storage
- **Schema** (`migrations/001_notes.sql`, `002_updated_at.sql`): `notes(id INTEGER PRIMARY KEY, title TEXT
  NOT NULL, body TEXT NOT NULL, created_at TEXT, updated_at TEXT)`.
- **Migrations**: `db.migrate()` runs every `migrations/*.sql` in name order once, recording each file in
  `schema_migrations`. Next free number: `003`.
- **Access**: `notes_api/db.py` has `connect()`, `migrate()`, `list_notes(conn, limit)` and
  `get_note(conn, note_id)`; rows are `sqlite3.Row`.

## Routes
- `GET /notes` (`app.py:11`) and `GET /notes/{note_id}` (`app.py:16`); the connection comes from
  `deps.get_conn`.

No search code exists yet; nothing loads SQLite extensions, but FTS5 is compiled into CPython's sqlite3."""
    sub.say(sub.text(report), after=2.6)
    extra.append((f"{sid}/subagents/agent-{aid}.jsonl", sub))
    t.agent_result(task, sub, report, agent_type="Explore")

    plan_path = f"{HOME}/.claude/plans/{PLAN_SLUG}.md"
    plans = Workspace(f"{HOME}/.claude/plans", {})
    [write] = t.say(t.text("Writing the plan."), t.tool("Write", file_path=plan_path, content=PLAN), after=6)
    t.run_write(write, plans)
    [exit_plan] = t.say(t.tool("ExitPlanMode", plan=PLAN))
    approved = (
        f"User has approved your plan. You can now start coding. Start with updating your todo list "
        f"if applicable\n\nYour plan has been saved to: {plan_path}\nYou can refer back to it if "
        f"needed during implementation.\n\n## Approved Plan:\n{PLAN}"
    )
    t.result(exit_plan, approved, {"plan": PLAN, "isAgent": False, "filePath": plan_path}, after=48)
    t.side({"type": "permission-mode", "permissionMode": "acceptEdits", "sessionId": sid})

    migration = """\
-- Full-text index over notes, kept in sync by triggers.
CREATE VIRTUAL TABLE notes_fts USING fts5(
    title, body,
    content='notes', content_rowid='id',
    tokenize='porter unicode61'
);

CREATE TRIGGER notes_ai AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
END;

CREATE TRIGGER notes_ad AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
END;

CREATE TRIGGER notes_au AFTER UPDATE ON notes BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
    INSERT INTO notes_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
END;

INSERT INTO notes_fts(notes_fts) VALUES ('rebuild');
"""
    [mig] = t.say(
        t.text("Step 1, the migration:"),
        t.tool("Write", file_path=ws.path("migrations/003_notes_fts.sql"), content=migration),
    )
    t.run_write(mig, ws)
    search = '''

def fts_query(text: str) -> str:
    """Quote each term so user input is never parsed as FTS5 syntax."""
    return " ".join('"' + term.replace('"', '""') + '"' for term in text.split())


def search_notes(conn: sqlite3.Connection, q: str, limit: int = 20) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT n.id, n.title, n.updated_at, bm25(notes_fts, 10.0, 1.0) AS rank"
        " FROM notes_fts JOIN notes AS n ON n.id = notes_fts.rowid"
        " WHERE notes_fts MATCH ? ORDER BY rank LIMIT ?",
        (fts_query(q), limit),
    ).fetchall()
'''
    get_note = (
        "def get_note(conn: sqlite3.Connection, note_id: int) -> sqlite3.Row | None:\n"
        '    return conn.execute("SELECT * FROM notes WHERE id = ?", (note_id,)).fetchone()\n'
    )
    [edit] = t.say(
        t.tool("Edit", file_path=ws.path("notes_api/db.py"), old_string=get_note, new_string=get_note + search)
    )
    t.run_edit(edit, ws)
    route_old = '@app.get("/notes/{note_id}")\n'
    route_new = (
        '@app.get("/notes/search")\n'
        "def search_notes(q: str, limit: int = Query(20, le=100), conn=Depends(get_conn)) -> list[dict]:\n"
        "    if not q.strip():\n"
        '        raise HTTPException(status_code=400, detail="q must not be blank")\n'
        "    return [dict(row) for row in db.search_notes(conn, q, limit)]\n\n\n" + route_old
    )
    [route] = t.say(
        t.text(
            "The search route must be declared before `/notes/{note_id}`, or FastAPI would "
            "try to parse `search` as an id."
        ),
        t.tool("Edit", file_path=ws.path("notes_api/app.py"), old_string=route_old, new_string=route_new),
    )
    t.run_edit(route, ws)
    [imp] = t.say(
        t.tool(
            "Edit",
            file_path=ws.path("notes_api/app.py"),
            old_string="from fastapi import Depends, FastAPI, HTTPException",
            new_string="from fastapi import Depends, FastAPI, HTTPException, Query",
        )
    )
    t.run_edit(imp, ws)
    [pytest] = t.say(
        t.tool("Bash", command="uv run pytest -q tests/test_search.py", description="Run the new search tests")
    )
    t.run_bash(
        pytest,
        "....                                                                     [100%]\n4 passed in 0.52s",
        after=3.8,
    )
    t.say(
        t.text("""\
Search is in.

- `migrations/003_notes_fts.sql`: FTS5 external-content index plus three sync triggers, backfilled
  with `rebuild`
- `db.search_notes()`: bm25 ranking with titles weighted 10:1; every term is quoted by `fts_query()`,
  so input like `"unclosed` is a search, not a syntax error
- `GET /notes/search?q=...&limit=...`: 400 on a blank query, 422 above 100 results

```bash
curl -s 'localhost:8000/notes/search?q=sqlite+index' | jq '.[].title'
```""")
    )
    t.system("turn_duration", durationMs=231_404, isMeta=False)
    fork = t.tip

    # A three-way fork: the same parent, three prompts, each with its own answer.
    t.prompt("How does the bm25 ranking treat a note that mentions the word many times?", parent=fork, after=120)
    t.say(
        t.text(
            "bm25 saturates: the 2nd and 3rd occurrence of a term raise the score, but each extra "
            "occurrence adds less, and long notes are normalised by their length. A 5,000-word note "
            "that says *index* 30 times will not bury a short note titled *Index tuning*, especially "
            "with the title weighted 10x."
        )
    )
    t.prompt("Can we highlight the matched terms in the results?", parent=fork, after=60)
    t.say(
        t.text(
            "Yes: FTS5's `highlight(notes_fts, 0, '<mark>', '</mark>')` wraps matches in the title "
            "column. For bodies you'd usually want `snippet()` instead, which returns only the part "
            "around the match."
        )
    )
    t.prompt(
        "Can we highlight matched terms and return a short snippet of the body around them?", parent=fork, after=45
    )
    old = '"SELECT n.id, n.title, n.updated_at, bm25(notes_fts, 10.0, 1.0) AS rank"\n'
    new = (
        "\"SELECT n.id, highlight(notes_fts, 0, '<mark>', '</mark>') AS title,\"\n"
        "        \" snippet(notes_fts, 1, '<mark>', '</mark>', '…', 12) AS snippet,\"\n"
        '        " n.updated_at, bm25(notes_fts, 10.0, 1.0) AS rank"\n'
    )
    [snip] = t.say(
        t.text("Adding both: `highlight()` on the title, `snippet()` (about 12 tokens) on the body."),
        t.tool("Edit", file_path=ws.path("notes_api/db.py"), old_string=old, new_string=new),
    )
    t.run_edit(snip, ws)
    t.say(
        t.text("""\
Results now carry a highlighted `title` and a `snippet`:

```json
{
  "id": 4182,
  "title": "Postgres vs SQLite <mark>index</mark> notes",
  "snippet": "…a partial <mark>index</mark> on updated_at made the listing fast again…",
  "updated_at": "2026-02-03T17:22:10Z",
  "rank": -7.41
}
```

The markers are plain text, so the frontend must escape the note text and only then turn `<mark>` back
into markup. Lower `rank` means a better match (bm25 scores are negative in SQLite).""")
    )
    t.system("turn_duration", durationMs=41_870, isMeta=False)
    t.titled("ai-title", "Plan and add full-text search to notes")
    t.titled("custom-title", "notes-api: FTS5 search")
    t.side(
        {
            "type": "last-prompt",
            "lastPrompt": "Can we highlight matched terms and return a short snippet of the body around them?",
            "sessionId": sid,
        }
    )
    return t, extra


def notes_perf(ws: Workspace) -> tuple[Transcript, list[tuple[str, Transcript]]]:
    """2.1.x: hooks, agent_progress copies, api_error, microcompact, compaction, unknown types."""
    sid = stable_uuid("notes-perf")
    t = Transcript(
        "notes-perf", sid, NOTES, "2.1.31", "perf/list-notes", at("2026-02-16 15:20:31"), OPUS_46, snapshots=True
    )
    extra: list[tuple[str, Transcript]] = []
    t.context = 96_000
    start_id = stable_uuid("notes-perf/hook")
    t.hook("SessionStart", "SessionStart:startup", "$HOME/.claude/hooks/notify.sh started", start_id, parent=None)
    t.prompt("GET /notes got really slow since we passed ~50k notes (about 1.8 s). Find out why and fix it.", after=40)
    prompt = (
        "In /home/ada/code/notes-api, GET /notes takes ~1.8 s with 50k rows. Profile the query behind "
        "it in notes_api/db.py against dev.db: run EXPLAIN QUERY PLAN, time the query, and check the "
        "size of what it returns. Report the cause with numbers; do not change any files."
    )
    [task] = t.say(
        t.think(
            "Likely the ORDER BY updated_at without an index, or the payload: list_notes "
            "selects body too. A subagent can measure both without filling my context."
        ),
        t.text("I'll have a subagent profile the query while keeping the numbers precise."),
        t.tool("Task", description="Profile the /notes query", prompt=prompt, subagent_type="general-purpose"),
    )
    aid = agent_id("notes-perf/agent", 17)
    sub = t.subagent("notes-perf/agent", agent_id=aid)
    sub.prompt(prompt, parent=None, after=0.8)
    [plan_q] = sub.say(
        sub.text("Checking the query plan and timing."),
        sub.tool(
            "Bash",
            command='sqlite3 dev.db "EXPLAIN QUERY PLAN SELECT id, title, body, '
            'updated_at FROM notes ORDER BY updated_at DESC LIMIT 50"',
            description="Show the query plan",
        ),
    )
    sub.run_bash(plan_q, "QUERY PLAN\n|--SCAN notes\n`--USE TEMP B-TREE FOR ORDER BY", after=0.6)
    [timing] = sub.say(
        sub.tool(
            "Bash",
            command="python3 scripts/time_query.py dev.db --runs 5",
            description="Time the query and measure the payload",
        )
    )
    sub.run_bash(
        timing,
        "rows in notes: 50,312\nmedian over 5 runs: 1.74 s\n"
        "rows returned: 50, bytes of body returned: 2,918,406 (58 KB per note on average)\n"
        "same query without body: 0.09 s",
        after=9.5,
    )
    report = """\
**Two causes, one dominant.**

1. **No index on `updated_at`**: the plan is `SCAN notes` + `USE TEMP B-TREE FOR ORDER BY`, a full
   scan and sort of 50,312 rows for every request.
2. **`body` in the listing**: 50 notes return 2.9 MB because bodies average 58 KB. Without `body` the
   same query takes 0.09 s, because SQLite no longer reads the large overflow pages.

Suggested fix: `CREATE INDEX notes_updated_at ON notes(updated_at DESC)` and drop `body` from
`list_notes` (clients fetch a single note for the full text)."""
    sub.say(sub.text(report), after=3.1)
    t.mirror_progress(task, sub)
    extra.append((f"{sid}/subagents/agent-{aid}.jsonl", sub))
    t.agent_result(task, sub, report)

    index = (
        "-- Listing sorts by updated_at; keep that an index walk.\n"
        "CREATE INDEX IF NOT EXISTS notes_updated_at ON notes(updated_at DESC);\n"
    )
    [mig] = t.say(
        t.text("Clear diagnosis. Adding the index as migration 004:"),
        t.tool("Write", file_path=ws.path("migrations/004_notes_updated_at.sql"), content=index),
    )
    t.hook("PostToolUse", "PostToolUse:Write", "$HOME/.claude/hooks/format.sh", mig.id, parent=mig.record)
    t.run_write(mig, ws)
    old = '"SELECT id, title, body, updated_at FROM notes ORDER BY updated_at DESC LIMIT ?"'
    new = (
        '"SELECT id, title, substr(body, 1, 200) AS preview, updated_at"\n        " FROM notes ORDER BY '
        'updated_at DESC LIMIT ?"'
    )
    [edit] = t.say(
        t.text("And the listing returns a 200-character preview instead of the whole body:"),
        t.tool("Edit", file_path=ws.path("notes_api/db.py"), old_string=old, new_string=new),
    )
    t.hook("PostToolUse", "PostToolUse:Edit", "$HOME/.claude/hooks/format.sh", edit.id, parent=edit.record)
    t.run_edit(edit, ws)
    [bench] = t.say(
        t.tool(
            "Bash",
            command="uv run python -m notes_api.migrate dev.db && python3 scripts/time_query.py dev.db --runs 5",
            description="Apply the migration and time the query again",
        )
    )
    t.run_bash(
        bench,
        "applied: 004_notes_updated_at.sql\nrows in notes: 50,312\nmedian over 5 runs: 0.004 s\n"
        "rows returned: 50, bytes returned: 14,882",
        after=6.2,
    )
    t.system(
        "api_error",
        level="error",
        cause={"code": "overloaded_error"},
        error={
            "status": 529,
            "headers": {},
            "requestID": "req_011C" + t.ids.token(18),
            "error": {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
        },
        retryInMs=1141,
        retryAttempt=1,
        maxRetries=10,
        after=4.0,
    )
    t.system(
        "api_error",
        level="error",
        cause={"code": "overloaded_error"},
        error={
            "status": 529,
            "headers": {},
            "requestID": "req_011C" + t.ids.token(18),
            "error": {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
        },
        retryInMs=2355,
        retryAttempt=2,
        maxRetries=10,
        after=1.2,
    )
    err = {
        "id": stable_uuid("notes-perf/api-error"),
        "container": None,
        "model": "<synthetic>",
        "role": "assistant",
        "stop_reason": "stop_sequence",
        "stop_sequence": "",
        "type": "message",
        "usage": {
            "input_tokens": 0,
            "output_tokens": 0,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
            "service_tier": None,
        },
        "content": [
            t.text('API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')
        ],
    }
    t.emit(
        "assistant",
        {"message": err, "error": "overloaded", "isApiErrorMessage": True, "apiErrorStatus": 529},
        after=3.0,
    )
    t.prompt("try again", after=38)
    t.say(
        t.text("""\
Fixed: **1.74 s → 4 ms** on 50,312 notes.

| | before | after |
|---|---|---|
| query plan | `SCAN notes` + temp B-tree sort | `SCAN notes USING INDEX notes_updated_at` |
| median time | 1.74 s | 0.004 s |
| payload for 50 notes | 2.9 MB | 15 KB |

Note the API change: `GET /notes` now returns `preview` (first 200 characters) instead of `body`.
`GET /notes/{id}` still returns the full note.""")
    )
    t.hook("Stop", "Stop", "$HOME/.claude/hooks/notify.sh idle", stable_uuid("notes-perf/stop1"))
    t.system(
        "stop_hook_summary",
        hookCount=1,
        hookInfos=[{"command": "$HOME/.claude/hooks/notify.sh idle"}],
        hookErrors=[],
        preventedContinuation=False,
        stopReason="",
        hasOutput=False,
        level="suggestion",
        toolUseID=stable_uuid("notes-perf/stop1"),
    )
    t.system("turn_duration", durationMs=96_212, isMeta=False)
    t.side(
        {
            "type": "telemetry-blob",
            "sessionId": sid,
            "encoding": "base64",
            "payload": base64.b64encode(hashlib.sha256(b"notes-perf").digest()).decode(),
        }
    )

    t.system(
        "microcompact_boundary",
        content="Context microcompacted",
        isMeta=False,
        level="info",
        microcompactMetadata={
            "trigger": "auto",
            "preTokens": 152_410,
            "tokensSaved": 21_306,
            "compactedToolIds": [plan_q.id, timing.id, bench.id],
            "clearedAttachmentUUIDs": [],
        },
        after=300,
    )
    t.context = 167_000
    t.prompt(
        "Also add pagination so /notes never returns more than 100 notes and clients can page through everything.",
        after=45,
    )
    t.system(
        "compact_boundary",
        parent=None,
        head={"logicalParentUuid": t.tip},
        content="Conversation compacted",
        isMeta=False,
        level="info",
        compactMetadata={"trigger": "auto", "preTokens": 167_000},
        after=2,
    )
    t.context = 21_500
    t.cached = False
    t.prompt(
        "This session is being continued from a previous conversation that ran out of context. The "
        "summary below covers the earlier portion of the conversation.\n\nSummary:\n"
        "1. Primary Request and Intent:\n   - Make `GET /notes` fast with ~50k notes (was 1.8 s).\n"
        "   - Latest request: add pagination so `/notes` never returns more than 100 notes.\n"
        "2. Key Technical Concepts:\n   - SQLite query plans, covering an ORDER BY with an index.\n"
        "   - Large TEXT columns stored in overflow pages.\n"
        "3. Files and Code Sections:\n   - `migrations/004_notes_updated_at.sql`: index on "
        "`notes(updated_at DESC)`.\n   - `notes_api/db.py`: `list_notes` returns "
        "`substr(body, 1, 200) AS preview` instead of `body`.\n"
        "4. Errors and fixes:\n   - None; an API overload interrupted one reply and was retried.\n"
        "5. Current Work:\n   - About to implement pagination for `GET /notes`.\n"
        "6. Optional Next Step:\n   - Keyset pagination on `(updated_at, id)` with a `cursor` "
        "parameter and `limit <= 100`.",
        after=0.5,
        isCompactSummary=True,
        isVisibleInTranscriptOnly=True,
    )
    paginate_old = (
        "def list_notes(conn: sqlite3.Connection, limit: int = 50) -> list[sqlite3.Row]:\n"
        "    return conn.execute(\n"
        '        "SELECT id, title, substr(body, 1, 200) AS preview, updated_at"\n'
        '        " FROM notes ORDER BY updated_at DESC LIMIT ?",\n'
        "        (limit,),\n    ).fetchall()\n"
    )
    paginate_new = (
        "def list_notes(\n    conn: sqlite3.Connection, limit: int = 50, after: tuple[str, int] | None "
        "= None\n) -> list[sqlite3.Row]:\n"
        '    """Newest first; `after` is the (updated_at, id) of the last row already seen."""\n'
        '    where, args = "", []\n    if after is not None:\n'
        '        where, args = " WHERE (updated_at, id) < (?, ?)", list(after)\n'
        "    return conn.execute(\n"
        '        "SELECT id, title, substr(body, 1, 200) AS preview, updated_at FROM notes"\n'
        '        + where\n        + " ORDER BY updated_at DESC, id DESC LIMIT ?",\n'
        "        (*args, min(limit, 100)),\n    ).fetchall()\n"
    )
    [page] = t.say(
        t.think(
            "Offset pagination would get slower with depth; keyset on (updated_at, id) stays on the "
            "index. Row values comparison needs SQLite 3.15+, which is fine."
        ),
        {"type": "annotation", "kind": "plan_step", "data": {"step": 2, "of": 3, "label": "keyset pagination"}},
        t.text("I'll use keyset pagination rather than `OFFSET`, so page 500 costs the same as page 1."),
        t.tool("Edit", file_path=ws.path("notes_api/db.py"), old_string=paginate_old, new_string=paginate_new),
    )
    t.run_edit(page, ws)
    [tests] = t.say(t.tool("Bash", command="uv run pytest -q", description="Run the full test suite"))
    t.run_bash(
        tests,
        "..........................                                               [100%]\n26 passed in 1.93s",
        after=5.4,
    )
    t.say(
        t.text("""\
Pagination added, keyset style:

```http
GET /notes?limit=100
GET /notes?limit=100&cursor=2026-02-16T14:03:11Z,48211
```

- `limit` is capped at 100 on the server whatever the client asks for.
- The cursor is the `(updated_at, id)` of the last note on the previous page; `id` breaks ties when
  two notes share a timestamp.
- The `(updated_at, id) < (?, ?)` comparison walks the same index, so deep pages stay fast.

I still need to expose `cursor` in the route and return a `next_cursor`; say if you want the cursor
opaque (base64) rather than readable.""")
    )
    t.hook("Stop", "Stop", "$HOME/.claude/hooks/notify.sh idle", stable_uuid("notes-perf/stop2"))
    t.system(
        "stop_hook_summary",
        hookCount=1,
        hookInfos=[{"command": "$HOME/.claude/hooks/notify.sh idle"}],
        hookErrors=[],
        preventedContinuation=False,
        stopReason="",
        hasOutput=False,
        level="suggestion",
        toolUseID=stable_uuid("notes-perf/stop2"),
    )
    t.system("turn_duration", durationMs=58_940, isMeta=False)
    t.titled("ai-title", "Speed up GET /notes with an index and pagination")
    return t, extra


def auth_live(ws: Workspace) -> tuple[Transcript, list[tuple[str, Transcript]]]:
    """2.1.1xx in a worktree: attachments, queue-operation, Agent tool, ends on a running tool call."""
    sid = stable_uuid("auth-live")
    t = Transcript(
        "auth-live",
        sid,
        AUTH,
        "2.1.118",
        "feature/auth",
        at("2026-04-21 15:30:05"),
        OPUS_46,
        snapshots=True,
        entrypoint="claude-vscode",
    )
    extra: list[tuple[str, Transcript]] = []
    t.side({"type": "permission-mode", "permissionMode": "acceptEdits", "sessionId": sid})
    t.emit(
        "attachment",
        {"attachment": {"type": "opened_file_in_ide", "filename": ws.path("notes_api/app.py")}},
        parent=None,
        after=0,
    )
    t.prompt(
        "Add token auth: POST /auth/token exchanges a username and password for a signed token, and all "
        "/notes routes require it. Use itsdangerous, not JWT. Tokens expire after 12 hours.",
        after=14,
    )
    plan = todos(
        ("Add notes_api/auth.py with token issue/verify", "Adding notes_api/auth.py", "in_progress"),
        ("Add POST /auth/token and protect /notes routes", "Protecting the routes", "pending"),
        ("Write tests for valid, expired and forged tokens", "Writing auth tests", "pending"),
    )
    [todo] = t.say(
        t.think(
            "itsdangerous URLSafeTimedSerializer gives signed, timestamped tokens; "
            "max_age on loads() handles expiry. The secret comes from the environment. "
            "Passwords: compare hashes with hmac.compare_digest via hashlib.scrypt."
        ),
        t.text("Plan:"),
        t.tool("TodoWrite", todos=plan),
    )
    t.run_todos(todo, [])
    auth = '''\
"""Signed, expiring bearer tokens (itsdangerous)."""

import hashlib
import hmac
import os

from fastapi import Header, HTTPException
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

MAX_AGE = 12 * 60 * 60
_signer = URLSafeTimedSerializer(os.environ["NOTES_SECRET_KEY"], salt="notes-api-token")


def hash_password(password: str, salt: bytes) -> bytes:
    return hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)


def check_password(password: str, salt: bytes, expected: bytes) -> bool:
    return hmac.compare_digest(hash_password(password, salt), expected)


def issue_token(username: str) -> str:
    return _signer.dumps({"sub": username})


def current_user(authorization: str = Header(default="")) -> str:
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise HTTPException(status_code=401, detail="missing bearer token")
    try:
        return _signer.loads(token, max_age=MAX_AGE)["sub"]
    except SignatureExpired:
        raise HTTPException(status_code=401, detail="token expired") from None
    except BadSignature:
        raise HTTPException(status_code=401, detail="invalid token") from None
'''
    [write] = t.say(t.tool("Write", file_path=ws.path("notes_api/auth.py"), content=auth))
    t.run_write(write, ws)
    t.emit(
        "attachment",
        {
            "attachment": {
                "type": "selected_lines_in_ide",
                "ideName": "Visual Studio Code",
                "lineStart": 8,
                "lineEnd": 8,
                "filename": ws.path("notes_api/app.py"),
                "content": 'app = FastAPI(title="notes-api")',
                "displayPath": "notes_api/app.py",
            }
        },
        after=6,
    )
    old = 'app = FastAPI(title="notes-api")\n'
    new = (
        'app = FastAPI(title="notes-api")\nprotected = [Depends(current_user)]\n\n\n'
        '@app.post("/auth/token")\n'
        "def token(form: OAuth2PasswordRequestForm = Depends(), conn=Depends(get_conn)) -> dict:\n"
        "    user = db.get_user(conn, form.username)\n"
        '    if user is None or not check_password(form.password, user["salt"], user["pw_hash"]):\n'
        '        raise HTTPException(status_code=401, detail="bad credentials")\n'
        '    return {"access_token": issue_token(user["username"]), "token_type": "bearer"}\n'
    )
    [edit] = t.say(t.tool("Edit", file_path=ws.path("notes_api/app.py"), old_string=old, new_string=new))
    t.run_edit(edit, ws)
    t.side(
        {
            "type": "queue-operation",
            "operation": "enqueue",
            "timestamp": t.ts(),
            "content": "also add a test that a token signed with a different key is rejected",
            "sessionId": sid,
        }
    )
    routes = ('@app.get("/notes")\n', '@app.get("/notes/{note_id}")\n')
    edits = [{"old_string": r, "new_string": r.replace(")\n", ", dependencies=protected)\n")} for r in routes]
    edits.append(
        {
            "old_string": "from notes_api.deps import get_conn\n",
            "new_string": "from notes_api.auth import check_password, current_user, issue_token\n"
            "from notes_api.deps import get_conn\n",
        }
    )
    [multi] = t.say(t.tool("MultiEdit", file_path=ws.path("notes_api/app.py"), edits=edits))
    t.run_multiedit(multi, ws)
    t.side({"type": "queue-operation", "operation": "dequeue", "timestamp": t.ts(), "sessionId": sid})
    t.prompt("also add a test that a token signed with a different key is rejected", after=0.4)
    tests = """\
import pytest
from fastapi.testclient import TestClient
from itsdangerous import URLSafeTimedSerializer

from notes_api import auth
from notes_api.app import app

client = TestClient(app)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_notes_require_a_token():
    assert client.get("/notes").status_code == 401


def test_valid_token_is_accepted():
    assert client.get("/notes", headers=bearer(auth.issue_token("ada"))).status_code == 200


def test_expired_token_is_rejected(monkeypatch):
    token = auth.issue_token("ada")
    monkeypatch.setattr(auth, "MAX_AGE", -1)
    response = client.get("/notes", headers=bearer(token))
    assert response.json()["detail"] == "token expired"


@pytest.mark.parametrize("key", ["not-the-key", ""])
def test_token_signed_with_another_key_is_rejected(key):
    forged = URLSafeTimedSerializer(key or "x", salt="notes-api-token").dumps({"sub": "ada"})
    response = client.get("/notes", headers=bearer(forged))
    assert response.json()["detail"] == "invalid token"
"""
    [tw] = t.say(
        t.text("Including the forged-key case you asked for:"),
        t.tool("Write", file_path=ws.path("tests/test_auth.py"), content=tests),
    )
    t.run_write(tw, ws)
    [run] = t.say(
        t.tool(
            "Bash",
            command="NOTES_SECRET_KEY=test uv run pytest -q tests/test_auth.py",
            description="Run the auth tests",
        )
    )
    t.run_bash(
        run,
        ".....                                                                    [100%]\n5 passed in 0.61s",
        after=3.2,
    )

    prompt = (
        "Review notes_api/auth.py in /home/ada/code/notes-api-worktrees/feature-auth for security "
        "problems: token handling, timing attacks, secret management, error messages that leak "
        "information. Be concrete and brief; do not edit files."
    )
    [agent] = t.say(
        t.text("Before calling this done, I'll get an independent review of the auth module."),
        t.tool("Agent", description="Security review of auth.py", prompt=prompt, subagent_type="general-purpose"),
    )
    aid = agent_id("auth-live/agent", 17)
    sub = t.subagent("auth-live/agent", agent_id=aid, model=SONNET)
    sub.prompt(prompt, parent=None, after=0.9)
    [read] = sub.say(sub.tool("Read", file_path=ws.path("notes_api/auth.py")))
    sub.run_read(read, ws)
    review = """\
Mostly sound. Findings, most important first:

1. **Missing secret fails at import** with a bare `KeyError: 'NOTES_SECRET_KEY'`. Fail with a clear
   message at startup instead, and refuse secrets shorter than 32 bytes.
2. **Unknown users skip the password hash**, so response time reveals which usernames exist. Hash
   against a dummy salt when the user is missing.
3. Tokens cannot be revoked before they expire. Acceptable for 12 h if documented; otherwise add a
   per-user `token_version` to the payload.

Good: `hmac.compare_digest`, scrypt parameters, a `salt` namespace on the signer, and generic 401
details."""
    sub.say(sub.text(review), after=11.0)
    extra.append((f"{sid}/subagents/agent-{aid}.jsonl", sub))
    t.agent_result(agent, sub, review, agent_type="general-purpose")
    finished = [{**p, "status": "completed"} for p in plan]
    [todo] = t.say(t.tool("TodoWrite", todos=finished))
    t.run_todos(todo, plan)
    t.say(
        t.text("""\
Auth is in place and tested (5 passing). The review raised two things worth fixing now:

1. **Clear startup error** when `NOTES_SECRET_KEY` is missing or short.
2. **Username enumeration by timing**: hash a dummy password when the user does not exist.

Revocation (point 3) can wait; tokens expire after 12 hours. Want me to do 1 and 2?""")
    )
    t.system("turn_duration", durationMs=402_117, messageCount=38, isMeta=False)
    ask = "Do 1 now, 2 in a separate commit. Then run the whole suite with coverage and fix what breaks."
    t.prompt(ask, after=160)
    t.side({"type": "last-prompt", "lastPrompt": ask, "sessionId": sid})
    old = '_signer = URLSafeTimedSerializer(os.environ["NOTES_SECRET_KEY"], salt="notes-api-token")\n'
    new = (
        "def _secret() -> str:\n"
        '    key = os.environ.get("NOTES_SECRET_KEY", "")\n    if len(key) < 32:\n'
        '        raise RuntimeError("NOTES_SECRET_KEY must be set to at least 32 characters")\n'
        "    return key\n\n\n"
        '_signer = URLSafeTimedSerializer(_secret(), salt="notes-api-token")\n'
    )
    [fix] = t.say(t.tool("Edit", file_path=ws.path("notes_api/auth.py"), old_string=old, new_string=new))
    t.run_edit(fix, ws)
    t.say(
        t.text("Now the full suite with coverage; it takes a minute or two."),
        t.tool(
            "Bash",
            command="NOTES_SECRET_KEY=$(python3 -c 'print(\"k\" * 40)') "
            "uv run pytest --cov=notes_api --cov-report=term-missing -q",
            description="Run the whole suite with coverage",
            timeout=600000,
        ),
    )
    return t, extra


# --------------------------------------------------------------------------- scratch sessions


def rides_csv(n: int = 400) -> list[tuple[str, str, float, int]]:
    """A year of plausible bike rides: (date, name, km, seconds)."""
    rng = random.Random(2025)
    names = [
        "Morning Ride",
        "Lunch Ride",
        "Evening Ride",
        "Coast loop",
        "Hill repeats",
        "Commute",
        "Commute home",
        "Gravel detour",
        "Recovery spin",
        "Long Sunday ride",
    ]
    day = datetime(2025, 1, 2, tzinfo=UTC)
    rides = []
    for _ in range(n):
        day += timedelta(days=rng.choice([0, 1, 1, 1, 2]))
        name = rng.choice(names)
        km = round(rng.uniform(8, 28) if "Commute" in name else rng.uniform(18, 95), 1)
        speed = rng.uniform(17.5, 31.5)
        rides.append((day.strftime("%Y-%m-%d"), name, km, int(km / speed * 3600)))
    return rides


def scratch_rides() -> Transcript:
    """2.0.x outside git: a data script, a ~400-line Bash output, WebFetch."""
    ws = Workspace(SCRATCH, {})
    t = Transcript(
        "scratch-rides",
        stable_uuid("scratch-rides"),
        SCRATCH,
        "2.0.76",
        "",
        at("2026-02-02 19:40:26"),
        SONNET,
        snapshots=True,
    )
    rides = rides_csv()
    t.prompt(
        "I exported my bike rides to rides.csv. Write a quick script that prints monthly distance "
        "totals and the longest ride of each month.",
        after=0,
    )
    [head] = t.say(
        t.text("Let me look at the file first."),
        t.tool("Bash", command="head -4 rides.csv && wc -l rides.csv", description="Peek at the CSV"),
    )
    rows = "\n".join(f"{d},{n},{k},{s}" for d, n, k, s in rides[:3])
    t.run_bash(head, f"date,name,distance_km,moving_time_s\n{rows}\n{len(rides) + 1} rides.csv", after=0.4)
    script = '''\
"""Monthly totals and longest rides from a Strava-style CSV export."""

import argparse
import csv
from collections import defaultdict


def load(path: str) -> list[dict]:
    with open(path, newline="") as f:
        return [
            {**row, "km": float(row["distance_km"]), "secs": int(row["moving_time_s"])}
            for row in csv.DictReader(f)
        ]


def monthly(rides: list[dict]) -> None:
    months: dict[str, list[dict]] = defaultdict(list)
    for ride in rides:
        months[ride["date"][:7]].append(ride)
    print(f"{'month':8} {'rides':>5} {'km':>8}  longest")
    for month, group in sorted(months.items()):
        best = max(group, key=lambda r: r["km"])
        total = sum(r["km"] for r in group)
        print(f"{month:8} {len(group):5d} {total:8.1f}  {best['km']:.1f} km ({best['name']})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("csv")
    monthly(load(parser.parse_args().csv))


if __name__ == "__main__":
    main()
'''
    [write] = t.say(
        t.text("Plain `csv` is plenty for ~400 rows, no pandas needed."),
        t.tool("Write", file_path=ws.path("rides_summary.py"), content=script),
    )
    t.run_write(write, ws)
    [run] = t.say(t.tool("Bash", command="python3 rides_summary.py rides.csv", description="Run the summary"))
    months: dict[str, list[tuple[str, str, float, int]]] = {}
    for r in rides:
        months.setdefault(r[0][:7], []).append(r)
    out = [f"{'month':8} {'rides':>5} {'km':>8}  longest"]
    for m, group in sorted(months.items()):
        best = max(group, key=lambda r: r[2])
        out.append(f"{m:8} {len(group):5d} {sum(r[2] for r in group):8.1f}  {best[2]:.1f} km ({best[1]})")
    t.run_bash(run, "\n".join(out), after=0.3)
    t.say(
        t.text(
            "Here's the year by month:\n\n```text\n" + "\n".join(out) + "\n```\n\n"
            "Run it again any time with `python3 rides_summary.py rides.csv`."
        )
    )

    t.prompt("Nice. Now print every ride sorted by average speed, fastest first, so I can spot GPS glitches.", after=70)
    old = '    parser.add_argument("csv")\n    monthly(load(parser.parse_args().csv))\n'
    new = (
        '    parser.add_argument("csv")\n    parser.add_argument("--all", action="store_true",\n'
        '                        help="list every ride by average speed")\n'
        "    args = parser.parse_args()\n    rides = load(args.csv)\n"
        '    if args.all:\n        for r in sorted(rides, key=lambda r: r["km"] / r["secs"], reverse=True):\n'
        '            h, rest = divmod(r["secs"], 3600)\n'
        '            pace = r["km"] / r["secs"] * 3600\n'
        "            print(f\"{r['date']}  {r['name']:16} {r['km']:5.1f} km  "
        '{h}:{rest // 60:02d}:{rest % 60:02d}  {pace:4.1f} km/h")\n'
        "        return\n    monthly(rides)\n"
    )
    [edit] = t.say(t.tool("Edit", file_path=ws.path("rides_summary.py"), old_string=old, new_string=new))
    t.run_edit(edit, ws)
    [every] = t.say(
        t.tool("Bash", command="python3 rides_summary.py rides.csv --all", description="List every ride by speed")
    )
    lines = []
    for d, n, k, s in sorted(rides, key=lambda r: r[2] / r[3], reverse=True):
        h, rest = divmod(s, 3600)
        lines.append(f"{d}  {n:16} {k:5.1f} km  {h}:{rest // 60:02d}:{rest % 60:02d}  {k / s * 3600:4.1f} km/h")
    t.run_bash(every, "\n".join(lines), after=0.3)
    fastest = lines[0]
    t.say(
        t.text(
            f"All {len(lines)} rides, fastest first. Nothing looks like a GPS glitch: the top speed is "
            f"`{fastest.split()[-2]} km/h` and the spread is smooth, with no jump at the top. A glitch "
            "usually shows up as one ride far above the rest (40+ km/h average on a bike)."
        )
    )

    t.prompt("Could I estimate calories from this? Look up MET values for cycling.", after=95)
    [fetch] = t.say(
        t.tool(
            "WebFetch",
            url="https://en.wikipedia.org/wiki/Metabolic_equivalent_of_task",
            prompt="What MET values are listed for bicycling at different speeds?",
        )
    )
    met = (
        "The page gives MET as a ratio of working to resting metabolic rate and lists example "
        "activities. Bicycling values from the Compendium of Physical Activities: about 4 for leisurely "
        "riding under 16 km/h, 6.8 for 16-19 km/h, 8 for 19-22 km/h, 10 for 22-25.5 km/h and 12 for "
        "25.5-30.5 km/h; racing above 32 km/h is around 15.8."
    )
    t.result(
        fetch,
        met,
        {"bytes": 187340, "code": 200, "codeText": "OK", "result": met, "durationMs": 3120, "url": fetch.input["url"]},
        after=3.4,
    )
    t.say(
        t.text("""\
Yes, roughly. Energy in kcal ≈ **MET × body mass (kg) × hours**. MET values for cycling:

| average speed | MET |
|---|---|
| < 16 km/h | 4.0 |
| 16-19 km/h | 6.8 |
| 19-22 km/h | 8.0 |
| 22-25.5 km/h | 10.0 |
| 25.5-30.5 km/h | 12.0 |

```python
MET_BANDS = [(16, 4.0), (19, 6.8), (22, 8.0), (25.5, 10.0), (30.5, 12.0)]


def kcal(km: float, secs: int, mass_kg: float = 70.0) -> float:
    speed = km / secs * 3600
    met = next((m for limit, m in MET_BANDS if speed < limit), 15.8)
    return met * mass_kg * secs / 3600
```

Treat it as ±25%: wind, climbing and drafting move the real number a lot. If you ride with a power
meter, kJ of work ≈ kcal burned is a much better estimate.""")
    )
    return t


def scratch_ports() -> Transcript:
    """2.1.x, no tools: a quick question answered in several languages."""
    sid = stable_uuid("scratch-ports")
    t = Transcript("scratch-ports", sid, SCRATCH, "2.1.42", "", at("2026-02-20 21:10:44"), HAIKU, snapshots=True)
    t.prompt("what's listening on port 5432? need it for linux and mac", after=0)
    t.say(
        t.text("""\
**Linux** (`ss` is in iproute2 on every modern distro):

```bash
sudo ss -ltnp 'sport = :5432'
# LISTEN 0 244 127.0.0.1:5432 0.0.0.0:* users:(("postgres",pid=1184,fd=7))
```

**macOS** (no `ss`; `lsof` works on both):

```bash
sudo lsof -nP -iTCP:5432 -sTCP:LISTEN
```

`-n` and `-P` skip DNS and port-name lookups, which makes `lsof` much faster. Without `sudo` you only
see your own processes.""")
    )
    t.prompt("and from powershell on windows?", after=40)
    t.say(
        t.text("""\
```powershell
Get-NetTCPConnection -LocalPort 5432 -State Listen |
    Select-Object LocalAddress, OwningProcess,
        @{ Name = 'Process'; Expression = { (Get-Process -Id $_.OwningProcess).ProcessName } }
```

Or the classic way, which also works in `cmd.exe`:

```bat
netstat -ano | findstr :5432
```""")
    )
    t.system("turn_duration", durationMs=5_310, isMeta=False)
    t.side({"type": "last-prompt", "lastPrompt": "and from powershell on windows?", "sessionId": sid})
    return t


# --------------------------------------------------------------------------- writing


def write_jsonl(path: Path, t: Transcript) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = "".join(dumps(r) + "\n" for r in t.records)
    path.write_text(data, encoding="utf-8")
    stamps = [r["timestamp"] for r in t.records if "timestamp" in r]
    when = instant(max(stamps)) if stamps else t.start
    os.utime(path, (when.timestamp(), when.timestamp()))
    return len(data.encode())


def main() -> None:
    projects, plans = DEMO / "projects", DEMO / "plans"
    for d in (projects, plans):
        shutil.rmtree(d, ignore_errors=True)
    weather = Workspace(WEATHER, WEATHER_FILES)
    notes = Workspace(NOTES, NOTES_FILES)
    auth = Workspace(AUTH, {k: v for k, v in NOTES_FILES.items()})

    scaffold = weather_scaffold(weather)
    units, units_extra = weather_units(weather)
    release = weather_release(weather)
    search, search_extra = notes_search(notes)
    perf, perf_extra = notes_perf(notes)
    live, live_extra = auth_live(auth)
    sessions: list[tuple[str, Transcript, list[tuple[str, Transcript]]]] = [
        (WEATHER, scaffold, []),
        (WEATHER, units, units_extra),
        (WEATHER, release, []),
        (WEATHER, weather_empty(scaffold.tip or ""), []),
        (NOTES, search, search_extra),
        (NOTES, perf, perf_extra),
        (AUTH, live, live_extra),
        (SCRATCH, scratch_rides(), []),
        (SCRATCH, scratch_ports(), []),
    ]
    total = 0
    for cwd, t, extra in sessions:
        folder = projects / encode_project(cwd)
        total += write_jsonl(folder / f"{t.session_id}.jsonl", t)
        for rel, sub in extra:
            total += write_jsonl(folder / rel, sub)
    plans.mkdir(parents=True)
    (plans / f"{PLAN_SLUG}.md").write_text(PLAN, encoding="utf-8")
    print(f"wrote {len(sessions)} sessions to {projects.relative_to(ROOT)} ({total / 1024:.0f} KB)")
    for cwd, t, _ in sessions:
        print(f"  {t.session_id}  {t.version:8} {t.label:16} {encode_project(cwd)}")


if __name__ == "__main__":
    main()
