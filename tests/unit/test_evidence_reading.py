"""How a page cites and labels its evidence (review 31-d D2, D6, editorial items 7 and 13): one
identifier per work on a page, in the scheme of its part (book.yaml `cites_all`); claims that follow
one another with one kind and one source show their label and citation once, and a setting they
share once; the settings gate still fails on a claim left without its label or setting; a page's
header names what its date dates. Engine tests on the fixture books (mini, workshop)."""

from __future__ import annotations

import re

import pytest

from atlas_site.build import assemble
from atlas_site.gates import GateContext
from atlas_site.gates.claims import check_claims, claim_labels
from conftest import ROOT, edit

# ---------------------------------------------------------------- one identifier per work (D2)


def _cites(html: str, needle: str) -> list[list[tuple[str, str]]]:
    """The citation brackets of the paragraph holding `needle`: [(data-cite, label), …] each."""
    para = next(m.group(0) for m in re.finditer(r"<p\b[^>]*>.*?</p>", html, re.S) if needle in m.group(0))
    return [
        re.findall(r'<a class="cite" href="[^"]*" data-cite="([^"]+)">([^<]*)</a>', bracket)
        for bracket in re.findall(r'<span class="cites"[^>]*>(.*?)\]</span>', para, re.S)
    ]


def test_a_page_cites_each_work_by_one_number_in_its_parts_scheme(workshop):
    """The workshop's chapter cites its studies (S…, `cites_all: nodes`), its series the references
    (R…, `cites_all: references`); the study is S7 and R101. Whatever number the prose wrote, the
    chapter shows S7 and the series R101, and a bracket naming the study twice links it once."""
    edit(
        workshop / "content/en/caching/00-caching.md",
        "skewed traffic raises it [@n07].",
        "skewed traffic raises it [@n07]. The full text says so too [@r101]; both at once [@n07; @r101].",
    )
    edit(
        workshop / "content/en/ws-measure/index.md",
        "as the study does [@r101].",
        "as the study does [@r101]. Its summary agrees [@n07]; both [@n07; @r101; @r205].",
    )
    edit(workshop / "content/de/caching/00-caching.md", "[@n07].", "[@n07]. [@r101]; [@n07; @r101].")
    edit(workshop / "content/de/ws-measure/index.md", "[@r101].", "[@r101]. [@n07]; [@n07; @r101; @r205].")
    result = assemble(workshop)
    assert not result.errors, "\n".join(map(str, result.errors))
    chapter = _cites(result.output.text("en/caching.html"), "decides what a cache saves")
    assert chapter == [[("n07", "S7")], [("n07", "S7")], [("n07", "S7")]]
    series = _cites(result.output.text("en/ws-measure.html"), "Count lookups")
    assert series == [[("r101", "R101")], [("r101", "R101")], [("r101", "R101"), ("r205", "R205")]]


def test_the_mini_chapter_shows_a_reference_of_a_work_by_its_node(mini):
    for lang in ("en", "zh"):
        edit(mini / f"content/{lang}/ch14/00-intro.md", "[@n04]", "[@r42; @n04] [@r42]")
    html = assemble(mini).output.text("en/ch14.html")
    assert _cites(html, "reorders IO") == [[("n04", "N04")], [("n04", "N04")]]
    assert 'data-cite="r42"' not in html and ">42</a>" not in html


# ---------------------------------------------------------------- claims labelled once (D6)

CLAIMS = """  - id: distserve-slo
    kind: author-reported
    source: n27
    value: 12.6
    unit: "×"
    text: {zh: "SLO 收紧 12.6×", en: "12.6× tighter SLO"}
    setting:
      zh: "DistServe 论文自身的硬件、模型、trace 与 SLO。"
      en: "DistServe's own hardware, models, traces and SLOs."
    seed: "000 §2.1"
    verified: 2026-07-29
  - id: distserve-sim
    kind: author-reported
    source: n27
    value: 2.0
    unit: "×"
    text: {zh: "模拟中 goodput 2.0×", en: "2.0× goodput in simulation"}
    setting:
      zh: "DistServe 论文的高带宽模拟。"
      en: "DistServe's simulated high-bandwidth cluster."
    seed: "000 §2.1"
    verified: 2026-07-29
---
"""
THREE = {
    "en": "DistServe reports {{claim:distserve-goodput}} and {{claim:distserve-slo}}; in simulation {{claim:distserve-sim}}.",
    "zh": "DistServe 报告 {{claim:distserve-goodput}} 与 {{claim:distserve-slo}}；模拟中 {{claim:distserve-sim}}。",
}
BROKEN = {  # a citation of its own between two claims ends their group
    "en": "DistServe reports {{claim:distserve-goodput}} [@n04] and {{claim:distserve-slo}}.",
    "zh": "DistServe 报告 {{claim:distserve-goodput}} [@n04] 与 {{claim:distserve-slo}}。",
}
TWO_SENTENCES = {  # a sentence's end between two claims ends their group too
    "en": "DistServe reports {{claim:distserve-goodput}}. In simulation it reports {{claim:distserve-slo}}.",
    "zh": "DistServe 报告 {{claim:distserve-goodput}}。模拟中它报告 {{claim:distserve-slo}}。",
}


