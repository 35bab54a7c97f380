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
from conftest import open_page


@pytest.fixture(scope="module")
def site(reader_site):
    return reader_site  # the reader's fixture book: its figure serving-stack is on ch1


def _open(site, path, width, scheme="light"):
    return open_page(site, path, viewport={"width": width, "height": 900}, color_scheme=scheme)


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


def test_the_ink_check_finds_a_grid_line_through_a_label_unless_a_plate_or_halo_keeps_it_off(site):
    """Review 31-q #7: light grid lines were background to the check, and the roofline's 100 line
    ran through "intensity". A grid line through a label is now reported; a plate under the label
    or a halo around it keeps the line off the words, and passes."""
    context, page = _open(site, "en/ch1.html", 1280)
    try:
        place = """(how) => { const svg = document.querySelector('[data-figure="serving-stack"] svg');
            const label = [...svg.querySelectorAll('text')].find((t) => t.textContent.includes('Device kernels'));
            const box = label.getBBox(), ns = 'http://www.w3.org/2000/svg';
            svg.querySelectorAll('.test-added').forEach((el) => el.remove());
            label.classList.remove('fig-halo');
            const line = document.createElementNS(ns, 'line');
            line.setAttribute('class', 'fig-grid test-added');
            const y = box.y + box.height / 2;
            line.setAttribute('x1', box.x - 20); line.setAttribute('x2', box.x + box.width + 20);
            line.setAttribute('y1', y); line.setAttribute('y2', y);
            svg.appendChild(line);
            if (how === 'halo') label.classList.add('fig-halo');
            if (how === 'plate') {
              const plate = document.createElementNS(ns, 'rect');
              plate.setAttribute('class', 'fig-plate test-added');
              plate.setAttribute('x', box.x - 3); plate.setAttribute('y', box.y - 2);
              plate.setAttribute('width', box.width + 6); plate.setAttribute('height', box.height + 4);
              svg.appendChild(plate);
            } }"""
        page.evaluate(place, "none")
        problems = figure_ink_problems(page)
        assert any("Device kernels" in p and "sits on a grid line" in p for p in problems), problems
        for how in ("plate", "halo"):
            page.evaluate(place, how)
            assert not any("Device kernels" in p for p in figure_ink_problems(page)), how
    finally:
        context.close()


def test_a_one_panel_figure_keeps_to_the_text_column_on_a_desk(site):
    """Review 31-x #10: at 1280 a figure of one column of panels, centred in a frame wider than the
    text, stood 72 px past the column its caption and paragraphs keep to. The fixture's figure has
    two panels side by side (they may use the room); stacked, they keep to the column, and the width
    check names a stacked figure drawn past it."""
    context, page = _open(site, "en/ch1.html", 1280)
    try:
        page.evaluate("() => document.querySelector('figure.figure .fig').classList.add('fig-stacked')")
        assert not [p for p in figure_width_problems(page) if "past the text column" in p]
        page.evaluate(
            "() => { const f = document.querySelector('figure.figure'); f.style.maxWidth = 'none'; f.style.width = '1200px'; }"
        )
        assert any("past the text column" in p for p in figure_width_problems(page))
    finally:
        context.close()
