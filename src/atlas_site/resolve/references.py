"""Every reference in prose and ledgers must land on something that exists. Each directive checks
its own references (directives/); this module walks the uses and the ledger records."""

from __future__ import annotations

from ..diagnostics import Collector, closest
from ..directives import REGISTRY
from ..model import Book, registry_kind
from .pages import ParsedPage


def check_page_references(book: Book, parsed: ParsedPage, computed: dict, out: Collector) -> None:
    out.extend(parsed.problems)
    seen_ids: dict = {}
    for section in parsed.sections:
        if section.id in seen_ids:
            out.error(
                section.location,
                "heading.duplicate-id",
                f"section id '{section.id}' is used twice on this page (first at {seen_ids[section.id]})",
            )
        seen_ids[section.id] = section.location
    for use in parsed.uses:
        if use.kind == "link":
            continue  # links are checked on the rendered site by the links gate, at this location
        directive = REGISTRY.get(use.kind)
        if directive is None:
            inline = sorted(d.name for d in REGISTRY if d.form == "inline")
            out.error(
                use.location,
                "directive.unknown",
                f"unknown directive '{use.kind}'",
                closest(use.kind, [d.name for d in REGISTRY])
                or f"the inline directives are: {', '.join(inline)}",
            )
        elif not directive.argument_problem(use.key):
            if directive.check is not None:
                directive.check(book, use, computed, out)
            if directive.page_check is not None:
                directive.page_check(book, parsed, use, out)


def check_ledger_references(book: Book, out: Collector) -> None:
    registry = book.registry
    for claim in book.claims.values():
        for number in claim.source:
            if registry.entry(number) is None and book.is_broken("registry", registry_kind(number)):
                out.quiet()
            elif registry.entry(number) is None:
                out.error(
                    book.locate(f"claims:{claim.id}"),
                    "claim.unknown-source",
                    f"claim '{claim.id}' cites '{number}', which is not in the source registry",
                )
    for figure in book.figures.values():
        where = book.locate(f"figures:{figure.id}")
        if figure.kind not in book.profile.figure_kinds:
            out.error(
                where,
                "figure.unknown-kind",
                f"figure '{figure.id}' has kind '{figure.kind}', not one of book.yaml figure_kinds",
                closest(figure.kind, book.profile.figure_kinds),
            )
        for key, reference in figure.numbers.items():
            kind, _, target = reference.partition(":")
            example_id, _, output = target.partition(".")
            if kind == "claim" and target not in book.claims:
                out.error(
                    where,
                    "figure.unknown-number",
                    f"figure '{figure.id}' number '{key}' names unknown claim '{target}'",
                    closest(target, book.claims),
                )
            elif kind == "ex" and (
                example_id not in book.examples
                or (
                    output not in book.examples[example_id].outputs
                    and output not in book.examples[example_id].args
                )
            ):
                known = book.examples[example_id].outputs if example_id in book.examples else book.examples
                out.error(
                    where,
                    "figure.unknown-number",
                    f"figure '{figure.id}' number '{key}' names '{reference}', which is neither a declared output nor an input of that example",
                    closest(output or example_id, known),
                )
            elif kind == "assume" and target not in (getattr(figure, "assume", None) or {}):
                out.error(
                    where,
                    "figure.unknown-number",
                    f"figure '{figure.id}' number '{key}' names '{reference}', which is not in the figure's assume",
                    closest(target, getattr(figure, "assume", None) or {}),
                )
            elif kind == "series" and example_id not in (getattr(figure, "series", None) or {}):
                out.error(
                    where,
                    "figure.unknown-number",
                    f"figure '{figure.id}' number '{key}' names '{reference}', which is not one of the figure's series",
                    closest(example_id, getattr(figure, "series", None) or {}),
                )
            elif kind not in ("claim", "ex", "assume", "series"):
                out.error(
                    where,
                    "figure.unknown-number",
                    f"figure '{figure.id}' number '{key}' must be 'ex:<id>.<output>', 'claim:<id>', 'assume:<key>' or 'series:<name>.<arg>' (got '{reference}')",
                )
        for number in figure.sources:
            if registry.entry(number) is None:
                out.error(
                    where, "figure.unknown-source", f"figure '{figure.id}' cites unknown source '{number}'"
                )
    for wave in book.waves:
        for number in wave.nodes:
            if number not in registry.nodes:
                out.error(
                    book.locate(f"waves:{wave.id}"),
                    "wave.unknown-node",
                    f"wave '{wave.id}' names node {number}, which does not exist",
                    closest(number, registry.nodes),
                )
    routes = {route.id for route in book.map_routes}
    node_ids = {node.id for node in book.map_nodes}
    for node in book.map_nodes:
        where = book.locate(f"map_nodes:{node.id}")
        if node.route not in routes:
            out.error(
                where,
                "map.unknown-route",
                f"map node '{node.id}' is on unknown route '{node.route}'",
                closest(node.route, routes),
            )
        for number in node.cites:
            if registry.entry(number) is None:
                out.error(
                    where, "map.unknown-source", f"map node '{node.id}' cites unknown source '{number}'"
                )
        for earlier in node.after:
            if earlier not in node_ids:
                out.error(
                    where,
                    "map.unknown-node",
                    f"map node '{node.id}' follows unknown node '{earlier}'",
                    closest(earlier, node_ids),
                )
    for lead in book.leads:
        if lead.node is not None and lead.node not in registry.nodes:
            out.error(
                book.locate(f"leads:{lead.id}"),
                "lead.unknown-node",
                f"lead '{lead.id}' is promoted to node {lead.node}, which does not exist",
            )
    for lab in book.labs.values():
        for key in ("statements",):
            for item in getattr(lab, key, None) or []:
                if not isinstance(item, dict) or "id" not in item:
                    out.error(
                        book.locate(f"labs:{lab.id}"),
                        "schema.invalid",
                        f"lab '{lab.id}': every statement has an id and a text per language",
                    )


def check_references(book: Book, parsed_pages: dict, computed: dict) -> tuple[list, int]:
    """(problems, follow-on problems suppressed because their cause is already reported)."""
    out = Collector()
    check_ledger_references(book, out)
    for parsed in parsed_pages.values():
        check_page_references(book, parsed, computed, out)
    return out.items, out.suppressed
