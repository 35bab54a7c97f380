"""Chinese typography on every Chinese page as it was rendered: no ASCII space beside full-width
punctuation (the build removes those of the main part, render/cjk_spacing.py; a template that
writes one outside it, or a page that skips the typesetter, shows here), and no lone em dash
between Chinese characters (in a CJK font U+2014 is a thin full-width stroke that reads as 一)."""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic
from ..render.cjk_spacing import chinese, findings
from .context import GateContext
from .report import GateReport

HTML_LANG = re.compile(r"<html\b[^>]*\blang=\"([^\"]*)\"")
BODY = re.compile(r"<body\b.*", re.S)  # the head's titles and descriptions are no page text
SHOWN = 3  # examples quoted per page and kind; the count says the rest


def check_cjk_typography(ctx: GateContext, paths=None) -> GateReport:
    problems = []
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
    figures = (
        f"{checked} Chinese pages; {spaces} spaces beside full-width punctuation, {dashes} lone em dashes"
    )
    if not checked:
        return GateReport("Chinese typography", figures, problems, skipped="the book has no Chinese pages")
    return GateReport("Chinese typography", figures, problems)
