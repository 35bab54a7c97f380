"""Rule kinds checked in Chromium (`atlas-site check --browser`); gates/browser.py runs them."""

from __future__ import annotations

from pydantic import Field

from .base import Check, PageArgs, RuleKind


class FirstScreen(RuleKind):
    name = "first_screen"
    browser = True
    rule = (
        "Every item of a generated block (e.g. the question cards) is inside the first screen at 390×844 and "
        "1280×800, and the block has exactly `count` items."
    )
    fix = "Keep the block near the top of the page and its items compact."

    class Args(PageArgs):
        block: str
        count: int = Field(ge=1)

    @classmethod
    def describe(cls, args) -> str:
        return f"{args.count} {args.block} items on the first screen"

    SCRIPT = """(block) => {
      const items = [...document.querySelectorAll(`[data-block="${block}"] [data-item]`)];
      const out = items.filter(el => { const r = el.getBoundingClientRect();
        return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth || r.width === 0; })
        .map(el => el.textContent.trim().slice(0, 12));
      return [items.length, out];
    }"""

    def check_page(self, page, viewport: str) -> list[str]:
        total, outside = page.evaluate(self.SCRIPT, self.args.block)
        if total != self.args.count or outside:
            return [
                f"at {viewport} px: {total} {self.args.block} items (expected {self.args.count}), outside the first screen: {outside}"
            ]
        return []

    def check(self, ctx, lang, pages) -> Check:  # static half: the block is placed
        problems = [
            self.problem(p.page.origin, f"{lang}: no {{{{{self.args.block}}}}} block on the page")
            for p in pages
            if not p.uses_of(self.args.block)
        ]
        return Check(len(pages), problems)


class LabTabs(RuleKind):
    name = "lab_tabs"
    browser = True
    rule = (
        "The page's labs sit in one WAI-ARIA tablist of `count` tabs operable with real key presses: "
        "Left/Right (wrapping), Home/End select and focus a tab and show its panel; Tab enters the panel."
    )
    fix = "Check labs_js/shared/tabs.js and templates/labs/tablist.html.j2."

    class Args(PageArgs):
        count: int = Field(ge=2)

    @classmethod
    def describe(cls, args) -> str:
        return f"{args.count} keyboard lab tabs"

    def check(self, ctx, lang, pages) -> Check:  # static half: a tablist of that many labs is placed
        problems = []
        for parsed in pages:
            counts = [len(u.keys) for u in parsed.uses_of("labs")]
            if self.args.count not in counts:
                problems.append(
                    self.problem(
                        parsed.page.origin,
                        f"{lang}: no {{{{labs:…}}}} with {self.args.count} labs on the page (found {counts})",
                    )
                )
        return Check(len(pages), problems)


KINDS = (FirstScreen, LabTabs)
