"""The files on disk: where Claude Code keeps projects, sessions and subagent transcripts.

Everything here only reads. Nothing is ever written under a projects folder.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

import orjson

from claude_tui.core.model import AgentRole
from claude_tui.core.reader import ReadError, open_readonly

#: What a summary record's line holds, as Claude Code writes it.
_SUMMARY = b'"type":"summary"'
#: Bytes read at a time at the start of a file for the summary records there (a few hundred bytes each).
LEAD_BYTES = 4096
#: The summary records of a folder's session files: by file name, each file's by leafUuid.
FolderSummaries = dict[str, dict[str, str]]
#: A session's own folder (`<project>/<session id>/`) holds these: its subagents' transcripts, the workflow runs
#: among them, and the tool outputs too large for the transcript.
SUBAGENTS, WORKFLOWS, TOOL_RESULTS = "subagents", "workflows", "tool-results"
#: How the transcripts of Claude Code's own agents are named: `agent-<kind>-<hex>.jsonl` (a compaction's
#: summary run, a `/btw` side question).
COMPACTION, SIDE_QUESTION = "acompact", "aside_question"
#: Every transcript's suffix, and how a subagent's transcript is named: `agent-<id>.jsonl`.
SUFFIX, AGENT_PREFIX = ".jsonl", "agent-"


class SessionNotFound(LookupError):
    """A SESSION argument that names no session, or more than one; the message says which."""


def default_roots(dirs: Iterable[str | os.PathLike[str]] | None = None) -> list[Path]:
    """`--projects-dir` values, else $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects."""
    given: dict[str, Path] = {}
    for d in dirs or ():
        path = Path(os.path.abspath(Path(d).expanduser()))  # as the session files under it are named
        given.setdefault(os.path.realpath(path), path)  # each folder once, however it was named
    return list(given.values()) or _claude_roots()[:1]


def _claude_roots() -> list[Path]:
    """Where Claude Code writes its projects: $CLAUDE_CONFIG_DIR/projects if set, and ~/.claude/projects."""
    config = os.environ.get("CLAUDE_CONFIG_DIR")
    return [*([Path(config).expanduser() / "projects"] if config else []), Path.home() / ".claude" / "projects"]


def protected_folders(roots: Iterable[Path], session: Path | None = None) -> list[Path]:
    """The folders claude-tui never writes under: the projects folders given, Claude Code's own whatever
    was given, and those of a session file (its own folder, and the `projects` folder above it, if any)."""
    folders = [*roots, *_claude_roots()]
    if session is not None:
        folders.append(session.parent)
        folders += [p for p in session.parents if p.name == "projects"][:1]
    return folders


def is_under(path: Path, folders: Iterable[Path]) -> bool:
    """Whether `path`, links resolved, is inside one of `folders`."""
    target = path.expanduser().resolve()
    return any(target.is_relative_to(folder.expanduser().resolve()) for folder in folders)


def is_agent_file(path: Path) -> bool:
    """Whether `path` is named as a subagent's transcript (`agent-<id>.jsonl`)."""
    return is_agent_name(path.name)


def is_agent_name(name: str) -> bool:
    """Whether a file name (or stem) is a subagent transcript's, `agent-<id>`."""
    return name.startswith(AGENT_PREFIX)


def stem_of(path: str | os.PathLike[str]) -> str:
    """The file's name without its suffix (Path.stem, without making a Path: the library asks it of every file)."""
    return os.path.splitext(os.path.basename(path))[0]


def agent_id_of(path: str | os.PathLike[str]) -> str | None:
    """The agent id a subagent transcript's file name gives (`agent-<id>.jsonl`)."""
    stem = stem_of(path)
    return stem.removeprefix(AGENT_PREFIX) if is_agent_name(stem) else None


def is_transcript(path: Path) -> bool:
    """Whether `path` is a subagent's transcript: named so, or in a session's `subagents/` folder."""
    return is_agent_file(path) or path.parent.name == SUBAGENTS


def is_session_name(name: str) -> bool:
    """Whether a file name is a transcript's (`.jsonl`): a session's or a subagent's."""
    return name.endswith(SUFFIX)


def session_file(folder: str, session_id: str) -> str:
    """The path of the file of session `session_id` in the project folder `folder`."""
    return os.path.join(folder, session_id + SUFFIX)


