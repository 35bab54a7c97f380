"""Stage 5: publication gates. Each is a small function GateContext -> GateReport; this list is
the extension point. The book's own rules (book.yaml) run as one report per part (gates/rules.py).
Browser gates live in gates/browser.py (run with --browser)."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from .citations import check_citations
from .cjk_typography import check_cjk_typography
from .claims import check_claims
from .context import GateContext
from .figure_drawings import check_figure_drawings
from .forbidden import check_forbidden, check_leads
from .freshness import check_freshness
from .images import check_images
from .links import check_links
from .open_data import check_open_data
from .parity import check_parity
from .report import GateReport
from .rules import check_rules
from .scripts import check_scripts
from .security import check_security
from .terms import check_abbreviations
from .translations import check_translations

STATIC_GATES = (
    check_citations,
    check_claims,
    check_forbidden,
    check_links,
    check_parity,
    check_leads,
    check_security,
    check_images,
    check_scripts,
    check_open_data,
    check_abbreviations,
    check_figure_drawings,
    check_cjk_typography,
)


def check_release(ctx: GateContext, release: bool) -> GateReport:
    pages = [p.page for p in ctx.parsed.values()]
    drafts = sorted((p for p in pages if p.draft), key=lambda p: (p.lang, p.id))
    names = ", ".join(f"{p.lang}/{p.id}" for p in drafts)
    figures = f"{len(pages) - len(drafts)}/{len(pages)} pages published" + (
        f" (drafts: {names})" if drafts else ""
    )
    problems = (
        [Diagnostic(p.origin, "gate.release.draft", f"{p.lang}/{p.id} is still a draft") for p in drafts]
        if release
        else []
    )
    if not pages:
        return GateReport("release", figures, problems, skipped="the book has no pages")
    return GateReport("release", figures, problems, pending=bool(drafts) and not release)


def run_static_gates(ctx: GateContext, release: bool = False) -> list[GateReport]:
    reports = [gate(ctx) for gate in STATIC_GATES]
    reports += check_rules(ctx)
    reports += [check_translations(ctx, release), check_freshness(ctx, release)]
    reports.append(check_release(ctx, release))
    return reports


def gate_generated_page(ctx: GateContext, path: str) -> list[Diagnostic]:
    """The HTML-level gates for a page rendered after the others (the dashboard shows their results)."""
    return check_links(ctx, [path]).problems + check_security(ctx, [path]).problems


__all__ = ["GateReport", "GateContext", "run_static_gates", "gate_generated_page", "STATIC_GATES"]
