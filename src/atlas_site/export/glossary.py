"""The glossary of the print and e-book editions of a book that has no glossary page of its own
(no `generated: glossary` part; a book that has one gets that page as it is): the glossary page's
entries, alphabetical (Chinese by pinyin), without the links into the web pages."""

from __future__ import annotations

from ..model import Book
from ..render.glossary import glossary_entries

GLOSSARY = "glossary"  # the part name of a glossary page, and the id of the generated chapter


def render_glossary(book: Book, lang: str, env) -> str:
    """The glossary as the HTML of a page's `main` content."""
    strings = book.strings[lang]
    return env.get_template("export/glossary.html.j2").render(
        entries=glossary_entries(book, {}, lang), t=lambda key: strings[key]
    )
