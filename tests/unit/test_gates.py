"""Each static gate passes on the fixture and fails on a small break of it, located."""

from __future__ import annotations

import json
import re

import pytest

from atlas_site.build import assemble
from conftest import edit


def publish(project, lang: str) -> None:
    """A published page needs a description: it takes the line of the short title, so the line
    numbers the tests expect stay as they are."""
    page = project / f"content/{lang}/ch14/00-intro.md"
    edit(page, "status: draft", "status: published")
    text = page.read_text(encoding="utf-8")
    page.write_text(
        re.sub(r"^short_title: .*$", 'description: "A published page."', text, count=1, flags=re.M),
        encoding="utf-8",
    )


def gate(result, name: str):
    return next(r for r in result.gate_reports if r.name == name)


def test_static_gates_pass_on_the_fixture(mini):
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    assert {r.name for r in result.gate_reports} == {
        "citations",
        "settings",
        "forbidden statements",
        "links",
        "bilingual parity",
        "leads",
        "security",
        "images",
        "scripts",
        "open data",
        "terms",
        "figure drawings",
        "rules of the book",
        "rules of ch14",
        "translations",
        "evidence freshness",
        "release",
        "Chinese typography",
    }
    assert all(r.status != "FAIL" for r in result.gate_reports)


BREAKS = [
    # gate, file, old, new, expected start of the diagnostic
    (
        "settings",
        "content/zh/ch14/00-intro.md",
        "{{term:goodput}} 只计算",
        "{{term:goodput}} 比基线快 7.4× 只计算",
        "content/zh/ch14/00-intro.md:15:45: error[gate.claims.bare-multiplier]: bare multiplier '7.4×' outside a claim",
    ),
    (
        "settings",
        "content/en/ch14/00-intro.md",
        "counts from arrival.",
        "counts from arrival and improves throughput by 75%.",
        "content/en/ch14/00-intro.md:15:62: error[gate.claims.bare-percentage]: percentage change '75%' outside a claim",
    ),
    (
        "settings",  # a claim's value typed as plain prose beside its cited source (review 30-z4 #1)
        "content/en/ch14/00-intro.md",
        "counts from arrival.",
        "counts from arrival; DistServe [@n27] reaches 7.4 at best.",
        "content/en/ch14/00-intro.md:15:61: error[gate.claims.bare-value]: '7.4' is the value of claim "
        "distserve-goodput, typed bare beside its source",
    ),
    (
        "forbidden statements",
        "content/en/ch14/00-intro.md",
        "FlashAttention reorders IO",
        "PagedAttention has zero fragmentation. FlashAttention reorders IO",
        "content/en/ch14/00-intro.md:17:1: error[gate.forbidden.statement]: 'PagedAttention has zero fragmentation' states misconception m07 outside a misconception block",
    ),
    (
        "bilingual parity",
        "content/en/ch14/00-intro.md",
        "## Questions {#questions}\n\n{{question-cards}}\n\n## Service metrics {#q1}",
        "## Service metrics {#q1}\n\n## Questions {#questions}\n\n{{question-cards}}",
        "content/en/ch14/00-intro.md:9:1: error[gate.parity.sections]: ch14: section 'q1' is in a different place in en than in zh",
    ),
    (
        "bilingual parity",
        "content/en/ch14/00-intro.md",
        "reorders IO [@n04]",
        "reorders IO [@r42]",
        "content/en/ch14/00-intro.md:17:28: error[gate.parity.uses]: ch14 §q1: cite:r42 is in en but not in zh",
    ),
    (
        "bilingual parity",
        "content/en/ch14/00-intro.md",
        "reorders IO [@n04]",
        "reorders IO [@r42]",
        "content/zh/ch14/00-intro.md:17:27: error[gate.parity.uses]: ch14 §q1: cite:n04 is in zh but not in en",
    ),
    (
        "bilingual parity",  # a formula placed in one language only: the blocks after it are out of step
        "content/en/ch14/00-intro.md",
        "## Service metrics {#q1}\n\n",
        "## Service metrics {#q1}\n\n$$a = b$$\n\n",
        "_site/en/ch14.html: error[gate.parity.order]: zh/ch14.html places table-scroll after paragraph q1.2, en/ch14.html places math-block after (the section top)",
    ),
    (
        "bilingual parity",  # a term defined on one twin and written as plain words on the other
        "content/en/ch14/00-intro.md",
        "Both rest on {{term:io}} and",
        "Both rest on input/output and",
        "content/zh/ch14/00-intro.md:15:99: error[gate.parity.uses]: ch14: term:io is on the zh page but not on its en twin",
    ),
    (
        "links",
        "content/en/ch14/00-intro.md",
        "see [metrics](#q1)",
        "see [metrics](#q99)",
        "content/en/ch14/00-intro.md:20:98: error[gate.links.anchor]: en/ch14.html: link to missing anchor #q99",
    ),
    (
        "links",
        "content/zh/ch14/00-intro.md",
        "见[服务指标](#q1)",
        "见[服务指标](https://example.com/x)",
        "content/zh/ch14/00-intro.md:20:",
    ),
]


