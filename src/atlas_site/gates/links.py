"""Gate 9 (static half): every internal link and #anchor resolves; external links are https,
point at registry URLs and carry rel="noopener noreferrer". The browser half records requests."""
from __future__ import annotations

import posixpath

from ..diagnostics import Diagnostic
from .context import GateContext
from .report import GateReport


def registry_urls(book) -> set[str]:
    urls = {w.url for w in book.registry.works.values() if w.url}
    urls |= {r.url for r in book.registry.references.values() if r.url}
    return urls


def check_links(ctx: GateContext) -> GateReport:
    problems = []
    internal = external = 0
    allowed = registry_urls(ctx.book)
    for path in ctx.output.html_pages():
        index = ctx.html(path)
        for href, attrs in index.links:
            if href.startswith(("http://", "https://", "//")):
                external += 1
                if not href.startswith("https://"):
                    problems.append(Diagnostic(ctx.where(path), "gate.links.not-https", f"{path}: external link is not https: {href}"))
                elif href not in allowed:
                    problems.append(Diagnostic(ctx.where(path), "gate.links.not-registry", f"{path}: external link is not a registry URL: {href}"))
                if set(attrs.get("rel", "").split()) < {"noopener", "noreferrer"}:
                    problems.append(Diagnostic(ctx.where(path), "gate.links.rel", f"{path}: external link lacks rel=\"noopener noreferrer\": {href}"))
                continue
            if href.startswith(("mailto:", "data:", "javascript:")):
                problems.append(Diagnostic(ctx.where(path), "gate.links.scheme", f"{path}: link scheme not allowed: {href}"))
                continue
            internal += 1
            target, _, anchor = href.partition("#")
            target_path = posixpath.normpath(posixpath.join(posixpath.dirname(path), target)) if target else path
            if target_path not in ctx.output:
                problems.append(Diagnostic(ctx.where(path), "gate.links.broken", f"{path}: link to missing page {href}"))
                continue
            if anchor and target_path.endswith(".html") and anchor not in ctx.html(target_path).ids:
                problems.append(Diagnostic(ctx.where(path), "gate.links.anchor", f"{path}: link to missing anchor {href}"))
    figures = f"{internal} internal links and anchors, {external} external (https, registry, rel); {len(problems)} broken"
    return GateReport("links", figures, problems)
