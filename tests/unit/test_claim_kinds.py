"""A claim's kind decides the label it is read with (review 30-f #5): a value the source's authors
set rather than measured (a design constant, a deployment choice, an assumed price) is a
`report-parameter`, labelled as set by them on the page, on the numbers page and in claims.json,
never as an author-reported result. Engine test on the fixture book (mini)."""

from __future__ import annotations

import json
import re

from jsonschema import Draft202012Validator, FormatChecker

from atlas_site.build import assemble
from conftest import edit

BADGE = re.compile(r'<span class="badge badge-claim"[^>]*>([^<]*)</span>')


def test_a_value_the_authors_set_is_labelled_as_set_by_them_not_as_a_result(mini):
    edit(
        mini / "book.yaml",
        "  - generated: bibliography",
        "  - generated: bibliography\n  - generated: numbers",
    )
    edit(mini / "ledger/claims.md", "kind: author-reported", "kind: report-parameter")
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    for lang, label, reported in (
        ("en", "set by the authors", "author-reported"),
        ("zh", "作者设定", "作者报告"),
    ):
        page = result.output.text(f"{lang}/ch14.html")
        opening = re.search(r'<span class="claim" data-claim="distserve-goodput" data-kind="([^"]+)"', page)
        assert opening and opening.group(1) == "report-parameter"
        claim = page[opening.end() : page.index("</a>", page.index('class="claim-setting"', opening.end()))]
        assert BADGE.findall(claim) == [label]
        numbers = result.output.text(f"{lang}/numbers.html")
        row = numbers[numbers.index('id="claim-distserve-goodput"') :][:4000]
        assert label in row and reported not in row
    data = json.loads(result.output.text("claims.json"))
    schema = json.loads(result.output.text("claims.schema.json"))
    assert "report-parameter" in schema["properties"]["claims"]["items"]["properties"]["kind"]["enum"]
    assert list(Draft202012Validator(schema, format_checker=FormatChecker()).iter_errors(data)) == []
    assert [c["kind"] for c in data["claims"] if c["id"] == "distserve-goodput"] == ["report-parameter"]
