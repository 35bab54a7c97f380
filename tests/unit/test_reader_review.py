"""Reader defects of the last review, each on a fixture book: the glossary's order and letters, the
bibliography's entries, typographic quotes, no space left before punctuation by a claim whose
setting is set aside, identifiers set as symbols, tooltips typeset like the text, and side-by-side
reading only where a twin exists."""

from __future__ import annotations

import pytest

from atlas_site.build import assemble
from conftest import make_project, run_cli


def page(result, path: str) -> str:
    return result.output[path].decode("utf-8")


def main_of(html: str) -> str:
    return html[html.index("<main") : html.index("</main>")]


@pytest.fixture(scope="module")
def mini_built(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("mini"), "mini")
    result = assemble(project)
    assert result.output is not None and not result.errors, "\n".join(map(str, result.errors))
    return result


# -- 7. side-by-side reading only where the page has a twin ------------------------------------
def test_side_by_side_switches_only_where_a_twin_exists(tmp_path, mini_built):
    for lang in ("zh", "en"):
        html = page(mini_built, f"{lang}/ch14.html")
        assert "data-parallel-toggle" in html and "data-parallel-also" in html
    book = tmp_path / "alone"
    made = run_cli("init", str(book), "--languages", "en", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    result = assemble(book)
    assert result.output is not None and not result.errors, "\n".join(map(str, result.errors))
    pages = [p for p in result.output.paths() if p.startswith("en/") and p.endswith(".html")]
    assert pages
    for path in pages:
        html = page(result, path)
        assert "data-parallel-also" not in html and "data-parallel-toggle" not in html, path
        assert "data-lang-switch" not in html, path  # no twin to switch to either