@pytest.mark.parametrize(
    "name, path, old, new, expected", BREAKS, ids=[f"{b[0]}-{i}" for i, b in enumerate(BREAKS)]
)
def test_gate_fails_on_a_break_with_its_location(mini, name, path, old, new, expected):
    edit(mini / path, old, new)
    result = assemble(mini)
    report = gate(result, name)
    assert report.status == "FAIL"
    lines = [str(p) for p in report.problems]
    assert any(line.startswith(expected) for line in lines), "\n".join(lines)


def test_citing_a_lead_is_refused(mini):
    edit(mini / "content/en/ch14/00-intro.md", "[@n04]", "[@fairness-serving]")
    result = assemble(mini)
    assert [str(e) for e in result.errors if e.code == "lead.cited"] == [
        "content/en/ch14/00-intro.md:17:28: error[lead.cited]: 'fairness-serving' is a candidate lead (unverified); prose may cite only formal sources"
    ]


def test_security_gate_catches_inline_script_and_loose_csp(mini):
    result = assemble(mini)
    from atlas_site.gates import GateContext
    from atlas_site.gates.security import check_security

    page = "en/ch14.html"
    html = result.output.text(page).replace(
        "</main>", '<script>alert(1)</script><a href="#" onclick="x()">x</a></main>'
    )
    html = html.replace("script-src &#39;self&#39;", "script-src &#39;self&#39; &#39;unsafe-inline&#39;")
    result.output._files[page] = html.encode()
    report = check_security(GateContext(result.book, result.parsed, result.output))
    lines = [str(p) for p in report.problems]
    assert (
        "_site/en/ch14.html: error[gate.security.inline-script]: en/ch14.html: inline <script> body" in lines
    )
    assert (
        "_site/en/ch14.html: error[gate.security.handler]: en/ch14.html: <a onclick=…> event handler attribute"
        in lines
    )
    assert any("CSP directive too loose: script-src 'self' 'unsafe-inline'" in line for line in lines)


def test_release_flag_fails_while_a_page_is_draft(mini):
    report = gate(assemble(mini, release=True), "release")
    assert report.status == "FAIL"
    assert "0/2 pages published" in report.figures


def test_rules_on_a_draft_are_pending_and_enforced_once_published(mini):
    edit(mini / "book.yaml", "      - sections: [questions, q1]", "      - sections: [questions, q1, q2]")
    report = gate(assemble(mini), "rules of ch14")
    assert report.status == "pending" and "pending on draft pages" in report.figures
    for lang in ("zh", "en"):
        publish(mini, lang)
    report = gate(assemble(mini), "rules of ch14")
    assert report.status == "FAIL"
    assert (
        "content/en/ch14/00-intro.md:1:1: error[rule.sections]: en/ch14: no section 'q2' (rule at book.yaml:19:9) (hint: add a heading ending with {#q2})"
        in [str(p) for p in report.problems]
    )


def test_cites_all_counts_nodes_cited_in_prose_only(mini):
    for lang in ("zh", "en"):
        publish(mini, lang)
    edit(
        mini / "content/en/ch14/00-intro.md",
        "FlashAttention reorders IO [@n04].",
        "FlashAttention reorders IO.",
    )
    report = gate(assemble(mini), "rules of ch14")
    assert report.status == "FAIL"
    assert "every node cited 2/2 zh, 1/2 en" in report.figures
    assert [str(p) for p in report.problems] == [
        "content/en/ch14/00-intro.md:1:1: error[rule.cites_all]: en: 1 of 2 nodes not cited in the prose of ch14: n04 "
        "(rule at book.yaml:21:9) (hint: defined n04 at sources/nodes.yaml:1:3)"
    ]


