"""The whole book after validation: registry, ledgers and pages."""
from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from ..diagnostics import SourceLocation
from .base import Frozen
from .ledger import (
    Claim, Example, FigureSpec, LabContract, Lead, MapNode, MapRoute, Misconception, OpenQuestion, Question, Term, Wave,
)
from .sources import Registry


class PageMeta(Frozen):
    page: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str = Field(min_length=1)
    status: Literal["draft", "published"]
    chapter: int | None = None
    order: int = 0
    kind: Literal["chapter", "tutorial", "map"] = "chapter"
    short_title: str | None = None
    last_verified: dt.date | None = None
    summary: str | None = None


class PagePart(Frozen):
    path: str
    body: str
    body_line: int


class Page(Frozen):
    lang: Literal["zh", "en"]
    meta: PageMeta
    parts: tuple[PagePart, ...]

    @property
    def id(self) -> str:
        return self.meta.page

    @property
    def output_path(self) -> str:
        return f"{self.lang}/{self.meta.page}.html"

    @property
    def origin(self) -> SourceLocation:
        return SourceLocation(self.parts[0].path, 1, 1)


class Book(Frozen):
    model_config = {"frozen": True, "extra": "forbid", "arbitrary_types_allowed": True}
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
    lab_strings: dict[str, dict[str, str]]  # key -> {zh, en}
    map_routes: tuple[MapRoute, ...] = ()
    map_nodes: tuple[MapNode, ...] = ()
    pages: tuple[Page, ...]
    where: dict[str, SourceLocation]  # "claims:<id>", "work:<key>", "n04", ... -> origin
    broken: frozenset[str] = frozenset()  # "claims:<id>" items that failed validation (already reported)

    def pages_in(self, lang: str) -> tuple[Page, ...]:
        return tuple(sorted((p for p in self.pages if p.lang == lang), key=lambda p: (p.meta.order, p.id)))

    def locate(self, key: str) -> SourceLocation:
        return self.where.get(key, SourceLocation("?"))
