"""Images in prose are files the site itself ships: never a URL elsewhere (a request to another
server, which also passes every link rule), never a path to nothing. Reported where they were
written, from the parse index of the pages (the renderer shows a refused image as its text only)."""

from __future__ import annotations

import posixpath

from ..diagnostics import Diagnostic
from ..render.markdown_rules import is_local_image
from .context import GateContext
from .report import GateReport


def check_images(ctx: GateContext) -> GateReport:
    problems, count = [], 0
    for parsed in ctx.parsed.values():
        page_dir = posixpath.dirname(parsed.page.output_path)
        for src, where in parsed.images:
            count += 1
            if not is_local_image(src):
                problems.append(
                    Diagnostic(
                        where,
                        "gate.images.remote",
                        f"image '{src[:80]}' is not a file of the site",
                        "pages load nothing from elsewhere: draw it as a figure (ledger/figures.md)",
                    )
                )
                continue
            target = posixpath.normpath(posixpath.join(page_dir, src.split("#")[0].split("?")[0]))
            if target not in ctx.output:
                problems.append(
                    Diagnostic(
                        where,
                        "gate.images.missing",
                        f"image '{src[:80]}' is no file of the built site ({target})",
                        "only files the site ships can be shown; draw it as a figure (ledger/figures.md)",
                    )
                )
    figures = f"{count} images in prose; {len(problems)} not files of the site"
    if not count:
        return GateReport("images", figures, problems, skipped="the prose shows no images")
    return GateReport("images", figures, problems)