def test_terms_before_use_points_at_the_early_mention(mini):
    """The column is the source line's: a heading's '## ' (like a list's '- ' or a table's '| ')
    stands before the text markdown-it hands on (it said 13:21 before review 30-k's locations)."""
    for lang in ("zh", "en"):
        publish(mini, lang)
    edit(
        mini / "content/en/ch14/00-intro.md", "## Service metrics {#q1}", "## Service metrics and TTFT {#q1}"
    )
    report = gate(assemble(mini), "rules of ch14")
    assert [str(p) for p in report.problems] == [
        "content/en/ch14/00-intro.md:13:24: error[rule.terms_before_use]: en: 'TTFT' is mentioned before {{term:ttft}} defines it (rule at book.yaml:20:9)"
    ]


def test_the_gates_read_claim_markup_links_and_ids_from_each_page(mini):
    """What the HTML index keeps of a page is all the claims, links, parity and citations gates
    need: a claim without its label, a language switch gone, an external link without its rel
    and a bibliography entry without its id are each reported, at the page."""
    import re

    from atlas_site.gates import GateContext
    from atlas_site.gates.citations import check_citations
    from atlas_site.gates.claims import check_claims
    from atlas_site.gates.links import check_links
    from atlas_site.gates.parity import check_parity

    result = assemble(mini)
    chapter = (
        result.output.text("en/ch14.html")
        .replace("badge-claim", "badge", 1)
        .replace(" data-lang-switch", "", 1)
    )
    bibliography = result.output.text("en/bibliography.html").replace(
        'rel="noopener noreferrer"', 'rel="noopener"', 1
    )
    entry = re.search(r'id="(src-[^"]+)"', bibliography).group(1)
    bibliography = bibliography.replace(f'id="{entry}"', 'id="gone"', 1)
    result.output._files["en/ch14.html"] = chapter.encode()
    result.output._files["en/bibliography.html"] = bibliography.encode()
    ctx = GateContext(result.book, result.parsed, result.output, result.manifest, result.rules)
    lines = [
        str(p)
        for gate in (check_claims, check_links, check_parity, check_citations)
        for p in gate(ctx).problems
    ]
    key = entry.removeprefix("src-")
    assert lines == [
        "_site/en/ch14.html: error[gate.claims.unlabelled]: en/ch14.html: claim 'distserve-goodput' shows no label",
        '_site/en/bibliography.html: error[gate.links.rel]: en/bibliography.html: external link lacks rel="noopener noreferrer": '
        "https://arxiv.org/abs/2205.14135",
        f"_site/en/ch14.html: error[gate.links.anchor]: en/ch14.html: link to missing anchor bibliography.html#{entry}",
        "_site/en/ch14.html: error[gate.parity.switch]: en/ch14: the language switch should point to ../zh/ch14.html, found []",
        f"_site/en/bibliography.html: error[gate.citations.no-entry]: en/bibliography.html: no bibliography entry for '{key}'",
    ]


def test_a_claim_or_example_link_without_its_permalink_row_fails_the_links_gate(mini):
    """The prose links each claim and worked example to its row on the numbers page; a row that is
    gone (renamed id, page not generated) is a dangling permalink, reported at the chapter."""
    import re

    from atlas_site.gates import GateContext
    from atlas_site.gates.links import check_links

    edit(
        mini / "book.yaml",
        "  - generated: bibliography\n",
        "  - generated: bibliography\n  - generated: numbers\n",
    )
    result = assemble(mini)
    ctx = GateContext(result.book, result.parsed, result.output, result.manifest, result.rules)
    assert not [p for p in check_links(ctx).problems if p.code == "gate.links.anchor"]
    chapter = result.output.text("en/ch14.html")
    targets = re.findall(r'href="numbers\.html#((?:claim|ex)-[a-z0-9-]+)"', chapter)
    assert any(t.startswith("claim-") for t in targets) and any(t.startswith("ex-") for t in targets)
    numbers = result.output.text("en/numbers.html")
    for target in targets:
        numbers = numbers.replace(f'id="{target}"', 'id="gone"')
    result.output._files["en/numbers.html"] = numbers.encode()
    ctx = GateContext(
        result.book, result.parsed, result.output, result.manifest, result.rules
    )  # a fresh index
    missing = {
        p.message.rpartition("#")[2] for p in check_links(ctx).problems if p.code == "gate.links.anchor"
    }
    assert missing == set(targets)


