"""What a rendered page depends on beyond its own text: every ledger record, computed number and
source it shows, and the navigation around it. Its hash decides whether the page is re-rendered."""
from __future__ import annotations

from ..model import Book
from ..resolve.pages import ParsedPage


def _dump(item) -> object:
    return item.model_dump(mode="json") if item is not None else None


def _sources(book: Book, numbers) -> dict:
    registry = book.registry
    return {n: [_dump(registry.entry(n)), _dump(registry.work_of(n)),
                list(registry.numbers_of(registry.entry(n).work)) if registry.entry(n) else []] for n in numbers}


def page_dependencies(book: Book, parsed: ParsedPage, computed: dict) -> dict:
    deps: dict = {"nav": [[p.lang, p.id, p.meta.title, p.meta.short_title, p.meta.order, p.meta.kind]
                          for p in book.pages_in(parsed.page.lang)]}
    for use in parsed.uses:
        kind, key = use.kind, use.key
        if kind == "cite":
            deps.setdefault("cites", {}).update(_sources(book, [key]))
        elif kind == "claim" and key in book.claims:
            claim = book.claims[key]
            deps.setdefault("claims", {})[key] = [_dump(claim), _sources(book, claim.source)]
        elif kind == "ex":
            example_id = key.partition(".")[0]
            deps.setdefault("examples", {})[example_id] = [_dump(book.examples.get(example_id)), computed.get(example_id)]
        elif kind == "term":
            deps.setdefault("terms", {})[key] = _dump(book.terms.get(key))
        elif kind == "figure" and key in book.figures:
            spec = book.figures[key]
            shown = [ref.partition(":")[2].partition(".")[0] for ref in spec.numbers.values()]
            deps.setdefault("figures", {})[key] = [_dump(spec), _sources(book, spec.sources),
                                                  {k: [_dump(book.examples.get(k)), computed.get(k), _dump(book.claims.get(k))] for k in shown}]
        elif kind == "question-cards":
            deps["questions"] = [_dump(q) for q in book.questions]
        elif kind == "node-table":
            deps["nodes"] = _sources(book, sorted(book.registry.nodes))
        elif kind == "open-questions":
            deps["open_questions"] = [_dump(q) for q in book.open_questions]
        elif kind == "labs":
            deps["labs"] = [{k: _dump(v) for k, v in sorted(book.labs.items())}, book.lab_strings]
        elif kind == "dev-map":
            deps["map"] = [[_dump(r) for r in book.map_routes], [_dump(n) for n in book.map_nodes],
                           _sources(book, sorted({c for n in book.map_nodes for c in n.cites}))]
    return deps
