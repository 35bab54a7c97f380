"""The evidence ledger as open data: claims.json and examples.json validate against the JSON Schemas
published beside them, hold every record of the ledger, and give permalinks that resolve; sources.bib
parses; and the gate fails when what is written does not fit its schema."""

from __future__ import annotations

import json
import re

import bibtexparser
from jsonschema import Draft202012Validator, FormatChecker

from atlas_site.build import assemble
from conftest import edit, run_cli


def with_numbers_page(project):
    """The fixture book with the generated numbers page, where each claim has its permalink."""
    edit(
        project / "book.yaml",
        "  - generated: bibliography",
        "  - generated: bibliography\n  - generated: numbers",
    )
    return project


def test_the_open_data_validates_holds_the_ledger_and_its_permalinks_resolve(mini):
    with_numbers_page(mini)
    assert run_cli("build", "--no-search", cwd=mini).returncode == 0
    site = mini / "_site"
    result = assemble(mini)
    for name, key, ledger in (
        ("claims", "claims", result.book.claims),
        ("examples", "examples", result.book.examples),
    ):
        data = json.loads((site / f"{name}.json").read_text(encoding="utf-8"))
        schema = json.loads((site / f"{name}.schema.json").read_text(encoding="utf-8"))
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(schema)
        assert list(Draft202012Validator(schema, format_checker=FormatChecker()).iter_errors(data)) == []
        assert sorted(item["id"] for item in data[key]) == sorted(ledger)
        assert data["languages"] == ["zh", "en"]
    claims = json.loads((site / "claims.json").read_text(encoding="utf-8"))["claims"]
    goodput = next(c for c in claims if c["id"] == "distserve-goodput")
    assert goodput["value"] == 7.4 and goodput["sources"][0]["bibtex"] and goodput["verified"]
    assert set(goodput["permalinks"]) == {"zh", "en"}
    for lang, link in goodput["permalinks"].items():
        page, fragment = link.split("#")
        assert re.search(rf'\sid="{fragment}"', (site / page).read_text(encoding="utf-8")), link
        assert goodput["used_in"][lang][0]["href"].startswith(f"{lang}/ch14.html#")
    examples = json.loads((site / "examples.json").read_text(encoding="utf-8"))["examples"]
    assert all(example["outputs"] for example in examples)
    shown = [example for example in examples if example["used_in"]]
    assert shown and all(set(example["permalinks"]) == set(example["used_in"]) for example in shown)
    for example in shown:
        for link in example["permalinks"].values():
            page, fragment = link.split("#")
            assert f'id="{fragment}"' in (site / page).read_text(encoding="utf-8"), link
    library = bibtexparser.parse_string((site / "sources.bib").read_text(encoding="utf-8"))
    assert not library.failed_blocks
    assert sorted(entry.key for entry in library.entries) == sorted(result.book.registry.works)
    numbers = (site / "en/numbers.html").read_text(encoding="utf-8")
    assert 'href="../claims.json"' in numbers and 'href="../sources.bib"' in numbers


def test_open_data_that_does_not_fit_its_schema_fails_the_check(mini, monkeypatch):
    from atlas_site.render import open_data

    real = open_data.claims_data

    def broken(book, parsed, numbers_page):
        data = real(book, parsed, numbers_page)
        del data["claims"][0]["unit"]
        data["claims"][0]["permalinks"] = {"en": "en/numbers.html#claim-nowhere"}
        return data

    monkeypatch.setattr(open_data, "claims_data", broken)
    result = run_cli("check", cwd=with_numbers_page(mini))
    assert result.returncode == 2
    lines = [line.strip() for line in result.stdout.splitlines() if "error[gate.data" in line]
    assert any(
        line.startswith(
            "_site/claims.json: error[gate.data.schema]: claims.json at claims/0: 'unit' is a required property"
        )
        for line in lines
    ), lines
    assert any(
        "error[gate.data.permalink]" in line and "claim-nowhere names no element of en/numbers.html" in line
        for line in lines
    ), lines
    # the claim is used in the zh prose too, and its zh permalink went: a claim without its target
    assert any(
        "error[gate.data.permalink]" in line and "used in the zh prose but without a permalink there" in line
        for line in lines
    ), lines
