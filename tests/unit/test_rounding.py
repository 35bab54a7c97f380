"""The build formats numbers exactly as the labs do: the shared vectors in
labs_js/tests/rounding-vectors.json (labs_js/tests/format.test.js reads the same file)."""

from __future__ import annotations

import json

import pytest

from atlas_site.resolve.number_format import format_number
from conftest import ROOT

VECTORS = json.loads((ROOT / "labs_js/tests/rounding-vectors.json").read_text(encoding="utf-8"))["vectors"]
SPECIAL = {"inf": float("inf"), "-inf": float("-inf"), "nan": float("nan"), "-0": -0.0}


def test_the_vectors_cover_the_cases_that_used_to_differ():
    assert len(VECTORS) >= 20
    assert [-12.345, 2, "−12.35"] in VECTORS and [-0.001, 2, "0.00"] in VECTORS


@pytest.mark.parametrize("value, digits, text", VECTORS, ids=[f"{v[0]}@{v[1]}" for v in VECTORS])
def test_python_formats_like_the_labs(value, digits, text):
    number = SPECIAL[value] if isinstance(value, str) else value
    assert format_number(number, digits) == text
