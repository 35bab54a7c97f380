"""The figure checks can fail, on the reader's fixture book (tests/projects/reader): a cramped
figure and a label on an arrow are named. Every figure of every page is checked by `check --browser` (gates/browser_walk.py: at 390 px the text size,
boxes, overlaps and ink; at 1280 px the same but the size, the width in the column, the scale and
the contrast in both colour schemes), so no test here walks the book's figures."""

from __future__ import annotations

import pytest

from atlas_site.gates.figure_layout import (
    figure_ink_problems,
    figure_layout_problems,
    figure_scale_problems,
    figure_width_problems,
)


@pytest.fixture(scope="module")
def site(reader_site):
    return reader_site  # the reader's fixture book: its figure serving-stack is on ch1


def _open(site, path, width, scheme="light"):
    context = site["browser"].new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.goto(site["base"] + path)
    return context, page


def test_the_checks_fail_on_a_cramped_figure(site):
    """The size and width checks are not vacuous: a figure of small text shown narrow fails both."""
    context, page = _open(site, "en/ch1.html", 1280)
    try:
        page.evaluate("""() => {
            const fig = document.querySelector('[data-figure]:not(figure)');
            fig.style.width = '200px';
            fig.querySelector('svg text').setAttribute('font-size', '6');
        }""")
        assert any("text column" in p for p in figure_width_problems(page))
        assert any("renders at" in p for p in figure_layout_problems(page))
        page.evaluate(
            "() => { document.querySelector('[data-figure]:not(figure)').style.width = '1000px'; "
            "document.querySelector('[data-figure]:not(figure) svg').style.maxWidth = 'none'; }"
        )
        assert any("larger than the" in p for p in figure_scale_problems(page))
    finally:
        context.close()


def test_the_ink_check_finds_a_label_on_an_arrow(site):
    """A label moved onto the request arrow is reported; before, a label on an axis or a line
    passed every check (only text against text was compared)."""
    context, page = _open(site, "en/ch1.html", 1280)
    try:
        assert figure_ink_problems(page) == []
        page.evaluate("""() => { const fig = document.querySelector('[data-figure="serving-stack"] svg');
            const arrow = fig.querySelector('.fig-arrow polyline').points;
            const x = (arrow.getItem(0).x + arrow.getItem(1).x) / 2;
            const y = (arrow.getItem(0).y + arrow.getItem(1).y) / 2;
            const label = [...fig.querySelectorAll('text')].find((t) => t.textContent.includes('Device kernels'));
            label.setAttribute('x', x - 10); label.setAttribute('y', y + 5); label.setAttribute('text-anchor', 'start');
            label.querySelectorAll('tspan[x]').forEach((s) => s.setAttribute('x', x - 10)); }""")
        problems = figure_ink_problems(page)
        assert any("Device kernels" in p and "sits on an arrow" in p for p in problems), problems
    finally:
        context.close()
