"""A chapter split into one page per part file (book.yaml `split: true`): the first page keeps the
opening, every link of the site into the chapter reaches the page holding its target, the
language switch keeps the part, the pager walks the parts, and the editions keep whole chapters."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_example_labs import MEMORY_LAB

from conftest import ROOT, edit, make_project, run_cli

SECOND = {
    "zh": "\n## 更多 {#more}\n\n回到[服务指标](#q1)。\n",
    "en": "\n## More {#more}\n\nBack to [service metrics](#q1).\n",
}


@pytest.fixture
def book(tmp_path) -> Path:
    root = make_project(tmp_path)
    for lang, text in SECOND.items():
        folder = root / "content" / lang / "ch14"
        (folder / "10-more.md").write_text(text, encoding="utf-8")
        intro = folder / "00-intro.md"
        link = "[更多](#more)" if lang == "zh" else "[more](#more)"
        intro.write_text(intro.read_text(encoding="utf-8") + f"\n{link}\n", encoding="utf-8")
    profile = root / "book.yaml"
    profile.write_text(
        profile.read_text(encoding="utf-8").replace("    number: 14\n", "    number: 14\n    split: true\n"),
        encoding="utf-8",
    )
    return root


def built(book: Path) -> Path:
    done = run_cli("build", "--no-search", cwd=book)
    assert done.returncode == 0, done.stdout + done.stderr
    return book / "_site"


def hrefs(html: str, pattern: str) -> list[str]:
    return re.findall(rf'href="([^"]*{pattern}[^"]*)"', html)


def test_each_part_is_a_page_and_links_follow_their_targets(book):
    site = built(book)
    first, second = (
        (site / "en" / "ch14.html").read_text(encoding="utf-8"),
        (site / "en" / "ch14-more.html").read_text(encoding="utf-8"),
    )
    assert (
        'id="q1"' in first and 'id="more"' not in first and 'id="more"' in second and 'id="q1"' not in second
    )
    assert "ch14-more.html#more" in hrefs(first, "#more")  # into the second page
    assert "ch14.html#q1" in hrefs(second, "#q1")  # back into the first
    assert "<title>More · " in second
    # which part a page is, under the chapter's title (the first page keeps its standfirst instead)
    assert '</h1>\n<p class="split-position">Part 2 of 2 · More</p>' in second
    assert "split-position" not in first
    assert (
        'class="skip-link" href="#main"' in second and 'href="#top"' in second
    )  # the frame stays on its page
    assert (
        'data-moved="{&quot;more&quot;:&quot;ch14-more.html&quot;}"' in first
    )  # old links to ch14.html#more go on
    assert re.search(
        r'<a rel="next" href="ch14-more.html"><span class="pager-dir">Next part</span> More →</a>', first
    )
    assert re.search(r'<a rel="prev" href="ch14.html">', second)
    assert 'href="../zh/ch14-more.html"' in second  # the language switch keeps the part
    previews = (site / "assets" / "previews-en.js").read_text(encoding="utf-8")
    assert '"ch14-more#more"' in previews and '"ch14#more"' not in previews  # the card of a link to #more
    for page in site.rglob("*.html"):  # nothing anywhere still points at the first page for #more
        assert "ch14.html#more" not in page.read_text(encoding="utf-8"), page


def test_the_gate_checks_the_split_site(book):
    checked = run_cli("check", cwd=book)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "0 broken" in checked.stdout


def test_only_a_chapter_is_split(book):
    profile = book / "book.yaml"
    profile.write_text(
        profile.read_text(encoding="utf-8").replace(
            "  - generated: bibliography\n", "  - generated: bibliography\n    split: true\n"
        ),
        encoding="utf-8",
    )
    checked = run_cli("check", cwd=book)
    assert checked.returncode != 0 and "only a chapter is split" in checked.stdout + checked.stderr


def test_the_editions_are_made_of_whole_chapters_naming_the_page_that_holds_each_lab(book):
    """Review 31-k #8: the PDF sent readers of a lab to the chapter's first page (en/ch14.html#lab-…),
    reached only through its moved-link script; the lab is on the part page that holds it."""
    from atlas_site.export.assemble import assemble_edition
    from atlas_site.pipeline import IN_MEMORY, Run, run
    from atlas_site.render.templates import make_environment

    _lab_in_the_second_part(book)
    state = run(Run(root=book), IN_MEMORY)
    whole = state.output.document("en/ch14.html")
    assert 'id="q1"' in whole and 'id="more"' in whole and 'href="#more"' in whole
    assert 'id="more"' not in state.output.text("en/ch14.html")
    edition = assemble_edition(state.book, state.output, "en", make_environment(book))
    (line,) = [e for e in edition.chapter("ch14").body.iter() if "lab-online" in (e.get("class") or "")]
    assert "en/ch14-more.html#lab-memory-panel" in "".join(line.itertext())


def _lab_in_the_second_part(book: Path, example: bool = False) -> None:
    """Lab A (the Atlas's labs ledger) at the end of the chapter's second part, after a worked example."""
    (book / "ledger/labs.md").write_text(
        (ROOT / "ledger/labs.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    for lang in ("zh", "en"):
        more = book / "content" / lang / "ch14" / "10-more.md"
        shown = "\n{{ex:kv-per-token}}\n" if example else ""
        more.write_text(
            more.read_text(encoding="utf-8") + f"{shown}\n{{{{labs:memory}}}}\n", encoding="utf-8"
        )


def test_the_open_data_addresses_follow_the_split(book):
    """examples.json's lab link and its places name the page that holds their target."""
    _lab_in_the_second_part(book, example=True)
    edit(
        book / "book.yaml",
        "  - generated: bibliography",
        "  - generated: bibliography\n  - generated: numbers",
    )
    edit(book / "ledger/examples.md", '    seed: "000 §3.2"', f'    {MEMORY_LAB}\n    seed: "000 §3.2"')
    (example,) = json.loads((built(book) / "examples.json").read_text(encoding="utf-8"))["examples"]
    assert example["lab"]["links"]["en"].startswith("en/ch14-more.html#lab-memory-panel?attention=gqa&")
    assert [place["href"] for place in example["used_in"]["zh"]] == [
        "zh/ch14.html#q1",
        "zh/ch14-more.html#more",
    ]
    numbers = (book / "_site/en/numbers.html").read_text(encoding="utf-8")
    assert 'class="numbers-lab" href="ch14-more.html#lab-memory-panel?attention=gqa&amp;' in numbers


def _page_after_the_chapter(book: Path, page_id: str, titles: dict[str, str], part: str) -> None:
    """A one-section page in each language, published as `part` (book.yaml) right after the chapter."""
    for lang, title in titles.items():
        folder = book / "content" / lang / page_id
        folder.mkdir()
        (folder / "00.md").write_text(
            f"---\npage: {page_id}\ntitle: {title}\nstatus: draft\nlast_verified: 2026-07-29\n---\n\n"
            f"## {title} {{#start}}\n\n{title}.\n",
            encoding="utf-8",
        )
    edit(book / "book.yaml", "  - generated: bibliography\n", part + "  - generated: bibliography\n")


def test_the_page_after_a_split_chapter_goes_back_to_its_last_part(book):
    """Review 31-h #6: the last part's "next" led to the following page, whose "previous" led back
    to the chapter's first part, not to the page the reader had just finished."""
    _page_after_the_chapter(book, "ch15", {"zh": "下一章", "en": "Next chapter"}, "  - chapter: ch15\n")
    site = built(book)
    for lang in ("zh", "en"):
        after = (site / lang / "ch15.html").read_text(encoding="utf-8")
        last = (site / lang / "ch14-more.html").read_text(encoding="utf-8")
        assert re.search(r'<a rel="next" href="ch15.html">', last), lang
        assert re.search(r'<a rel="prev" href="ch14-more.html">', after), lang
        assert not re.search(r'<a rel="prev" href="ch14.html"', after), lang


def test_the_last_part_names_the_series_its_next_page_opens(book):
    """Review 31-i #12: "Next: Overview & cost" on the chapter's last page did not say that the
    reader was leaving the chapter for the tutorial; a next page in another series is named with
    its series. The chapter's own parts are not."""
    _page_after_the_chapter(
        book,
        "tut-a",
        {"zh": "入门", "en": "Basics"},
        '  - series: tut\n    title: {zh: "样书教程", en: "Sample tutorial"}\n    pages: [tut-a]\n',
    )
    site = built(book)
    for lang, entering in (("zh", "样书教程 · 入门 →"), ("en", "Sample tutorial · Basics →")):
        last = (site / lang / "ch14-more.html").read_text(encoding="utf-8")
        first = (site / lang / "ch14.html").read_text(encoding="utf-8")
        assert re.search(
            rf'<a rel="next" href="tut-a.html"><span class="pager-dir">[^<]+</span> {entering}</a>', last
        ), lang
        assert "样书教程 ·" not in first and "Sample tutorial ·" not in first, "the next part is no series"
