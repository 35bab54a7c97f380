"""The glossary's names of each term, for the search box (assets/search-terms-<lang>.js, a classic
script search.js loads with the index): a reader who types one name of a term ("预填充") also finds
the section whose title uses another ("Prefill: …"). Pagefind still decides which pages match."""

from __future__ import annotations

import json

from ..model import Book
from .uses import shared_places


def search_terms(book: Book, homes: dict[str, str]) -> str:
    """`AtlasSearchTerms`, each term's names (a group); `AtlasSearchTermIds`, the term each group is
    (in the same order), so a query that names a term also offers its glossary entry;
    `AtlasSearchTermHomes`, the section where the book first defines each ("ch2#q1", the glossary's
    "first defined in"; "" when none): of the many sections that define a term at its first use on
    their page, that one explains it, and ranks first among them; `AtlasSearchTermPhrases`, what
    readers type for each term without naming it (the glossary's `search_phrases`)."""
    groups = []
    for term in book.terms.values():
        names = [term.names[lang] for lang in book.languages] + ([term.abbr] if term.abbr else [])
        names += [alias for lang in book.languages for alias in term.aliases.get(lang, ())]
        phrases = [phrase for lang in book.languages for phrase in term.search_phrases.get(lang, ())]
        groups.append((sorted(dict.fromkeys(n for n in names if n.strip())), term.id, phrases))
    groups.sort()

    def payload(values: list) -> str:
        return json.dumps(values, ensure_ascii=False, separators=(",", ":"))

    return (
        f"window.AtlasSearchTerms={payload([names for names, _, _ in groups])};\n"
        f"window.AtlasSearchTermIds={payload([term_id for _, term_id, _ in groups])};\n"
        f"window.AtlasSearchTermHomes={payload([homes.get(term_id, '') for _, term_id, _ in groups])};\n"
        f"window.AtlasSearchTermPhrases={payload([phrases for _, _, phrases in groups])};\n"
    )


def term_homes(book: Book, parsed: dict) -> dict[str, str]:
    """term id -> "page#section" where the book first defines it (the same in every language: the
    places are shared, render/uses.py)."""
    places = shared_places(book, parsed, book.languages[0], "term")
    return {
        term_id: f"{used[0].page_id}#{used[0].section}"
        for term_id, used in places.items()
        if used and used[0].section
    }
