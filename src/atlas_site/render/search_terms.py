"""The glossary's names of each term, for the search box (assets/search-terms-<lang>.js, a classic
script search.js loads with the index): a reader who types one name of a term ("预填充") also finds
the section whose title uses another ("Prefill: …"). Pagefind still decides which pages match."""

from __future__ import annotations

import json

from ..model import Book


def search_terms(book: Book) -> str:
    """`AtlasSearchTerms`, each term's names (a group); `AtlasSearchTermIds`, the term each group is
    (in the same order), so a query that names a term also offers its glossary entry."""
    groups = []
    for term in book.terms.values():
        names = [term.names[lang] for lang in book.languages] + ([term.abbr] if term.abbr else [])
        names += [alias for lang in book.languages for alias in term.aliases.get(lang, ())]
        groups.append((sorted(dict.fromkeys(n for n in names if n.strip())), term.id))
    groups.sort()
    names_payload = json.dumps([names for names, _ in groups], ensure_ascii=False, separators=(",", ":"))
    ids_payload = json.dumps([term_id for _, term_id in groups], ensure_ascii=False, separators=(",", ":"))
    return f"window.AtlasSearchTerms={names_payload};\nwindow.AtlasSearchTermIds={ids_payload};\n"
