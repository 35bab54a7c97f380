"""How a page is cited: the Highwire / Google Scholar `citation_*` tags and a JSON-LD description
(schema.org Book or Chapter) in its head, and the "cite this page" block (BibTeX and a formatted
reference, with the edition and its date). Everything comes from book.yaml (title, downloads'
author, edition, site_url): no date is read from the clock, so the bytes stay the same."""

from __future__ import annotations

import json
import re

from ..model import Book


def _author(book: Book, lang: str) -> str:
    author = book.profile.downloads.author
    return author[lang] if author else ""


def _url(book: Book, path: str) -> str:
    return f"{book.profile.site_url}{path}" if book.profile.site_url else ""


def citation_tags(
    book: Book, lang: str, path: str, title: str, is_chapter: bool, pdf: str = ""
) -> list[tuple[str, str]]:
    """(name, content) of the page's citation_* meta tags."""
    edition = book.profile.edition
    tags = [("citation_title", title)]
    if is_chapter:
        tags.append(("citation_inbook_title", book.profile.title[lang]))
    if _author(book, lang):
        tags.append(("citation_author", _author(book, lang)))
    if edition is not None:
        tags.append(("citation_publication_date", edition.date.strftime("%Y/%m/%d")))
    tags.append(("citation_language", book.profile.language(lang).html_lang))
    if pdf:
        tags.append(("citation_pdf_url", _url(book, pdf) or pdf))
    return tags


def json_ld(book: Book, lang: str, path: str, title: str, is_chapter: bool) -> str:
    """The page as schema.org sees it, as JSON safe inside a <script> element."""
    edition = book.profile.edition
    the_book: dict = {
        "@type": "Book",
        "name": book.profile.title[lang],
        "inLanguage": book.profile.language(lang).html_lang,
    }
    if edition is not None:
        the_book |= {"bookEdition": str(edition.number), "datePublished": edition.date.isoformat()}
    if _author(book, lang):
        the_book["author"] = {"@type": "Organization", "name": _author(book, lang)}
    if book.profile.site_url:
        the_book["url"] = _url(book, f"{lang}/index.html")
    data = {"@context": "https://schema.org", **the_book}
    if is_chapter:
        data = {
            "@context": "https://schema.org",
            "@type": "Chapter",
            "name": title,
            "inLanguage": the_book["inLanguage"],
            "isPartOf": the_book,
        }
        if _url(book, path):
            data["url"] = _url(book, path)
    text = json.dumps(data, ensure_ascii=False, sort_keys=False, separators=(",", ":"))
    return text.replace("<", "\\u003c")  # no "</script>" can end the element early


def cite_page(book: Book, lang: str, path: str, page_id: str, title: str) -> dict:
    """The "cite this page" block: a BibTeX entry and a formatted reference in the page's language."""
    edition = book.profile.edition
    url = _url(book, path)
    key = re.sub(r"[^a-z0-9]+", "-", f"{book.profile.downloads.basename}-{page_id}-{lang}".lower()).strip("-")
    fields = [("title", title), ("booktitle", book.profile.title[lang])]
    if _author(book, lang):
        fields.append(("author", "{" + _author(book, lang) + "}"))  # a body of authors, not a person's name
    if edition is not None:
        fields += [
            ("edition", str(edition.number)),
            ("year", str(edition.date.year)),
            ("date", edition.date.isoformat()),
        ]
    if url:
        fields.append(("url", url))
    fields.append(("language", lang))
    bibtex = (
        "@incollection{"
        + key
        + ",\n"
        + ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        + "\n}"
    )
    ui = book.strings[lang]
    pattern = ui["cite_formatted"] if edition is not None else ui["cite_formatted_plain"]
    formatted = pattern.format(
        author=_author(book, lang) or book.profile.title[lang],
        title=title,
        book=book.profile.title[lang],
        edition=edition.number if edition else "",
        date=edition.date.isoformat() if edition else "",
    )
    return {"bibtex": bibtex, "formatted": formatted, "url": url}
