"""The HTML writer of an export (see export.py): one self-contained page, its own style sheet and a content
security policy that allows no script, every string escaped, prose rendered by markdown-it with raw HTML off."""

from __future__ import annotations

import html

from markdown_it import MarkdownIt

from claude_tui.core.sanitize import visible_controls

#: Characters of prose the HTML export renders as Markdown; a longer text (answers are a few kB) is shown as
#: written: markdown-it takes up to 10 µs a character on pathological input (a run of `[`, nested emphasis).
MARKDOWN_CHARS = 100_000
_CSS = """
:root { color-scheme: light dark; --fg: #1f2328; --bg: #fff; --dim: #6e7781; --line: #d0d7de; --box: #f6f8fa;
  --prompt: #ddf4ff; --err: #cf222e; --add: #1a7f37; --del: #cf222e; --hunk: #8250df; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --dim: #8d96a0; --line: #30363d;
  --box: #161b22; --prompt: #0c2d48; --err: #ff7b72; --add: #3fb950; --del: #ff7b72; --hunk: #d2a8ff; } }
body { font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); max-width: 60rem;
  margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; color: var(--dim); }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.box { border: 1px solid var(--line); border-radius: 6px; margin: .8rem 0; padding: .4rem .8rem; }
.box.prompt { background: var(--prompt); } .box.tool { background: var(--box); margin: .5rem 0; }
.box.error { border-color: var(--err); } .box.subagent { border-left: 4px solid var(--hunk); }
.box.recap, .box.peer { border-style: dashed; }
.head { font-weight: 600; } .head .meta { font-weight: normal; color: var(--dim); margin-left: .5rem; }
.prose { white-space: pre-wrap; overflow-wrap: anywhere; margin: .4rem 0; }
.markdown { overflow-wrap: anywhere; margin: .4rem 0; }
.markdown > :first-child { margin-top: 0; } .markdown > :last-child { margin-bottom: 0; }
.markdown p, .markdown ul, .markdown ol, .markdown blockquote, .markdown table { margin: .4rem 0; }
.markdown h1, .markdown h2, .markdown h3, .markdown h4, .markdown h5, .markdown h6 { font-size: 1rem;
  margin: .8rem 0 .3rem; } .markdown h1 { font-size: 1.25rem; } .markdown h2 { font-size: 1.1rem; }
.markdown blockquote { margin-left: 0; padding-left: .8rem; border-left: 3px solid var(--line); color: var(--dim); }
.markdown table { border-collapse: collapse; display: block; overflow-x: auto; }
.markdown th, .markdown td { border: 1px solid var(--line); padding: .2rem .5rem; }
.markdown th { background: var(--box); }
.markdown hr { border: 0; border-top: 1px solid var(--line); }
code { font-size: 13px; background: var(--box); border-radius: 3px; padding: 0 .2rem; }
pre { background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: .4rem .6rem;
  overflow-x: auto; font-size: 13px; white-space: pre-wrap; overflow-wrap: anywhere; }
pre code { background: none; padding: 0; }
.add { color: var(--add); } .del { color: var(--del); } .hunk { color: var(--hunk); }
.note { margin: .3rem 0; color: var(--dim); font-size: 13px; }
.note.error, .note.interrupt { color: var(--err); font-weight: 600; }
.divider { text-align: center; color: var(--dim); border-top: 1px dashed var(--line); margin: 1.2rem 0;
  padding-top: .3rem; font-weight: 600; }
.divider.fork { color: var(--hunk); }
details { margin: .4rem 0; } summary { cursor: pointer; color: var(--dim); }
footer { color: var(--dim); font-size: 13px; margin-top: 2rem; border-top: 1px solid var(--line); }
"""
#: Nothing may load or run, even if escaping ever failed: styles inline, no scripts, no remote anything.
_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _h(text: str) -> str:
    """Session text as HTML text or attribute value."""
    return html.escape(visible_controls(text), quote=True)


class _Prose(MarkdownIt):
    """CommonMark with GFM tables and strikethrough; raw HTML is escaped, images are not loaded."""

    def __init__(self) -> None:
        super().__init__("commonmark", {"html": False})
        self.enable(["table", "strikethrough"]).disable("image")  # `![a](u)` shows as "!" and a link

    def validateLink(self, url: str) -> bool:
        """markdown-it's check (no javascript:, vbscript: or file: URL), and no data: URL: it lets images through."""
        return super().validateLink(url) and not url.strip().lower().startswith("data:")

    def html(self, text: str) -> str:
        """Markdown from the session as HTML, its control characters made visible (U+2029 still ends a paragraph).
        A numeric character reference (`&#x202e;`, no named one) decodes to a control: then the output is made safe."""
        shown = self.render(visible_controls(text))
        return visible_controls(shown) if "&#" in text else shown


_PROSE = _Prose()


class HtmlWriter:
    """Writes one self-contained HTML page: inline CSS, no scripts, no external resources."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.title = ""

    def header(self, title: str, rows: list[tuple[str, str]]) -> None:
        self.title = title
        facts = "".join(f"<dt>{_h(name)}</dt><dd>{_h(value)}</dd>" for name, value in rows)
        self.parts.append(f'<header><h1>{_h(title)}</h1><dl class="facts">{facts}</dl></header>\n<main>\n')

    def footer(self, text: str) -> None:
        self.parts.append(f"</main>\n<footer>{_h(text)}</footer>\n")

    def open_box(self, kind: str, title: str, meta: str) -> None:
        meta_html = f'<span class="meta">{_h(meta)}</span>' if meta else ""
        self.parts.append(f'<div class="box {_h(kind)}"><div class="head">{_h(title)}{meta_html}</div>\n')

    def close_box(self) -> None:
        self.parts.append("</div>\n")

    def prose(self, text: str, literal: bool = False) -> None:
        """Markdown rendered; `literal` text (and text too long to parse) as written (white-space: pre-wrap)."""
        if literal or len(text) > MARKDOWN_CHARS:
            self.parts.append(f'<div class="prose">{_h(text)}</div>\n')
        else:
            self.parts.append(f'<div class="markdown">{_PROSE.html(text)}</div>\n')

    def code(self, text: str, lang: str) -> None:
        self.parts.append(f'<pre class="{_h(lang)}">{_h(text)}</pre>\n')

    def diff(self, lines: list[str]) -> None:
        spans = []
        for line in lines:
            css = "hunk" if line.startswith("@@") else "add" if line[:1] == "+" else "del" if line[:1] == "-" else ""
            spans.append(f'<span class="{css}">{_h(line)}</span>' if css else _h(line))
        self.parts.append('<pre class="diff">' + "\n".join(spans) + "</pre>\n")

    def note(self, text: str, css: str) -> None:
        self.parts.append(f'<p class="note {_h(css)}">{_h(text)}</p>\n')

    def divider(self, text: str, css: str) -> None:
        self.parts.append(f'<div class="divider {_h(css)}">{_h(text)}</div>\n')

    def open_details(self, summary: str) -> None:
        self.parts.append(f"<details><summary>{_h(summary)}</summary>\n")

    def close_details(self) -> None:
        self.parts.append("</details>\n")

    def finish(self) -> str:
        head = (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_h(self.title)} · claude-tui</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        )
        return head + "".join(self.parts) + "</body>\n</html>\n"
