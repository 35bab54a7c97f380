"""One language of the book as an edition: its pages in the profile's reading order, each the
cleaned content of the rendered web page (so every number, label and citation is exactly what the
site shows), plus the generated parts (the glossary when the book has no glossary page, and the
bibliography). Internal links are brought to one form, `<chapter>.html#<id>`, which the PDF and the
EPUB then map to their own: a link whose target is not in the edition is kept as plain text."""

from __future__ import annotations

import datetime as dt
import posixpath
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from ..model import Book
from ..output import Output
from .clean import clean_page, external_links, paragraph
from .glossary import GLOSSARY, render_glossary
from .xhtml import XHTML, find_first, html, name, parents, parse_html, text_of, unwrap

HEADINGS = ("h1", "h2", "h3")
ID_REFERENCES = ("aria-labelledby", "aria-describedby", "for", "headers")  # attributes naming ids


@dataclass
class Heading:
    id: str  # the id inside its chapter
    level: int  # 1 for the chapter's title
    text: str


@dataclass
class Chapter:
    id: str  # the page id, or the generated part's name (bibliography, glossary)
    title: str  # the chapter's heading as text ("14 Inference serving …")
    running: str  # the running header of its pages in print
    body: ET.Element  # a <section> of XHTML
    headings: list[Heading] = field(default_factory=list)
    series: str | None = None  # the name of the series the page belongs to
    listed: int = 3  # the deepest of its headings the table of contents lists

    @property
    def start(self) -> str:
        return self.headings[0].id

    def ids(self) -> set[str]:
        return {str(e.get("id")) for e in self.body.iter() if e.get("id")}


@dataclass
class Edition:
    book: Book
    lang: str
    chapters: list[Chapter]

    @property
    def profile(self):
        return self.book.profile

    @property
    def html_lang(self) -> str:
        return self.profile.language(self.lang).html_lang

    @property
    def title(self) -> str:
        return self.profile.title[self.lang]

    @property
    def author(self) -> str | None:
        author = self.profile.downloads.author
        return author[self.lang] if author else None

    @property
    def date(self) -> dt.date | None:
        """The edition's date: book.yaml's `edition` where it names one (the day the site, the PDF
        and the EPUB all give; review 31-k #7), else the newest `last_verified` of its pages (never
        the clock)."""
        if self.profile.edition is not None:
            return self.profile.edition.date
        dates = [p.meta.last_verified for p in self.book.pages_in(self.lang) if p.meta.last_verified]
        return max(dates) if dates else None

    @property
    def day(self) -> dt.date:
        """The date, where the export checked there is one (export.no-date refuses a book without)."""
        if self.date is None:
            raise ValueError(f"no page in '{self.lang}' has last_verified")
        return self.date

    def ui(self, key: str) -> str:
        return self.book.ui(key, self.lang)

    def chapter(self, chapter_id: str) -> Chapter:
        return next(c for c in self.chapters if c.id == chapter_id)

    def contents(self, deepest: int) -> list[Entry]:
        """The table of contents down to heading level `deepest`: one entry per chapter, the pages
        of a series under one entry named after it."""
        entries: list[Entry] = []
        for chapter in self.chapters:
            entry = _entry(chapter, chapter.headings, min(deepest, chapter.listed))
            if chapter.series is None:
                entries.append(entry)
            elif entries and entries[-1].chapter is None and entries[-1].title == chapter.series:
                entries[-1].children.append(entry)
            else:
                entries.append(Entry(chapter.series, None, None, 0, [entry]))
        return entries


@dataclass
class Entry:
    title: str
    chapter: str | None  # None for the name of a series (it has no page of its own)
    anchor: str | None
    level: int
    children: list[Entry] = field(default_factory=list)


def _entry(chapter: Chapter, headings: list[Heading], deepest: int) -> Entry:
    """The chapter's title, its sections under it, and their subsections under them."""
    top = Entry(chapter.title, chapter.id, chapter.start, 1)
    stack = [top]
    for heading in headings[1:]:
        if heading.level > deepest:
            continue
        while len(stack) > 1 and stack[-1].level >= heading.level:
            stack.pop()
        entry = Entry(heading.text, chapter.id, heading.id, heading.level)
        stack[-1].children.append(entry)
        stack.append(entry)
    return top


def assemble_edition(book: Book, output: Output, lang: str, env) -> Edition:
    chapters: list[Chapter] = []
    for part in book.profile.parts:
        if part.generated:
            if (
                part.generated != GLOSSARY
                and not any(c.id == GLOSSARY for c in chapters)
                and _needs_glossary(book)
            ):
                chapters.append(_glossary_chapter(book, output, lang, env))
            path = f"{lang}/{part.generated}.html"
            if path in output:
                chapters.append(_chapter(book, output, lang, part.generated, None))
                if part.generated == GLOSSARY:
                    chapters[
                        -1
                    ].listed = 1  # its sections are its initial letters: headings on the page, not contents
            continue
        for page_id in part.page_ids:
            page = book.page(lang, page_id)
            if page is None:
                continue
            chapter = _chapter(
                book,
                output,
                lang,
                page_id,
                f"{part.title[lang]} · {page.meta.short_title or page.meta.title}"
                if part.series and part.title
                else None,
            )
            chapter.series = part.title[lang] if part.series and part.title else None
            chapters.append(chapter)
    if _needs_glossary(book) and not any(c.id == GLOSSARY for c in chapters):
        chapters.append(_glossary_chapter(book, output, lang, env))
    edition = Edition(book, lang, chapters)
    _canonical_links(edition)
    return edition


