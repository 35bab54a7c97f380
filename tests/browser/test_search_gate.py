"""The search_finds rule in Chromium (gates/search.py) on the reader's fixture book: each query typed
into the page's own search box, a miss named at its line with what the box showed, a share under the
book's promise failing the rule, and a query in the other language answered in that language."""

from __future__ import annotations

import pytest

from atlas_site.diagnostics import SourceLocation
from atlas_site.gates.search import run_searches
from atlas_site.rules import RULE_KINDS

pytestmark = pytest.mark.browser

QUERIES = """\
zh:
  - [批处理, ch1#q3]
  - {query: 批处理, finds: ch1#q3, typed_on: en}
en:
  - [Routing, ch1#q7]
  - [Batching, ch1#q7]
"""


def test_the_search_gate_counts_hits_names_each_miss_and_fails_under_the_share(
    reader_site, reader_build, tmp_path
):
    (tmp_path / "search.yaml").write_text(QUERIES, encoding="utf-8")
    kind = RULE_KINDS["search_finds"]
    rule = kind(kind.Args(queries="search.yaml", share=0.9), None, SourceLocation("book.yaml", 5, 5))
    queries, problems = rule.queries(tmp_path, reader_build[0].output, ("zh", "en"))
    assert problems == [] and len(queries) == 4
    report = run_searches(reader_site["browser"], reader_site["base"], [(rule, queries)])
    assert report.status == "FAIL" and "en 1/2, zh 2/2" in report.figures, report.line()
    lines = [str(p) for p in report.problems]
    assert lines[0].startswith(
        "search.yaml:6:5: warning[gate.search.miss]: 'Batching' typed on en/index.html: "
        "en/ch1-fleet.html#q7 not in the first 3 (got en/ch1.html#q3"  # q7 is on the chapter's second page
    ), lines
    assert lines[1] == (
        "book.yaml:5:5: error[rule.search_finds]: en: 1 of 2 queries find their section in the first 3, "
        "under the 90% the book promises (rule at book.yaml:5:5)"
    ), lines
    assert len(lines) == 2, lines


def test_a_chinese_query_on_an_english_page_offers_the_chinese_sections_and_says_so(reader_site):
    context = reader_site["browser"].new_context()
    page = context.new_page()
    page.goto(reader_site["base"] + "en/ch1.html")
    page.fill("#search-input", "批处理")
    page.wait_for_function("() => document.querySelector('[data-search-results]').getAttribute('data-query')")
    assert page.locator(".search-result[lang] a[hreflang='zh']").count() > 0, "each result says its language"
    status = page.locator("[data-search-status]").inner_text()
    assert status.startswith("Results in 中文"), status
    context.close()
