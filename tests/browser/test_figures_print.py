"""A figure of three panels on paper (print media, at the width of an A4 page's text): its last
panel, alone on its row, keeps one column's width, centred, and no panel's text prints under about
7 pt. Before, the print columns were 12rem wide (15-unit labels at about 5.5 pt) and the last
panel spanned the whole row, drawn about three times larger than the two above it. On the mini
fixture book with a three-panel figure of its own, built once for the module."""

from __future__ import annotations

import pytest

from atlas_site.export.pdf import TEXT_WIDTH_PX
from conftest import built_cleanly, figure_spec, make_project, with_figure

SPEC = figure_spec(
    "trio",
    ("三格图", "A three-panel figure"),
    ("三个方框：请求、排队与回复。", "Three boxes: a request, its queue and its reply."),
    ("请求、排队与回复。", "A request, its queue and its reply."),
    {"ask": ("请求", "request"), "wait": ("排队", "queue"), "reply": ("回复", "reply")},
)
TEMPLATE = """{% extends "_figure.svg.j2" %}
{% import "_macros.svg.j2" as m with context %}
{% block body %}
{% for key in ("ask", "wait", "reply") %}
{% call m.panel(key) %}
{{ m.box(key, 16, 8, 160, t(key), h=44, cls="fig-state") }}
{% endcall %}
{% endfor %}
{% endblock %}
"""
PT = 96 / 72  # CSS px per point

MEASURE = """() => [...document.querySelectorAll('[data-figure="trio"] svg.fig-panel')].map((svg) => {
  const r = svg.getBoundingClientRect();
  const scale = r.width / svg.viewBox.baseVal.width;
  const sizes = [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  const holder = svg.parentElement.getBoundingClientRect();
  return {width: r.width, centre: r.left + r.width / 2, holder: holder.left + holder.width / 2,
          smallest: Math.min(...sizes)};
})"""


@pytest.fixture(scope="module")
def site(tmp_path_factory, chromium):
    from atlas_site.gates.browser import serve_folder

    root = with_figure(make_project(tmp_path_factory.mktemp("trio")), "trio", SPEC, TEMPLATE)
    with serve_folder(built_cleanly(root, root / "_site")[1]) as url:
        yield url


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_paper_the_last_of_three_panels_keeps_one_columns_width_and_no_text_is_tiny(chromium, site, lang):
    page = chromium.new_page(viewport={"width": TEXT_WIDTH_PX, "height": 1000})
    try:
        page.goto(site + f"{lang}/ch14.html", wait_until="load")
        page.emulate_media(media="print")
        panels = page.evaluate(MEASURE)
        assert len(panels) == 3
        first, second, last = panels
        # two columns side by side, the last panel alone below them, as wide as one of them
        assert abs(first["width"] - second["width"]) < 1, panels
        assert abs(last["width"] - first["width"]) < 1, panels
        assert abs(last["centre"] - last["holder"]) < 1, panels  # centred on the figure
        for panel in panels:
            assert panel["smallest"] >= 7 * PT - 0.05, f"text prints at {panel['smallest'] / PT:.1f} pt"
        # review 31-x #6: a folded disclosure or a download link is not printed
        assert page.evaluate(
            "[...document.querySelectorAll('.cite-this, .downloads')].every(e => getComputedStyle(e).display === 'none')"
        )
        # on screen nothing changed: the same page at this width shows the panels as before
        page.emulate_media(media="screen")
        assert page.evaluate(MEASURE)[2]["smallest"] >= 13
    finally:
        page.close()


@pytest.mark.parametrize("width", [TEXT_WIDTH_PX, 1280])
def test_on_paper_a_caption_is_smaller_than_the_body_whatever_the_window(chromium, site, width):
    """Review 31-r #3: printed from a wide window, the screen's rule for wide screens gave captions
    17 px over the body's 11 pt."""
    page = chromium.new_page(viewport={"width": width, "height": 1000})
    try:
        page.goto(site + "en/ch14.html", wait_until="load")
        page.emulate_media(media="print")
        caption, body = page.evaluate(
            """() => [document.querySelector('.prose figcaption'), document.querySelector('.prose > p')]
                 .map((el) => parseFloat(getComputedStyle(el).fontSize))"""
        )
        assert caption < body, (caption, body)
    finally:
        page.close()
