"""Gate: every citation resolves, and every work has its bibliography entry with its canonical
URL in each language. (Which registry must be cited in full where is a rule of book.yaml.)"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic
from .context import GateContext
from .report import GateReport

CITE_LINK = re.compile(r'<a class="cite" href="[^"#]*#src-([^"]+)" data-cite="([^"]+)"')


def one_number_per_work(html: str) -> list[str]:
    """A page names each work it cites by one number (render/state.py shown_number): the works
    cited under two of their numbers, as 'work (n27, r64)'."""
    numbers: dict[str, list[str]] = {}
    for work, number in CITE_LINK.findall(html):
        if number not in numbers.setdefault(work, []):
            numbers[work].append(number)
    return [f"{work} ({', '.join(found)})" for work, found in numbers.items() if len(found) > 1]


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
    for path in ctx.output.html_pages():
        problems += [
            Diagnostic(
                ctx.where(path),
                "gate.citations.two-numbers",
                f"{path}: cites {found}: a page names a work by one number",
            )
            for found in one_number_per_work(ctx.output.text(path))
        ]
    if not registry.works:
        return GateReport("citations", "", problems, skipped="the book has no sources")
    figures = (
        f"{cited} citations, {len(dangling)} dangling; {len(registry.works)} works in {len(bibliographies)} bibliographies, "
        f"{len(registry.works) - len(no_url)}/{len(registry.works)} linking a canonical URL ({len(no_url)} unresolved, listed as gaps)"
    )
    return GateReport("citations", figures, problems)
