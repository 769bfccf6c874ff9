"""An independent count of a session's tokens and cost, to check the core's against on the real corpus.

Written for the tests from the data's rules alone (GUIDE §4): every streamed chunk of an assistant message
repeats its usage, so a message counts once, by its `message.id` across the session's files, with the usage of
its chunk with the most output tokens (the later one of a tie). It shares no code with claude_tui.core, and
claude_tui/core/usage.py above all: a rule broken there breaks the model and the index alike.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

#: Anthropic's list prices of the models in the corpus, USD per million tokens:
#: input, output, a write to the 5-minute cache, a cache read.
PRICES = {
    "claude-fable-5": (10.0, 50.0, 12.50, 1.00),
    "claude-opus-5": (5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-8": (5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-7": (5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-6": (5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-5": (5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-1": (15.0, 75.0, 18.75, 1.50),
    "claude-opus-4": (15.0, 75.0, 18.75, 1.50),
    "claude-sonnet-4-6": (3.0, 15.0, 3.75, 0.30),
    "claude-sonnet-4-5": (3.0, 15.0, 3.75, 0.30),
    "claude-sonnet-4": (3.0, 15.0, 3.75, 0.30),
    "claude-haiku-4-5": (1.0, 5.0, 1.25, 0.10),
}
#: Sonnet 4 and 4.5 bill a request of more than 200k input tokens (cache included) at these rates, all of it.
LONG_PRICES = {"claude-sonnet-4-5": (6.0, 22.50, 7.50, 0.60), "claude-sonnet-4": (6.0, 22.50, 7.50, 0.60)}
#: A write to the 1-hour cache costs twice the input price.
ONE_HOUR = 2.0
_DATE = re.compile(r"-\d{8}$")

#: One message's usage: input, output, cache read, cache write, of which to the 1-hour cache.
Counts = tuple[int, int, int, int, int]


def objects(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of a file, one a line (others skipped)."""
    for line in path.read_bytes().splitlines():
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(value, dict):
            yield value


def subagent_files(path: Path) -> list[Path]:
    """The subagent transcripts of the session file `path`: under its own folder (2.1), and the flat
    `agent-*.jsonl` beside it whose records name its session (2.0)."""
    folder = path.with_suffix("") / "subagents"
    found = sorted(folder.rglob("*.jsonl")) if folder.is_dir() else []
    for flat in sorted(path.parent.glob("agent-*.jsonl")):
        if any(record.get("sessionId") == path.stem for record in objects(flat)):
            found.append(flat)
    return found


def _count(value: Any) -> int:
    return value if type(value) is int and 0 <= value < 10**12 else 0


def _counts(usage: dict[str, Any]) -> Counts:
    written = _count(usage.get("cache_creation_input_tokens"))
    nested = usage.get("cache_creation")
    hour = _count(nested.get("ephemeral_1h_input_tokens")) if isinstance(nested, dict) else 0
    return (
        _count(usage.get("input_tokens")),
        _count(usage.get("output_tokens")),
        _count(usage.get("cache_read_input_tokens")),
        written,
        min(hour, written),
    )


def _answers(records: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The assistant records, those a progress record holds (2.1.7 to 2.1.42) too."""
    for record in records:
        data = record.get("data")
        if record.get("type") == "progress" and isinstance(data, dict) and isinstance(data.get("message"), dict):
            record = data["message"]
        if record.get("type") == "assistant" and isinstance(record.get("message"), dict):
            yield record


def requests(files: Iterable[Path]) -> list[tuple[str, Counts]]:
    """The model (as written; "" for none) and usage of each message of `files`, once per message id."""
    kept: dict[object, tuple[str, Counts]] = {}
    for file in files:
        for n, record in enumerate(_answers(objects(file))):
            message = record["message"]
            if not isinstance(message.get("usage"), dict):
                continue
            counts = _counts(message["usage"])
            key = message["id"] if isinstance(message.get("id"), str) else (file, n)  # no id: each counts
            model = message.get("model") if isinstance(message.get("model"), str) else ""
            before = kept.get(key)
            if before is None:
                kept[key] = (model, counts)
            else:  # the first model named, the counts of the chunk with the most output
                kept[key] = (before[0] or model, counts if counts[1] >= before[1][1] else before[1])
    return list(kept.values())


def tokens(asked: Iterable[tuple[str, Counts]]) -> Counts:
    """The requests' usage summed."""
    sums = [0] * 5
    for _, counts in asked:
        for i, value in enumerate(counts):
            sums[i] += value
    return tuple(sums)  # type: ignore[return-value]


def counts_of(figures: dict[str, int]) -> Counts:
    """The usage counts of a `tokens` figure of `claude-tui stats --json`, in the order of Counts."""
    return tuple(figures[k] for k in ("input", "output", "cache_read", "cache_creation", "cache_creation_1h"))  # type: ignore[return-value]


def cost(asked: Iterable[tuple[str, Counts]]) -> float | None:
    """USD at list price over the requests whose model has one; None when none has."""
    costs = []
    for model, (inp, out, read, written, hour) in asked:
        name = _DATE.sub("", model)
        long = name in LONG_PRICES and inp + read + written > 200_000
        price = (LONG_PRICES if long else PRICES).get(name)
        if price is not None and inp + out + read + written:
            p_in, p_out, p_write, p_read = price
            writes = (written - hour) * p_write + hour * p_in * ONE_HOUR
            costs.append((inp * p_in + out * p_out + writes + read * p_read) / 1e6)
    return math.fsum(costs) if costs else None
