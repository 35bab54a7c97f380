"""The no-change fast path of `atlas-site build`: if neither the inputs nor the code nor the built
site changed since the last build, there is nothing to do. Imports nothing heavy, so it answers
before pydantic, markdown-it and Jinja are even loaded."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

INPUTS = ("book.yaml", "content", "ledger", "sources", "templates", "labs_js")
STAMP = "last-build.json"


def _files_digest(roots: list[Path], relative_to: Path) -> str:
    hasher = hashlib.sha256()
    for root in roots:
        if not root.exists():
            continue
        paths = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        for path in paths:
            hasher.update(path.relative_to(relative_to).as_posix().encode())
            hasher.update(hashlib.sha256(path.read_bytes()).digest())
    return hasher.hexdigest()


def inputs_digest(root: Path, options: dict) -> str:
    package = Path(__file__).resolve().parent
    return hashlib.sha256((_files_digest([root / f for f in INPUTS], root) + _files_digest([package], package.parent)
                           + json.dumps(options, sort_keys=True)).encode()).hexdigest()


def site_digest(site: Path) -> str:
    return _files_digest([site], site)


def is_up_to_date(root: Path, site: Path, options: dict) -> bool:
    stamp = root / ".atlas-cache" / STAMP
    if not stamp.exists() or not site.exists():
        return False
    recorded = json.loads(stamp.read_text(encoding="utf-8"))
    return (recorded.get("site") == str(site) and recorded.get("inputs") == inputs_digest(root, options)
            and recorded.get("output") == site_digest(site))


def record(root: Path, site: Path, options: dict) -> None:
    stamp = root / ".atlas-cache" / STAMP
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(json.dumps({"site": str(site), "inputs": inputs_digest(root, options), "output": site_digest(site)}), encoding="utf-8")
