"""The glossary page of each language: every term of the ledger with its name in every language, its
abbreviation and definition, the place the book defines it and the sections that use it.
English sorts alphabetically; Chinese by pinyin (pypinyin), with letter headings."""

from __future__ import annotations

import re

from markupsafe import Markup

from ..model import Book
from .assets import GENERATED_PAGE_STYLES
from .layout import frame
from .mathml import text_with_formulas
from .uses import Place, shared_places

LATIN = re.compile(r"[A-Za-z]")


def sort_key(name: str, lang: str, abbr: str | None = None) -> tuple:
    """Alphabetical, ignoring case; Chinese characters by their pinyin, letters first and the tone
    as a digit after them (推 tui1 before 吞 tun1; 读 du2 before 堵 du3), Latin words as they are.
    A Chinese name that readers meet as a Latin abbreviation (首 token 延迟, TTFT; token 间延迟,
    ITL) is found under the abbreviation's letter, as the prose writes it: never under the pinyin
    of its characters, nor under a Latin word inside its name."""
    if lang.startswith("zh") and abbr and LATIN.match(abbr):
        return (abbr.casefold(),), name
    if lang.startswith("zh"):
        # imported here: its dictionaries take a third of a second to load, which a book without
        # Chinese terms (or a build whose glossary comes from the cache) never needs
        from pypinyin import Style, lazy_pinyin

        syllables = lazy_pinyin(name, style=Style.TONE3, neutral_tone_with_five=True)
        return tuple(s.strip().casefold() for s in syllables if s.strip()), name
    return (name.casefold(),), name


def initial(key: tuple) -> str:
    first = key[0][0][:1].upper() if key[0] and key[0][0] else "#"
    return first if "A" <= first <= "Z" else "#"


def distinct_names(term, lang: str, languages) -> tuple[str | None, list]:
    """The abbreviation and the (language, name) pairs a term shows beside its name in `lang`, each
    only where it says something new: a term called KDA in every language shows "KDA" once, not
    "KDA KDA KDA"."""
    name = term.names[lang]
    # a name that holds its abbreviation ("DSA 稀疏注意力") shows it already: not "DSA 稀疏注意力 DSA"
    abbr = term.abbr if term.abbr and term.abbr.casefold() not in name.casefold() else None
    seen = {name, abbr}
    others = []
    for other in languages:
        if other.code != lang and term.names[other.code] not in seen:
            seen.add(term.names[other.code])
            others.append((other, term.names[other.code]))
    return abbr, others


def defining_place(term, used: list) -> Place | None:
    """Where the glossary says a term is defined: the first section, in reading order, whose title
    names it (in any language, or by its abbreviation), else its first use. A use in passing
    (NVFP4 met as a model's precision before the section on NVFP4) defines nothing. An abbreviation
    that is a piece of the name (KV of "KV cache") names no term of its own: "KV" heads sections on
    KV of every kind (review 30-z19 #5 found the KV cache "defined" in a trend of the frontier page,
    long after Chapter 14 had defined it)."""
    names = [name for name in term.names.root.values() if name]
    if term.abbr and not any(term.abbr.casefold() in name.casefold() for name in names):
        names.append(term.abbr)
    for place in used:
        if any(_names(name, place.title) for name in names):
            return place
    return used[0] if used else None


def _names(name: str, title: str) -> bool:
    """Whether `title` holds `name` as a word of its own (a Latin name inside a longer word does not count)."""
    if not name.isascii():
        return name.casefold() in title.casefold()
    # "SLOs" names the SLO
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}s?(?![A-Za-z0-9])", title, re.IGNORECASE) is not None


def _defined(term_id: str, place, on_page: bool = True) -> dict:
    """Where a term is defined: the page and, when the term stands in one, the section (its
    definition there when this language's page has it, else the section)."""
    # the link names the section (its page before it, as plain text): "Ch. 14 · Serving · [Speculative decoding: …]"
    page = "" if place.title == place.page_title else place.page_title
    href = f"{place.page_id}.html#term-{term_id}" if on_page else place.href
    return {"href": href, "label": place.title, "page": page}


def glossary_entries(book: Book, parsed: dict, lang: str) -> list[dict]:
    # the sections that use a term in any language: the same "also used in" on every language's page
    places = shared_places(book, parsed, lang, "term")
    # where this language's prose itself uses each term: its definition is a target there
    here = {
        (parsed_page.page.id, use.section, use.key)
        for (lang_, _page), parsed_page in parsed.items()
        if lang_ == lang
        for use in parsed_page.uses_of("term")
    }
    entries = []
    for term in book.terms.values():
        used = places.get(term.id, [])
        key = sort_key(term.names[lang], lang, term.abbr)
        abbr, others = distinct_names(term, lang, book.profile.languages)
        entries.append(
            {
                "id": term.id,
                "name": term.names[lang],
                "abbr": abbr,
                "key": key,
                "initial": initial(key),
                "others": [
                    {"name": name, "html_lang": o.html_lang, "language": o.name} for o, name in others
                ],
                "definition": Markup(text_with_formulas(term.definition[lang])),  # $…$ as MathML
                "aliases": [a for a in term.aliases.get(lang, ()) if a != term.names[lang]],
                "defined": _defined(term.id, place, (place.page_id, place.section, term.id) in here)
                if (place := defining_place(term, used))
                else None,
                "used": used,
            }
        )
    return sorted(entries, key=lambda e: e["key"])


def render_glossary(book: Book, env, parsed: dict, lang: str) -> str:
    title = book.ui("glossary", lang)
    entries = glossary_entries(book, parsed, lang)
    letters = sorted({e["initial"] for e in entries})
    return env.get_template("glossary.html.j2").render(
        **frame(
            book, lang, f"{lang}/glossary.html", "glossary", title, book.ui("glossary_description", lang)
        ),
        title=title,
        entries=entries,
        letters=letters,
        styles=GENERATED_PAGE_STYLES,
        scripts=["site.js", "cards.js", "search.js"],
    )
