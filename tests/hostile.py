"""A hostile session file: markup, terminal escapes, megabyte blobs and damaged lines.

Each case is one or more physical lines; after every case comes a marker prompt
("marker after <name>"), so a test can check that everything after a case was
still read. The last case is a line cut off with no newline.

Used by the tests; also a script that writes the file for manual and e2e use:

    python -m tests.hostile /tmp/hostile/-hostile/0bad0bad-0000-4000-8000-000000000000.jsonl [--small]
"""

from __future__ import annotations

import argparse
import base64
import sys
from dataclasses import dataclass, replace
from itertools import count
from pathlib import Path
from typing import Any

import orjson

from tests.records import Chain, instant

SESSION_ID = "0bad0bad-0000-4000-8000-000000000000"
BIG_LINE_BYTES = 30 * 1024 * 1024
IMAGE_BYTES = 2 * 1024 * 1024
MARKER = "marker after "

ESC, BEL, CSI8 = "\x1b", "\x07", "\x9b"


@dataclass(frozen=True)
class Case:
    """One hostile or damaged line (or lines) of the file."""

    name: str
    damaged: bool  #: the line cannot be read as written: it must get a note
    lines: tuple[bytes, ...]  #: as written, without newlines
    records: int  #: how many records a reader should recover from the lines
    note: str = ""  #: damaged: a fragment of the expected problem note
    keep: str = ""  #: hostile: text that must reach the model verbatim
    malformed: int = 0  #: lines that give no record at all (blank lines are not malformed)
    first_line: int = 0  #: 1-based line number of its first line in the file

    @property
    def line_numbers(self) -> range:
        return range(self.first_line, self.first_line + len(self.lines))


class _Writer(Chain):
    """Records chained by parentUuid, as Claude Code writes them, one second apart."""

    def __init__(self) -> None:
        numbers = count(1)
        super().__init__(
            SESSION_ID,
            "/home/u/hostile",
            "2.1.9",
            uuids=lambda: f"00000000-0000-4000-8000-{next(numbers):012d}",
            start=instant("2026-01-05T10:00:00"),
            body_last=True,
        )

    def line(self, rtype: str, **fields: Any) -> bytes:
        return orjson.dumps(self.record(rtype, fields, after=1))

    def prompt(self, text: str) -> bytes:
        return self.line("user", message={"role": "user", "content": text})

    def answer(self, *blocks: dict[str, Any]) -> bytes:
        return self.line(
            "assistant",
            message={
                "id": f"msg_{len(self.records) + 1:04d}",
                "model": "claude-sonnet-4-5-20250929",
                "role": "assistant",
                "type": "message",
                "content": list(blocks),
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 3, "output_tokens": 7},
            },
        )

    def tool_output(self, tool_id: str, content: Any, **fields: Any) -> tuple[bytes, bytes]:
        """A Bash call and its result: two lines."""
        call = self.answer({"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": "cat x"}})
        block = {"type": "tool_result", "tool_use_id": tool_id, "content": content, "is_error": False}
        return call, self.line("user", message={"role": "user", "content": [block]}, **fields)


