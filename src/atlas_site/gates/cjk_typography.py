"""Chinese typography on every Chinese page as it was rendered: no ASCII space beside full-width
punctuation (the build removes those of the main part, render/cjk_spacing.py; a template that
writes one outside it, or a page that skips the typesetter, shows here), and no lone em dash
between Chinese characters (in a CJK font U+2014 is a thin full-width stroke that reads as 一).
And in every language's prose, no emphasis left as asterisks: CommonMark closes `**` only where it
is "right-flanking", so `**边界。**上下文` (full-width punctuation before the closer, a character
after it) shows its asterisks to the reader (review 30-z6 #1); located in the source."""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic
from ..render.cjk_spacing import chinese, findings
from .context import GateContext
from .report import GateReport

HTML_LANG = re.compile(r"<html\b[^>]*\blang=\"([^\"]*)\"")
BODY = re.compile(r"<body\b.*", re.S)  # the head's titles and descriptions are no page text
SHOWN = 3  # examples quoted per page and kind; the count says the rest


UNRENDERED = re.compile(r"\*\*|__")


def unrendered_emphasis(ctx: GateContext) -> list[Diagnostic]:
    """A `**` or `__` the parser left as text: an emphasis it could not close."""
    problems = []
    for (_lang, _page), parsed in sorted(ctx.parsed.items()):
        for event in ctx.reading_order(parsed):
            if event.use is not None:
                continue
            for match in UNRENDERED.finditer(event.text):
                problems.append(
                    Diagnostic(
                        event.location.moved(col=event.location.col + match.start()),
                        "gate.cjk.emphasis",
                        f"'{match.group(0)}' shows on the page: an emphasis the Markdown parser did not close",
                        "after full-width punctuation a closing ** needs a space or a punctuation mark after it: "
                        "write '**边界。** 上下文', or put the mark outside: '**边界**。'",
                    )
                )
    return problems


def check_cjk_typography(ctx: GateContext, paths=None) -> GateReport:
    problems = unrendered_emphasis(ctx) if paths is None else []
    pages = paths if paths is not None else ctx.output.html_pages()
    checked = spaces = dashes = 0
    for path in pages:
        html = ctx.output.text(path)
        lang = HTML_LANG.search(html)
        if not lang or not chinese(lang.group(1)):
            continue
        checked += 1
        body = BODY.search(html)
        found = findings(body.group(0) if body else html)
        for kind, rule in (
            ("space", "an ASCII space beside full-width punctuation"),
            ("dash", "a lone em dash between Chinese characters"),
        ):
            spacing = kind == "space"
            code = "gate.cjk.space" if spacing else "gate.cjk.dash"
            hits = [f.excerpt for f in found if f.kind == kind]
            if not hits:
                continue
            spaces += len(hits) if kind == "space" else 0
            dashes += len(hits) if kind == "dash" else 0
            quoted = ", ".join(repr(h) for h in hits[:SHOWN]) + (
                f" and {len(hits) - SHOWN} more" if len(hits) > SHOWN else ""
            )
            problems.append(Diagnostic(ctx.where(path), code, f"{path}: {len(hits)} × {rule}: {quoted}"))
    emphasis = sum(p.code == "gate.cjk.emphasis" for p in problems)
    figures = (
        f"{checked} Chinese pages; {spaces} spaces beside full-width punctuation, {dashes} lone em dashes; "
        f"{emphasis} emphases left as asterisks"
    )
    if not checked:
        return GateReport("Chinese typography", figures, problems, skipped="the book has no Chinese pages")
    return GateReport("Chinese typography", figures, problems)
