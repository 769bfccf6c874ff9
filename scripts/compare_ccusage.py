"""Compare `claude-tui usage` with ccusage on one history, and say what explains each difference (issue 34).

    python scripts/compare_ccusage.py PROJECTS_DIR [--ccusage ccusage@20.0.24] [--timezone UTC]

Runs `claude-tui usage daily|session --json` (with a cache folder of its own) and `npx ccusage daily|session
--json --offline` (CLAUDE_CONFIG_DIR a temporary folder whose `projects` is PROJECTS_DIR), and prints each day and
each session whose tokens or cost differ: ours, ccusage's, and the reason, worked out here from the raw lines
message by message (by message id, else record uuid), as ccusage counts them:

- progress: a subagent copied into `progress` records (Claude Code 2.1.7 to 2.1.42) with no transcript of its
  own: ccusage's session report does not read those records (its daily report does);
- repeated: one response written twice with and without a requestId: ccusage counts each; and in its daily report,
  every streamed chunk with no requestId (as proxies for other models write them);
- microseconds: a record whose time has more than three decimals (some 1.0.x files): ccusage drops it;
- replay: a message whose session file kept an earlier streamed chunk, its final one in a subagent's file (a side
  question's replay of its session): ccusage keeps the session file's, claude-tui the fullest;
- price: the same tokens, another cost: ccusage prices models claude-tui leaves unpriced (not Anthropic's), or
  prices otherwise.

A difference whose tokens these do not add up to is marked UNEXPLAINED: ours to look at. Sessions are compared
once ccusage's are gathered as claude-tui's are: ccusage lists a 2.0 subagent transcript (agent-*.jsonl beside the
sessions) and a workflow run as sessions of their own.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import orjson

KINDS = ("input_tokens", "output_tokens", "cache_creation_tokens", "cache_read_tokens")
CC_KINDS = ("inputTokens", "outputTokens", "cacheCreationTokens", "cacheReadTokens")
RAW = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
_MICROSECONDS = re.compile(r"\.\d{4,}")


@dataclass
class Chunk:
    """An assistant record's usage, where it is."""

    file: str
    sidechain: bool  #: in a subagent's file, or marked so
    progress: bool  #: copied into a progress record
    request: str | None
    stamp: str
    counts: tuple[int, ...]


@dataclass
class Message:
    chunks: list[Chunk] = field(default_factory=list)

    def fullest(self) -> Chunk:
        return max(self.chunks, key=lambda c: c.counts[1])

    def ccusage(self, report: str) -> tuple[list[Chunk], str | None]:
        """The chunks ccusage counts in a report, and why they differ from the fullest once. Its daily report reads
        progress records and counts every chunk with no requestId; its session report reads no progress record and
        keeps one chunk per requestId (or none)."""
        seen = [c for c in self.chunks if (report == "daily" or not c.progress) and not _MICROSECONDS.search(c.stamp)]
        if not seen:
            return [], "progress" if all(c.progress for c in self.chunks) else "microseconds"
        keyed: dict[str | None, Chunk] = {}
        counted = [c for c in seen if c.request is None] if report == "daily" else []
        for c in seen:
            if c.request is not None or report != "daily":
                kept = keyed.get(c.request)
                if kept is None or (kept.sidechain, -sum(kept.counts)) > (c.sidechain, -sum(c.counts)):
                    keyed[c.request] = c
        counted += keyed.values()
        if len(counted) > 1:
            return counted, "repeated"
        return counted, "replay" if counted[0].counts != self.fullest().counts else None


def raw_messages(root: Path) -> dict[str, Message]:
    messages: dict[str, Message] = defaultdict(Message)
    for path in sorted(root.rglob("*.jsonl")):
        agent = path.name.startswith("agent-")
        for line in path.read_bytes().splitlines():
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            progress = isinstance(record, dict) and record.get("type") == "progress"
            if progress:
                data = record.get("data")
                record = data.get("message") if isinstance(data, dict) else None
            if not isinstance(record, dict) or record.get("type") != "assistant":
                continue
            message = record.get("message")
            if not isinstance(message, dict) or not isinstance(message.get("usage"), dict):
                continue
            usage = message["usage"]
            counts = tuple(usage.get(name) if isinstance(usage.get(name), int) else 0 for name in RAW)
            sidechain = agent or record.get("isSidechain") is True
            request = record.get("requestId") if isinstance(record.get("requestId"), str) else None
            chunk = Chunk(str(path), sidechain, progress, request, str(record.get("timestamp", "")), counts)
            messages[message.get("id") or record.get("uuid") or f"{path}:{len(messages)}"].chunks.append(chunk)
    return messages


def day_of(stamp: str, zone: ZoneInfo) -> str:
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return "?"
    return moment.astimezone(zone if moment.tzinfo else UTC).date().isoformat()


