"""{{labs:a,b}}: a page shows the labs it names (several as one tablist, one on its own) and loads
only their code; a name that is not a lab is one located error."""

from __future__ import annotations

import re

import pytest

from conftest import edit, run_cli


@pytest.fixture(scope="module")
def output(real_book):
    return real_book.output


def lab_scripts(html: str) -> list[str]:
    return re.search(r'data-lab-scripts="([^"]*)"', html).group(1).split()


def page_scripts(html: str) -> list[str]:
    return re.findall(r'<script src="([^"]+)"', html)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_chapter_shows_four_labs_as_one_tablist_and_loads_their_code(output, lang):
    html = output.document(f"{lang}/ch14.html")  # the chapter whole (it is published as several pages)
    assert html.count('role="tablist"') == 1 and html.count('role="tab"') == 4
    assert re.findall(r'data-lab="([a-z]+)" role="tabpanel"', html) == [
        "memory",
        "batch",
        "speculative",
        "fleet",
    ]
    scripts = lab_scripts(html)
    assert [s.split("/")[-2] for s in scripts if s.endswith("/model.js")] == [
        "memory",
        "batch",
        "speculative",
        "fleet",
    ]
    assert not any("cost/" in s or "formulas/" in s for s in scripts)
    assert "../assets/labs/shared/tabs.js" in page_scripts(html)
    assert scripts[0] == "../assets/labs/shared/define.js"  # the module wrapper loads with the lab code


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_tutorial_shows_lab_e_alone_with_its_formula_module(output, lang):
    html = output.text(f"{lang}/tf-overview.html")
    assert 'role="tablist"' not in html and 'role="tabpanel"' not in html
    assert re.findall(r'data-lab="([a-z]+)"', html) == ["cost"]
    assert 'role="region" aria-labelledby="lab-cost-title"' in html
    scripts = lab_scripts(html)
    assert (
        scripts.index("../assets/labs/formulas/bottleneck.js")
        < scripts.index("../assets/labs/cost/model.js")
        < scripts.index("../assets/labs/cost/ui.js")
    )
    assert not any(name in s for s in scripts for name in ("memory/", "batch/", "fleet/", "tabs.js"))
    assert "../assets/labs/shared/tabs.js" not in page_scripts(html)
    for script in scripts + page_scripts(html):
        assert output.text(f"{lang}/{script}".replace(f"{lang}/../", "")), (
            script
        )  # every script it names is shipped


@pytest.mark.parametrize(
    "directive, message",
    [
        ("{{labs:memry}}", "error[labs.unknown]: no lab 'memry' in the ledger"),
        ("{{labs}}", "error[directive.argument]: 'labs' needs one or more ids separated by commas"),
        (
            "{{labs:cost,cost}}",
            "error[directive.argument]: 'labs' needs distinct ids separated by commas (got 'cost,cost')",
        ),
    ],
)
def test_a_lab_that_does_not_exist_is_one_located_error(mini, directive, message):
    edit(mini / "content/en/ch14/00-intro.md", "{{question-cards}}", directive)
    result = run_cli("check", cwd=mini)
    assert result.returncode == 2
    assert f"content/en/ch14/00-intro.md:11:1: {message}" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
