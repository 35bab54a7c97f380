"""`atlas-site check --explain CODE`: what each diagnostic's rule is and how to fix it."""

from __future__ import annotations

from pathlib import Path

import yaml

from .diagnostics import closest

# code -> (the rule, how to fix it): explanations.yaml, a table of texts kept as data
RULES: dict[str, tuple[str, str]] = {
    code: (entry["rule"], entry["fix"])
    for code, entry in yaml.safe_load(
        (Path(__file__).parent / "explanations.yaml").read_text(encoding="utf-8")
    ).items()
}


def codes() -> dict[str, tuple[str, str]]:
    """Every code the tool can emit, with its rule and fix: the fixed ones above and one per rule kind."""
    from .rules import RULE_KINDS

    table = dict(RULES)
    for kind in RULE_KINDS.values():
        scope = (
            "book-wide or per part"
            if len(kind.scopes) > 1
            else ("per part" if "part" in kind.scopes else "book-wide")
        )
        table[kind.code()] = (
            f"book.yaml rule `{kind.name}` ({scope}{', checked in Chromium by check --browser' if kind.browser else ''}): {kind.rule}",
            kind.fix,
        )
    return table


def explain(code: str) -> tuple[str, bool]:
    """(text, known). An unknown code is an error: the caller exits non-zero."""
    table = codes()
    rule = table.get(code)
    if rule is None:
        hint = closest(code, table)
        return f"unknown code '{code}'" + (f" ({hint})" if hint else "") + "; known codes: " + ", ".join(
            sorted(table)
        ), False
    what, fix = rule
    return f"{code}\n  rule: {what}\n  fix:  {fix}", True
