"""The search_finds rule in Chromium: every query of the book's set typed into the search box of a
page in its language (or, for a query in another language, of a page in that one), the first
results read as the reader sees them, and the share found per language against the rule."""

from __future__ import annotations

import posixpath
import re

from ..diagnostics import Diagnostic
from .report import GateReport

# The box searches "首 token 延迟" for "首token延迟" (search-engine.js spaces Han from Latin): the
# query the results list says it shows is this form of what was typed.
_HAN_LATIN = re.compile(r"([\u3400-\u9fff])([A-Za-z0-9])|([A-Za-z0-9])([\u3400-\u9fff])")


def shown_query(text: str) -> str:
    spaced = _HAN_LATIN.sub(lambda m: " ".join(g for g in m.groups() if g), text)
    return re.sub(r"\s+", " ", spaced).strip()


def type_query(page, text: str) -> None:
    """`text` typed into the page's search box (the theme's #search-input)."""
    page.fill("#search-input", text)


def results_shown(page, text: str) -> None:
    """Wait until the results list says it shows the results of `text` (typed before)."""
    page.wait_for_function(
        "q => document.querySelector('[data-search-results]').getAttribute('data-query') === q",
        arg=shown_query(text),
        timeout=30000,
    )


def _read_results(page, text: str, top: int) -> list[str]:
    """The addresses of the first `top` results the box shows for `text`, relative to the site."""
    results_shown(page, text)
    hrefs = page.eval_on_selector_all(
        ".search-result .search-link", "(els, top) => els.slice(0, top).map(a => a.href)", top
    )
    return [_site_path(href) for href in hrefs]


def _site_path(href: str) -> str:
    """ "http://127.0.0.1:PORT/zh/ch14.html#q3" -> "zh/ch14.html#q3" (the site is served at the root)."""
    path, _, fragment = href.split("://", 1)[-1].partition("#")
    return posixpath.normpath(path.split("/", 1)[-1]) + (f"#{fragment}" if fragment else "")


def run_searches(browser, base: str, rules: list[tuple]) -> GateReport:
    """Every search_finds rule's queries ((rule, its queries) pairs), typed on each language's home
    page. Each page has a tab of its own, and the tabs take turns: a query is typed into every tab,
    then each tab's results are read, so one page searches while another waits for the reader's
    pause (the box waits for the typing to stop) or for its index; one tab after the other left a
    core idle."""
    problems: list[Diagnostic] = []
    figures = []
    for rule, loaded in rules:
        by_page: dict[str, list] = {}
        for query in loaded:
            by_page.setdefault(query.on, []).append(query)
        results = _typed_in_turns(browser, base, by_page, rule.args.top)
        hits: dict[str, list[int]] = {}
        for on, queries in sorted(by_page.items()):
            for query in queries:
                found = results[on][shown_query(query.text)]
                hit = any(r in query.wants for r in found)
                tally = hits.setdefault(query.lang, [0, 0])
                tally[0] += hit
                tally[1] += 1
                if not hit:
                    got = ", ".join(found) or "no results"
                    problems.append(
                        Diagnostic(
                            query.location,
                            "gate.search.miss",
                            f"{query.text!r} typed on {on}/index.html: {' or '.join(query.wants)} not in the "
                            f"first {rule.args.top} (got {got})",
                            severity="warning",
                        )
                    )
        for lang, (hit_count, total) in sorted(hits.items()):
            figures.append(f"{lang} {hit_count}/{total}")
            if hit_count < rule.args.share * total:
                problems.append(
                    rule.problem(
                        rule.location,
                        f"{lang}: {hit_count} of {total} queries find their section in the first {rule.args.top}, "
                        f"under the {rule.args.share:.0%} the book promises",
                    )
                )
    typed = sum(len(loaded) for _rule, loaded in rules)
    return GateReport(
        "search",
        f"{typed} queries typed into the search box; found in the first results: {', '.join(figures)}",
        problems,
        skipped="" if typed else "book.yaml has no search_finds rule",
    )


def _typed_in_turns(
    browser, base: str, by_page: dict[str, list], top: int
) -> dict[str, dict[str, list[str]]]:
    """page -> (the query as the box shows it -> the first results), each distinct query typed once."""
    pending = {
        on: list(dict.fromkeys(shown_query(q.text) for q in queries)) for on, queries in by_page.items()
    }
    typed_as = {on: {shown_query(q.text): q.text for q in queries} for on, queries in by_page.items()}
    results: dict[str, dict[str, list[str]]] = {on: {} for on in by_page}
    tabs = {}
    try:
        for on in sorted(by_page):
            tabs[on] = browser.new_page(viewport={"width": 1280, "height": 800})
            tabs[on].goto(f"{base}{on}/index.html", wait_until="load")
        while any(pending.values()):
            turn = [(on, pending[on].pop(0)) for on in sorted(pending) if pending[on]]
            for on, key in turn:
                type_query(tabs[on], typed_as[on][key])
            for on, key in turn:
                results[on][key] = _read_results(tabs[on], typed_as[on][key], top)
    finally:
        for tab in tabs.values():
            tab.close()
    return results
