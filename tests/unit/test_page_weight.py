"""The page_weight rule: every page's first load (HTML + the CSS and JS it names, gzip -9) within
the budget book.yaml sets, measured on the output the build is about to write."""

from __future__ import annotations

import gzip

import pytest

from atlas_site.build import assemble
from atlas_site.output import Output
from atlas_site.rules.weight import first_load_bytes
from conftest import edit, make_project, run_cli

COUNTS = "  - counts: {nodes: 1, references: 2, misconceptions: 1}\n"


@pytest.fixture
def workshop(tmp_path):
    return make_project(tmp_path, "workshop")


def with_rule(project, rule: str):
    edit(project / "book.yaml", COUNTS, COUNTS + f"  - {rule}\n")


def test_first_load_counts_the_page_and_what_it_names_once_each():
    output = Output()
    page = '<link rel="stylesheet" href="../assets/a.css"><script src="../assets/b.js" defer></script><script src="../assets/b.js"></script>'
    output.add("en/p.html", page)
    output.add("assets/a.css", "body { color: red }" * 50)
    output.add("assets/b.js", "var x = 1;" * 50)
    output.add("assets/unused.js", "var y = 2;" * 500)
    expected = sum(
        len(gzip.compress(output[p], 9, mtime=0)) for p in ("en/p.html", "assets/a.css", "assets/b.js")
    )
    assert first_load_bytes(output, "en/p.html") == expected


def test_pages_within_the_budget_pass_and_the_fullest_is_named(workshop):
    with_rule(workshop, "page_weight: {kb: 60, pages: {caching: 80}}")
    reports = {r.name: r.line() for r in assemble(workshop).gate_reports}
    assert "2/2 rules hold" in reports["rules of the book"]
    assert "pages, fullest " in reports["rules of the book"]


def test_a_page_over_its_budget_fails_at_the_page(workshop):
    with_rule(workshop, "page_weight: {kb: 1}")
    result = run_cli("check", cwd=workshop)
    assert result.returncode == 2
    lines = [
        line.strip()
        for line in (result.stdout + result.stderr).splitlines()
        if "error[rule.page_weight]" in line
    ]
    assert lines and all(
        line.startswith("_site/")
        and "over its budget of 1,024 B by" in line
        and "(rule at book.yaml:16:5)" in line
        for line in lines
    ), result.stdout


def test_a_budget_for_a_page_the_book_does_not_have_is_refused(workshop):
    with_rule(workshop, "page_weight: {kb: 60, pages: {nowhere: 90}}")
    result = run_cli("check", cwd=workshop)
    assert result.returncode == 2
    assert (
        "book.yaml:16:5: error[rule.reference]: rule 'page_weight': no page nowhere in this book"
        in result.stderr
    )


def test_the_benchmark_weighs_a_written_site_as_the_rule_weighs_the_output(reader_build):
    """scripts/bench.py reports page weights from a built folder with the rule's own measure: the
    same bytes for every page (the search index the write adds is never a page's first load)."""
    import importlib.util

    from conftest import ROOT

    spec = importlib.util.spec_from_file_location("bench", ROOT / "scripts/bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result, folder = reader_build
    weights = dict(bench.page_weights(folder))
    assert weights and weights == {
        path: first_load_bytes(result.output, path) for path in result.output.html_pages()
    }
    assert weights["zh/ch1.html"] > weights["index.html"] > 0


def test_a_release_weighs_each_page_as_published_with_its_editions_linked(workshop):
    """A release check passed the Atlas's zh/tf-map.html at 60,767 B of its 61,440 while the page
    the release published, its footer linking the editions, weighed 61,441. `check --release` makes
    the editions, renders the pages with them linked and weighs those: a budget of the fullest
    unlinked page passes a plain check and fails the release."""
    output = assemble(workshop).output
    fullest = max(first_load_bytes(output, path) for path in output.html_pages())
    with_rule(workshop, f"page_weight: {{kb: {(fullest + 0.5) / 1024:.6f}}}")
    plain = run_cli("check", cwd=workshop)
    assert "error[rule.page_weight]" not in plain.stdout + plain.stderr, plain.stdout
    release = run_cli("check", "--release", "--as-of", "2026-12-01", cwd=workshop)
    over = [line for line in release.stdout.splitlines() if "error[rule.page_weight]" in line]
    assert over and all("over its budget of" in line for line in over), release.stdout
    assert release.returncode == 2
