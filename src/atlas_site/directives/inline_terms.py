"""Glossary abbreviations in a text that no author can mark up with {{term:…}}: a claim's setting
(ledger data, shown on every page that cites the claim) and a node of the development map. Each
is linked to its glossary entry, its card shown on hover or tap (cards.js), and where the page has
not yet said what it stands for, its long name follows it, as a {{term:…}}'s first use has it."""

from __future__ import annotations

import re
from html import escape

from ..model.abbreviations import abbreviations, glossary_lookup, term_named

PLURAL = re.compile(r"s(?![A-Za-z0-9])")


def long_name(book, term, lang: str, after: str) -> str | None:
    """What to write after a term's abbreviation followed by `after`: the rest of its name when the
    words after it end the name ("JIT compilation": "just-in-time"; nothing when they are the whole
    name), else its long name or gloss (Book.spelt_out)."""
    rest = term.rest_of_name(lang, after)
    if rest is not None:
        return rest or None
    return book.spelt_out(term, lang)


def glossary_link(state, term_id: str, shown: str) -> str:
    """`shown` linked to the term: its definition on this page, else its glossary entry; plain
    text in a book with neither."""
    key = escape(term_id)
    if term_id in state.defined:
        return f'<a class="term" href="#term-{key}" data-term="{key}">{escape(shown)}</a>'
    if state.book.profile.generates("glossary"):
        return f'<a class="term" href="glossary.html#term-{key}" data-term="{key}">{escape(shown)}</a>'
    return escape(shown)


def with_terms(state, text: str, *, nested: bool, defines: bool) -> tuple[str, list[str]]:
    """(the text escaped, its abbreviations linked and spelt out; the terms it said for the page).
    `nested`: the text reads as a bracket (a setting), so a long name goes in the brackets a bracket
    holds. `defines`: what it spells out counts for the page after it (not in a setting that folds
    away on a phone, whose reader may never open it)."""
    book, lang = state.book, state.lang
    spelt, pattern = glossary_lookup(book.terms.values())
    expansion = state.ui("term_expansion_nested" if nested else "term_expansion")
    pieces, said, at = [], [], 0
    for offset, token in abbreviations(text, pattern):
        term = term_named(token, spelt)
        if term is None or term.abbr in book.profile.glossary.common:
            continue
        pieces.append(escape(text[at:offset]))
        at = offset + len(token)
        if PLURAL.match(text, at):  # "SLOs": the long name follows the whole word
            token, at = token + "s", at + 1
        pieces.append(glossary_link(state, term.id, token))
        if term.id in state.expanded or term.id in said:
            continue
        name = long_name(book, term, lang, text[at:])
        if name is not None and name.casefold() not in text.casefold():
            pieces.append(f'<span class="term-expansion">{escape(expansion.format(name=name))}</span>')
            if defines:
                state.expanded.add(term.id)
        if defines:
            said.append(term.id)  # spelt out, or linked to the card that says what it is
    return "".join(pieces) + escape(text[at:]), said