def ours(report: str, root: Path, cache: Path, zone: str) -> dict[str, dict]:
    cmd = [
        sys.executable,
        "-m",
        "claude_tui",
        "usage",
        report,
        "--json",
        "--timezone",
        zone,
        "--projects-dir",
        str(root),
    ]
    out = subprocess.run(cmd, env={**os.environ, "CLAUDE_TUI_CACHE_DIR": str(cache)}, check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    return {p["period"]: p for p in map(orjson.loads, out.splitlines())}


def theirs(report: str, root: Path, package: str, zone: str) -> dict[str, dict]:
    with tempfile.TemporaryDirectory() as home:
        os.symlink(root, os.path.join(home, "projects"))
        cmd = ["npx", "-y", package, report, "--json", "--offline", "--timezone", zone]
        out = subprocess.run(cmd, env={**os.environ, "CLAUDE_CONFIG_DIR": home}, check=True,
                             capture_output=True, text=True).stdout  # fmt: skip
    return {p["period"]: p for p in orjson.loads(out)[report]}


def ccusage_session(path: str, root: Path) -> str:
    """The session ccusage files a transcript under (its `extract_session_parts`)."""
    parts = Path(path).relative_to(root).parts
    if len(parts) == 2:
        return Path(parts[1]).stem
    return parts[-3] if len(parts) >= 4 and parts[-2] == "subagents" else parts[-2]


def our_sessions(root: Path, cache: Path) -> dict[str, str]:
    """The session id claude-tui files each transcript under, by path."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from claude_tui.core.index.store import Index
    from claude_tui.core.index.usage import read_usage
    from claude_tui.core.usage_report import file_sessions

    index = Index(cache, [root])
    _, _, files = index.read([root], lambda db: read_usage(db, [str(root)]))
    sessions = file_sessions(files)
    return {path: sessions[fid].id for fid, path, *_ in files}


def compare(
    title: str, mine: dict[str, dict], cc: dict[str, dict], why: dict[str, dict[str, list[int]]], unpriced: set[str]
) -> int:
    """Print the periods that differ; return how many no reason explains."""
    print(f"\n{title}: {len(mine)} periods here, {len(cc)} in ccusage")
    print(f"{'period':<38} {'ours (in, out, write, read; $)':<50} {'ccusage':<50} reason")
    left = 0
    for period in sorted(set(mine) | set(cc)):
        a, b = mine.get(period, {}), cc.get(period, {})
        got = [a.get(k, 0) for k in KINDS]
        their = [b.get(k, 0) for k in CC_KINDS]
        cost_a, cost_b = a.get("cost_usd") or 0.0, b.get("totalCost") or 0.0
        if got == their and abs(cost_a - cost_b) < 0.005:
            continue
        reasons = why.get(period, {})
        explained = [sum(r[i] for r in reasons.values()) for i in range(4)]
        said = [
            f"{name} {', '.join(f'{n:+,}' for n in amounts)}"
            for name, amounts in sorted(reasons.items())
            if any(amounts)
        ]
        if got == their and set(a.get("unpriced_models", [])) & unpriced:
            said.append(f"price ({', '.join(sorted(set(a['unpriced_models'])))} unpriced here)")
        elif got == their:
            said.append("price")
        if [x - y for x, y in zip(got, their, strict=True)] != explained:
            said.append(f"UNEXPLAINED {[x - y - e for x, y, e in zip(got, their, explained, strict=True)]}")
            left += 1
        print(f"{period:<38} {_figures(got, cost_a):<50} {_figures(their, cost_b):<50} {'; '.join(said)}")
    return left


def _figures(counts: list[int], cost: float) -> str:
    return f"{', '.join(f'{n:,}' for n in counts)}; ${cost:,.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("projects", type=Path)
    ap.add_argument("--ccusage", default="ccusage@20.0.24")
    ap.add_argument("--timezone", default="UTC")
    a = ap.parse_args()
    root = a.projects.resolve()
    zone = ZoneInfo(a.timezone)
    with tempfile.TemporaryDirectory() as cache:
        mine_daily = ours("daily", root, Path(cache), a.timezone)
        mine_sessions = ours("session", root, Path(cache), a.timezone)
        session_of = our_sessions(root, Path(cache))
    cc_daily = theirs("daily", root, a.ccusage, a.timezone)
    cc_by_id = theirs("session", root, a.ccusage, a.timezone)
    by_day: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0] * 4))
    by_session: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0] * 4))
    for message in raw_messages(root).values():
        fullest = message.fullest()
        for report, where, whose in (
            ("daily", by_day, day_of(fullest.stamp, zone)),
            ("session", by_session, min(session_of.get(c.file, "?") for c in message.chunks)),
        ):
            counted, reason = message.ccusage(report)
            for i in range(4) if reason else ():  # RAW's order is KINDS'
                where[whose][reason][i] += fullest.counts[i] - sum(c.counts[i] for c in counted)
    cc_sessions: dict[str, dict] = {}
    their_ids = {ccusage_session(path, root): ours_id for path, ours_id in session_of.items()}
    for cc_id, period in cc_by_id.items():
        gathered = cc_sessions.setdefault(their_ids.get(cc_id, cc_id), {k: 0 for k in (*CC_KINDS, "totalCost")})
        for k in (*CC_KINDS, "totalCost"):
            gathered[k] += period.get(k) or 0
    unpriced = {m for p in mine_daily.values() for m in p["unpriced_models"]}
    left = compare("daily", mine_daily, cc_daily, by_day, unpriced)
    left += compare("session", mine_sessions, cc_sessions, by_session, unpriced)
    print(f"\n{left} difference{'s' if left != 1 else ''} unexplained")
    raise SystemExit(1 if left else 0)


if __name__ == "__main__":
    main()
