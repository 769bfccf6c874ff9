"""The demo session auth-live.

2.1.1xx in a worktree: attachments, queue-operation, Agent tool, ends on a running tool call.
"""

from __future__ import annotations

from demo.engine import OPUS_46, SONNET, Transcript, Workspace, agent_id, at, stable_uuid, todos
from demo.repos import AUTH


def build(ws: Workspace) -> tuple[Transcript, list[tuple[str, Transcript]]]:
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
