"""The demo session notes-search.

2.1.x: plan mode with a slug, Explore subagent file, ExitPlanMode, a 3-way fork, titles.
"""

from __future__ import annotations

from demo.engine import OPUS_45, Transcript, Workspace, agent_id, at, stable_uuid
from demo.repos import HOME, NOTES, PLAN, PLAN_SLUG


def build(ws: Workspace) -> tuple[Transcript, list[tuple[str, Transcript]]]:
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
