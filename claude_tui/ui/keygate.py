"""Keys one at a time: each key is routed once the key before it has been handled, as when typed slowly.

Textual routes a key to the focused widget at once, and runs the bindings when the key has bubbled back up to
the app. Keys typed fast (`ctrl+k needle` in one go, keys over SSH, a paste of keys) were routed to the focus
of before: `needle` went to the session list's filter while ctrl+k made its way up (and ctrl+k then found the
filter box focused, and deleted in it), or to the search screen being opened, which had no widget focused yet
and dropped them.

The gate holds each key until the one before it is handled. A callback queued behind the key in each node it
goes through says when the node is done with it; queued once more there, it waits for what the node's handling
queued on itself (an Input's Changed, which bubbles on up the same way), then goes on to the parent, up to the
app, where the bindings run; and then up once more from where the key was sent, behind what the bindings queued
(Enter on a row: the message that opens its full view). Each wait is behind the key, not behind the rest of a
node's work. A screen shown by the key must have handled its ScreenResume (its focus), and be `filled` if it
fills in later (its content read in a worker: it says so with a ScreenFilled). A key bound to a move that
changes neither the focus nor the screen (an action its widget names in MOVES: j, G, PgDn) is followed too,
but the next key need not wait for it: a held j, or keys during a long read, go as fast as before.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from textual import events
from textual.app import App
from textual.dom import DOMNode
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer

#: Seconds between two looks at where a key is followed, in case that node was taken out of the app with the
#: key's callback in its queue: the keys go on then, never stuck behind it.
WATCH_EVERY = 0.5
#: Seconds at most that keys wait for a screen to be filled.
FILL_WAIT = 3.0


class ScreenFilled(Message):
    """Posted to the app by a screen whose content comes after it opens, once it is there (its `filled`)."""

    def __init__(self, screen: Screen[Any]) -> None:
        super().__init__()
        self.screen = screen


@dataclass(eq=False)
class _Climb:
    """A key followed up through the nodes it goes through."""

    key: events.Key
    target: DOMNode  #: where it was sent
    rounds: int = 2  #: the ways up it is yet to be followed
    at: DOMNode | None = None  #: where its callback waits


class KeyGate:
    """The app's keys, routed in order, each once the one before it is handled and the screen it left is ready."""

    def __init__(self, app: App[Any], route: Callable[[events.Key], Awaitable[None]]) -> None:
        self._app, self._route = app, route
        self._held: deque[events.Key] = deque()
        self._climbs: set[_Climb] = set()  #: the keys sent and not handled yet
        self._blocking: _Climb | None = None  #: of those, the one the next key waits for
        self._opening: Screen[Any] | None = None  #: a screen shown that is not ready yet
        self._resumed: Screen[Any] | None = None  #: the last screen shown that has handled its ScreenResume
        self._filling = 0.0  #: since when the keys wait for it to be filled (monotonic)
        self._watch: Timer | None = None

    @property
    def busy(self) -> bool:
        """Whether a key is being handled or a screen is opening: a key that comes now waits."""
        return self._blocking is not None or self._opening is not None

    @property
    def idle(self) -> bool:
        """Whether every key that came has been handled."""
        return not self.busy and not self._held and not self._climbs

    async def take(self, key: events.Key) -> None:
        """A key from the terminal: routed now, or held until the keys before it are handled."""
        if self.busy or self._held:
            self._held.append(key)
        else:
            await self._send(key)

    def screen_changed(self, screen: Screen[Any]) -> None:
        """A screen was pushed, popped or switched to: keys wait until it has handled its ScreenResume (which
        gives it its focus), queued before this, and is filled."""
        self._opening, self._resumed = screen, None
        if not screen.call_later(self._opened, screen):
            self._opened(screen)

    def filled(self, screen: Screen[Any]) -> None:
        """`screen` has the content it fills in later (a ScreenFilled)."""
        if self._opening is screen and self._resumed is screen:
            self._open()

    # ---------------------------------------------------------------- one key

    async def _send(self, key: events.Key) -> None:
        app = self._app
        climb = _Climb(key, app.focused or app.screen)
        moving = _moves(app.screen, key)
        self._climbs.add(climb)
        if not moving:
            self._blocking = climb
        if self._watch is None:
            self._watch = app.set_interval(WATCH_EVERY, self._look)
        await self._route(key)  # the app's own: its priority bindings, then on to the target
        self._behind(climb, climb.target, self._handled_by)
        if moving:  # changes neither the focus nor the screen: the next key may follow it at once
            app.call_later(self._release)

    def _behind(self, climb: _Climb, node: DOMNode, then: Callable[[_Climb, DOMNode], object]) -> None:
        """`then(climb, node)` once `node` has handled what it has queued now (at once, if it takes no more)."""
        climb.at = node
        if not node.call_later(then, climb, node):
            self._app.call_later(then, climb, node)

    def _handled_by(self, climb: _Climb, node: DOMNode) -> None:
        """`node` is done with the key: then with what its handling queued on itself."""
        self._behind(climb, node, self._passed)

    def _passed(self, climb: _Climb, node: DOMNode) -> None:
        """The key has gone through `node`: on up to its parent, where it bubbled; from the app, up once more."""
        if climb not in self._climbs:
            return  # gone on without this callback (its node was taken out)
        climb.rounds -= node.parent is None
        if node.parent is not None or climb.rounds:
            self._behind(climb, node.parent or climb.target, self._handled_by)
        else:
            self._handled(climb)

    def _handled(self, climb: _Climb) -> None:
        self._climbs.discard(climb)
        if climb is not self._blocking:
            return
        self._blocking = None
        screen = self._app.screen
        if not getattr(screen, "filled", True) and self._opening is None:  # it fills again (another mode)
            self._opening, self._resumed, self._filling = screen, screen, time.monotonic()
        self._app.call_later(self._release)

    # ---------------------------------------------------------------- screens

    def _opened(self, screen: Screen[Any]) -> None:
        """`screen` has handled its ScreenResume: ready, unless it is still to be filled."""
        if self._opening is screen:
            self._resumed, self._filling = screen, time.monotonic()
            if getattr(screen, "filled", True):
                self._open()

    def _open(self) -> None:
        self._opening = None
        self._app.call_later(self._release)  # on the app, behind the focus() the screen's ScreenResume queued there

    async def _release(self) -> None:
        """Route the next key held, if the gate is open."""
        if self._held and not self.busy:
            await self._send(self._held.popleft())

    async def _look(self) -> None:
        """Where the keys wait: a node taken out of the app (its queue with it) lets them go on, as does a screen
        not filled after FILL_WAIT (its read may fail without a word). Not a node that has not started yet: a
        screen being composed on a busy machine takes its keys once it is ready."""
        app = self._app
        if (opening := self._opening) is not None:
            unfilled = opening is self._resumed and time.monotonic() - self._filling > FILL_WAIT
            if unfilled or opening not in app.screen_stack:
                self._opening = None
        for climb in list(self._climbs):
            if climb.at is not None and climb.at is not app and not climb.at.is_attached:
                app.call_later(self._passed, climb, climb.at)
        if self.idle and self._watch is not None:
            self._watch.stop()
            self._watch = None
        await self._release()


def _moves(screen: Screen[Any], key: events.Key) -> bool:
    """Whether `key` is bound to a move that changes neither the focus nor the screen: an action that the widget
    it is bound on names in its MOVES (j in the conversation, the list, a full view)."""
    bound = screen.active_bindings.get(key.key)
    if bound is None or not bound.enabled:
        return False
    return bound.binding.action.partition("(")[0] in getattr(bound.node, "MOVES", ())
