"""What every gate reads: the book, parsed pages, the rendered output, indexed once."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..cache import BuildCache, NoCache, digest
from ..diagnostics import SourceLocation
from ..model import Book
from ..render.output import Output
from .html_index import HtmlIndex, index_html

TUTORIAL_PAGES = 8  # pages of the Token factory tutorial when complete


@dataclass
class GateContext:
    book: Book
    parsed: dict
    output: Output
    reference_problems: list = field(default_factory=list)
    tutorial_page_count: int = TUTORIAL_PAGES
    cache: BuildCache | None = None
    code_version: str = ""
    root: Path | None = None  # the project (the scripts gate reads the repository's copies)
    _html: dict = field(default_factory=dict)

    def per_page(self, kind: str, parsed, compute, *inputs):
        """A page-level scan, recomputed only when the page's text, the inputs or the code change."""
        cache = self.cache or NoCache()
        return cache.get(kind, lambda: digest(parsed.page.model_dump(mode="json"), self.code_version, *inputs), compute)

    def html(self, path: str) -> HtmlIndex:
        if path not in self._html:
            text = self.output.text(path)
            cache = self.cache or NoCache()
            self._html[path] = cache.get("html-index", lambda: digest(text), lambda: index_html(text))
        return self._html[path]

    def where(self, path: str) -> SourceLocation:
        """Output pages are located as `_site/<path>`; their sources are named in the message."""
        return SourceLocation(f"_site/{path}")

    def chapter_pages(self, page_id: str):
        """(lang, parsed page, is draft) for each language that has the page."""
        from ..model import LANGS

        for lang in LANGS:
            parsed = self.parsed.get((lang, page_id))
            if parsed is not None:
                yield lang, parsed, parsed.page.meta.status != "published"

