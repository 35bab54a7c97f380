"""Each static gate passes on the fixture and fails on a small break of it, located."""
from __future__ import annotations

from pathlib import Path

import pytest

from atlas_site.build import assemble
from conftest import edit


def gate(result, name: str):
    return next(r for r in result.gate_reports if r.name == name)


def test_static_gates_pass_on_the_fixture(mini):
    result = assemble(mini)
    assert not result.errors, "\n".join(map(str, result.errors))
    assert {r.name for r in result.gate_reports} >= {"citations", "settings", "terms", "forbidden statements", "structure (§24)",
                                                     "links", "bilingual parity", "leads", "security", "release"}
    assert all(r.status != "FAIL" for r in result.gate_reports)


BREAKS = [
    # gate, file, old, new, expected start of the diagnostic
    ("settings", "content/zh/ch14/00-intro.md", "{{term:goodput}} 只计算", "{{term:goodput}} 比基线快 7.4× 只计算",
     "content/zh/ch14/00-intro.md:15:45: error[gate.claims.bare-multiplier]: bare multiplier '7.4×' outside a claim"),
    ("settings", "content/en/ch14/00-intro.md", "counts from arrival.", "counts from arrival and improves throughput by 75%.",
     "content/en/ch14/00-intro.md:15:62: error[gate.claims.bare-percentage]: percentage change '75%' outside a claim"),
    ("forbidden statements", "content/en/ch14/00-intro.md", "FlashAttention reorders IO", "PagedAttention has zero fragmentation. FlashAttention reorders IO",
     "content/en/ch14/00-intro.md:17:1: error[gate.forbidden.statement]: 'PagedAttention has zero fragmentation' states misconception m07 outside a misconception block"),
    ("bilingual parity", "content/en/ch14/00-intro.md", "## Service metrics {#q1}", "## Service metrics {#metrics}",
     "content/en/ch14/00-intro.md:1:1: error[gate.parity.sections]: ch14: section ids of zh and en differ: q1, metrics"),
    ("bilingual parity", "content/en/ch14/00-intro.md", "reorders IO [@n04]", "reorders IO [@r42]",
     "content/en/ch14/00-intro.md:1:1: error[gate.parity.uses]: ch14 §q1: only in zh: cite:n04; only in en: cite:r42"),
    ("links", "content/en/ch14/00-intro.md", "see [metrics](#q1)", "see [metrics](#q99)",
     "_site/en/ch14.html: error[gate.links.anchor]: en/ch14.html: link to missing anchor #q99"),
    ("links", "content/zh/ch14/00-intro.md", "见[服务指标](#q1)", "见[服务指标](https://example.com/x)",
     "_site/zh/ch14.html: error[gate.links.not-registry]: zh/ch14.html: external link is not a registry URL: https://example.com/x"),
]


@pytest.mark.parametrize("name, path, old, new, expected", BREAKS, ids=[b[4].split("error[")[1].split("]")[0] for b in BREAKS])
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
        "content/en/ch14/00-intro.md:17:28: error[lead.cited]: 'fairness-serving' is a candidate lead (unverified); prose may cite only formal sources"]


def test_security_gate_catches_inline_script_and_loose_csp(mini):
    result = assemble(mini)
    from atlas_site.gates import GateContext
    from atlas_site.gates.security import check_security

    page = "en/ch14.html"
    html = result.output.text(page).replace("</main>", '<script>alert(1)</script><a href="#" onclick="x()">x</a></main>')
    html = html.replace("script-src &#39;self&#39;", "script-src &#39;self&#39; &#39;unsafe-inline&#39;")
    result.output._files[page] = html.encode()
    report = check_security(GateContext(result.book, result.parsed, result.output))
    lines = [str(p) for p in report.problems]
    assert "_site/en/ch14.html: error[gate.security.inline-script]: en/ch14.html: inline <script> body" in lines
    assert "_site/en/ch14.html: error[gate.security.handler]: en/ch14.html: <a onclick=…> event handler attribute" in lines
    assert any("CSP directive too loose: script-src 'self' 'unsafe-inline'" in line for line in lines)


def test_release_flag_fails_while_a_page_is_draft(mini):
    report = gate(assemble(mini, release=True), "release")
    assert report.status == "FAIL"
    assert "0/2 pages published" in report.figures


def test_published_chapter_enforces_content_gates(mini):
    for lang in ("zh", "en"):
        edit(mini / f"content/{lang}/ch14/00-intro.md", "status: draft", "status: published")
    result = assemble(mini)
    assert gate(result, "structure (§24)").status == "FAIL"
    assert gate(result, "terms").status == "FAIL"  # tpot, e2e-latency, throughput are not in the fixture glossary


def test_citation_gate_counts_nodes_cited_in_prose_only(mini):
    for lang in ("zh", "en"):
        edit(mini / f"content/{lang}/ch14/00-intro.md", "status: draft", "status: published")
    edit(mini / "content/en/ch14/00-intro.md", "FlashAttention reorders IO [@n04].", "FlashAttention reorders IO.")
    edit(mini / "content/zh/ch14/00-intro.md", "FlashAttention 改写的是 IO 次序 [@n04]。", "FlashAttention 改写的是 IO 次序。")
    report = gate(assemble(mini), "citations")
    assert report.status == "FAIL"
    assert "zh 1/2 formal nodes cited in Chapter 14 prose, en 1/2" in report.figures
    assert sorted(str(p) for p in report.problems)[:2] == [
        "content/en/ch14/00-intro.md:1:1: error[gate.citations.node-uncited]: en: formal nodes not cited in the prose: n04",
        "content/zh/ch14/00-intro.md:1:1: error[gate.citations.node-uncited]: zh: formal nodes not cited in the prose: n04",
    ]
