"""The demo session scratch-ports.

2.1.x, no tools: a quick question answered in several languages.
"""

from __future__ import annotations

from demo.engine import HAIKU, Transcript, at, stable_uuid
from demo.repos import SCRATCH


def build() -> Transcript:
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
