"""Reader defects of the last review, each on a fixture book: the glossary's order and letters, the
bibliography's entries, typographic quotes, no space left before punctuation by a claim whose
setting is set aside, identifiers set as symbols, tooltips typeset like the text, and side-by-side
reading only where a twin exists."""

from __future__ import annotations

import re

import pytest

from atlas_site.build import assemble
from conftest import edit, make_project, run_cli


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


@pytest.fixture(scope="module")
def typeset_built(tmp_path_factory):
    """The mini book with prose that quotes, names variables as identifiers, groups two claims
    before a comma, and a Chinese definition with a lone em dash."""
    project = make_project(tmp_path_factory.mktemp("typeset"), "mini")
    claims = project / "ledger/claims.md"
    edit(
        claims,
        '    seed: "000 §2.1"\n    verified: 2026-07-29\n',
        '    seed: "000 §2.1"\n    verified: 2026-07-29\n'
        "  - id: distserve-slo\n    kind: author-reported\n    source: n27\n    value: 12.6\n"
        '    unit: "×"\n    text: {zh: "SLO 收紧 12.6×", en: "12.6× tighter SLOs"}\n'
        '    setting:\n      zh: "同一篇论文的另一组 SLO。"\n      en: "Another set of SLOs in the same paper."\n'
        '    seed: "000 §2.1"\n    verified: 2026-07-29\n',
    )
    en = project / "content/en/ch14/00-intro.md"
    edit(
        en,
        "DistServe reports {{claim:distserve-goodput}}.",
        "DistServe reports {{claim:distserve-goodput}}, and {{claim:distserve-slo}}.\n\n"
        "The \"fast\" path and the 'slow' one don't differ in the '90s sense; `a \"b\" c` and"
        ' [a "link"](https://arxiv.org/abs/2205.14135 "the \\"title\\"") and https://arxiv.org/x/a_b stay; BW_eff over H_kv, t_{i−1}, C_good;'
        " exact_match and io_uring stay as written.",
    )
    zh = project / "content/zh/ch14/00-intro.md"
    edit(
        zh,
        "DistServe 报告 {{claim:distserve-goodput}}。",
        "DistServe 报告 {{claim:distserve-goodput}}，{{claim:distserve-slo}}。\n\n带宽 BW_eff 与 H_kv，{{term:io}}，2025—2026 年。",
    )
    edit(
        project / "book.yaml",
        "  - generated: bibliography",
        "  - generated: bibliography\n  - generated: glossary",
    )
    edit(
        project / "ledger/glossary.md",
        'definition: {zh: "t_first − t_arrive。"',
        'definition: {zh: "草稿—验证的 t_first − t_arrive。"',
    )
    result = assemble(project)
    assert result.output is not None and not result.errors, "\n".join(map(str, result.errors))
    return result


# -- 3. typographic quotes in English text, never in code, math, addresses or attributes --------
def test_english_text_has_typographic_quotes_and_code_keeps_its_own(typeset_built):
    from atlas_site.render.typography import straight_quotes

    html = main_of(page(typeset_built, "en/ch14.html"))
    assert straight_quotes(html) == 0
    assert "The “fast” path and the ‘slow’ one don’t differ in the ’90s sense" in html
    assert "<code>a &quot;b&quot; c</code>" in html  # code as written
    assert 'title="the &quot;title&quot;"' in html
    assert "a “link”" in html
    zh = main_of(page(typeset_built, "zh/ch14.html"))
    assert "“" not in zh.replace("“", "")  # nothing added to Chinese


# -- 4. no space before the sentence's punctuation where a claim's setting is set aside ----------
def test_a_claim_whose_setting_ends_it_takes_the_punctuation_in_before_the_setting(typeset_built):
    setting = re.compile(r'<span class="claim-setting".*?</time></span></span>', re.S)
    for lang, mark in (("en", ","), ("zh", "，")):
        html = main_of(page(typeset_built, f"{lang}/ch14.html"))
        assert 'data-group="' in html  # the two claims form a group: the first one's setting ends it
        hidden = re.sub(r"<[^>]+>", "", setting.sub("", html))  # in the margin, or folded away
        assert not re.search(r"\s[.,;:!?。，；：]", hidden), hidden
        # the value and its label, then the mark, then the setting
        assert re.search(
            f'(?:</a>|</strong>|badge-claim"[^>]*>[^<]*</span>){mark} ?<span class="claim-setting"', html
        )
        assert mark + mark not in re.sub(r"<[^>]+>", "", html)  # the mark is not written twice


