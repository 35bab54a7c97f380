"""The real book: it builds without a single problem and every static gate passes."""
from __future__ import annotations

import pytest

from atlas_site.build import assemble
from conftest import ROOT


@pytest.fixture(scope="module")
def site():
    return assemble(ROOT, release=True)


def test_real_site_has_no_problems(site):
    assert [str(p) for p in site.errors] == []


def test_every_static_gate_passes(site):
    assert len(site.gate_reports) == 12, "the gates did not run: " + "; ".join(map(str, site.errors[:3]))
    assert [r.line() for r in site.gate_reports if r.status != "pass"] == []


def test_registry_counts(site):
    registry = site.book.registry
    assert len(registry.nodes) == 62
    assert sorted(int(r[1:]) for r in registry.references) == [n for n in range(1, 101) if n not in (3, 9, 10, 71, 75, 76, 82)]
    merged = {key: registry.numbers_of(key) for key in registry.works if len(registry.numbers_of(key)) > 1}
    assert merged["flashattention-2022"] == ("n04", "r42", "r89")
    assert len(registry.works) < 155


def test_every_teaching_number_is_computed(site):
    assert set(site.computed) == set(site.book.examples)
