"""Gate: no evidence is past its review date (book.yaml `review_months`, see freshness.py). The
date comes from `--as-of`; without one nothing is judged and the gate says so. Past due is a
warning while writing and an error under `--release`."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..freshness import review_schedule
from .context import GateContext
from .report import GateReport


def _due(reviews, as_of, severity: str) -> list[Diagnostic]:
    return [
        Diagnostic(
            r.location,
            "freshness.due",
            f"{r.kind} {r.name} was last verified on {r.verified}; its review was due on {r.due} "
            f"({r.months}-month interval{' for a rolling source' if r.rolling else ''}, as of {as_of})",
            "verify it against the source again and record the new date (claims `verified`, "
            "sources `accessed`/`verified`, pages `last_verified`)",
            severity,
        )
        for r in reviews
        if r.overdue(as_of)
    ]


def due_warnings(book, day) -> GateReport:
    """What is past due on another day than the one a check judges (`check --warn-due-by`: CI's
    today beside a release's edition date), as warnings: the check's verdict stays its own day's."""
    name = f"evidence due by {day}"
    if book.profile.review_months is None:  # nothing is dated: no "0 past due" over nothing
        return GateReport(name, "", skipped="book.yaml sets no review_months")
    reviews = review_schedule(book)
    problems = _due(reviews, day, "warning")
    return GateReport(name, f"{len(problems)} past due as of {day} (warnings only)", problems)


def check_freshness(ctx: GateContext, release: bool) -> GateReport:
    if ctx.book.profile.review_months is None:
        return GateReport("evidence freshness", "", skipped="book.yaml sets no review_months")
    reviews = review_schedule(ctx.book)
    kinds = ", ".join(
        f"{sum(r.kind == kind for r in reviews)} {kind}s" for kind in ("claim", "source", "page")
    )
    if ctx.as_of is None:
        return GateReport(
            "evidence freshness", f"{kinds} dated", skipped="no --as-of DATE (a build never reads the clock)"
        )
    problems = _due(reviews, ctx.as_of, "error" if release else "warning")
    return GateReport(
        "evidence freshness", f"{kinds} dated; {len(problems)} past due as of {ctx.as_of}", problems
    )