def test_example_and_boundary_names_each_section_missing_either(mini):
    """Issue 30: q16 and q17 had no "where this stops holding" paragraph and q5 no worked example;
    the rule kind names, at the section's heading, what each listed section lacks."""
    for lang in ("zh", "en"):
        publish(mini, lang)
    edit(
        mini / "book.yaml",
        "      - cites_all: nodes\n",
        "      - cites_all: nodes\n      - example_and_boundary: {sections: [q1], boundary: {zh: 边界, en: Where this stops holding}}\n",
    )
    report = gate(assemble(mini), "rules of ch14")
    assert [str(p) for p in report.problems] == [
        f"content/{lang}/ch14/00-intro.md:13:1: error[rule.example_and_boundary]: {lang}: section 'q1' has no boundary "
        f"paragraph (one beginning '{word}') (rule at book.yaml:22:9)"
        for lang, word in (("zh", "边界"), ("en", "Where this stops holding"))
    ]
    edit(
        mini / "content/en/ch14/00-intro.md",
        "FlashAttention reorders IO [@n04].",
        "**Where this stops holding.** Counts are per request.\n\nFlashAttention reorders IO [@n04].",
    )
    edit(
        mini / "content/zh/ch14/00-intro.md",
        "FlashAttention 改写的是 IO 次序 [@n04]。",
        "**边界。** 只按单个请求计。\n\nFlashAttention 改写的是 IO 次序 [@n04]。",
    )
    assert gate(assemble(mini), "rules of ch14").problems == []
    edit(mini / "content/en/ch14/00-intro.md", "KV per token is {{ex:kv-per-token}}", "KV per token is small")
    assert [str(p) for p in gate(assemble(mini), "rules of ch14").problems] == [
        "content/en/ch14/00-intro.md:13:1: error[rule.example_and_boundary]: en: section 'q1' has no worked example "
        "(rule at book.yaml:22:9) (hint: add {{ex:ID.OUTPUT}} from ledger/examples.md)"
    ]


def test_example_and_boundary_without_boundary_words_asks_only_for_the_worked_example(mini):
    """Review 30-z5 #10: the tutorial's mechanism sections write their boundaries in the flow of the
    text; listed without `boundary`, a section needs its worked example and nothing else."""
    for lang in ("zh", "en"):
        publish(mini, lang)
    edit(
        mini / "book.yaml",
        "      - cites_all: nodes\n",
        "      - cites_all: nodes\n      - example_and_boundary: {sections: [q1]}\n",
    )
    assert gate(assemble(mini), "rules of ch14").problems == [], "no boundary words: no boundary asked for"
    edit(mini / "content/zh/ch14/00-intro.md", "{{ex:kv-per-token}}", "很少")
    assert [str(p) for p in gate(assemble(mini), "rules of ch14").problems] == [
        "content/zh/ch14/00-intro.md:13:1: error[rule.example_and_boundary]: zh: section 'q1' has no worked example "
        "(rule at book.yaml:22:9) (hint: add {{ex:ID.OUTPUT}} from ledger/examples.md)"
    ]


def test_a_labs_shown_number_is_compared_with_its_model_at_the_digits_it_shows():
    """gates/labs.py's comparison: digits, percent, a duration shown in another unit, labels,
    infinity; a number off by more than half its last digit is named with both values."""
    from atlas_site.gates.labs import shown_differences

    contract = {
        "outputs": [
            {"name": "gib", "digits": 2},
            {"name": "share", "percent": True, "digits": 1},
            {"name": "wait", "duration": True, "digits": 0},
            {"name": "status", "labels": ["FIT", "OOM"]},
            {"name": "rate", "digits": 0},
        ]
    }
    labels = {"status": {"FIT": "fits", "OOM": "out of memory"}}
    state = {
        "outputs": {"gib": "14.90 GiB", "share": "12.5%", "wait": "14.4 s", "status": "fits", "rate": "∞"},
        "units": {"wait": "s"},
    }
    model = {"gib": 14.9011, "share": 0.125, "wait": 14400.0, "status": "FIT", "rate": None}
    assert shown_differences(contract, state, labels, model) == []
    infinite = {**model, "rate": {"$nonfinite": "Infinity"}}  # as compute.js sends it
    assert shown_differences(contract, state, labels, infinite) == []
    off = {**model, "gib": 14.92, "share": 0.1262, "wait": 14460.0, "status": "OOM", "rate": 3.0}
    assert shown_differences(contract, state, labels, off) == [
        "gib: page '14.90 GiB', model 14.92",
        "share: page '12.5%', model 0.1262",
        "wait: page '14.4 s', model 14460.0",
        "status: page 'fits', model 'out of memory'",
        "rate: page '∞', model 3.0",
    ]


