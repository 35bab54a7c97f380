"""Gate 5: TTFT, TPOT (ITL), E2E latency, throughput and goodput are defined at first use on the
Chapter 14 page, in each language."""
from __future__ import annotations

import re

from ..diagnostics import Diagnostic
from ..model import LANGS
from .context import GateContext
from .report import GateReport

REQUIRED = ("ttft", "tpot", "e2e-latency", "throughput", "goodput")
CHAPTER = "ch14"


def _surface_forms(term, lang: str) -> list[str]:
    forms = {term.abbr, term.en} | set(term.aliases.get("en", ()))
    if lang == "zh":
        forms |= {term.zh} | set(term.aliases.get("zh", ()))
    return sorted((f for f in forms if f and len(f) >= 3), key=len, reverse=True)


def check_terms(ctx: GateContext) -> GateReport:
    problems, defined = [], 0
    pages = list(ctx.chapter_pages(CHAPTER))
    pending = len(pages) < len(LANGS)
    for lang, parsed, draft in pages:
        index = ctx.html(parsed.page.output_path)
        text = index.prose_text
        for term_id in REQUIRED:
            term = ctx.book.terms.get(term_id)
            dfn = next((e for e in index.elements if e.tag == "dfn" and e.attrs.get("data-term") == term_id), None)
            issue = None
            if term is None:
                issue = f"the glossary (ledger/glossary.md) has no term '{term_id}'"
            elif dfn is None:
                issue = f"{lang}: '{term_id}' is never defined with {{{{term:{term_id}}}}}"
            else:
                pattern = re.compile("|".join(re.escape(f) for f in _surface_forms(term, lang)), re.IGNORECASE)
                early = pattern.search(text, 0, dfn.text_start)
                if early:
                    issue = f"{lang}: '{early.group(0)}' appears before its definition (…{text[max(0, early.start() - 30):early.end()]}…)"
            if issue is None:
                defined += 1
            elif draft:
                pending = True
            else:
                problems.append(Diagnostic(parsed.page.origin, "gate.terms.not-first", issue))
    figures = f"{defined}/{len(REQUIRED) * len(LANGS)} key terms defined at first use (zh+en)"
    return GateReport("terms", figures, problems, pending=pending and not problems)
