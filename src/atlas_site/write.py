"""Stage 6: Output -> disk, atomically. A failed build never touches the previous site, and no
folder that atlas-site did not write is ever replaced.

Publishing is one atomic step on Linux: the staging folder and the published one swap places with
`renameat2(RENAME_EXCHANGE)`, so a reader of the served folder sees the old site or the new one,
never a missing `index.html`. (A versioned folder behind a symlink would also be atomic, but it
changes what `_site` is, breaks `cd _site` and Windows checkouts.) Where the exchange is not
available (another OS, a file system without it) two renames are used, with a moment between them.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import secrets
import shutil
import sys
import typing
from contextlib import contextmanager
from pathlib import Path

from .diagnostics import AtlasError, Diagnostic, SourceLocation
from .output import Output

MARKER = ".atlas-site"  # left in every site we write: only such a folder may be replaced
MARKER_TEXT = (
    json.dumps(
        {"generator": "atlas-site", "note": "built by atlas-site: the next build replaces this folder"},
        sort_keys=True,
    )
    + "\n"
)
INPUT_FOLDERS = ("content", "ledger", "sources", "templates", "labs_js", ".atlas-cache", ".git")


def _problem(where: str, code: str, message: str, hint: str = "") -> AtlasError:
    return AtlasError([Diagnostic(SourceLocation(where), code, message, hint)])


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix() or "."
    except ValueError:
        return str(path)


def is_ours(folder: Path) -> bool:
    """True only for a folder holding the marker atlas-site writes into every site. Nothing else
    proves ownership: a folder of the user's that merely looks like a site (an index.html, an
    assets/ folder) is never taken for one, since replacing it would delete the rest."""
    marker = folder / MARKER
    try:
        if marker.is_file() and not marker.is_symlink():
            return json.loads(marker.read_text(encoding="utf-8")).get("generator") == "atlas-site"
    except (OSError, ValueError, AttributeError):
        return False
    return False


def check_destination(destination: Path, root: Path | None = None) -> None:
    """Refuse an output that would destroy or mix with what the user owns: a file, a folder atlas-site
    did not write, and (given the project root) the project, a folder above it or inside its inputs."""
    destination = destination.resolve()
    root = root.resolve() if root is not None else None
    shown = _shown(destination, root) if root is not None else str(destination)
    if root is not None:
        _check_against_project(destination, root, shown)
    if destination.exists() and not destination.is_dir():
        raise _problem(
            shown,
            "output.not-a-folder",
            f"the output {shown} exists and is not a folder",
            "name a folder that is missing, empty, or an earlier build",
        )
    if destination.is_dir() and not is_ours(destination) and any(destination.iterdir()):
        raise _problem(
            shown,
            "output.not-ours",
            f"the output folder {shown} is not empty and was not written by atlas-site",
            f"it would be replaced: empty or move it yourself, or choose another --out (a built site holds {MARKER})",
        )


def _check_against_project(destination: Path, root: Path, shown: str) -> None:
    if destination == root or destination in root.parents:
        raise _problem(
            shown,
            "output.contains-project",
            f"the output folder {shown} holds the project itself",
            "build into a folder of its own, e.g. --out _site",
        )
    for name in INPUT_FOLDERS:
        folder = root / name
        if destination == folder or folder in destination.parents:
            raise _problem(
                shown,
                "output.inside-inputs",
                f"the output folder {shown} is inside the project's {name}/",
                "build into a folder of its own, e.g. --out _site",
            )


def remove_ours(folder: Path) -> None:
    """Delete a folder we wrote, its marker last, so an interrupted removal is still recognisably ours."""
    if folder.is_symlink() or not folder.is_dir():
        folder.unlink(missing_ok=True)
        return
    for child in folder.iterdir():
        if child.name == MARKER:
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)
    (folder / MARKER).unlink(missing_ok=True)
    try:
        folder.rmdir()
    except OSError:
        pass  # something appeared meanwhile: leave it for the next clean-up


def _alive(pid_text: str) -> bool:
    """Whether the build that named a folder (…new-<pid>-… / …old-<pid>) is still running."""
    pid = pid_text.split("-", 1)[0]
    if not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, but is not ours to signal
        return True
    return True


def clean_leftovers(destination: Path) -> list[str]:
    """Staging and old folders a killed build left beside `destination` (ours or empty only; not
    those of a build that is still running)."""
    removed = []
    for kind in ("new", "old"):
        prefix = f".{destination.name}.{kind}-"
        for folder in sorted(destination.parent.glob(prefix + "*")):
            if _alive(folder.name[len(prefix) :]) or folder.is_symlink() or not folder.is_dir():
                continue
            if is_ours(folder) or not any(folder.iterdir()):
                remove_ours(folder)
                removed.append(folder.name)
    return removed


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one atomic step; False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    renameat2.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint)
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))


def _publish(staging: Path, destination: Path) -> Path | None:
    """Swap the new site in; the previous one is then removed. Returns the folder of the previous
    site when it could not be removed (the new site is published all the same)."""
    if not destination.exists():
        staging.rename(destination)
        return None
    if _exchange(staging, destination):
        previous = staging  # the previous site, now under the staging name
    else:
        previous = destination.parent / f".{destination.name}.old-{os.getpid()}"
        destination.rename(previous)
        staging.rename(destination)
    try:
        remove_ours(previous)
    except OSError:
        return previous  # published; clean_leftovers retries at the next build
    return previous if previous.exists() else None


def _make_staging(destination: Path) -> Path:
    """A new sibling folder for the next site, with the permissions the umask gives any folder
    (mkdtemp's 0700 would make every page of the published site unreadable to a web server
    running as another user)."""
    while True:
        staging = destination.parent / f".{destination.name}.new-{os.getpid()}-{secrets.token_hex(4)}"
        try:
            staging.mkdir(mode=0o777)
            return staging
        except FileExistsError:
            continue


def write_site(output: Output, destination: Path, finish=None, root: Path | None = None) -> list[Diagnostic]:
    """Write into a sibling staging folder, let `finish(staging)` add to it (the search index),
    then swap it in. Any failure leaves `destination` as it was. Returns warnings: what of the
    previous site could not be removed after the new one was published."""
    destination = destination.resolve()
    check_destination(destination, root)
    shown = _shown(destination, root.resolve()) if root is not None else str(destination)
    staging = None
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        clean_leftovers(destination)
        staging = _make_staging(destination)
        (staging / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
        for relative, content in output.items():
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        if finish is not None:
            finish(staging)
        left = _publish(staging, destination)
    except OSError as error:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        reason = error.strerror or str(error)
        raise _problem(
            shown,
            "output.write-failed",
            f"cannot write the site: {reason}" + (f" ({error.filename})" if error.filename else ""),
            "free some space or choose a writable --out; the previous site is unchanged",
        ) from None
    except BaseException:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        raise
    if left is None:
        return []
    return [
        Diagnostic(
            SourceLocation(shown),
            "output.old-site-left",
            f"the new site is published; the previous one could not be removed entirely and is left in "
            f"{_shown(left, root.resolve()) if root is not None else left}",
            "the next build removes it (or delete it yourself)",
            severity="warning",
        )
    ]


@contextmanager
def project_lock(root: Path, name: str = "build", announce=None):
    """One holder of a project's `name` lock at a time (`.atlas-cache/NAME.lock`); a second one
    waits: one build at a time ("build"), one writer of the translation lock ("sync"). Where the
    lock file cannot be made (a read-only or broken cache folder) the command goes on unlocked."""
    try:
        import fcntl
    except ImportError:  # not POSIX
        yield
        return
    path = root / ".atlas-cache" / f"{name}.lock"
    handle: typing.IO[bytes] | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+b")
    except OSError:
        try:
            handle = open(path, "rb")
        except OSError:
            handle = None
    if handle is None:
        yield
        return
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if announce:
                announce(f"waiting for another {name} of this project to finish…")
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # closing releases the lock
