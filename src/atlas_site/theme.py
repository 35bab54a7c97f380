"""The theme: where a book's page templates, stylesheets, scripts and interface strings are found.

A book's own `templates/` comes first, file by file; every file it does not have comes from the
default theme that ships inside the engine (`atlas_site/default_theme/` in an installed wheel; in a
checkout of the engine, the repository's top-level `templates/`, which is the theme's source and
is what the wheel packages). So a book with no `templates/` publishes with the default theme, and a
book that wants another home page puts its own `home.html.j2` in `templates/`."""

from __future__ import annotations

from pathlib import Path

from .cache import digest, tree_digest
from .diagnostics import AtlasError, Diagnostic, SourceLocation

PACKAGED = Path(__file__).resolve().parent / "default_theme"  # what setup.py copies into a wheel
CHECKOUT = Path(__file__).resolve().parents[2] / "templates"  # an editable install of the repository
BOOK_FOLDER = "templates"  # a book's own theme files, and the theme's source in the repository


def default_theme() -> Path:
    """The folder of the theme that ships with the engine."""
    return PACKAGED if PACKAGED.is_dir() else CHECKOUT


def theme_folders(root: Path) -> tuple[Path, ...]:
    """Where theme files are looked up, first match wins: the book's templates/, then the default
    theme (once: the Atlas's templates/ is the default theme's source)."""
    own = root / BOOK_FOLDER
    default = default_theme()
    folders = [own] if own.is_dir() else []
    if not folders or own.resolve() != default.resolve():
        folders.append(default)
    return tuple(folders)


def theme_file(root: Path, relative: str) -> Path | None:
    """The file `relative` (e.g. "static/site.css") of the book's theme, or None."""
    for folder in theme_folders(root):
        if (folder / relative).is_file():
            return folder / relative
    return None


def theme_path(root: Path, relative: str) -> Path:
    """The file `relative` of the theme; a located error when neither the book nor the default
    theme has it (an engine installed without its theme, a book's broken override)."""
    found = theme_file(root, relative)
    if found is None:
        raise AtlasError(
            [
                Diagnostic(
                    SourceLocation(f"{BOOK_FOLDER}/{relative}"),
                    "template.missing",
                    f"the theme has no file {relative}",
                    "reinstall atlas-site (its wheel carries the default theme), or add the file",
                )
            ]
        )
    return found


def theme_glob(root: Path, folder: str, pattern: str) -> list[Path]:
    """The files matching `pattern` in `folder` of the theme, one per name (the book's first),
    sorted by name."""
    found: dict[str, Path] = {}
    for base in theme_folders(root):
        for path in sorted((base / folder).glob(pattern)):
            if path.is_file():
                found.setdefault(path.name, path)
    return [found[name] for name in sorted(found)]


def owner(root: Path, path: Path) -> Path:
    """The folder a theme file is read relative to: the book's root for the book's own files, the
    default theme's parent for the engine's (read_text reads nothing outside the folder it is given)."""
    try:
        Path(path).absolute().relative_to((root / BOOK_FOLDER).absolute())
        return root
    except ValueError:
        return default_theme().parent


def shown_name(root: Path, path: Path) -> str:
    """A theme file as a message names it: templates/x for the book's own, the path of the engine's
    theme otherwise (where a contributor would open it)."""
    for base, label in ((root / BOOK_FOLDER, BOOK_FOLDER), (default_theme(), str(default_theme()))):
        try:
            return f"{label}/{Path(path).resolve().relative_to(base.resolve()).as_posix()}"
        except ValueError:
            continue
    return Path(path).as_posix()


def default_theme_version(root: Path) -> str:
    """The default theme's bytes when the book does not hold them itself: part of the stages'
    versions (in a wheel the engine's own version covers them; in a checkout they change apart)."""
    default = default_theme()
    own = root / BOOK_FOLDER
    if own.is_dir() and own.resolve() == default.resolve():
        return ""  # the book's templates/ is hashed as its own code folder
    return _theme_digest(default)


def _theme_digest(folder: Path) -> str:
    return digest(tree_digest(folder.parent, (folder.name,))) if folder.is_dir() else "absent"
