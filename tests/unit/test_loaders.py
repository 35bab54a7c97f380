"""One small broken fixture per error class: each is reported once, at its exact file:line."""

from __future__ import annotations

import pytest

from conftest import edit, run_cli

CASES = [
    # (file, old, new, expected diagnostic line)
    (
        "ledger/claims.md",
        "    kind: author-reported",
        "    kind: [author-reported",
        "ledger/claims.md:5:11: error[yaml.syntax]: invalid YAML:",
    ),
    (
        "sources/works.bib",
        "  howpublished = {arXiv:2401.09670}\n}",
        "  howpublished = {arXiv:2401.09670\n",
        "sources/works.bib:8:1: error[bib.syntax]: invalid BibTeX:",
    ),
    (
        "content/en/ch14/00-intro.md",
        "status: draft\nlast_verified: 2026-07-29\n---",
        "status: draft\nlast_verified: 2026-07-29\n",
        "content/en/ch14/00-intro.md:1:1: error[frontmatter.unclosed]: front matter opened with '---' is never closed",
    ),
    (
        "content/en/ch14/00-intro.md",
        "{{question-cards}}",
        "{{question-card}}",
        "content/en/ch14/00-intro.md:11:1: error[directive.unknown]: unknown directive 'question-card' (hint: did you mean 'question-cards'?)",
    ),
    (
        "ledger/claims.md",
        '    seed: "000 §2.1"',
        '    seed: "000 §2.1"\n    seeds: x',
        "ledger/claims.md:13:5: error[schema.unknown-key]: unknown key 'seeds' in Claim (hint: did you mean 'seed'?)",
    ),
    (
        "ledger/glossary.md",
        "  - id: ttft",
        "  - id: goodput",
        "ledger/glossary.md:7:5: error[ledger.duplicate-id]: duplicate terms id 'goodput' (first at ledger/glossary.md:3:5)",
    ),
    (
        "content/zh/ch14/00-intro.md",
        "[@n04]",
        "[@n05]",
        "content/zh/ch14/00-intro.md:17:27: error[cite.unknown]: no source with ledger number 'n05' (hint: did you mean 'n04'?)",
    ),
    (
        "content/en/ch14/00-intro.md",
        "{{claim:distserve-goodput}}",
        "{{claim:distserve-goodputs}}",
        "content/en/ch14/00-intro.md:15:110: error[claim.unknown]: no claim 'distserve-goodputs' in the ledger (hint: did you mean 'distserve-goodput'?)",
    ),
    (
        "ledger/claims.md",
        '    setting:\n      zh: "DistServe 论文自身的硬件、模型、trace 与 SLO。"\n      en: "DistServe\'s own hardware, models, traces and SLOs."\n',
        "",
        "ledger/claims.md:3:5: error[schema.missing-key]: Claim needs 'setting'",
    ),
    (
        "sources/works.bib",
        "url = {https://arxiv.org/abs/2401.09670}",
        "url = {http://arxiv.org/abs/2401.09670}",
        "sources/works.bib:8:1: error[bib.invalid]: distserve-2024: url: Value error, URL must start with https:// (got 'http://arxiv.org/abs/2401.09670')",
    ),
    (
        "ledger/glossary.md",
        "  - id: goodput\n    zh: 有效吞吐",
        "  - id: goodput\n    zh: 有效吞吐\n    zh: again",
        "ledger/glossary.md:5:5: error[yaml.duplicate-key]: duplicate key 'zh'",
    ),
    (
        "content/zh/ch14/00-intro.md",
        "{{ex:kv-per-token}}",
        "{{ex:kv-per-token.kib}}",
        "content/zh/ch14/00-intro.md:17:49: error[example.unknown-output]: example 'kv-per-token' declares no output 'kib'",
    ),
]


@pytest.mark.parametrize(
    "path, old, new, expected", CASES, ids=[c[3].split("error[")[1].split("]")[0] for c in CASES]
)
def test_each_error_class_is_one_located_line(mini, path, old, new, expected):
    edit(mini / path, old, new)
    result = run_cli("check", cwd=mini)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = [line for line in result.stderr.splitlines() if "error[" in line]
    assert any(line.startswith(expected) for line in lines), "\n".join(lines)


def test_missing_translation_is_reported(mini):
    (mini / "content/en/ch14/00-intro.md").unlink()
    (mini / "content/en/ch14").rmdir()
    result = run_cli("check", cwd=mini)
    assert result.returncode == 2
    assert (
        "content/zh/ch14/00-intro.md:1:1: error[page.missing-translation]: page 'ch14' has no en twin (expected content/en/ch14/)"
        in result.stderr
    )


