#!/usr/bin/env python3
"""Write the hand-authored demo Claude home that `claude-tui --demo` opens.

    python scripts/make_demo.py

It deletes and rewrites ``claude_tui/demo/projects`` and ``claude_tui/demo/plans``. Each session is
a short script in ``demo/`` (its docstring says what it shows) on the engine in ``demo/engine.py``,
itself on the record builder ``tests/records.py``; this file runs them in order and writes their
files. The record shapes follow real Claude Code transcripts (1.0.x, 2.0.x and 2.1.x); the
conversations themselves are original. ``claude_tui/demo/README.md`` says which session shows
which feature.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from demo import (
    auth_live,
    notes_perf,
    notes_search,
    scratch_ports,
    scratch_rides,
    weather_empty,
    weather_release,
    weather_scaffold,
    weather_units,
)
from demo.engine import Transcript, Workspace, encode_project, write_jsonl
from demo.repos import AUTH, NOTES, NOTES_FILES, PLAN, PLAN_SLUG, SCRATCH, WEATHER, WEATHER_FILES

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "claude_tui" / "demo"


def main() -> None:
    projects, plans = DEMO / "projects", DEMO / "plans"
    for d in (projects, plans):
        shutil.rmtree(d, ignore_errors=True)
    weather = Workspace(WEATHER, WEATHER_FILES)
    notes = Workspace(NOTES, NOTES_FILES)
    auth = Workspace(AUTH, {k: v for k, v in NOTES_FILES.items()})

    scaffold = weather_scaffold.build(weather)
    units, units_extra = weather_units.build(weather)
    release = weather_release.build(weather)
    search, search_extra = notes_search.build(notes)
    perf, perf_extra = notes_perf.build(notes)
    live, live_extra = auth_live.build(auth)
    sessions: list[tuple[str, Transcript, list[tuple[str, Transcript]]]] = [
        (WEATHER, scaffold, []),
        (WEATHER, units, units_extra),
        (WEATHER, release, []),
        (WEATHER, weather_empty.build(scaffold.tip or ""), []),
        (NOTES, search, search_extra),
        (NOTES, perf, perf_extra),
        (AUTH, live, live_extra),
        (SCRATCH, scratch_rides.build(), []),
        (SCRATCH, scratch_ports.build(), []),
    ]
    total = 0
    for cwd, t, extra in sessions:
        folder = projects / encode_project(cwd)
        total += write_jsonl(folder / f"{t.session_id}.jsonl", t)
        for rel, sub in extra:
            total += write_jsonl(folder / rel, sub)
    plans.mkdir(parents=True)
    (plans / f"{PLAN_SLUG}.md").write_text(PLAN, encoding="utf-8")
    print(f"wrote {len(sessions)} sessions to {projects.relative_to(ROOT)} ({total / 1024:.0f} KB)")
    for cwd, t, _ in sessions:
        print(f"  {t.session_id}  {t.version:8} {t.label:16} {encode_project(cwd)}")


if __name__ == "__main__":
    main()
