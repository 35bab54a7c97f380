"""The numbers page of each language: every author-reported or benchmark number the book shows, in
one table, with its setting, label, source, caution and the sections that use it, so a reader can
cite a number with its setting from one place. Claims recorded in the ledger but shown nowhere in the
book are not listed. Without script it is a plain table; numbers.js adds filtering and sorting."""

from __future__ import annotations

from ..model import Book
from ..resolve.example_labs import lab_link
from .assets import GENERATED_PAGE_STYLES
from .citation import cite_page
from .layout import frame
from .state import RenderState, source_label
from .uses import figure_claims, places_of


def claim_rows(book: Book, parsed: dict, lang: str) -> list[dict]:
    """One row per claim the book shows, in the order readers first meet them."""
    in_prose = places_of(book, parsed, lang, "claim")
    in_figures = figure_claims(book, parsed, lang)
    order = list(in_prose) + [c for c in in_figures if c not in in_prose]
    rows = []
    for claim_id in order:
        claim = book.claims.get(claim_id)
        if claim is None:
            continue
        places = in_prose.get(claim_id, []) + [
            p for p in in_figures.get(claim_id, []) if p not in in_prose.get(claim_id, [])
        ]
        rows.append(
            {
                "id": claim.id,
                "text": claim.text[lang],
                "value": claim.values[0],
                "unit": claim.unit,  # a sort by number orders within one unit (× apart from %)
                "setting": claim.setting[lang],
                "label": book.ui(claim.label_key, lang),
                "sources": _sources(book, claim),
                "caution": claim.caution[lang] if claim.caution else None,
                "verified": claim.verified.isoformat(),  # the review date a citation of the number should carry
                "places": places,
                "cite": cite_number(book, lang, claim),
            }
        )
    return rows


def _sources(book: Book, claim) -> list[dict]:
    """One link per work (the numbers page serves the chapter's and the tutorial's readers: a work
    cited as N27 and as 64 is one link that says both, "N27 · 64"), its card the work's first
    number's on every row (one number per work on the page: gates/citations.py). Every number of
    the work, whichever the claim names: a row that said "N49" for a work that is also R66 was
    missed by a reader looking for R66 (review 30-z13 #10)."""
    works: dict[str, dict] = {}
    for number in claim.source:
        work = book.registry.work_of(number)
        if work is None or work.key in works:
            continue
        numbers = book.registry.numbers_of(work.key)
        label = " · ".join(source_label(book, n) for n in numbers)
        works[work.key] = {"number": numbers[0], "label": label, "work": work.key}
    return list(works.values())


def cite_number(book: Book, lang: str, claim) -> dict:
    """ "Cite this number": the works that report it first, then the book as where it was found."""
    works = [book.registry.work_of(n) for n in claim.source]
    sources = [
        f"{work.title}{f' ({work.year})' if work.year else ''}.{f' {work.url}' if work.url else ''}"
        for work in dict.fromkeys(w for w in works if w is not None)
    ]
    where = cite_page(book, lang, f"{lang}/numbers.html", "numbers", book.ui("numbers", lang))
    return {
        "sources": sources,
        "book": where["formatted"] + (f" {where['url']}#claim-{claim.id}" if where["url"] else ""),
    }


def example_rows(book: Book, parsed: dict, computed: dict, lang: str) -> list[dict]:
    """One row per worked example the prose shows, in reading order: its outputs as the book prints
    them, its label and assumption, and the sections that use it (the target of the prose's link)."""
    state = RenderState(book, lang, f"{lang}/numbers.html", computed)
    places: dict[str, list] = {}
    for reference, found in places_of(book, parsed, lang, "ex").items():
        example_id = reference.partition(".")[0]
        places.setdefault(example_id, []).extend(p for p in found if p not in places.get(example_id, []))
    rows = []
    for example_id, found in places.items():
        example = book.examples.get(example_id)
        if example is None:
            continue
        rows.append(
            {
                "id": example.id,
                "outputs": [
                    state.example_text(f"{example.id}.{name}")
                    + (  # a number of another kind than its example's says so
                        f" ({book.ui(example.label_key_of(name), lang)})"
                        if example.label_key_of(name) != example.label_key
                        else ""
                    )
                    for name in example.outputs
                ],
                "label": book.ui(example.label_key, lang),
                "note": example.note[lang] if example.note else None,
                "places": found,
                "lab": _lab_link(book, parsed, computed, lang, example),
            }
        )
    return rows


def _lab_link(book: Book, parsed: dict, computed: dict, lang: str, example) -> dict | None:
    """The lab that shows the example, opened in its state: only when the build saw the lab show it."""
    href = lab_link(book, parsed, computed, lang, example)
    return {"href": href, "title": book.labs[example.lab_id or ""].title[lang]} if href else None


def render_numbers(book: Book, env, parsed: dict, computed: dict, lang: str, was: dict | None = None) -> str:
    """`was`: claim id -> the note that this edition changed it (render/site.py _was)."""
    title = book.ui("numbers", lang)
    return env.get_template("numbers.html.j2").render(
        **frame(book, lang, f"{lang}/numbers.html", "numbers", title, book.ui("numbers_description", lang)),
        title=title,
        rows=[{**row, "was": (was or {}).get(row["id"])} for row in claim_rows(book, parsed, lang)],
        has_changes=book.profile.edition is not None,
        examples=example_rows(book, parsed, computed, lang),
        styles=GENERATED_PAGE_STYLES,
        scripts=["site.js", "cards.js", "search.js", "numbers.js"],
    )
