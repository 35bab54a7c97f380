"""What a page says about the works it cites: a split chapter's page prints only the works cited on
that page ("Works cited on this page"), and the bibliography drops the empty address note and says
what its numbering schemes are once (the legend). Engine tests on the mini fixture book."""

from __future__ import annotations

import re

from atlas_site.build import assemble
from conftest import make_project

MORE = {
    "zh": "\n## 更多 {#more}\n\nFlashAttention 的第 42 号文献 [@r42]。\n",
    "en": "\n## More {#more}\n\nFlashAttention as reference 42 [@r42].\n",
}


def _printed_refs(html: str) -> list[str]:
    found = re.search(r'<section class="print-only print-refs".*?<ol>(.*?)</ol>', html, re.S)
    return re.findall(r"<li>(.*?)</li>", found.group(1), re.S) if found else []


def test_each_page_of_a_split_chapter_prints_the_works_it_cites(tmp_path):
    root = make_project(tmp_path)
    for lang, text in MORE.items():
        (root / "content" / lang / "ch14" / "10-more.md").write_text(text, encoding="utf-8")
    profile = root / "book.yaml"
    profile.write_text(
        profile.read_text(encoding="utf-8").replace("    number: 14\n", "    number: 14\n    split: true\n"),
        encoding="utf-8",
    )
    result = assemble(root)
    assert not result.errors, "\n".join(map(str, result.errors))
    first = _printed_refs(result.output.text("en/ch14.html"))
    second = _printed_refs(result.output.text("en/ch14-more.html"))
    # the first page cites DistServe (N27, through its claim) and FlashAttention as N04; the second
    # only FlashAttention, by the chapter's node number too though its prose wrote [@r42]
    assert [item.split("]")[0] for item in first] == ["[N27", "[N04"]
    assert second == [
        "[N04] FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness (2022)"
    ]
    # the edition keeps the whole chapter's list, each work under the one number the chapter shows
    whole = _printed_refs(result.output.whole["en/ch14.html"])
    assert [item.split("]")[0] for item in whole] == ["[N27", "[N04"]


def test_the_bibliography_explains_its_numbers_once_and_says_nothing_empty(mini):
    result = assemble(mini)
    for lang, legend, status in (
        ("en", "N04–N27: formal nodes", "Address: not found"),
        ("zh", "N04–N27：形式节点", "地址：未找到"),
    ):
        html = result.output.text(f"{lang}/bibliography.html")
        # the legend says what the numbers are; no second line above the list says it again
        assert legend in html and 'class="bib-key"' not in html, lang
        assert html.count('class="bib-legend"') == 1
        # a reference whose address was recorded as read says nothing more; one not found says so
        refs = re.findall(r'<div class="bib-ref">\s*<p>(.*?)</p>', html, re.S)
        assert len(refs) == 2 and not any("url_status" in ref for ref in refs)
        assert sum(status in ref for ref in refs) == 1
        assert "as recorded when the source was read" not in html and "阅读时记录的地址" not in html
