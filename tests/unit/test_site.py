"""The real book: it builds without a single problem and every static gate passes."""

from __future__ import annotations

import datetime as dt

import pytest

from atlas_site.build import assemble
from conftest import ROOT

pytestmark = pytest.mark.book  # the Atlas itself, built whole: not the engine subset

AS_OF = dt.date(
    2026, 12, 1
)  # the release is judged on a pinned day, so the suite gives the same answer every day


@pytest.fixture(scope="module")
def site():
    return assemble(ROOT, release=True, as_of=AS_OF)


def test_real_site_has_no_problems(site):
    assert [str(p) for p in site.errors] == []


def test_the_profile_promises_hold(site):
    """The counts this book promises (book.yaml) and the rules of each part, with their figures."""
    lines = {r.name: r.line() for r in site.gate_reports}
    assert "21/21 rules hold" in lines["rules of ch14"] and "62/62 zh, 62/62 en" in lines["rules of ch14"]
    assert "93/93 zh, 93/93 en" in lines["rules of token-factory"]
    assert len(site.book.questions) == 18 and len(site.book.misconceptions) == 20


def test_registry_counts(site):
    registry = site.book.registry
    assert len(registry.nodes) == 62
    assert sorted(int(r[1:]) for r in registry.references) == [
        n for n in range(1, 101) if n not in (3, 9, 10, 71, 75, 76, 82)
    ]
    merged = {key: registry.numbers_of(key) for key in registry.works if len(registry.numbers_of(key)) > 1}
    assert merged["flashattention-2022"] == ("n04", "r42", "r89")
    assert len(registry.works) < 155


def test_every_teaching_number_is_computed(site):
    # figure series ("figure:<id>") and the labs' results for linked examples ("lab:<id>") live beside them
    examples = {key for key in site.computed if ":" not in key}
    assert examples == set(site.book.examples)
    assert {key[len("lab:") :] for key in site.computed if key.startswith("lab:")} == {
        e.id for e in site.book.examples.values() if e.lab is not None
    }, "every example linked to a lab was shown by it"
    assert {key[len("figure:") :] for key in site.computed if key.startswith("figure:")} == {
        f for f, spec in site.book.figures.items() if getattr(spec, "series", None)
    }


def test_the_book_is_in_step_and_its_evidence_is_dated(site):
    lines = {r.name: r.line() for r in site.gate_reports}
    assert "0 outdated, 0 missing, 0 new, 0 not yet in step" in lines["translations"]
    assert (
        f"{len(site.book.claims)} claims, 155 sources, 18 pages dated; 0 past due as of 2026-12-01"
        in lines["evidence freshness"]
    )


def test_what_was_read_only_in_part_keeps_its_scope_next_to_every_use(site):
    """The unresolved Cisco article and the rolling DeepSeek-V4.1-Flash model card: the claims resting on
    one carry its scope in their setting, and every citation card of either shows it."""
    page = site.output.text("en/tf-cluster.html")
    claim = page[page.index('data-claim="cisco-combined-throughput"') :]
    setting = claim[claim.index('<span class="claim-setting"') : claim.index('<span class="cites">')]
    assert "what was checked in [83]: An engineering description by Cisco itself" in setting
    assert (
        '<span class="claim-verified"> · verified <time datetime="2026-10-02">2026-10-02</time></span>'
        in setting
    )
    cards = site.output.text("assets/previews-zh.js")
    card = cards[cards.index('"r36":') :]
    card = card[: card.index("}") + 1]
    assert (
        '"verified":"核验于 2026-10-02 · 滚动更新的文档，复核更频繁"' in card
        and "机制只在模型卡层面概述" in card
    )
