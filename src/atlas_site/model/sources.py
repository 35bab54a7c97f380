"""The source registry: distinct works (BibTeX) and the ledger numbers that name them (YAML)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Literal

from pydantic import Field, field_validator

from .base import Frozen, Localized

HTTPS = re.compile(r"^https://[^\s]+$")


def _https(url: str | None) -> str | None:
    if url is not None and not HTTPS.match(url):
        raise ValueError(f"URL must start with https:// (got '{url}')")
    return url


class Work(Frozen):
    """One distinct work: a paper and its abstract page, full text and slides are one work."""

    key: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    entry_type: Literal["article", "inproceedings", "misc", "online", "software", "techreport"]
    title: str = Field(min_length=1)
    year: int | None = None
    url: str | None = None
    howpublished: str | None = None

    @field_validator("url")
    @classmethod
    def _url_is_https(cls, value):
        return _https(value)


class NodeEntry(Frozen):
    """A formal node: a work in the book's chain of papers and systems (sources/nodes.yaml)."""

    node: int = Field(ge=1)
    work: str
    year: int
    title: str = Field(min_length=1)
    role: Localized
    evidence: str  # one of the profile's evidence classes
    verified: dt.date  # when the research ledger last checked this node against its work
    read: Literal["full-pdf", "abstract-page"] | None = None

    @property
    def number(self) -> str:
        return f"n{self.node:02d}"

    @property
    def last_verified(self) -> dt.date:
        return self.verified

    @property
    def rolling(self) -> bool:
        return False  # a formal node is a fixed paper or release, never a living document

    @property
    def scope_at_every_use(self) -> bool:
        return False


class ReferenceEntry(Frozen):
    """A numbered reference (sources/references.yaml), with when and how far it was read."""

    ref: int = Field(ge=1)
    work: str
    title: (
        Annotated[str, Field(min_length=1)] | Localized
    )  # the document's own title, or what it is in each language
    url_status: Literal["seed", "known", "searched", "unresolved"]
    accessed: dt.date  # when it was read: the date its evidence was last verified
    material_date: str | Localized | None = None  # the document's own date, or a note on it per language
    scope: Localized | None = None
    evidence: str  # one of the profile's evidence classes
    # a living document (rolling docs, a main-branch repository, a model card that is updated in
    # place): it is reviewed at the profile's shorter `rolling` interval
    rolling: bool = False
    url: str | None = None
    note: str | None = None

    @field_validator("url")
    @classmethod
    def _url_is_https(cls, value):
        return _https(value)

    @property
    def number(self) -> str:
        return f"r{self.ref}"

    @property
    def last_verified(self) -> dt.date:
        return self.accessed

    @property
    def scope_at_every_use(self) -> bool:
        """A living or unresolved document cannot be checked against a fixed text later, so how
        far it was read travels with every use of it (claims' settings, citation cards)."""
        return self.scope is not None and (self.rolling or self.url_status == "unresolved")

    def title_in(self, lang: str) -> str:
        return self.title if isinstance(self.title, str) else self.title[lang]

    def material_date_in(self, lang: str) -> str | None:
        if self.material_date is None or isinstance(self.material_date, str):
            return self.material_date
        return self.material_date[lang]


class Registry(Frozen):
    works: dict[str, Work]
    nodes: dict[str, NodeEntry]  # "n04" -> entry
    references: dict[str, ReferenceEntry]  # "r42" -> entry

    def entry(self, number: str) -> NodeEntry | ReferenceEntry | None:
        return self.nodes.get(number) or self.references.get(number)

    def work_of(self, number: str) -> Work | None:
        entry = self.entry(number)
        return self.works.get(entry.work) if entry else None

    def numbers_of(self, work_key: str) -> tuple[str, ...]:
        nodes = [n for n, e in self.nodes.items() if e.work == work_key]
        refs = [r for r, e in self.references.items() if e.work == work_key]
        return tuple(sorted(nodes, key=number_order) + sorted(refs, key=number_order))

    def of_kind(self, kind: str) -> dict:
        """The entries of one registry kind ('nodes' or 'references')."""
        return self.nodes if kind == "nodes" else self.references


def number_order(number: str) -> int:
    """n04 -> 4, r101 -> 101: ledger numbers sort by their number, not as text."""
    return int(number[1:])


def registry_kind(number: str) -> str:
    return "nodes" if number.startswith("n") else "references"
