"""Claude Code 2.1's files beside a session, as real homes hold them (anonymised and cut short from the files in
../shared/corpus/real): outputs moved to `tool-results/`, workflow runs, `/btw` side questions, compaction runs,
background copies, and records copied from one session's file into another's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

CWD = "/home/ada/code/fw"
SID = "d3f32579-7f66-464a-b856-526a67163a15"
VERSION = "2.1.224"


def envelope(rtype: str, uuid: str, parent: str | None, stamp: str, sid: str = SID, **extra: Any) -> dict[str, Any]:
    """The fields every record of a 2.1 session file carries."""
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "type": rtype,
        "uuid": uuid,
        "timestamp": stamp,
        "userType": "external",
        "entrypoint": "cli",
        "cwd": CWD,
        "sessionId": sid,
        "version": VERSION,
        "gitBranch": "develop",
        **extra,
    }


def prompt(uuid: str, parent: str | None, stamp: str, text: str, sid: str = SID, **extra: Any) -> dict[str, Any]:
    return envelope("user", uuid, parent, stamp, sid, message={"role": "user", "content": text}, **extra)


def answer(
    uuid: str, parent: str | None, stamp: str, mid: str, blocks: list[dict[str, Any]], out: int = 170, **extra: Any
) -> dict[str, Any]:
    """An assistant record as 2.1.224 writes it (one chunk), its usage counted with `out` output tokens."""
    usage = {
        "input_tokens": 2,
        "cache_creation_input_tokens": 1267,
        "cache_read_input_tokens": 104922,
        "output_tokens": out,
        "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
        "service_tier": "standard",
        "speed": "standard",
    }
    message = {
        "model": "claude-opus-4-6",
        "id": mid,
        "type": "message",
        "role": "assistant",
        "content": blocks,
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": usage,
    }
    return envelope("assistant", uuid, parent, stamp, message=message, requestId=f"req_{mid[4:]}", **extra)


def tool_use(tid: str, name: str, **inp: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": tid, "name": name, "input": inp, "caller": {"type": "direct"}}


def result(uuid: str, parent: str, stamp: str, tid: str, content: Any, tool_result: Any = None, **extra: Any) -> dict:
    block = {"tool_use_id": tid, "type": "tool_result", "content": content, "is_error": False}
    record = envelope("user", uuid, parent, stamp, message={"role": "user", "content": [block]}, **extra)
    if tool_result is not None:
        record["toolUseResult"] = tool_result
    return record


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


# ---------------------------------------------------------------- outputs moved to tool-results/


def persisted_note(recorded: str, size_text: str, preview: str) -> str:
    """The note Claude Code leaves in the transcript for an output it saved to `recorded`."""
    return (
        f"<persisted-output>\nOutput too large ({size_text}). Full output saved to: {recorded}\n\n"
        f"Preview (first 2KB):\n{preview}\n...\n</persisted-output>"
    )


#: The whole output of the `df; ls` below, as its file in tool-results/ holds it: 2 KB of listing the preview
#: shows, then what only the file has.
DF_OUTPUT = (
    "/dev/sda2       1.8T  1.4T  339G  81% /home/ada/sda2\n=== existing swu in tftpboot ===\n"
    + "".join(f"/tftpboot/FWR_MDS-G4000-L3-4XGS_v7.0_2026_05{i:02d}_1131.swu  64.1M\n" for i in range(1, 31))
    + "/tftpboot/FWR_quokka.swu  61.0M\n"
    + "".join(f"/tftpboot/FWR_EDS-G4000_v5.0_2023_{i:04d}_1138.swu  62.3M\n" for i in range(900))
)
DF_PREVIEW = DF_OUTPUT[:2000].rsplit("\n", 1)[0]
assert "quokka" not in DF_PREVIEW and DF_OUTPUT.index("quokka") < 2040  # only in the file, in what the index takes


def persisted_session(project: Path, recorded_dir: str | None = None, with_file: bool = True) -> Path:
    """A session whose Bash output (56 KB) Claude Code moved to `<session>/tool-results/byshsvyn3.txt`, as 2.1.224
    wrote it: the transcript holds a note with a preview, `toolUseResult` the path and size and 30,000 characters of
    stdout. `recorded_dir`: the folder the note names (another machine's); `with_file`: whether the file is here."""
    recorded = f"{recorded_dir or f'/home/moxa/.claude/projects/-x/{SID}/tool-results'}/byshsvyn3.txt"
    if recorded_dir is not None and "\\" in recorded_dir:
        recorded = f"{recorded_dir}\\byshsvyn3.txt"
    tid = "toolu_01FxQtoFd2Sa2vZHdGfUJK6p"
    command = 'df -h /tftpboot | tail -1; echo "=== existing swu in tftpboot ==="; ls -la /tftpboot/*.swu'
    records = [
        prompt("8798a1f0-155d-40e8-8944-062602d1d46a", None, "2026-08-08T01:05:50.000Z", "what firmware is there?"),
        answer(
            "d11718d0-eb25-4abf-9348-49fc1170dcdb",
            "8798a1f0-155d-40e8-8944-062602d1d46a",
            "2026-08-08T01:05:56.337Z",
            "msg_011CdpPE77PbMXFLGbTi2n9b",
            [tool_use(tid, "Bash", command=command, description="Check space and existing swu in tftpboot")],
        ),
        result(
            "95b50db2-27fb-42b7-9dea-cb147f9dc5fc",
            "d11718d0-eb25-4abf-9348-49fc1170dcdb",
            "2026-08-08T01:05:58.263Z",
            tid,
            persisted_note(recorded, "55.3KB", DF_PREVIEW),
            {
                "stdout": DF_OUTPUT[:30000],
                "stderr": "",
                "interrupted": False,
                "isImage": False,
                "noOutputExpected": False,
                "persistedOutputPath": recorded,
                "persistedOutputSize": len(DF_OUTPUT.encode()),
            },
            promptId="e92cc0b2-fe25-42fd-bb69-c2b08bbe4672",
            sourceToolAssistantUUID="d11718d0-eb25-4abf-9348-49fc1170dcdb",
        ),
    ]
    path = write(project / f"{SID}.jsonl", records)
    if with_file:
        (project / SID / "tool-results").mkdir(parents=True)
        (project / SID / "tool-results" / "byshsvyn3.txt").write_text(DF_OUTPUT)
    return path


# ---------------------------------------------------------------- workflow runs


WF_SID = "baeb5d66-046c-4315-b5b7-4f26997e0fc2"
WF_RUN = "wf_d66113ec-b09"
#: The run's agents, as 2.1.170 named them: agent id, its prompt, its verdict, and its output tokens.
WF_AGENTS = [
    ("a9918ee13924681b1", "You are an RF/microwave/antenna engineering reviewer. Read formula_spec.json.", 187),
    ("ae10f5254a268a2a1", "You are a numerical checker. Recompute EVERY numeric claim from scratch.", 1597),
    ("aae96141ee410d14d", "You are a completeness critic for a technical-interview prep document.", 155),
]


def workflow_agent(agent_id: str, task: str, out: int, start: int) -> list[dict[str, Any]]:
    """A workflow agent's transcript as 2.1.170 writes it: its prompt, a StructuredOutput call (the workflow's
    schema) and its result, and a last word; every record a sidechain naming the agent."""
    extra = {"attributionAgent": "workflow-subagent"}
    ids = [f"{agent_id[:8]}-0000-4000-8000-{start + i:012d}" for i in range(4)]
    tid = f"toolu_01{agent_id}"

    def mark(record: dict[str, Any]) -> dict[str, Any]:
        record.update(isSidechain=True, agentId=agent_id, cwd="C:\\Users\\namma\\.claude", entrypoint="claude-desktop")
        return record

    stamp = f"2026-06-10T05:{45 + start // 10:02d}"
    verdict = {"findings": [], "overallVerdict": f"{agent_id}: no errors found"}
    return [
        mark(prompt(ids[0], None, f"{stamp}:12.636Z", task, WF_SID, promptId="bc3ff36f")),
        mark(
            answer(
                ids[1],
                ids[0],
                f"{stamp}:18.064Z",
                f"msg_{agent_id}1",
                [tool_use(tid, "StructuredOutput", **verdict)],
                out,
                **extra,
            )
        ),
        mark(result(ids[2], ids[1], f"{stamp}:21.976Z", tid, "Structured output provided successfully")),
        mark(
            answer(
                ids[3],
                ids[2],
                f"{stamp}:28.924Z",
                f"msg_{agent_id}2",
                [{"type": "text", "text": "Verdict returned."}],
                35,
                **extra,
            )
        ),
    ]


def workflow_run(project: Path, sid: str = WF_SID) -> Path:
    """A workflow run's folder, `<session>/subagents/workflows/<run>/`, as 2.1.170 leaves it: an agent-*.jsonl and
    its .meta.json per agent, and the run's journal.jsonl. Returns the session's file (which this does not write)."""
    run = project / sid / "subagents" / "workflows" / WF_RUN
    journal = []
    for n, (agent_id, task, out) in enumerate(WF_AGENTS):
        records = workflow_agent(agent_id, task, out, 10 * n)
        for record in records:
            record["sessionId"] = sid
        write(run / f"agent-{agent_id}.jsonl", records)
        (run / f"agent-{agent_id}.meta.json").write_text('{"agentType":"workflow-subagent"}')
        journal.append({"type": "started", "key": f"v2:{n:064x}", "agentId": agent_id})
    for n, (agent_id, _, _) in enumerate(WF_AGENTS):
        verdict = {"findings": [], "overallVerdict": f"{agent_id}: no errors found"}
        journal.append({"type": "result", "key": f"v2:{n:064x}", "agentId": agent_id, "result": verdict})
    write(run / "journal.jsonl", journal)
    return project / f"{sid}.jsonl"


def workflow_session(project: Path) -> Path:
    """A session that ran the workflow above through the Workflow tool, in the background (its result names the
    run, as Claude Code 2.1 writes it), and its run's folder."""
    path = workflow_run(project, WF_SID)
    tid = "toolu_01WorkflowLaunch"
    transcript = (
        f"C:\\Users\\namma\\.claude\\projects\\C--Users-namma--claude\\{WF_SID}\\subagents\\workflows\\{WF_RUN}"
    )
    records = [
        prompt(
            "00000000-0000-4000-8000-00000000a001", None, "2026-06-10T05:44:50.000Z", "review formula_spec.json", WF_SID
        ),
        answer(
            "00000000-0000-4000-8000-00000000a002",
            "00000000-0000-4000-8000-00000000a001",
            "2026-06-10T05:45:10.000Z",
            "msg_01WorkflowLaunch",
            [tool_use(tid, "Workflow", script="export default async () => parallel([agent(a), agent(b), agent(c)])")],
        ),
        result(
            "00000000-0000-4000-8000-00000000a003",
            "00000000-0000-4000-8000-00000000a002",
            "2026-06-10T05:45:11.337Z",
            tid,
            f"Workflow launched in background. Task ID: w9gxz79on\nSummary: review the spec\n"
            f"Transcript dir: {transcript}\n",
            {
                "status": "async_launched",
                "taskId": "w9gxz79on",
                "taskType": "local_workflow",
                "workflowName": "spec-review",
                "runId": WF_RUN,
            },
        ),
    ]
    return write(path, [{**r, "sessionId": WF_SID} for r in records])


# ---------------------------------------------------------------- agents that replay their session: /btw, compaction

BTW_SID = "e0f1ea34-1b45-4ca5-accb-9980f0c7e0ac"
#: What Claude Code wraps a side question in (2.1.72), the question after it.
SIDE_QUESTION = (
    "<system-reminder>This is a side question from the user. You must answer this question directly in a single "
    "response.\n\nCRITICAL CONSTRAINTS:\n- You have NO tools available - you cannot read files, run commands, "
    "search, or take any actions\n\nSimply answer the question with the information you have.</system-reminder>"
    "\n\nwhat are you doing now?"
)


def _chain(sid: str) -> list[dict[str, Any]]:
    """The start of a session: a prompt, an answer with a Bash call (100 output tokens) and its result."""
    tid = "toolu_01CF3mBmME4C5UpsxoaxrEsM"
    return [
        prompt("4ab9a0e2-0000-4000-8000-000000000001", None, "2026-03-21T08:30:00.000Z", "rerun the benchmark", sid),
        answer(
            "bcc59271-0000-4000-8000-000000000002",
            "4ab9a0e2-0000-4000-8000-000000000001",
            "2026-03-21T08:30:05.000Z",
            "msg_01XzGXh488xqLeD8J7cC6Jvn",
            [tool_use(tid, "Bash", command="./test.sh --board sw-boards:1116")],
            100,
            sessionId=sid,
        ),
        result(
            "0b3b8775-0000-4000-8000-000000000003",
            "bcc59271-0000-4000-8000-000000000002",
            "2026-03-21T08:40:00.000Z",
            tid,
            "289 tests run",
            sessionId=sid,
        ),
    ]


def side_question_session(project: Path) -> tuple[Path, Path]:
    """A session with one `/btw` question asked while it worked, as 2.1.72 writes it: the side question's
    transcript (`<id>/subagents/agent-aside_question-<hex>.jsonl`) replays the session's records (their uuids,
    message ids and usage), then holds the question and its answer (300 output tokens)."""
    agent = "aside_question-d81993e73b719612"
    main = _chain(BTW_SID)
    replay = [{**r, "isSidechain": True, "agentId": agent} for r in main]
    question = prompt(
        "e07d3264-0000-4000-8000-000000000004", main[-1]["uuid"], "2026-03-21T08:40:58.667Z", SIDE_QUESTION, BTW_SID
    )
    reply = answer(
        "551cc915-0000-4000-8000-000000000005",
        question["uuid"],
        "2026-03-21T08:41:04.000Z",
        "msg_01AfcoNZTngEch7ER6yPMYXP",
        [{"type": "text", "text": "I'm running the full FPGA benchmark suite on the baseline library."}],
        300,
        sessionId=BTW_SID,
    )
    aside = [*replay, *({**r, "isSidechain": True, "agentId": agent} for r in (question, reply))]
    for record in aside:
        record["slug"] = "snazzy-tumbling-penguin"
    path = write(project / f"{BTW_SID}.jsonl", main)
    return path, write(project / BTW_SID / "subagents" / f"agent-{agent}.jsonl", aside)


COMPACT_SID = "6b1f0c2e-9a41-4c0e-8d5f-3f0d2b1c7a90"
#: The summary a compaction run wrote, which the session's file holds too (its compaction summary record).
SUMMARY = "Primary Request and Intent: the user asked to rerun the FPGA benchmark; the wombat board was offline."


def compaction_session(project: Path) -> tuple[Path, Path]:
    """A session compacted once, as 2.1.x writes it: the compaction run's transcript
    (`<id>/subagents/agent-acompact-<hex>.jsonl`: the conversation replayed, the request for a summary and the
    summary, 900 output tokens) ends before the session's `compact_boundary` and its summary record."""
    agent = "acompact-83efcb1f2a"
    main = _chain(COMPACT_SID)
    last = main[-1]["uuid"]
    request = prompt(
        "9f000000-0000-4000-8000-000000000010",
        last,
        "2026-03-21T08:41:00.000Z",
        "Your task is to create a detailed summary of the conversation so far.",
        COMPACT_SID,
    )
    summary = answer(
        "9f000000-0000-4000-8000-000000000011",
        request["uuid"],
        "2026-03-21T08:41:40.000Z",
        "msg_01CompactionRun0000000001",
        [{"type": "text", "text": f"<analysis>the session so far</analysis>\n<summary>{SUMMARY}</summary>"}],
        900,
        sessionId=COMPACT_SID,
    )
    run = [{**r, "isSidechain": True, "agentId": agent} for r in (*main, request, summary)]
    boundary = envelope(
        "system",
        "9f000000-0000-4000-8000-000000000012",
        None,
        "2026-03-21T08:41:41.000Z",
        COMPACT_SID,
        subtype="compact_boundary",
        content="Conversation compacted",
        level="info",
        logicalParentUuid=last,
        compactMetadata={"trigger": "auto", "preTokens": 167000},
    )
    continued = prompt(
        "9f000000-0000-4000-8000-000000000013",
        boundary["uuid"],
        "2026-03-21T08:41:41.500Z",
        "This session is being continued from a previous conversation that ran out of context. The summary below "
        f"covers the earlier portion of the conversation.\n\n{SUMMARY}",
        COMPACT_SID,
        isCompactSummary=True,
        isVisibleInTranscriptOnly=True,
    )
    path = write(project / f"{COMPACT_SID}.jsonl", [*main, boundary, continued])
    return path, write(project / COMPACT_SID / "subagents" / f"agent-{agent}.jsonl", run)


# ---------------------------------------------------------------- copies of another session's records

ORIGIN_SID = "93a9705e-bc6a-406d-8dce-8acc014dedbd"
CONTINUED_SID = "789e105f-ae33-486d-9271-0696266f072d"


def continued_sessions(project: Path, corpus: Path) -> tuple[Path, Path]:
    """The real 1.0.56 pair in the corpus's `__fixtures__`, named as Claude Code named them (by their ids): a
    session, and the one `--continue` made of it, whose file begins with a copy of its records (the prompt under
    the first session's id, the answer under its own, with the same uuid and message id)."""
    source = corpus / "__fixtures__"
    project.mkdir(parents=True, exist_ok=True)
    origin = project / f"{ORIGIN_SID}.jsonl"
    origin.write_bytes((source / "0-say-lol-session.jsonl").read_bytes())
    continued = project / f"{CONTINUED_SID}.jsonl"
    continued.write_bytes((source / "1-continue-run-ls-tool.jsonl").read_bytes())
    return origin, continued


BG_SID = "31385158-5d2e-4a8b-9b41-0c2f8e6a7d13"


def background_copy(project: Path) -> tuple[Path, Path]:
    """A session, and its background copy (2.1.x: sent to the background, re-run with `--fork-session`): the copy's
    file begins with the whole chain, each record under the copy's id and naming the one it was forked from
    (`forkedFrom`, as Claude Code's forks do), then goes on with records marked `sessionKind: "bg"` (an answer of
    250 output tokens)."""
    origin = _chain(BTW_SID)
    copies = [
        {**r, "sessionId": BG_SID, "forkedFrom": {"sessionId": BTW_SID, "messageUuid": r["uuid"]}} for r in origin
    ]
    more = answer(
        "7f87e8b2-0000-4000-8000-000000000021",
        origin[-1]["uuid"],
        "2026-03-21T09:10:00.000Z",
        "msg_01BackgroundRun000000001",
        [{"type": "text", "text": "The benchmark finished in the background: 289 of 289 passed."}],
        250,
        sessionId=BG_SID,
        sessionKind="bg",
    )
    return write(project / f"{BTW_SID}.jsonl", origin), write(project / f"{BG_SID}.jsonl", [*copies, more])
