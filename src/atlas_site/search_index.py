"""Stage 6a: the Pagefind search index (one per language, Chinese segmented), built over the
written pages in the staging folder before it is swapped in."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .diagnostics import AtlasError, Diagnostic, SourceLocation


def index_search(site: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "pagefind", "--site", str(site), "--output-subdir", "pagefind", "--quiet"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        reason = (run.stderr.strip() or run.stdout.strip() or "no message").splitlines()[-1]
        raise AtlasError([Diagnostic(SourceLocation("_site"), "search.index", f"pagefind failed: {reason}")])
    _make_deterministic(site / "pagefind")


def _make_deterministic(folder: Path) -> None:
    """Pagefind writes its language table in hash-map order; sort it so builds stay byte-identical.
    Its bundled UI kits are dropped: the site has its own small search box (search.js)."""
    entry = folder / "pagefind-entry.json"
    data = json.loads(entry.read_text(encoding="utf-8"))
    entry.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")), encoding="utf-8")
    for path in folder.glob("pagefind-*ui.*"):
        path.unlink()
