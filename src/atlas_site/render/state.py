"""What rendering one page needs and accumulates: the book, the language, and the running state
that the directives of one part leave for the next (section, terms defined, examples explained)
and the page's figure numbers — plus what the page placed, for the gates (the manifest)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from jinja2 import Environment

from ..cache import BuildCache, NoCache, Versioned
from ..manifest import PageRecord
from ..model import Book
from ..resolve.number_format import format_number
from .evidence_blocks import EvidenceBlock


def source_label(book: Book, number: str) -> str:
    """The label readers see for a ledger number: n04 -> N04, r42 -> 42 (book.yaml `sources`)."""
    kind = "nodes" if number.startswith("n") else "references"
    registry = book.profile.sources.get(kind)
    return registry.show(int(number[1:])) if registry else number


@dataclass
class CiteIndex:
    """Where each work is cited from, for the bibliography's back-links."""

    places: dict = field(default_factory=dict)  # (lang, work key) -> [(page path, section id, label)]

    def add(self, lang: str, work: str, page_path: str, section: str, label: str) -> None:
        self.places.setdefault((lang, work), []).append((page_path, section, label))

    def merge(self, places: dict) -> None:
        for key, entries in places.items():
            self.places.setdefault(key, []).extend(entries)


@dataclass
class RenderState:
    book: Book
    lang: str
    page_path: str  # e.g. "en/intro.html"
    computed: dict
    env: Environment | None = None
    root: Path | None = None
    cache: BuildCache | Versioned = field(default_factory=NoCache)  # the render stage's (pipeline.py)
    cites: CiteIndex = field(default_factory=CiteIndex)
    record: PageRecord = field(default_factory=PageRecord)
    figure_numbers: dict = field(
        default_factory=dict
    )  # figure id -> number on this page (ParsedPage.figure_numbers)
    section: str = ""
    paragraphs: int = 0  # paragraphs of `section` so far: data-para="SECTION.N" pairs them with the twin's
    defined: set = field(default_factory=set)
    noted: set = field(default_factory=set)
    scoped: set = field(default_factory=set)  # sources whose verification scope this page has shown
    notices: dict = field(
        default_factory=dict
    )  # section id -> the reader's notice that a twin changed (translations/)
    block: EvidenceBlock | None = None  # the paragraph or table being rendered (evidence_blocks.py)
    notes_made: int = 0  # evidence notes so far on the page: their ids, evn-1, evn-2, ...

    # -- the state one part leaves for the next (cached with the part's HTML) --
    def carry(self) -> list:
        return [
            self.section,
            sorted(self.defined),
            sorted(self.noted),
            self.paragraphs,
            sorted(self.scoped),
            self.notes_made,
        ]

    def resume(self, carried: list) -> None:
        self.section = carried[0]
        self.defined, self.noted = set(carried[1]), set(carried[2])
        self.paragraphs = carried[3]
        self.scoped = set(carried[4]) if len(carried) > 4 else set()
        self.notes_made = carried[5] if len(carried) > 5 else 0

    # -- shared services of the directives --
    def ui(self, key: str) -> str:
        return self.book.ui(key, self.lang)

    def bibliography_href(self, work: str) -> str:
        return f"bibliography.html#src-{work}"

    def cite(self, numbers: list[str]) -> str:
        links = []
        for number in numbers:
            work = self.book.registry.work_of(number)
            if work is None:  # reported by resolve; never reached in a build that renders
                links.append(f'<span class="cite-missing">{escape(number)}</span>')
                continue
            label = source_label(self.book, number)
            self.cites.add(self.lang, work.key, self.page_path, self.section, label)
            links.append(
                f'<a class="cite" href="{self.bibliography_href(work.key)}" data-cite="{escape(number)}">{escape(label)}</a>'
            )
        # a short list is kept on one line ("[" never ends a line apart from its label); a long one may wrap
        long = ' data-long=""' if len(links) > 3 else ""
        return f'<span class="cites"{long}>[' + ", ".join(links) + "]</span>"

    def example_text(self, reference: str) -> str:
        """A teaching number formatted with its unit, no markup (figures and prose use it). A figure
        may also show one of the example's inputs (e.g. the L = 32 of the KV formula)."""
        example_id, _, output = reference.partition(".")
        example = self.book.examples[example_id]
        output = output or next(iter(example.outputs))
        if output not in example.outputs:
            value = example.args[output]
            return format_number(value, 0) if isinstance(value, int) else str(value)
        fmt = example.outputs[output]
        value = self.computed.get(example_id, {}).get(output)
        shown = self.shown(value, fmt.digits)
        return shown + self.unit(fmt, shown, value)

    def example_number(self, reference: str) -> str:
        """A teaching number without its unit, for prose that names the unit once for several values."""
        example_id, _, output = reference.partition(".")
        example = self.book.examples[example_id]
        output = output or next(iter(example.outputs))
        value = self.computed.get(example_id, {}).get(output)
        return self.shown(value, example.outputs[output].digits)

    def example_unit(self, reference: str) -> str:
        """The unit a teaching number is written with ("" for an input, a verdict or none)."""
        example_id, _, output = reference.partition(".")
        example = self.book.examples[example_id]
        output = output or next(iter(example.outputs))
        if output not in example.outputs:
            return ""
        fmt = example.outputs[output]
        value = self.computed.get(example_id, {}).get(output)
        return self.unit(fmt, self.shown(value, fmt.digits), value)

    def shown(self, value, digits: int) -> str:
        if isinstance(value, bool):  # a verdict of the formula, in words
            return self.ui("yes" if value else "no")
        return format_number(value, digits) if value is not None else "?"

    def unit(self, fmt, shown: str, value) -> str:
        if isinstance(value, bool) or fmt.unit is None:
            return ""
        unit = (fmt.unit_one if fmt.unit_one is not None and shown == "1" else fmt.unit)[self.lang]
        # a percentage or a multiplier sits on the number (14.4%, 1.73×); every other unit after a space
        return unit if unit.startswith(("%", "×")) else f" {unit}"
