"""What the open web reads besides the page itself: the description and title of each page for
search engines and link previews, and — only when book.yaml sets `site_url` — the canonical address,
the absolute hreflang alternates (x-default: the first language of book.yaml), sitemap.xml and
robots.txt. Without `site_url` nothing here emits an absolute URL, so the site keeps working from any
sub-path and from file://."""

from __future__ import annotations

from html import escape
from urllib.parse import urlparse

from ..model import Book
from .citation import citation_tags, json_ld

# the reader's pages that are not in the sitemap: the contributors' dashboard and the error page
NOT_LISTED = ("dashboard.html", "404.html")


def head_meta(
    book: Book, lang: str, path: str, page_id: str | None, title: str, description: str | None
) -> dict:
    """The <head> metadata of one page: title and description for previews, and with a site URL its
    canonical address and the address of its twin in every language."""
    site = book.profile.site_url
    meta: dict = {
        "title": title,
        "description": description,
        "site_name": book.profile.title[lang],
        "canonical": None,
        "alternates": [],
        "noindex": path in NOT_LISTED,
        "citation": [],
        "jsonld": "",
        "site_root": site or "",
        "feed": book.profile.edition is not None,
    }
    if path not in NOT_LISTED and lang in book.languages:  # how scholars' tools cite it (render/citation.py)
        is_chapter = page_id is not None and book.page(lang, page_id) is not None
        meta["citation"] = citation_tags(book, lang, path, title, is_chapter)
        meta["jsonld"] = json_ld(book, lang, path, title, is_chapter)
    if site is None or path in NOT_LISTED:
        return meta
    meta["canonical"] = absolute(book, path)
    meta["alternates"] = alternates(book, path, page_id)
    return meta


def absolute(book: Book, path: str) -> str:
    return (book.profile.site_url or "") + ("" if path == "index.html" else path)


def alternates(book: Book, path: str, page_id: str | None) -> list[dict]:
    """hreflang -> absolute URL for every language's twin of the page, then x-default: the first
    language's twin (for the root language chooser, the chooser itself)."""
    languages = book.profile.languages
    if path == "index.html":
        links = [
            {"hreflang": lang.html_lang, "href": absolute(book, f"{lang.code}/index.html")}
            for lang in languages
        ]
        return links + [{"hreflang": "x-default", "href": absolute(book, "index.html")}]
    if page_id is None:
        return []
    links = [
        {"hreflang": lang.html_lang, "href": absolute(book, f"{lang.code}/{page_id}.html")}
        for lang in languages
    ]
    return links + [{"hreflang": "x-default", "href": links[0]["href"]}]


def reader_pages(book: Book, html_paths: list[str]) -> list[tuple[str, str | None]]:
    """(path, page id) of every page a reader may land on from a search engine."""
    found = []
    for path in sorted(html_paths):
        if path in NOT_LISTED:
            continue
        lang, _, name = path.rpartition("/")
        found.append((path, name[: -len(".html")] if lang in book.languages else None))
    return found


def sitemap(book: Book, html_paths: list[str]) -> str:
    """sitemap.xml: every reader page with its language alternates (xhtml:link), sorted."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ]
    for path, page_id in reader_pages(book, html_paths):
        lines.append(f"  <url><loc>{escape(absolute(book, path))}</loc>")
        for link in alternates(book, path, page_id):
            lines.append(
                f'    <xhtml:link rel="alternate" hreflang="{escape(link["hreflang"])}" href="{escape(link["href"])}"/>'
            )
        lines.append("  </url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def robots(book: Book) -> str:
    """robots.txt: everything may be crawled but the contributors' dashboard; the sitemap's address.
    (Crawlers read robots.txt only at a host's root: a site deployed under a sub-path publishes it
    there by hand.)"""
    base = urlparse(book.profile.site_url or "").path
    return f"User-agent: *\nDisallow: {base}dashboard.html\n\nSitemap: {absolute(book, 'sitemap.xml')}\n"


def add_web_files(book: Book, output) -> None:
    """sitemap.xml and robots.txt, only with a site URL (a relative sitemap is not a sitemap)."""
    if book.profile.site_url is None:
        return
    output.add("sitemap.xml", sitemap(book, output.html_pages()))
    output.add("robots.txt", robots(book))
