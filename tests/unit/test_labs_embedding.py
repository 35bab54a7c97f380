"""{{labs:a,b}}: a page shows the labs it names (several as one tablist, one on its own) and loads
only their code; a name that is not a lab is one located error."""

from __future__ import annotations

import re
import shutil

import pytest

from conftest import ROOT, edit, make_project, run_cli


@pytest.fixture(scope="module")
def output(tmp_path_factory):
    """The fixture book with the Atlas's lab contracts: two labs named together in the chapter's
    opening (one tablist) and one more, on its own, at the end of the chapter, in both languages."""
    project = make_project(tmp_path_factory.mktemp("labs"), "mini")
    shutil.copy(ROOT / "ledger" / "labs.md", project / "ledger" / "labs.md")
    for lang in ("zh", "en"):
        page = project / f"content/{lang}/ch14/00-intro.md"
        edit(page, "{{question-cards}}", "{{question-cards}}\n\n{{labs:memory,batch}}")
        page.write_text(page.read_text(encoding="utf-8") + "\n{{labs:cost}}\n", encoding="utf-8")
    result = run_cli("build", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    return project / "_site"


def lab_scripts(html: str, lab: str) -> list[str]:
    """The scripts the lab block holding `lab` loads when the reader nears it."""
    block = html[: html.index(f'data-lab="{lab}"')]
    return re.findall(r'data-lab-scripts="([^"]*)"', block)[-1].split()


def page_scripts(html: str) -> list[str]:
    return re.findall(r'<script src="([^"]+)"', html)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_labs_named_together_are_one_tablist_and_a_lab_alone_is_a_region(output, lang):
    html = (output / lang / "ch14.html").read_text(encoding="utf-8")
    assert html.count('role="tablist"') == 1 and html.count('role="tab"') == 2
    assert re.findall(r'data-lab="([a-z]+)" role="tabpanel"', html) == ["memory", "batch"]
    assert 'role="region" aria-labelledby="lab-cost-title"' in html
    assert "../assets/labs/shared/tabs.js" in page_scripts(html)
    # each block loads only its own labs' code, a formula module before the lab that uses it
    together = lab_scripts(html, "memory")
    assert together[0] == "../assets/labs/shared/define.js"  # the module wrapper comes with the code
    assert [s.split("/")[-2] for s in together if s.endswith("/model.js")] == ["memory", "batch"]
    assert not any("cost/" in s or "formulas/bottleneck" in s for s in together)
    alone = lab_scripts(html, "cost")
    assert (
        alone.index("../assets/labs/formulas/bottleneck.js")
        < alone.index("../assets/labs/cost/model.js")
        < alone.index("../assets/labs/cost/ui.js")
    )
    assert not any(name in s for s in alone for name in ("memory/", "batch/", "tabs.js"))
    for script in together + alone + page_scripts(html):
        assert (output / lang / script).resolve().is_file(), f"{script} is named but not shipped"


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
