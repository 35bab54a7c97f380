"""Chinese typography on the built pages of the fixture book: no ASCII space beside full-width
punctuation (after a run-in heading, before a paragraph's evidence note, before a full-width
parenthesis), no lone em dash between Chinese characters; and the gate that fails a Chinese page
that still has either."""

from __future__ import annotations

import re

from atlas_site.build import assemble
from atlas_site.render.cjk_spacing import findings, tidy
from conftest import edit

PAGE = "content/zh/ch14/00-intro.md"
WRITTEN = (
    "**算例：先看账。** 本书把成本按 token 记。它降的是 prefill （分块预填充）的停顿，"
    "这套接受—拒绝—修正流程不改变分布。问“哪一项？ ”是关键。\n\n"
)


def _report(result, name="Chinese typography"):
    return next(r for r in result.gate_reports if r.name == name)


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_a_chinese_page_has_no_space_beside_full_width_punctuation(mini):
    edit(mini / PAGE, "## 服务指标 {#q1}\n\n", "## 服务指标 {#q1}\n\n" + WRITTEN)
    result = assemble(mini)
    assert result.output is not None, "\n".join(map(str, result.errors))
    html = result.output.text("zh/ch14.html")
    text = _text(html)
    # the run-in heading, the parenthesis after a Latin word, the question mark before a quote
    assert "先看账。本书把成本" in text, re.findall(r"先看账.{0,6}", text)
    assert "prefill（分块预填充）" in text
    assert "哪一项？”是关键" in text
    # a lone em dash reads as 一 in a CJK font: a Chinese page sets ——
    assert "接受——拒绝——修正" in text
    # a paragraph's evidence note follows its full stop without a space (margin in the stylesheet)
    assert not re.search(r"[。）] <span class=\"evidence-note", html)
    assert not findings(html[html.index("<body") :]), findings(html[html.index("<body") :])[:5]
    report = _report(result)
    assert report.status == "pass", report.problems
    # an English page is left as written: its spaces are words' spaces
    assert "**" not in result.output.text("en/ch14.html")


def test_the_gate_fails_a_chinese_page_that_still_has_them(mini):
    """A template that writes text outside the typeset main part: the gate names the page and the
    text, for a space and for a lone dash."""
    edit(
        mini / "templates/base.html.j2",
        "</body>",
        '<p class="colophon">{% if lang == "zh" %}本书。 完{{ "——" }}草稿—定稿{% endif %}</p>\n</body>',
    )
    result = assemble(mini)
    report = _report(result)
    assert report.status == "FAIL"
    codes = {(p.code, str(p.location).split(":")[0]) for p in report.problems}
    assert ("gate.cjk.space", "_site/zh/ch14.html") in codes, report.problems
    assert ("gate.cjk.dash", "_site/zh/ch14.html") in codes, report.problems
    assert any("。 完" in p.message for p in report.problems)
    assert not any("/en/" in str(p.location) for p in report.problems)


def test_code_math_and_attributes_are_left_as_written():
    html = (
        '<p title="甲。 乙">甲。 <code>a。 b</code> 乙 <span class="math"><math><mi>x</mi></math></span> 丙'
        "<br>。 丁</p><pre>戊。 己</pre>"
    )
    assert tidy(html) == (
        '<p title="甲。 乙">甲。<code>a。 b</code> 乙 <span class="math"><math><mi>x</mi></math></span> 丙'
        "<br>。丁</p><pre>戊。 己</pre>"
    )


def test_an_emphasis_the_parser_left_open_is_located_in_the_source(mini):
    """Review 30-z6 #1: '**边界。**上下文' showed its asterisks (CommonMark does not close ** after
    full-width punctuation when a character follows); the gate names the file, line and column."""
    edit(mini / PAGE, "## 服务指标 {#q1}\n\n", "## 服务指标 {#q1}\n\n**边界。**上下文越长越要分开测。\n\n")
    report = _report(assemble(mini))
    located = [str(p).split(": error")[0] for p in report.problems if p.code == "gate.cjk.emphasis"]
    line = (mini / PAGE).read_text(encoding="utf-8").split("\n").index("**边界。**上下文越长越要分开测。") + 1
    assert located == [f"{PAGE}:{line}:1", f"{PAGE}:{line}:6"], located
    edit(mini / PAGE, "**边界。**上下文", "**边界。** 上下文")
    assert not [p for p in _report(assemble(mini)).problems if p.code == "gate.cjk.emphasis"]
