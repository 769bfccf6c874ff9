"""The demo session weather-units.

2.0.x: image prompt, parallel tools, MultiEdit, failing pytest, Edit miss, fork, flat agent file.
"""

from __future__ import annotations

import base64

from demo.engine import SONNET, Transcript, Workspace, agent_id, at, stable_uuid, tiny_png
from demo.repos import WEATHER, WEATHER_TEST


def build(ws: Workspace) -> tuple[Transcript, list[tuple[str, Transcript]]]:
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
