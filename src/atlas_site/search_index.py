"""Stage 6a: the Pagefind search index (one per language, Chinese segmented), built over the
written pages in the staging folder before it is swapped in.

Pagefind 1.6 (npm) segments Chinese words with ICU4X at indexing time and with the browser's
Intl.Segmenter at query time; the PyPI wrapper is still 1.5, which splits Chinese into single
characters ("键值缓存" then matched "值得"). The build runs the npm package that scripts/setup.sh
installs (package.json pins it), and the PyPI one only where that is missing, with a warning."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .diagnostics import AtlasError, Diagnostic, SourceLocation

ENGINE_CHECKOUT = Path(__file__).resolve().parents[2]  # the repository, in an editable install
RUNNER = Path("node_modules", "pagefind", "lib", "runner", "bin.cjs")


def pagefind_command(folders: tuple[Path, ...] = ()) -> list[str] | None:
    """How to run the npm Pagefind: $ATLAS_PAGEFIND (a binary), or the package installed in one of
    `folders`, the current folder or the engine's checkout; None when there is none."""
    explicit = os.environ.get("ATLAS_PAGEFIND")
    if explicit:
        return [explicit]
    node = shutil.which("node")
    for folder in (*folders, Path.cwd(), ENGINE_CHECKOUT):
        if node and (folder / RUNNER).is_file():
            return [node, str(folder / RUNNER)]
    return None


def index_search(site: Path, folders: tuple[Path, ...] = ()) -> list[Diagnostic]:
    """Index `site`; the warnings of the run (none, or that the older Pagefind was used)."""
    command = pagefind_command(folders)
    warnings = []
    if command is None:
        command = [sys.executable, "-m", "pagefind"]
        warnings.append(
            Diagnostic(
                SourceLocation("package.json"),
                "search.old-pagefind",
                "Pagefind 1.6 from npm is not installed: the search index is built with the PyPI "
                "Pagefind, which splits Chinese into single characters",
                severity="warning",
                hint="run `npm ci` in the project (scripts/setup.sh does)",
            )
        )
    run = subprocess.run(
        [*command, "--site", str(site), "--output-subdir", "pagefind", "--quiet"],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        reason = (run.stderr.strip() or run.stdout.strip() or "no message").splitlines()[-1]
        raise AtlasError([Diagnostic(SourceLocation("_site"), "search.index", f"pagefind failed: {reason}")])
    _make_deterministic(site / "pagefind")
    return warnings


def _make_deterministic(folder: Path) -> None:
    """Pagefind writes its language table in hash-map order; sort it so builds stay byte-identical.
    Its bundled UI kits are dropped: the site has its own small search box (search.js)."""
    entry = folder / "pagefind-entry.json"
    data = json.loads(entry.read_text(encoding="utf-8"))
    entry.write_text(
        json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")), encoding="utf-8"
    )
    for path in folder.glob("pagefind-*ui.*"):
        path.unlink()
