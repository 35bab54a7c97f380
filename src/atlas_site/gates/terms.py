"""Gate: every abbreviation a reader meets in the prose is a glossary term. An all-caps token (two
or more capitals, digits allowed: KV, FP8, W4A8KV4) that no term of ledger/glossary.md names, as
its abbreviation, a name or an alias in any language, is a warning at its first use on the page.
A term's abbreviation with a degree after it (TP4, EP32) is that term. Not counted: a unit of data
or work (GB, TB/s, TFLOP/s), whether after a number ("20 GB", "几 GB") or named as a unit
("decimal GB/s", "GiB and GB"), a token joined by a hyphen or letters to a longer name (GPT-3, OPT-175B, vLLM), and a token
in the title of a work the book cites (GPTQ, KIVI): those are names, which the citation beside them
resolves, rather than abbreviations. Counted but accepted: the tokens book.yaml lists as
`glossary: common` (everyday abbreviations such as PDF or URL, vendor and product names such as
AMD), which a reader knows without a definition; the pass line says how many.

A glossary abbreviation's first use on a page says what it stands for: {{term:…}} adds the long
name, or the prose writes it; the glossary's mixed-case abbreviations (MoE, LoRA) are counted too.
A first {{term:…}} that the renderer had to leave bare (inside other brackets, inside a hyphenated
word: the manifest's bare_terms) is named at its place.

What a claim or a figure shows is read where it stands: a claim's value and its setting, a
figure's caption and then its drawing's labels. The renderer spells out a setting's abbreviations
in place; the drawing's that the page has not yet spelt out are the caption's key ("In the
drawing: MoE (mixture of experts); …"), which does not define them for the prose after it."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..model.abbreviations import (
    ABBREVIATION,
    abbreviations,
    by_abbreviation,
    read_as,
    term_named,
    with_mixed_case,
)
from .context import GateContext
from .report import GateReport


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
    common = set(ctx.book.profile.glossary.common)  # after `known`: a token the glossary defines is its term
    spelt = by_abbreviation(ctx.book.terms.values())
    problems, seen_tokens, common_uses = [], 0, 0
    tokens = with_mixed_case(ctx.book.terms.values())
    for (lang, page_id), parsed in sorted(ctx.parsed.items()):
        reported, met = set(), set()
        headings = _heading_lines(parsed.page)
        chapter = ctx.book.part_of(page_id)
        split = chapter is not None and chapter.split
        record = ctx.manifest.record(lang, page_id)
        bare = {tuple(at) for at in record.bare_terms}
        setting_terms = set(record.setting_terms)
        for event in ctx.reading_order(parsed):
            page = event.location.path if split else ""  # each part of a split chapter is a page
            pieces: list[tuple[str, str, set | None]] = [(f"{lang}/{page_id}", event.text, None)]
            if event.use is not None:
                if event.use.kind == "term" and (page, event.use.key) not in met:
                    met.add((page, event.use.key))
                    at = event.location
                    if (at.path, at.line, at.col) in bare:
                        problems.append(
                            _bare_directive(ctx.book, event.use.key, lang, f"{lang}/{page_id}", at)
                        )
                # what a figure or a claim shows is read where it stands, at its directive (review
                # 30-z13 #8: MoE, MLA, MTP in captions; 30-z17 #3: KV and FP8 first met in claims)
                pieces = _shown_texts(ctx.book, event.use, lang, f"{lang}/{page_id}", record, setting_terms)
            for label, text, keyed in pieces:
                at_directive = event.use is not None  # its column is the directive's
                for offset, token in abbreviations(text, tokens):
                    seen_tokens += 1
                    where = (
                        event.location
                        if at_directive
                        else event.location.moved(col=event.location.col + offset)
                    )
                    term = term_named(token, spelt)
                    if term is not None:
                        if keyed is setting_terms:
                            # the renderer spells out a setting's terms in place; a setting short enough
                            # to stay open on a phone says it for the page after it too
                            if term.id in keyed:
                                met.add((page, term.id))
                            continue
                        if keyed is not None and term.id in keyed:
                            continue  # the caption's key spells it out for the drawing's reader
                        names_a_target = (
                            event.linked or (event.location.path, event.location.line) in headings
                        )
                        if (page, term.id) not in met and not names_a_target:
                            met.add((page, term.id))
                            after = text[offset + len(token) :]
                            problem = _unexplained(ctx.book, term, token, text, after, lang, label, where)
                            if problem is not None:
                                problems.append(problem)
                        continue
                    if any(form in known for form in read_as(token)):
                        continue
                    if token in common:
                        common_uses += 1
                        continue
                    if token in reported:
                        continue
                    reported.add(token)
                    problems.append(
                        Diagnostic(
                            where,
                            "gate.terms.undefined-abbreviation",
                            f"{label}: '{token}' is not a glossary term",
                            severity="warning",
                            hint=f"add a term with abbr: {token} to ledger/glossary.md and define it with "
                            f"{{{{term:id}}}} at its first use, or write the words out; an everyday abbreviation "
                            "or a product name goes in book.yaml glossary: common",
                        )
                    )
    unexplained = sum(p.code == "gate.terms.unexplained-abbreviation" for p in problems)
    accepted = f", {common_uses} accepted as common ({len(common)} listed in book.yaml)" if common else ""
    figures = (
        f"{seen_tokens} abbreviations in the prose{accepted}, {len(problems) - unexplained} not in the glossary, "
        f"{unexplained} first used on a page without what they stand for"
    )
    if not ctx.parsed:
        return GateReport("terms", figures, skipped="the book has no pages")
    return GateReport("terms", figures, problems)


def _shown_texts(
    book, use, lang: str, page: str, record, setting_terms: set
) -> list[tuple[str, str, set | None]]:
    """(where, text, the terms spelt out for it) of what a directive shows in the prose's place: a
    claim's value, and its setting, whose abbreviations the renderer spells out in place
    (directives/inline_terms.py); a figure's caption, then its drawing's labels, which the caption's
    key covers (directives/blocks.py _drawing_key); nothing for any other directive. An
    abbreviation there that the glossary does not hold, or a term the key left out, is named like
    one in the prose."""
    claim = book.claims.get(use.key) if use.kind == "claim" else None
    if claim is not None:
        return [
            (f"{page}, the value of claim {use.key}", claim.text[lang], None),
            (f"{page}, the setting of claim {use.key}", claim.setting[lang], setting_terms),
        ]
    spec = book.figures.get(use.key) if use.kind == "figure" else None
    if spec is None:
        return []
    keyed = set(record.figures.get(use.key, {}).get("key", ()))
    drawing = [
        (f"{page}, the drawing of figure {use.key}", label[lang], keyed) for label in spec.labels.values()
    ]
    return [(f"{page}, the caption of figure {use.key}", spec.caption[lang], None), *drawing]


def _heading_lines(page) -> set[tuple[str, int]]:
    """(file, line) of the page's headings. A heading, like a link's text, names a subject or a
    target; its abbreviation is spelt out in the prose it leads to."""
    return {
        (part.path, part.body_line + offset)
        for part in page.parts
        for offset, line in enumerate(part.body.split("\n"))
        if line.startswith("#")
    }


def _unexplained(
    book, term, token: str, text: str, after: str, lang: str, page: str, where
) -> Diagnostic | None:
    """A problem when the first use of a glossary abbreviation on a page is bare: a reader on a
    phone or on paper never sees the <dfn>'s title, so the page says what it stands for there,
    either as {{term:id}} (which adds the long name) or in the prose's own words."""
    if term.abbr in book.profile.glossary.common:
        return None
    name = book.spelt_out(term, lang)
    if name is None and token not in (term.abbr, term.names[lang]):
        name = term.names[lang]  # an alias that abbreviates the name (FA for FlashAttention)
    if name is None:  # a term with no long name to write (EPP, E2M1, TMEM): its card says what it is
        return Diagnostic(
            where,
            "gate.terms.unexplained-abbreviation",
            f"{page}: '{token}' is first used on this page neither spelt out nor linked to its card",
            severity="warning",
            hint=f"write {{{{term:{term.id}}}}} here (its glossary card is the one place that says what "
            "it is), give the term a gloss in ledger/glossary.md, or say what it is in the prose",
        )
    # the long name itself: an alias is no expansion ("the first token" is not "time to first token")
    rest = term.rest_of_name(lang, after)  # "PD disaggregation" says P and D only with "prefill–decode"
    if name.casefold() in text.casefold() or (rest is not None and rest.casefold() in text.casefold()):
        return None
    return Diagnostic(
        where,
        "gate.terms.unexplained-abbreviation",
        f"{page}: '{token}' is first used on this page without what it stands for ({name})",
        severity="warning",
        hint=f"write {{{{term:{term.id}}}}} here (it adds '{name}' after the abbreviation), or spell it out yourself",
    )


def _bare_directive(book, key: str, lang: str, page: str, where) -> Diagnostic:
    """A first {{term:…}} the renderer could not follow with its long name (it stands inside
    brackets or a hyphenated word): the reader meets the abbreviation bare, and the plain uses after
    it too (review 30-z9 #3: "（SLO 控制面）" was zh/tf-cluster's only definition of SLO)."""
    term = book.terms[key]
    name = book.spelt_out(term, lang) or term.names[lang]
    return Diagnostic(
        where,
        "gate.terms.unexplained-abbreviation",
        f"{page}: '{term.abbr}' is first used on this page inside brackets or a hyphenated word, "
        f"where its long name ({name}) cannot follow",
        severity="warning",
        hint="spell it out in the prose here, or define it at an earlier use outside the brackets",
    )
