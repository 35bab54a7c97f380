"""What every page's frame needs: the book's title, the languages and the twin of this page in
each, the navigation in the profile's reading order, and the interface strings."""

from __future__ import annotations

from ..model import Book
from .assets import CSP
from .typography import typesetter
from .web import head_meta


def frame(
    book: Book,
    lang: str,
    path: str,
    page_id: str | None,
    title: str | None = None,
    description: str | None = None,
) -> dict:
    """The template context shared by every page of one language. `page_id` names the page whose
    twins the language switch and the alternates point at (None on the entry page); `title` and
    `description` are what link previews and search engines show of it."""
    depth = path.count("/")
    strings = book.strings[lang]
    html_lang = book.profile.language(lang).html_lang
    twins = (
        [
            {
                "code": other.code,
                "html_lang": other.html_lang,
                "name": other.name,
                "href": f"../{other.code}/{page_id}.html",
            }
            for other in book.profile.languages
            if other.code != lang and _has_twin(book, other.code, page_id)
        ]
        if page_id
        else []
    )
    return {
        "lang": lang,
        "html_lang": html_lang,
        # the page's main part as Chinese is set: no space beside full-width punctuation (cjk_spacing.py)
        "typeset": typesetter(html_lang),
        "site_title": book.profile.title[lang],
        # a phone's header shows the short title (the full one pushed its buttons onto a second row)
        "site_short_title": book.profile.short_title[lang],
        "t": lambda key: strings[key],
        "root": "../" * depth,
        "csp": CSP,
        "twins": twins,
        "nav": nav_entries(book, lang),
        # the part the page belongs to: its entry in the navigation is marked on every page of the
        # part, not only the first (review 31-l #5: 14 of 16 pages marked none)
        "current_part": _part_id(book, page_id),
        "head": head_meta(book, lang, path, page_id, title or book.profile.title[lang], description),
    }


def _part_id(book: Book, page_id: str | None) -> str:
    part = book.part_of(page_id) if page_id else None
    return part.id if part else ""


def _has_twin(book: Book, other: str, page_id: str) -> bool:
    """Whether the page exists in the language `other`: a page of the prose where that language
    has it; a generated page (home, glossary, numbers, …) in every language. The language switch,
    the alternates and side-by-side reading (page.html.j2 shows its switches only with a twin)
    point only at twins that exist."""
    written = any(page.id == page_id for page in book.pages)
    return not written or book.page(other, page_id) is not None


def nav_entries(book: Book, lang: str) -> list[dict]:
    """Top navigation: each chapter, each series as one entry (its pages have their own series
    list), and the generated pages, in the profile's order."""
    entries = []
    for part in book.profile.parts:
        first = first_page(book, lang, part)
        if first is not None:
            entries.append(
                {"href": first.output_path, "label": part_label(book, lang, part), "part": part.id}
            )
        elif part.generated:
            entries.append(
                {"href": f"{lang}/{part.generated}.html", "label": book.ui(part.generated, lang), "part": ""}
            )
    return entries


def first_page(book: Book, lang: str, part):
    """The page a chapter or series opens with in one language (None for a generated part)."""
    present = {p.id: p for p in book.pages_in(lang)}
    return next((present[p] for p in part.page_ids if p in present), None)


def part_label(book: Book, lang: str, part) -> str:
    """What readers call a part: a chapter by its page's short title, a series by its title."""
    if part.series:
        return part.title[lang]
    if part.generated:
        return book.ui(part.generated, lang)
    page = first_page(book, lang, part)
    return (page.meta.short_title or page.meta.title) if page else part.id


def series_of(book: Book, lang: str, page_id: str) -> dict | None:
    """The series a page belongs to: its title and its pages in order (for the series list)."""
    part = book.part_of(page_id)
    if part is None or not part.series:
        return None
    present = {p.id: p for p in book.pages_in(lang)}
    return {
        "title": part.title[lang] if part.title else "",
        "pages": [present[p] for p in part.pages if p in present],
    }
