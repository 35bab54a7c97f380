"""Compiled templates kept between processes, as Python keeps .pyc files: compiling the figure and
page templates was the largest single cost of a cold build. Jinja keys each entry by the
template's name and file and checks its source's checksum, so an edited template is compiled
anew; the output never depends on the cache (the same source compiles to the same code).

The folder is $ATLAS_TEMPLATE_CACHE, else $XDG_CACHE_HOME/atlas-site (~/.cache/atlas-site), one
sub-folder per Jinja version and environment; ATLAS_TEMPLATE_CACHE=off compiles every time.
A folder that cannot be written only costs the time."""
from __future__ import annotations

import os
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket, FileSystemBytecodeCache


class _QuietCache(FileSystemBytecodeCache):
    """A bytecode cache that never fails a build: unreadable or unwritable entries are skipped."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, EOFError, ValueError, TypeError):
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def template_cache(environment: str) -> FileSystemBytecodeCache | None:
    """The bytecode cache for one kind of environment ("pages", "figures"), or None when off."""
    setting = os.environ.get("ATLAS_TEMPLATE_CACHE", "")
    if setting.lower() in ("off", "0", "no"):
        return None
    base = Path(setting) if setting else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "atlas-site"
    folder = base / f"jinja-{jinja2.__version__}" / environment
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return _QuietCache(str(folder))
