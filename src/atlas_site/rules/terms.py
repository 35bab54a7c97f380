"""Rule kind: key terms are defined ({{term:id}} renders a <dfn>) before any other mention."""

from __future__ import annotations

import re

from pydantic import Field

from .base import Check, PageArgs, RuleKind


def surface_forms(term, lang: str, languages) -> list[str]:
    """What counts as a mention of the term in `lang`: its abbreviation, its name and aliases in that
    language, and (since technical prose mixes them) the names in the other languages too. Very short
    forms (two letters or fewer) are too ambiguous to search for."""
    forms = {term.abbr} | {term.names.get(lang)} | set(term.aliases.get(lang, ()))
    for other in languages:
        if other != lang:
            forms |= {term.names.get(other)} | set(term.aliases.get(other, ()))
    return sorted((f for f in forms if f and len(f) >= 3), key=len, reverse=True)


class TermsBeforeUse(RuleKind):
    name = "terms_before_use"
    rule = (
        "Each listed glossary term is defined with {{term:id}} (a <dfn>) on the page, and nothing the page "
        "shows mentions it before that definition: its prose and the claims and numbers it renders."
    )
    fix = "Use {{term:id}} at the first mention, or rephrase the earlier mention."

    class Args(PageArgs):
        shorthand = "terms"
        terms: tuple[str, ...] = Field(min_length=1)

    @classmethod
    def describe(cls, args) -> str:
        return f"{len(args.terms)} terms defined before use"

    def references(self, book):
        unknown = [t for t in self.args.terms if t not in book.terms]
        return [f"names terms not in the glossary: {', '.join(unknown)}"] if unknown else []

    def check(self, ctx, lang, pages) -> Check:
        book = ctx.book
        problems = []
        for parsed in pages:
            events = ctx.reading_order(parsed)
            for term_id in self.args.terms:
                term = book.terms[term_id]
                definition = next((u for u in parsed.uses_of("term") if u.key == term_id), None)
                if definition is None:
                    problems.append(
                        self.problem(
                            parsed.page.origin,
                            f"{lang}: '{term_id}' is never defined with {{{{term:{term_id}}}}}",
                        )
                    )
                    continue
                pattern = re.compile(
                    "|".join(re.escape(f) for f in surface_forms(term, lang, book.languages)), re.IGNORECASE
                )
                early = _first_mention(events, book, lang, pattern, definition)
                if early is not None:
                    location, found = early
                    problems.append(
                        self.problem(
                            location,
                            f"{lang}: '{found}' is mentioned before {{{{term:{term_id}}}}} defines it",
                        )
                    )
        return Check(len(self.args.terms) * len(pages), problems)


def _first_mention(events, book, lang, pattern, definition):
    """The first place, before the definition, where the page shows a surface form of the term
    (`events`: the page in reading order; its uses equal the index's, being made by the same walk)."""
    for event in events:
        if event.use == definition:
            return None
        text = event.text if event.use is None else shown_text(book, lang, event.use)
        match = pattern.search(text) if text else None
        if match:
            col = event.location.col + (match.start() if event.use is None else 0)
            return event.location.moved(col=col), match.group(0)
    return None


def shown_text(book, lang: str, use) -> str:
    """The words an inline directive puts on the page (a claim's text and setting, a term's name)."""
    if use.kind == "claim" and use.key in book.claims:
        claim = book.claims[use.key]
        return f"{claim.text[lang]} {claim.setting[lang]}"
    if use.kind == "term" and use.key in book.terms:
        return use.text or book.terms[use.key].abbr or book.terms[use.key].names[lang]
    return ""


KINDS = (TermsBeforeUse,)
