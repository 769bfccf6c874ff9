"""The project tree: projects by real path, worktrees under their repository, newest first."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from claude_tui.core.facts import split_path
from claude_tui.ui.palette import few_colors
from claude_tui.ui.text import one_line
from claude_tui.ui.widgets.sessions import in_place

if TYPE_CHECKING:
    from claude_tui.core.library import Project


class ProjectTree(Tree["Project | None"]):
    """Projects with their session counts and a live marker; filtered by `set_filter`."""

    #: Its bindings' moves, which change neither the focus nor the screen (see keygate.py).
    MOVES = frozenset({"cursor_down", "cursor_up", "scroll_home", "scroll_end"})
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="projects.down"),
        Binding("k", "cursor_up", "Up", show=False, id="projects.up"),
        Binding("g", "scroll_home", "First", show=False, id="projects.first"),
        Binding("G", "scroll_end", "Last", show=False, id="projects.last"),
        Binding("enter", "screen.open_row('projects')", "Open", show=False, id="projects.open"),  # see SessionList
    ]

    class ProjectChosen(Message):
        """The cursor rests on a project (or on nothing)."""

        def __init__(self, project: Project | None) -> None:
            super().__init__()
            self.project = project

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("Projects"), id=id)  # Text: a str would be parsed as markup (and load rich's emoji)
        self.show_root = False
        self.guide_depth = 2
        self.projects: list[Project] = []
        self.filter_text = ""
        self.note = ""  #: what the tree says when it has no project at all (once the projects are read)
        self.show_quiet = False  #: empty and warmup sessions counted (when the session list shows them)
        self._chosen: Project | None = None
        self._twins: set[str] = set()

    def set_projects(self, projects: list[Project], chosen: Project | None = None, *, keep_places: bool = True) -> None:
        """Show `projects` (most recent first), keeping the cursor on `chosen` or the current one; with
        `keep_places`, those already shown keep their places while the tree has the focus."""
        keep = keep_places and self.has_focus
        self.projects = in_place(projects, self.projects, lambda p: p.path) if keep else projects
        if chosen is not None:
            self._chosen = chosen
        self._rebuild()

    def set_show_quiet(self, show: bool) -> None:
        """Count empty and warmup sessions too, or not (as the session list shows them)."""
        self.show_quiet = show
        self._rebuild()

    def set_filter(self, text: str) -> None:
        if text.strip().lower() != self.filter_text:
            self.filter_text = text.strip().lower()
            self._rebuild()

    @property
    def chosen(self) -> Project | None:
        return self._chosen

    def _rebuild(self) -> None:
        with self.prevent(Tree.NodeHighlighted):  # rebuilding is not the user choosing
            self._fill()

    def _fill(self) -> None:
        self.clear()
        wanted = self._chosen.path if self._chosen is not None else None
        by_path = {p.path: p for p in self.projects}
        worktrees: dict[str, list[Project]] = {}
        for project in self.projects:
            if project.repo and project.repo != project.path:
                worktrees.setdefault(project.repo, []).append(project)
        target: TreeNode[Project | None] | None = None
        emitted: set[str] = set()
        heads = [split_path(repo)[1] for repo in worktrees if repo not in by_path]  # shown dim, by name
        names = Counter([p.name for p in self.projects] + heads)
        self._twins = {name for name, count in names.items() if count > 1}
        for project in self.projects:  # a repository is placed where its newest worktree or itself falls
            head = project.repo if project.repo and project.repo != project.path else project.path
            if head in emitted:
                continue
            emitted.add(head)
            owner = by_path.get(head)
            kids = [k for k in worktrees.get(head, []) if self._matches(k)]
            if not kids and (owner is None or not self._matches(owner)):
                continue
            label = self._label(owner) if owner is not None else self._head_label(head)
            if not kids:
                node = self.root.add_leaf(label, owner)
            else:
                node = self.root.add(label, owner, expand=True)
                for kid in kids:
                    leaf = node.add_leaf(self._label(kid, worktree=True), kid)
                    target = leaf if kid.path == wanted else target
            target = node if owner is not None and owner.path == wanted else target
        if target is None:  # the chosen project is filtered out: the first one shown
            target = next((n for n in self._rows() if n.data is not None), None)
        if not self.root.children and self.filter_text:
            self.root.add_leaf(Text(f"No project matches “{one_line(self.filter_text, 40)}”", "dim"), None)
        elif not self.projects and self.note:
            self.root.add_leaf(Text(self.note, "dim"), None)
        if target is not None:
            self._to_target(target)

    def _rows(self) -> list[TreeNode[Project | None]]:
        """The nodes in the order shown."""
        return [node for top in self.root.children for node in (top, *top.children)]

    def _to_target(self, target: TreeNode[Project | None]) -> None:
        """The cursor to the rebuilt tree's chosen node now: a key typed next moves from there (it moved from a row
        the drawing then took the cursor back from); the node is chosen if a filter moved it there. Its row is
        scrolled into view once the tree is drawn."""
        if self.last_line < 0:  # (which lays the rows out: each node has its line from then on)
            return
        self.move_cursor(target)  # no NodeHighlighted: the rebuild's prevent holds
        self._choose(target.data)
        self.call_after_refresh(lambda: self.scroll_to_line(self.cursor_line, animate=False))

    def _choose(self, project: Project | None) -> None:
        if project is not None and (self._chosen is None or project.path != self._chosen.path):
            self._chosen = project
            self.post_message(self.ProjectChosen(project))

    def matches(self, text: str) -> bool:
        """Whether a filter of `text` shows any project."""
        return any(self._matches(p, text.strip().lower()) for p in self.projects)

    def _matches(self, project: Project, text: str | None = None) -> bool:
        text = self.filter_text if text is None else text
        return not text or text in project.name.lower() or text in project.path.lower()

    def _label(self, project: Project, worktree: bool = False) -> Text:
        every, shown = project.counted()
        count = every if self.show_quiet else shown
        label = Text()
        if worktree:
            label.append("⎇ ", "dim")
        label.append(one_line(project.name, 200))
        label.append(f"  {count}", "dim")
        self._add_where(label, project.path)
        if project.live:
            label.append(" ●", "green")
        return label

    def _head_label(self, repo: str) -> Text:
        """A repository that is no project of its own, shown (dim) for its worktrees."""
        label = Text(one_line(split_path(repo)[1], 200), "dim")
        self._add_where(label, repo)
        return label

    def _add_where(self, label: Text, path: str) -> None:
        """Two rows of one name: each says where it is."""
        parent, name = split_path(path)
        if name in self._twins:
            label.append(f"  {one_line(parent, 80)}", "dim italic")

    def render_label(self, node: TreeNode[Project | None], base_style: Style, style: Style) -> Text:
        """The label cut with an ellipsis to the width left of its row (a long path or name)."""
        label = super().render_label(node, base_style, style)
        if node is self.cursor_node and few_colors(self.app):  # one pair of colours: see palette.cursor_row
            label = Text(label.plain, base_style + style)
        width = self._room(node)
        if width > 0:
            label.truncate(width, overflow="ellipsis")
        return label

    def get_label_width(self, node: TreeNode[Project | None]) -> int:
        """The width of `node`'s label as `render_label` draws it, without drawing it: Tree measures every row at
        each rebuild (for its width), and only the rows on screen are drawn."""
        icon = (self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE) if node.allow_expand else ""
        width, room = cell_len(icon) + cell_len(str(node.label)), self._room(node)
        return min(width, room) if room > 0 else width

    def _room(self, node: TreeNode[Project | None]) -> int:
        """The cells left of the tree's width for the label of `node`, after its guides."""
        depth, parent = 0, node.parent
        while parent is not None and parent is not self.root:
            depth, parent = depth + 1, parent.parent
        return self.scrollable_content_region.width - depth * self.guide_depth

    def on_resize(self) -> None:
        """Another height (the terminal resized): the cursor's row stays in view."""
        self.call_after_refresh(self.scroll_to_line, self.cursor_line, animate=False)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Project | None]) -> None:
        """The user moved the cursor: its project is chosen. A highlight the user did not make chooses nothing:
        one that comes late, of a node the cursor has left or a rebuild has dropped (busy, the index lists
        projects as it reads them), or the tree's own, while the focus is elsewhere (the cursor put back on a
        row once the rebuilt tree is laid out: it replaced a session named on the command line)."""
        event.stop()
        if event.node is self.cursor_node and self.has_focus:
            self._choose(event.node.data)

    def choose_cursor(self) -> Project | None:
        """The project under the cursor, now chosen; None on a row of no project."""
        project = self.cursor_node.data if self.cursor_node is not None else None
        self._choose(project)
        return project
