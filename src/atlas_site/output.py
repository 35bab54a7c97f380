"""The rendered site in memory. Writing one path twice is a bug, so it is refused."""

from __future__ import annotations


class Output:
    def __init__(self) -> None:
        self._files: dict[str, bytes] = {}
        # pages as rendered before a split chapter moved links into its pages (render/split.py):
        # the editions are made of whole chapters
        self.whole: dict[str, str] = {}

    def add(self, path: str, content: str | bytes) -> None:
        if path in self._files:
            raise ValueError(f"two outputs claim the same path '{path}'")
        self._files[path] = content.encode("utf-8") if isinstance(content, str) else content

    def set(self, path: str, content: str) -> None:
        """Replace an existing file (the split of long chapters moves links in rendered pages)."""
        if path not in self._files:
            raise KeyError(path)
        self._files[path] = content.encode("utf-8")

    def document(self, path: str) -> str:
        """The page at `path` as one document: a split chapter whole, every link as rendered."""
        return self.whole.get(path) or self.text(path)

    def __getitem__(self, path: str) -> bytes:
        return self._files[path]

    def __contains__(self, path: str) -> bool:
        return path in self._files

    def items(self):
        return sorted(self._files.items())

    def paths(self) -> list[str]:
        return sorted(self._files)

    def html_pages(self) -> list[str]:
        return [p for p in self.paths() if p.endswith(".html")]

    def page_holding(self, lang: str, page_id: str, marker: str) -> str | None:
        """The published page of `page_id` whose HTML holds `marker`: the page itself, or the part
        page of a chapter published as several (render/split.py, `<id>-<part>.html`)."""
        first = f"{lang}/{page_id}.html"
        parts = [p for p in self.html_pages() if p.startswith(f"{lang}/{page_id}-")]
        return next((p for p in [first, *parts] if p in self and marker in self.text(p)), None)

    def replaced(self, path: str, content: bytes) -> Output:
        """A copy with one existing file's bytes replaced (serve's hot path; the bytes are shared)."""
        if path not in self._files:
            raise KeyError(path)
        copy = Output()
        copy._files = {**self._files, path: content}
        copy.whole = self.whole
        return copy

    def text(self, path: str) -> str:
        return self._files[path].decode("utf-8")
