"""Gate 10 (static half): zh and en twins have the same section ids in the same order and the same
figures, labs, claims, examples and citations in each section; the language switch lands on the
twin page, where every section id exists. The browser half clicks the switch."""
from __future__ import annotations

from collections import Counter

from ..diagnostics import Diagnostic
from .context import GateContext
from .report import GateReport

COMPARED = ("figure", "labs", "claim", "ex", "cite", "misconception", "lineage", "question-cards", "node-table", "open-questions")


def _per_section(parsed) -> dict[str, Counter]:
    table: dict[str, Counter] = {}
    for use in parsed.uses:
        if use.kind in COMPARED:
            table.setdefault(use.section, Counter())[(use.kind, use.key)] += 1
    return table


def check_parity(ctx: GateContext) -> GateReport:
    problems, pairs, sections = [], 0, 0
    page_ids = sorted({page_id for _, page_id in ctx.parsed})
    for page_id in page_ids:
        zh, en = ctx.parsed.get(("zh", page_id)), ctx.parsed.get(("en", page_id))
        if zh is None or en is None:
            continue  # reported by validation as page.missing-translation
        pairs += 1
        zh_ids, en_ids = [s.id for s in zh.sections], [s.id for s in en.sections]
        sections += len(zh_ids)
        if zh_ids != en_ids:
            missing = [i for i in zh_ids if i not in en_ids] + [i for i in en_ids if i not in zh_ids]
            detail = f"differ: {', '.join(missing)}" if missing else "same ids in a different order"
            problems.append(Diagnostic(en.page.origin, "gate.parity.sections", f"{page_id}: section ids of zh and en {detail}"))
        zh_uses, en_uses = _per_section(zh), _per_section(en)
        for section in sorted(set(zh_uses) | set(en_uses)):
            only_zh = zh_uses.get(section, Counter()) - en_uses.get(section, Counter())
            only_en = en_uses.get(section, Counter()) - zh_uses.get(section, Counter())
            if only_zh or only_en:
                text = "; ".join(f"only in {lang}: " + ", ".join(f"{k}:{v}" for k, v in sorted(diff)) for lang, diff in (("zh", only_zh), ("en", only_en)) if diff)
                problems.append(Diagnostic(en.page.origin, "gate.parity.uses", f"{page_id} §{section or '(top)'}: {text}"))
        for lang, parsed in (("zh", zh), ("en", en)):
            index = ctx.html(parsed.page.output_path)
            twin = ("en" if lang == "zh" else "zh")
            switch = [href for href, attrs in index.links if "data-lang-switch" in attrs]
            if switch != [f"../{twin}/{page_id}.html"]:
                problems.append(Diagnostic(parsed.page.origin, "gate.parity.switch", f"{lang}/{page_id}: language switch should point to ../{twin}/{page_id}.html, found {switch}"))
    figures = f"{pairs} page pairs, {sections} sections compared; {len(problems)} differences"
    return GateReport("bilingual parity", figures, problems)
