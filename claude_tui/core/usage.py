"""Tokens and cost.

Every streamed chunk of an assistant message repeats its usage, so usage is
counted once per `message.id` (the chunk with the largest `output_tokens`, the last of
those: see `replaces`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

#: Anthropic list prices in USD per million tokens, from its pricing page and model pages (platform.claude.com)
#: as of 2026-11-28: (input, output, 5-minute cache write, cache read). Matched by model-name prefix, longest
#: first, never across a version number: `claude-opus-4` prices `claude-opus-4-20250514`, not `claude-opus-4-9`.
#: A write to the 1-hour cache costs ONE_HOUR_WRITE times the input price. Left out, so unpriced rather than
#: wrong: models whose price depends on more than the model (Haiku 5.5's by prompt length, Sonnet 5.5's cache
#: read by date, Fable 5.1's with a footnote).
PRICES: dict[str, tuple[float, float, float, float]] = {
    "claude-fable-5": (10.0, 50.0, 12.50, 1.00),
    "claude-opus-5-5": (4.0, 20.0, 5.0, 0.20),
    "claude-opus-5": (5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-8": (5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-7": (5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-6": (5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-5": (5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-1": (15.0, 75.0, 18.75, 1.50),
    "claude-opus-4": (15.0, 75.0, 18.75, 1.50),
    "claude-sonnet-5": (2.0, 10.0, 2.50, 0.20),
    "claude-sonnet-4-6": (3.0, 15.0, 3.75, 0.30),
    "claude-sonnet-4-5": (3.0, 15.0, 3.75, 0.30),
    "claude-sonnet-4": (3.0, 15.0, 3.75, 0.30),
    "claude-3-7-sonnet": (3.0, 15.0, 3.75, 0.30),
    "claude-3-5-sonnet": (3.0, 15.0, 3.75, 0.30),
    "claude-haiku-4-5": (1.0, 5.0, 1.25, 0.10),
    "claude-3-5-haiku": (0.80, 4.0, 1.0, 0.08),
    "claude-3-opus": (15.0, 75.0, 18.75, 1.50),
    "claude-3-haiku": (0.25, 1.25, 0.30, 0.03),
}
ONE_HOUR_WRITE = 2.0
#: Sonnet 4 and 4.5 bill a request whose input (input, cache read and cache write tokens) is over LONG_CONTEXT
#: tokens at long-context rates, all of its tokens: twice the input price (the cache at the same multiples of it)
#: and 1.5 times the output price (Anthropic's pricing page, "Long context pricing"). Later models have none.
LONG_CONTEXT = 200_000
LONG_PRICES: dict[str, tuple[float, float, float, float]] = {
    "claude-sonnet-4-5": (6.0, 22.50, 7.50, 0.60),
    "claude-sonnet-4": (6.0, 22.50, 7.50, 0.60),
}
#: Added to the model of a request billed at long-context rates: its usage is summed and priced apart.
LONG_MARK = " (long context)"
#: Added to the model of a request run in fast mode (`usage.speed: "fast"`): left unpriced, its usage apart.
#: Fast mode's rates are a multiple of the model's that Anthropic's docs give differently by model and by date
#: (6x for Opus 4.6, 2x for Opus 4.8 and 5, 12x over 200k input tokens at first): unpriced rather than wrong.
FAST_MARK = " (fast mode)"
#: Web search, a server tool, costs $10 per 1,000 searches beyond its tokens (Anthropic's pricing page, "Web
#: search"); web fetch costs only the tokens of what it read.
WEB_SEARCH_USD = 10.0 / 1000
_PREFIXES = sorted(PRICES, key=len, reverse=True)
_DATE_SUFFIX = re.compile(r"-\d{8}$")
_NEXT_VERSION = re.compile(r"[-.]?\d")
#: Bedrock's `us.anthropic.` (any region, or none) and a router's `anthropic/` before a model id.
_CLOUD_PREFIX = re.compile(r"^(?:[a-z]+(?:-[a-z]+)?\.)?anthropic[./]", re.IGNORECASE)
#: Bedrock's `-v1:0` after it, or Vertex AI's `@20250929` (after a `-v2` for some) for its date.
_CLOUD_SUFFIX = re.compile(r"-v\d+(?::\d+)?$|(?:-v\d+)?@(\d{8})$", re.IGNORECASE)


def anthropic_id(model: str) -> str:
    """A model id of Amazon Bedrock or Google Vertex AI as Anthropic's API names the model
    (`us.anthropic.claude-sonnet-4-5-20250929-v1:0`, `claude-sonnet-4-5@20250929`: `claude-sonnet-4-5-20250929`);
    other ids unchanged."""
    name = _CLOUD_PREFIX.sub("", model)
    return _CLOUD_SUFFIX.sub(lambda m: f"-{m[1]}" if m[1] else "", name)


@lru_cache(maxsize=256)
def _family(model: str | None) -> str | None:
    """The key of PRICES that prices `model`, or None for a model we do not know (and `<synthetic>`); a history
    names few models, so each is looked up once."""
    if not model:
        return None
    name = _DATE_SUFFIX.sub("", anthropic_id(model.lower()))
    return next((p for p in _PREFIXES if name.startswith(p) and not _NEXT_VERSION.match(name, len(p))), None)


def price_for(model: str | None) -> tuple[float, float, float, float] | None:
    """The price row of `model` (a key of `priced_as`: long-context rates when it says so), or None for a model
    we do not know, and for fast mode."""
    if model and model.endswith(FAST_MARK):
        return None
    name = model_of(model)
    family = _family(name)
    return (PRICES if name == model else LONG_PRICES).get(family) if family else None


def priced_as(model: str | None, tokens: Tokens) -> str | None:
    """The key one request's usage is summed and priced under: its model, marked when it ran in fast mode or is
    billed at long-context rates."""
    if model and tokens.fast:
        return model + FAST_MARK
    if model and tokens.context > LONG_CONTEXT and _family(model) in LONG_PRICES:
        return model + LONG_MARK
    return model


def model_of(key: str | None) -> str | None:
    """The model of a `priced_as` key."""
    return key.removesuffix(LONG_MARK).removesuffix(FAST_MARK) if key else key


@dataclass(slots=True)
class Tokens:
    """Token counts of one message or a sum of messages."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_creation: int = 0
    cache_creation_1h: int = 0  #: of cache_creation, written to the 1-hour cache (priced higher)
    web_searches: int = 0  #: web search requests (server_tool_use.web_search_requests), priced per search
    fast: int = 0  #: requests run in fast mode (usage.speed "fast"): one, for one request's usage

    @property
    def total(self) -> int:
        return self.input + self.output + self.cache_read + self.cache_creation

    @property
    def context(self) -> int:
        """The input of the request: what the long-context rates are reckoned on."""
        return self.input + self.cache_read + self.cache_creation

    def add(self, other: Tokens) -> None:
        self.input += other.input
        self.output += other.output
        self.cache_read += other.cache_read
        self.cache_creation += other.cache_creation
        self.cache_creation_1h += other.cache_creation_1h
        self.web_searches += other.web_searches
        self.fast += other.fast

    def less(self, other: Tokens) -> Tokens:
        """These counts less `other`'s (a part of their sum)."""
        return Tokens(
            self.input - other.input,
            self.output - other.output,
            self.cache_read - other.cache_read,
            self.cache_creation - other.cache_creation,
            self.cache_creation_1h - other.cache_creation_1h,
            self.web_searches - other.web_searches,
            self.fast - other.fast,
        )

    def cost(self, model: str | None) -> float | None:
        """USD at list price of `model` (a `priced_as` key), or None when the model is not in the table."""
        price = price_for(model)
        if price is None:
            return None
        p_in, p_out, p_write, p_read = price
        one_hour = self.cache_creation_1h
        writes = (self.cache_creation - one_hour) * p_write + one_hour * p_in * ONE_HOUR_WRITE
        tokens = (self.input * p_in + self.output * p_out + writes + self.cache_read * p_read) / 1e6
        return tokens + self.web_searches * WEB_SEARCH_USD

    def as_dict(self) -> dict[str, int]:
        return {
            "input": self.input,
            "output": self.output,
            "cache_read": self.cache_read,
            "cache_creation": self.cache_creation,
            "cache_creation_1h": self.cache_creation_1h,
        }


