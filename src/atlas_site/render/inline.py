"""How citations, claims, teaching numbers and terms look on the page."""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from ..model import Book
from ..resolve.examples import format_number
from .i18n import ui


def cite_label(number: str) -> str:
    """n04 -> N04 (a Chapter 14 node); r42 -> 42 (a Token factory reference)."""
    return number.upper() if number.startswith("n") else number[1:]


@dataclass
class CiteIndex:
    """Where each work is cited from, for the bibliography's back-links."""

    places: dict = field(default_factory=dict)  # (lang, work key) -> [(page path, anchor, label)]

    def add(self, lang: str, work: str, page_path: str, anchor: str, label: str) -> None:
        self.places.setdefault((lang, work), []).append((page_path, anchor, label))

    def merge(self, places: dict) -> None:
        for key, entries in places.items():
            self.places.setdefault(key, []).extend(entries)


@dataclass
class InlineRenderer:
    book: Book
    lang: str
    page_path: str  # e.g. "zh/ch14.html"
    computed: dict
    cites: CiteIndex
    section: str = ""
    _count: int = 0
    _defined: set = field(default_factory=set)
    _noted: set = field(default_factory=set)

    def state(self) -> tuple:
        """What rendering one part leaves for the next: section, citation counter, terms defined and
        examples explained so far."""
        return (self.section, self._count, tuple(sorted(self._defined)), tuple(sorted(self._noted)))

    def restore(self, state: tuple) -> None:
        self.section, self._count = state[0], state[1]
        self._defined, self._noted = set(state[2]), set(state[3])

    def bibliography_href(self, work: str) -> str:
        return f"bibliography.html#src-{work}"

    def cite(self, numbers: list[str]) -> str:
        links = []
        for number in numbers:
            work = self.book.registry.work_of(number)
            if work is None:
                links.append(f'<span class="cite-missing">{escape(number)}</span>')
                continue
            self._count += 1
            anchor = f"cite-{self._count}"
            label = cite_label(number)
            self.cites.add(self.lang, work.key, self.page_path, anchor, label)
            links.append(
                f'<a class="cite" id="{anchor}" href="{self.bibliography_href(work.key)}" '
                f'data-cite="{escape(number)}">{escape(label)}</a>'
            )
        return '<span class="cites">[' + ", ".join(links) + "]</span>"

    def claim(self, claim_id: str) -> str:
        claim = self.book.claims[claim_id]
        label = ui("author_reported" if claim.kind == "author-reported" else "benchmark_result", self.lang)
        setting = claim.setting.zh if self.lang == "zh" else claim.setting.en
        return (
            f'<span class="claim" data-claim="{escape(claim.id)}" data-kind="{claim.kind}">'
            f'<strong class="claim-value">{escape(claim.text[self.lang])}</strong>'
            f'<span class="badge badge-claim">{escape(label)}</span>'
            f'<span class="claim-setting">{escape(ui("setting", self.lang))}: {escape(setting)}</span>'
            f"{self.cite(list(claim.source))}</span>"
        )

    def example(self, reference: str) -> str:
        example_id, _, output = reference.partition(".")
        example = self.book.examples[example_id]
        output = output or next(iter(example.outputs))
        fmt = example.outputs[output]
        value = self.computed.get(example_id, {}).get(output)
        shown = self._shown(value, fmt.digits)
        unit = self._unit(fmt, shown, value)
        label = ui("teaching_assumption" if example.kind == "teaching-assumption" else "analytic", self.lang)
        # the assumption is spelled out once per page (first use); later uses keep the label only
        title = f' title="{escape(example.note[self.lang])}"' if example.note and example_id not in self._noted else ""
        self._noted.add(example_id)
        return (
            f'<span class="ex" data-example="{escape(reference)}"{title}>'
            f'<span class="ex-value">{escape(shown + unit)}</span>'
            f'<span class="badge badge-ex">{escape(label)}</span></span>'
        )

    def example_text(self, reference: str) -> str:
        """The formatted number with its unit, no markup (figures use it). A figure may also show
        one of the example's inputs (e.g. the L = 32 of the KV formula): it is ledger data too."""
        example_id, _, output = reference.partition(".")
        example = self.book.examples[example_id]
        output = output or next(iter(example.outputs))
        if output not in example.outputs:
            value = example.args[output]
            return format_number(value, 0) if isinstance(value, int) else str(value)
        fmt = example.outputs[output]
        value = self.computed.get(example_id, {}).get(output)
        shown = self._shown(value, fmt.digits)
        return shown + self._unit(fmt, shown, value)

    def _unit(self, fmt, shown: str, value) -> str:
        if isinstance(value, bool) or fmt.unit is None:
            return ""
        unit = fmt.unit_one if fmt.unit_one is not None and shown == "1" else fmt.unit
        return f" {unit[self.lang]}"

    def _shown(self, value, digits: int) -> str:
        if isinstance(value, bool):  # a verdict of the formula, in words
            return ui("yes" if value else "no", self.lang)
        return format_number(value, digits) if value is not None else "?"

    def term(self, term_id: str, text: str | None) -> str:
        term = self.book.terms[term_id]
        shown = text or term.abbr or getattr(term, self.lang)
        definition = term.definition[self.lang]
        if term_id in self._defined:
            return f'<a class="term" href="#term-{escape(term_id)}">{escape(shown)}</a>'
        self._defined.add(term_id)
        return f'<dfn class="term-def" id="term-{escape(term_id)}" data-term="{escape(term_id)}" title="{escape(definition)}">{escape(shown)}</dfn>'