def agent_role(path: str | os.PathLike[str]) -> AgentRole:
    """What ran a subagent, by where its transcript is and how it is named: a workflow run (`workflows/<run>/`),
    Claude Code itself for a compaction's summary or a `/btw` side question (`agent-<kind>-<hex>.jsonl`), else a
    Task or Agent call."""
    if _in_run(os.fspath(path)):
        return AgentRole.WORKFLOW
    return _NAMED_ROLES.get(os.path.basename(path).removeprefix(AGENT_PREFIX).partition("-")[0], AgentRole.TASK)


def _in_run(path: str) -> bool:
    """Whether a transcript lies in a workflow run's folder, `subagents/workflows/<run>/`."""
    runs = os.path.dirname(os.path.dirname(path))
    return os.path.basename(runs) == WORKFLOWS and os.path.basename(os.path.dirname(runs)) == SUBAGENTS


#: Claude Code's own agents, by the kind their transcript's name begins with.
_NAMED_ROLES = {COMPACTION: AgentRole.COMPACTION, SIDE_QUESTION: AgentRole.SIDE_QUESTION}


def workflow_run(path: str | os.PathLike[str]) -> str:
    """The run a workflow agent's transcript belongs to: the name of its folder (`wf_…`)."""
    return Path(path).parent.name


def session_dir(path: str | os.PathLike[str], session_id: str | None = None) -> Path:
    """The folder of a session's own files: `<project>/<id>/` beside its file, or the one its subagent's
    transcript is in (`<id>/subagents/…`). A file named otherwise than its session (`short.jsonl`) has its folder
    named by the session's id, when that folder exists."""
    path = Path(path)
    if path.parent.name == SUBAGENTS:
        return path.parent.parent
    if agent_role(path) is AgentRole.WORKFLOW:
        return path.parent.parent.parent.parent
    own = path.parent / path.stem
    if session_id and session_id != path.stem and not _is_dir(own) and _is_dir(path.parent / session_id):
        return path.parent / session_id
    return own


def has_transcript(session_path: str | os.PathLike[str], agent_id: str) -> bool:
    """Whether the subagent `agent_id` of a session has its transcript in the session's folder."""
    try:
        return (session_dir(session_path) / SUBAGENTS / f"agent-{agent_id}.jsonl").is_file()
    except OSError:
        return False


def owning_folder(path: str | os.PathLike[str]) -> str | None:
    """The name of the session folder a subagent's transcript is in (`<id>/subagents/…`: that session's id); None
    for one beside the sessions (2.0.x flat transcripts name their session in their records)."""
    path, up = os.fspath(path), os.path.dirname
    if os.path.basename(up(path)) == SUBAGENTS:
        return os.path.basename(up(up(path)))
    return os.path.basename(up(up(up(up(path))))) if _in_run(path) else None


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def persisted_file(session_path: str | os.PathLike[str], recorded: str) -> Path:
    """Where a tool output that Claude Code moved out of the transcript is now: the file of the name it recorded,
    in the session's own `tool-results/` folder (of a file named otherwise than its session, the folder named by the
    id the path recorded, `<id>/tool-results/<name>`). The path it recorded is of the machine that wrote it (often
    another OS): only those names are taken."""
    parts = recorded.replace("\\", "/").rstrip("/").split("/")
    own = session_dir(session_path) / TOOL_RESULTS / parts[-1]
    if len(parts) < 3 or _is_dir(own.parent):
        return own
    return session_dir(session_path, parts[-3]) / TOOL_RESULTS / parts[-1]  # the folder of the id it recorded


def read_persisted(session_path: str | os.PathLike[str], recorded: str, limit: int | None = None) -> str | None:
    """The text of a tool output kept in the session's `tool-results/` folder (at most about `limit` characters);
    None when the file is not there."""
    try:
        fd = open_readonly(persisted_file(session_path, recorded))
    except ReadError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            data = f.read() if limit is None else f.read(limit * 4)  # UTF-8: at most 4 bytes a character
    except OSError:
        return None
    text = data.decode("utf-8", "replace")
    return text if limit is None else text[:limit]


def session_files(project_dir: Path) -> Iterator[Path]:
    """The session files of one project folder (subagent transcripts excluded)."""
    try:
        entries = list(os.scandir(project_dir))
    except OSError:
        return
    for entry in entries:
        if entry.name.endswith(".jsonl") and not entry.name.startswith("agent-"):
            try:
                if entry.is_file():
                    yield Path(entry.path)
            except OSError:
                continue


