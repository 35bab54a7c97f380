"""Every reference in prose and ledgers must land on something that exists."""
from __future__ import annotations

from ..diagnostics import Collector, closest
from ..markdown.syntax import BLOCK_DIRECTIVES, INLINE_DIRECTIVES
from ..model import Book
from .pages import ParsedPage

LINEAGES = {"deepseek", "kimi"}


def check_page_references(book: Book, parsed: ParsedPage, computed: dict, out: Collector) -> None:
    registry = book.registry
    lead_ids = {lead.id: lead for lead in book.leads}
    for location, title in parsed.untitled:
        out.error(location, "heading.no-id", f"heading '{title}' has no language-neutral id", "end it with {#some-id}")
    seen_ids = {}
    for section in parsed.sections:
        if section.id in seen_ids:
            out.error(section.location, "heading.duplicate-id", f"section id '{section.id}' is used twice on this page (first at {seen_ids[section.id]})")
        seen_ids[section.id] = section.location
    for use in parsed.uses:
        if use.kind == "cite":
            if use.key in lead_ids:
                out.error(use.location, "lead.cited", f"'{use.key}' is a candidate lead ({lead_ids[use.key].status}); prose may cite only formal sources")
            elif registry.entry(use.key) is None:
                out.error(use.location, "cite.unknown", f"no source with ledger number '{use.key}'", closest(use.key, list(registry.nodes) + list(registry.references)))
        elif use.kind == "claim":
            if use.key not in book.claims and f"claims:{use.key}" not in book.broken:
                out.error(use.location, "claim.unknown", f"no claim '{use.key}' in ledger/claims.md", closest(use.key, book.claims))
        elif use.kind == "ex":
            _check_example(book, use, computed, out)
        elif use.kind == "term":
            if use.key not in book.terms:
                out.error(use.location, "term.unknown", f"no glossary term '{use.key}'", closest(use.key, book.terms))
        elif use.kind == "figure":
            if use.key not in book.figures:
                out.error(use.location, "figure.unknown", f"no figure '{use.key}' in ledger/figures.md", closest(use.key, book.figures))
        elif use.kind == "misconception":
            if use.key not in {m.id for m in book.misconceptions}:
                out.error(use.location, "block.unknown-misconception", f"no misconception '{use.key}' in ledger/misconceptions.md")
        elif use.kind == "lineage":
            if use.key not in LINEAGES:
                out.error(use.location, "block.unknown-lineage", f"unknown lineage '{use.key}'", closest(use.key, LINEAGES))
        elif use.kind not in BLOCK_DIRECTIVES | INLINE_DIRECTIVES | {"note"}:
            out.error(use.location, "directive.unknown", f"unknown directive '{use.kind}'", closest(use.kind, BLOCK_DIRECTIVES | INLINE_DIRECTIVES))


def _check_example(book: Book, use, computed: dict, out: Collector) -> None:
    example_id, _, output = use.key.partition(".")
    example = book.examples.get(example_id)
    if example is None:
        out.error(use.location, "example.unknown", f"no worked example '{example_id}'", closest(example_id, book.examples))
        return
    if not output:
        if len(example.outputs) != 1:
            out.error(use.location, "example.ambiguous", f"example '{example_id}' has several outputs; name one", f"one of {', '.join(sorted(example.outputs))}")
        return
    if output not in example.outputs:
        out.error(use.location, "example.unknown-output", f"example '{example_id}' declares no output '{output}'", closest(output, example.outputs))


def check_ledger_references(book: Book, out: Collector) -> None:
    registry = book.registry
    for claim in book.claims.values():
        for number in claim.source:
            if registry.entry(number) is None:
                out.error(book.locate(f"claims:{claim.id}"), "claim.unknown-source", f"claim '{claim.id}' cites '{number}', which is not in the source registry")
    for figure in book.figures.values():
        for key, reference in figure.numbers.items():
            kind, _, target = reference.partition(":")
            example_id, _, output = target.partition(".")
            if kind == "claim" and target not in book.claims:
                out.error(book.locate(f"figures:{figure.id}"), "figure.unknown-number", f"figure '{figure.id}' number '{key}' names unknown claim '{target}'", closest(target, book.claims))
            elif kind == "ex" and (example_id not in book.examples or (output not in book.examples[example_id].outputs and output not in book.examples[example_id].args)):
                known = book.examples[example_id].outputs if example_id in book.examples else book.examples
                out.error(book.locate(f"figures:{figure.id}"), "figure.unknown-number", f"figure '{figure.id}' number '{key}' names '{reference}', which is neither a declared output nor an input of that example", closest(output or example_id, known))
            elif kind == "assume" and target not in (getattr(figure, "assume", None) or {}):
                out.error(book.locate(f"figures:{figure.id}"), "figure.unknown-number", f"figure '{figure.id}' number '{key}' names '{reference}', which is not in the figure's assume", closest(target, getattr(figure, "assume", None) or {}))
            elif kind == "series" and example_id not in (getattr(figure, "series", None) or {}):
                out.error(book.locate(f"figures:{figure.id}"), "figure.unknown-number", f"figure '{figure.id}' number '{key}' names '{reference}', which is not one of the figure's series", closest(example_id, getattr(figure, "series", None) or {}))
            elif kind not in ("claim", "ex", "assume", "series"):
                out.error(book.locate(f"figures:{figure.id}"), "figure.unknown-number", f"figure '{figure.id}' number '{key}' must be 'ex:<id>.<output>', 'claim:<id>', 'assume:<key>' or 'series:<name>.<arg>' (got '{reference}')")
        for number in figure.sources:
            if registry.entry(number) is None:
                out.error(book.locate(f"figures:{figure.id}"), "figure.unknown-source", f"figure '{figure.id}' cites unknown source '{number}'")
    for wave in book.waves:
        for node in wave.nodes:
            if f"n{node:02d}" not in registry.nodes:
                out.error(book.locate(f"waves:{wave.id}"), "wave.unknown-node", f"wave '{wave.id}' names node {node}, which does not exist")
    routes = {route.id for route in book.map_routes}
    node_ids = {node.id for node in book.map_nodes}
    for node in book.map_nodes:
        where = book.locate(f"map_nodes:{node.id}")
        if node.route not in routes:
            out.error(where, "map.unknown-route", f"map node '{node.id}' is on unknown route '{node.route}'", closest(node.route, routes))
        for number in node.cites:
            if registry.entry(number) is None:
                out.error(where, "map.unknown-source", f"map node '{node.id}' cites unknown source '{number}'")
        for earlier in node.after:
            if earlier not in node_ids:
                out.error(where, "map.unknown-node", f"map node '{node.id}' follows unknown node '{earlier}'", closest(earlier, node_ids))
    for lead in book.leads:
        if lead.node is not None and f"n{lead.node:02d}" not in registry.nodes:
            out.error(book.locate(f"leads:{lead.id}"), "lead.unknown-node", f"lead '{lead.id}' is promoted to node {lead.node}, which does not exist")


def check_references(book: Book, parsed_pages: dict, computed: dict) -> list:
    out = Collector()
    check_ledger_references(book, out)
    for parsed in parsed_pages.values():
        check_page_references(book, parsed, computed, out)
    return out.items