def _needs_glossary(book: Book) -> bool:
    """A glossary section is generated from the ledger unless the book has a glossary page."""
    return bool(book.terms) and not any(p.generated == GLOSSARY for p in book.profile.parts)


def _glossary_chapter(book: Book, output: Output, lang: str, env) -> Chapter:
    section = parse_html(f"<main>{render_glossary(book, lang, env)}</main>")
    return _from_main(book, output, lang, GLOSSARY, _main_of(section), None)


def _chapter(book: Book, output: Output, lang: str, chapter_id: str, running: str | None) -> Chapter:
    """The chapter `chapter_id` whole (a chapter published as several pages as one document)."""
    page_html = output.document(f"{lang}/{chapter_id}.html")
    return _from_main(book, output, lang, chapter_id, _main_of(parse_html(page_html)), running)


def _main_of(document) -> ET.Element:
    main = find_first(document, "main")
    if main is None:  # every page template has a <main>; a theme that drops it cannot be printed
        raise ValueError("the page has no <main> element")
    return main


def _from_main(
    book: Book, output: Output, lang: str, chapter_id: str, main: ET.Element, running: str | None
) -> Chapter:
    body = clean_page(
        main,
        lambda panel_id: _lab_address(book, output, lang, chapter_id, panel_id),
        book.ui("export_lab_defaults", lang),
    )
    external_links(body)
    headings = _headings(body)
    title = headings[0].text if headings else chapter_id
    return Chapter(chapter_id, title, running or title, body, headings)


def _lab_address(book: Book, output: Output, lang: str, page_id: str, panel_id: str) -> ET.Element:
    """The web address of a lab's interactive version: absolute when book.yaml has `site_url`,
    otherwise the page's path in the web edition, said to be relative. The page is the one that
    holds the lab: a part page where the chapter is published as several (review 31-k #8: the
    chapter's first page was printed, reached only through its moved-link script)."""
    page = output.page_holding(lang, page_id, f'id="{panel_id}"') or f"{lang}/{page_id}.html"
    path = f"{page}#{panel_id}"
    site_url = book.profile.site_url
    if site_url:
        link = html(
            "a", {"class": "external", "href": site_url + path, "rel": "noopener noreferrer"}, site_url + path
        )
        return paragraph(book.ui("export_lab_online", lang), "lab-online", link)
    address = html("code", {}, path)
    address.tail = book.ui("export_lab_relative", lang)
    return paragraph(book.ui("export_lab_online", lang), "lab-online", address)


def _headings(body: ET.Element) -> list[Heading]:
    """Every h1–h3 of the chapter, each with an id (the title gets one if it had none)."""
    taken = {e.get("id") for e in body.iter() if e.get("id")}
    found = []
    for element in body.iter():
        tag = name(element)
        if element.tag != f"{{{XHTML}}}{tag}" or tag not in HEADINGS:
            continue
        if not element.get("id"):
            element.set("id", _unique("title" if tag == "h1" else "heading", taken))
        found.append(Heading(str(element.get("id")), int(tag[1]), " ".join(text_of(element).split())))
    return found


def _unique(base: str, taken: set) -> str:
    candidate, number = base, 1
    while candidate in taken:
        number += 1
        candidate = f"{base}-{number}"
    taken.add(candidate)
    return candidate


def _canonical_links(edition: Edition) -> None:
    """Every internal href becomes `<chapter>.html#<id>` of a chapter of this edition; a link to
    anything else (the home page, the dashboard) or to an id that is not there is unwrapped. Id
    references (aria-labelledby, for, …) that point at removed elements are dropped."""
    ids = {c.id: c.ids() for c in edition.chapters}
    for chapter in edition.chapters:
        here = f"{edition.lang}/{chapter.id}.html"
        tree = parents(chapter.body)
        for link in list(chapter.body.iter(f"{{{XHTML}}}a")):
            href = link.get("href")
            if href is None or href.startswith(("https://", "http://")):
                continue
            target = _target(here, href, edition.lang, chapter.id)
            if target is None or target[0] not in ids:
                unwrap(link, tree[link])
                continue
            page, fragment = target
            fragment = fragment or edition.chapter(page).start
            if fragment not in ids[page]:
                unwrap(link, tree[link])
                continue
            link.set("href", f"{page}.html#{fragment}")
        own = ids[chapter.id]
        for element in chapter.body.iter():
            for attribute in ID_REFERENCES:
                value = element.get(attribute)
                if value is None:
                    continue
                kept = [token for token in value.split() if token in own]
                if kept:
                    element.set(attribute, " ".join(kept))
                else:
                    del element.attrib[attribute]


def _target(here: str, href: str, lang: str, chapter_id: str) -> tuple[str, str] | None:
    path, _, fragment = href.partition("#")
    if not path:
        return chapter_id, fragment
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(here), path))
    folder, _, file_name = resolved.rpartition("/")
    if folder != lang or not file_name.endswith(".html"):
        return None
    return file_name[: -len(".html")], fragment
