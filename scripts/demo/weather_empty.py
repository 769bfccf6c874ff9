"""The demo session weather-empty.

A session with nothing real in it, but a summary that names another session.
"""

from __future__ import annotations

from demo.engine import SONNET, Transcript, at, stable_uuid
from demo.repos import WEATHER


def build(leaf: str) -> Transcript:
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
