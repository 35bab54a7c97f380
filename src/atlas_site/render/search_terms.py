"""The glossary's names of each term, for the search box (assets/search-terms-<lang>.js, a classic
script search.js loads with the index): a reader who types one name of a term ("预填充") also finds
the section whose title uses another ("Prefill: …"). Pagefind still decides which pages match."""

from __future__ import annotations

import json

from ..model import Book


def search_terms(book: Book) -> str:
    groups = []
    for term in book.terms.values():
        names = [term.names[lang] for lang in book.languages] + ([term.abbr] if term.abbr else [])
        names += [alias for lang in book.languages for alias in term.aliases.get(lang, ())]
        groups.append(sorted(dict.fromkeys(n for n in names if n.strip())))
    payload = json.dumps(sorted(groups), ensure_ascii=False, separators=(",", ":"))
    return f"window.AtlasSearchTerms={payload};\n"
