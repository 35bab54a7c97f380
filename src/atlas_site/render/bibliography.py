"""The bibliography of each language: one entry per distinct work, with all its ledger numbers,
a legend saying what the numbers are, back-links naming the page and section that cite it, and
(with a numbers page) the claims it is a source of. The data the citation cards show is in
render/previews.py."""

from __future__ import annotations

import re

from ..model import Book
from ..model.sources import ReferenceEntry
from ..rules.citations import CitesAll
from .layout import frame, part_label
from .state import CiteIndex, source_label


def render_bibliography(
    book: Book, env, lang: str, cites: CiteIndex, parsed: dict, claims_by_work: dict | None = None
) -> str:
    """`claims_by_work`: work key -> the numbers page rows of the claims it is a source of."""
    registry = book.registry
    where = _section_titles(book, lang, parsed)
    entries = []
    for key, work in registry.works.items():
        numbers = registry.numbers_of(key)
        ledger = [registry.entry(n) for n in numbers]
        refs = [e for e in ledger if isinstance(e, ReferenceEntry)]
        # the numbers readers meet in the text (a page shows one number per work, shown_number):
        # a ledger number no page shows is our bookkeeping, not the reader's ("89" beside "42")
        seen = {label for _path, _section, label in cites.places.get((lang, key), [])}
        labels = [source_label(book, n) for n in numbers]
        in_text = [label for label in labels if label in seen] or labels
        entries.append(
            {
                "work": work,
                "howpublished": (
                    book.profile.venues[work.howpublished][lang]
                    if work.howpublished in book.profile.venues
                    else work.howpublished
                ),
                "numbers": in_text,
                "evidence": sorted(
                    {book.profile.evidence[e.evidence][lang] for e in ledger if e is not None}
                ),
                "roles": [registry.nodes[n].role[lang] for n in numbers if n in registry.nodes],
                "verified": max((e.last_verified for e in ledger if e is not None), default=None),
                "rolling": any(e.rolling for e in ledger if e is not None),
                "refs": [
                    {
                        "label": source_label(book, r.number)
                        if source_label(book, r.number) in in_text
                        else "",
                        # the work's title is the entry's heading: a line says what this document
                        # of it is ("full paper"), not the title again
                        "title": _document(r.title_in(lang), work.title, len(ledger)),
                        "accessed": r.accessed,
                        "material_date": r.material_date_in(lang),
                        # as the citation cards: only where the text cannot be checked later (review
                        # 30-l #1: 69 notes on how each paper was read were the book's process)
                        "scope": r.scope[lang] if r.scope_at_every_use and r.scope else None,
                        # how the address was found is the book's process ("found by searching for
                        # the source": review 31-y #1); a reader needs to know only that there is none
                        "url_status": book.ui("url_status.unresolved", lang)
                        if r.url_status == "unresolved"
                        else None,
                        "url": r.url,
                    }
                    for r in refs
                ],
                "cited_from": _back_links(cites.places.get((lang, key), []), where),
                "claims": (claims_by_work or {}).get(key, []),
            }
        )
    gaps = [e for e in entries if e["work"].url is None]
    return env.get_template("bibliography.html.j2").render(
        **frame(
            book,
            lang,
            f"{lang}/bibliography.html",
            "bibliography",
            book.ui("bibliography", lang),
            book.ui("bibliography_description", lang),
        ),
        entries=entries,
        gaps=gaps,
        title=book.ui("bibliography", lang),
        legend=_legend(book, lang),
        styles=["atlas.css", "bibliography.css"],
    )


def _document(title: str, work_title: str, documents: int) -> str:
    """What a ledger entry's title adds to its work's: nothing when it repeats it ("Fast
    Transformer Decoding: … (MQA, 2019)" under that title), the part after " — " where it names
    the work and then the document ("Stable Answers, … — full paper": "full paper"), the title
    itself where the work has several documents and it names one of them otherwise."""
    head, dash, tail = title.rpartition(" — ")
    if dash and _same_work(head, work_title):
        return tail
    if _same_work(title, work_title) or documents == 1:
        return ""
    return title


def _same_work(title: str, work_title: str) -> bool:
    def plain(text: str) -> str:
        return re.sub(r"\s*\([^)]*\)\s*$", "", text).casefold().strip(" .:")

    a, b = plain(title), plain(work_title)
    return bool(a) and (b.startswith(a) or a.startswith(b))


def _section_titles(book: Book, lang: str, parsed: dict) -> dict:
    """(page path, section id) -> (page name, section title); section "" is the page's top."""
    titles = {}
    for page in book.pages_in(lang):
        name = page.meta.short_title or page.meta.title
        titles[(page.output_path, "")] = (name, "")
        for section in parsed[(lang, page.id)].sections:
            titles[(page.output_path, section.id)] = (name, section.title)
    return titles


def _back_links(places: list, where: dict) -> list[dict]:
    """One link per page section that cites the work, in reading order, saying where it goes."""
    links, seen = [], set()
    for path, section, _label in places:
        if (path, section) in seen:
            continue
        seen.add((path, section))
        page, title = where.get((path, section), (path, ""))
        links.append(
            {"href": f"../{path}" + (f"#{section}" if section else ""), "page": page, "section": title}
        )
    return links


def _legend(book: Book, lang: str) -> dict:
    """What the numbers are: each registry's range, its name (book.yaml `sources`) and the parts
    that promise to cite all of it (their `cites_all` rule); and a real work with several numbers."""
    registry, sep = book.registry, book.ui("list_sep", lang)
    lines = []
    for kind, shown in book.profile.sources.items():
        numbers = sorted(int(n[1:]) for n in registry.of_kind(kind))
        if not numbers:
            continue
        parts = [  # each named in quotes: "每一条都在第 14 章：推理服务中引用" ran the title into the sentence
            book.ui("quoted", lang).format(text=part_label(book, lang, part))
            for part in book.profile.parts
            if any(
                CitesAll.Args.model_validate(rule[CitesAll.name]).registry == kind
                for rule in part.rules
                if CitesAll.name in rule
            )
        ]
        span = shown.show(numbers[0]) + ("–" + shown.show(numbers[-1]) if len(numbers) > 1 else "")
        text = book.ui("bib_registry" if parts else "bib_registry_plain", lang)
        lines.append(text.format(range=span, title=shown.title[lang], parts=sep.join(parts)))
    shared = next(
        (
            registry.numbers_of(key)
            for key in registry.works
            if len({n[0] for n in registry.numbers_of(key)}) > 1
        ),
        None,
    )
    example = (
        book.ui("bib_shared", lang).format(example=" · ".join(source_label(book, n) for n in shared))
        if shared
        else ""
    )
    # the legend alone says what the numbers are (a second line above the list said it again)
    return {"lines": lines, "example": example}
