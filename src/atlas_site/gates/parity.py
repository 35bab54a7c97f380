"""Gate (static half): the sections every language's twin of a page has are in the same order
and, in each of them, the same uses of the directives that carry evidence or structure (those
declared with `parity` in directives/); the language switch lands on the twin page. Differences
are reported at the heading or use that has no counterpart. The browser half clicks the switch."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ..diagnostics import Diagnostic
from ..directives import REGISTRY
from .context import GateContext
from .report import GateReport


def _per_section(parsed) -> dict[str, Counter]:
    table: dict[str, Counter] = {}
    for use in parsed.uses:
        directive = REGISTRY.get(use.kind)
        if directive is not None and directive.parity == "section":
            table.setdefault(use.section, Counter())[(use.kind, use.key)] += 1
    return table


def _per_page(parsed) -> dict[tuple[str, str], Any]:
    """(kind, id) -> its first use on the page, for the directives whose twins agree page by page."""
    firsts: dict[tuple[str, str], Any] = {}
    for use in parsed.uses:
        directive = REGISTRY.get(use.kind)
        if directive is not None and directive.parity == "page":
            firsts.setdefault((use.kind, use.key), use)
    return firsts


def _compare(first, other) -> list[Diagnostic]:
    """Differences of `other` against the first language's twin, each located where it shows."""
    problems = []
    page_id, a, b = first.page.id, first.page.lang, other.page.lang
    ids_a, ids_b = [s.id for s in first.sections], [s.id for s in other.sections]
    # a section one language does not have yet is a missing translation (gates/translations.py):
    # a warning while writing, an error on release; the sections both have must agree here
    common_a = [i for i in ids_a if i in ids_b]
    common_b = [i for i in ids_b if i in ids_a]
    if common_a != common_b:
        moved = next(i for i, j in zip(common_b, common_a, strict=False) if i != j)
        problems.append(
            Diagnostic(
                other.section(moved).location,
                "gate.parity.sections",
                f"{page_id}: section '{moved}' is in a different place in {b} than in {a}",
            )
        )
    uses_a, uses_b = _per_section(first), _per_section(other)
    for section in sorted((set(uses_a) | set(uses_b)) & (set(common_a) | {""})):
        for parsed, mine, theirs, lang, twin in (
            (first, uses_a, uses_b, a, b),
            (other, uses_b, uses_a, b, a),
        ):
            extra = mine.get(section, Counter()) - theirs.get(section, Counter())
            for (kind, key), count in sorted(extra.items()):
                use = [u for u in parsed.uses if u.kind == kind and u.key == key and u.section == section][-1]
                problems.append(
                    Diagnostic(
                        use.location,
                        "gate.parity.uses",
                        f"{page_id} §{section or '(top)'}: {kind}:{key} is in {lang}"
                        f"{f' ({count}× more)' if count > 1 else ''} but not in {twin}",
                    )
                )
    page_a, page_b = _per_page(first), _per_page(other)
    for here, there, lang, twin in ((page_a, page_b, a, b), (page_b, page_a, b, a)):
        for kind, key in sorted(set(here) - set(there)):
            problems.append(
                Diagnostic(
                    here[(kind, key)].location,
                    "gate.parity.uses",
                    f"{page_id}: {kind}:{key} is on the {lang} page but not on its {twin} twin",
                    f"use {{{{{kind}:{key}}}}} where the {twin} page first needs it, or leave it out of both",
                )
            )
    return problems


# In a rendered page, in reading order: a paragraph's pairing key (data-para, numbered by section), and
# the blocks placed between paragraphs: a figure, a lab, a formula or a table.
_BLOCKS = re.compile(
    r'<(?:p|li|div|td|blockquote)\b[^>]*\sdata-para="([^"]+)"'
    r'|<figure\b[^>]*\sid="([^"]+)"'
    r'|<section\b[^>]*\sid="(lab-[^"]+)"'
    r'|class="scroll-frame (math-block|table-scroll)-frame'
)


def _placed(html: str) -> list[tuple[str, str]]:
    """Each figure, lab, formula and table of a page with the paragraph it follows ('' at a
    section's top, before its first)."""
    placed, after = [], ""
    for match in _BLOCKS.finditer(html):
        para, figure, lab, box = match.groups()
        if para:
            after = para
        else:
            placed.append((figure or lab or box, after))
    return placed


def _order(ctx: GateContext, languages) -> list[Diagnostic]:
    """The twins place their figures, labs, formulas and tables after the same paragraph (review
    30-r D1: a figure between a sentence and its formula in one language only)."""
    problems = []
    first, others = languages[0], languages[1:]
    for path in ctx.output.html_pages():
        if not path.startswith(f"{first}/"):
            continue
        mine = _placed(ctx.output.text(path))
        for lang in others:
            twin = f"{lang}/" + path.split("/", 1)[1]
            if twin not in ctx.output:
                continue
            theirs = _placed(ctx.output.text(twin))
            for (block, after), (block_twin, after_twin) in zip(mine, theirs, strict=False):
                if (block, after) != (block_twin, after_twin):
                    problems.append(
                        Diagnostic(
                            ctx.where(twin),
                            "gate.parity.order",
                            f"{path} places {block} after paragraph {after or '(the section top)'}, {twin} places"
                            f" {block_twin} after {after_twin or '(the section top)'}",
                            "place the block after the same paragraph in both languages",
                        )
                    )
                    break
    return problems


def check_parity(ctx: GateContext) -> GateReport:
    languages = ctx.book.languages
    if len(languages) < 2:
        return GateReport("bilingual parity", "", skipped="the book has one language")
    problems, pairs, sections = [], 0, 0
    for page_id in sorted({page_id for _, page_id in ctx.parsed}):
        versions = [ctx.parsed[(lang, page_id)] for lang in languages if (lang, page_id) in ctx.parsed]
        if len(versions) < 2:
            continue  # reported by validation as page.missing-translation
        first = versions[0]
        sections += len(first.sections)
        for other in versions[1:]:
            pairs += 1
            problems += _compare(first, other)
        for parsed in versions:
            index = ctx.html(parsed.page.output_path)
            switch = sorted(link.href for link in index.links if link.lang_switch)
            expected = sorted(f"../{lang}/{page_id}.html" for lang in languages if lang != parsed.page.lang)
            if switch != expected:
                problems.append(
                    Diagnostic(
                        ctx.where(parsed.page.output_path),
                        "gate.parity.switch",
                        f"{parsed.page.lang}/{page_id}: the language switch should point to {', '.join(expected)}, found {switch}",
                    )
                )
    problems += _order(ctx, languages)
    figures = f"{pairs} page pairs, {sections} sections compared; {len(problems)} differences"
    return GateReport("bilingual parity", figures, problems)
