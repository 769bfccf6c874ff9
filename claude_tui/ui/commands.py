"""Command palette: jump to any project or session by name."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

from claude_tui.ui.widgets.sessions import title_of

if TYPE_CHECKING:
    from claude_tui.ui.app import ClaudeTUI

#: Hits offered per search, at most.
MAX_HITS = 60


class HistoryProvider(Provider):
    """Projects and sessions of the library, matched by name, title, first prompt or branch."""

    def _candidates(self) -> list[tuple[str, str, object, object]]:
        app: ClaudeTUI = self.app  # type: ignore[assignment]
        out: list[tuple[str, str, object, object]] = []
        for project in app.projects:
            out.append((f"project  {project.name}", project.path, app.choose_project, project))
            for info in project.sessions:
                if info.empty or info.warmup:
                    continue
                text = f"session  {title_of(info)}"
                help_text = f"{project.name} · {app.clock.ago(info.ended or info.started)}"
                if info.branch:
                    help_text += f" · {info.branch}"
                out.append((text, help_text, app.choose_session, info))
        return out

    async def discover(self) -> Hits:
        for text, help_text, callback, item in self._candidates()[:12]:
            yield DiscoveryHit(text, partial(callback, item), help=help_text)  # type: ignore[operator]

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        found = 0
        for text, help_text, callback, item in self._candidates():
            score = matcher.match(f"{text} {help_text}")
            if score > 0:
                yield Hit(score, matcher.highlight(text), partial(callback, item), help=help_text)  # type: ignore[operator]
                found += 1
                if found >= MAX_HITS:
                    return
