"""Rule kind: every entry of a source registry is cited in the running prose of a part's pages."""

from __future__ import annotations

from typing import Literal

from .base import Args, Check, RuleKind


def prose_citations(book, parsed) -> list:
    """(ledger number, use) cited in a page's running prose: [@…] citations and the sources of the
    claims it states (a claim renders its citation inline). Tables and generated lists do not count."""
    cited = [(u.key, u) for u in parsed.uses_of("cite")]
    for use in parsed.uses_of("claim"):
        claim = book.claims.get(use.key)
        cited += [(number, use) for number in (claim.source if claim else ())]
    return cited


class CitesAll(RuleKind):
    name = "cites_all"
    rule = (
        "Every entry of the named registry (nodes or references) is cited in the running prose of the part's "
        "pages (all pages of a series together); an entry counts when its work is cited under any of its numbers. "
        "Generated tables (the node table) do not count."
    )
    fix = "Cite the missing entries where their idea matters: [@n27] or [@r64]."

    class Args(Args):
        shorthand = "registry"
        registry: Literal["nodes", "references"]

    @classmethod
    def describe(cls, args) -> str:
        return f"every {args.registry[:-1]} cited"

    def rests_on_broken_input(self, book) -> bool:
        return book.is_broken("registry", self.args.registry)

    def references(self, book):
        if not book.registry.of_kind(self.args.registry):
            return [f"the {self.args.registry} registry is empty: there is nothing to cite"]
        return []

    def check(self, ctx, lang, pages) -> Check:
        registry = ctx.book.registry
        entries = registry.of_kind(self.args.registry)
        cited_works = {
            registry.work_of(n).key
            for p in pages
            for n, _ in prose_citations(ctx.book, p)
            if registry.work_of(n)
        }
        missing = [n for n, entry in entries.items() if entry.work not in cited_works]
        problems = []
        if missing:
            where = ", ".join(f"{n} at {ctx.book.locate(n)}" for n in missing[:3])
            problems.append(
                self.problem(
                    pages[0].page.origin,
                    f"{lang}: {len(missing)} of {len(entries)} {self.args.registry} not cited in the prose of "
                    f"{', '.join(p.page.id for p in pages)}: {', '.join(missing)}",
                    f"defined {where}{' …' if len(missing) > 3 else ''}",
                )
            )
        return Check(len(entries), problems, f"{len(entries) - len(missing)}/{len(entries)} {lang}")


KINDS = (CitesAll,)
