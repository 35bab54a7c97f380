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
from ..model.sources import registry_kind
from ..resolve.number_format import format_number
from .evidence_blocks import EvidenceBlock


def source_label(book: Book, number: str) -> str:
    """The label readers see for a ledger number: n04 -> N04, r42 -> 42 (book.yaml `sources`)."""
    registry = book.profile.sources.get(registry_kind(number))
    return registry.show(int(number[1:])) if registry else number


def page_scheme(book: Book, page_id: str) -> str | None:
    """The registry a page cites works by (book.yaml): the one its part promises to cite whole
    (`cites_all: nodes` for a chapter, `cites_all: references` for the tutorial); None for a page
    whose part names none (a citation there keeps the number it was written with)."""
    part = book.part_of(page_id)
    for rule in part.rules if part is not None else ():
        args = rule.get("cites_all")  # validated by the rule kind (rules/citations.py CitesAll)
        registry = args.get("registry") if isinstance(args, dict) else args
        if registry in ("nodes", "references"):
            return registry
    return None


def shown_number(book: Book, number: str, scheme: str | None) -> str:
    """The ledger number a page shows for a cited one: one identifier per work on a page, in the
    page's scheme where the work has a number there (a chapter cites DistServe as N27 even where
    its prose wrote [@r64]; the tutorial as 64), else the number as written. A work with several
    numbers in the scheme (DeepSeek-V4's abstract r26 and full report r28) is shown by the one its
    claims cite most (r28), else by the first."""
    registry = book.registry
    entry = registry.entry(number)
    if entry is None or scheme is None:
        return number
    prefix = "n" if scheme == "nodes" else "r"
    choices = [n for n in registry.numbers_of(entry.work) if n.startswith(prefix)]
    if not choices:
        return number
    if len(choices) == 1:
        return choices[0]
    cited = [n for claim in book.claims.values() for n in claim.source if n in choices]
    return max(choices, key=lambda n: (cited.count(n), -choices.index(n)))


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
    expanded: set = field(default_factory=set)  # terms whose long name a reader of this page has met
    noted: set = field(default_factory=set)
    scoped: set = field(default_factory=set)  # sources whose verification scope this page has shown
    notices: dict = field(
        default_factory=dict
    )  # section id -> the reader's notice that a twin changed (translations/)
    block: EvidenceBlock | None = None  # the paragraph or table being rendered (evidence_blocks.py)
    notes_made: int = 0  # evidence notes so far on the page: their ids, evn-1, evn-2, ...
    next_text: str = ""  # the prose right after the directive being rendered (render/markdown_rules.py)
    prev_text: str = ""  # and the prose right before it
    taken: str = ""  # a punctuation mark a claim took in from that prose, left out of it
    groups_made: int = 0  # claim groups so far on the page: cg-1, cg-2, ... (evidence_blocks.py)

    # -- the state one part leaves for the next (cached with the part's HTML) --
    def carry(self) -> list:
        return [
            self.section,
            sorted(self.defined),
            sorted(self.noted),
            self.paragraphs,
            sorted(self.scoped),
            self.notes_made,
            self.groups_made,
            sorted(self.expanded),
        ]

    @staticmethod
    def on_a_new_page(carried: list) -> list:
        """What one part leaves for the next when the next is published as a page of its own (a
        split chapter): its abbreviations are spelt out again; the rest carries on."""
        return carried[:7] + [[]]

    def resume(self, carried: list) -> None:
        self.section = carried[0]
        self.defined, self.noted = set(carried[1]), set(carried[2])
        self.paragraphs = carried[3]
        self.scoped = set(carried[4]) if len(carried) > 4 else set()
        self.notes_made = carried[5] if len(carried) > 5 else 0
        self.groups_made = carried[6] if len(carried) > 6 else 0
        self.expanded = set(carried[7]) if len(carried) > 7 else set()

    # -- shared services of the directives --
    def ui(self, key: str) -> str:
        return self.book.ui(key, self.lang)

    def bibliography_href(self, work: str) -> str:
        return f"bibliography.html#src-{work}"

    @property
    def scheme(self) -> str | None:
        """The registry this page cites works by (page_scheme)."""
        return page_scheme(self.book, Path(self.page_path).stem)

    def cite(self, numbers: list[str]) -> str:
        """A citation: one link per work (two numbers of one work in one bracket are one link),
        each in the page's scheme (shown_number)."""
        links, works = [], set()
        scheme = self.scheme
        for written in numbers:
            work = self.book.registry.work_of(written)
            if work is None:  # reported by resolve; never reached in a build that renders
                links.append(f'<span class="cite-missing">{escape(written)}</span>')
                continue
            if work.key in works:
                continue
            works.add(work.key)
            number = shown_number(self.book, written, scheme)
            label = source_label(self.book, number)
            self.cites.add(self.lang, work.key, self.page_path, self.section, label)
            links.append(
                f'<a class="cite" href="{self.bibliography_href(work.key)}" data-cite="{escape(number)}">{escape(label)}</a>'
            )
        # a short list is kept on one line ("[" never ends a line apart from its label); a long one may
        # wrap, only after a comma: each label keeps its comma (or its "]") on its line (review 31-v #5:
        # a label's widened tap target is an atomic inline, and ", N62]" began a phone's line)
        if len(links) <= 3:
            return '<span class="cites">[' + ", ".join(links) + "]</span>"
        pieces = [f"{link}," for link in links[:-1]] + [f"{links[-1]}]"]
        pieces[0] = "[" + pieces[0]
        return (
            '<span class="cites" data-long="">'
            + " ".join(f'<span class="cite-item">{p}</span>' for p in pieces)
            + "</span>"
        )

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
