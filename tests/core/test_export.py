"""Export: Markdown, HTML and JSON documents of a session, and their safety with hostile content."""

from __future__ import annotations

import json
import os
import re
import stat
import threading
from collections.abc import Callable
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown_it
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claude_tui.cli import main
from claude_tui.core.export import FORMATS, OUTPUT_LINES, _md_prose, export_session
from claude_tui.core.export_html import MARKDOWN_CHARS
from claude_tui.core.files import agent_files
from claude_tui.core.humanize import human_size
from claude_tui.core.loader import read_session
from claude_tui.core.sanitize import visible_controls
from claude_tui.writing import write_export

MODEL = "claude-sonnet-4-20250514"
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
ANSI = "\x1b[31mred\x1b[0m"
OSC52 = "\x1b]52;c;aGVsbG8=\x07"
RICH = "[bold]loud[/bold] [link=https://evil.example]x[/link] [@click=app.quit]y[/]"
HOSTILE = f"{SCRIPT} {IMG} {ANSI} {OSC52} {RICH}"


# ---------------------------------------------------------------- building sessions


class Log:
    """A session file built record by record: each record's parent is the previous one unless given."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.clock = 0

    def add(self, record: dict[str, Any], parent: str | bool | None = True) -> str:
        uuid = record.setdefault("uuid", f"u{len(self.records):04d}")
        if parent is True:
            parent = self.records[-1]["uuid"] if self.records else None
        self.clock += 1
        record.setdefault("parentUuid", parent)
        record.setdefault("timestamp", f"2025-07-01T10:{self.clock // 60:02d}:{self.clock % 60:02d}.000Z")
        record.setdefault("sessionId", "s1")
        record.setdefault("cwd", "/home/me/project")
        self.records.append(record)
        return uuid

    def prompt(self, content: Any, parent: str | bool | None = True, **kw: Any) -> str:
        return self.add({"type": "user", "message": {"role": "user", "content": content}, **kw}, parent)

    def answer(self, *blocks: dict[str, Any]) -> str:
        mid = f"msg_{len(self.records)}"
        message = {"id": mid, "role": "assistant", "model": MODEL, "content": list(blocks)}
        message["usage"] = {"input_tokens": 10, "output_tokens": 20}
        return self.add({"type": "assistant", "message": message})

    def call(self, tid: str, name: str, inp: dict[str, Any]) -> str:
        return self.answer({"type": "tool_use", "id": tid, "name": name, "input": inp})

    def result(self, tid: str, content: Any, *, is_error: bool = False, structured: Any = None) -> str:
        block = {"type": "tool_result", "tool_use_id": tid, "content": content, "is_error": is_error}
        record: dict[str, Any] = {"type": "user", "message": {"role": "user", "content": [block]}}
        if structured is not None:
            record["toolUseResult"] = structured
        return self.add(record)

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in self.records))
        return path


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def export(path: Path, fmt: str) -> str:
    return export_session(read_session(path), fmt)


def render_markdown(document: str) -> str:
    """Markdown as a CommonMark renderer with raw HTML enabled (the permissive case) shows it, GFM tables on."""
    return markdown_it.MarkdownIt("commonmark", {"html": True}).enable("table").render(document)


class Tags(HTMLParser):
    """The tags and attributes of an HTML document, and whether every opened tag was closed in order."""

    VOID = frozenset({"meta", "br", "hr", "img", "input", "link"})

    def __init__(self, document: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attrs: set[str] = set()
        self.stack: list[str] = []
        self.balanced = True
        self.text: list[str] = []
        self.feed(document)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs.update(name for name, _ in attrs)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """A self-closed tag (`<hr />`, as markdown-it writes void elements)."""
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.balanced = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)


#: What rendering our Markdown may produce (our own <details> blocks included).
MARKDOWN_TAGS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "code", "pre", "strong", "em"}
MARKDOWN_TAGS |= {"blockquote", "hr", "br", "details", "summary", "table", "thead", "tbody", "tr", "th", "td", "a"}
#: Everything our HTML export may contain: no script, img, link, iframe, no event handler, no src. Its prose
#: rendered from Markdown adds links (an href is never javascript: or data:, see `unsafe_hrefs`), strikethrough,
#: a list's start and a table cell's alignment.
HTML_TAGS = {"html", "head", "meta", "title", "style", "body", "header", "h1", "dl", "dt", "dd", "main"}
HTML_TAGS |= {"div", "span", "pre", "p", "details", "summary", "footer", "s"} | MARKDOWN_TAGS
HTML_ATTRS = {"lang", "charset", "http-equiv", "content", "name", "class", "href", "title", "start", "style"}


def unsafe_hrefs(document: str) -> list[str]:
    """The links of an HTML document that run or carry something (javascript:, vbscript:, data:, file:)."""
    hrefs = re.findall(r'<a href="([^"]*)"', document)
    return [h for h in hrefs if re.match(r"\s*(javascript|vbscript|data|file):", unescape(h), re.IGNORECASE)]


def hostile_session(tmp_path: Path) -> Path:
    log = Log()
    log.add({"type": "custom-title", "customTitle": f"title {SCRIPT}"}, None)
    log.prompt(f"please {HOSTILE}\n```\n{SCRIPT}\n```", None)
    log.answer(
        {"type": "thinking", "thinking": f"hmm </details> {SCRIPT}"},
        text(f"answer {HOSTILE}\n```python\nprint('{SCRIPT}')"),  # a fence never closed
    )
    log.call("t1", "Bash", {"command": f"echo '{SCRIPT}' ```", "description": IMG})
    log.result("t1", f"out ```\n{SCRIPT}\n````\n{ANSI}\n{OSC52}\n{RICH}")
    log.call("t2", f"{IMG}tool", {"x": HOSTILE})
    log.result("t2", HOSTILE, is_error=True)
    log.add({"type": "system", "subtype": "informational", "content": f"hook {HOSTILE}"})
    log.prompt("after the unclosed fence <b>bold?</b>")
    return log.write(tmp_path / "p" / "hostile.jsonl")


# ---------------------------------------------------------------- the real corpus


def test_every_real_file_exports_in_every_format(real_projects: Path) -> None:
    files = sorted(real_projects.rglob("*.jsonl"))
    assert files
    for path in files:
        session = read_session(path)
        visible = len(session.visible())
        for fmt in FORMATS:
            out = export_session(session, fmt)
            assert out.endswith("\n"), (path, fmt)
            assert "\x1b" not in out and "\x07" not in out, (path, fmt)
            if fmt == "json":
                assert len(json.loads(out)["messages"]) == visible, path
            elif fmt == "html":
                tags = Tags(out)
                assert tags.balanced, path
                assert tags.tags <= HTML_TAGS and tags.attrs <= HTML_ATTRS, (path, tags.tags, tags.attrs)
                assert not unsafe_hrefs(out), path
            else:
                assert out.startswith("# "), path


def test_the_cost_says_which_models_it_leaves_out(tmp_path: Path) -> None:
    log = Log()
    log.prompt("hello")
    log.answer(text("hi"))
    log.answer(text("hi from a model with no price"))
    log.records[-1]["message"]["model"] = "claude-opus-9"
    md = export(log.write(tmp_path / "p" / "s1.jsonl"), "markdown")
    assert "- **Cost at list price:** $0.00+ (no price for claude-opus-9)\n" in md


def test_exports_say_local_times_with_their_zone_and_json_keeps_utc(
    tmp_path: Path, zone: Callable[[str], None]
) -> None:
    """The header's times, the first heading's date and zone, then times alone on the same local day; a heading
    after midnight in Los Angeles (not in UTC) says its date again."""
    log = Log()
    log.prompt("evening", timestamp="2025-09-03T00:52:31.000Z")  # 17:52:31 PDT
    log.answer(text("one"))
    log.records[-1]["timestamp"] = "2025-09-03T00:52:38.000Z"
    log.prompt("after midnight", timestamp="2025-09-03T07:10:00.000Z")  # 00:10:00 PDT, the next day
    path = log.write(tmp_path / "s1.jsonl")
    zone("PST8PDT,M3.2.0,M11.1.0")
    md = export(path, "markdown")
    assert "- **Started:** 2025-09-02 17:52:31 PDT\n" in md
    assert "\n## Prompt · 2025-09-02 17:52:31 PDT\n" in md
    assert f"\n## Assistant · {MODEL} · 17:52:38\n" in md
    assert "\n## Prompt · 2025-09-03 00:10:00 PDT\n" in md
    assert "2025-09-02 17:52:31 PDT" in export(path, "html")
    document = json.loads(export(path, "json"))
    assert "2025-09-03T00:52:31.000Z" in json.dumps(document) and "PDT" not in json.dumps(document)


def test_cli_export_writes_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = hostile_session(tmp_path)
    out = tmp_path / "out.html"
    assert main(["export", str(path), "--format", "html", "-o", str(out)]) == 0
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out.read_text(encoding="utf-8")
    assert main(["export", str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["session"]["title"] == f"title {SCRIPT}"


def test_cli_export_never_writes_where_sessions_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not over the session itself, nor beside it, nor under the default projects folder, whatever
    --projects-dir says."""
    path = hostile_session(tmp_path)
    before = path.read_bytes()
    config = tmp_path / "config"
    (config / "projects").mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    elsewhere = ["--projects-dir", str(tmp_path / "elsewhere")]
    for target in (path, path.parent / "out.md", config / "projects" / "out.md"):
        assert main(["export", str(path), "-o", str(target), *elsewhere]) == 2
        assert "refusing to write under a projects folder" in capsys.readouterr().err
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert not (config / "projects" / "out.md").exists()
    linked = tmp_path / "linked.md"  # another name of the session file: written as a new file
    os.link(path, linked)
    umask = os.umask(0o022)
    try:
        assert main(["export", str(path), "-o", str(linked), *elsewhere]) == 0
    finally:
        os.umask(umask)
    assert path.read_bytes() == before and linked.read_text(encoding="utf-8").startswith("# ")
    assert linked.stat().st_mode & 0o777 == 0o644 and list(tmp_path.glob(".*")) == []  # no temporary file left


