"""docs/keys.md is what scripts/keys_doc.py writes from the bindings now: a binding added, renamed or remapped
by default without the page written again fails here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_keys_page_is_written_from_the_bindings_of_today() -> None:
    check = [sys.executable, str(ROOT / "scripts" / "keys_doc.py"), "--check"]
    run = subprocess.run(check, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr


def test_the_keys_page_lists_every_binding_id() -> None:
    from claude_tui.ui.app import _help_sections, _unlisted_binding_owners

    page = (ROOT / "docs" / "keys.md").read_text(encoding="utf-8")
    owners = [owner for _, owner in _help_sections()] + _unlisted_binding_owners()
    ids = [b.id for owner in owners for b in owner.BINDINGS if getattr(b, "id", None)]
    assert ids and all(f"`{binding_id}`" in page for binding_id in ids)
