"""The editions the site links: `atlas-site export` keeps what it made in `.atlas-cache/downloads/`,
under a key of everything the editions are made from (the validated book and the version of the
code and templates). Every build links and ships the editions of the current key, so a plain
`build` (fast, no browser) keeps the downloads an export made, and never ships stale ones: after
any edit they are simply not there until the next export."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..cache import digest
from ..files import replace_file

STORE = Path(".atlas-cache") / "downloads"
FOLDER = "downloads"  # in the site: _site/downloads/<basename>-<lang>.<format>
FORMATS = ("pdf", "epub")


@dataclass(frozen=True)
class Download:
    lang: str
    format: str  # pdf | epub
    path: str  # in the site, e.g. downloads/llm-atlas-zh.pdf
    data: bytes

    @property
    def size(self) -> str:
        return human_size(len(self.data))


def human_size(count: int) -> str:
    """A file's size as readers see it next to its link (SI units)."""
    return f"{count / 1e6:.1f} MB" if count >= 1e6 else f"{max(1, round(count / 1e3))} kB"


def export_key(book, version: str) -> str:
    """The store of the editions made of this book by this code (`version`: the export stage's,
    pipeline.versions)."""
    return digest(book.model_dump(mode="json"), version)


def site_path(book, lang: str, extension: str) -> str:
    return f"{FOLDER}/{book.profile.downloads.file_name(lang, extension)}"


def current_downloads(root: Path, book, version: str) -> tuple[Download, ...]:
    """The editions made from exactly these inputs, in the book's language order, PDF first."""
    folder = root / STORE / export_key(book, version)

    def stored(path: str) -> bytes | None:
        file = folder / Path(path).name
        return file.read_bytes() if file.is_file() else None

    return _in_order(book, stored)


def made_downloads(book, made: dict[str, bytes]) -> tuple[Download, ...]:
    """The editions in `made` (site path -> bytes: those a release check made), as current_downloads
    gives the stored ones."""
    return _in_order(book, made.get)


def _in_order(book, data_of) -> tuple[Download, ...]:
    found = []
    for lang in book.languages:
        for extension in FORMATS:
            path = site_path(book, lang, extension)
            data = data_of(path)
            if data is not None:
                found.append(Download(lang, extension, path, data))
    return tuple(found)


def keep(root: Path, book, version: str, made: dict[str, bytes]) -> None:
    """Store new editions (site path -> bytes) under the current key, next to the current key's
    other editions; the editions of older keys are removed."""
    store = root / STORE
    key = export_key(book, version)
    folder = store / key
    folder.mkdir(parents=True, exist_ok=True)
    for path, data in made.items():
        replace_file(folder / Path(path).name, data, durable=False)
    for other in store.iterdir():
        if other.is_dir() and other.name != key:
            for file in other.iterdir():
                file.unlink(missing_ok=True)
            other.rmdir()
