"""The library: every project and session under the roots, with their facts, from the index.

Projects are the folders under a root, shown by their real path (from the sessions' `cwd`:
the folder name cannot be decoded). Git worktrees group under their repository when the
paths show it (`<repo>/.claude/worktrees/<name>`, `<repo>/.worktrees/<name>`, `<repo>-worktrees/<name>`,
and `<repo>/worktrees/<name>` or `<repo>-wt/<name>` when `<repo>` is a project) or when a
session of the repository made the worktree (`git worktree add`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

import orjson

from claude_tui.core import front
from claude_tui.core.collector import gc_paused
from claude_tui.core.facts import LIVE_SECONDS, Project, SessionInfo, project_path, split_path
from claude_tui.core.files import agent_id_of, is_agent_name, owning_folder, session_file, stem_of
from claude_tui.core.index.extract import owner_of, title_of
from claude_tui.core.index.jobs import Progress, UpdateResult
from claude_tui.core.index.locks import IndexBusy
from claude_tui.core.index.store import Index
from claude_tui.core.model import own_session_id
from claude_tui.core.search import MARK_END, MARK_START, Hits, SearchHit, search
from claude_tui.core.times import active_seconds, outer_span, parse_time, span_seconds
from claude_tui.core.usage import Tokens, UsageTotal, by_model, most_used_first, other_models

#: The front page's file, beside the index.
FRONT_NAME = "front.pickle"

__all__ = ["LIVE_SECONDS", "MARK_END", "MARK_START", "Library", "Progress", "Project", "SearchHit", "SessionInfo"]


class Library:
    """Projects and sessions under `roots`, kept in the index in `cache_dir`."""

    def __init__(self, roots: list[Path], cache_dir: Path | None = None) -> None:
        self.roots = [Path(r).expanduser().absolute() for r in roots]
        self.index = Index(cache_dir, self.roots)
        self.notices: list[str] = self.index.notices
        self.projects: list[Project] = []
        self._loaded: int | None = None  #: the index's version when the projects were read
        self._front_state: tuple[Any, ...] | None = None  #: the index's state when the front page was last saved
        self._updating = False  #: an update is under way (see refresh)

    def refresh(
        self, progress: Callable[[Progress], None] | None = None, cancel: threading.Event | None = None
    ) -> UpdateResult:
        """Bring the index up to date (only what changed is read), then reload the projects if anything did."""
        self._updating = True  # the listings `progress` may read meanwhile are not saved as the front page
        try:
            result = self.index.update(self.roots, progress, cancel)
        except IndexBusy:
            self.index.note("another process kept writing the index: showing what it holds")
            result = UpdateResult(busy=True)
        finally:
            self._updating = False
        if result.files_read or result.removed or result.interrupted or self.index.version() != self._loaded:
            self.reload()
        return result

    def reload(self) -> None:
        """Read the projects and sessions from the index as it is, and save their front page (see front.py)."""
        self._loaded = self.index.version()
        saving = self.index.path is not None and not self._updating
        state = self.index.state(self.roots) if saving else None  # read before what it stands for
        with gc_paused():  # tens of thousands of facts made: a collector pass would walk the library before them
            self.projects = build_projects(self.index.files(self.roots), self.index.summaries(self.roots))
        if state is not None and state != self._front_state:
            self.index.keep(FRONT_NAME, front.dumps(state, self.projects))
            self._front_state = state

    def front(self) -> list[Project] | None:
        """The front page saved for the index as it is now, if there is one: what the first frame shows."""
        if self.index.path is None:
            return None
        try:
            data = (self.index.folder / FRONT_NAME).read_bytes()
        except OSError:  # none yet
            return None
        state = self.index.state(self.roots)
        projects = front.loads(data, state)
        if projects is not None:
            self._front_state = state  # saved for the index as it is: the next reload has nothing to save
        return projects

    def search(self, query: str, **filters: Any) -> Hits:
        """Messages matching `query`, newest first; `filters` (limit, project, role, ...) as search.search takes
        them. ValueError for a bad query or filter."""
        return self.index.read(self.roots, lambda db: search(db, self.roots, query, **filters))

    def session(self, path: Path) -> SessionInfo | None:
        """The facts of the session at `path`, if it is in the library."""
        for project in self.projects:
            for info in project.sessions:
                if info.file == str(path):
                    return info
        return None


# ---------------------------------------------------------------- facts -> projects


def build_projects(
    files: list[tuple[str, str, bool, int, int, bytes | None, str | None]],
    summaries: dict[tuple[str, str], str],
) -> list[Project]:
    """Projects with their sessions, from the index's rows of files. A session folder with no file beside it
    (only its subagents' transcripts) is listed as its session; a subagent's transcript beside the sessions whose
    session has no file (deleted) is listed as a session of its own."""
    agents: dict[tuple[str, str], list[tuple[str, dict[str, Any]]]] = {}
    mains = []
    agent_files = []
    for path, folder, agent, size, mtime_ns, blob, error in sorted(files):
        if blob is None and error is None:
            continue  # not read yet (an update was stopped before it)
        facts = orjson.loads(blob) if blob else {}
        if agent:
            owner = owner_of(path, facts)
            agents.setdefault((folder, owner), []).append((agent_id_of(path) or "", facts))
            agent_files.append((path, folder, size, mtime_ns, facts, error, owner))
        else:
            mains.append((path, folder, size, mtime_ns, facts, error, None))
    ids = {path: session_id_of(path, facts) for path, _, _, _, facts, *_ in mains}
    owned = {(folder, ids[path]) for path, folder, *_ in mains}
    per_folder: dict[str, dict[str, str]] = {}
    for (folder, leaf), value in summaries.items():
        per_folder.setdefault(folder, {})[leaf] = value
    by_folder: dict[str, list[tuple[SessionInfo, dict[str, Any]]]] = {}
    orphans = [row for row in agent_files if (row[1], row[-1]) not in owned]  # (folder, owner) has no session file
    in_folders: dict[tuple[str, str], list[tuple[str, int, int, dict[str, Any]]]] = {}
    for path, folder, size, mtime_ns, facts, _, owner in orphans:
        if owning_folder(path) is not None:
            in_folders.setdefault((folder, owner), []).append((path, size, mtime_ns, facts))
    orphans = [row for row in orphans if owning_folder(row[0]) is None]
    mains += [_folder_session(folder, owner, rows) for (folder, owner), rows in in_folders.items()]
    for path, folder, size, mtime_ns, facts, error, orphan_of in mains + orphans:
        sid = ids.get(path) or session_id_of(path, facts)
        subagents = agents.get((folder, sid), []) if orphan_of is None else []
        info = session_info(path, sid, size, mtime_ns, facts, subagents, per_folder.get(folder, {}))
        info.error, info.orphan_of, info.no_file = error, orphan_of, bool(facts.get("no_file"))
        by_folder.setdefault(folder, []).append((info, facts))
    projects = _merge_twins([_project(Path(folder), items) for folder, items in by_folder.items()])
    _group_worktrees(projects, [f for items in by_folder.values() for _, f in items])
    projects.sort(key=lambda p: p.last_activity, reverse=True)
    return projects


def _folder_session(
    folder: str, owner: str, transcripts: list[tuple[str, int, int, dict[str, Any]]]
) -> tuple[str, str, int, int, dict[str, Any], None, None]:
    """A session folder with no file (see files.folder_only), as a session file's row: the file it would have, the
    size and time of its transcripts, and the facts they share (times, working folders, the first prompt)."""
    firsts = sorted((f for _, _, _, f in transcripts if f.get("first_ts")), key=lambda f: _epoch(f["first_ts"]))
    ends = [f["last_ts"] for _, _, _, f in transcripts if f.get("last_ts")]
    facts = {
        "no_file": True,
        "sids": [owner],
        "first_ts": firsts[0]["first_ts"] if firsts else None,
        "last_ts": max(ends, key=_epoch) if ends else None,
        "cwds": list(dict.fromkeys(c for _, _, _, f in transcripts for c in f.get("cwds") or ())),
        "first_prompt": next((f["first_prompt"] for f in firsts if f.get("first_prompt")), ""),
    }
    size = sum(max(0, size) for _, size, _, _ in transcripts)
    mtime_ns = max(mtime for _, _, mtime, _ in transcripts)
    return session_file(folder, owner), folder, size, mtime_ns, facts, None, None


def _epoch(stamp: str) -> float:
    return parse_time(stamp) or 0.0


def session_id_of(path: str, facts: dict[str, Any]) -> str:
    """The id of the session in the file at `path`, as Session.id takes it from the file's name and records (a
    subagent's transcript listed as a session of its own goes by its name)."""
    stem = stem_of(path)
    return stem if is_agent_name(stem) else own_session_id(stem, facts.get("sids") or ())


def session_info(
    path: str,
    sid: str,
    size: int,
    mtime_ns: int,
    facts: dict[str, Any],
    agents: list[tuple[str, dict[str, Any]]],
    summaries: dict[str, str],
) -> SessionInfo:
    """One session's facts (`sid`: its id, see session_id_of), its subagents' tokens included (as
    stats.session_stats counts them)."""
    usage = facts.get("usage", {})
    agent_parts = []
    progress = list(facts.get("progress", {}).values())
    for agent_id, agent_facts in agents:
        agent_parts.append(agent_facts.get("usage", {}))
        copy = next((p for p in progress if p.get("a") and p["a"] == agent_id), None)
        if copy is not None:
            progress.remove(copy)  # the file is the whole transcript; the progress copies are not
    agent_parts += [p.get("u", {}) for p in progress]
    agent_usage = by_model(_usage_items(agent_parts))
    total = UsageTotal.of([*_usage_items([usage]), *agent_usage.items()])
    models = most_used_first(facts.get("models", []), {key: counts[1] for key, counts in usage.items()})
    started, ended = facts.get("first_ts"), facts.get("last_ts")
    if started is None and ended is None:  # no record time of its own: its subagents' (session_counts.record_span)
        started, ended = outer_span((f.get("first_ts"), f.get("last_ts")) for _, f in agents)
    cwds = facts.get("cwds") or []
    branches = facts.get("branches") or []
    prompts = facts.get("prompts", 0)
    return SessionInfo(
        file=path,
        id=sid,
        project=cwds[0] if cwds else "",
        title=title_of(facts, summaries),
        first_prompt=facts.get("first_prompt", ""),
        started=started,
        ended=ended,
        duration_s=span_seconds(started, ended),
        active_s=active_seconds(started, ended, facts.get("paused_ms", 0)),
        prompts=prompts,
        commands=facts.get("commands", 0),
        messages=prompts + facts.get("answers", 0),
        tool_calls=facts.get("calls", 0),
        tool_errors=facts.get("errors", 0),
        tokens=total.tokens.total,
        cost_usd=None if total.cost is None else round(total.cost, 6),
        unpriced=sorted(total.unpriced_models),
        models=models,
        subagent_models=other_models(agent_usage, models),
        branch=branches[-1] if branches else None,
        size=size,
        mtime=mtime_ns / 1e9,
        empty=prompts == 0 and not facts.get("has_answer", False),  # as Session.is_empty
        warmup=facts.get("warmup", False),
        subagents=facts.get("inline_subs", 0) + len(progress) + len(agents),
        continues=facts.get("origin"),
        background=bool(facts.get("bg")),
    )


def _usage_items(parts: list[dict[str, list[int]]]) -> Iterator[tuple[str | None, Tokens]]:
    """(model, tokens) of usage facts as the index keeps them (usage.priced_as keys, "" for no model)."""
    return ((model or None, Tokens(*counts)) for part in parts for model, counts in part.items())


def _project(folder: Path, items: list[tuple[SessionInfo, dict[str, Any]]]) -> Project:
    sessions = _newest_first([info for info, _ in items])
    cwds = [c for _, facts in items for c in facts.get("cwds") or ()]
    path = project_path(folder.name, cwds, [info.project for info in sessions if info.project])
    name = split_path(path)[1]
    for info in sessions:
        info.project = info.project or path
    return Project(folder, path, name, None, sessions)


def _merge_twins(projects: list[Project]) -> list[Project]:
    """One project per working folder: the same folder under two roots (two Claude homes) is merged,
    under the folder of its newest session."""
    by_path: dict[str, Project] = {}
    for project in sorted(projects, key=lambda p: p.last_activity, reverse=True):
        first = by_path.setdefault(project.path, project)
        if first is not project:
            first.sessions = _newest_first(first.sessions + project.sessions)
    return list(by_path.values())


def _newest_first(sessions: list[SessionInfo]) -> list[SessionInfo]:
    return sorted(sessions, key=lambda s: s.last_activity, reverse=True)


def _group_worktrees(projects: list[Project], facts: list[dict[str, Any]]) -> None:
    """Set `repo` on projects that are git worktrees of another project's repository."""
    made: dict[str, str] = {}  # worktree path -> the project path of the session that made it
    for f in facts:
        cwds = f.get("cwds") or []
        for target in f.get("worktrees") or ():
            if cwds:
                made.setdefault(target.rstrip("/"), cwds[0])
    paths = {p.path for p in projects}
    for project in projects:
        repo = repo_of(project.path, made, paths)
        project.repo = repo if repo and repo != project.path else None
    by_path = {p.path: p for p in projects}
    for project in projects:  # a worktree of a worktree belongs to the repository at the top
        seen = {project.path}
        while project.repo in by_path and by_path[project.repo].repo and by_path[project.repo].repo not in seen:
            seen.add(project.repo)
            project.repo = by_path[project.repo].repo


#: Folders that hold worktrees, inside their repository: `<repo>/.claude/worktrees/<name>` (Claude Code's own),
#: `<repo>/.worktrees/<name>`; and `<repo>-worktrees/<name>` beside it.
_INSIDE = ("/.claude/worktrees/", "/.worktrees/")
_BESIDE = "-worktrees"
#: Layouts that are worktrees only when `<repo>` is a project too: `<repo>/worktrees/<name>`, `<repo>-wt/<name>`.
_INSIDE_IF_KNOWN = "/worktrees"
_BESIDE_IF_KNOWN = "-wt"


def repo_of(path: str, made: dict[str, str], projects: Collection[str] = ()) -> str | None:
    """The repository a project path is a worktree of, when its path or its history shows it; `projects` are the
    paths of the other projects."""
    posix = path.replace("\\", "/").rstrip("/")
    for marker in _INSIDE:
        if marker in posix:
            return path[: posix.index(marker)]
    parent = posix.rpartition("/")[0]
    if parent.endswith(_BESIDE) and len(parent) > len(_BESIDE):
        return path[: len(parent) - len(_BESIDE)]
    for suffix in (_INSIDE_IF_KNOWN, _BESIDE_IF_KNOWN):
        if parent.endswith(suffix) and path[: len(parent) - len(suffix)] in projects:
            return path[: len(parent) - len(suffix)]
    return made.get(posix)
