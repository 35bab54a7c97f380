"""What rendered HTML depends on beyond its own text: every ledger record, computed number and
source it shows, and the navigation around it. The hashes decide what is re-rendered. Each record
is hashed once per build, so keying every page and part stays cheap."""
from __future__ import annotations

from functools import cached_property

from ..cache import digest
from ..model import Book
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
        return self._once("source", number, lambda: [_dump(entry), _dump(registry.work_of(number)),
                                                      list(registry.numbers_of(entry.work)) if entry else []])

    def example(self, example_id: str) -> str:
        return self._once("example", example_id, lambda: [_dump(self.book.examples.get(example_id)), self.computed.get(example_id)])

    def claim(self, claim_id: str) -> str:
        claim = self.book.claims.get(claim_id)
        return self._once("claim", claim_id, lambda: [_dump(claim), [self.source(n) for n in (claim.source if claim else ())]])

    def figure(self, figure_id: str) -> str:
        spec = self.book.figures.get(figure_id)

        def value():
            shown = [ref.partition(":")[2].partition(".")[0] for ref in (spec.numbers.values() if spec else ())]
            return [_dump(spec), [self.source(n) for n in (spec.sources if spec else ())],
                    [[self.example(k), _dump(self.book.claims.get(k))] for k in shown],
                    self.computed.get(f"figure:{figure_id}")]  # its charts' computed series

        return self._once("figure", figure_id, value)

    @cached_property
    def blocks(self) -> dict:
        book = self.book
        return {
            "question-cards": digest([_dump(q) for q in book.questions]),
            "node-table": digest([self.source(n) for n in sorted(book.registry.nodes)]),
            "open-questions": digest([_dump(q) for q in book.open_questions]),
            "labs": digest({k: _dump(v) for k, v in sorted(book.labs.items())}, book.lab_strings),
            "dev-map": digest([_dump(r) for r in book.map_routes], [_dump(n) for n in book.map_nodes],
                              [self.source(c) for c in sorted({c for n in book.map_nodes for c in n.cites})]),
        }

    def nav(self, lang: str) -> str:
        return self._once("nav", lang, lambda: [[p.id, p.meta.title, p.meta.short_title, p.meta.order, p.meta.kind]
                                                for p in self.book.pages_in(lang)])

    def of_uses(self, uses) -> list:
        """One short digest per thing the uses render."""
        found = []
        for use in uses:
            kind, key = use.kind, use.key
            if kind == "cite":
                found.append(self.source(key))
            elif kind == "claim":
                found.append(self.claim(key))
            elif kind == "ex":
                found.append(self.example(key.partition(".")[0]))
            elif kind == "term":
                found.append(self._once("term", key, lambda key=key: _dump(self.book.terms.get(key))))
            elif kind == "figure":
                found.append(self.figure(key))
            elif kind in self.blocks:
                found.append(self.blocks[kind])
        return found

    def of_page(self, parsed: ParsedPage) -> list:
        return [self.nav(parsed.page.lang), self.of_uses(parsed.uses)]
