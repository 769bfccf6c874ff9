"""Session text made safe to show: control characters turned into visible placeholders.

Session files hold whatever went through a terminal: ANSI colours, OSC titles and
clipboard writes (OSC 52), bells, backspaces, and bidirectional overrides that make a
terminal show text in another order than it is written (a "trojan source" spoof). Shown
raw they would act on the reader's terminal; shown through `visible_controls` they are
inert text. Tool output may keep its SGR sequences (colours, bold) through
`visible_controls_but_sgr`, for the UI to turn them into styles; nothing else in it is left to act.
"""

from __future__ import annotations

import re

#: The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
_BIDI = [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
#: C0 controls (but tab and newline), DEL, C1 controls (8-bit CSI, OSC, ...), bidi controls, CRLF, and the
#: Unicode line and paragraph separators (a terminal shows them as nothing, joining the words either side).
_CONTROLS = re.compile("\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


#: DEL, the C1 and the bidi controls: legal raw in a JSON string, but a terminal would act on them.
_RAW_IN_JSON = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def inert_json(text: str) -> str:
    """JSON text with DEL and the C1 controls written as \\u escapes (JSON allows them raw)."""
    return _RAW_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _placeholder(char: str) -> str:
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode Control Pictures block: ESC -> "␛", BEL -> "␇"
    if code == 0x7F:
        return "␡"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


#: SGR, "select graphic rendition": colours, bold, italic, underline ("\x1b[1;31m"); 7-bit form only.
SGR = re.compile(r"\x1b\[[0-9;]*m")

_PLACEHOLDERS = {"\r\n": "\n", "\u2028": "\n", "\u2029": "\n\n"} | {
    chr(c): _placeholder(chr(c)) for c in (*range(0x20), *range(0x7F, 0xA0), *_BIDI)
}


def visible_controls(text: str) -> str:
    """`text` with every control character but newline and tab replaced by a visible placeholder.

    "\\x1b[31m" becomes "␛[31m", an OSC 52 clipboard write "␛]52;c;...␇", C1 controls
    such as the 8-bit CSI "\\x9b" are written as that escape, a bidi override "\\u202e"; CRLF and U+2028
    become a newline, U+2029 (a paragraph separator) a blank line.
    """
    if _CONTROLS.search(text) is None:
        return text
    return _CONTROLS.sub(lambda m: _PLACEHOLDERS[m.group()], text)


def visible_on_one_line(text: str) -> str:
    """`text` as `visible_controls` shows it, on one line: each line break is shown as "␊"."""
    return visible_controls(text).replace("\n", "␊")


def undecoded(text: str) -> bool:
    """Whether `text` (a file name or an argument, as the OS gave it) holds bytes that were not UTF-8
    (kept by Python as lone surrogates, which no UTF-8 output or database can hold)."""
    return not text.isascii() and any("\udc80" <= c <= "\udcff" for c in text)


def visible_controls_but_sgr(text: str) -> str:
    """As `visible_controls`, but SGR sequences are kept as they are; every other escape is made visible."""
    if "\x1b" not in text:
        return visible_controls(text)
    out: list[str] = []
    pos = 0
    for match in SGR.finditer(text):
        out += (visible_controls(text[pos : match.start()]), match.group())
        pos = match.end()
    out.append(visible_controls(text[pos:]))
    return "".join(out)


def without_sgr(text: str) -> str:
    """`text` with its SGR sequences dropped (for one-line summaries of coloured output)."""
    return SGR.sub("", text) if "\x1b" in text else text


#: The tags Claude Code wraps commands, their output and reminders in.
_CLAUDE_TAGS = re.compile(r"</?(?:local-command-[a-z]+|bash-[a-z]+|command-[a-z]+|system-reminder)>")
#: CSI sequences other than SGR: cursor moves, erasing, screen modes ("\x1b[?2026h", synchronized output).
_CSI_BUT_SGR = re.compile(r"\x1b\[[0-?]*[ -/]*[@-ln-~]")


#: What a terminal acts on rather than shows: CSI sequences (7- and 8-bit), OSC strings (titles, links, the
#: clipboard) up to BEL or ST, and the other escapes ("\x1bc" resets the terminal, "\x1b(B" picks a charset).
_ESCAPES = re.compile(r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]")
_BIDI_CHARS = "".join(map(chr, _BIDI))
_BIDI_RE = re.compile(f"[{_BIDI_CHARS}]")


def searchable(text: str) -> str:
    """`text` as words to index and find: without the escape sequences and bidi controls around them
    (coloured output's "\x1b[31mFAILED\x1b[0m" is the word FAILED, as a terminal shows it)."""
    if "\x1b" in text or "\x9b" in text:
        text = _ESCAPES.sub("", text)
    if not text.isascii() and any(c in text for c in _BIDI_CHARS):
        text = _BIDI_RE.sub("", text)
    return text


def command_output(text: str) -> str:
    """What a slash command printed (Claude Code keeps its own screen output, /context's for one): without
    Claude Code's tags and the CSI sequences that drew its screen; SGR colours are kept, for styles."""
    return _CLAUDE_TAGS.sub(" ", _CSI_BUT_SGR.sub("", text) if "\x1b" in text else text)


def without_markup(text: str) -> str:
    """`text` without escape sequences of its terminal and Claude Code's tags: a quiet row's words (a hook,
    a command and its output)."""
    return without_sgr(command_output(text))


def folded(text: str, limit: int) -> str:
    """`text` on one line (whitespace collapsed), at most `limit` characters: a cut one ends with "…"."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
