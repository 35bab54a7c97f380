"""The search index: Pagefind 1.6 from npm (Chinese indexed by words), the PyPI Pagefind with a
warning where it is missing, and a byte-identical index for the same pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

from atlas_site import search_index
from conftest import ROOT

PAGE = (
    '<!DOCTYPE html><html lang="zh-Hans"><head><meta charset="utf-8"><title>t</title></head>'
    '<body><main data-pagefind-body><h2 id="kv">键值缓存</h2><p>每个 token 的键值缓存随上下文增长。</p></main></body></html>'
)


def _site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "zh").mkdir(parents=True)
    (site / "zh" / "page.html").write_text(PAGE, encoding="utf-8")
    return site


def test_the_npm_pagefind_indexes_the_site(tmp_path):
    assert search_index.pagefind_command((ROOT,)) is not None, "package.json's Pagefind is installed (npm ci)"
    site = _site(tmp_path)
    assert search_index.index_search(site, (ROOT,)) == []
    assert 'pagefind_version="1.6.0"' in (site / "pagefind" / "pagefind.js").read_text(encoding="utf-8")
    entry = json.loads((site / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert list(entry["languages"]) == ["zh-hans"]
    assert not list((site / "pagefind").glob("pagefind-*ui.*")), "Pagefind's own UI kits are not shipped"


def test_the_same_pages_give_the_same_index(tmp_path):
    first, second = _site(tmp_path / "a"), _site(tmp_path / "b")
    search_index.index_search(first, (ROOT,))
    search_index.index_search(second, (ROOT,))
    files = lambda site: {
        p.relative_to(site).as_posix(): p.read_bytes() for p in (site / "pagefind").rglob("*") if p.is_file()
    }
    assert files(first) == files(second)


def test_without_the_npm_pagefind_the_build_warns_and_still_indexes(tmp_path, monkeypatch):
    monkeypatch.setattr(search_index, "pagefind_command", lambda folders=(): None)
    site = _site(tmp_path)
    warnings = search_index.index_search(site)
    assert [str(w) for w in warnings] == [
        "package.json: warning[search.old-pagefind]: Pagefind 1.6 from npm is not installed: the search index is built "
        "with the PyPI Pagefind, which splits Chinese into single characters (hint: run `npm ci` in the project "
        "(scripts/setup.sh does))"
    ]
    assert (site / "pagefind" / "pagefind.js").exists()


def test_atlas_pagefind_names_the_binary_to_run(monkeypatch):
    monkeypatch.setenv("ATLAS_PAGEFIND", "/opt/pagefind/pagefind_extended")
    assert search_index.pagefind_command((ROOT,)) == ["/opt/pagefind/pagefind_extended"]


# -- the copy of a page that Pagefind reads (review D3: run-on figure and table text, badges and
# labels in excerpts, flattened formulas) ------------------------------------------------------------
def _indexed(tmp_path: Path, body: str, lang: str = "en") -> str:
    """The page's text as the built index holds it (its fragment's content, zero-width spaces out)."""
    import gzip

    site = tmp_path / "site"
    (site / lang).mkdir(parents=True)
    page = f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>t</title></head><body><main data-pagefind-body>{body}</main></body></html>'
    (site / lang / "page.html").write_text(page, encoding="utf-8")
    search_index.index_search(site, (ROOT,))
    (fragment,) = (site / "pagefind" / "fragment").glob("*.pf_fragment")
    data = json.loads(gzip.decompress(fragment.read_bytes())[len(b"pagefind_dcd") :])
    return data["content"].replace("\u200b", "")


def test_cells_terms_and_figure_numbers_are_separated_and_badges_left_out(tmp_path):
    text = _indexed(
        tmp_path,
        '<h2 id="a">Nodes</h2><dl><dt>Year</dt><dd>2022</dd><dt>Solved</dt><dd>drafts are verified</dd></dl>'
        "<table><tr><td>Wrong</td><td>a fixed speed-up</td></tr></table>"
        '<figure><figcaption><span class="fig-number">Figure 16</span><span class="badge badge-fig">redrawn</span>'
        'Pages and blocks <span class="cites">[<a href="#n1">N49</a>]</span></figcaption></figure>'
        '<p class="block-label">Misconception · M15</p><p><span class="misconception-tag">Wrong</span> claim.</p>',
    )
    assert "Year: 2022. Solved: drafts are verified." in text, text
    assert "Wrong. a fixed speed-up." in text, text
    assert "Figure 16. Pages and blocks" in text, text
    assert "redrawn" not in text and "N49" not in text and "M15" not in text, text


def test_a_misconception_is_indexed_with_the_words_that_say_it_is_one(tmp_path):
    """Review 31-r #2: the excerpts quoted "Weight quantization shrinks the KV cache." bare, the
    tags before it left out of the index; a reader skimming results met the mistake as a fact."""
    block = (
        '<aside class="misconception"><p class="block-label">Misconception, corrected · M14</p>'
        '<p class="misconception-wrong"><span class="misconception-tag">{wrong}</span> '
        '<span class="misconception-statement">{statement}</span></p>'
        '<p class="misconception-tag misconception-true">{true}</p><p>{correction}</p></aside>'
    )
    cases = {
        "en": (
            "Common mistake",
            "Weight quantization shrinks the KV cache.",
            "What is true",
            "It changes only the weights.",
        ),
        "zh": ("常见误区", "权重量化也能压缩 KV Cache。", "实际情况", "它只改变权重。"),
    }
    indexed = {}
    for lang, (wrong, statement, true, correction) in cases.items():
        text = _indexed(
            tmp_path / lang,
            block.format(wrong=wrong, statement=statement, true=true, correction=correction),
            lang=lang,
        )
        # the excerpts set Chinese without spaces after its punctuation (search-engine.js)
        indexed[lang] = re.sub(r"(?<=[：。])\s+", "", text) if lang == "zh" else text
    en, zh = indexed["en"], indexed["zh"]
    assert "Common mistake: Weight quantization shrinks the KV cache." in en, en
    assert "What is true: It changes only the weights." in en and "M14" not in en, en
    assert "常见误区：权重量化也能压缩 KV Cache。" in zh and "实际情况：它只改变权重。" in zh, zh


def test_a_formula_is_indexed_in_its_linear_form(tmp_path):
    text = _indexed(
        tmp_path,
        '<p>so <span class="math"><math alttext="c = \\frac{10^6 \\times H}{3600 \\times G}" display="inline">'
        "<mrow><mi>c</mi><mo>=</mo><mfrac><mrow><msup><mn>10</mn><mn>6</mn></msup><mo>×</mo><mi>H</mi></mrow>"
        "<mrow><mn>3600</mn><mo>×</mo><mi>G</mi></mrow></mfrac></mrow></math></span> per token.</p>",
    )
    assert "c = (10^6 × H) / (3600 × G)" in text, text
    assert "106" not in text, text


def test_linear_math_reads_the_alttext():
    assert (
        search_index.linear_math(r"L \times 2 \times H_{kv} \times D_h \times s") == "L × 2 × H_kv × D_h × s"
    )
    assert search_index.linear_math(r"E = \frac{1 - a^{k+1}}{1 - a}") == "E = (1 − a^(k + 1)) / (1 − a)"
    assert search_index.linear_math(r"\min\!\left(1,\ \frac{p(x)}{q(x)}\right)") == "min(1, p(x) / q(x))"
    # review 31-t #2: an excerpt read "QK^top"
    assert search_index.linear_math(r"QK^\top") == "QKᵀ" and search_index.linear_math(r"QK^{\top}") == "QKᵀ"


def test_a_chinese_line_break_is_no_space_and_the_latin_words_are_listed(tmp_path):
    text = _indexed(
        tmp_path, '<h2 id="a">缓存</h2><p>老师一个字\n一个字地写。Prefill caches tokens.</p>', "zh-Hans"
    )
    assert "一个字一个字地写" in text, text
    words = json.loads((tmp_path / "site" / "pagefind" / "atlas-words.json").read_text(encoding="utf-8"))
    assert words == ["caches", "prefill", "tokens"], words
