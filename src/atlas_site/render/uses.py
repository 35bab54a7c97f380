"""Where the book uses a record: the sections, in reading order, whose prose names it. The generated
reference pages (numbers, glossary) link back to these places."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Book


@dataclass(frozen=True)
class Place:
    page_id: str
    section: str  # section id ("" before the first heading)
    title: str  # the section's title, or the page's when the use sits before the first heading
    page_title: str

    @property
    def href(self) -> str:
        return f"{self.page_id}.html" + (f"#{self.section}" if self.section else "")


def _parsed_pages(book: Book, parsed: dict, lang: str):
    """`lang`'s pages that parsed, in reading order, with the title a place names its page by."""
    for page in book.pages_in(lang):
        parsed_page = parsed.get((lang, page.id))
        if parsed_page is not None:
            yield page, parsed_page, page.meta.short_title or page.meta.title


def places_of(book: Book, parsed: dict, lang: str, kind: str) -> dict[str, list[Place]]:
    """key -> the distinct sections of `lang` that use `kind` with that key, in reading order."""
    found: dict[str, list[Place]] = {}
    for page, parsed_page, page_title in _parsed_pages(book, parsed, lang):
        for use in parsed_page.uses_of(kind):
            section = parsed_page.section(use.section)
            place = Place(page.id, use.section, section.title if section else page_title, page_title)
            if place not in found.setdefault(use.key, []):
                found[use.key].append(place)
    return found


def figure_claims(book: Book, parsed: dict, lang: str) -> dict[str, list[Place]]:
    """claim id -> the sections whose figures draw it (a figure's `numbers: {key: claim:<id>}`)."""
    found: dict[str, list[Place]] = {}
    for figure_id, places in places_of(book, parsed, lang, "figure").items():
        spec = book.figures.get(figure_id)
        for reference in spec.numbers.values() if spec else ():
            kind, _, claim_id = reference.partition(":")
            if kind == "claim":
                found.setdefault(claim_id, []).extend(p for p in places if p not in found.get(claim_id, []))
    return found


def shared_places(book: Book, parsed: dict, lang: str, kind: str) -> dict[str, list[Place]]:
    """key -> the sections that use it in any language, in `lang`'s reading order and with its
    titles: the same list on every language's page (a term used in one language's section and not
    in its twin's is still that section's subject in both)."""
    sections: dict[str, set[tuple[str, str]]] = {}
    for (_lang, page_id), parsed_page in parsed.items():
        for use in parsed_page.uses_of(kind):
            sections.setdefault(use.key, set()).add((page_id, use.section))
    found: dict[str, list[Place]] = {}
    for page, parsed_page, page_title in _parsed_pages(book, parsed, lang):
        order = [""] + [s.id for s in parsed_page.sections]
        for key, where in sections.items():
            for section in sorted(
                (s for p, s in where if p == page.id),
                key=lambda s: order.index(s) if s in order else len(order),
            ):
                heading = parsed_page.section(section)
                if section and heading is None:
                    continue  # a section this language does not have (the parity gate says so)
                found.setdefault(key, []).append(
                    Place(page.id, section, heading.title if heading else page_title, page_title)
                )
    return found
