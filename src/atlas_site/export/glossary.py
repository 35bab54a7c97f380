"""The glossary of the print and e-book editions, from ledger/glossary.md: every term in the
ledger's order (its topics), with its abbreviation, its names in the book's other languages, its
definition and its aliases. The one function the editions share while the book has no glossary
page of its own (a `generated: glossary` part, which the editions then take as it is)."""
from __future__ import annotations

from ..model import Book

GLOSSARY = "glossary"  # the part name of a glossary page, and the id of the generated chapter


def glossary_entries(book: Book, lang: str) -> list[dict]:
    entries = []
    for term in book.terms.values():
        others = [{"html_lang": other.html_lang, "name": term.names[other.code]}
                  for other in book.profile.languages if other.code != lang and term.names.get(other.code)]
        entries.append({"id": term.id, "name": term.names[lang], "abbr": term.abbr, "others": others,
                        "definition": term.definition[lang], "aliases": list(term.aliases.get(lang, ()))})
    return entries


def render_glossary(book: Book, lang: str, env) -> str:
    """The glossary as the HTML of a page's `main` content."""
    strings = book.strings[lang]
    return env.get_template("export/glossary.html.j2").render(
        entries=glossary_entries(book, lang), t=lambda key: strings[key])
