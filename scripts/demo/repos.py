"""The demo's repositories as their files first hold them, and the plan file."""

HOME = "/home/ada"
WEATHER = f"{HOME}/code/weather-cli"
NOTES = f"{HOME}/code/notes-api"
AUTH = f"{HOME}/code/notes-api-worktrees/feature-auth"
SCRATCH = f"{HOME}/scratch"

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
