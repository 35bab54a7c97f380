"""The profile's release rules (book.yaml), one report per part (and one for the book-wide rules).
Each rule instance runs once per language over its pages. On a draft page a failing rule is
reported as pending, not enforced (`check --release` fails on drafts anyway)."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..model.profile import Part
from .context import GateContext
from .report import GateReport


def _pages_of(ctx: GateContext, rule, lang: str) -> list:
    return [ctx.parsed[(lang, page_id)] for page_id in rule.page_ids() if (lang, page_id) in ctx.parsed]


def run_rule(ctx: GateContext, rule) -> tuple[int, list[Diagnostic], list[str], list[str]]:
    """(items checked, enforced problems, pending messages, figures) over every language."""
    checked, problems, pending, summaries = 0, [], [], []
    for lang in ctx.book.languages:
        pages = _pages_of(ctx, rule, lang) if rule.part else []
        if rule.part and not pages:
            problems.append(
                rule.problem(rule.location, f"{lang}: none of the pages {', '.join(rule.page_ids())} exists")
            )
            continue
        result = rule.check(ctx, lang, pages)
        checked += result.checked
        if result.summary:
            summaries.append(result.summary)
        if result.checked == 0:
            problems.append(rule.problem(rule.location, f"{lang}: the rule found nothing to check"))
        if any(p.page.draft for p in pages):
            pending += [str(p) for p in result.problems]
        else:
            problems += result.problems
        if not rule.part:
            break  # book-wide rules do not depend on the language
    return checked, problems, pending, summaries


def check_rules(ctx: GateContext) -> list[GateReport]:
    reports = []
    groups: list[tuple[Part | None, list]] = [(None, [r for r in ctx.rules if r.part is None])]
    groups += [
        (part, [r for r in ctx.rules if r.part is part])
        for part in ctx.book.profile.parts
        if not part.generated
    ]
    for part, rules in groups:
        name = f"rules of {part.id}" if part else "rules of the book"
        if not rules:
            if part is not None:
                reports.append(GateReport(name, "", skipped="book.yaml sets no rules for this part"))
            continue
        problems, pending, held, browser = [], [], 0, 0
        details = []
        for rule in rules:
            checked, found, waiting, summaries = run_rule(ctx, rule)
            problems += found
            pending += waiting
            held += not found and not waiting
            if rule.browser:
                browser += 1
            if summaries:
                details.append(f"{rule.title} {', '.join(summaries)}")
        figures = f"{held}/{len(rules)} rules hold in every language"
        if browser:
            figures += f" ({browser} checked in Chromium by --browser; here their static half)"
        if details:
            figures += "; " + "; ".join(details)
        if pending:
            figures += f"; {len(pending)} pending on draft pages"
        reports.append(GateReport(name, figures, problems, pending=bool(pending) and not problems))
    return reports
