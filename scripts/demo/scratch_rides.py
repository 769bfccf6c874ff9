"""The demo session scratch-rides.

2.0.x outside git: a data script, a ~400-line Bash output, WebFetch.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from demo.engine import SONNET, Transcript, Workspace, at, stable_uuid
from demo.repos import SCRATCH


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


def build() -> Transcript:
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
