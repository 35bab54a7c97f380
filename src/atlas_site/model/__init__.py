"""Pure data (pydantic, frozen, extra keys forbidden). No I/O here."""
from .base import LANGS, Bilingual, Frozen
from .book import Book, Page, PagePart, PageMeta
from .ledger import (
    Claim, Example, FigureSpec, LabContract, Lead, MapNode, MapRoute, Misconception, OpenQuestion, OutputFormat,
    Question, Setting, Term, Wave,
)
from .sources import EVIDENCE_CLASSES, NodeEntry, ReferenceEntry, Registry, Work

__all__ = [
    "LANGS", "Bilingual", "Frozen", "Book", "Page", "PagePart", "PageMeta", "Claim", "Example",
    "FigureSpec", "LabContract", "Lead", "MapNode", "MapRoute", "Misconception", "OpenQuestion", "OutputFormat", "Question",
    "Setting", "Term", "Wave", "EVIDENCE_CLASSES", "NodeEntry", "ReferenceEntry", "Registry", "Work",
]