def _with_claims(mini, text: dict) -> None:
    claims = mini / "ledger/claims.md"
    claims.write_text(
        claims.read_text(encoding="utf-8").replace("---\nA fixture claim.", CLAIMS + "A fixture claim.")
    )
    for lang in ("en", "zh"):
        edit(
            mini / f"content/{lang}/ch14/00-intro.md",
            "DistServe reports {{claim:distserve-goodput}}."
            if lang == "en"
            else "DistServe 报告 {{claim:distserve-goodput}}。",
            text[lang],
        )


def _claims_paragraph(html: str) -> str:
    return next(
        m.group(0) for m in re.finditer(r"<p\b[^>]*>.*?</p>", html, re.S) if "distserve-slo" in m.group(0)
    )


def test_claims_of_one_source_show_each_label_one_citation_and_their_shared_setting_once(mini):
    _with_claims(mini, THREE)
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    for lang, label in (("en", "author-reported"), ("zh", "作者报告")):
        para = _claims_paragraph(result.output.text(f"{lang}/ch14.html"))
        assert para.count('class="claim"') == 3
        assert para.count('data-group="cg-1"') == 3
        # each value its label (reviews 30-w #5, 30-y #5: "up to 525%" was read bare, its label
        # after the next claim); one citation; the shared setting once for the first two
        assert re.findall(r'class="badge badge-claim"[^>]*>([^<]*)<', para) == [label] * 3
        assert all(
            re.match(
                r'<strong class="claim-value">[^<]*</strong> (<span class="claim-mark">)?<span class="badge',
                member,
            )
            for member in para.split('data-group="cg-1">')[1:]
        ), "each label right after its value"
        assert para.count('class="cite"') == 1 and para.rindex("badge-claim") > para.index("distserve-sim")
        assert re.findall(r'class="claim-setting" data-for="([^"]*)"', para) == [
            "distserve-goodput distserve-slo",
            "distserve-sim",
        ]
        # every value still links to its row of the numbers page... (the mini book has none: its card)
        assert para.count('class="claim-value"') == 3
    assert not check_claims(
        GateContext(result.book, result.parsed, result.output, result.manifest, result.rules)
    ).problems


@pytest.mark.parametrize("text", [BROKEN, TWO_SENTENCES], ids=["citation", "sentence"])
def test_a_citation_or_a_sentence_end_between_two_claims_keeps_each_labelled(mini, text):
    """Review 30-h #1: a group's one label after the next sentence's claim left the claims of the
    sentence before it without a label beside them."""
    _with_claims(mini, text)
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    for lang in ("en", "zh"):
        para = _claims_paragraph(result.output.text(f"{lang}/ch14.html"))
        assert (
            "data-group" not in para
            and para.count("badge-claim") == 2
            and para.count('class="claim-setting"') == 2
        ), para


def test_the_settings_gate_still_fails_a_claim_left_unlabelled(mini):
    """A group whose claims are each labelled passes; the same page with a member's label gone, a
    claim its settings no longer name, or a lone claim without its label fails."""
    _with_claims(mini, THREE)
    html = assemble(mini).output.text("en/ch14.html")
    assert claim_labels(html)[4] == []
    no_label = re.sub(r'<span class="badge badge-claim"[^>]*>[^<]*</span>', "", html, count=1)
    assert claim_labels(no_label)[4] == ["claim 'distserve-goodput' (group cg-1) shows no label"]
    unnamed = html.replace('data-for="distserve-goodput distserve-slo"', 'data-for="distserve-slo"')
    assert claim_labels(unnamed)[4] == [
        "claim 'distserve-goodput' (group cg-1) shows no setting, nor does a later claim of its group name it"
    ]
    alone = no_label.replace(' data-group="cg-1"', "")  # three lone claims, the first without its label
    assert "claim 'distserve-goodput' shows no label" in claim_labels(alone)[4]


