"""The real site in Chromium: every browser gate passes on every page of both languages."""
from __future__ import annotations

import pytest

from atlas_site.gates.browser import run_browser_gates


@pytest.fixture(scope="module")
def browser_reports(real_book, chromium):
    result = real_book
    rules = [r for r in result.rules if r.browser]
    assert len(rules) == 2, "book.yaml declares the first-screen and lab-tab rules of Chapter 14"
    return {r.name: r for r in run_browser_gates(result.output, rules, result.book.languages, browser=chromium)}


@pytest.mark.parametrize("gate", ["390 px", "first screen", "lab tabs", "offline", "language switch", "figure layout"])
def test_browser_gate_passes(browser_reports, gate):
    report = browser_reports[gate]
    assert report.status == "pass", report.line() + "\n" + "\n".join(map(str, report.problems))
