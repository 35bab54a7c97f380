"""Gate: every citation resolves, and every work has its bibliography entry with its canonical
URL in each language. (Which registry must be cited in full where is a rule of book.yaml.)"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from .context import GateContext
from .report import GateReport


def check_citations(ctx: GateContext) -> GateReport:
    registry = ctx.book.registry
    problems: list[Diagnostic] = []
    cited = sum(len(p.uses_of("cite")) for p in ctx.parsed.values())
    dangling = [p for p in ctx.reference_problems if p.code in ("cite.unknown", "claim.unknown-source")]
    problems += dangling
    no_url = [w.key for w in registry.works.values() if w.url is None]
    bibliographies = [
        f"{lang}/bibliography.html"
        for lang in ctx.book.languages
        if f"{lang}/bibliography.html" in ctx.output
    ]
    for path in bibliographies:
        index = ctx.html(path)
        for key in registry.works:
            if f"src-{key}" not in index.ids:
                problems.append(
                    Diagnostic(
                        ctx.where(path),
                        "gate.citations.no-entry",
                        f"{path}: no bibliography entry for '{key}'",
                    )
                )
        urls = {link.href for link in index.links}
        for key in sorted(set(registry.works) - set(no_url)):
            if registry.works[key].url not in urls:
                problems.append(
                    Diagnostic(
                        ctx.where(path),
                        "gate.citations.no-url",
                        f"{path}: entry '{key}' does not link its canonical URL",
                    )
                )
    if not registry.works:
        return GateReport("citations", "", problems, skipped="the book has no sources")
    figures = (
        f"{cited} citations, {len(dangling)} dangling; {len(registry.works)} works in {len(bibliographies)} bibliographies, "
        f"{len(registry.works) - len(no_url)}/{len(registry.works)} linking a canonical URL ({len(no_url)} unresolved, listed as gaps)"
    )
    return GateReport("citations", figures, problems)