def test_all_problems_are_reported_at_once(mini):
    edit(mini / "content/zh/ch14/00-intro.md", "[@n04]", "[@n05]")
    edit(mini / "content/en/ch14/00-intro.md", "{{claim:distserve-goodput}}", "{{claim:nope}}")
    edit(mini / "ledger/glossary.md", "  - id: ttft", "  - id: goodput")
    result = run_cli("check", cwd=mini)
    codes = [line.split("error[")[1].split("]")[0] for line in result.stderr.splitlines() if "error[" in line]
    assert {"cite.unknown", "claim.unknown", "ledger.duplicate-id"} <= set(codes)


YAML_REFUSALS = [
    # (yaml text, first problem) — the parser's own refusals, each located
    ("a: &x [*x]", "f.md:2:8: error[yaml.alias]: YAML alias '*x' is not allowed"),
    ("a: &k [1]\nb: *k", "f.md:3:4: error[yaml.alias]: YAML alias '*k' is not allowed"),
    (
        "? [a, b]\n: 1",
        "f.md:2:3: error[yaml.complex-key]: a mapping key must be a plain name, not a list or mapping",
    ),
    ("a: 2026-13-45", "f.md:2:4: error[yaml.value]: invalid YAML value: month must be in 1..12"),
    (
        "a: !!binary aGk=",
        "f.md:2:4: error[yaml.value]: the tag 'tag:yaml.org,2002:binary' makes a bytes, not plain data",
    ),
    (
        "a: !!set {x, y}",
        "f.md:2:4: error[yaml.value]: the tag 'tag:yaml.org,2002:set' is not allowed: inputs are plain lists and mappings",
    ),
    ("a: {b: .nan}", "f.md:2:8: error[yaml.value]: '.nan' is not a finite number"),
    ("a: -.inf", "f.md:2:4: error[yaml.value]: '-.inf' is not a finite number"),
    ("a: \x07", "f.md:2:4: error[yaml.syntax]: invalid YAML: control characters are not allowed"),
    (
        "a: " + "[" * 2000 + "]" * 2000,
        "f.md:2:1003: error[yaml.syntax]: invalid YAML: exceeded maximum nesting depth",
    ),
]


@pytest.mark.parametrize(
    "text, first",
    YAML_REFUSALS,
    ids=[t[1].split("error[")[1].split("]")[0] + f"-{i}" for i, t in enumerate(YAML_REFUSALS)],
)
def test_yaml_refuses_what_is_not_plain_data(text, first):
    from atlas_site.diagnostics import SourceLocation
    from atlas_site.load.yaml_source import parse_yaml

    data, problems = parse_yaml(text, SourceLocation("f.md", 2, 1))
    assert data is None
    assert [str(p) for p in problems][0].startswith(first), problems


def test_yaml_of_plain_data_is_unchanged():
    import datetime

    from atlas_site.diagnostics import SourceLocation
    from atlas_site.load.yaml_source import parse_yaml

    data, problems = parse_yaml(
        "a: [1, 2.5, 'x*y', &anchor-alone 3]\nb: 2026-01-02\nc: {d: null, e: yes}",
        SourceLocation("f.md", 1, 1),
    )
    assert problems == []
    assert data.data == {"a": [1, 2.5, "x*y", 3], "b": datetime.date(2026, 1, 2), "c": {"d": None, "e": True}}


def test_bibtex_values_are_text_in_braces():
    from atlas_site.load.bibtex import parse_bibtex

    records, problems = parse_bibtex(
        "w.bib", '@article{a,\n  title = {{GPT}: a {b} c},\n  year = 2022,\n  note = "q"\n}\n'
    )
    assert problems == []
    assert records[0][0] == {
        "key": "a",
        "entry_type": "article",
        "title": "{GPT}: a {b} c",
        "year": "2022",
        "note": "q",
    }
    _, problems = parse_bibtex("w.bib", "@article{a,\n  title = {A} # {B},\n  year = {2022}\n}\n")
    assert [p.code for p in problems] == ["bib.macro"]


def test_bibtex_dashes_in_a_title_are_typeset_and_an_address_keeps_its_hyphens():
    from atlas_site.load.bibtex import parse_bibtex

    records, problems = parse_bibtex(
        "w.bib",
        "@misc{a,\n  title = {Prefill--Decode---a study},\n  url = {https://x.org/a--b},\n  year = {2026}\n}\n",
    )
    assert problems == []
    assert records[0][0]["title"] == "Prefill\u2013Decode\u2014a study"
    assert records[0][0]["url"] == "https://x.org/a--b"


def test_read_text_locates_a_bad_byte(tmp_path):
    from atlas_site.load.project import read_text

    (tmp_path / "content").mkdir()
    path = tmp_path / "content" / "x.md"
    path.write_bytes("line one\nzwei \xff drei\n".encode().replace(b"\xc3\xbf", b"\xff"))
    problems = []
    assert read_text(path, tmp_path, problems) is None
    assert (
        str(problems[0])
        == "content/x.md:2:6: error[file.encoding]: not UTF-8: invalid start byte (byte 0xff) (hint: re-save the file as UTF-8)"
    )
