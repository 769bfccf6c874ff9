"""A name typed in the project tree or the session list whose first letters are the list's own moves.

A letter that nothing binds starts the list's filter; a letter bound to a move (j, k, g, G) moves. Typed right
before a filter starts, those letters may be the start of a name: `gemini` made `g` jump to the top and the
filter `emini`. So the moves' letters typed just before (no other key between) begin the filter when, with
them, it shows a row: `gemini` filters by `gemini` (a move needs no undoing: the filter puts the cursor on a
row it shows). Should the filter, typed on, show no row with them and some without (`G`, the last row, then
`report`: `grep` matched, `greport` does not), it goes on without them. The list's other letters (s sorts, a
shows empty sessions) act as they say, and end the run."""

from __future__ import annotations

from typing import Protocol


class Filtered(Protocol):
    """A list with a filter: the tree or the session list."""

    def matches(self, text: str) -> bool:
        """Whether a filter of `text` shows any row."""
        ...


class TypedName:
    """The moves' letters typed just before, in one list; then those the filter took, while it may give them back."""

    def __init__(self) -> None:
        self._pane: Filtered | None = None
        self._letters = ""
        self._given: tuple[Filtered, str] | None = None

    def clear(self) -> None:
        """Another key came: the letters before it start no name."""
        self._pane, self._letters = None, ""

    def moved(self, pane: Filtered, letter: str) -> None:
        """`letter`, bound to a move in `pane`, is about to move."""
        if pane is not self._pane:
            self.clear()
        self._pane = pane
        self._letters += letter

    def start(self, pane: Filtered, letter: str) -> str:
        """The text that a filter started by `letter` in `pane` begins with."""
        letters = self._letters if pane is self._pane else ""
        self.clear()
        self._given = (pane, letters) if letters and pane.matches(letters + letter) else None
        return letters + letter if self._given else letter

    def without_letters(self, pane: Filtered, value: str) -> str | None:
        """The filter `value` without the letters `start` gave it, if it shows no row with them and some
        without; else None (it stays as it is)."""
        if self._given is None or self._given[0] is not pane:
            return None
        letters = self._given[1]
        if not value.startswith(letters):  # edited away
            self._given = None
            return None
        rest = value[len(letters) :]
        if pane.matches(value) or not pane.matches(rest):
            return None
        self._given = None
        return rest