# -- 5. identifiers set as symbols in the text -------------------------------------------------
def test_identifiers_in_text_are_set_as_symbols(typeset_built):
    from atlas_site.render.typography import identifiers

    html = main_of(page(typeset_built, "en/ch14.html"))
    for symbol in ("BW<sub>eff</sub>", "H<sub>kv</sub>", "t<sub>i−1</sub>", "C<sub>good</sub>"):
        assert symbol in html
    assert "exact_match and io_uring" in html and "https://arxiv.org/x/a_b" in html
    assert identifiers(html) == []
    zh = main_of(page(typeset_built, "zh/ch14.html"))
    assert "BW<sub>eff</sub> 与 H<sub>kv</sub>" in zh or "BW<sub>eff</sub>与H<sub>kv</sub>" in zh
    glossary = main_of(page(typeset_built, "en/glossary.html"))
    assert "t<sub>first</sub> − t<sub>arrive</sub>" in glossary


# -- 8. a Chinese tooltip keeps the dash the text shows ------------------------------------------
def test_chinese_tooltips_and_cards_set_the_dash_as_the_text_does(typeset_built):
    zh = page(typeset_built, "zh/ch14.html")
    # a term's definition is the card's and the glossary's; no title tooltip copies it
    assert re.findall(r"<dfn[^>]*\stitle=", zh) == []
    assert "草稿——验证" in page(typeset_built, "zh/glossary.html")
    cards = page(typeset_built, "assets/previews-zh.js")
    assert "草稿——验证" in cards and "草稿—验证" not in cards


# -- 1. the Chinese glossary: Latin abbreviations under their letter, no empty letter, one "used in"
def test_chinese_glossary_files_abbreviations_under_their_letter_and_uses_are_shared(typeset_built):
    zh = main_of(page(typeset_built, "zh/glossary.html"))
    letter_of = {}
    for group in re.finditer(r'<h2 id="letter-(\w+)">(.*?)</h2>(.*?)</section>', zh, re.S):
        entries = re.findall(r'id="term-([\w-]+)"', group.group(3))
        assert entries, f"letter {group.group(2)} has no entry"
        letter_of.update(dict.fromkeys(entries, group.group(2)))
    # TTFT (首 token 延迟), KV (键值缓存), IO (输入输出) by their abbreviation; 有效吞吐 by pinyin
    assert letter_of == {"ttft": "T", "kv-cache": "K", "io": "I", "goodput": "Y"}, letter_of
    links = re.findall(r'href="#letter-(\w+)"', zh)
    assert sorted(links) == sorted(letter.lower() for letter in set(letter_of.values()))

    def used(lang):
        html = main_of(page(typeset_built, f"{lang}/glossary.html"))
        # the page of each link (the definition's anchor is where that language's page defines it)
        return {
            entry: [href.split("#")[0] for href in re.findall(r'href="([^"]+)"', body)]
            for entry, body in re.findall(r'id="term-([\w-]+)">(.*?)</div>', html, re.S)
        }

    assert used("zh") == used("en")  # the same places, whichever language uses the term there
    assert used("en")["io"]  # used only in the Chinese prose of that section, listed in English too


# -- 2. the bibliography: the numbers readers meet in the text, the work's title once ------------
def test_bibliography_entry_shows_the_number_of_the_text_and_the_title_once(mini_built):
    for lang in ("zh", "en"):
        html = main_of(page(mini_built, f"{lang}/bibliography.html"))
        entry = re.search(r'<li class="bib-entry" id="src-flashattention-2022".*?</li>', html, re.S).group(0)
        # the chapter cites it as [N04]; r42, its other ledger number, is shown on no page
        assert re.findall(r'class="bib-number">([^<]*)<', entry) == ["N04"], entry
        assert entry.count("FlashAttention: Fast and Memory-Efficient Exact Attention") == 1, entry
        assert "https://arxiv.org/abs/2205.14135" in entry and "(2022)" in entry
        assert " — " not in re.sub(r"<[^>]+>", "", entry)


def test_chinese_ranges_of_numbers_use_an_en_dash(typeset_built):
    zh = main_of(page(typeset_built, "zh/ch14.html"))
    assert "2025–2026 年" in zh and "2025—2026" not in zh