# ---------------------------------------------------------------- what the header dates (item 7)


def test_a_pages_header_says_its_date_is_the_texts(mini):
    """The header dates the prose, and says that each number carries a date of its own (reviews 30-i
    #11, 30-j D7 and 30-m #8 read a later claim date under an earlier page date as a contradiction)."""
    result = assemble(mini)
    for lang, words, numbers in (
        (
            "en",
            "Text last verified: ",
            " (each number is dated)",
        ),
        # review 30-n D5: "may be later" was wrong for numbers checked before the prose
        ("zh", "正文最后核验：", "（每个数字另注其来源的核验日期）"),
    ):
        html = result.output.text(f"{lang}/ch14.html")
        assert (
            f'<p class="last-verified">{words}<time datetime="2026-07-29">2026-07-29</time>'
            f'<span class="last-verified-numbers">{numbers}</span></p>'
        ) in html


def test_a_number_verified_after_the_prose_gives_the_header_its_day(mini):
    """Review 30-o D2: "text last verified 2026-07-29" stood above numbers stamped 2026-10-02. Where
    a number on the page was verified after its prose, the header names that day too."""
    edit(mini / "ledger/claims.md", "    verified: 2026-07-29", "    verified: 2026-10-02")
    edit(
        mini / "sources/nodes.yaml",
        'en: "PD goodput"}\n  evidence: paper\n  verified: 2026-07-29',
        'en: "PD goodput"}\n  evidence: paper\n  verified: 2026-10-02',
    )
    result = assemble(mini)
    assert not result.errors, [str(e) for e in result.errors]
    for lang, line in (
        ("en", "Text verified {text}; numbers up to {numbers}"),
        ("zh", "正文核验于 {text}；数字最晚核验于 {numbers}"),
    ):
        html = result.output.text(f"{lang}/ch14.html")
        line = line.format(
            text='<time datetime="2026-07-29">2026-07-29</time>',
            numbers='<time datetime="2026-10-02">2026-10-02</time>',
        )
        assert f'<p class="last-verified">{line}</p>' in html, lang


def test_the_citations_gate_fails_a_page_that_names_a_work_by_two_numbers(mini):
    """Every page keeps one number per work (gates/citations.py): a page where the chapter's
    FlashAttention shows as N04 in one place and as 42 in another fails, naming both."""
    from atlas_site.gates.citations import check_citations

    for lang in ("en", "zh"):
        edit(mini / f"content/{lang}/ch14/00-intro.md", "[@n04]", "[@n04] [@r42]")
    result = assemble(mini)
    ctx = GateContext(result.book, result.parsed, result.output, result.manifest, result.rules)
    assert not [p for p in check_citations(ctx).problems if p.code == "gate.citations.two-numbers"]
    html = result.output.text("en/ch14.html")
    shown = 'data-cite="n04">N04<'
    last = html.rindex(shown)
    result.output._files["en/ch14.html"] = (
        html[:last] + 'data-cite="r42">42<' + html[last + len(shown) :]
    ).encode()
    lines = [str(p) for p in check_citations(ctx).problems if p.code == "gate.citations.two-numbers"]
    assert lines == [
        "_site/en/ch14.html: error[gate.citations.two-numbers]: en/ch14.html: cites flashattention-2022 "
        "(n04, r42): a page names a work by one number"
    ]


def test_the_labels_key_says_what_each_list_of_citation_numbers_is_where_a_page_cites_two(mini):
    """Review 31-g #6: a chapter cited "[N25]" in its text and "[41]" beside it with nothing to say
    why. Where a page's citations number from two lists, the key of the labels names each list by
    the first label the page shows from it; a page citing one list says nothing of lists."""
    key = re.compile(
        r'<dt><span class="cites">\[[^<]*</span>[^<]*<span class="cites">[^<]*</span></dt><dd>([^<]*)</dd>'
    )
    assert not key.search(assemble(mini).output.text("en/ch14.html")), "one list: no such row"
    for lang in ("en", "zh"):
        edit(mini / f"content/{lang}/ch14/00-intro.md", "[@n04]", "[@n04; @r83]")
    built = assemble(mini).output
    assert key.search(built.text("en/ch14.html")).group(1) == (
        "Citation numbers come from more than one list (N27: formal nodes; 83: references). "
        "One work can hold a number in each list; the bibliography gives it once, under all its numbers."
    )
    assert "（N27：形式节点；83：参考文献）" in key.search(built.text("zh/ch14.html")).group(1)