def test_a_claims_text_may_round_a_long_value_to_its_shown_digits(mini):
    """A source that records more digits than a reader needs (a benchmark table's 83.43465835281891):
    `shown_digits` rounds what the text must show; the data keeps every digit, and a text that rounds
    otherwise still fails."""
    claims = mini / "ledger/claims.md"
    text = claims.read_text(encoding="utf-8")
    claims.write_text(
        text.replace("    value: 7.4\n", "    value: 7.4123\n    shown_digits: 1\n", 1), encoding="utf-8"
    )
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    (claim,) = [
        c for c in json.loads(result.output.text("claims.json"))["claims"] if c["id"] == "distserve-goodput"
    ]
    assert claim["value"] == 7.4123 and "7.4" in claim["text"]["en"]
    claims.write_text(
        text.replace("    value: 7.4\n", "    value: 7.4123\n    shown_digits: 2\n", 1), encoding="utf-8"
    )
    lines = [str(p) for p in assemble(mini).errors]
    assert any(
        "error[gate.claims.text-value]: claim 'distserve-goodput': text.en does not show its value 7.41"
        in line
        for line in lines
    ), lines


def test_a_claim_or_example_no_reader_meets_is_a_located_warning(mini):
    """An entry of the ledger used by no page, figure or lab (review 30-g D11: an example was
    published in examples.json and listed nowhere a reader could find it)."""
    edit(
        mini / "ledger" / "examples.md",
        '    seed: "000 §3.2"\n',
        '    seed: "000 §3.2"\n'
        "  - id: kv-unread\n"
        "    kind: teaching-assumption\n"
        "    fn: memory.kv_bytes_per_token\n"
        "    args: {layers: 16, kv_heads: 8, head_dim: 128, kv_bits: 16}\n"
        "    outputs:\n"
        '      kib_per_token: {digits: 0, unit: {zh: "KiB/token", en: "KiB/token"}}\n'
        '    seed: "000 §3.2"\n',
    )
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    unused = [str(p) for p in gate(result, "settings").problems if p.code == "gate.claims.unused"]
    assert len(unused) == 1 and re.match(
        r"ledger/examples\.md:\d+:\d+: warning\[gate\.claims\.unused\]: worked example 'kv-unread' is used by "
        r"no page, figure or lab",
        unused[0],
    ), unused
    assert gate(result, "settings").status != "FAIL"


def test_a_link_that_names_its_section_by_a_title_it_does_not_have_fails_the_links_gate(mini):
    """30-i #8: “[Fleet：…](#q17)”一节 quoted a title the zh heading does not have (the link still
    landed). A quoted link, or one beside the word "section", must carry the heading's title or its
    short form before a colon, in any letter case."""
    edit(mini / "content/zh/ch14/00-intro.md", "见[服务指标](#q1)", "见“[Service metrics](#q1)”一节")
    edit(mini / "content/en/ch14/00-intro.md", "see [metrics](#q1)", "see the [service metrics](#q1) section")
    report = gate(assemble(mini), "links")
    lines = [str(p) for p in report.problems]
    assert lines == [
        "content/zh/ch14/00-intro.md:20:58: error[gate.links.title]: the link names its section "
        "'Service metrics', but #q1 is titled '服务指标' (hint: quote the heading as it is written "
        "(or its part before the colon), or drop the quotation marks)"
    ], lines
    assert "2 quoting their section's title" in report.figures
    edit(mini / "content/zh/ch14/00-intro.md", "“[Service metrics](#q1)”", "“[服务指标](#q1)”")
    assert gate(assemble(mini), "links").status == "pass"
