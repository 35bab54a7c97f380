"""Content-addressed memo for incremental builds. An artefact is recomputed only when the hash of
everything it depends on changes: content hashes, never timestamps, so a rebuild is byte-identical
to a cold build. Kept in memory (`atlas-site serve`) and, for the CLI, in `.atlas-cache/`.

On disk an entry is JSON that cannot execute: plain data, plus dataclasses of this package (and
markdown-it's Token) rebuilt field by field by name. Every key includes the engine's version (the
bytes of this package), and every entry names its kind and key and carries a checksum: a corrupt,
truncated, foreign or undecodable entry is a miss, recomputed, never trusted. A cache folder that
cannot be written (a file, read-only, a full disk) turns into a memory-only cache with one warning.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import importlib
import json
import math
import os
from collections import Counter
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path

from .diagnostics import Diagnostic, SourceLocation
from .files import replace_file

FORMAT = "atlas-cache/1"


def digest(*parts) -> str:
    """A stable hash of strings, bytes and JSON-able values (sorted keys, so dict order is irrelevant)."""
    hasher = hashlib.sha256()
    for part in parts:
        if isinstance(part, bytes):
            data = part
        elif isinstance(part, str):
            data = part.encode("utf-8", "surrogateescape")  # a file name that is not UTF-8 hashes too
        else:
            data = json.dumps(part, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
        hasher.update(len(data).to_bytes(8, "big"))
        hasher.update(data)
    return hasher.hexdigest()


def inside(path: Path, root: Path) -> bool:
    """Whether `path`, with every symbolic link followed, lies under `root` (itself resolved)."""
    try:
        return path.resolve().is_relative_to(root)
    except (OSError, RuntimeError):  # a link loop
        return False


class Boundary:
    """`inside` for the many files of one tree: each folder is resolved once, and a file that is no
    link lies where its folder does (resolving every file of templates/ and labs_js/ was a third of
    a small book's build)."""

    def __init__(self, root: Path):
        self.root = root.resolve()
        self._folders: dict[Path, bool] = {}

    def holds(self, path: Path) -> bool:
        try:
            if path.is_symlink():
                return inside(path, self.root)
        except OSError:
            return False
        folder = path.parent
        if folder not in self._folders:
            self._folders[folder] = inside(folder, self.root)
        return self._folders[folder]


def tree_digest(root: Path, folders: tuple[str, ...]) -> str:
    """The version of project folders that are code to a stage (templates, labs_js): every file's
    path and bytes. A file that resolves outside the project is not read (the loader reports it);
    its link target is hashed instead."""
    boundary = Boundary(root)
    parts: list[str | bytes] = []
    for folder in folders:
        base = root / folder
        for path in sorted(base.rglob("*")):
            if "__pycache__" in path.parts or "tests" in path.relative_to(base).parts[:1]:
                continue
            if not boundary.holds(path):
                parts += [
                    path.relative_to(base).as_posix(),
                    "outside: " + os.readlink(path) if path.is_symlink() else "outside",
                ]
            elif path.is_file():
                parts += [path.relative_to(base).as_posix(), path.read_bytes()]
    return digest(*parts)


@lru_cache(maxsize=1)
def engine_version() -> str:
    """The bytes of this package: part of every cache key, so new code never reads old results."""
    package = Path(__file__).resolve().parent
    parts = []
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            parts += [path.relative_to(package).as_posix(), path.read_bytes()]
    return digest(*parts)


# --- the on-disk format: JSON with tagged tuples, sets, dates, odd dict keys and known dataclasses


class _NotStorable(TypeError):
    """A value the on-disk format does not cover: it stays in memory only."""


def _type_name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


@cache
def _storable_type(name: str) -> type:
    """The dataclass an entry names; only this package's own and markdown-it's Token."""
    module, _, qualname = name.partition(":")
    if not (module.startswith("atlas_site.") or module == "markdown_it.token") or "." in qualname:
        raise ValueError(f"type {name!r} is not storable")
    cls = getattr(importlib.import_module(module), qualname)
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise ValueError(f"{name!r} is not a dataclass")
    return cls


@cache
def _fields(cls: type) -> tuple:
    return tuple(dataclasses.fields(cls))


def encode(value):
    """A value -> JSON-able data with tags ({"$": kind, ...}) for what JSON cannot say itself."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"$": "float", "v": repr(value)}
    if isinstance(value, list):
        return [encode(item) for item in value]
    if isinstance(value, tuple):
        return {"$": "tuple", "v": [encode(item) for item in value]}
    if isinstance(value, dict):
        if all(isinstance(key, str) for key in value) and "$" not in value:
            return {key: encode(item) for key, item in value.items()}
        return {"$": "dict", "v": [[encode(key), encode(item)] for key, item in value.items()]}
    if isinstance(value, (set, frozenset)):
        return {
            "$": "frozenset" if isinstance(value, frozenset) else "set",
            "v": sorted((encode(item) for item in value), key=lambda item: json.dumps(item, sort_keys=True)),
        }
    if isinstance(value, datetime.datetime):
        return {"$": "datetime", "v": value.isoformat()}
    if isinstance(value, datetime.date):
        return {"$": "date", "v": value.isoformat()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = _type_name(type(value))
        if _storable_type(name) is not type(value):
            raise _NotStorable(name)
        return {"$": "object", "t": name, "v": [encode(getattr(value, f.name)) for f in _fields(type(value))]}
    raise _NotStorable(type(value).__name__)


_DECODERS = {
    "float": lambda data: (
        float(_expect(data["v"], str)) if data["v"] in ("inf", "-inf", "nan") else _bad("float")
    ),
    "tuple": lambda data: tuple(_expect(data["v"], list)),
    "dict": lambda data: {key: item for key, item in _expect(data["v"], list)},
    "set": lambda data: set(_expect(data["v"], list)),
    "frozenset": lambda data: frozenset(_expect(data["v"], list)),
    "datetime": lambda data: datetime.datetime.fromisoformat(_expect(data["v"], str)),
    "date": lambda data: datetime.date.fromisoformat(_expect(data["v"], str)),
    "object": lambda data: _object(data),
}


def _expect(value, kind: type):
    if not isinstance(value, kind):
        raise ValueError(f"expected {kind.__name__}")
    return value


def _bad(what: str):
    raise ValueError(f"bad {what}")


def _object(data: dict):
    cls = _storable_type(_expect(data["t"], str))
    values = _expect(data["v"], list)
    fields = _fields(cls)
    if len(values) != len(fields):
        raise ValueError(f"{data['t']} has {len(fields)} fields, the entry {len(values)}")
    if all(f.init for f in fields):
        return cls(*values)
    instance = cls(**{f.name: v for f, v in zip(fields, values, strict=False) if f.init})
    for f, v in zip(fields, values, strict=False):
        if not f.init:
            object.__setattr__(instance, f.name, v)
    return instance


def _tagged(data: dict):
    tag = data.get("$")
    if tag is None:
        return data
    decoder = _DECODERS.get(tag)
    if decoder is None:
        raise ValueError(f"unknown tag {tag!r}")
    return decoder(data)


def decode(text: str):
    """The inverse of `encode` (after json.loads); anything malformed raises ValueError/TypeError."""
    return json.loads(text, object_hook=_tagged)


class Versioned:
    """A cache as one stage of the pipeline sees it: the stage's version (pipeline.versions: the
    engine's and the bytes of the folders the stage declares as code) is part of every key, so no
    caller composes it. Reads and writes go to the one cache underneath."""

    def __init__(self, cache: BuildCache, version: str):
        self.cache, self.version = cache, version

    def get(self, kind: str, key, compute):
        return self.cache.get(kind, lambda: digest(self.version, key() if callable(key) else key), compute)


def _entry(kind: str, key) -> tuple[str, str]:
    """An entry's name: its kind and the digest of its key with the engine's version."""
    return kind, digest(kind, key() if callable(key) else key, engine_version())


class BuildCache:
    def __init__(self, folder: Path | None = None, remember: frozenset[str] | None = None):
        """`remember`: the kinds held in memory as well as in the folder; None holds every kind, as
        serve's long-lived cache needs. A one-build command holds only the kinds a build asks for
        again: the rest are read once, and holding them only raised the peak (at 20x the pages a
        cold build with the folder peaked at 432 MiB, one without it at 257)."""
        self.folder = folder
        self.remember = remember
        self.memory: dict[tuple[str, str], object] = {}
        self.used: set[tuple[str, str]] = set()
        self.stats: Counter = Counter()
        self.warnings: list[str] = []  # at most one: why the folder is not used
        self.pending: list | None = None  # while writes are deferred: the entries to write at flush()
        self.checkpoint: Callable[[], None] | None = (
            None  # called before every lookup: serve stops a build a newer edit made obsolete
        )

    def get(self, kind: str, key, compute):
        """`key` is a digest, or a function returning one (so a cold build never pays for hashing)."""
        if self.checkpoint is not None:
            self.checkpoint()
        entry = _entry(kind, key)
        self.used.add(entry)
        if entry in self.memory:
            self.stats[f"{kind} hit"] += 1
            return self.memory[entry]
        found, value = self._read(entry)
        if found:
            if self._remembers(kind):
                self.memory[entry] = value
            self.stats[f"{kind} hit"] += 1
            return value
        self.stats[f"{kind} miss"] += 1
        value = _spawned(entry, compute) if kind in SPAWNED_KINDS else compute()
        if not self._write(entry, value) or self._remembers(kind):
            self.memory[entry] = value
        return value

    def _remembers(self, kind: str) -> bool:
        return self.remember is None or kind in self.remember or self.folder is None

    def warn(self, reason: str) -> None:
        """Stop using the folder for this build, and say so once."""
        if not self.warnings:
            where = str(self.folder) if self.folder is not None else ".atlas-cache"
            self.warnings.append(
                str(
                    Diagnostic(
                        SourceLocation(where),
                        "cache.unavailable",
                        f"{reason}; building without the on-disk cache",
                        severity="warning",
                    )
                )
            )
        self.folder = None

    def _read(self, entry) -> tuple[bool, object]:
        path = self._path(entry)
        if path is None:
            return False, None
        try:
            if not path.is_file():  # missing, or something planted that is not a file (a FIFO would block)
                return False, None
            text = path.read_text(encoding="utf-8")
            checksum, _, body = text.partition("\n")
            if checksum != hashlib.sha256(body.encode("utf-8")).hexdigest():
                return False, None
            envelope = decode(body)
            if (
                envelope.get("format") != FORMAT
                or envelope.get("kind") != entry[0]
                or envelope.get("key") != entry[1]
            ):
                return False, None
            return True, envelope["value"]
        except (OSError, ValueError, TypeError, KeyError, AttributeError, ImportError, RecursionError):
            return False, None  # missing, torn, foreign or from another format: recompute

    def defer_writes(self) -> None:
        """Keep new entries in memory until flush(): serve pushes an edit to the page first."""
        if self.pending is None:
            self.pending = []

    def flush(self) -> None:
        """Write the deferred entries to the folder, and write at once again from now on."""
        pending, self.pending = self.pending or [], None
        for entry, value in pending:
            self._write(entry, value)

    def _write(self, entry, value) -> bool:
        """Whether the folder has (or will have, at flush) the entry."""
        path = self._path(entry)
        if path is None:
            return False
        if self.pending is not None:
            self.pending.append((entry, value))
            return True
        try:
            body = json.dumps(
                {"format": FORMAT, "kind": entry[0], "key": entry[1], "value": encode(value)},
                ensure_ascii=False,
                separators=(",", ":"),
                allow_nan=False,
            )
        except (_NotStorable, ValueError, RecursionError):
            return False  # kept in memory only
        text = hashlib.sha256(body.encode("utf-8")).hexdigest() + "\n" + body
        try:
            replace_file(path, text, durable=False)
            return True
        except OSError as error:
            self.warn(f"cannot write ({error.strerror or error})")
            return False

    def forget_unused(self) -> None:
        """Drop entries the last build did not ask for, so the cache tracks the current book."""
        used = set(self.used)  # copies taken at once: serve's hot path may add entries meanwhile
        for entry in [e for e in list(self.memory) if e not in used]:
            self.memory.pop(entry, None)
        if self.folder is not None and self.folder.is_dir():
            keep = {self._path(e) for e in used}
            try:
                for path in self.folder.glob("*/*"):
                    if path not in keep and path.suffix in (".json", ".pkl", ".tmp") and path.is_file():
                        path.unlink(missing_ok=True)
            except OSError:
                pass  # a read-only cache keeps its old entries; they are never wrong, only unused
        self.used = set()

    def summary(self) -> str:
        kinds = sorted({k.rsplit(" ", 1)[0] for k in self.stats})
        return ", ".join(
            f"{kind} {self.stats[kind + ' hit']}/{self.stats[kind + ' hit'] + self.stats[kind + ' miss']}"
            for kind in kinds
        )

    def _path(self, entry: tuple[str, str]) -> Path | None:
        return self.folder / entry[0] / f"{entry[1]}.json" if self.folder is not None else None


# The kinds another program computes (Node.js: the worked examples, the shipped scripts' syntax).
# Each answer is a function of its key alone (the requests and the lab code), and starting Node
# costs ≈ 0.1 s: a process that builds many projects (serve's rebuilds after an edit undone, the
# test suite's hundreds of fixture copies, each with an empty cache folder) asks for the same
# answers again, so one process computes each once, with or without a cache folder.
# Held as JSON text, so no build can change what the next one is given; a timeout raises and is
# never kept (a slower moment may succeed).
SPAWNED_KINDS = frozenset({"examples", "script-syntax"})
SPAWNED_SIZE = 256
_SPAWNED: dict[tuple[str, str], str] = {}


class NoCache(BuildCache):
    """Compute everything (cold builds, tests of the cold path), except that the kinds in `remember`
    are computed once per build: the index, render and gates each read a part's tokens, and a cold
    build parsing every part twice spent a third of its time in markdown-it; and the kinds Node
    computes, once per process (SPAWNED_KINDS)."""

    def __init__(self, remember: frozenset[str] = frozenset()):
        super().__init__(None, remember)

    def get(self, kind: str, key, compute):
        if kind in SPAWNED_KINDS:
            return self._spawned(kind, key, compute)
        if self.remember is not None and kind not in self.remember:
            return compute()
        return super().get(kind, key, compute)

    def _spawned(self, kind: str, key, compute):
        entry = _entry(kind, key)
        self.stats[f"{kind} {'hit' if entry in _SPAWNED else 'miss'}"] += 1
        return _spawned(entry, compute)


def _spawned(entry: tuple[str, str], compute):
    """The answer Node gave this process for `entry`, asked for once (SPAWNED_KINDS)."""
    known = _SPAWNED.get(entry)
    if known is None:
        known = json.dumps(compute())
        if len(_SPAWNED) >= SPAWNED_SIZE:
            _SPAWNED.pop(next(iter(_SPAWNED)), None)
        _SPAWNED[entry] = known
    return json.loads(known)  # what a hit returns: lists where the computation gave tuples