def root_hint(root: Path) -> str | None:
    """What was meant, when `root` is a folder one level off a projects folder: a Claude home, or one
    project's folder (session files right in it)."""
    try:
        if (root / "projects").is_dir():
            return f"{root} is a Claude home, not its projects folder: try --projects-dir {root / 'projects'}"
        if next(root.glob("*.jsonl"), None) is not None:
            return f"{root} holds session files itself, as one project's folder does: try --projects-dir {root.parent}"
    except OSError:
        pass
    return None


def project_dirs(root: Path) -> Iterator[Path]:
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in sorted(entries, key=lambda e: e.name):
        try:
            if entry.is_dir():
                yield Path(entry.path)
        except OSError:
            continue


def find_session(spec: str, roots: list[Path]) -> Path:
    """A session file from a path (for a session with no file but its subagents' folder, the one it would have,
    as the library lists it), a session id, or a unique prefix of one; a subagent's transcript from its name
    (`agent-…`, as search gives for one whose session file is gone)."""
    if not spec.strip():
        raise SessionNotFound("no session named: give a session file, a session id or a prefix of one")
    path = Path(os.path.abspath(Path(spec).expanduser()))  # as the library names the files it lists
    if spec.endswith(".jsonl") or os.sep in spec:
        try:
            folder = stat.S_ISDIR(path.stat().st_mode)
        except (FileNotFoundError, NotADirectoryError) as exc:
            if folder_only(path):  # the file a session with only its subagents' folder would have, as listed
                return path
            raise SessionNotFound(f"no such file: {spec}") from exc
        except OSError:
            return path  # a link loop, a folder we may not enter: reading it says which
        if folder:
            raise SessionNotFound(f"cannot read {spec}: a directory")
        return path
    files = _transcripts if spec.startswith("agent-") else sessions_of
    named = [(f, f.stem) for root in roots for project in project_dirs(root) for f in files(project)]
    matches = [f for f, stem in named if stem.startswith(spec)]
    if not matches and files is sessions_of:  # a file named otherwise than its session (`short.jsonl`): by the id in it
        named = [(f, sid) for f, stem in named if (sid := first_session_id(f)) and sid != stem]
        matches = [f for f, sid in named if sid.startswith(spec)]
    exact = [f for f, name in named if name == spec]
    if len(exact) == 1 or len(matches) == 1:
        return (exact or matches)[0]
    if not matches:
        if not any(root.is_dir() for root in roots):
            raise SessionNotFound(f"no projects folder at {', '.join(str(r) for r in roots)}")
        where = ", ".join(str(r) for r in roots)
        hints = "".join(f"; {hint}" for root in roots if (hint := root_hint(root)))
        raise SessionNotFound(f"no session matches {spec!r} under {where}{hints}")
    raise SessionNotFound(f"{spec!r} is ambiguous: {_matches_told_apart(sorted(matches))}")


def sessions_of(project_dir: Path) -> list[Path]:
    """The sessions of a project folder: its session files, and for each session folder with no file beside it
    (only its subagents' transcripts are left) the file it would have (see folder_only)."""
    files = list(session_files(project_dir))
    named = {f.stem for f in files}
    alone = [
        folder.parent.name
        for folder in sorted(project_dir.glob(f"*/{SUBAGENTS}"))
        if folder.parent.name not in named and own_transcripts(folder.parent)
    ]
    if alone:  # rare: a file named otherwise than its session (`short.jsonl`) may have its folder
        named |= {sid for f in files if (sid := first_session_id(f))}
    return files + [project_dir / f"{sid}.jsonl" for sid in alone if sid not in named]


def folder_only(path: Path) -> bool:
    """A session whose file is not there but whose own folder holds its subagents' transcripts (Claude Code wrote
    them, and the session's file was never written or is gone)."""
    try:
        if path.exists():
            return False
    except OSError:
        return False
    return bool(own_transcripts(session_dir(path)))


def _matches_told_apart(matches: list[Path]) -> str:
    """How many files match, and the first few: by id, or by their paths under the folder they share when
    two have the same id (a session copied into another project's folder)."""
    names = [m.stem for m in matches]
    if len(set(names)) == len(names):
        return f"{len(matches)} sessions match ({_first_few(names)})"
    shared = Path(os.path.commonpath(matches))
    names = [str(m.relative_to(shared)) for m in matches]
    return f"{len(matches)} session files match under {shared} ({_first_few(names)}): name one by its path"