def test_a_claims_label_and_its_more_button_wrap_as_one(mini):
    """Review 31-s #5: the ⋯ that opens a claim's setting wrapped alone to the start of a line on a
    phone. The label and the button are one unit that does not break (site.css .claim-mark)."""
    edit(
        mini / "ledger/claims.md",
        "DistServe's own hardware, models, traces and SLOs.",
        "DistServe's own hardware, models, traces and SLOs, with goodput the highest request rate per GPU that meets both constraints.",
    )
    html = assemble(mini).output.text("en/ch14.html")
    buttons = html.count('class="claim-more"')
    assert buttons, "the fixture shows a claim with its setting"
    marks = re.findall(
        r'<span class="claim-mark"><span class="badge badge-claim[^"]*"[^>]*>[^<]+</span><button type="button" class="claim-more"',
        html,
    )
    assert len(marks) == buttons, (len(marks), buttons)
    css = (ROOT / "templates/static/site.css").read_text(encoding="utf-8")
    assert ".claim-mark { white-space: nowrap; }" in css


# ---------------------------------------------------------------- abbreviations in a claim (30-z17 #3)


def test_a_claims_setting_spells_out_its_abbreviations_and_the_terms_gate_reads_it(tmp_path):
    """Review 30-z17 #3: FP16, TP and SLO were first met in claim settings, which no gate read and
    nothing spelt out. A setting is ledger data shown on every page that cites the claim, so the
    renderer says what a glossary abbreviation in it stands for where the page first meets it (in
    the brackets a bracket holds) and links it to its entry; the prose after it does not say it
    again. The terms gate reads a claim's value and setting where the claim stands: an abbreviation
    there that the glossary does not hold is named."""
    from conftest import make_project, run_cli

    book = make_project(tmp_path)
    claims = book / "ledger" / "claims.md"
    edit(
        claims,
        "DistServe 论文自身的硬件、模型、trace 与 SLO。",
        "DistServe 论文自身的硬件、模型、KV 布局与 ZQX。",
    )
    edit(
        claims,
        "DistServe's own hardware, models, traces and SLOs.",
        "DistServe's own hardware, models, KV layout and ZQX.",
    )
    html = assemble(book).output.text("en/ch14.html")
    setting = html.split('class="claim-setting"', 1)[1].split("</span>", 2)
    # (the fixture book has no glossary page for it to link to)
    assert 'KV<span class="term-expansion"> [key-value cache]' in "".join(setting[:2]), setting
    after = html.split('class="claim-setting"', 1)[1]
    assert re.search(r'data-term="kv-cache"[^>]*>KV</dfn>(?!<span class="term-expansion">)', after), (
        "the prose's first {{term:kv-cache}} after the setting does not spell it out again"
    )
    lines = run_cli("check", cwd=book).stdout.splitlines()
    unknown = [
        line
        for line in lines
        if "the setting of claim distserve-goodput: 'ZQX' is not a glossary term" in line
    ]
    assert len(unknown) == 2, "\n".join(lines)
    assert not [line for line in lines if "'KV'" in line], "\n".join(lines)


def test_an_abbreviation_before_the_last_word_of_its_name_gets_the_rest_of_it_in_a_setting(tmp_path):
    """Review 30-z22 #5: "JIT (just-in-time compilation) compilation", "KL（Kullback–Leibler 散度）散度"
    in the map's nodes: text no author marks up is spelt out as {{term:…}} spells out "PD
    disaggregation", with the rest of the name only."""
    from conftest import make_project

    book = make_project(tmp_path)
    claims = book / "ledger" / "claims.md"
    edit(
        claims,
        "DistServe's own hardware, models, traces and SLOs.",
        "DistServe's own hardware and KV cache layout.",
    )
    html = assemble(book).output.text("en/ch14.html")
    assert 'KV<span class="term-expansion"> [key-value]</span> cache layout' in html, html
