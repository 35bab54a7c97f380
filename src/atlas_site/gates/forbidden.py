"""Gate 6: statements the ledger forbids appear only inside a misconception block that corrects
them; Gate 11: no prose cites a candidate lead."""
from __future__ import annotations

import re

from ..diagnostics import Diagnostic, SourceLocation
from .context import GateContext
from .prose_scan import prose_lines
from .report import GateReport


def check_forbidden(ctx: GateContext) -> GateReport:
    patterns = []
    for item in ctx.book.misconceptions:
        for lang in ("zh", "en"):
            for pattern in getattr(item.forbidden, lang):
                patterns.append((item.id, lang, re.compile(pattern, re.IGNORECASE)))
    problems, corrected, scanned = [], 0, 0
    for parsed in ctx.parsed.values():
        lang = parsed.page.lang
        for line in prose_lines(parsed.page):
            scanned += 1
            for misconception, pattern_lang, pattern in patterns:
                if pattern_lang != lang:
                    continue
                match = pattern.search(line.text)
                if not match:
                    continue
                if line.block.startswith("misconception:"):
                    corrected += 1
                    continue
                problems.append(Diagnostic(SourceLocation(line.location.path, line.location.line, match.start() + 1),
                                           "gate.forbidden.statement",
                                           f"'{match.group(0)}' states misconception {misconception} outside a misconception block",
                                           "state the mechanism positively, or quote it inside ::: misconception " + misconception))
    blocks = {u.key for p in ctx.parsed.values() for u in p.uses_of("misconception")}
    figures = (f"{len(patterns)} patterns from {len(ctx.book.misconceptions)} misconceptions over {scanned} prose lines; "
               f"{len(problems)} outside a block, {corrected} quoted inside one; {len(blocks)}/{len(ctx.book.misconceptions)} misconceptions have a block")
    return GateReport("forbidden statements", figures, problems)


def check_leads(ctx: GateContext) -> GateReport:
    problems = [p for p in ctx.reference_problems if p.code == "lead.cited"]
    counts = {}
    for lead in ctx.book.leads:
        counts[lead.status] = counts.get(lead.status, 0) + 1
    summary = ", ".join(f"{counts.get(s, 0)} {s}" for s in ("promoted", "unverified", "eliminated"))
    return GateReport("leads", f"{len(ctx.book.leads)} leads ({summary}); {len(problems)} cited in prose", problems)