def _first_few(names: list[str]) -> str:
    return ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def _transcripts(project_dir: Path) -> list[Path]:
    """Every subagent transcript of a project folder: beside the sessions (2.0.x) or under them (2.1.x)."""
    return sorted(project_dir.glob("agent-*.jsonl")) + [
        path for folder in sorted(project_dir.glob(f"*/{SUBAGENTS}")) for path in own_transcripts(folder.parent)
    ]


def agent_files(session_path: Path, foreign: set[str] | None = None, session_id: str | None = None) -> list[Path]:
    """Subagent transcripts of a session (its id `session_id`, else its file's name): `<id>/subagents/agent-*.jsonl`
    (2.1.x) and those of its workflow runs, `<id>/subagents/workflows/<run>/agent-*.jsonl`; and flat
    `agent-*.jsonl` beside it whose records name this session (2.0.x), each opened once while it does not change
    (see `_owner`).

    `foreign` collects the paths of flat files found to belong to other sessions, so a caller that asks
    again (a live tail) does not look at them again.
    """
    session_id = session_id or session_path.stem
    found = own_transcripts(session_dir(session_path, session_id))
    foreign = set() if foreign is None else foreign
    flat = [e for e in _entries(str(session_path.parent)) if is_agent_name(e.name) and e.name.endswith(SUFFIX)]
    for entry in sorted(flat, key=lambda e: e.name):
        if entry.path in foreign:
            continue
        owner = _owner(entry)
        if owner == session_id:
            found.append(Path(entry.path))
        elif owner is not None:
            foreign.add(entry.path)
    return found


#: The owners of the flat agent files read so far, by path, with the (inode, size, mtime) they were read at: a project
#: of thousands of 2.0.x transcripts has them opened once, not each time one of its sessions is.
_OWNERS: dict[str, tuple[tuple[int, int, int], str]] = {}
#: Owners kept at most (a history of a million transcripts would hold too many).
_OWNERS_KEPT = 100_000


def _owner(entry: os.DirEntry[str]) -> str | None:
    """The session a flat agent file belongs to (see first_session_id), read again only when the file changed."""
    try:
        st = entry.stat()
    except OSError:
        return None
    seen = (st.st_ino, st.st_size, st.st_mtime_ns)
    known = _OWNERS.get(entry.path)
    if known is not None and known[0] == seen:
        return known[1]
    owner = first_session_id(Path(entry.path))
    if owner is not None:  # none yet (an empty or damaged file) is asked again next time
        if len(_OWNERS) >= _OWNERS_KEPT:
            _OWNERS.clear()
        _OWNERS[entry.path] = (seen, owner)
    return owner


def transcript_entries(folder: str) -> Iterator[os.DirEntry[str]]:
    """The subagent transcripts in a session's own folder, as own_transcripts finds them, for a scan of thousands of
    folders (os.scandir: no stat but of what is listed). Entries that cannot be read are left out."""
    for entry in _entries(os.path.join(folder, SUBAGENTS)):
        try:
            if entry.name.endswith(".jsonl"):
                yield entry
            elif entry.name == WORKFLOWS and entry.is_dir():
                for run in _entries(entry.path):
                    if run.is_dir():
                        yield from (
                            e for e in _entries(run.path) if e.name.startswith("agent-") and e.name.endswith(".jsonl")
                        )
        except OSError:
            continue


def _entries(folder: str) -> list[os.DirEntry[str]]:
    try:
        return list(os.scandir(folder))
    except OSError:
        return []


def own_transcripts(folder: Path) -> list[Path]:
    """The subagent transcripts in a session's own folder: `subagents/agent-*.jsonl`, then each workflow run's."""
    subagents = folder / SUBAGENTS
    return sorted(subagents.glob("agent-*.jsonl")) + sorted(subagents.glob(f"{WORKFLOWS}/*/agent-*.jsonl"))


