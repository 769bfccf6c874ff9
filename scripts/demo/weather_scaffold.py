"""The demo session weather-scaffold.

1.0.x: TodoWrite, Write, inline sidechain Task with WebFetch, pre-2.0 compaction, Edit.
"""

from __future__ import annotations

from demo.engine import SONNET, Transcript, Workspace, at, stable_uuid, todos
from demo.repos import WEATHER, WEATHER_FILES


def build(ws: Workspace) -> Transcript:
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
