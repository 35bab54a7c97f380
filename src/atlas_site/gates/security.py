"""Gate 13: a strict Content-Security-Policy on every page; no inline script, no on* handlers,
no style attributes (the CSP would block them anyway)."""

from __future__ import annotations

import json
import re

from ..diagnostics import Diagnostic
from .context import GateContext
from .report import GateReport

REQUIRED_DIRECTIVES = ("default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'")
FORBIDDEN_SOURCES = re.compile(r"unsafe-inline|(?<!wasm-)unsafe-eval|https?:|\*|data:")


def csp_problems(csp: str | None) -> list[str]:
    if not csp:
        return ["no Content-Security-Policy"]
    issues = [f"CSP lacks {d}" for d in REQUIRED_DIRECTIVES if d not in csp]
    for directive in csp.split(";"):
        name = directive.strip().split(" ")[0] if directive.strip() else ""
        sources = directive.strip()[len(name) :]
        if name != "img-src" and FORBIDDEN_SOURCES.search(sources):
            issues.append(f"CSP directive too loose: {directive.strip()}")
    return issues


def check_security(ctx: GateContext, paths=None) -> GateReport:
    problems = []
    pages = paths if paths is not None else ctx.output.html_pages()
    for path in pages:
        index = ctx.html(path)
        where = ctx.where(path)
        for issue in csp_problems(index.csp):
            problems.append(Diagnostic(where, "gate.security.csp", f"{path}: {issue}"))
        for src, body in index.scripts:
            if src is None or body.strip():
                problems.append(
                    Diagnostic(where, "gate.security.inline-script", f"{path}: inline <script> body")
                )
        for body in index.data_blocks:
            try:
                json.loads(body)
            except ValueError as error:
                problems.append(
                    Diagnostic(
                        where, "gate.security.data-block", f"{path}: its JSON-LD is not JSON ({error})"
                    )
                )
        for tag, attribute in index.handler_attrs:
            problems.append(
                Diagnostic(
                    where, "gate.security.handler", f"{path}: <{tag} {attribute}=…> event handler attribute"
                )
            )
        if index.style_attrs:
            problems.append(
                Diagnostic(
                    where,
                    "gate.security.style-attr",
                    f"{path}: {index.style_attrs} style= attributes (blocked by the CSP)",
                )
            )
    figures = (
        f"{len(pages)} pages with strict CSP, 0 inline scripts or handlers expected; {len(problems)} problems"
    )
    return GateReport("security", figures, problems)
