"""Writing files that someone may be reading, or that an author owns: always a temporary file
in the same folder, flushed to disk, then renamed over the target, so a full disk, a kill or a
second writer leaves either the old file or the new one, never a file cut short.

`replace_file` is the one way atlas-site writes a file it does not publish through the staging
folder of `write.py` (book.yaml, the translation lock, the cache, the build stamp, the editions)."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


def replace_file(path: Path, data: bytes | str, durable: bool = True) -> None:
    """Put `data` at `path` atomically; the file keeps the permissions it had (a new file gets the
    umask's). `durable=False` skips the flush to disk, for files that are only a cache (a torn
    entry there is caught by its checksum). Raises OSError when it cannot; `path` is then as it was."""
    content = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name[:40]}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
            if durable:
                stream.flush()
                os.fsync(stream.fileno())
        os.chmod(temporary, _mode_for(path))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_for(path: Path) -> int:
    """The mode `path` has, or the mode a plain `open(path, "w")` would give it (mkstemp's is 0600)."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        return 0o666 & ~current_umask()


def current_umask() -> int:
    """The process's umask, read without changing it (Linux: /proc; elsewhere a cautious 022)."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


class NotAFile(OSError):
    """The path is a FIFO, a socket, a device or a folder: nothing an input may be."""


KINDS = {
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFDIR: "a folder",
}


def read_regular(path: Path) -> bytes:
    """The bytes of a regular file (a link to one is followed). Anything else raises NotAFile
    without waiting: the file is opened non-blocking and checked after opening, so a FIFO put in
    a file's place between a look and a read cannot hang a build."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        if error.errno == errno.ENXIO:  # a FIFO with no writer, or a socket
            raise NotAFile(errno.ENXIO, _kind(path), str(path)) from None
        raise
    mode = os.fstat(handle).st_mode
    if not stat.S_ISREG(mode):
        os.close(handle)
        raise NotAFile(errno.EINVAL, KINDS.get(stat.S_IFMT(mode), "not a regular file"), str(path))
    with os.fdopen(handle, "rb") as stream:
        return stream.read()


def _kind(path: Path) -> str:
    try:
        return KINDS.get(stat.S_IFMT(os.stat(path).st_mode), "not a regular file")
    except OSError:
        return "not a regular file"
