"""The search_finds rule's static half: the query file is read with every problem located in it, and
every section a query names must exist where the book publishes it (a part page of a split chapter)."""

from __future__ import annotations

import re

from conftest import make_reader, run_cli

QUERIES = """\
zh:
  - [批处理, ch1#q3]
  - [路由, ch1#nowhere]
  - {query: 批处理, finds: ch1#q3, typed_on: fr}
en:
  - [Routing, [ch1#q7, ch1#q6]]
  - just a string
  - {query: Batching, finds: ch1#q3, typed_on: zh}
"""


def _with_rule(tmp_path, queries: str, path: str = "ledger/search.yaml"):
    project = make_reader(tmp_path)
    (project / "ledger" / "search.yaml").write_text(queries, encoding="utf-8")
    with (project / "book.yaml").open("a", encoding="utf-8") as profile:
        profile.write(f"rules:\n  - search_finds: {{queries: {path}, top: 3, share: 0.9}}\n")
    return project


def test_a_query_file_problem_is_one_located_line_each(tmp_path):
    result = run_cli("check", cwd=_with_rule(tmp_path, QUERIES))
    lines = [line.strip() for line in result.stdout.splitlines() if "error[rule.search_finds]" in line]
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert [re.sub(r" \(rule at book\.yaml:\d+:\d+\)$", "", line) for line in lines] == [
        "ledger/search.yaml:3:5: error[rule.search_finds]: 路由: no section ch1#nowhere in zh",
        "ledger/search.yaml:4:5: error[rule.search_finds]: 批处理: no language 'fr' in this book",
        "ledger/search.yaml:7:5: error[rule.search_finds]: a query is [query, section] or "
        "{query: …, finds: section or [sections], typed_on: language}",
    ], result.stdout


def test_the_sections_are_found_on_the_part_pages_and_the_browser_half_is_announced(tmp_path):
    good = "zh:\n  - [批处理, ch1#q3]\nen:\n  - [Routing, [ch1#q7, ch1#q6]]\n"
    result = run_cli("check", cwd=_with_rule(tmp_path, good))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(1 zh, 1 en queries)" in result.stdout
    assert re.search(
        r"not run: \d+ browser rule\(s\) of book\.yaml \([^)]*ledger/search\.yaml", result.stdout
    )


def test_a_query_file_outside_the_project_is_refused(tmp_path):
    (tmp_path / "outside.yaml").write_text("zh: []\n", encoding="utf-8")
    result = run_cli("check", cwd=_with_rule(tmp_path, "zh: []\n", path="../outside.yaml"))
    assert result.returncode == 2
    assert "error[rule.search_finds]: query file ../outside.yaml: outside the project" in result.stdout
