"""Evidence marks on a phone, in Chromium (review 31-d D4, D5): a citation's label sits tight in its
brackets while its pointer target stays 24 px; a worked example's dashed number opens a card (label,
what it assumes, the numbers page) instead of leaving the page, and it does not look like a defined
term's dotted line. On the mini fixture book with a numbers page, built once for the module."""

from __future__ import annotations

import pytest

from atlas_site.gates.accessibility import target_problems
from conftest import built_cleanly, edit, make_project

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
NOTE = '    note: {zh: "教学例：32 层、8 个 KV 头。", en: "Teaching case: 32 layers, 8 KV heads."}\n'
DENSE = {
    "en": "FlashAttention reorders IO [@n04; @n27]. KV per token is {{ex:kv-per-token}}, again {{ex:kv-per-token}}.",
    "zh": "FlashAttention 改写的是 IO 次序 [@n04; @n27]。每 token 的 KV 为 {{ex:kv-per-token}}，再算一次 {{ex:kv-per-token}}。",
}
BEFORE = {
    "en": "FlashAttention reorders IO [@n04]. KV per token is {{ex:kv-per-token}}, from $L \\times 2 \\times H_{kv} \\times D_h \\times s$.",
    "zh": "FlashAttention 改写的是 IO 次序 [@n04]。每 token 的 KV 为 {{ex:kv-per-token}}，公式是 $L \\times 2 \\times H_{kv} \\times D_h \\times s$。",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory, chromium):
    from atlas_site.gates.browser import serve_folder

    root = make_project(tmp_path_factory.mktemp("marks"))
    edit(
        root / "book.yaml",
        "  - generated: bibliography\n",
        "  - generated: numbers\n  - generated: bibliography\n",
    )
    edit(root / "ledger/examples.md", '    seed: "000 §3.2"\n', '    seed: "000 §3.2"\n' + NOTE)
    for lang in ("en", "zh"):
        edit(root / f"content/{lang}/ch14/00-intro.md", BEFORE[lang], DENSE[lang])
    with serve_folder(built_cleanly(root, root / "_site")[1]) as url:
        yield url


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_citation_is_tight_in_its_brackets_with_a_24px_target(chromium, site, lang):
    page = chromium.new_page(**PHONE)
    page.goto(site + f"{lang}/ch14.html", wait_until="load")
    found = page.evaluate(
        """() => { const cites = [...document.querySelectorAll('article .cites')].find(c => c.querySelectorAll('a.cite').length === 2);
          const rect = node => { const r = document.createRange(); r.selectNodeContents(node); return r.getBoundingClientRect(); };
          const char = (node, at) => { const r = document.createRange(); r.setStart(node, at); r.setEnd(node, at + 1); return r.getBoundingClientRect(); };
          const [a, b] = cites.querySelectorAll('a.cite');
          const open = cites.firstChild, comma = a.nextSibling, close = b.nextSibling;
          return {gaps: [rect(a).left - char(open, open.length - 1).right, char(comma, 0).left - rect(a).right,
                         rect(b).left - char(comma, 0).right, char(close, 0).left - rect(b).right],
                  targets: [a, b].map(l => { const r = l.getBoundingClientRect(); return [r.width, r.height]; }),
                  text: cites.textContent}; }"""
    )
    assert found["text"] == "[N04, N27]"
    # "[", ", " and "]" sit where the text puts them: no padding opens a space around a label
    # (the comma's own space is the only gap, under 5 px at this size)
    gaps = found["gaps"]
    assert abs(gaps[0]) < 1 and abs(gaps[1]) < 1 and abs(gaps[3]) < 1 and gaps[2] < 5, f"gaps {gaps}"
    assert all(w >= 24 and h >= 24 for w, h in found["targets"]), f"targets {found['targets']}"
    assert not [p for p in target_problems(page)[1] if "a.cite" in p]
    page.close()


@pytest.mark.parametrize(
    "lang, label, note",
    [("en", "teaching assumption", "Teaching case: 32 layers"), ("zh", "教学假设", "教学例：32 层")],
)
def test_a_dashed_number_opens_its_card_and_is_not_a_terms_line(chromium, site, lang, label, note):
    page = chromium.new_page(**PHONE)
    address = site + f"{lang}/ch14.html"
    page.goto(address, wait_until="load")
    number = page.locator("article .ex-quiet a.ex-link").first
    assert page.locator("article .ex[title]").count() == 0, "the note moved from the tooltip to the card"
    number.tap()
    card = page.locator("#cite-card")
    card.wait_for(state="visible", timeout=5000)
    assert page.url == address, "the first tap opens the card, it does not leave the page"
    assert label in card.locator(".badge").inner_text()
    assert note in card.inner_text()
    assert card.locator("a.cite-card-link").get_attribute("href") == "numbers.html#ex-kv-per-token"
    assert card.locator(".cite-card-close").is_visible(), "on a phone it is a sheet that says how it closes"
    styles = page.evaluate(
        """() => ({number: getComputedStyle(document.querySelector('.ex-quiet .ex-value')).textDecorationStyle,
                   term: getComputedStyle(document.querySelector('dfn.term-def')).borderBottomStyle})"""
    )
    assert styles == {"number": "dashed", "term": "dotted"}
    page.close()