def first_session_id(path: Path) -> str | None:
    """The sessionId of the first record of a file that has one (reads only its first lines)."""
    try:
        fd = open_readonly(path)  # never a blocking open: a FIFO named agent-*.jsonl must not hang us
    except ReadError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            for _ in range(20):
                line = f.readline(1 << 20)
                if not line:
                    return None
                try:
                    obj = orjson.loads(line)
                except orjson.JSONDecodeError:
                    continue
                if isinstance(obj, dict) and isinstance(obj.get("sessionId"), str):
                    return obj["sessionId"]
    except OSError:
        return None
    return None


def sibling_summaries(path: Path, by_file: FolderSummaries | None = None) -> dict[str, str]:
    """`summary` records of the other session files in the project folder, by leafUuid (its own
    are in its model); `by_file`: the folder's, as folder_summaries gives them, else read now."""
    by_file = folder_summaries(path.parent, skip=path.name) if by_file is None else by_file
    return {leaf: text for name, found in by_file.items() if name != path.name for leaf, text in found.items()}


def folder_summaries(project_dir: Path, skip: str = "", known: FolderSummaries | None = None) -> FolderSummaries:
    """The `summary` records of each session file of a project folder but `skip`, by leafUuid, by file
    name in the folder's order; a file in `known` (read for another of its sessions) is not read again.

    Claude Code writes a session's summary at the top of the file of a later session: only the
    summary lines that open each file are read (see leading_summaries), not whole files.
    """
    known = known or {}
    return {
        path.name: known[path.name] if path.name in known else leading_summaries(path)
        for path in session_files(project_dir)
        if path.name in known or path.name != skip
    }


def summary_record(line: bytes | bytearray) -> tuple[str, str] | None:
    """(leafUuid, summary) of a line holding a summary record, else None."""
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if isinstance(obj, dict) and obj.get("type") == "summary":
        leaf, text = obj.get("leafUuid"), obj.get("summary")
        if isinstance(leaf, str) and isinstance(text, str):
            return leaf, text
    return None


def leading_leaves(paths: Iterable[str]) -> set[str]:
    """The leafUuids of the summary records that open each file: so that an index reading many files notes
    each summarized message in whichever file holds it, read before or after the summary's."""
    return {leaf for path in paths for leaf in leading_summaries(path)}


def leading_summaries(path: str | os.PathLike[str]) -> dict[str, str]:
    """The summary records that open a file (where Claude Code writes them), by leafUuid: its first bytes
    only, read on while its lines are summaries (none when it cannot be read)."""
    found: dict[str, str] = {}
    try:
        fd = open_readonly(path)
    except ReadError:
        return found
    try:
        for line in _leading_lines(fd):
            if (record := summary_record(line)) is not None:
                found[record[0]] = record[1]
    except OSError:
        pass
    finally:
        os.close(fd)
    return found


def _leading_lines(fd: int) -> Iterator[bytes]:
    """The lines that open a file while each holds a summary record, read LEAD_BYTES at a time."""
    pos = 0
    while chunk := os.pread(fd, LEAD_BYTES, pos):
        lines = chunk.split(b"\n")
        cut = lines.pop() if len(chunk) == LEAD_BYTES else b""  # a line the read cut: read again whole
        for line in lines:
            if _SUMMARY not in line:
                return
            yield line
        if len(cut) == len(chunk):
            return  # one line longer than a read: not a summary record
        pos += len(chunk) - len(cut)


def plan_file(slug: str, session_path: Path) -> Path | None:
    """The plan a plan-mode `slug` names: `<claude home>/plans/<slug>.md`, when it exists.

    The Claude home is the parent of the projects folder that holds the session.
    """
    if not slug or "/" in slug or slug.startswith("."):
        return None
    path = session_path.parent.parent.parent / "plans" / f"{slug}.md"
    try:
        return path if path.is_file() else None
    except OSError:  # a folder we may not enter
        return None


def sessions_index(project_dir: Path) -> dict[str, dict]:
    """Claude Code's own `sessions-index.json` of a project folder, by session id, when present.

    A hint only (titles, project path): the session files are always the truth.
    """
    try:
        fd = open_readonly(project_dir / "sessions-index.json")
    except ReadError:
        return {}
    try:
        with os.fdopen(fd, "rb") as f:
            data = orjson.loads(f.read(16 * 1024 * 1024))
    except (OSError, orjson.JSONDecodeError):
        return {}
    entries = data.get("entries") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        return {}
    return {e["sessionId"]: e for e in entries if isinstance(e, dict) and isinstance(e.get("sessionId"), str)}
