"""The figure drawings gate on a fixture figure: a drawing that shows its labels passes; a typed
text, a label never drawn and a colour of its own each fail with the figure's spec located."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import figure_spec, make_project, run_cli, with_figure


def demo_spec(caption=("请求与回复。", "A request and its reply."), labels=None) -> str:
    return figure_spec(
        "demo",
        ("演示图", "A demo figure"),
        ("两个方框：请求与回复。", "Two boxes: a request and its reply."),
        caption,
        labels or {"ask": ("请求", "request"), "reply": ("回复", "reply")},
    )


def figure_first_on_its_page(book: Path) -> None:
    """The demo figure moved to the top of the chapter's first section, before the prose's first KV."""
    for lang in ("zh", "en"):
        page = book / "content" / lang / "ch14" / "00-intro.md"
        text = page.read_text(encoding="utf-8").replace("\n{{figure:demo}}\n", "")
        head, _, body = text.partition("\n## ")
        page.write_text(
            f"{head}\n## {body.replace(chr(10), chr(10) + '{{figure:demo}}' + chr(10), 1)}", encoding="utf-8"
        )


SPEC = demo_spec()
TEMPLATE = """{% extends "_figure.svg.j2" %}
{% import "_macros.svg.j2" as m with context %}
{% block body %}
{% call m.panel("main") %}
{{ m.box("ask", 16, 8, 160, t("ask"), h=44, cls="fig-state") }}
{{ m.box("reply", 220, 8, 160, t("reply"), h=44, cls="fig-resource") }}
{% endcall %}
{% endblock %}
"""


@pytest.fixture
def book(tmp_path) -> Path:
    return with_figure(make_project(tmp_path), "demo", SPEC, TEMPLATE)


def gate_lines(book: Path) -> list[str]:
    checked = run_cli("check", cwd=book)
    return [line.strip() for line in checked.stdout.splitlines() if "gate.figures.drawing" in line]


def test_a_drawing_of_its_labels_passes(book):
    checked = run_cli("check", cwd=book)
    assert checked.returncode == 0, checked.stderr
    assert "pass  figure drawings: 1 figures drawn in 2 languages" in checked.stdout


@pytest.mark.parametrize(
    "edit, said",
    [
        (
            lambda t: t.replace("{% endcall %}", '{{ m.label("typed by hand", 16, 70) }}\n{% endcall %}'),
            "'typed by hand' is no label",
        ),
        (
            lambda t: t.replace(
                '{{ m.box("reply", 220, 8, 160, t("reply"), h=44, cls="fig-resource") }}\n', ""
            ),
            "label 'reply' is never drawn",
        ),
        (
            lambda t: t.replace(
                "{% endcall %}", '<rect x="1" y="1" width="4" height="4" fill="#ff0000"/>\n{% endcall %}'
            ),
            "colour of its own",
        ),
    ],
)
def test_each_fault_fails_located_at_the_spec(book, edit, said):
    template = book / "templates" / "figures" / "demo.svg.j2"
    template.write_text(edit(TEMPLATE), encoding="utf-8")
    lines = gate_lines(book)
    assert len(lines) == 2 and all(said in line for line in lines), lines  # once per language
    assert all(line.startswith("ledger/figures.md:3:") for line in lines), lines
    assert run_cli("check", cwd=book).returncode != 0


def test_a_number_no_label_shows_is_refused_with_the_spec(book):
    figures = book / "ledger" / "figures.md"
    figures.write_text(SPEC.replace("numbers: {}", 'numbers: {kv: "ex:kv-per-token"}'), encoding="utf-8")
    checked = run_cli("check", cwd=book)
    assert checked.returncode != 0
    assert "figure 'demo': number 'kv' is shown by no label" in checked.stdout + checked.stderr


def test_a_figure_whose_panels_are_compared_row_by_row_stays_stacked(book):
    """Review 31-q #2: side by side on a desk, the key atop the first of three timelines set its rows
    70 px below the second's. A spec with `stack: true` marks its figure to keep its panels one above
    the other at every width (figures.css .fig-stacked)."""
    from atlas_site.build import assemble

    assert 'class="fig fig-n1" data-figure="demo"' in assemble(book).output.text("en/ch14.html")
    spec = book / "ledger" / "figures.md"
    spec.write_text(
        spec.read_text(encoding="utf-8").replace("    numbers: {}", "    stack: true\n    numbers: {}"),
        encoding="utf-8",
    )
    assert 'class="fig fig-n1 fig-stacked" data-figure="demo"' in assemble(book).output.text("en/ch14.html")


CHART = """{% extends "_figure.svg.j2" %}
{% import "_macros.svg.j2" as m with context %}
{% block body %}
{% call m.panel("main") %}
{% set sx = cv.scale(0, 10, 40, 380) %}{% set sy = cv.scale(0, 10, 200, 20) %}
{{ m.axes(sx, sy) }}
{{ m.label(t("ask"), sx(2), sy(8), width=100) }}
{{ m.label(t("reply"), 40, 240, width=100) }}
{% endcall %}
{% endblock %}
"""


def test_a_label_inside_a_plot_keeps_a_halo_and_one_outside_does_not(tmp_path):
    """Review 31-q #7: the roofline's grid line ran through "intensity". A label that reaches into
    the area the axes grid keeps a ring of the page's colour (a plate there hid a stretch of a data
    line beside its label: review 31-s #8); the browser gate reports a text a grid line crosses
    without one (test_figures_browser.py)."""
    import re

    from atlas_site.build import assemble

    book = with_figure(make_project(tmp_path), "demo", SPEC, CHART)
    result = assemble(book)
    assert not result.errors, "\n".join(map(str, result.errors))
    svg = result.output.text("en/ch14.html").split('data-figure="demo"', 1)[1].split("</figure>")[0]
    assert re.search(r'<text[^>]*class="fig-halo"[^>]*>request</text>', svg), svg
    assert re.search(r"<text[^>]*>reply</text>", svg) and not re.search(r"fig-halo[^>]*>reply<", svg), svg
    assert "fig-plate" not in svg, "no plate where none was asked for"


def test_a_caption_is_read_by_the_terms_and_claims_gates_where_its_figure_stands(tmp_path):
    """Review 30-z13 #8: MoE, MLA, KDA in captions before the prose said what they were; and a
    caption typed K3's 1,024–6,144 tokens that the prose gave as a claim, with no label or setting.
    A caption is plain text, read where its figure stands: its first abbreviations must say what they
    stand for, and it types no value of a claim of the figure's sources."""
    spec = demo_spec(caption=("KV 与回复，每 GPU 7.4×。", "KV and its reply, 7.4× per GPU.")).replace(
        "sources: [n04]", "sources: [n27]"
    )
    book = with_figure(make_project(tmp_path), "demo", spec, TEMPLATE)
    figure_first_on_its_page(book)
    lines = run_cli("check", cwd=book).stdout.splitlines()
    terms = [line for line in lines if "the caption of figure demo: 'KV' is first used" in line]
    values = [line for line in lines if "figure demo's" in line and "types '7.4'" in line]
    assert len(terms) == 2 and len(values) == 2, "\n".join(lines)


