"""Gate 1: every citation resolves; all 62 formal nodes are cited in Chapter 14 prose in both
languages; every numbered reference is cited from the Token factory pages."""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..model import LANGS
from .context import GateContext
from .report import GateReport

CHAPTER = "ch14"


def cited_numbers(book, parsed) -> list[str]:
    """Ledger numbers cited in a page's running prose: [@…] citations and the sources of the claims
    it states (a claim renders its citation inline). Tables and generated lists do not count."""
    numbers = [u.key for u in parsed.uses_of("cite")]
    for use in parsed.uses_of("claim"):
        claim = book.claims.get(use.key)
        numbers += list(claim.source) if claim else []
    return numbers


def check_citations(ctx: GateContext) -> GateReport:
    registry = ctx.book.registry
    problems: list[Diagnostic] = []
    figures = []
    pending = False
    chapter_pages = {lang: ctx.parsed.get((lang, CHAPTER)) for lang in LANGS}
    for lang, parsed in chapter_pages.items():
        if parsed is None:
            figures.append(f"{lang}: no Chapter 14 page")
            pending = True
            continue
        cited_works = {registry.work_of(n).key for n in cited_numbers(ctx.book, parsed) if registry.work_of(n)}
        # a node counts when its work is cited in running prose (the node table does not count)
        covered = [n for n, entry in registry.nodes.items() if entry.work in cited_works]
        missing = sorted(set(registry.nodes) - set(covered))
        figures.append(f"{lang} {len(covered)}/{len(registry.nodes)} formal nodes cited in Chapter 14 prose")
        if missing:
            if parsed.page.meta.status == "published":
                problems.append(Diagnostic(parsed.page.origin, "gate.citations.node-uncited",
                                           f"{lang}: formal nodes not cited in the prose: {', '.join(missing)}"))
            else:
                pending = True
    tutorial = [p for (lang, _), p in ctx.parsed.items() if p.page.meta.kind == "tutorial"]
    for lang in LANGS:
        pages = [p for p in tutorial if p.page.lang == lang]
        cited = {registry.work_of(n).key for p in pages for n in cited_numbers(ctx.book, p) if registry.work_of(n)}
        covered = [r for r, entry in registry.references.items() if entry.work in cited]
        figures.append(f"{lang} {len(covered)}/{len(registry.references)} numbered references cited in the Token factory")
        missing = sorted(set(registry.references) - set(covered), key=lambda r: int(r[1:]))
        if missing and pages and all(p.page.meta.status == "published" for p in pages) and len(pages) >= ctx.tutorial_page_count:
            problems.append(Diagnostic(pages[0].page.origin, "gate.citations.ref-uncited",
                                       f"{lang}: numbered references not cited anywhere in the tutorial: {', '.join(missing)}"))
        elif missing:
            pending = True
    dangling = [p for p in ctx.reference_problems if p.code in ("cite.unknown", "claim.unknown-source")]
    figures.append(f"{len(dangling)} dangling")
    problems += dangling
    no_url = [w.key for w in registry.works.values() if w.url is None]
    figures.append(f"{len(registry.works) - len(no_url)}/{len(registry.works)} entries link a canonical URL ({len(no_url)} unresolved, listed as gaps)")
    for path in ctx.output.html_pages():
        if not path.endswith("bibliography.html"):
            continue
        index = ctx.html(path)
        for key, work in registry.works.items():
            if f"src-{key}" not in index.ids:
                problems.append(Diagnostic(ctx.where(path), "gate.citations.no-entry", f"{path}: no bibliography entry for '{key}'"))
        urls = {href for href, _ in index.links}
        for key in sorted(set(registry.works) - set(no_url)):
            if registry.works[key].url not in urls:
                problems.append(Diagnostic(ctx.where(path), "gate.citations.no-url", f"{path}: entry '{key}' does not link its canonical URL"))
    return GateReport("citations", ", ".join(figures), problems, pending=pending and not problems)
