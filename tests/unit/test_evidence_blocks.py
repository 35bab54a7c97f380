"""Quiet evidence labels (render/evidence_blocks.py): a paragraph or table holding several
worked-example numbers of one kind labels them once, every number still says its label to a screen
reader and names the note, a long unit is written once per block, and the settings gate fails on a
page where a number lost its label. Engine tests on the mini fixture book."""

from __future__ import annotations

import re

import pytest

from atlas_site.build import assemble
from atlas_site.gates import GateContext
from atlas_site.gates.claims import check_claims, example_labels
from conftest import edit

LONG = """  - id: kv-long
    kind: analytic
    fn: memory.kv_bytes_per_token
    args: {layers: 32, kv_heads: 8, head_dim: 128, kv_bits: 16}
    outputs:
      kib_per_token: {digits: 0, unit: {zh: "KiB 每 token 的缓存", en: "KiB of cache per token"}}
    expect: {kib_per_token: 128}
    seed: "000 §3.2"
"""
PARAGRAPH = {
    "en": "KV per token is {{ex:kv-per-token}}, from $L \\times 2 \\times H_{kv} \\times D_h \\times s$.",
    "zh": "每 token 的 KV 为 {{ex:kv-per-token}}，公式是 $L \\times 2 \\times H_{kv} \\times D_h \\times s$。",
}
DENSE = {
    "en": "KV per token is {{ex:kv-per-token}}, again {{ex:kv-per-token}} and once more {{ex:kv-per-token}}.",
    "zh": "每 token 的 KV 为 {{ex:kv-per-token}}，再算一次 {{ex:kv-per-token}}，第三次 {{ex:kv-per-token}}。",
}
MIXED = {
    "en": "A model gives {{ex:kv-long}}, B gives {{ex:kv-long}}, the teaching case {{ex:kv-per-token}}.",
    "zh": "模型 A 为 {{ex:kv-long}}，B 为 {{ex:kv-long}}，教学案例为 {{ex:kv-per-token}}。",
}
TABLE = {
    "en": "\n\n| Case | KV |\n|---|---|\n| A | {{ex:kv-per-token}} |\n| B | {{ex:kv-per-token}} |\n",
    "zh": "\n\n| 情形 | KV |\n|---|---|\n| A | {{ex:kv-per-token}} |\n| B | {{ex:kv-per-token}} |\n",
}


def _write(mini, text: dict, extra: dict | None = None) -> None:
    for lang in ("en", "zh"):
        edit(
            mini / f"content/{lang}/ch14/00-intro.md",
            PARAGRAPH[lang],
            text[lang] + (extra or {}).get(lang, ""),
        )


def _paragraph(html: str, needle: str) -> str:
    return next(m.group(0) for m in re.finditer(r"<p\b[^>]*>.*?</p>", html, re.S) if needle in m.group(0))


def test_one_teaching_number_keeps_its_own_label(mini):
    result = assemble(mini)
    html = result.output.text("en/ch14.html")
    assert html.count('<span class="ex" data-label="teaching_assumption"') == 1
    assert 'class="evidence-note' not in html and "ex-quiet" not in html


def test_a_paragraph_of_teaching_numbers_is_labelled_once(mini):
    _write(mini, DENSE)
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    for lang, words, note in (
        ("en", "teaching assumption", "Numbers in this paragraph: "),
        ("zh", "教学假设", "本段数字："),
    ):
        para = _paragraph(result.output.text(f"{lang}/ch14.html"), "ex-quiet")
        # no chip beside any of the three numbers; each names the note, which alone says the label,
        # to a screen reader too (review 30-f #11: hidden words after each number repeated it)
        assert para.count('class="ex ex-quiet" data-label="teaching_assumption" data-note="evn-1"') == 3
        assert "visually-hidden" not in para and para.count(words) == 1
        assert para.count('class="badge badge-ex"') == 1  # the note's
        assert re.search(
            rf'<span class="evidence-note" id="evn-1" data-label="teaching_assumption"[^>]*>{note}'
            rf'<span class="badge badge-ex"[^>]*>{words}</span></span></p>$',
            para,
        )
        # the key to the labels explains the dotted marker
        assert "ex-quiet-sample" in result.output.text(f"{lang}/ch14.html")
    report = next(r for r in result.gate_reports if r.name == "settings")
    assert (
        report.status != "FAIL" and "6 worked-example numbers labelled (6 once" in report.figures
    )  # en and zh


