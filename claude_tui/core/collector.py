"""The cycle collector, paused while tens of thousands of objects are made at once.

A session's records, an index's file list, a history's usage sums: what they make holds no cycles worth
collecting, and the collector's passes over so many new containers cost a third of the time it takes to make them.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cycle collector for the block (it stays paused if it was; threads may nest it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
