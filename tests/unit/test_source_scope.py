"""A source read only in part (a living document, or one whose address is unresolved, with a
`scope`): how far it was read travels with its evidence. The first claim resting on it on a page
says so in its setting, beside when it was verified, and the source's citation card says it at
every use; a fixed, resolved source with the same scope says nothing there."""

from __future__ import annotations

import json

from conftest import edit, run_cli

SCOPE = {"zh": "只读了摘要页", "en": "only the summary page was read"}


def _claim_on_r83(mini) -> None:
    edit(
        mini / "sources/references.yaml",
        "  url_status: unresolved\n",
        f'  url_status: unresolved\n  scope: {{zh: "{SCOPE["zh"]}", en: "{SCOPE["en"]}"}}\n',
    )
    claims = mini / "ledger/claims.md"
    text = claims.read_text(encoding="utf-8")
    claim = (
        "  - id: vendor-throughput\n    kind: author-reported\n    source: r83\n    value: 1.5\n"
        '    unit: "×"\n    text: {zh: "吞吐 1.5×", en: "1.5× throughput"}\n'
        '    setting: {zh: "厂商自己的测试。", en: "The vendor\'s own test."}\n'
        '    seed: "004 [83]"\n    verified: 2026-10-02\n'
    )
    claims.write_text(
        text.replace("---\nA fixture claim.", claim + "---\nA fixture claim.", 1), encoding="utf-8"
    )
    for lang, sentence in (
        ("zh", "厂商报告 {{claim:vendor-throughput}}。"),
        ("en", "A vendor reports {{claim:vendor-throughput}}."),
    ):
        page = mini / f"content/{lang}/ch14/00-intro.md"
        page.write_text(page.read_text(encoding="utf-8") + f"\n{sentence}\n", encoding="utf-8")


def _setting(html: str, claim: str) -> str:
    at = html[html.index(f'data-claim="{claim}"') :]
    return at[at.index('<span class="claim-setting"') : at.index('<span class="cites">')]


def _card(site, lang: str, key: str) -> dict:
    text = (site / f"assets/previews-{lang}.js").read_text(encoding="utf-8")
    data = json.loads(text[text.index("{") : text.rindex("}") + 1])
    return next(card for name, card in _cards(data) if name == key)


def _cards(data):
    for name, value in data.items():
        if isinstance(value, dict) and ("verified" in value or "scope" in value):
            yield name, value
        elif isinstance(value, dict):
            yield from _cards(value)


def test_a_source_read_in_part_says_how_far_beside_its_claim_and_in_its_card(mini):
    _claim_on_r83(mini)
    built = run_cli("build", "--no-search", cwd=mini)
    assert built.returncode == 0, built.stdout + built.stderr
    site = mini / "_site"
    for lang, said in (
        ("zh", "[83] 来源说明：" + SCOPE["zh"]),
        ("en", "about the source [83]: " + SCOPE["en"]),
    ):
        setting = _setting((site / f"{lang}/ch14.html").read_text(encoding="utf-8"), "vendor-throughput")
        assert said in setting, setting
        assert '<time datetime="2026-10-02">2026-10-02</time>' in setting
        card = _card(site, lang, "r83")
        assert card["scope"].endswith(SCOPE[lang]), card
        assert SCOPE[lang] in (site / f"{lang}/bibliography.html").read_text(encoding="utf-8")
    # the same scope on a resolved, fixed document: its text can be checked later, so nothing is said
    edit(mini / "sources/references.yaml", "  url_status: unresolved\n", "  url_status: known\n")
    edit(
        mini / "sources/works.bib",
        "  howpublished = {blog article}",
        "  howpublished = {blog article},\n  url = {https://example.org/vendor}",
    )
    rebuilt = run_cli("build", "--no-search", cwd=mini)
    assert rebuilt.returncode == 0, rebuilt.stdout + rebuilt.stderr
    setting = _setting((site / "en/ch14.html").read_text(encoding="utf-8"), "vendor-throughput")
    assert "about the source" not in setting, setting
    # nor on its card or in the bibliography (review 30-l #1: notes on how each paper was read)
    for lang in ("zh", "en"):
        assert _card(site, lang, "r83").get("scope") is None
        assert SCOPE[lang] not in (site / f"{lang}/bibliography.html").read_text(encoding="utf-8")