@pytest.mark.parametrize(
    "marks, after",
    [
        ({"en": ":", "zh": "："}, {"en": "\n\n- one\n- two\n", "zh": "\n\n- 一\n- 二\n"}),
        ({"en": ",", "zh": "，"}, {"en": "\n\n$$x = 1$$\n", "zh": "\n\n$$x = 1$$\n"}),
    ],
)
def test_a_paragraph_that_goes_on_into_a_list_or_formula_opens_with_its_note(mini, marks, after):
    """Review 30-f #6 and 30-h #5: "…all of the following: Numbers in this paragraph: teaching
    assumption", then the list; "with block size S and request length T, Numbers in this paragraph…",
    then the formula: the note at the end split the sentence from what it goes on into."""
    colon = {lang: DENSE[lang][:-1] + marks[lang] for lang in DENSE}
    _write(mini, colon, after)
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    for lang, note, end in (
        ("en", "Numbers in this paragraph: ", marks["en"]),
        ("zh", "本段数字：", marks["zh"]),
    ):
        para = _paragraph(result.output.text(f"{lang}/ch14.html"), "ex-quiet")
        assert re.search(rf'^<p[^>]*><span class="evidence-note" id="evn-1"[^>]*>{note}', para), para
        assert para.endswith(f"{end}</p>") and para.count('class="evidence-note"') == 1, para


def test_a_mixed_paragraph_labels_the_many_once_and_writes_a_long_unit_once(mini):
    examples = mini / "ledger/examples.md"
    edit(examples, "---\nA fixture example.", LONG + "---\nA fixture example.")
    _write(mini, MIXED)
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    para = _paragraph(result.output.text("en/ch14.html"), "ex-quiet")
    # the two analytic numbers are labelled once; the one teaching number keeps its chip
    assert para.count('data-label="analytic" data-note="evn-1"') == 2
    assert re.search(
        r'<span class="ex" data-label="teaching_assumption"[^>]*>.*?teaching assumption</span>', para
    )
    assert "Numbers in this paragraph not labelled otherwise: " in para
    # the unit of several words is written at the first number only
    assert para.count("KiB of cache per token") == 1
    assert '<span class="ex-value">128</span>' in para
    zh = _paragraph(result.output.text("zh/ch14.html"), "ex-quiet")
    assert "本段未另标注的数字：" in zh and zh.count("KiB 每 token 的缓存") == 1


def test_a_long_unit_is_written_again_in_the_next_sentence(mini):
    """Review 30-h #8: a long unit written once per paragraph left a number sentences later bare."""
    examples = mini / "ledger/examples.md"
    edit(examples, "---\nA fixture example.", LONG + "---\nA fixture example.")
    _write(
        mini,
        {
            "en": "A model gives {{ex:kv-long}}, B gives {{ex:kv-long}}. Later, C gives {{ex:kv-long}}.",
            "zh": "模型 A 为 {{ex:kv-long}}，B 为 {{ex:kv-long}}。后来，C 为 {{ex:kv-long}}。",
        },
    )
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    for lang, unit in (("en", "KiB of cache per token"), ("zh", "KiB 每 token 的缓存")):
        para = _paragraph(result.output.text(f"{lang}/ch14.html"), "ex-quiet")
        assert para.count(unit) == 2, para  # A's (B's is bare, in the same sentence) and C's


def test_a_table_of_teaching_numbers_says_its_label_in_its_caption(mini):
    _write(mini, PARAGRAPH, TABLE)
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    for lang, note in (("en", "Numbers in this table: "), ("zh", "本表数字：")):
        table = re.search(r"<table>.*?</table>", result.output.text(f"{lang}/ch14.html"), re.S).group(0)
        assert re.match(
            rf'<table>\n<caption class="evidence-note" id="evn-1" data-label="teaching_assumption"[^>]*>{note}',
            table,
        )
        assert table.count('class="ex ex-quiet"') == 2 and table.count('class="badge badge-ex"') == 1


@pytest.mark.parametrize(
    "break_it, expected",
    [
        # the note of the paragraph is gone: its numbers are left without a label
        (
            lambda html: re.sub(r'<span class="evidence-note".*?</span></span>', "", html, count=1),
            "number '128 KiB/token' is labelled once for its block, but no note on the page says 'teaching assumption'",
        ),
        # a quiet number says its label again to a screen reader, after the note has said it
        (
            lambda html: html.replace(
                '<span class="ex-value">128 KiB/token</span>',
                '<span class="ex-value">128 KiB/token</span><span class="visually-hidden"> (teaching assumption)</span>',
                1,
            ),
            "number '128 KiB/token' repeats to a screen reader the label its block's note gives",
        ),
        # a number written with its own chip lost it
        (
            lambda html: html.replace(
                'class="ex ex-quiet" data-label="teaching_assumption" data-note="evn-1"',
                'class="ex" data-label="teaching_assumption"',
                1,
            ),
            "number '128 KiB/token' shows no label 'teaching assumption'",
        ),
        # a number that names no label at all
        (
            lambda html: html.replace(' data-label="teaching_assumption" data-note="evn-1"', "", 1),
            "number '128 KiB/token' names no label (data-label)",
        ),
    ],
)
def test_the_settings_gate_fails_on_a_number_without_its_label(mini, break_it, expected):
    _write(mini, DENSE)
    result = assemble(mini)
    ctx = GateContext(result.book, result.parsed, result.output, result.manifest, result.rules)
    assert not check_claims(ctx).problems
    result.output._files["en/ch14.html"] = break_it(result.output.text("en/ch14.html")).encode()
    ctx = GateContext(result.book, result.parsed, result.output, result.manifest, result.rules)
    report = check_claims(ctx)
    assert report.status == "FAIL"
    assert [str(p) for p in report.problems][:1] == [
        f"_site/en/ch14.html: error[gate.claims.example-unlabelled]: en/ch14.html: {expected}"
    ]


