"""The open web: descriptions, canonical/hreflang/sitemap only with a site URL, the generated pages
(home, chooser, numbers, glossary, 404), figure references and the lazily loaded card data."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html import unescape

import pytest
from markupsafe import escape

from atlas_site.build import assemble
from conftest import edit, run_cli

# canonical and language alternates need a site URL; the feed's alternate link is relative and stays
ABSOLUTE = re.compile(
    r'<link rel="canonical"|<link rel="alternate" hreflang=|hreflang="x-default"|<link [^>]*href="https?:'
)


ABOUT = """about:
  teaches: {zh: "讲一项服务怎样为每条请求付账。", en: "How a service pays for each request."}
  readers: {zh: "写给要让模型上线的读者。", en: "For readers who put a model into production."}
"""
# a term named alike in every language, with no abbreviation (KDA rendered "KDA KDA KDA")
SAME_NAME = """  - id: pagedattention
    zh: PagedAttention
    en: PagedAttention
    definition: {zh: "把 KV 存进固定大小的块。", en: "Keeps the KV in blocks of a fixed size."}
"""


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    """The reader's fixture book, with what these pages need besides: the home page's `about`, a
    term named alike in both languages, and a reference to the figure before the figure."""
    from conftest import built_cleanly, make_reader

    workspace = tmp_path_factory.mktemp("web")
    project = make_reader(workspace)
    with (project / "book.yaml").open("a", encoding="utf-8") as profile:
        profile.write(ABOUT)
    edit(project / "ledger/glossary.md", "  - id: goodput\n", SAME_NAME + "  - id: goodput\n")
    edit(
        project / "content/en/ch1/00-questions.md",
        "to no other.",
        "to no other. The stack below ({{figref:serving-stack}}) shows where it sits.",
    )
    edit(
        project / "content/zh/ch1/00-questions.md",
        "不属于别的设定。",
        "不属于别的设定。它所在的层见下图（{{figref:serving-stack}}）。",
    )
    return built_cleanly(project, workspace / "_site")[0]


def _meta(html: str, name: str) -> str | None:
    match = re.search(rf'<meta (?:name|property)="{re.escape(name)}" content="([^"]*)"', html)
    return match.group(1) if match else None


# -- without site_url: relative everywhere -----------------------------------------------------
def test_without_a_site_url_nothing_is_absolute(real):
    output = real.output
    assert "sitemap.xml" not in output and "robots.txt" not in output
    for path in output.html_pages():
        html = output.text(path)
        assert not ABSOLUTE.search(html), f"{path} has canonical or hreflang links without a site URL"
        assert 'src="http' not in html and 'href="/' not in html, (
            f"{path} has an absolute or root-relative address"
        )


def test_every_reader_page_has_a_description_and_preview_title(real):
    for path in real.output.html_pages():
        if path == "dashboard.html":
            continue
        html = real.output.text(path)
        if path != "404.html":
            assert (_meta(html, "description") or "").strip(), f"{path} has no meta description"
        assert _meta(html, "og:title") and _meta(html, "twitter:title"), path
    assert (
        _meta(real.output.text("zh/ch1.html"), "description") == real.book.page("zh", "ch1").meta.description
    )


def test_a_published_page_needs_a_description(mini):
    page = mini / "content/en/ch14/00-intro.md"
    edit(page, "status: draft", "status: published")
    result = run_cli("check", cwd=mini)
    assert result.returncode == 2
    lines = [
        line
        for line in result.stdout.splitlines() + result.stderr.splitlines()
        if "page.no-description" in line
    ]
    assert lines and lines[0].startswith(
        "content/en/ch14/00-intro.md:2:1: error[page.no-description]: published page 'ch14' (en)"
    ), lines
    assert "Traceback" not in result.stderr


# -- with site_url: canonical, hreflang, sitemap, robots ----------------------------------------
def test_with_a_site_url_pages_carry_canonical_and_hreflang_and_a_sitemap(mini):
    edit(mini / "book.yaml", "title:", "site_url: https://example.org/atlas/\ntitle:")
    result = assemble(mini)
    assert result.output is not None and not result.errors, "\n".join(map(str, result.errors))
    html = result.output.text("en/ch14.html")
    assert '<link rel="canonical" href="https://example.org/atlas/en/ch14.html">' in html
    alternates = re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', html)
    assert alternates == [
        ("zh-Hans", "https://example.org/atlas/zh/ch14.html"),
        ("en", "https://example.org/atlas/en/ch14.html"),
        ("x-default", "https://example.org/atlas/zh/ch14.html"),
    ], "x-default is the first language of book.yaml"
    assert _meta(html, "og:url") == "https://example.org/atlas/en/ch14.html"
    root = result.output.text("index.html")
    assert '<link rel="canonical" href="https://example.org/atlas/">' in root
    assert ("x-default", "https://example.org/atlas/") in re.findall(
        r'hreflang="([^"]+)" href="([^"]+)"', root
    )
    sitemap = ET.fromstring(result.output["sitemap.xml"])
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    locations = [url.findtext("s:loc", namespaces=ns) for url in sitemap.findall("s:url", ns)]
    assert (
        "https://example.org/atlas/zh/ch14.html" in locations
        and "https://example.org/atlas/en/ch14.html" in locations
    )
    assert not any(loc.endswith(("dashboard.html", "404.html")) for loc in locations)
    for url in sitemap.findall("s:url", ns):
        if url.findtext("s:loc", namespaces=ns).endswith("ch14.html"):
            assert {link.get("hreflang") for link in url.findall("x:link", ns)} == {
                "zh-Hans",
                "en",
                "x-default",
            }
    robots = result.output.text("robots.txt")
    assert (
        "Sitemap: https://example.org/atlas/sitemap.xml" in robots
        and "Disallow: /atlas/dashboard.html" in robots
    )
    not_found = result.output.text("404.html")
    assert (
        'href="https://example.org/atlas/assets/atlas.css"' in not_found
        and _meta(not_found, "robots") == "noindex"
    )
    assert 'href="https://example.org/atlas/en/index.html"' in not_found


def test_the_profile_refuses_an_unknown_generated_page_and_a_half_translated_about(mini):
    edit(mini / "book.yaml", "  - generated: bibliography", "  - generated: index-of-everything")
    edit(
        mini / "book.yaml", "title:", "about: {teaches: {zh: 教什么, en: what}, readers: {en: whom}}\ntitle:"
    )
    result = run_cli("check", cwd=mini)
    assert result.returncode == 2
    text = result.stdout + result.stderr
    assert re.search(
        r"book\.yaml:\d+:\d+: error\[schema\.invalid\]: .*unknown generated page 'index-of-everything'", text
    ), text
    assert re.search(r"book\.yaml:\d+:\d+: error\[schema\.invalid\]: about\.readers: no text in zh", text), (
        text
    )


# -- generated pages ---------------------------------------------------------------------------
def test_numbers_page_lists_every_number_the_book_shows_with_setting_and_caution(real):
    book = real.book
    shown = {u.key for p in real.parsed.values() for u in p.uses_of("claim")}
    for lang in book.languages:
        html = real.output.text(f"{lang}/numbers.html")
        rows = re.findall(r'<tr class="claim numbers-row" id="claim-([a-z0-9-]+)"', html)
        assert set(rows) == shown and len(rows) == len(set(rows))
        claim = book.claims["phases-goodput"]
        row = html[html.index('id="claim-phases-goodput"') :].split("</tr>")[0]
        shown_row = unescape(row).replace("\u2019", "'")  # English text is set with typographic quotes
        for text in (claim.text[lang], claim.setting[lang], claim.caution[lang]):
            assert text in shown_row, text
        assert f'<time datetime="{claim.verified.isoformat()}">' in row, "the row carries the review date"
        assert re.search(r'href="ch1(-[a-z-]+)?\.html#q1"', row), "the row links to where the chapter uses it"
        assert 'href="numbers.html#claim-phases-goodput"' in real.output.document(f"{lang}/ch1.html"), (
            "a claim's value links to its row"
        )
        assert 'href="numbers.html#claim-phases-goodput"' in real.output.text(f"{lang}/bibliography.html")


def test_numbers_page_has_a_permalink_row_for_every_worked_example_the_prose_shows(real):
    book = real.book
    shown = {u.key.partition(".")[0] for p in real.parsed.values() for u in p.uses_of("ex")}
    for lang in book.languages:
        html = real.output.text(f"{lang}/numbers.html")
        rows = re.findall(r'<tr class="ex numbers-row" id="ex-([a-z0-9-]+)"', html)
        assert set(rows) == shown and len(rows) == len(set(rows))
        row = html[html.index('id="ex-kv-per-token"') :].split("</tr>")[0]
        assert escape(book.examples["kv-per-token"].note[lang]) in row, "the row states the assumption"
        assert re.search(r'href="ch1(-[a-z-]+)?\.html#', row), "the row links to the sections that use it"
        chapter = real.output.document(f"{lang}/ch1.html")
        linked = set(re.findall(r'<a class="ex-link" href="numbers\.html#ex-([a-z0-9-]+)"', chapter))
        used = {u.key.partition(".")[0] for u in real.parsed[(lang, "ch1")].uses_of("ex")}
        assert linked == used, "each example the chapter shows links to its row once"
        assert all(f'id="ex-{example_id}"' in html for example_id in linked)


def test_glossary_lists_every_term_once_with_its_other_name_and_where_it_is_defined(real):
    """(How the Chinese glossary files its entries, by pinyin and abbreviations by their letter, is
    test_reader_review's.)"""
    book = real.book
    for lang in book.languages:
        html = real.output.text(f"{lang}/glossary.html")
        ids = re.findall(r'<div class="glossary-entry" id="term-([a-z0-9-]+)">', html)
        assert sorted(ids) == sorted(book.terms), "every term, once"
        if lang == "en":
            names = [book.terms[i].names[lang].casefold() for i in ids]
            assert names == sorted(names), "en glossary order"
        entry = html[html.index('id="term-ttft"') :].split("</div>")[0]
        other = "en" if lang == "zh" else "zh"
        # the definition is rendered markdown (its formulas as MathML, English set with typographic quotes)
        text = unescape(entry).replace("\u2019", "'")
        assert book.terms["ttft"].names[other] in text and book.terms["ttft"].definition[lang] in text
        defined = re.search(r'([^<>]*)<a href="ch1(-[a-z-]+)?\.html#term-ttft">([^<]*)</a>', entry)
        assert defined, "links to the place the book first defines it"
        # named by its section, not only its page (every entry read "Ch. 14 · Serving"): the
        # chapter before the link as plain text, the section as the link's own words
        assert defined.group(1).count(" · ") == 2 and defined.group(3), defined.group(0)
        assert " · " not in defined.group(3), defined.group(3)


def test_glossary_shows_a_name_once_when_a_term_has_no_second_name(real):
    """A term named KDA in both languages with the abbreviation KDA rendered "KDA KDA KDA"."""
    langs = real.book.languages
    same = [
        t
        for t in real.book.terms.values()
        if len({*(t.names[lang] for lang in langs), t.abbr or ""} - {""}) == 1
    ]
    assert same, "the fixture has a term with one name in every language"
    for lang in real.book.languages:
        html = real.output.text(f"{lang}/glossary.html")
        for term in same:
            head = html[html.index(f'id="term-{term.id}"') :].split("</dt>")[0]
            assert head.count(escape(term.names[lang])) == 1, (lang, term.id, head)
            assert "glossary-abbr" not in head and "glossary-other" not in head
        cards = real.output.text(f"assets/previews-{lang}.js")
        for term in same:
            entry = json.loads(cards[len("window.AtlasPreviews=") :].rstrip(";\n"))["terms"][term.id]
            assert entry["abbr"] is None and entry["others"] == [], (lang, term.id, entry)


def test_home_pages_and_the_chooser(real):
    book = real.book
    for lang in book.languages:
        html = real.output.text(f"{lang}/index.html")
        assert book.profile.about.teaches[lang] in html and book.profile.about.readers[lang] in html
        for page_id in ("ch1", "tut-basics", "tut-map"):
            assert f'href="{page_id}.html"' in html
        assert book.page(lang, "ch1").meta.description in html
        assert html.count('class="home-labs"') == 1 and escape(book.labs["memory"].title[lang]) in html
        newest = max(page.meta.last_verified for page in book.pages if page.meta.last_verified)
        assert newest.isoformat() in html and 'href="../index.html#choose"' in html
        assert "chooser.js" in html
    root = real.output.text("index.html")
    assert 'href="zh/index.html"' in root and 'href="en/index.html"' in root and 'id="choose"' in root
    not_found = real.output.text("404.html")
    assert 'href="zh/index.html"' in not_found and 'href="en/index.html"' in not_found
    assert 'lang="zh-Hans"' in not_found and 'lang="en"' in not_found
    for page in ("index.html", "404.html"):
        # a page of every language: its header names the book and skips in each, and links no one
        # language's parts (review 31-q #9: the chooser's header listed the Chinese parts only)
        header = real.output.text(page).split("<header", 1)[1].split("</header>")[0]
        skip = real.output.text(page).split('class="skip-link"', 1)[1].split("</a>")[0]
        for lang in book.profile.languages:
            assert f'<span lang="{lang.html_lang}">{escape(book.profile.title[lang.code])}</span>' in header
            assert f'<span lang="{lang.html_lang}">{escape(book.ui("skip", lang.code))}</span>' in skip
        assert "site-nav" not in header and "data-search" not in header, (page, header)


def test_card_data_is_fetched_on_demand_not_loaded_with_the_page(real):
    for path in real.output.html_pages():
        assert "previews-" not in "".join(re.findall(r'<script src="([^"]+)"', real.output.text(path)))
    data = real.output.text("en/ch1.html")
    assert '<meta name="atlas-previews" content="../assets/previews-en.js">' in data
    previews = real.output.text("assets/previews-zh.js")
    assert previews.startswith("window.AtlasPreviews={")
    import json

    payload = json.loads(previews[len("window.AtlasPreviews=") : -2])
    assert payload["claims"]["phases-goodput"]["caution"] == real.book.claims["phases-goodput"].caution["zh"]
    assert payload["terms"]["ttft"]["others"] == [["en", "time to first token"]]
    q2 = payload["sections"]["ch1#q2"]  # on the chapter's first page
    assert q2["title"].startswith("KV") and q2["first"].endswith("。")
    assert payload["figures"]["serving-stack"]["kind"]


# -- figure references -------------------------------------------------------------------------
def test_a_figure_reference_before_its_figure_is_numbered_like_it(real):
    for lang, word in (("en", "Figure"), ("zh", "图")):
        html = real.output.document(f"{lang}/ch1.html")
        number = re.search(
            rf'<a class="figref" href="#fig-serving-stack" data-figref="serving-stack">{word} (\d+)</a>', html
        )
        assert number, f"{lang}: the reference names the figure's number"
        assert html.index('data-figref="serving-stack"') < html.index('id="fig-serving-stack"')
        placed = html.split('id="fig-serving-stack"')[1]
        assert f'<span class="fig-number">{word} {number.group(1)}</span>' in placed[:20000]


def test_figure_references_are_checked(tmp_path):
    from conftest import make_reader

    book = make_reader(tmp_path)
    edit(book / "content/en/ch1/00-questions.md", "to no other.", "to no other ({{figref:serving-stak}}).")
    edit(book / "content/zh/tut-basics/index.md", "\n## ", "\n见{{figref:serving-stack}}。\n\n## ")
    result = run_cli("check", cwd=book)
    lines = [
        line for line in result.stdout.splitlines() + result.stderr.splitlines() if "error[figref." in line
    ]
    assert any(
        re.match(
            r"content/en/ch1/00-questions\.md:\d+:\d+: error\[figref\.unknown\]: no figure 'serving-stak' in the ledger \(hint: did you mean 'serving-stack'",
            line,
        )
        for line in lines
    ), lines
    assert any(
        re.match(
            r"content/zh/tut-basics/index\.md:\d+:\d+: error\[figref\.not-on-page\]: figure 'serving-stack' is referred to but not placed on this page",
            line,
        )
        for line in lines
    ), lines
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_every_misconception_block_shows_the_mistaken_statement_then_what_is_true(real):
    """Issue 30: the wrong statements were visible only on the dashboard; each block now quotes the
    ledger's statement, tagged as the common mistake, above its correction, in every language."""
    for lang in real.book.languages:
        shown = set()
        for page_id in ("ch1",):
            html = real.output.document(f"{lang}/{page_id}.html")
            for block in re.findall(
                r'<aside class="misconception" id="misconception-([a-z0-9-]+)".*?</aside>', html, re.S
            ):
                shown.add(block)
            for item in real.book.misconceptions:
                start = html.find(f'id="misconception-{item.id}"')
                if start < 0:
                    continue
                block = html[start : html.index("</aside>", start)]
                wrong = block.index(
                    f'<span class="misconception-statement">{escape(item.statement[lang])}</span>'
                )
                true = block.index('class="misconception-tag misconception-true"')
                assert escape(real.book.ui("wrong", lang)) in block[:wrong]
                assert wrong < true < block.index("<p>", true), (
                    "the mistake first, then what is true, then the prose"
                )
        assert shown == {m.id for m in real.book.misconceptions}, f"{lang}: every one shown to readers"


def test_a_section_card_quotes_the_first_prose_paragraph_whatever_its_attributes():
    from atlas_site.render.previews import section_previews

    html = (
        '<article><h2 id="q1">Queues</h2>\n<p class="block-label">Misconception · M1</p>\n'
        '<p data-para="q1.1">A queue grows when work arrives faster. Then it waits.</p>\n</article>'
    )
    card = section_previews("ch", html)["ch#q1"]
    assert card == {"title": "Queues", "first": "A queue grows when work arrives faster."}


def test_a_prose_paragraph_carries_its_length_for_its_placeholder_height():
    """Review 31-i #5: every skipped block was held 24rem tall, and a long page's first height was
    70 % above its real one at 1280 px. A top-level paragraph carries its text's width in units
    of one Chinese character (data-u); labels and blocks that are not prose carry none."""
    from atlas_site.render.placeholders import text_units, with_lengths

    assert text_units("预填充读完整段输入") == 9
    # 缓存 2, and K V & x four halves: tags are no text, an entity is one character
    assert text_units('<a href="#q3">KV</a> 缓存 &amp; <span class="badge">x</span>') == 4
    html = '<p class="block-label">Note</p>\n<p data-para="q1.1">两个 tokens</p>\n<p>inner</p>'
    assert with_lengths(html) == (
        '<p class="block-label">Note</p>\n<p data-para="q1.1" data-u="5">两个 tokens</p>\n<p>inner</p>'
    )


def test_a_list_of_misconceptions_quotes_each_mistake_from_the_ledger(tmp_path):
    """Review 30-m #4: the chapter's index of misconceptions listed only what is true. `{{mistake:ID}}`
    quotes the ledger's statement, marked as the mistake, where prose lists them; the statement is
    never typed in prose (the forbidden-statements gate sees none), and an unknown id is an error."""
    from conftest import make_project

    workshop = make_project(tmp_path, "workshop")
    for lang, line in (("en", "Index: {{mistake:stale-forever}} True: entries expire.\n"),
                       ("de", "Index: {{mistake:stale-forever}} Wahr: Einträge verfallen.\n")):  # fmt: skip
        page = workshop / "content" / lang / "caching" / "00-caching.md"
        edit(page, ":::\n", ":::\n\n" + line)
    result = assemble(workshop)
    html = result.output.text("en/caching.html")
    assert (
        '<span class="misconception-wrong"><span class="misconception-tag">Common mistake</span> '
        '<q class="misconception-statement">A cached entry is valid forever.</q></span> True: entries expire.'
    ) in html
    assert not [p for p in result.problems if p.code.startswith("gate.forbidden")]
    edit(
        workshop / "content" / "en" / "caching" / "00-caching.md",
        "{{mistake:stale-forever}}",
        "{{mistake:nope}}",
    )
    codes = [p.code for p in assemble(workshop).errors]
    assert "block.unknown-misconception" in codes, codes


def test_a_definitions_formula_is_typeset_on_the_glossary_page_and_plain_in_cards_and_titles():
    """Review 31-i #10: the glossary wrote its formulas in ASCII ("a^(k+1)", "C_eff") while the
    chapters typeset theirs. A definition's $…$ is MathML on the glossary page, and where the text
    stays plain (a card, a <dfn>'s title) it reads as a formula, not as LaTeX source."""
    from atlas_site.render.mathml import formula_as_text, formulas_as_source, text_with_formulas

    source = r"mass $a = \sum_x \min(p(x), q(x))$ yields $(1 - a^{k+1}) / (1 - a)$ tokens"
    assert (
        "<math" in text_with_formulas(source)
        and "\\sum" not in text_with_formulas(source).split("alttext")[0]
    )
    assert formulas_as_source(source) == "mass a = Σ_x min(p(x), q(x)) yields (1 − a^(k+1)) / (1 − a) tokens"
    assert (
        formula_as_text(r"\text{TTFT} = t_{\text{first}} - t_{\text{arrive}}") == "TTFT = t_first − t_arrive"
    )
    assert formula_as_text(r"\max(F / C_{\text{eff}},\ M / BW_{\text{eff}})") == "max(F / C_eff, M / BW_eff)"
    assert formula_as_text(r"\lceil T/S \rceil \times S - T") == "⌈T/S⌉ × S − T"
    assert formula_as_text(r"t_i - t_{i-1}") == "t_i − t_{i−1}"  # cards.js sets t_{i−1} as a subscript


def test_the_glossary_points_to_the_section_named_for_a_term_not_to_a_use_in_passing():
    """Review 30-z1: NVFP4 first appears as a model's precision, sections before the one on NVFP4;
    "Defined in" named the use in passing. The first section whose title names the term (in any
    language, or by its abbreviation; a Latin name as a word of its own, its plural too) is the one,
    else the first use."""
    from types import SimpleNamespace

    from atlas_site.render.glossary import defining_place
    from atlas_site.render.uses import Place

    def term(zh, en, abbr=None):
        return SimpleNamespace(names=SimpleNamespace(root={"zh": zh, "en": en}), abbr=abbr)

    passing = Place("kernels", "dcp", "DCP (the 2026 engineering focus)", "Kernels")
    named = Place("model", "nvfp4-qad", "NVFP4 and QAD: the scales are part of the format", "Model")
    assert defining_place(term("NVFP4", "NVFP4"), [passing, named]) is named
    slos = Place("ch", "scheduling", "Scheduling and SLOs", "Ch. 1")
    assert defining_place(term("服务等级目标", "service-level objective", "SLO"), [passing, slos]) is slos
    inside = Place("ch", "smaller", "Smaller batches", "Ch. 1")  # "SM" inside a word names nothing
    assert (
        defining_place(term("流式多处理器", "streaming multiprocessor", "SM"), [passing, inside]) is passing
    )
    assert (
        defining_place(
            term("连续批处理", "continuous batching"),
            [passing, Place("c", "b", "不必等：连续批处理", "集群")],
        ).section
        == "b"
    )
    assert defining_place(term("x", "y"), []) is None
    # review 30-z19 #5: "KV" in a title is a piece of the KV cache's name, not the term
    trend = Place("frontier", "kv-asset", "Trend 2: KV becomes an asset to schedule", "Frontier")
    assert defining_place(term("KV 缓存", "KV cache", "KV"), [passing, trend]) is passing
