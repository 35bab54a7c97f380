"""The hot path of `atlas-site serve`: an edit of the prose of one or a few part files, rendered
against what the last good build left (the page's other parts, its figure numbers and translation
notices, every ledger) and spliced into the page that build rendered, so that open pages show it
before the full build has even loaded the book. The full build always follows and corrects what
this could not know (a twin's notice, the preview texts, the gates' verdict).

Anything the splice cannot vouch for gives None, and the full build alone decides: a file that is
not a part of a page, changed front matter, a new, removed or renamed heading, a reference the
page cannot resolve, a change of what the page cites or loads, or a body that does not occur
exactly once in the page's HTML."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from markupsafe import Markup

from ..cache import Versioned
from ..diagnostics import Collector
from ..load.front_matter import split_front_matter
from ..load.project import input_name, read_text
from ..markdown import make_parser
from ..model import Book, PagePart
from ..output import Output
from ..resolve.pages import ParsedPage, part_tokens, reparse_part
from ..resolve.references import check_page_references
from .assets import page_assets
from .dependencies import Dependencies
from .markdown_rules import install_rules
from .site import render_body
from .typography import typesetter


@dataclass
class LastBuild:
    """What a good build leaves for the next edit's hot path."""

    root: Path
    book: Book
    parsed: dict  # (lang, page id) -> ParsedPage
    computed: dict
    notices: dict  # (lang, page id) -> {section id: notice HTML}
    versions: (
        dict  # stage name -> the version of its cache entries (pipeline.versions), as that build had them
    )
    env: object  # that build's Jinja environment (never changed once made)
    dependencies: Dependencies  # the records' hashes, as that build computed them
    parts: dict = field(default_factory=dict)  # part path -> (lang, page id, index in the page)
    heads: dict = field(default_factory=dict)  # first part path -> its front matter as the build read it

    @classmethod
    def of(cls, root: Path, result) -> LastBuild:
        last = cls(
            root,
            result.book,
            result.parsed,
            result.computed,
            result.notices,
            result.versions,
            result.env,
            result.dependencies or Dependencies(result.book, result.computed),
        )
        for (lang, page_id), parsed_page in result.parsed.items():
            for index, part in enumerate(parsed_page.page.parts):
                last.parts[part.path] = (lang, page_id, index)
            first = parsed_page.page.parts[0]
            head = _head(root, first)
            if head is not None:
                last.heads[first.path] = head
        return last


def _head(root: Path, part: PagePart) -> str | None:
    """The front matter of a part file as its text is now, if its body is still the one built."""
    text = read_text(root / part.path, root, [])
    if text is None:
        return None
    doc, problems = split_front_matter(part.path, text)
    if problems or doc.body != part.body or doc.body_line != part.body_line:
        return None  # edited since that build: the next build sees it
    return "\n".join(text.split("\n")[: doc.body_line - 1])


def _outline(parsed_page: ParsedPage) -> list:
    return [(s.id, s.level, s.title, s.parent) for s in parsed_page.sections]


class QuickEdit:
    """Renders edits against one LastBuild; the parser and the per-record hashes are made once."""

    def __init__(self, last: LastBuild, cache, md=None, bodies: dict | None = None):
        self.last, self.cache = last, cache
        self.bodies = (
            bodies or {}
        )  # (lang, page id) -> (article content, what it cites) as the shown page has them
        if md is None:
            md = make_parser()
            install_rules(md)
        self.md = md
        # the stages' own cache views: the hot path finds what the build parsed and rendered
        self.tokens_of = part_tokens(md, Versioned(cache, last.versions["parse"]))
        self.render_cache = Versioned(cache, last.versions["render"])
        self.rendered: dict = {}  # what site() spliced in, for after()

    def after(self, edited: dict) -> QuickEdit:
        """The hot path for the edit after this one: as if a build had rendered `edited` pages."""
        return QuickEdit(
            replace(self.last, parsed={**self.last.parsed, **edited}),
            self.cache,
            self.md,
            {**self.bodies, **{key: self.rendered[key] for key in edited}},
        )

    def site(self, shown: Output | None, changed: list[Path]) -> tuple[Output, dict] | None:
        """`shown` with the pages the changed files belong to rendered again, and those pages
        parsed ((lang, page id) -> ParsedPage), or None."""
        if shown is None or not changed:
            return None
        edits: dict[tuple[str, str], dict[int, PagePart]] = {}
        for path in changed:
            name = input_name(path, self.last.root)
            if name not in self.last.parts:
                return None
            lang, page_id, index = self.last.parts[name]
            part = self._part(name, index)
            if part is None:
                return None
            edits.setdefault((lang, page_id), {})[index] = part
        output, edited = shown, {}
        for key, parts in sorted(edits.items()):
            done = self._page(output, self.last.parsed[key], parts)
            if done is None:
                return None
            output, edited[key] = done
        return output, edited

    def _part(self, name: str, index: int) -> PagePart | None:
        problems: list = []
        text = read_text(self.last.root / name, self.last.root, problems)
        if text is None or problems:
            return None
        doc, problems = split_front_matter(name, text)
        if problems or (doc.meta is not None) != (index == 0):
            return None  # only the first part carries front matter; the loader reports otherwise
        if index == 0 and "\n".join(text.split("\n")[: doc.body_line - 1]) != self.last.heads.get(name):
            return None  # front matter changed (or the last build's is unknown)
        return PagePart(path=name, body=doc.body, body_line=doc.body_line)

    def _page(
        self, output: Output, old: ParsedPage, edited: dict[int, PagePart]
    ) -> tuple[Output, ParsedPage] | None:
        page, new = old.page, old
        chapter = self.last.book.part_of(page.id)
        if chapter is not None and chapter.split:
            return None  # its parts are pages of their own: the cached build splits it again
        for index, part in sorted(edited.items()):
            parts = tuple(part if at == index else kept for at, kept in enumerate(new.page.parts))
            new = reparse_part(
                new, new.page.model_copy(update={"parts": parts}), index, self.md, self.tokens_of
            )
        if (
            new.problems
            or _outline(new) != _outline(old)
            or page_assets(new, page.lang) != page_assets(old, page.lang)
        ):
            return None
        references = Collector()
        check_page_references(self.last.book, new, self.last.computed, references)
        if any(d.severity == "error" for d in references.items):
            return None
        key = (page.lang, page.id)
        old_body, old_places = self.bodies.get(key) or self._body(old)
        new_body, new_places = self._body(new)
        if new_places != old_places:
            return None  # the works cited at the end of the page changed
        self.rendered[key] = (new_body, new_places)
        # the page holds its body as base.html.j2 set it (Chinese: typeset by cjk_spacing.py)
        typeset = typesetter(self.last.book.profile.language(page.lang).html_lang)
        html = output[page.output_path]
        before, after = (str(typeset(Markup(body))).encode("utf-8") for body in (old_body, new_body))
        if html.count(before) != 1:
            return None
        return output.replaced(page.output_path, html.replace(before, after)), new

    def _body(self, parsed_page: ParsedPage) -> tuple[str, dict]:
        last = self.last
        notices = last.notices.get((parsed_page.page.lang, parsed_page.page.id), {})
        body, state = render_body(
            last.book,
            parsed_page,
            last.computed,
            self.md,
            last.env,
            last.root,
            self.render_cache,
            notices,
            last.dependencies,
            self.tokens_of,
        )
        return body, state.cites.places
