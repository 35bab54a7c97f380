"""Content-addressed memo for incremental builds. An artefact is recomputed only when the hash of
everything it depends on changes: content hashes, never timestamps, so a rebuild is byte-identical
to a cold build. Kept in memory (`atlas-site serve`) and, for the CLI, in `.atlas-cache/`."""
from __future__ import annotations

import hashlib
import json
import pickle
from collections import Counter
from pathlib import Path

CODE_ROOTS = ("src/atlas_site", "templates", "labs_js")  # a change here invalidates what it produced


def digest(*parts) -> str:
    """A stable hash of strings, bytes and JSON-able values (sorted keys, so dict order is irrelevant)."""
    hasher = hashlib.sha256()
    for part in parts:
        if isinstance(part, bytes):
            data = part
        elif isinstance(part, str):
            data = part.encode("utf-8")
        else:
            data = json.dumps(part, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
        hasher.update(len(data).to_bytes(8, "big"))
        hasher.update(data)
    return hasher.hexdigest()


def tree_digest(root: Path, folders=CODE_ROOTS) -> str:
    """The version of the code and templates: every file's path and bytes."""
    package = Path(__file__).resolve().parent
    parts = []
    for folder in folders:
        base = package if folder == "src/atlas_site" else root / folder
        for path in sorted(base.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and "tests" not in path.relative_to(base).parts[:1]:
                parts += [path.relative_to(base).as_posix(), path.read_bytes()]
    return digest(*parts)


class BuildCache:
    def __init__(self, folder: Path | None = None):
        self.folder = folder
        self.memory: dict[tuple[str, str], object] = {}
        self.used: set[tuple[str, str]] = set()
        self.stats: Counter = Counter()

    def get(self, kind: str, key, compute):
        """`key` is a digest, or a function returning one (so a cold build never pays for hashing)."""
        entry = (kind, key() if callable(key) else key)
        self.used.add(entry)
        if entry in self.memory:
            self.stats[f"{kind} hit"] += 1
            return self.memory[entry]
        path = self._path(entry)
        if path is not None and path.exists():
            try:
                value = pickle.loads(path.read_bytes())
                self.memory[entry] = value
                self.stats[f"{kind} hit"] += 1
                return value
            except Exception:  # a stale or torn entry is recomputed, never trusted
                pass
        self.stats[f"{kind} miss"] += 1
        value = compute()
        self.memory[entry] = value
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(".tmp")
            temporary.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
            temporary.replace(path)
        return value

    def forget_unused(self) -> None:
        """Drop entries the last build did not ask for, so the cache tracks the current book."""
        for entry in [e for e in self.memory if e not in self.used]:
            del self.memory[entry]
            path = self._path(entry)
            if path is not None:
                path.unlink(missing_ok=True)
        if self.folder is not None and self.folder.exists():
            keep = {self._path(e) for e in self.used}
            for path in self.folder.glob("*/*.pkl"):
                if path not in keep:
                    path.unlink(missing_ok=True)
        self.used = set()

    def summary(self) -> str:
        kinds = sorted({k.rsplit(" ", 1)[0] for k in self.stats})
        return ", ".join(f"{kind} {self.stats[kind + ' hit']}/{self.stats[kind + ' hit'] + self.stats[kind + ' miss']}" for kind in kinds)

    def _path(self, entry: tuple[str, str]) -> Path | None:
        return self.folder / entry[0] / f"{entry[1]}.pkl" if self.folder is not None else None


class NoCache(BuildCache):
    """Compute everything (cold builds, tests of the cold path)."""

    def get(self, kind: str, key, compute):
        return compute()
