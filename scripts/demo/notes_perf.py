"""The demo session notes-perf.

2.1.x: hooks, agent_progress copies, api_error, microcompact, compaction, unknown types.
"""

from __future__ import annotations

import base64
import hashlib

from demo.engine import OPUS_46, Transcript, Workspace, agent_id, at, stable_uuid
from demo.repos import NOTES


def build(ws: Workspace) -> tuple[Transcript, list[tuple[str, Transcript]]]:
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
