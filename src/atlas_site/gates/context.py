"""What every gate reads: the book, parsed pages, the rendered output, indexed once."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

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
    _html: dict = field(default_factory=dict)

    def html(self, path: str) -> HtmlIndex:
        if path not in self._html:
            self._html[path] = index_html(self.output.text(path))
        return self._html[path]

    def where(self, path: str) -> SourceLocation:
        """Output pages are located as `_site/<path>`; their sources are named in the message."""
        return SourceLocation(f"_site/{path}")

    @cached_property
    def page_paths(self) -> dict[str, tuple[str, str]]:
        return {p.page.output_path: key for key, p in self.parsed.items()}
