"""What rendered HTML depends on beyond its own text: every ledger record, computed number and
source it shows, and the navigation around it. The hashes decide what is re-rendered. Each record
is hashed once per build, so keying every page and part stays cheap. Which records a directive
shows is declared with the directive (`depends`, directives/)."""

from __future__ import annotations

from ..cache import digest
from ..directives import REGISTRY
from ..model import Book, number_order
from ..model.sources import registry_kind
from ..resolve.example_labs import LAB_PAGES_KEY
from ..resolve.pages import ParsedPage


def _dump(item) -> object:
    return item.model_dump(mode="json") if item is not None else None


class Dependencies:
    def __init__(self, book: Book, computed: dict):
        self.book, self.computed = book, computed
        self._memo: dict[tuple[str, str], str] = {}

    def _once(self, kind: str, key: str, value) -> str:
        if (kind, key) not in self._memo:
            self._memo[(kind, key)] = digest(value())
        return self._memo[(kind, key)]

    def source(self, number: str) -> str:
        registry = self.book.registry
        entry = registry.entry(number)
        return self._once(
            "source",
            number,
            lambda: [
                _dump(entry),
                _dump(registry.work_of(number)),
                list(registry.numbers_of(entry.work)) if entry else [],
                _dump(self.book.profile.sources.get(registry_kind(number))),
                # which number a page shows for it follows the parts' cites_all rules and, for a work
                # with several numbers in one list, the numbers its claims cite (state.shown_number)
                [part.rules for part in self.book.profile.parts],
                [
                    list(c.source)
                    for c in self.book.claims.values()
                    if entry
                    and entry.work in {w.key for n in c.source if (w := registry.work_of(n)) is not None}
                ],
            ],
        )

    def example(self, example_id: str) -> str:
        return self._once(
            "example",
            example_id,
            lambda: [_dump(self.book.examples.get(example_id)), self.computed.get(example_id)],
        )

    def claim(self, claim_id: str) -> str:
        claim = self.book.claims.get(claim_id)
        return self._once(
            "claim",
            claim_id,
            lambda: [
                _dump(claim),
                [self.source(n) for n in (claim.source if claim else ())],
                self.book.profile.generates("numbers"),
            ],
        )  # the value links to the numbers page

    def term(self, term_id: str) -> str:
        return self._once("term", term_id, lambda: _dump(self.book.terms.get(term_id)))

    def lineage(self, lineage_id: str) -> str:
        return self._once("lineage", lineage_id, lambda: _dump(self.book.lineages.get(lineage_id)))

    def figure(self, figure_id: str) -> str:
        spec = self.book.figures.get(figure_id)

        def value():
            shown = [
                ref.partition(":")[2].partition(".")[0] for ref in (spec.numbers.values() if spec else ())
            ]
            return [
                _dump(spec),
                [self.source(n) for n in (spec.sources if spec else ())],
                [[self.example(k), _dump(self.book.claims.get(k))] for k in shown],
                _dump(self.book.profile.figure_kinds.get(spec.kind)) if spec else None,
                self.computed.get(f"figure:{figure_id}"),
                self.computed.get(LAB_PAGES_KEY),
            ]  # its charts' computed series, and where the labs they come from are placed

        return self._once("figure", figure_id, value)

    def labs(self, lab_ids) -> str:
        return self._once(
            "labs",
            ",".join(lab_ids),
            lambda: [[_dump(self.book.labs.get(i)) for i in lab_ids], self.book.lab_strings],
        )

    def collection(self, name: str) -> str:
        return self._once("collection", name, lambda: [_dump(item) for item in getattr(self.book, name)])

    def registry_kind(self, kind: str) -> str:
        entries = self.book.registry.of_kind(kind)
        return self._once(
            "registry", kind, lambda: [self.source(n) for n in sorted(entries, key=number_order)]
        )

    def dev_map(self) -> str:
        book = self.book
        return self._once(
            "dev-map",
            "",
            lambda: [
                [_dump(r) for r in book.map_routes],
                [_dump(n) for n in book.map_nodes],
                [self.source(c) for c in sorted({c for n in book.map_nodes for c in n.cites})],
            ],
        )

    def nav(self, lang: str) -> str:
        return self._once(
            "nav",
            lang,
            lambda: [
                _dump(self.book.profile),
                self.book.strings.get(lang),
                [[p.id, p.meta.title, p.meta.short_title] for p in self.book.pages_in(lang)],
            ],
        )

    def of_uses(self, uses) -> list:
        """One short digest per thing the uses render."""
        found = []
        for use in uses:
            directive = REGISTRY.get(use.kind)
            if directive is not None and directive.depends is not None:
                found += directive.depends(self, use)
        return found

    def of_page(self, parsed: ParsedPage) -> list:
        return [self.nav(parsed.page.lang), self.of_uses(parsed.uses)]
