"""What the reading pages carry, in the rendered HTML: the bibliography in the reader's language
with its numbers explained and back-links that say where they go, the standfirst from the page's
description, the theme script ahead of the first paint, and the print-only parts."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import pytest

from atlas_site.build import assemble
from conftest import edit

CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")
INTERNAL = re.compile(r"\bseed\b|\bledger\b|种子|账本", re.I)


class _Text(HTMLParser):
    """Visible text of a page's <main>, skipping elements in another language (lang=…)."""

    def __init__(self, lang: str):
        super().__init__()
        self.lang, self.stack, self.inside, self.parts = lang, [], False, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "main":
            self.inside = True
        foreign = "lang" in attrs and not attrs["lang"].startswith(self.lang)
        self.stack.append((tag, foreign or (self.stack[-1][1] if self.stack else False)))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break
        if tag == "main":
            self.inside = False

    def handle_data(self, data):
        if self.inside and not (self.stack and self.stack[-1][1]):
            self.parts.append(data)


def visible_text(html: str, lang: str) -> str:
    parser = _Text(lang)
    parser.feed(html)
    return " ".join(parser.parts)


@pytest.fixture(scope="module")
def site(reader_build):
    return reader_build[0]  # the reader's fixture book: a split chapter, two registries, a tutorial


def test_bibliography_speaks_the_readers_language_and_never_of_our_files(site):
    english = visible_text(site.output.text("en/bibliography.html"), "en")
    assert not CJK.findall(english), (
        f"Chinese on the English bibliography: {sorted(set(CJK.findall(english)))[:10]}"
    )
    for lang in site.book.languages:
        text = visible_text(site.output.text(f"{lang}/bibliography.html"), lang)
        assert not INTERNAL.findall(text), (
            f"{lang}: reader text names our own files: {INTERNAL.findall(text)[:5]}"
        )


def test_bibliography_explains_what_the_numbers_are(site):
    for lang in site.book.languages:
        html = site.output.text(f"{lang}/bibliography.html")
        legend = re.search(r'<div class="bib-legend".*?</div>', html, re.S).group(0)
        for kind, registry in site.book.profile.sources.items():
            numbers = sorted(int(n[1:]) for n in site.book.registry.of_kind(kind))
            span = f"{registry.show(numbers[0])}–{registry.show(numbers[-1])}"
            assert span in legend and registry.title[lang] in legend, (
                f"{lang}: {span} {registry.title[lang]} not explained"
            )
        chapter = site.book.page(lang, "ch1").meta.short_title
        assert chapter in legend, "a list is tied to the part that cites all of it (ch1: cites_all nodes)"
        # named in quotes (review 31-w: "每一条都在第 14 章：推理服务中引用" ran into the sentence)
        assert site.book.ui("quoted", lang).format(text=chapter) in unescape(legend), legend
        example = re.search(r"(N\d\d · \d+)", legend)
        assert example, "a real entry with two numbers illustrates the legend"
        node, ref = example.group(1).split(" · ")
        registry = site.book.registry
        assert registry.work_of(f"n{node[1:]}").key == registry.work_of(f"r{ref}").key


def test_back_links_name_the_page_and_section_they_lead_to(site):
    for lang in site.book.languages:
        html = site.output.text(f"{lang}/bibliography.html")
        links = re.findall(r'<details class="bib-backlinks"><summary>.*?</summary>.*?</details>', html, re.S)
        assert links
        for block in links:  # the summary's count is the number of places listed under it
            count = re.search(r"<summary>\D*(\d+)\D*</summary>", block)
            assert count and int(count.group(1)) == block.count("<li>"), block[:200]
        targets = re.findall(
            r'<a href="\.\./([a-z]+/[a-z0-9-]+\.html)#([a-z0-9-]+)">([^<]+)</a>', "".join(links)
        )
        assert len(targets) >= 4, targets
        assert "↩" not in "".join(links)
        for path, section, text in targets:
            page = site.output.text(path)
            heading = re.search(rf'<h[23] id="{re.escape(section)}">(.*?)<a class="anchor"', page, re.S)
            assert heading, f"{path}#{section} is not a section heading"
            page_name, _, section_name = unescape(text).partition(" › ")
            assert (
                section_name and section_name == unescape(re.sub(r"<[^>]+>", "", heading.group(1))).strip()
            ), (path, section, text)
            assert unescape(page_name) in unescape(page)


def test_theme_script_runs_before_the_stylesheets_and_is_not_deferred(site):
    for path in site.output.html_pages():
        head = site.output.text(path).split("</head>")[0]
        theme = re.search(r'<script src="[^"]*assets/theme\.js"( defer| async)?></script>', head)
        assert theme and not theme.group(1), f"{path}: theme.js is missing or deferred"
        assert head.index("theme.js") < head.index('rel="stylesheet"'), path
    assert "localStorage" in site.output.text("assets/theme.js")


def test_print_parts_only_on_pages_that_cite(site):
    chapter = site.output.text("en/ch1.html")
    assert "data-print-refs" in chapter and "data-print-url" in chapter
    assert "data-print-refs" not in site.output.text("en/bibliography.html")


