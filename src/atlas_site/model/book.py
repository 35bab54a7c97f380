"""The whole book after validation: registry, ledgers and pages."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from ..diagnostics import SourceLocation
from .base import Frozen
from .ledger import (
    Claim,
    Example,
    FigureSpec,
    LabContract,
    Lead,
    Lineage,
    MapNode,
    MapRoute,
    Misconception,
    OpenQuestion,
    Question,
    Term,
    Wave,
)
from .profile import BookProfile, Part
from .sources import Registry


class PageMeta(Frozen):
    """A page's front matter. Where the page sits in the book (part, order, chapter number) is
    the profile's business (book.yaml), not the page's."""

    page: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str = Field(min_length=1)
    status: Literal["draft", "published"]
    short_title: str | None = None
    description: str | None = None
    last_verified: dt.date | None = None


class PagePart(Frozen):
    path: str
    body: str
    body_line: int


class Page(Frozen):
    lang: str
    meta: PageMeta
    parts: tuple[PagePart, ...]

    @property
    def id(self) -> str:
        return self.meta.page

    @property
    def output_path(self) -> str:
        return f"{self.lang}/{self.meta.page}.html"

    @property
    def draft(self) -> bool:
        return self.meta.status != "published"

    @property
    def origin(self) -> SourceLocation:
        return SourceLocation(self.parts[0].path, 1, 1)


class Book(Frozen):
    model_config = {"frozen": True, "extra": "forbid", "arbitrary_types_allowed": True}
    profile: BookProfile
    strings: dict[str, dict[str, str]]  # language -> interface string key -> text (templates/strings/)
    registry: Registry
    claims: dict[str, Claim]
    examples: dict[str, Example]
    questions: tuple[Question, ...]
    misconceptions: tuple[Misconception, ...]
    open_questions: tuple[OpenQuestion, ...]
    waves: tuple[Wave, ...]
    terms: dict[str, Term]
    leads: tuple[Lead, ...]
    figures: dict[str, FigureSpec]
    labs: dict[str, LabContract]
    lab_strings: dict[str, dict[str, str]]  # key -> {lang: text}
    stylesheet: str = ""  # the book's own CSS (book.yaml theme: css), in the order it lists them
    lineages: dict[str, Lineage] = Field(default_factory=dict)
    map_routes: tuple[MapRoute, ...] = ()
    map_nodes: tuple[MapNode, ...] = ()
    pages: tuple[Page, ...]
    where: dict[str, SourceLocation]  # "claims:<id>", "work:<key>", "n04", ... -> origin
    broken: frozenset[str] = frozenset()  # "claims:<id>" items that failed validation (already reported)

    @property
    def languages(self) -> tuple[str, ...]:
        return self.profile.codes

    def pages_in(self, lang: str) -> tuple[Page, ...]:
        """One language's pages in the profile's reading order."""
        order = {page_id: index for index, page_id in enumerate(self.profile.reading_order())}
        return tuple(
            sorted(
                (p for p in self.pages if p.lang == lang), key=lambda p: (order.get(p.id, len(order)), p.id)
            )
        )

    def page(self, lang: str, page_id: str) -> Page | None:
        return next((p for p in self.pages if p.lang == lang and p.id == page_id), None)

    def part_of(self, page_id: str) -> Part | None:
        return self.profile.part_of(page_id)

    def spelt_out(self, term, lang: str) -> str | None:
        """The long name readers meet after a term's abbreviation at its first use on a page, or
        None: no abbreviation, a name that already holds it, or an everyday one (book.yaml
        `glossary: common`: CPU, PDF) that readers know. The renderer writes it and the terms gate
        asks for it, from here."""
        if term.abbr in self.profile.glossary.common:
            return None
        return term.expansion(lang)

    def ui(self, key: str, lang: str) -> str:
        """An interface string of the templates (templates/strings/<lang>.yaml)."""
        return self.strings[lang][key]

    def is_broken(self, collection: str, key: str) -> bool:
        """Did `collection:key` fail to validate, or sit in a file that failed to parse? Then a
        reference to it is a consequence of a problem already reported, and stays quiet."""
        return bool({f"{collection}:{key}", f"*:{key}", f"{collection}:*"} & self.broken)

    def locate(self, key: str) -> SourceLocation:
        return self.where.get(key, SourceLocation("?"))
