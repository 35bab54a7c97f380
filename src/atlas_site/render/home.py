"""The home page of each language (what the book teaches and for whom, its parts with one line
each, its labs, when each part was last verified), the root language chooser, and the 404 page."""

from __future__ import annotations

import functools

from ..model import Book
from .assets import GENERATED_PAGE_STYLES
from .layout import frame
from .uses import places_of


def part_lines(book: Book, lang: str) -> list[dict]:
    """Each part of book.yaml in reading order, with the line the home page shows for it: a page's
    own description; for a series, its first page's (the way in), with its pages listed after."""
    lines: list[dict] = []
    for part in book.profile.parts:
        if part.generated:
            lines.append(
                {
                    "title": book.ui(part.generated, lang),
                    "href": f"{part.generated}.html",
                    "line": book.ui(f"{part.generated}_description", lang),
                    "number": None,
                    "verified": None,
                    "pages": [],
                }
            )
            continue
        pages = [p for p in (book.page(lang, page_id) for page_id in part.page_ids) if p is not None]
        if not pages:
            continue
        dates = [p.meta.last_verified for p in pages if p.meta.last_verified]
        lines.append(
            {
                "title": part.title[lang] if part.series and part.title else pages[0].meta.title,
                "number": part.number,
                "href": f"{pages[0].id}.html",
                "line": pages[0].meta.description,
                "verified": min(dates) if dates else None,  # a series is only as fresh as its oldest page
                "pages": [
                    {"href": f"{p.id}.html", "title": p.meta.short_title or p.meta.title} for p in pages
                ]
                if part.series
                else [],
            }
        )
    return lines


def lab_lines(book: Book, parsed: dict, lang: str) -> list[dict]:
    """Every lab the book places, with the section it sits in."""
    labs = []
    for key, places in places_of(book, parsed, lang, "labs").items():
        for lab_id in key.split(","):
            if lab_id in book.labs:
                labs.append(
                    {
                        "title": book.labs[lab_id].title[lang],
                        "href": places[0].href,
                        "where": places[0].page_title,
                    }
                )
    return labs


def render_home(book: Book, env, parsed: dict, lang: str) -> str:
    about = book.profile.about
    title = book.profile.title[lang]
    return env.get_template("home.html.j2").render(
        **frame(book, lang, f"{lang}/index.html", "index", title, about.teaches[lang] if about else None),
        title=title,
        about=about,
        parts=part_lines(book, lang),
        labs=lab_lines(book, parsed, lang),
        styles=GENERATED_PAGE_STYLES,
        scripts=["site.js", "search.js", "chooser.js"],
    )


def _languages(book: Book) -> list[dict]:
    about = book.profile.about
    return [
        {
            "code": lang.code,
            "html_lang": lang.html_lang,
            "name": lang.name,
            "title": book.profile.title[lang.code],
            "readers": about.readers[lang.code] if about else None,
            "choose": book.ui("choose", lang.code),
            "enter": book.ui("enter", lang.code),
            "skip": book.ui("skip", lang.code),
        }
        for lang in book.profile.languages
    ]


def _every_language_header(book: Book) -> list[dict]:
    """What the header of a page in no one language says (base.html.j2): the book's title and the
    skip link in each language, and no one language's parts or search."""
    return [
        {"html_lang": entry["html_lang"], "title": entry["title"], "skip": entry["skip"]}
        for entry in _languages(book)
    ]


def render_chooser(book: Book, env) -> str:
    """The root index.html: one link per language; chooser.js remembers the choice and, on a later
    visit, goes straight to that language's home (never from `index.html#choose`, so no loop)."""
    first = book.languages[0]
    about = book.profile.about
    return env.get_template("index.html.j2").render(
        **frame(
            book,
            first,
            "index.html",
            None,
            " · ".join(book.profile.title[c] for c in book.languages),
            about.teaches[first] if about else None,
        ),
        languages=_languages(book),
        every_language=_every_language_header(book),
        styles=GENERATED_PAGE_STYLES,
        scripts=["chooser.js"],
    )


def render_not_found(book: Book, env, recovery: str) -> str:
    """404.html at the root, in every language at once. A server shows it at any depth, so with a site
    URL its links and styles are absolute; without one they are relative to the root. `recovery`
    (render/not_found.py) is what not-found.js guesses the missing page from."""
    first = book.languages[0]
    context = frame(book, first, "404.html", None, book.ui("not_found", first), None)
    if book.profile.site_url:
        context["root"] = book.profile.site_url
    else:
        # served for a missing /en/ch15.html or /zh/deep/x.html as well as /ch15.html: its assets are
        # linked from the root and from one and two folders down, and not-found.js points its links
        # at the root it found (reviews 31-r #1, 31-s #2: under /en/ the page was unstyled and its
        # links led to further 404 pages)
        context["asset_roots"] = ["", "../", "../../"]
    return env.get_template("404.html.j2").render(
        **context,
        recovery=recovery,
        languages=[
            {
                **entry,
                "not_found": book.ui("not_found", entry["code"]),
                "not_found_text": book.ui("not_found_text", entry["code"]),
                "not_found_guess": book.ui("not_found_guess", entry["code"]),
                "downloads": [d for d in env.globals.get("editions", ()) if d.lang == entry["code"]],
                "t": functools.partial(book.ui, lang=entry["code"]),
            }
            for entry in _languages(book)
        ],
        every_language=_every_language_header(book),
        styles=GENERATED_PAGE_STYLES,
        scripts=["not-found.js"],
    )