def _text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def _hostile(w: _Writer, big: bool) -> list[Case]:
    """Valid records whose content must be shown as text: markup, escapes, blobs."""
    cases: list[Case] = []

    def add(name: str, keep: str, *lines: bytes) -> None:
        cases.append(Case(name, False, lines, len(lines), keep=keep))

    add("markup-bold", "[bold]not bold[/bold]", w.prompt("[bold]not bold[/bold] and [red on white]not red[/]"))
    add("markup-link", "[link=https://x]click me[/link]", w.answer(_text("see [link=https://x]click me[/link]")))
    click = "[@click=app.quit]quit the app[/]"
    add("markup-click", click, *w.tool_output("toolu_click", click))
    add("markup-close", "[/][/bold][/link]", w.answer({"type": "thinking", "thinking": "[/][/bold][/link] ]["}))
    csi = f"{ESC}[31mred{ESC}[0m {ESC}[2J{ESC}[H {CSI8}32mgreen{CSI8}0m"
    add("ansi-csi", csi, *w.tool_output("toolu_csi", csi))
    osc0 = f"{ESC}]0;pwned title{BEL}{ESC}]2;pwned too{ESC}\\"
    add("osc-0-retitle", osc0, w.prompt(osc0))
    osc52 = f"{ESC}]52;c;{base64.b64encode(b'rm -rf ~').decode()}{BEL}"
    add("osc-52-clipboard", osc52, *w.tool_output("toolu_osc52", osc52))
    osc8 = f"{ESC}]8;;https://evil.example{ESC}\\innocent link{ESC}]8;;{ESC}\\"
    add("osc-8-hyperlink", osc8, w.answer(_text(osc8)))
    add("bel", f"ding{BEL}{BEL}{BEL}", w.prompt(f"ding{BEL}{BEL}{BEL}"))
    bidi = "access level: \u202euser\u202c \u2067admin\u2069"  # shown raw, a terminal would reorder it
    add("bidi-override", bidi, w.prompt(bidi))
    separators = "kept\u2028apart\u2029by separators"  # drawn raw, a terminal would join the words
    add("line-separators", separators, w.prompt(separators))
    overwrite = "safe text\b\b\b\b\bevil!\rOVERWRITTEN\x7f\x00"
    add("backspace-cr", overwrite, *w.tool_output("toolu_bs", overwrite))
    unit = f"{ESC}[1m[bold]row[/bold]{ESC}[0m " + "x" * 100 + "\n"
    blob = unit * ((BIG_LINE_BYTES if big else 300_000) // len(unit) + 1)
    add("huge-line", blob[:16_000], *w.tool_output("toolu_huge", blob))
    data = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * ((IMAGE_BYTES if big else 20_000) * 3 // 4)).decode()
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}
    add("huge-image", "", *w.tool_output("toolu_img", [_text("screenshot"), image]))
    add(
        "hostile-metadata",
        f"[red]{ESC}]0;title{BEL}",
        w.line("custom-title", customTitle=f"[red]{ESC}]0;title{BEL}"),
        w.line("user", message={"role": "user", "content": "ok"}, gitBranch=f"[@click=app.quit]{ESC}[5m"),
        w.line(
            "assistant",
            message={
                "id": "msg_meta",
                "model": f"claude-[blink]{ESC}[5m",
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_meta", "name": f"[b]Tool{BEL}", "input": {"x": ESC}}],
            },
            slug=f"[i]slug{ESC}[0m",
        ),
        w.line(
            "user",
            message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_meta", "content": "x"}]},
            cwd=f"/home/u/[u]dir{ESC}[7m",
        ),
    )
    wrong = (  # content of a shape Claude Code never writes is shown as text, with a note
        w.line("assistant", message={"id": 7, "content": 42, "usage": "lots", "model": ["x"]}),
        w.line("user", message={"content": [1, None, {"type": "tool_result", "content": {"a": 1}}]}),
        w.line("system", subtype="turn_duration", durationMs="long", content=["x"]),
        w.line("progress", data={"type": "agent_progress", "message": {"type": 5}}),
    )
    cases.append(Case("wrong-types", True, wrong, len(wrong), note="unexpected shape"))
    name = f"Ba{ESC}]0;pwned{BEL}sh\n"  # a tool name is drawn too: a title change and a line break in it
    add("tool-name-escapes", name, w.answer({"type": "tool_use", "id": "toolu_name", "name": name, "input": {}}))
    add("crlf", "crlf line", w.prompt("crlf line") + b"\r")
    return cases


def _damaged(w: _Writer) -> list[Case]:
    """Lines that cannot be read as written: each must get a specific note."""
    prompt = w.prompt
    cases: list[Case] = []

    def bad(name: str, note: str, *lines: bytes, records: int = 0, malformed: int = 0) -> None:
        cases.append(Case(name, True, lines, records, note=note, malformed=malformed))

    bad("invalid-utf8", "invalid UTF-8", prompt("caf@@").replace(b"@@", b"\xe9\xff\xfe"), records=1)
    bad("lone-surrogate", "lone surrogate", prompt("half a pair: @@").replace(b"@@", rb"\ud83d"), records=1)
    deep = w.line("user", deep="@@").replace(b'"@@"', b"[" * 5000 + b"]" * 5000)
    bad("deep-nesting", "nested too deep", deep, malformed=1)
    bad("binary-junk", "binary data", bytes(b for b in range(256) if b != 0x0A) * 4, malformed=1)
    bad("empty-lines", "blank line", b"", b"   ", b"\t")
    future = w.line("x-hostile-future", payload={"a": 1})
    bad("unknown-type", "unknown record type 'x-hostile-future'", future, records=1)
    bad("two-records-one-line", "2 record(s) recovered", prompt("first of two") + prompt("second of two"), records=2)
    bad("cut-off-mid-file", "cut off", prompt("this record was cut off")[:60], malformed=1)
    bad("not-an-object", "not a JSON object (list)", b'["a", "list"]', malformed=1)
    nan = w.line("system", subtype="turn_duration", durationMs="@@").replace(b'"@@"', b'NaN,"x":Infinity')
    bad("nan-infinity", "invalid JSON", nan, malformed=1)
    bad("duplicate-record", "written twice", *(prompt("said once"),) * 2, records=2)
    for name, stamp in (("year-one", "0001-01-01T00:00:00Z"), ("year-9999", "9999-12-31T23:59:59.999Z")):
        bad(f"{name}-time", "is not a time", w.line("user", message={"content": name}, timestamp=stamp), records=1)
    garbage = w.line("user", message={"content": "garbage time"}, timestamp="2026-13-45T99:99:99Z")
    bad("garbage-time", "is not a time", garbage, records=1)
    return cases


def hostile_session(big: bool = True) -> tuple[bytes, list[Case]]:
    """The bytes of the hostile file, and its cases in file order (with their first line numbers)."""
    w = _Writer()
    out = [w.prompt("a normal start"), w.answer(_text("a normal answer"))]
    cases = []
    for case in [*_hostile(w, big), *_damaged(w)]:
        cases.append(replace(case, first_line=len(out) + 1))
        out += case.lines
        out.append(w.prompt(MARKER + case.name))
    cut = w.prompt("the last record, cut off by a crash")[:50]
    cases.append(Case("cut-off-last-line", True, (cut,), 0, note="cut off", malformed=1, first_line=len(out) + 1))
    return b"\n".join(out) + b"\n" + cut, cases


def write_hostile(path: Path, big: bool = True) -> list[Case]:
    """Write the hostile file at `path` (its folders created); return its cases."""
    data, cases = hostile_session(big)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", type=Path, help="the .jsonl file to write")
    parser.add_argument("--small", action="store_true", help="a 300 KB line and a 20 KB image instead of 30 MB / 2 MB")
    args = parser.parse_args(argv)
    cases = write_hostile(args.path, big=not args.small)
    hostile = sum(not c.damaged for c in cases)
    size = args.path.stat().st_size
    print(f"{args.path}: {size:,} bytes, {hostile} hostile and {len(cases) - hostile} damaged cases")
    for case in cases:
        print(f"  {'damaged' if case.damaged else 'hostile':8} {case.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
