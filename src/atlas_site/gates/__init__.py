"""Stage 5: publication gates. Each family is a small pure function GateContext -> GateReport;
this list is the extension point. Browser gates live in gates/browser.py (run with --browser)."""
from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostic
from .citations import check_citations
from .claims import check_claims
from .context import GateContext
from .forbidden import check_forbidden, check_leads
from .images import check_images
from .links import check_links
from .parity import check_parity
from .report import GateReport
from .scripts import check_scripts
from .security import check_security
from .structure import check_structure
from .terms import check_terms

STATIC_GATES = (check_citations, check_claims, check_terms, check_forbidden, check_structure,
                check_links, check_parity, check_leads, check_security, check_images, check_scripts)


def check_release(ctx: GateContext, release: bool) -> GateReport:
    pages = [p.page for p in ctx.parsed.values()]
    drafts = sorted({f"{p.lang}/{p.id}" for p in pages if p.meta.status != "published"})
    figures = f"{len(pages) - len(drafts)}/{len(pages)} pages published"
    problems = []
    if release and drafts:
        problems = [Diagnostic(ctx.parsed[(d.split('/')[0], d.split('/')[1])].page.origin, "gate.release.draft",
                               f"{d} is still a draft") for d in drafts]
    return GateReport("release", figures + (f" (drafts: {', '.join(drafts)})" if drafts else ""), problems, pending=bool(drafts) and not release)


def run_static_gates(book, parsed, output, root: Path, release: bool = False, reference_problems=(), cache=None,
                     code_version: str = "") -> list[GateReport]:
    ctx = GateContext(book, parsed, output, list(reference_problems), cache=cache, code_version=code_version, root=root)
    reports = [gate(ctx) for gate in STATIC_GATES]
    reports.append(check_release(ctx, release))
    return reports


__all__ = ["GateReport", "GateContext", "run_static_gates", "STATIC_GATES"]
