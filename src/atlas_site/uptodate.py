"""The no-change fast path of `atlas-site build`: if neither the inputs nor the code nor the built
site changed since the last build, there is nothing to do. Imports nothing heavy, so it answers
before pydantic, markdown-it and Jinja are even loaded. The stamp is a hint only: a missing,
unreadable or garbled one means "build"."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .files import replace_file

INPUTS = ("book.yaml", "content", "ledger", "sources", "templates", "labs_js")
STAMP = "last-build.json"


def _files_digest(roots: list[Path], relative_to: Path) -> str:
    """Every path's name and kind, and every file's bytes: a new empty folder or a broken link
    changes what a build sees too. A file that resolves outside `relative_to` is not read (the
    loader refuses it): its link target is hashed instead."""
    hasher = hashlib.sha256()
    boundary = relative_to.resolve()
    for root in roots:
        if root.is_file():  # a single input file (book.yaml)
            hasher.update(os.fsencode(root.relative_to(relative_to).as_posix()) + b"\0")
            hasher.update(hashlib.sha256(root.read_bytes()).digest())
            continue
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if "__pycache__" in path.parts:
                continue
            hasher.update(os.fsencode(path.relative_to(relative_to).as_posix()) + b"\0")
            try:
                if path.is_symlink() and not path.resolve().is_relative_to(boundary):
                    hasher.update(b"outside:" + os.fsencode(os.readlink(path)))
                elif path.is_file():
                    hasher.update(hashlib.sha256(path.read_bytes()).digest())
                else:
                    hasher.update(
                        b"folder"
                        if path.is_dir()
                        else b"other:" + os.fsencode(os.readlink(path) if path.is_symlink() else "")
                    )
            except (OSError, RuntimeError):  # unreadable, vanished, a link loop: the build will say what
                hasher.update(b"unreadable")
    return hasher.hexdigest()


def inputs_digest(root: Path, options: dict) -> str:
    package = Path(__file__).resolve().parent
    checkout_theme = package.parents[1] / "templates"  # the default theme of an editable install (theme.py)
    engine = (
        [package] if checkout_theme.resolve() == (root / "templates").resolve() else [package, checkout_theme]
    )
    return hashlib.sha256(
        (
            _files_digest([root / f for f in INPUTS], root)
            + _files_digest(engine, package.parents[1])
            + json.dumps(options, sort_keys=True)
        ).encode()
    ).hexdigest()


def site_digest(site: Path) -> str:
    return _files_digest([site], site)


def is_up_to_date(root: Path, site: Path, options: dict, inputs: str | None = None) -> bool:
    stamp = root / ".atlas-cache" / STAMP
    try:
        if not stamp.is_file():  # missing, or not a file (a FIFO would block): build
            return False
        recorded = json.loads(stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(recorded, dict) or not site.is_dir():
        return False
    return (
        recorded.get("site") == str(site)
        and recorded.get("inputs") == (inputs or inputs_digest(root, options))
        and recorded.get("output") == site_digest(site)
    )


def record(root: Path, site: Path, options: dict, inputs: str | None = None) -> None:
    """Remember what was built from what, atomically (a torn stamp would only cost a rebuild, but a
    half-written one must never be read as valid). `inputs` is the digest taken before the build,
    so an edit made during the build is not recorded as built. Raises OSError when it cannot."""
    stamp = root / ".atlas-cache" / STAMP
    stamp.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(
        {"site": str(site), "inputs": inputs or inputs_digest(root, options), "output": site_digest(site)}
    )
    replace_file(stamp, text, durable=False)
