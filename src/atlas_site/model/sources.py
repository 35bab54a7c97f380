"""The source registry: distinct works (BibTeX) and the ledger numbers that name them (YAML)."""
from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from .base import Bilingual, Frozen

EVIDENCE_CLASSES = {
    "paper": Bilingual(zh="论文 / 技术报告", en="paper / technical report"),
    "implementation": Bilingual(zh="官方实现", en="official implementation"),
    "documentation": Bilingual(zh="官方文档", en="official documentation"),
    "benchmark": Bilingual(zh="基准结果", en="benchmark result"),
    "article": Bilingual(zh="作者或厂商文章", en="author or vendor article"),
    "model-card": Bilingual(zh="模型卡", en="model card"),
}
Evidence = Literal["paper", "implementation", "documentation", "benchmark", "article", "model-card"]
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
    """A formal node of the Chapter 14 chain (seed 000 §18)."""

    node: int = Field(ge=1, le=62)
    work: str
    year: int
    title: str = Field(min_length=1)
    role: Bilingual
    evidence: Evidence
    read: Literal["full-pdf", "abstract-page"] | None = None

    @property
    def number(self) -> str:
        return f"n{self.node:02d}"


class ReferenceEntry(Frozen):
    """A numbered reference of the Token factory tutorial (seed 004)."""

    ref: int = Field(ge=1, le=100)
    work: str
    title: str = Field(min_length=1)
    url_status: Literal["seed", "known", "searched", "unresolved"]
    accessed: str
    material_date: str | None = None
    scope: Bilingual | None = None
    evidence: Evidence
    url: str | None = None
    note: str | None = None

    @field_validator("url")
    @classmethod
    def _url_is_https(cls, value):
        return _https(value)

    @field_validator("accessed", mode="before")
    @classmethod
    def _date_text(cls, value):
        return str(value)

    @property
    def number(self) -> str:
        return f"r{self.ref}"


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
        return tuple(sorted(nodes) + sorted(refs, key=lambda r: int(r[1:])))
