"""The search index lists its Chinese names (pagefind/atlas-names.json): the terms its <dfn>s define
and the subjects of its headings, so that the search box can read a Chinese typo ("量花") as the
known name one character away (量化)."""

from __future__ import annotations

import json

from atlas_site import search_index
from conftest import ROOT

PAGE = (
    '<!DOCTYPE html><html lang="zh-Hans"><head><meta charset="utf-8"><title>t</title></head><body>'
    '<nav><h2 id="nav">目录导航</h2></nav>'
    '<main data-pagefind-body><h2 id="q13">量化：先问压的是哪一个对象 <a class="heading-anchor" href="#q13">#</a></h2>'
    '<p>把 <dfn class="term-def" id="term-kv-quantization" data-term="kv-quantization">KV 量化</dfn> 与'
    ' <dfn id="term-x">MoE</dfn> 分开。<span class="badge"><dfn>徽章术语</dfn></span></p>'
    '<h3 id="routing">模型路由、级联与蒸馏</h3><p>正文。</p></main></body></html>'
)


def test_the_index_names_its_definitions_and_heading_subjects():
    names = search_index.index_names(PAGE)
    assert set(names) == {"量化", "KV 量化", "模型路由", "级联", "蒸馏"}, names
    # a heading's subject before its colon, without its anchor; a badge's text and the navigation are
    # not the page's text; a Latin-only name is the Latin word list's
    assert search_index.chinese_names("MQA 与 GQA：几位读者共用一份档案", heading=True) == []
    assert search_index.chinese_names("前缀复用：什么时候可以合法地跳过 prefill", heading=True) == [
        "前缀复用"
    ]


def test_the_built_index_lists_the_chinese_names_most_frequent_first(tmp_path):
    site = tmp_path / "site"
    (site / "zh").mkdir(parents=True)
    (site / "zh" / "a.html").write_text(PAGE, encoding="utf-8")
    (site / "zh" / "b.html").write_text(PAGE.replace("模型路由", "推测解码"), encoding="utf-8")
    search_index.index_search(site, (ROOT,))
    names = json.loads((site / "pagefind" / "atlas-names.json").read_text(encoding="utf-8"))
    assert names == ["KV 量化", "级联", "蒸馏", "量化", "推测解码", "模型路由"], names


def test_a_terms_search_phrases_reach_the_search_box_and_not_the_glossary(mini, tmp_path):
    from conftest import built_cleanly, edit

    edit(
        mini / "ledger" / "glossary.md",
        '    definition: {zh: "每个 token 在每一层留下的键与值。"',
        '    search_phrases: {zh: ["上下文记忆"], en: ["attention memory"]}\n'
        '    definition: {zh: "每个 token 在每一层留下的键与值。"',
    )
    _, site = built_cleanly(mini, tmp_path / "site")
    script = (site / "assets" / "search-terms.js").read_text(encoding="utf-8")
    groups = json.loads(script.split("window.AtlasSearchTerms=")[1].split(";\n")[0])
    phrases = json.loads(script.split("window.AtlasSearchTermPhrases=")[1].split(";\n")[0])
    assert len(phrases) == len(groups)
    (kv,) = [i for i, names in enumerate(groups) if "KV" in names]
    assert phrases[kv] == ["上下文记忆", "attention memory"]
    assert not any("attention memory" in names for names in groups), "a phrase is not a name"
    for page in site.glob("*/*.html"):  # the term's cards and definitions show names only
        text = page.read_text(encoding="utf-8")
        assert "attention memory" not in text and "上下文记忆" not in text, page
