"""The front page: the first frame's projects and sessions, saved beside the index and read back at start-up
without reading every session (core/front.py, ui/prefetch.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.core import front
from claude_tui.core.library import FRONT_NAME, Library
from claude_tui.ui.prefetch import Prefetch
from tests.library_data import Writer, encode, simple_project


def history(root: Path, sessions: int) -> None:
    """An old project, and a newer one of `sessions` sessions, a warmup among them (quiet: not counted)."""
    simple_project(root, cwd="/home/u/old", sessions=2, start=0)
    simple_project(root, cwd="/home/u/big", sessions=sessions, start=10_000)
    warm = Writer("warm", cwd="/home/u/big", start=9_000)
    warm.prompt("Warmup")
    warm.answer()
    warm.write(root / encode("/home/u/big"))


def test_the_front_has_every_project_with_its_counts_and_the_newest_sessions(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    history(root, front.ROWS + 20)
    lib = Library([root], tmp_path / "cache")
    lib.refresh()
    early = Library([root], tmp_path / "cache").front()  # as the next start reads it
    assert early is not None
    assert [(p.path, p.name, p.repo) for p in early] == [(p.path, p.name, p.repo) for p in lib.projects]
    assert (
        [p.counted() for p in early]
        == [p.counted() for p in lib.projects]
        == [(front.ROWS + 21, front.ROWS + 20), (2, 2)]
    )
    big, old = early
    assert len(big.sessions) == front.ROWS  # the list's first rows, not every session
    assert [s.file for s in big.sessions] == [s.file for s in lib.projects[0].sessions[: front.ROWS]]
    assert big.sessions[0].title == lib.projects[0].sessions[0].title
    assert len(old.sessions) == 2


def test_a_front_made_before_the_index_changed_is_not_read(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    history(root, 3)
    lib = Library([root], tmp_path / "cache")
    lib.refresh()
    saved = (tmp_path / "cache" / FRONT_NAME).read_bytes()
    w = Writer("new", cwd="/home/u/old", start=50_000)
    w.prompt("a session started since")
    w.write(root / encode("/home/u/old"))
    lib.refresh()
    assert Library([root], tmp_path / "cache").front()[0].sessions[0].id == "new"  # saved again
    (tmp_path / "cache" / FRONT_NAME).write_bytes(saved)
    assert Library([root], tmp_path / "cache").front() is None  # the old one stands for an older index


def test_no_front_is_written_where_the_index_is_kept_in_memory(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    history(root, 2)
    lib = Library([root], root / "cache")  # inside the projects folder: nothing is written there
    lib.refresh()
    assert lib.projects and lib.front() is None
    assert not (root / "cache").exists()


def test_the_app_gets_the_front_then_the_whole_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "projects"
    history(root, front.ROWS + 5)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("CLAUDE_TUI_CACHE_DIR", raising=False)
    Library([root]).refresh()  # a run before this one saved the front
    prefetch = Prefetch(lambda: [root])
    first = prefetch.result(timeout=30)
    second = prefetch.result(timeout=30)
    assert first is not None and second is not None
    assert first[2] and not second[2]
    assert len(first[0][0].sessions) == front.ROWS
    assert len(second[0][0].sessions) == front.ROWS + 6
    assert prefetch.result() is None  # nothing more: the child is gone


def test_the_tree_counts_a_front_projects_sessions_as_the_whole_library_does(tmp_path: Path) -> None:
    from claude_tui.ui.widgets.projects import ProjectTree

    root = tmp_path / "projects"
    history(root, front.ROWS + 20)
    Library([root], tmp_path / "cache").refresh()
    big = Library([root], tmp_path / "cache").front()[0]  # type: ignore[index]
    tree = ProjectTree()
    assert f"big  {front.ROWS + 20}" in tree._label(big).plain
    tree.show_quiet = True  # `a`: the warmup session counts too
    assert f"big  {front.ROWS + 21}" in tree._label(big).plain


def test_the_listings_of_an_update_under_way_are_not_saved_as_the_front(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    history(root, 3)
    lib = Library([root], tmp_path / "cache")
    saved_during: list[bool] = []

    def listing(_: object) -> None:  # as the app lists what a first index has committed so far
        lib.reload()
        saved_during.append((tmp_path / "cache" / FRONT_NAME).exists())

    lib.refresh(listing)
    assert saved_during and not any(saved_during)
    assert (tmp_path / "cache" / FRONT_NAME).exists()  # once the update ended


def test_a_cache_folder_inside_the_history_gets_no_front_page(tmp_path: Path) -> None:
    """The index works from memory when its folder is inside a projects folder: nothing is kept beside it."""
    root = tmp_path / "projects"
    history(root, 3)
    cache = root / "cache"
    cache.mkdir()  # a folder that is there: a write would succeed
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    lib = Library([root], cache)
    lib.refresh()
    assert lib.projects and lib.index.path is None
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before


def test_a_start_whose_front_page_holds_writes_none(tmp_path: Path) -> None:
    """The next start reads the front page, then the whole library: with nothing changed since, the page it saved
    is the one it would save, and stays as it was written."""
    root = tmp_path / "projects"
    history(root, 3)
    Library([root], tmp_path / "cache").refresh()
    page = tmp_path / "cache" / FRONT_NAME
    written = page.stat().st_ino  # a page is saved whole, by renaming a new file over it
    start = Library([root], tmp_path / "cache")
    assert start.front() is not None
    start.reload()
    assert page.stat().st_ino == written
    w = Writer("new", cwd="/home/u/old", start=50_000)
    w.prompt("a session started since")
    w.write(root / encode("/home/u/old"))
    start.refresh()
    assert page.stat().st_ino != written  # the index changed: saved again
