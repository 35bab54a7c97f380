"""The real book: it builds without a single problem and every static gate passes."""
from __future__ import annotations

import datetime as dt

import pytest

from atlas_site.build import assemble
from conftest import ROOT


AS_OF = dt.date(2026, 12, 1)  # the release is judged on a pinned day, so the suite gives the same answer every day


@pytest.fixture(scope="module")
def site():
    return assemble(ROOT, release=True, as_of=AS_OF)


def test_real_site_has_no_problems(site):
    assert [str(p) for p in site.errors] == []


def test_every_static_gate_passes(site):
    names = [r.name for r in site.gate_reports]
    assert names == ["citations", "settings", "forbidden statements", "links", "bilingual parity", "leads", "security",
                     "rules of the book", "rules of ch14", "rules of token-factory", "translations", "evidence freshness",
                     "release"], "; ".join(map(str, site.errors[:3]))
    assert [r.line() for r in site.gate_reports if r.status != "pass"] == []


def test_the_profile_promises_hold(site):
    """The counts this book promises (book.yaml) and the rules of each part, with their figures."""
    lines = {r.name: r.line() for r in site.gate_reports}
    assert "20/20 rules hold" in lines["rules of ch14"] and "62/62 zh, 62/62 en" in lines["rules of ch14"]
    assert "93/93 zh, 93/93 en" in lines["rules of token-factory"]
    assert len(site.book.questions) == 18 and len(site.book.misconceptions) == 20


def test_registry_counts(site):
    registry = site.book.registry
    assert len(registry.nodes) == 62
    assert sorted(int(r[1:]) for r in registry.references) == [n for n in range(1, 101) if n not in (3, 9, 10, 71, 75, 76, 82)]
    merged = {key: registry.numbers_of(key) for key in registry.works if len(registry.numbers_of(key)) > 1}
    assert merged["flashattention-2022"] == ("n04", "r42", "r89")
    assert len(registry.works) < 155


def test_every_teaching_number_is_computed(site):
    assert set(site.computed) == set(site.book.examples)
