"""Pure data (pydantic, frozen, extra keys forbidden). No I/O here."""

from .base import Frozen, Localized
from .book import Book, Page, PageMeta, PagePart
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
    OutputFormat,
    Question,
    Setting,
    Term,
    Wave,
)
from .profile import BookProfile, Language, Part
from .sources import NodeEntry, ReferenceEntry, Registry, Work, number_order, registry_kind

__all__ = [
    "Frozen",
    "Localized",
    "Book",
    "Page",
    "PagePart",
    "PageMeta",
    "Claim",
    "Example",
    "FigureSpec",
    "LabContract",
    "Lead",
    "Lineage",
    "MapNode",
    "MapRoute",
    "Misconception",
    "OpenQuestion",
    "OutputFormat",
    "Question",
    "Setting",
    "Term",
    "Wave",
    "BookProfile",
    "Language",
    "Part",
    "NodeEntry",
    "ReferenceEntry",
    "Registry",
    "Work",
    "number_order",
    "registry_kind",
]
