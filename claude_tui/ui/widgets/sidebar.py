"""The sidebar: the project tree over the session list, which share its height by what each holds."""

from __future__ import annotations

from textual import events
from textual.containers import Vertical
from textual.scroll_view import ScrollView
from textual.widget import Widget


def share(budget: int, first: int, second: int) -> tuple[int, int]:
    """The heights of two panes that want `first` and `second` rows, in `budget` rows: each what it wants if both
    fit, else the one that wants less what it wants, up to half, and the other the rest."""
    budget = max(budget, 0)
    if first + second <= budget:
        return first, second
    half = budget // 2
    if first <= half:
        return first, budget - first
    if second <= budget - half:
        return budget - second, second
    return half, budget - half


def wanted(pane: Widget) -> int:
    """The rows that show all of `pane`: its lists' rows, their borders, and its filter box while shown."""
    rows = 0
    for child in pane.children:
        if not child.display:
            continue
        inner = child.virtual_size.height if isinstance(child, ScrollView) else child.outer_size.height
        rows += inner + child.styles.gutter.height
    return rows


class Sidebar(Vertical):
    """Two panes, the project tree's and the session list's, that share the height by what they hold (`share`),
    and what else is under them. With no height of its own (`height: auto`, as when the conversation is under
    it), it takes at most half of its container's, and the panes exactly what `share` gives them; else the
    second pane takes all that the first leaves."""

    def __init__(self, *children: Widget, panes: tuple[str, str], id: str | None = None) -> None:
        # "-unshared" until the first share: the first frame waits for no layout of ours (given here, as a class
        # added on mount has its widgets styled twice before the first frame)
        super().__init__(*children, id=id, classes="-unshared")
        self.panes = panes  #: the ids of the two panes, top first
        self._pending = False

    def on_mount(self) -> None:
        for widget in self.query("*"):  # what each holds, as it changes
            self.watch(widget, "virtual_size", self._later, init=False)
        self._later()

    def on_resize(self, event: events.Resize) -> None:
        self._later()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._later()  # a filter box shown or hidden takes the focus or gives it back

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._later()

    def _later(self, *_: object) -> None:
        if not self._pending:
            self._pending = True
            self.call_after_refresh(self._share)

    def _share(self) -> None:
        self._pending = False
        if not self.display:  # hidden (the conversation zoomed): its panes keep their heights for its return
            return
        top, bottom = (self.query_one(f"#{pane}") for pane in self.panes)
        alone = self.styles.height is not None and self.styles.height.is_auto
        rest = sum(c.outer_size.height for c in self.children if c.display and c not in (top, bottom))
        budget = self.parent.size.height // 2 if alone and isinstance(self.parent, Widget) else self.size.height
        heights = share(budget - rest, wanted(top), wanted(bottom))
        top.styles.height = heights[0]
        self.remove_class("-unshared")
        bottom.styles.height = heights[1] if alone else "1fr"