def test_standfirst_comes_from_the_description_and_is_never_invented(mini, tmp_path):
    plain = assemble(mini)
    assert plain.output is not None, "\n".join(map(str, plain.errors))
    assert 'class="standfirst"' not in plain.output.text("en/ch14.html")
    edit(
        mini / "content" / "en" / "ch14" / "00-intro.md",
        "short_title: Serving\n",
        "short_title: Serving\ndescription: Where the time and money of serving go.\n",
    )
    edit(
        mini / "content" / "zh" / "ch14" / "00-intro.md",
        "status: draft\n",
        "status: draft\ndescription: 推理服务的时间与成本花在哪里。\n",
    )
    described = assemble(mini)
    assert described.output is not None, "\n".join(map(str, described.errors))
    assert '<p class="standfirst">Where the time and money of serving go.</p>' in described.output.text(
        "en/ch14.html"
    )
    assert '<p class="standfirst">推理服务的时间与成本花在哪里。</p>' in described.output.text("zh/ch14.html")
    h1 = described.output.text("en/ch14.html").index("<h1>")
    assert h1 < described.output.text("en/ch14.html").index("standfirst")


def test_the_navigation_marks_the_part_on_every_page_of_it(site):
    """Review 31-l #5: the header marked only the first page of a series and of a chapter published
    as several pages; on the other 14 of 16 pages nothing said where the reader was."""
    nav = re.compile(r'<nav class="site-nav"[^>]*>(.*?)</nav>', re.S)
    for path, part in (
        ("en/ch1-fleet.html", "en/ch1.html"),
        ("zh/ch1-summary.html", "zh/ch1.html"),
        ("en/tut-map.html", "en/tut-basics.html"),
        ("en/tut-labs.html", "en/tut-basics.html"),
    ):
        links = nav.search(site.output.text(path)).group(1)
        marked = re.findall(r'<a href="([^"]+)" aria-current="true">', links)
        assert [m.rsplit("/", 1)[-1] for m in marked] == [part.split("/")[1]], (path, marked)
    glossary = nav.search(site.output.text("en/glossary.html")).group(1)
    assert "aria-current" not in glossary  # a generated page is marked by its address (site.js)


def test_the_bibliography_says_only_that_an_address_is_missing_never_how_one_was_found(mini):
    """Review 31-y #1: 56 entries read "Address: found by searching for the source" or "the work's
    canonical address": how the book found an address is its own process. A reader is told only
    that a work has none."""
    references = mini / "sources/references.yaml"
    edit(references, "url_status: seed", "url_status: searched")
    result = assemble(mini)
    for lang in result.book.languages:
        html = result.output.text(f"{lang}/bibliography.html")
        label = result.book.ui("url_status", lang)
        lines = re.findall(rf"· {re.escape(label)}[:：] ?([^<·]*)", unescape(html))  # an entry's line
        assert [line.strip() for line in lines] == [result.book.ui("url_status.unresolved", lang)], lines


def test_the_maps_nodes_link_their_abbreviations_to_the_glossary(site):
    """Review 30-z9 #3: a node of the development map is read on its own, so its text spells out no
    abbreviation; each glossary abbreviation in it links to the entry, whose card explains it."""
    for lang in site.book.languages:
        html = site.output.text(f"{lang}/tut-map.html")
        entry = re.search(r'<li class="devmap-item" id="map-step-budget".*?</li>', html, re.S).group(0)
        left = re.search(r'<dd data-field="left">(.*?)</dd>', entry, re.S).group(1)
        assert '<a class="term" href="glossary.html#term-slo" data-term="slo">SLO</a>' in left, left
        assert "KV" not in left or 'data-term="kv"' in left


def test_the_map_links_an_abbreviation_ending_in_digits_and_one_with_a_degree():
    """The map read "FP8" as "FP" at degree 8, as the terms gate did, and linked none of the formats;
    both now read a token through one helper (model/abbreviations.py term_named). Each is spelt
    out where the map first uses it, in the nodes' order (review 30-z19 #1), and only there."""
    from types import SimpleNamespace

    from atlas_site.directives.blocks import _term_linker

    terms = {
        key: SimpleNamespace(
            id=key, abbr=abbr, names={"en": key}, aliases={}, rest_of_name=lambda lang, after: None
        )
        for key, abbr in (("fp8", "FP8"), ("tensor-parallel", "TP"), ("mixture", "MoE"))
    }
    book = SimpleNamespace(
        terms=terms,
        profile=SimpleNamespace(
            glossary=SimpleNamespace(common=()), generates=lambda name: name == "glossary"
        ),
        spelt_out=lambda term, lang: {"fp8": "8-bit floating point"}.get(term.id),
    )
    state = SimpleNamespace(
        book=book,
        lang="en",
        defined=set(),
        expanded=set(),
        ui=lambda key: {"term_expansion": " ({name})"}[key],
    )
    linked = _term_linker(state)
    html = str(linked("FP8 weights, TP4 and MoE <b>"))
    assert html == (
        '<a class="term" href="glossary.html#term-fp8" data-term="fp8">FP8</a>'
        '<span class="term-expansion"> (8-bit floating point)</span> weights, '
        '<a class="term" href="glossary.html#term-tensor-parallel" data-term="tensor-parallel">TP4</a> and '
        '<a class="term" href="glossary.html#term-mixture" data-term="mixture">MoE</a> &lt;b&gt;'
    ), html
    assert "term-expansion" not in str(linked("FP8 again")), "spelt out once per page"