def test_an_export_leaves_the_process_umask_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app exports in a thread while others create files: setting the umask, even for a moment, would
    give their files mode 0666."""
    umask = os.umask(0o027)
    try:
        with monkeypatch.context() as patched:
            patched.setattr(os, "umask", lambda _mask: pytest.fail("the umask was set"))
            write_export(tmp_path / "out.md", "# title\n")
    finally:
        os.umask(umask)
    assert (tmp_path / "out.md").stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"]


def test_cli_export_to_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = hostile_session(tmp_path)
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    assert main(["export", str(path), "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("# ") and list(Path().iterdir()) == []


def test_cli_export_writes_into_a_pipe_or_a_terminal_as_it_is(tmp_path: Path) -> None:
    """`-o` names a FIFO, `/dev/stdout`, `>(cmd)`: written into, not replaced by a file."""
    path = hostile_session(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert main(["export", str(path), "-o", str(fifo)]) == 0
    reader.join(10)
    assert stat.S_ISFIFO(fifo.stat().st_mode) and got[0].startswith(b"# title ")
    master, slave = os.openpty()
    drained: list[bytes] = []
    drain = threading.Thread(target=lambda: drained.append(os.read(master, 1 << 20)), daemon=True)
    drain.start()
    try:
        assert main(["export", str(path), "-o", os.ttyname(slave)]) == 0
        drain.join(10)
        assert stat.S_ISCHR(os.stat(os.ttyname(slave)).st_mode) and drained[0].startswith(b"# title ")
    finally:
        os.close(master)
        os.close(slave)


def test_cli_export_takes_the_format_from_the_file_name(tmp_path: Path) -> None:
    path = hostile_session(tmp_path)
    for name, start in (("a.html", "<!doctype html>"), ("a.htm", "<!doctype html>"), ("a.json", "{"), ("a.md", "# ")):
        assert main(["export", str(path), "-o", str(tmp_path / name)]) == 0
        assert (tmp_path / name).read_text(encoding="utf-8").lower().startswith(start), name
    assert main(["export", str(path), "--format", "markdown", "-o", str(tmp_path / "b.html")]) == 0
    assert (tmp_path / "b.html").read_text(encoding="utf-8").startswith("# ")  # as told


# ---------------------------------------------------------------- hostile content


def test_html_escapes_everything_and_loads_nothing(tmp_path: Path) -> None:
    out = export(hostile_session(tmp_path), "html")
    tags = Tags(out)
    assert tags.balanced
    assert tags.tags <= HTML_TAGS, tags.tags
    assert tags.attrs <= HTML_ATTRS, tags.attrs
    for needle in ("<script", "<img", "<a ", "url(", "@import"):
        assert needle not in out, needle
    assert "<title>title &lt;script&gt;alert(1)&lt;/script&gt; · claude-tui</title>" in out
    assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;tool" in out  # a tool name
    assert "[bold]loud[/bold]" in out and "[@click=app.quit]" in out
    assert "␛[31mred␛[0m" in out and "␛]52;c;aGVsbG8=␇" in out
    assert "hmm &lt;/details&gt;" in out
    assert "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'" in out


def test_html_renders_markdown_prose_and_shows_typed_prompts_as_written(tmp_path: Path) -> None:
    log = Log()
    log.prompt("**as typed** | a | b |\n|---|---|\n# not a heading", None)
    answer = "## Auto-loaded\n\nThis is **already in my context**, ~~gone~~:\n\n| File | What it gives me |\n"
    answer += "|---|:-:|\n| `CLAUDE.md` | rules |\n\n3. three\n4. four\n\n```py\nx = 1 < 2\n```"
    log.answer({"type": "thinking", "thinking": "*weighing* it"}, text(answer))
    log.call("task1", "Task", {"description": "look", "prompt": "Find **every** caller", "subagent_type": "x"})
    log.result("task1", "done")
    log.prompt("Summary:\n- we *talked*", None, isCompactSummary=True)
    out = export(log.write(tmp_path / "p" / "md.jsonl"), "html")
    assert '<div class="prose">**as typed** | a | b |\n|---|---|\n# not a heading</div>' in out
    assert "<h2>Auto-loaded</h2>" in out
    assert "<strong>already in my context</strong>" in out and "<s>gone</s>" in out
    assert '<th>File</th>\n<th style="text-align:center">What it gives me</th>' in out
    assert "<td><code>CLAUDE.md</code></td>" in out
    assert '<ol start="3">\n<li>three</li>' in out
    assert '<pre><code class="language-py">x = 1 &lt; 2\n</code></pre>' in out
    assert "<p><em>weighing</em> it</p>" in out  # thinking
    assert "<p>Find <strong>every</strong> caller</p>" in out  # a prompt a model wrote for a subagent
    assert "<li>we <em>talked</em></li>" in out  # a compaction summary
    tags = Tags(out)
    assert tags.balanced and tags.tags <= HTML_TAGS and tags.attrs <= HTML_ATTRS


def test_html_shows_a_text_too_long_to_parse_as_written(tmp_path: Path) -> None:
    log = Log()
    log.prompt("go", None)
    log.answer(text("**short**"), text("**long** <b>" + "x" * MARKDOWN_CHARS))
    out = export(log.write(tmp_path / "p" / "long.jsonl"), "html")
    assert '<div class="markdown"><p><strong>short</strong></p>\n</div>' in out
    assert '<div class="prose">**long** &lt;b&gt;xxx' in out


def test_html_markdown_escapes_raw_html_and_drops_unsafe_links(tmp_path: Path) -> None:
    hostile = "\n\n".join(
        [
            f"inline {SCRIPT} and {IMG}",
            '<div onclick="alert(1)">block html</div>',
            "</div></details></main>",
            "[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](&#x6A;avascript:alert(1)) [d](<javascript:x>)",
            "[e](data:text/html;base64,PHNjcmlwdD4=) [f](data:image/png;base64,AAAA) ![g](data:image/png;base64,AAAA)",
            "<javascript:alert(1)> [h](vbscript:x) [i](file:///etc/passwd) [r]\n\n[r]: javascript:alert(2)",
            "![remote](https://evil.example/t.png)",
            '[ok](https://example.com/?a=1&b="2" "a \\"title\\"")',
            f"{ANSI} {OSC52} &#x202e;fdp.exe &#12; \\<b>escaped\\</b> &lt;i&gt;",
        ]
    )
    log = Log()
    log.prompt("go", None)
    log.answer({"type": "thinking", "thinking": hostile}, text(hostile))
    out = export(log.write(tmp_path / "p" / "bad.jsonl"), "html")
    tags = Tags(out)
    assert tags.balanced
    assert tags.tags <= HTML_TAGS and tags.attrs <= HTML_ATTRS, (tags.tags, tags.attrs)
    assert "<script" not in out and "<img" not in out and "<div onclick" not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out and "&lt;/div&gt;&lt;/details&gt;&lt;/main&gt;" in out
    links = re.findall(r'<a href="[^"]*"[^>]*>', out)
    expected = [
        '<a href="https://evil.example/t.png">',
        '<a href="https://example.com/?a=1&amp;b=%222%22" title="a &quot;title&quot;">',
    ]
    assert links == expected * 2, links  # an image is a link, not loaded
    assert not unsafe_hrefs(out)
    assert "[a](javascript:alert(1))" in out and "[f](data:image/png;base64,AAAA)" in out  # shown, not linked
    for raw in ("\x1b", "\x07", "\u202e", "\x0c"):
        assert raw not in out, repr(raw)
    assert "␛[31mred␛[0m ␛]52;c;aGVsbG8=␇ \\u202efdp.exe ␌ &lt;b&gt;escaped&lt;/b&gt; &lt;i&gt;" in out


def test_markdown_neutralises_html_and_fences_safely(tmp_path: Path) -> None:
    out = export(hostile_session(tmp_path), "markdown")
    assert "\x1b" not in out and "\x07" not in out
    assert "␛[31mred␛[0m" in out and "␛]52;c;aGVsbG8=␇" in out
    assert "[bold]loud[/bold]" in out
    # A tool output holding runs of three and four backticks is fenced with five.
    assert f"`````text\nout ```\n{SCRIPT}\n````\n" in out
    # The unclosed fence of the answer is closed: what follows is still a prompt, outside any code.
    rendered = render_markdown(out)
    tags = Tags(rendered)
    assert tags.tags <= MARKDOWN_TAGS, tags.tags - MARKDOWN_TAGS
    assert "onerror" not in tags.attrs
    assert "<p>after the unclosed fence &lt;b&gt;bold?&lt;/b&gt;</p>" in rendered
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in rendered
    assert "&amp;lt;" not in rendered  # code is not escaped twice: a fenced `<` shows as `<`


@pytest.mark.parametrize(
    ("prose", "shown"),
    [
        ("a `b\nx` <script> `y`", "&lt;script&gt;"),  # a code span may span lines: pairing must not shift
        ("- `a\n- b` c` <script> `d` e", "&lt;script&gt;"),  # ... but not list items
        ("| a | b |\n|---|---|\n| `x | <script> | y` |", "&lt;script&gt;"),  # GFM cells split code spans
        ("- ```\n  code\n  ```\nafter <b>x</b>", "after &lt;b&gt;x&lt;/b&gt;"),  # a fence inside a list item
        ("\\`<img src=x onerror=alert(1)>`", "&lt;img"),  # an escaped backtick opens no code span
        ("~~~\n<b>in code</b>\n~~~\n<b>out</b>", "&lt;b&gt;out&lt;/b&gt;"),
        ("<!-- c --> <?php ?> <![CDATA[x]]> <https://a.b> &lt;i&gt;", "&amp;lt;i&amp;gt;"),
        ("```\nopen <i>", "open &lt;i&gt;"),
    ],
)
def test_markdown_prose_never_yields_raw_html(prose: str, shown: str) -> None:
    rendered = render_markdown(_md_prose(prose))
    assert Tags(rendered).tags <= MARKDOWN_TAGS - {"a"}, rendered
    assert shown in rendered


def test_markdown_writes_characters_not_entities() -> None:
    """Markup is escaped by a backslash, and a `<` that starts none is left alone: the Markdown reads as it shows."""
    prose = "if a < b && c <= d: Vec<T> &amp; `|x| < 1`\n\n| type | size |\n|---|---|\n| `Vec<T>` | 24 <b>B</b> |"
    shown = _md_prose(prose)
    assert shown.split("\n") == [
        "if a < b && c \\<= d: Vec\\<T> \\&amp; `|x| < 1`",
        "",
        "| type | size |",
        "|---|---|",
        "| `Vec<T>` | 24 \\<b>B\\</b> |",
    ]
    rendered = render_markdown(shown)
    assert "<p>if a &lt; b &amp;&amp; c &lt;= d: Vec&lt;T&gt; &amp;amp; <code>|x| &lt; 1</code></p>" in rendered
    assert "<td><code>Vec&lt;T&gt;</code></td>\n<td>24 &lt;b&gt;B&lt;/b&gt;</td>" in rendered


def test_markdown_prose_keeps_code_as_written() -> None:
    rendered = render_markdown(_md_prose("Use `Vec<String>` here:\n\n```rust\nlet v: Vec<String> = vec![];\n```\n"))
    assert "<code>Vec&lt;String&gt;</code>" in rendered
    assert '<pre><code class="language-rust">let v: Vec&lt;String&gt; = vec![];\n</code></pre>' in rendered


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="`~<>/!?&;#|\\-*_ \n\tabs=\"'x", max_size=60))
def test_markdown_prose_fuzz(prose: str) -> None:
    rendered = render_markdown(_md_prose(prose))
    assert Tags(rendered).tags <= MARKDOWN_TAGS - {"a"}, (prose, rendered)


def test_json_keeps_text_and_escapes_controls(tmp_path: Path) -> None:
    out = export(hostile_session(tmp_path), "json")
    assert "\x1b" not in out and "\x07" not in out
    doc = json.loads(out)
    prompt = doc["messages"][0]
    assert prompt["kind"] == "prompt"
    assert HOSTILE in prompt["text"]
    call = doc["messages"][2]["tool_calls"][0]
    assert call["name"] == "Bash" and call["input"]["description"] == IMG
    assert OSC52 in call["result"]["text"]


def test_visible_controls() -> None:
    assert visible_controls(ANSI) == "␛[31mred␛[0m"
    assert visible_controls(OSC52) == "␛]52;c;aGVsbG8=␇"
    assert visible_controls("a\r\nb\rc\x00\x08\x7f\x9b1m") == "a\nb␍c␀␈␡\\x9b1m"
    assert visible_controls("\u202euser\u202c \u2067x\u2069") == "\\u202euser\\u202c \\u2067x\\u2069"
    assert visible_controls("line\u2028next\u2029para") == "line\nnext\n\npara"
    plain = "tabs\tand\nnewlines stay, [bold] too"
    assert visible_controls(plain) is plain


# ---------------------------------------------------------------- content


def test_edit_and_write_show_a_diff(tmp_path: Path) -> None:
    log = Log()
    log.prompt("edit", None)
    log.call("e1", "Edit", {"file_path": "/p/a.py", "old_string": "x = 1", "new_string": "x = 2"})
    patch = [{"oldStart": 3, "oldLines": 2, "newStart": 3, "newLines": 2, "lines": [" a", "-x = 1", "+x = 2"]}]
    log.result("e1", "The file /p/a.py has been updated.", structured={"filePath": "/p/a.py", "structuredPatch": patch})
    log.call("e2", "Edit", {"file_path": "/p/b.py", "old_string": "old line", "new_string": "new line"})
    log.result("e2", "String to replace not found", is_error=True)
    log.call("w1", "Write", {"file_path": "/p/c.py", "content": "first\nsecond\n"})
    log.result("w1", "File created", structured={"type": "create", "filePath": "/p/c.py", "structuredPatch": []})
    edits = [{"old_string": "m1", "new_string": "m2"}]
    log.call("m1", "MultiEdit", {"file_path": "/p/d.py", "edits": edits})
    path = log.write(tmp_path / "p" / "edits.jsonl")

    md = export(path, "markdown")
    assert "```diff\n--- /p/a.py\n+++ /p/a.py\n@@ -3,2 +3,2 @@\n a\n-x = 1\n+x = 2\n```" in md
    assert "```diff\n--- /p/b.py\n+++ /p/b.py\n@@ -? +? @@\n-old line\n+new line\n```" in md
    assert "```diff\n--- /p/c.py\n+++ /p/c.py\n@@ -0,0 +1,2 @@\n+first\n+second\n```" in md
    assert "-m1\n+m2" in md
    assert "**String to replace not found**" not in md and "String to replace not found" in md
    html = export(path, "html")
    assert '<span class="del">-x = 1</span>\n<span class="add">+x = 2</span>' in html
    calls = [c for m in json.loads(export(path, "json"))["messages"] for c in m["tool_calls"]]
    assert calls[0]["diff"].endswith("-x = 1\n+x = 2")
    assert calls[1]["is_error"] is True and calls[3]["status"] == "no_result"


def test_long_output_is_trimmed_with_a_note(tmp_path: Path) -> None:
    lines = [f"line {i}" for i in range(1000)]
    output = "\n".join(lines)
    big = "\n".join(f"row {i:06d}" for i in range(3000))  # 32 KB: the model keeps a 16,000-character preview
    log = Log()
    log.prompt("run", None)
    log.call("b1", "Bash", {"command": "seq 1000", "description": "count"})
    log.result("b1", output)
    log.call("b2", "Bash", {"command": "cat big"})
    log.result("b2", big)
    log.call("b3", "Bash", {"command": "cat blob"})
    log.result("b3", "y" * 50_000)
    log.call("b4", "Bash", {"command": "true"})
    log.result("b4", "")
    log.call("b5", "Bash", {"command": "grep -r zebra src"})
    log.result("b5", "", structured={"stdout": "", "stderr": "", "returnCodeInterpretation": "No matches found"})
    path = log.write(tmp_path / "p" / "long.jsonl")
    rest = output[len("\n".join(lines[:OUTPUT_LINES])) :]
    note = f"… 960 more lines ({human_size(len(rest))}) trimmed"
    big_note = f"… 2,960 more lines ({human_size(len(big) - 40 * 11 + 1)}) trimmed"
    blob_note = f"… the rest ({human_size(50_000 - 8000)}) trimmed"
    session = read_session(path)
    for fmt in ("markdown", "html"):
        out = export_session(session, fmt)
        assert "line 39" in out and "line 40" not in out
        assert "row 000039" in out and "row 000040" not in out
        assert note in out and big_note in out and blob_note in out
        assert "y" * 8000 in out and "y" * 8001 not in out
        assert out.count("(no output)") == 2 and out.count("Exit status: No matches found") == 1
    results = [m["tool_calls"][0]["result"] for m in json.loads(export_session(session, "json"))["messages"][1:4]]
    assert [r["text"] for r in results] == [output, big, "y" * 50_000]
    assert not any(r["truncated"] for r in results)
    # The file gone, only the preview is left: the lines beyond it are counted as a lower bound.
    path.unlink()
    assert "… 1,415+ more lines (" in export_session(session, "markdown")
    assert json.loads(export_session(session, "json"))["messages"][2]["tool_calls"][0]["result"]["truncated"]


def test_fork_compaction_subagent_and_errors_are_marked(tmp_path: Path) -> None:
    log = Log()
    log.prompt("first question", None)
    base = log.answer({"type": "thinking", "thinking": "let me think"}, text("first answer"))
    log.prompt("original follow-up", base)
    log.answer(text("answer to the original"))
    log.prompt(
        [text("edited follow-up"), {"type": "image", "source": {"media_type": "image/png", "data": "AAAA"}}], base
    )
    log.answer(text("answer to the edit"))
    log.add({"type": "system", "subtype": "compact_boundary", "compactMetadata": {"preTokens": 12345}}, None)
    log.records[-1]["logicalParentUuid"] = log.records[-2]["uuid"]
    log.prompt("Summary: we talked about forks.", isCompactSummary=True)
    log.call("task1", "Task", {"description": "look around", "prompt": "Explore the repo", "subagent_type": "x"})
    log.result("task1", "found three files", structured={"agentId": "abc123", "content": []})
    log.answer(text("oops"))
    log.records[-1]["isApiErrorMessage"] = True
    log.add({"type": "system", "subtype": "turn_duration", "durationMs": 1500})
    main_path = log.write(tmp_path / "p" / "s1.jsonl")
    agent = Log()
    agent.prompt("Explore the repo", None, isSidechain=True, agentId="abc123")
    agent.answer(text("the subagent's report"))
    agent.write(tmp_path / "p" / "s1" / "subagents" / "agent-abc123.jsonl")
    warmup = Log()
    warmup.prompt("Warmup", None, isSidechain=True, agentId="w1")
    warmup.write(tmp_path / "p" / "s1" / "subagents" / "agent-w1.jsonl")
    assert agent_files(main_path)

    md = export(main_path, "markdown")
    assert "**⑂ Fork: branch 2 of 2 (a prompt was edited or rewound here; the other is not in this export" in md
    assert "export: the app's < and > switch branches, x exports the one shown)**" in md  # no entity: plain `<`
    assert "3 prompts, 4 answers, 1 tool call (0 errors) in all branches" in md  # both branches; not the API error
    assert "- **Threads:** 1 fork, " in md
    assert "edited follow-up" in md and "original follow-up" not in md
    assert "*[image: image/png, 3 B]*" in md
    assert "<details>\n<summary>Thinking</summary>\n\nlet me think\n\n</details>" in md
    assert "**✂ Conversation compacted (12.3k tokens before)**" in md
    assert "<summary>Compaction summary</summary>\n\nSummary: we talked about forks." in md
    assert "**▼ Subagent · agent abc123 · 2 messages**\n\n> ## Prompt" in md
    assert "> the subagent's report\n" in md
    assert "**1 subagent(s) not linked to a tool call**\n\n---\n\n**▼ Subagent · agent w1 · 1 message · warmup**" in md
    assert "**⚠ API error: oops**" in md
    assert "*· system: turn took 1.5s*" in md

    html = export(main_path, "html")
    assert '<div class="divider fork">⑂ Fork: branch 2 of 2' in html
    assert '<div class="box subagent"><div class="head">▼ Subagent' in html
    assert '<div class="divider compact">✂ Conversation compacted (12.3k tokens before)</div>' in html

    doc = json.loads(export(main_path, "json"))
    kinds = [m["kind"] for m in doc["messages"]]
    assert kinds[:4] == ["prompt", "assistant", "prompt", "assistant"]
    assert doc["messages"][2]["fork"] == {"branch": 2, "of": 2}
    assert doc["messages"][1]["thinking"] == ["let me think"]
    boundary = doc["messages"][kinds.index("compact_boundary")]
    assert boundary["pre_tokens"] == 12345
    task = next(c for m in doc["messages"] for c in m["tool_calls"] if c["name"] == "Task")
    assert task["result"]["text"] == "found three files" and task["duration_s"] == 1.0
    assert [m["text"] for m in task["subagent"]["messages"]] == ["Explore the repo", "the subagent's report"]
    assert doc["session"]["forks"] == 1 and doc["session"]["subagents"] == 2
    assert [a["agent_id"] for a in doc["unlinked_subagents"]] == ["w1"]


def test_a_recap_is_exported_as_claudes_words(tmp_path: Path) -> None:
    log = Log()
    log.prompt("merge the branches", None)
    log.add({"type": "system", "subtype": "away_summary", "content": "Merged both. (disable recaps in /config)"})
    path = log.write(tmp_path / "p" / "s.jsonl")
    md = export(path, "markdown")
    assert "## ↻ Recap (while you were away) · " in md and "\n\nMerged both.\n" in md and "disable" not in md
    html = export(path, "html")
    assert '<div class="box recap"><div class="head">↻ Recap (while you were away)' in html
    assert '<div class="markdown"><p>Merged both.</p>' in html
    doc = json.loads(export(path, "json"))
    assert [(m["kind"], m["text"]) for m in doc["messages"]][1] == ("recap", "Merged both.")


def test_json_survives_integers_beyond_64_bits(tmp_path: Path) -> None:
    log = Log()
    log.prompt("hi", None)
    log.call("n1", "Calc", {"n": 1})
    path = tmp_path / "p" / "big.jsonl"
    path.parent.mkdir(parents=True)
    lines = [orjson.dumps(r).decode() for r in log.records]
    # Two records written back to back: recovered by the tolerant parser, which keeps big integers exact.
    tail = {"type": "system", "subtype": "informational", "content": "x", "uuid": "u9", "parentUuid": "u0001"}
    lines[1] = lines[1].replace('{"n":1}', '{"n":123456789012345678901234567890}') + orjson.dumps(tail).decode()
    path.write_text("\n".join(lines) + "\n")
    doc = json.loads(export(path, "json"))
    assert doc["messages"][1]["tool_calls"][0]["input"]["n"] == 123456789012345678901234567890


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_lock_given_is_held_for_each_message_not_the_whole_export(tmp_path: Path, fmt: str) -> None:
    """The app's view lock keeps its live reader out of the session while it is read; held for a whole export,
    it kept the screen (which draws under it) from taking keys for seconds on a big session."""
    log = Log()
    for n in range(3):
        log.prompt(f"question {n}")
        log.answer(text(f"answer {n}"))
    session = read_session(log.write(tmp_path / "s1.jsonl"))
    holds = 0

    class Counted:
        def __enter__(self) -> None:
            nonlocal holds
            holds += 1

        def __exit__(self, *exc: object) -> None:
            return None

    assert "answer 2" in export_session(session, fmt, lock=Counted())
    assert holds == 2 + len(session.visible())  # the facts, the messages to show, then each message


def test_unknown_format_is_refused(tmp_path: Path) -> None:
    path = hostile_session(tmp_path)
    with pytest.raises(ValueError, match="unknown export format 'pdf'"):
        export(path, "pdf")


def test_markdown_prose_keeps_code_fenced_inside_a_list_item() -> None:
    prose = "- the payload:\n    ```ts\n    type A = Promise<B> | `x`;\n    ```\n- next"
    rendered = render_markdown(_md_prose(prose))
    assert '<pre><code class="language-ts">type A = Promise&lt;B&gt; | `x`;\n</code></pre>' in rendered
    assert "\\`" not in rendered and "&amp;lt;" not in rendered


def test_markdown_keeps_a_fences_info_string() -> None:
    assert _md_prose('```python title="a.py" {1,3}\nx = 1\n```').startswith('```python title="a.py" {1,3}\n')
    assert _md_prose("~~~sh `date`\necho\n~~~") == "```sh\necho\n```"  # a backtick would end the new fence


def test_markdown_headings_in_messages_rank_below_the_message_headings(tmp_path: Path) -> None:
    log = Log()
    log.prompt("plan it", None)
    log.answer(text("# Plan\n\n## Step 1\n\n```md\n# not a heading\n```\n\n####### seven is text, see issue # 5"))
    md = export(log.write(tmp_path / "p" / "h.jsonl"), "markdown")
    assert "\n## Prompt · " in md and "\n## Assistant · " in md
    assert "\n### Plan\n" in md and "\n#### Step 1\n" in md
    assert "\n# not a heading\n" in md and "\n####### seven is text, see issue # 5\n" in md


def test_markdown_shows_a_typed_prompt_as_written(tmp_path: Path) -> None:
    typed = "fix these:\n# not a title\n- a\n+import x\n  indented *not em* a_b_\n1. one\n2024. a year"
    typed += "\n\n```py\nx = 1\n```\nlast <b>"
    log = Log()
    log.prompt(typed, None)
    log.answer(text("- an answer's list\n- stays Markdown"))
    rendered = render_markdown(export(log.write(tmp_path / "p" / "typed.jsonl"), "markdown"))
    shown = "fix these:<br />\n# not a title<br />\n- a<br />\n+import x<br />\n"
    shown += "\u00a0\u00a0indented *not em* a_b_<br />\n1. one<br />\n2024. a year"
    assert f"<p>{shown}</p>" in rendered
    assert '<pre><code class="language-py">x = 1\n</code></pre>\n<p>last &lt;b&gt;</p>' in rendered
    assert "<li>an answer's list</li>" in rendered


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="`~<>/!?&;#|\\-*_=+1.) \n\tabs=\"'x", max_size=60))
def test_markdown_typed_prose_fuzz(prose: str) -> None:
    """Shown as written: no tag from the text, and its characters all there (code aside, whitespace folded)."""
    rendered = render_markdown(_md_prose(prose, literal=True))
    tags = Tags(rendered)
    assert tags.tags <= {"p", "br", "pre", "code"}, (prose, rendered)
    if "`" not in prose and "~" not in prose:
        assert "".join("".join(tags.text).split()) == "".join(prose.split()), (prose, rendered)


def test_quiet_rows_drop_colour_codes_and_injected_tags(tmp_path: Path) -> None:
    log = Log()
    long = "the parser " * 30
    log.prompt(f"<command-name>/review</command-name>\n<command-args>{long}</command-args>", None)
    log.prompt("<command-name>/exit</command-name>\n<command-args></command-args>")
    log.prompt("<local-command-stdout>See ya!</local-command-stdout>")
    hook = "\x1b[1mStop\x1b[22m [ruff] completed \x1b]0;t\x07"
    log.add({"type": "system", "subtype": "informational", "content": hook})
    md = export(log.write(tmp_path / "p" / "quiet.jsonl"), "markdown")
    assert "*▸ command: /exit*" in md
    assert f"*▸ command: /review {long.strip()}*" in md  # whole: what the user typed
    assert "*· command output: See ya!*" in md
    assert "*· system: Stop [ruff] completed ␛]0;t␇*" in md  # colours dropped; any other escape stays visible


def test_json_keeps_redacted_and_unknown_blocks(tmp_path: Path) -> None:
    log = Log()
    log.prompt("think hard")
    log.answer(
        {"type": "redacted_thinking", "data": "opaque"},
        {"type": "server_tool_use", "id": "srv1", "name": "web_search", "input": {"query": "x"}},
        {"type": "text", "text": "done"},
    )
    [_, answer] = json.loads(export(log.write(tmp_path / "s.jsonl"), "json"))["messages"]
    assert answer["text"] == "done"
    [redacted] = answer["other_blocks"]
    assert redacted == {"type": "redacted_thinking", "json": "", "size": 0, "truncated": False}
    [server] = answer["tool_calls"]  # a call the API's server ran is a call
    assert (server["id"], server["name"], server["input"]) == ("srv1", "web_search", {"query": "x"})


def test_json_keeps_an_unknown_block_as_its_json(tmp_path: Path) -> None:
    log = Log()
    log.prompt("think hard")
    log.answer({"type": "hologram", "frames": [1, 2]}, {"type": "text", "text": "done"})
    [_, answer] = json.loads(export(log.write(tmp_path / "s.jsonl"), "json"))["messages"]
    [other] = answer["other_blocks"]
    assert other["type"] == "hologram" and not other["truncated"]
    assert json.loads(other["json"])["frames"] == [1, 2]


def test_a_shell_commands_output_is_kept_whole_as_a_block(tmp_path: Path) -> None:
    """`! pytest` then "fix these": the failures listed by the command must be in the export."""
    log = Log()
    log.prompt("<bash-input>pytest -q</bash-input>")
    failures = [f"FAILED tests/test_parser.py::test_case_number_{i} - AssertionError" for i in range(8)]
    log.prompt("<bash-stdout>" + "\n".join(["FFFFFFFF", *failures, "\x1b[31m8 failed\x1b[0m"]) + "</bash-stdout>")
    log.prompt("fix these")
    path = log.write(tmp_path / "s.jsonl")
    for fmt in ("markdown", "html"):
        out = export(path, fmt)
        assert all(f in out for f in failures), fmt
        assert "8 failed" in out and "\x1b" not in out and "␛" not in out and "bash-stdout" not in out, fmt
    assert "```text\nFFFFFFFF\n" + "\n".join(failures) + "\n8 failed\n```" in export(path, "markdown")


def test_an_output_whose_call_is_lost_is_exported_where_it_is(tmp_path: Path) -> None:
    log = Log()
    log.prompt("run", None)
    log.answer(text("Running."))
    log.call("b1", "Bash", {"command": "./run"})
    log.result("b1", "LOSTOUTPUT permission denied", is_error=True)
    log.answer(text("It failed."))
    path = log.write(tmp_path / "p" / "lost.jsonl")
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2][:40]  # the call's line is damaged
    path.write_bytes(b"\n".join(lines))
    session = read_session(path)
    for fmt in ("markdown", "html"):
        out = export_session(session, fmt)
        assert "its call is not in the file (a damaged line?)" in out
        assert out.index("Running.") < out.index("LOSTOUTPUT permission denied") < out.index("It failed.")
    calls = [c for m in json.loads(export_session(session, "json"))["messages"] for c in m["tool_calls"]]
    assert [(c["name"], c["lost"], c["is_error"], c["result"]["text"]) for c in calls] == [
        ("?", True, True, "LOSTOUTPUT permission denied")
    ]
