"""Han ideographs and kana, scripts written without spaces: the index keeps each such character a word of its own,
and a query looks it up so (search checks the characters are adjacent)."""

from __future__ import annotations

import functools
import re

#: Han ideographs and kana (with their marks, halfwidth forms and compatibility ideographs): scripts
#: written without spaces, which the index's tokenizer would keep as one word per run of them.
CJK_CHARS = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"


@functools.cache
def _cjk() -> re.Pattern[str]:
    """One CJK character; compiled on first use, as its ranges take milliseconds to compile."""
    return re.compile(f"([{CJK_CHARS}])")


def has_cjk(text: str) -> bool:
    """Whether `text` holds a CJK character (ASCII text, the usual case, is answered at once)."""
    return not text.isascii() and _cjk().search(text) is not None


def spaced_cjk(text: str) -> str:
    """`text` with each CJK character a word of its own: how the index keeps it, and how a query
    looks it up, so that any run of such characters can be found (search checks they are adjacent)."""
    return text if text.isascii() else _cjk().sub(r" \1 ", text)