def test_a_chip_without_its_label_fails_the_scan():
    labels = {"teaching_assumption": "teaching assumption"}
    good = (
        '<p><span class="ex" data-label="teaching_assumption"><span class="ex-value">1 GB</span> '
        '<span class="badge badge-ex" data-pagefind-ignore>teaching assumption</span></span></p>'
    )
    assert example_labels(good, labels) == (1, 0, [])
    bare = good.replace('<span class="badge badge-ex" data-pagefind-ignore>teaching assumption</span>', "")
    assert example_labels(bare, labels)[2] == ["number '1 GB' shows no label 'teaching assumption'"]


OWN_KIND = """  - id: kv-split
    kind: report-example
    fn: memory.kv_bytes
    args: {layers: 32, kv_heads: 8, head_dim: 128, kv_bits: 16, tokens: 1024, concurrency: 1}
    outputs:
      kib: {digits: 0, unit: {zh: "KiB", en: "KiB"}}
      gib: {digits: 4, unit: {zh: "GiB", en: "GiB"}, kind: analytic}
    seed: "000 §3.2"
"""


def test_an_output_of_its_own_kind_keeps_its_own_label(mini):
    """One computation, two kinds of number (a report's illustration and this book's arithmetic on
    it): each number carries its output's label, the block's note counts them apart, and the open
    data say which output differs."""
    import json

    edit(mini / "ledger/examples.md", "---\nA fixture example.", OWN_KIND + "---\nA fixture example.")
    _write(
        mini,
        {
            "en": "The report's {{ex:kv-split.kib}} and {{ex:kv-split.kib}}, our {{ex:kv-split.gib}}.",
            "zh": "报告的 {{ex:kv-split.kib}} 与 {{ex:kv-split.kib}}，本书的 {{ex:kv-split.gib}}。",
        },
    )
    result = assemble(mini)
    assert not result.errors, [str(p) for p in result.errors]
    html = _paragraph(result.output.text("en/ch14.html"), "The report")
    assert html.count('<span class="ex ex-quiet" data-label="report_example"') == 2
    assert html.count('<span class="ex" data-label="analytic">') == 1  # its own chip, not the note's
    data = json.loads(result.output.text("examples.json"))
    outputs = next(e for e in data["examples"] if e["id"] == "kv-split")["outputs"]
    assert outputs["gib"]["kind"] == "analytic" and "kind" not in outputs["kib"]


PHRASE = {
    "en": "KV per token comes to {{ex:kv-per-token}} of cache each, from $L \\times 2 \\times H_{kv} \\times D_h \\times s$."
    "\n\nA second one, {{ex:kv-per-token}} and then a clause that goes on and on without a single mark"
    " for far more than eighty characters before it ends.",
    "zh": "每 token 的 KV 为 {{ex:kv-per-token}}的缓存，公式是 $L \\times 2 \\times H_{kv} \\times D_h \\times s$。"
    "\n\n再算一次：{{ex:kv-per-token}}。",
}


def test_a_label_ends_the_numbers_phrase_instead_of_splitting_it(mini):
    """Review 30-u #10: "the total comes to 120 ms [teaching assumption] extra" split the phrase the
    number belongs to. The words that go on with it, up to the clause's punctuation, are written
    before the label; a clause that runs on past PHRASE_LONGEST keeps the label after its number."""
    _write(mini, PHRASE)
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    html = result.output.text("en/ch14.html")
    en, later = _paragraph(html, "of cache each"), _paragraph(html, "A second one")
    (first,) = re.findall(r'<span class="ex"[^>]*>.*?</span></span>', en)
    (second,) = re.findall(r'<span class="ex"[^>]*>.*?</span></span>', later)
    assert re.search(
        r"</span>(?:</a>)? of cache each <span class=\"badge badge-ex\"[^>]*>teaching assumption</span></span>, from",
        en,
    ), first
    assert "each of cache each" not in en and en.count("of cache each") == 1, "the words are written once"
    assert (
        re.search(r"</span>(?:</a>)? <span class=\"badge badge-ex\"", second)
        and "</span></span> and then a clause" in later
    )
    zh = _paragraph(result.output.text("zh/ch14.html"), "的缓存")
    assert re.search(r"的缓存 ?<span class=\"badge badge-ex\"[^>]*>教学假设</span></span>，", zh), zh
    assert zh.count("的缓存") == 1