def usage_counts(usage: dict[str, Any]) -> tuple[int, int, int, int, int, int, int]:
    """(input, output, cache read, cache write, of which to the 1-hour cache, web searches, 1 in fast mode) of a
    message's usage. What is not a count (see `unreadable_usage`) counts as 0, as does a count not written."""
    i, o, r, c, h, s = _raw_counts(usage)
    if not _all_counts(i, o, r, c, h, s):  # rare: some count is absent, or damaged
        i, o, r, c, h, s = _count(i), _count(o), _count(r), _count(c), _count(h), _count(s)
    return i, o, r, c, min(h, c), s, int(usage.get("speed") == "fast")


def read_usage(usage: Any) -> tuple[Tokens | None, str | None]:
    """A message's usage as tokens (None when it is no object), and what in it is not a count (see
    `unreadable_usage`): the usual usage, all counts, is read in one pass."""
    if type(usage) is not dict:
        return None, None
    i, o, r, c, h, s = _raw_counts(usage)
    if _all_counts(i, o, r, c, h, s):
        return Tokens(i, o, r, c, h if h < c else c, s, 1 if usage.get("speed") == "fast" else 0), None
    return Tokens(*usage_counts(usage)), unreadable_usage(usage)


def unreadable_usage(usage: Any) -> str | None:
    """The first part of a message's usage that is not a token count, as a problem note names it (`usage
    output_tokens '759'`); None when there is none. A count is an int (not a bool) from 0 to below MAX_TOKENS;
    one that is absent or null is no count, and no problem; nor is a usage that is no object (no counts at all)."""
    if type(usage) is not dict:
        return None
    values = _raw_counts(usage)
    if _all_counts(*values):
        return None
    names = (*_FIELDS, "cache_creation.ephemeral_1h_input_tokens", "server_tool_use.web_search_requests")
    named = zip(names, values, strict=True)
    return next((f"usage {name} {repr(value)[:40]}" for name, value in named if not _readable(value)), None)


