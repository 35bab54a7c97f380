"""What every page's frame needs: the book's title, the languages and the twin of this page in
each, the navigation in the profile's reading order, and the interface strings."""
from __future__ import annotations

from ..model import Book
from .assets import CSP


def frame(book: Book, lang: str, path: str, page_id: str | None, downloads=()) -> dict:
    """The template context shared by every page of one language. `page_id` names the page whose
    twins the language switch and the alternates point at (None on the entry page); `downloads`
    are the print and e-book editions the footer links (export/downloads.py)."""
    depth = path.count("/")
    strings = book.strings[lang]
    twins = [{"code": other.code, "html_lang": other.html_lang, "name": other.name,
              "href": f"../{other.code}/{page_id}.html"}
             for other in book.profile.languages if other.code != lang] if page_id else []
    return {
        "lang": lang,
        "html_lang": book.profile.language(lang).html_lang,
        "site_title": book.profile.title[lang],
        "t": lambda key: strings[key],
        "root": "../" * depth,
        "csp": CSP,
        "twins": twins,
        "nav": nav_entries(book, lang),
        "downloads": [d for d in downloads if d.lang == lang],
    }


def nav_entries(book: Book, lang: str) -> list[dict]:
    """Top navigation: each chapter, each series as one entry (its pages have their own series
    list), and the generated pages, in the profile's order."""
    entries = []
    present = {p.id: p for p in book.pages_in(lang)}
    for part in book.profile.parts:
        if part.chapter and part.chapter in present:
            page = present[part.chapter]
            entries.append({"href": page.output_path, "label": page.meta.short_title or page.meta.title})
        elif part.series:
            first = next((present[p] for p in part.pages if p in present), None)
            if first is not None:
                entries.append({"href": first.output_path, "label": part.title[lang]})
        elif part.generated:
            entries.append({"href": f"{lang}/{part.generated}.html", "label": book.ui(part.generated, lang)})
    return entries


def series_of(book: Book, lang: str, page_id: str) -> dict | None:
    """The series a page belongs to: its title and its pages in order (for the series list)."""
    part = book.part_of(page_id)
    if part is None or not part.series:
        return None
    present = {p.id: p for p in book.pages_in(lang)}
    return {"title": part.title[lang], "pages": [present[p] for p in part.pages if p in present]}
