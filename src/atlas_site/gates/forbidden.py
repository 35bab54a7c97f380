"""Gate 6: statements the ledger forbids appear only inside a misconception block that corrects
them; Gate 11: no prose cites a candidate lead."""
from __future__ import annotations

import re

from ..diagnostics import Diagnostic, SourceLocation
from .context import GateContext
from .prose_scan import prose_lines
from .report import GateReport


def _screens(book) -> dict[str, tuple[re.Pattern, list]]:
    """Per language, one alternation of every forbidden pattern (one search per line, not 55) and
    the individual patterns to name which misconception matched."""
    screens = {}
    for lang in book.languages:
        patterns = [(item.id, re.compile(p, re.IGNORECASE)) for item in book.misconceptions for p in item.forbidden.of(lang)]
        combined = re.compile("|".join(f"(?:{p.pattern})" for _, p in patterns), re.IGNORECASE) if patterns else None
        screens[lang] = (combined, patterns)
    return screens


def _scan(page, screen) -> tuple[list[Diagnostic], int, int]:
    """One page: statements outside a correcting block, statements quoted inside one, lines read."""
    combined, patterns = screen
    problems, quoted, lines = [], 0, 0
    for line in prose_lines(page):
        lines += 1
        if combined is None or not combined.search(line.text):
            continue
        for misconception, pattern in patterns:
            match = pattern.search(line.text)
            if not match:
                continue
            if line.block.startswith("misconception:"):
                quoted += 1
                continue
            problems.append(Diagnostic(SourceLocation(line.location.path, line.location.line, match.start() + 1),
                                       "gate.forbidden.statement",
                                       f"'{match.group(0)}' states misconception {misconception} outside a misconception block",
                                       "state the mechanism positively, or quote it inside ::: misconception " + misconception))
    return problems, quoted, lines


def check_forbidden(ctx: GateContext) -> GateReport:
    screens = _screens(ctx.book)
    total = sum(len(patterns) for _, patterns in screens.values())
    problems, corrected, scanned = [], 0, 0
    patterns_version = [[m.id, m.forbidden.model_dump()] for m in ctx.book.misconceptions]
    for parsed in ctx.parsed.values():
        found, quoted, lines = ctx.per_page("forbidden", parsed, lambda parsed=parsed: _scan(parsed.page, screens[parsed.page.lang]), patterns_version)
        problems += found
        corrected += quoted
        scanned += lines
    blocks = {u.key for p in ctx.parsed.values() for u in p.uses_of("misconception")}
    figures = (f"{total} patterns from {len(ctx.book.misconceptions)} misconceptions over {scanned} prose lines; "
               f"{len(problems)} outside a block, {corrected} quoted inside one; {len(blocks)}/{len(ctx.book.misconceptions)} misconceptions have a block")
    if not total:
        return GateReport("forbidden statements", figures, problems, skipped="no misconception gives forbidden patterns")
    return GateReport("forbidden statements", figures, problems)


def check_leads(ctx: GateContext) -> GateReport:
    problems = [p for p in ctx.reference_problems if p.code == "lead.cited"]
    counts = {}
    for lead in ctx.book.leads:
        counts[lead.status] = counts.get(lead.status, 0) + 1
    summary = ", ".join(f"{counts.get(s, 0)} {s}" for s in ("promoted", "unverified", "eliminated"))
    if not ctx.book.leads:
        return GateReport("leads", "", problems, skipped="the book records no candidate leads")
    return GateReport("leads", f"{len(ctx.book.leads)} leads ({summary}); {len(problems)} cited in prose", problems)