#: A count this big or more is damage, not tokens: a request holds a few million at most.
MAX_TOKENS = 10**12
_FIELDS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


def _raw_counts(usage: dict[str, Any]) -> tuple[Any, Any, Any, Any, Any, Any]:
    """The counts of a usage as written (None where absent): the four of _FIELDS, the 1-hour part of the cache
    writes, then the web searches (any other shape of `cache_creation` or `server_tool_use` gives none)."""
    get = usage.get
    nested = get("cache_creation")
    server = get("server_tool_use")
    return (
        get("input_tokens"),
        get("output_tokens"),
        get("cache_read_input_tokens"),
        get("cache_creation_input_tokens"),
        nested.get("ephemeral_1h_input_tokens") if type(nested) is dict else 0,
        server.get("web_search_requests") if type(server) is dict else 0,
    )


def _all_counts(i: Any, o: Any, r: Any, c: Any, h: Any, s: Any) -> bool:
    """Whether all six are counts (ints from 0 to below MAX_TOKENS): the usual case, told at once."""
    return (
        type(i) is type(o) is type(r) is type(c) is type(h) is type(s) is int
        and 0 <= i < MAX_TOKENS
        and 0 <= o < MAX_TOKENS
        and 0 <= r < MAX_TOKENS
        and 0 <= c < MAX_TOKENS
        and 0 <= h < MAX_TOKENS
        and 0 <= s < MAX_TOKENS
    )


def _readable(value: Any) -> bool:
    """Whether a usage count as written is one, or none."""
    return value is None or (type(value) is int and 0 <= value < MAX_TOKENS)


def _count(value: Any) -> int:
    """A usage count as written; 0 for none, and for what is not one."""
    return value if value is not None and _readable(value) else 0


def replaces(output: int, kept_output: int) -> bool:
    """Whether a streamed chunk's usage, with `output` tokens, replaces the one kept for its message.

    Every chunk repeats the message's usage so far; the later ones carry the final counts, so the
    chunk with the most output tokens wins, and of those the latest. The model and the index both
    count by this rule.
    """
    return output >= kept_output


@dataclass(slots=True)
class UsageTotal:
    """Tokens and cost summed over messages; cost only over models with a known price."""

    tokens: Tokens
    cost: float | None = None
    unpriced_models: frozenset[str] = frozenset()

    @classmethod
    def of(cls, items: list[tuple[str | None, Tokens]]) -> UsageTotal:
        return cls.of_models(by_model(items))

    @classmethod
    def of_models(cls, tokens_by_model: dict[str | None, Tokens]) -> UsageTotal:
        """The total of per-model sums; the cost the same in whatever order the models come."""
        total, costs, unpriced = Tokens(), [], set()
        for model, tokens in tokens_by_model.items():
            total.add(tokens)
            c = tokens.cost(model)
            if c is None:
                unpriced.add(model or "unknown")
            else:
                costs.append(c)
        return cls(total, math.fsum(costs) if costs else None, frozenset(unpriced))


def other_models(usage: dict[str | None, Tokens], own: Iterable[str]) -> list[str]:
    """The models of `usage` (keyed by `priced_as`) not in `own`, the one that wrote the most output first (in
    ties, by name); unnamed ones and `<synthetic>` left out."""
    output: dict[str, int] = {}
    for key, tokens in usage.items():
        model = model_of(key)
        if model and model != "<synthetic>" and model not in own:
            output[model] = output.get(model, 0) + tokens.output
    return sorted(output, key=lambda model: (-output[model], model))


def most_used_first(models: list[str], output: Mapping[str | None, int]) -> list[str]:
    """`models` with the one that wrote the most output tokens first (in ties, the first seen); `output` is keyed
    by `priced_as`: how the list, the facts pane and the header order a session's models."""
    written: dict[str | None, int] = {}
    for key, count in output.items():
        written[model_of(key)] = written.get(model_of(key), 0) + count
    return sorted(models, key=lambda model: -written.get(model, 0))


def by_model(items: Iterable[tuple[str | None, Tokens]]) -> dict[str | None, Tokens]:
    """Tokens summed per model (per `priced_as` key); messages that used none left out."""
    sums: dict[str | None, Tokens] = {}
    for model, tokens in items:
        if tokens.total:
            sums.setdefault(model, Tokens()).add(tokens)
    return sums
