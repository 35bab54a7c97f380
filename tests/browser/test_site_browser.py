"""The real site in Chromium: every browser gate passes on every page of both languages.

`atlas-site check --browser` walks every page in one run; here the pages are split in shares (one
case each, so xdist's two workers split the walk) and each share must pass every gate. A gate may
skip on a share only where it has nothing to check there (no page its rule names, no figure); the
last test proves the shares together are every page and that each rule's pages were checked."""
from __future__ import annotations

import pytest

from atlas_site.gates.browser import run_browser_gates
from conftest import share

GATE_SHARES = 3
GATES = ["390 px", "first screen", "lab tabs", "offline", "language switch", "figure layout"]


@pytest.fixture(scope="module")
def browser_rules(real_book):
    rules = [r for r in real_book.rules if r.browser]
    assert len(rules) == 2, "book.yaml declares the first-screen and lab-tab rules of Chapter 14"
    return rules


def page_sizes(output) -> dict[str, int]:
    return {path: len(output.text(path)) for path in output.html_pages()}


def rule_pages(rules, kind: str, languages) -> set[str]:
    return {f"{lang}/{page_id}.html" for rule in rules if rule.name == kind for page_id in rule.page_ids() for lang in languages}


def may_skip(gate: str, pages: list[str], output, rules, languages) -> bool:
    """Whether this share of the pages leaves the gate nothing to check."""
    if gate == "first screen":
        return not rule_pages(rules, "first_screen", languages) & set(pages)
    if gate == "lab tabs":
        return not rule_pages(rules, "lab_tabs", languages) & set(pages)
    if gate == "figure layout":
        return not any("data-figure=" in output.text(path) for path in pages)
    return False


@pytest.mark.parametrize("index", range(GATE_SHARES))
def test_browser_gates_pass_on_a_share_of_the_pages(real_book, chromium, browser_rules, index):
    output, languages = real_book.output, real_book.book.languages
    pages = share(page_sizes(output), index, GATE_SHARES)
    found = {r.name: r for r in run_browser_gates(output, browser_rules, languages, browser=chromium, pages=pages)}
    assert sorted(found) == sorted(GATES)
    failures = []
    for gate in GATES:
        report = found[gate]
        allowed = ("pass", "skip") if may_skip(gate, pages, output, browser_rules, languages) else ("pass",)
        if report.status not in allowed:
            failures.append(report.line() + "\n" + "\n".join(map(str, report.problems)))
    assert failures == [], f"pages {pages}:\n" + "\n".join(failures)


def test_the_shares_are_every_page_and_hold_each_rules_pages(real_book, browser_rules):
    output, languages = real_book.output, real_book.book.languages
    shares = [share(page_sizes(output), index, GATE_SHARES) for index in range(GATE_SHARES)]
    walked = [path for pages in shares for path in pages]
    assert sorted(walked) == sorted(output.html_pages()), "every page in exactly one share"
    for kind in ("first_screen", "lab_tabs"):
        named = rule_pages(browser_rules, kind, languages)
        assert named and named <= set(output.html_pages()), f"the {kind} rule names pages the site has: {sorted(named)}"
    assert any("data-figure=" in output.text(path) for path in walked), "the site shows figures for the layout gate"
