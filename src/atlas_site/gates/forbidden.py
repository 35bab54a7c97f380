"""Gate 6: statements the ledger forbids appear only inside a misconception block that corrects
them; Gate 11: no prose cites a candidate lead."""

from __future__ import annotations

from typing import Any

import regex

from ..diagnostics import Diagnostic, SourceLocation
from .context import GateContext
from .prose_scan import prose_lines
from .report import GateReport

# The ledger refuses the usual catastrophic shapes ((a+)+); a pattern that still backtracks for
# longer than this on one line is reported and left out, never waited for.
SEARCH_SECONDS = 1.0


class _Screen:
    """One language: one alternation of every forbidden pattern (one search per line, not 55), the
    individual patterns to name which misconception matched, and the ones found too slow. Compiled
    on first use: a build whose pages are all cached compiles nothing."""

    def __init__(self, patterns: list[tuple[str, str]]):
        self.patterns = patterns  # (misconception id, pattern)
        self.slow: set[str] = set()
        self.split = not patterns  # True once the alternation proved slow: each pattern on its own
        self._combined: Any = None  # the alternation of every pattern, compiled on first use
        self._compiled: dict[str, regex.Pattern] = {}

    def compiled(self, pattern: str) -> regex.Pattern:
        if pattern not in self._compiled:
            self._compiled[pattern] = regex.compile(pattern, regex.IGNORECASE)
        return self._compiled[pattern]

    def screens(self, text: str) -> bool:
        """Whether the line may hold a forbidden statement (True when it must be checked pattern by pattern)."""
        if self.split:
            return bool(self.patterns)
        if self._combined is None:
            self._combined = regex.compile("|".join(f"(?:{p})" for _, p in self.patterns), regex.IGNORECASE)
        try:
            return bool(self._combined.search(text, timeout=SEARCH_SECONDS))
        except TimeoutError:  # one pattern is slow, or only their alternation: see pattern by pattern
            self.split = True
            return True


def _screens(book) -> dict[str, _Screen]:
    return {
        lang: _Screen([(item.id, p) for item in book.misconceptions for p in item.forbidden.of(lang)])
        for lang in book.languages
    }


def _slow(screen: _Screen, misconception: str, pattern: str, where, line) -> Diagnostic:
    screen.slow.add(pattern)
    return Diagnostic(
        where(misconception),
        "gate.forbidden.slow-pattern",
        f"misconception {misconception}: forbidden pattern {pattern!r} took over {SEARCH_SECONDS:g} s on "
        f"{line.location.path}:{line.location.line} and was left out",
        "simplify it: avoid alternatives or repeats that can match the same text in many ways",
    )


def _scan(page, screen: _Screen, where) -> tuple[list[Diagnostic], int, int]:
    """One page: statements outside a correcting block, statements quoted inside one, lines read."""
    problems, quoted, lines = [], 0, 0
    for line in prose_lines(page):
        lines += 1
        if not screen.screens(line.text):
            continue
        for misconception, pattern in screen.patterns:
            if pattern in screen.slow:
                continue
            try:
                match = screen.compiled(pattern).search(line.text, timeout=SEARCH_SECONDS)
            except TimeoutError:
                problems.append(_slow(screen, misconception, pattern, where, line))
                continue
            if not match:
                continue
            if line.block.startswith("misconception:"):
                quoted += 1
                continue
            problems.append(
                Diagnostic(
                    SourceLocation(line.location.path, line.location.line, match.start() + 1),
                    "gate.forbidden.statement",
                    f"'{match.group(0)}' states misconception {misconception} outside a misconception block",
                    "state the mechanism positively, or quote it inside ::: misconception " + misconception,
                )
            )
    return problems, quoted, lines


def check_forbidden(ctx: GateContext) -> GateReport:
    screens = _screens(ctx.book)
    total = sum(len(screen.patterns) for screen in screens.values())
    problems, corrected, scanned, seen = [], 0, 0, set()
    patterns_version = [[m.id, m.forbidden.model_dump()] for m in ctx.book.misconceptions]
    where = lambda misconception: ctx.book.locate(f"misconceptions:{misconception}")
    for parsed in ctx.parsed.values():
        found, quoted, lines = ctx.per_page(
            "forbidden",
            parsed,
            lambda parsed=parsed: _scan(parsed.page, screens[parsed.page.lang], where),
            patterns_version,
        )
        for problem in found:  # a slow pattern is named once
            if problem not in seen:
                seen.add(problem)
                problems.append(problem)
        corrected += quoted
        scanned += lines
    blocks = {u.key for p in ctx.parsed.values() for u in p.uses_of("misconception")}
    figures = (
        f"{total} patterns from {len(ctx.book.misconceptions)} misconceptions over {scanned} prose lines; "
        f"{len(problems)} outside a block, {corrected} quoted inside one; {len(blocks)}/{len(ctx.book.misconceptions)} misconceptions have a block"
    )
    if not total:
        return GateReport(
            "forbidden statements", figures, problems, skipped="no misconception gives forbidden patterns"
        )
    return GateReport("forbidden statements", figures, problems)


def check_leads(ctx: GateContext) -> GateReport:
    problems = [p for p in ctx.reference_problems if p.code == "lead.cited"]
    counts: dict = {}
    for lead in ctx.book.leads:
        counts[lead.status] = counts.get(lead.status, 0) + 1
    summary = ", ".join(f"{counts.get(s, 0)} {s}" for s in ("promoted", "unverified", "eliminated"))
    if not ctx.book.leads:
        return GateReport("leads", "", problems, skipped="the book records no candidate leads")
    return GateReport(
        "leads", f"{len(ctx.book.leads)} leads ({summary}); {len(problems)} cited in prose", problems
    )