def test_a_drawing_s_abbreviations_are_keyed_in_its_caption_and_read_by_the_terms_gate(tmp_path):
    """A drawing has no room for long names, and a figure often opens the section whose prose then
    defines its terms (68 first uses in 14 of the Atlas's drawings, none spelt out). The caption
    gives a key of the drawing's glossary abbreviations that the page has not yet spelt out, each
    linked to its glossary entry; the terms gate reads the labels where the figure stands and names
    an abbreviation there that the glossary does not hold. The key does not define a term for the
    prose: its own first use after the figure still spells KV out."""
    from atlas_site.build import assemble

    spec = demo_spec(labels={"ask": ("KV 请求", "KV request"), "reply": ("ZQX 回复", "ZQX reply")})
    book = with_figure(make_project(tmp_path), "demo", spec, TEMPLATE)
    profile = book / "book.yaml"  # a glossary page, which the key links to
    profile.write_text(
        profile.read_text(encoding="utf-8").replace(
            "  - generated: bibliography", "  - generated: glossary\n  - generated: bibliography"
        ),
        encoding="utf-8",
    )
    figure_first_on_its_page(book)
    result = assemble(book)
    assert not result.errors, "\n".join(map(str, result.errors))
    html = result.output.text("en/ch14.html")
    caption = html.split('data-figure="demo"', 1)[1].split("</figcaption>")[0]
    assert (
        '<span class="fig-key">In the drawing: <a class="term" href="glossary.html#term-kv-cache" '
        'data-term="kv-cache">KV</a> (key-value cache).</span>' in caption
    ), caption
    assert "ZQX" not in caption.split("fig-key", 1)[1], "only the glossary's abbreviations are keyed"
    after = html.split("</figure>", 1)[1]
    spelt = '>KV</dfn><span class="term-expansion"> (key-value cache)</span>'
    assert spelt in after, "the key is the drawing's: the prose's first {{term:kv-cache}} still spells KV out"
    lines = run_cli("check", cwd=book).stdout.splitlines()
    unknown = [line for line in lines if "the drawing of figure demo: 'ZQX' is not a glossary term" in line]
    assert len(unknown) == 2, "\n".join(lines)
    assert not [line for line in lines if "drawing of figure demo: 'KV'" in line], "\n".join(lines)
