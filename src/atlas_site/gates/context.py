"""What every gate reads: the book, the parse index of every page, what render placed (the
manifest), the rendered output (HTML indexed once, for what only HTML can show) and the rules."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cache import BuildCache, NoCache, Versioned, digest
from ..diagnostics import SourceLocation
from ..manifest import Manifest
from ..model import Book
from ..output import Output
from ..resolve.pages import reading_order
from .html_index import HtmlIndex, index_html


@dataclass
class GateContext:
    book: Book
    parsed: dict
    output: Output
    manifest: Manifest = field(default_factory=Manifest)
    rules: list = field(default_factory=list)
    reference_problems: list = field(default_factory=list)
    cache: BuildCache | Versioned | None = None  # the gates stage's (pipeline.py)
    root: Path | None = None  # the project (the scripts gate reads the repository's copies)
    translations: Any = None  # translations.state.Translations: each section against its twins
    as_of: datetime.date | None = None  # the day evidence freshness is judged on (None: not judged)
    tokens_of: Any = None  # the parse stage's part -> tokens (pipeline.py): the gates never parse
    _html: dict = field(default_factory=dict)

    def per_page(self, kind: str, parsed, compute, *inputs):
        """A page-level scan, recomputed only when the page's text, the inputs or the code change."""
        cache = self.cache or NoCache()
        return cache.get(kind, lambda: digest(parsed.page.model_dump(mode="json"), *inputs), compute)

    def html(self, path: str) -> HtmlIndex:
        if path not in self._html:
            text = self.output.text(path)
            cache = self.cache or NoCache()
            self._html[path] = cache.get("html-index", lambda: digest(text), lambda: index_html(text))
        return self._html[path]

    def reading_order(self, parsed) -> list:
        """The page's text runs and directive uses in reading order (resolve/pages.py), from the
        tokens the parse stage made of its parts."""
        if self.tokens_of is None:
            raise ValueError("the gates read the parse stage's tokens: GateContext(tokens_of=…)")
        return reading_order(parsed.page, self.tokens_of)

    def where(self, path: str) -> SourceLocation:
        """Generated output is located as `_site/<path>` (its problems are template or engine bugs)."""
        return SourceLocation(f"_site/{path}")

    def parsed_at(self, output_path: str):
        """The parsed page an output path was rendered from, or None for generated pages."""
        lang, _, name = output_path.partition("/")
        return self.parsed.get((lang, name.removesuffix(".html")))
