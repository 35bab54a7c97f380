"""Rule kind: what a reader's first load of each page downloads stays within its budget."""

from __future__ import annotations

import gzip
import posixpath
import re

from pydantic import Field

from ..diagnostics import SourceLocation
from .base import Args, Check, RuleKind

# the stylesheets and scripts a page names in its markup: what the browser fetches before the
# reader can use the page (data fetched later, on demand, is not the first load)
LOADED = re.compile(r'<(?:link rel="stylesheet"|script)[^>]*?(?:href|src)="([^"#?]+\.(?:css|js))"')


def first_load_bytes(output, path: str) -> int:
    """The page's HTML and every stylesheet and script it names, each compressed on its own (as a
    static host sends them: gzip -9, no timestamp, so the figure is the same on every build)."""
    html = output.text(path)
    total = len(gzip.compress(output[path], 9, mtime=0))
    folder = posixpath.dirname(path)
    for ref in dict.fromkeys(LOADED.findall(html)):
        asset = posixpath.normpath(posixpath.join(folder, ref))
        if asset in output:
            total += len(gzip.compress(output[asset], 9, mtime=0))
    return total


class PageWeight(RuleKind):
    name = "page_weight"
    scopes = ("book",)
    rule = (
        "The first load of each page (its HTML and the stylesheets and scripts it names, gzip -9) stays within "
        "a budget: `kb` for every page, `pages` for the pages allowed more (by page id). On a phone on a slow "
        "network every kilobyte is first-paint time."
    )
    fix = (
        "Make the page lighter (shorter markup, a figure or lab that loads only when the reader nears it) or split "
        "it; raise the budget in book.yaml only for a reason you can state."
    )

    class Args(Args):
        kb: float = Field(gt=0)
        pages: dict[str, float] = Field(default_factory=dict)

    @classmethod
    def describe(cls, args) -> str:
        allowed = ", ".join(f"{page} {kb:g}" for page, kb in sorted(args.pages.items()))
        return f"first load ≤ {args.kb:g} KB gzip" + (f" ({allowed})" if allowed else "")

    def references(self, book):
        known = {page.id for page in book.pages}
        unknown = sorted(set(self.args.pages) - known)
        return [f"no page {', '.join(unknown)} in this book"] if unknown else []

    def check(self, ctx, lang, pages) -> Check:
        by_path = {page.output_path: page.id for page in ctx.book.pages}
        problems, heaviest, checked = [], (0, "", 0, 0), 0
        for path in ctx.output.html_pages():
            checked += 1
            size = first_load_bytes(ctx.output, path)
            budget = self.args.pages.get(by_path.get(path, ""), self.args.kb) * 1024
            heaviest = max(heaviest, (size / budget, path, size, budget))
            if size > budget:
                problems.append(
                    self.problem(
                        SourceLocation(f"_site/{path}"),
                        f"{path}: first load {size:,} B gzip, over its budget of {budget:,.0f} B by {size - budget:,.0f} B",
                    )
                )
        _ratio, path, size, budget = heaviest
        return Check(
            checked,
            problems,
            f"{checked} pages, fullest {path}: {size:,} of {budget:,.0f} B" if checked else "",
        )


KINDS = (PageWeight,)
