"""Gate: every abbreviation a reader meets in the prose is a glossary term. An all-caps token (two
or more capitals, digits allowed: KV, FP8, W4A8KV4) that no term of ledger/glossary.md names, as
its abbreviation, a name or an alias in any language, is a warning at its first use on the page.
A term's abbreviation with a degree after it (TP4, EP32) is that term. Not counted: a unit after a number ("20 GB", "几 GB"), a token joined by a hyphen or letters to a longer
name (GPT-3, OPT-175B, vLLM), and a token in the title of a work the book cites (GPTQ, KIVI): those
are names, which the citation beside them resolves, rather than abbreviations."""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic
from .context import GateContext
from .report import GateReport

# ASCII neighbours only: in Chinese prose a CJK character may touch the token ("用MXFP4")
ABBREVIATION = re.compile(r"(?<![A-Za-z0-9_\-./])([A-Z][A-Z0-9]*[A-Z][A-Z0-9]*)(?![A-Za-z0-9_\-])")
AFTER_NUMBER = re.compile(r"(?:\d|[几数两十百千万])[\s\u00a0\u202f]*$")  # 20 GB, 几 GB
DEGREE = re.compile(r"(?<=[A-Z])\d+$")  # TP4, EP32: a term's abbreviation with its degree


def abbreviations(text: str):
    """(offset, token) of each abbreviation-like token in a run of prose."""
    for match in ABBREVIATION.finditer(text):
        if not AFTER_NUMBER.search(text[: match.start()]):
            yield match.start(), match.group(1)


def glossary_tokens(book) -> set[str]:
    """Every abbreviation-like token the glossary's terms are written with, in any language."""
    forms = set()
    for term in book.terms.values():
        forms.add(term.abbr or "")
        for lang in book.languages:
            forms.add(term.names[lang])
            forms.update(term.aliases.get(lang, ()))
    return {token for form in forms for _, token in abbreviations(form)} | {
        f for f in forms if ABBREVIATION.fullmatch(f or "")
    }


def cited_names(book) -> set[str]:
    """The abbreviation-like tokens of the titles of the works in the source registry."""
    return {token for work in book.registry.works.values() for _, token in abbreviations(work.title)}


def check_abbreviations(ctx: GateContext) -> GateReport:
    known = glossary_tokens(ctx.book) | cited_names(ctx.book)
    problems, seen_tokens = [], 0
    for (lang, page_id), parsed in sorted(ctx.parsed.items()):
        reported = set()
        for event in ctx.reading_order(parsed):
            if event.use is not None:
                continue
            for offset, token in abbreviations(event.text):
                seen_tokens += 1
                if token in known or DEGREE.sub("", token) in known or token in reported:
                    continue
                reported.add(token)
                problems.append(
                    Diagnostic(
                        event.location.moved(col=event.location.col + offset),
                        "gate.terms.undefined-abbreviation",
                        f"{lang}/{page_id}: '{token}' is not a glossary term",
                        severity="warning",
                        hint=f"add a term with abbr: {token} to ledger/glossary.md and define it with "
                        f"{{{{term:id}}}} at its first use, or write the words out",
                    )
                )
    figures = f"{seen_tokens} abbreviations in the prose, {len(problems)} not in the glossary"
    if not ctx.parsed:
        return GateReport("terms", figures, skipped="the book has no pages")
    return GateReport("terms", figures, problems)
