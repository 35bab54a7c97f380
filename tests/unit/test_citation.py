"""Citing the book as scholars do: citation_* meta tags and a JSON-LD description on every reader
page, "cite this page" (BibTeX and a formatted reference, with the edition), and "cite this number"
on the numbers page, the original source first."""

from __future__ import annotations

import json
import re

import bibtexparser
import pytest

from conftest import make_project, run_cli


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("cite"))
    profile = root / "book.yaml"
    text = profile.read_text(encoding="utf-8").replace(
        "  - generated: bibliography\n", "  - generated: bibliography\n  - generated: numbers\n"
    )
    profile.write_text(
        text + "edition: {number: 3, date: 2026-11-30}\n"
        'downloads: {author: {zh: "迷你作者", en: "The mini authors"}}\n',
        encoding="utf-8",
    )
    done = run_cli("build", "--no-search", cwd=root)
    assert done.returncode == 0, done.stderr
    return root / "_site"


def test_reader_pages_carry_citation_tags_and_json_ld(site):
    page = (site / "en" / "ch14.html").read_text(encoding="utf-8")
    tags = dict(re.findall(r'<meta name="(citation_[a-z_]+)" content="([^"]*)">', page))
    assert tags == {
        "citation_title": "Inference serving",
        "citation_inbook_title": "Mini book",
        "citation_author": "The mini authors",
        "citation_publication_date": "2026/11/30",
        "citation_language": "en",
    }
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S).group(1))
    assert data["@type"] == "Chapter" and data["name"] == "Inference serving"
    assert data["isPartOf"] == {
        "@type": "Book",
        "name": "Mini book",
        "inLanguage": "en",
        "bookEdition": "3",
        "datePublished": "2026-11-30",
        "author": {"@type": "Organization", "name": "The mini authors"},
    }
    home = json.loads(
        re.search(
            r'<script type="application/ld\+json">(.*?)</script>',
            (site / "zh" / "index.html").read_text(encoding="utf-8"),
            re.S,
        ).group(1)
    )
    assert home["@type"] == "Book" and home["name"] == "迷你书"


def test_cite_this_page_gives_bibtex_that_parses_and_a_reference_with_the_edition(site):
    page = (site / "zh" / "ch14.html").read_text(encoding="utf-8")
    block = page[page.index('<details class="cite-this"') :]
    assert "迷你作者：《迷你书》第 3 版（2026-11-30），“推理服务”。" in block  # the zh title of the page
    bibtex = re.search(r"<code>(.*?)</code>", block, re.S).group(1)
    entry = bibtexparser.parse_string(bibtex).entries[0]
    assert entry.entry_type == "incollection" and entry.key == "book-ch14-zh"
    fields = {f.key: f.value for f in entry.fields}
    assert {"booktitle": "迷你书", "edition": "3", "year": "2026", "language": "zh"}.items() <= fields.items()


def test_cite_this_number_names_the_source_first_then_the_book(site):
    numbers = (site / "en" / "numbers.html").read_text(encoding="utf-8")
    row = numbers[numbers.index('id="claim-distserve-goodput"') :].split("</tr>")[0]
    cite = re.search(
        r'<details class="cite-number"><summary>Cite this number</summary><p>(.*?)</p>', row, re.S
    ).group(1)
    source, book = cite.split("<br>")
    assert (
        source.startswith("DistServe: Disaggregating Prefill")
        and "https://arxiv.org/abs/2401.09670" in source
    )
    assert book.startswith("As found in: The mini authors. “Numbers”. In Mini book, edition 3, 2026-11-30.")


def test_a_json_ld_block_that_is_not_json_fails_the_security_gate(tmp_path):
    root = make_project(tmp_path)
    base = root / "templates" / "base.html.j2"
    base.write_text(
        base.read_text(encoding="utf-8").replace(
            "</head>", '<script type="application/ld+json">{oops</script>\n</head>'
        ),
        encoding="utf-8",
    )
    checked = run_cli("check", cwd=root)
    assert checked.returncode != 0 and "gate.security.data-block" in checked.stdout + checked.stderr
