"""Review 33 (phone and information design), in Chromium on the reader's fixture book: a long
display formula stacks at its top-level signs on a phone instead of scrolling, and one that must
scroll says so with a ⇆; the numbers page's cards are value, label and source with the rest under
"more", its column heads and the glossary's A–Z bar stay under the header; the reference pages'
column is centred on a desk; the language chooser's name and way in are two lines; no small type
(code, lab units, subscripts, the site title's box); a long lab label takes its row; the back-to-top
button is small; and a figure caption in side-by-side reading keeps its size with its kind beside it."""

from __future__ import annotations

import pytest

from conftest import LAPTOP, PHONE, TWO_FRAMES
from conftest import open_page as _open


@pytest.fixture(scope="module")
def site(reader_site):
    return reader_site


ROWS = """box => { const tops = new Set([...box.querySelectorAll('.math-piece')].map(p => Math.round(p.getBoundingClientRect().top / 8)));
  return [box.scrollWidth, box.clientWidth, tops.size, box.querySelectorAll('.math-piece').length]; }"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_formula_stacks_at_its_signs_on_a_phone_and_never_scrolls(site, lang):
    for size, most_rows in ((PHONE, 99), (LAPTOP, 2)):
        context, page = _open(site, f"{lang}/ch1.html", **size)
        try:
            box = page.locator(".math-block:has(math[alttext*='T_{\\\\text{transfer}}'])").first
            box.scroll_into_view_if_needed()
            page.evaluate(TWO_FRAMES)
            width, client, rows, pieces = box.evaluate(ROWS)
            assert pieces >= 4, f"the transfer formula is in pieces at its + signs ({pieces})"
            assert width <= client + 1, f"it scrolls sideways: {width} px in {client} ({size})"
            assert rows <= most_rows
            if size is PHONE:
                assert rows >= 3, f"on a phone its pieces stack ({rows} rows)"
            # the reading order is the formula's: one piece after another, each a formula with its text
            alt = box.evaluate(
                "b => [...b.querySelectorAll('math')].map(m => m.getAttribute('alttext')).join(' ')"
            )
            assert alt.startswith("T_{\\text{transfer}} = \\frac") and "t_{\\text{setup}}" in alt
        finally:
            context.close()


def test_a_formula_that_must_scroll_shows_a_scroll_cue_until_scrolled(site):
    context, page = _open(site, "en/ch1.html", **PHONE)
    try:
        box = page.locator(".math-block:has(math[alttext*='latency target'])").first
        box.scroll_into_view_if_needed()
        page.evaluate(TWO_FRAMES)
        page.wait_for_function("b => b.dataset.more === 'end'", arg=box.element_handle())
        cue = box.evaluate("b => getComputedStyle(b.parentElement, '::after').content")
        assert "⇆" in cue, f"no visible scroll cue: {cue!r}"
        box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
        page.wait_for_function("b => b.dataset.more === 'start'", arg=box.element_handle())
        assert "⇆" not in box.evaluate("b => getComputedStyle(b.parentElement, '::after').content")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_numbers_cards_on_a_phone_are_value_label_and_source(site, lang):
    context, page = _open(site, f"{lang}/numbers.html", **PHONE)
    try:
        rows = page.locator(".numbers-table:not(.numbers-examples) tbody tr")
        assert rows.count() >= 2
        first = rows.first
        shown = first.evaluate(
            """tr => [...tr.children].filter(td => td.getClientRects().length).map(td => td.cellIndex)"""
        )
        # review 31-j #10: a number is never on its card without its setting (its first two lines)
        assert shown == [0, 1, 2, 3, 7], f"a card shows value, setting, label, source and 'more' ({shown})"
        lines = first.evaluate(
            "tr => { const td = tr.querySelector('td.claim-setting'), cs = getComputedStyle(td);"
            " return td.textContent.trim() ? td.getBoundingClientRect().height / parseFloat(cs.lineHeight) : 0; }"
        )
        assert 0.9 < lines < 2.5, f"the setting's lines on the card: {lines:.1f}"
        named = first.evaluate("tr => getComputedStyle(tr.children[3], '::before').content")
        assert named not in ("none", "normal", '""'), "the source is named on the card"
        heights = rows.evaluate_all("trs => trs.map(tr => tr.getBoundingClientRect().height)")
        assert max(heights) < 300, f"a card is compact: {max(heights):.0f} px"
        more = first.locator(".numbers-more details")
        setting = first.locator("td.claim-setting").text_content().strip()
        assert not more.locator("dd").first.is_visible()
        more.locator("summary").click()
        assert more.locator("dd").first.is_visible()
        assert more.locator("dd").first.text_content().strip() == setting
        width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1]
    finally:
        context.close()


def _header_bottom(page) -> float:
    return page.evaluate("document.querySelector('.site-header').getBoundingClientRect().bottom")


def test_numbers_heads_stay_under_the_header_on_a_desk_and_the_more_column_is_hidden(site):
    context, page = _open(site, "en/numbers.html", **LAPTOP)
    try:
        assert not page.locator(".numbers-more").first.is_visible()
        head = page.locator(".numbers-table thead th").first
        table_top = page.evaluate(
            "document.querySelector('.numbers-table').getBoundingClientRect().top + scrollY"
        )
        page.evaluate("(y) => scrollTo(0, y)", table_top + 150)
        page.evaluate(TWO_FRAMES)
        assert abs(head.bounding_box()["y"] - _header_bottom(page)) <= 2
    finally:
        context.close()


@pytest.mark.parametrize("size", [PHONE, LAPTOP])
def test_the_glossary_letters_stay_under_the_header(site, size):
    context, page = _open(site, "zh/glossary.html", **size)
    try:
        bar = page.locator(".glossary-letters")
        page.evaluate("scrollTo(0, document.body.scrollHeight / 2)")
        page.evaluate(TWO_FRAMES)
        assert bar.is_visible()
        box = bar.bounding_box()
        assert abs(box["y"] - _header_bottom(page)) <= 2, (box, _header_bottom(page))
        assert box["height"] < 60, "one row"
    finally:
        context.close()


def test_the_glossary_letters_say_when_more_lie_beyond_an_edge(site):
    """Review 31-h #13: on a phone the A–Z bar scrolls sideways with no scrollbar, and nothing said
    that letters lay past its edge. Each edge with more beyond it casts a shadow; a bar that fits
    casts none. (The fixture's seven letters overflow a 220 px window and fit a 390 px one.)"""
    narrow = {**PHONE, "viewport": {"width": 220, "height": 700}}
    for options, beyond in ((narrow, ["end", "start"]), (PHONE, ["none"])):
        context, page = _open(site, "en/glossary.html", **options)
        try:
            bar = page.locator(".glossary-letters")
            page.evaluate(TWO_FRAMES)
            seen = [bar.get_attribute("data-more"), bar.evaluate("b => getComputedStyle(b).boxShadow")]
            if beyond != ["none"]:
                bar.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
                page.evaluate(TWO_FRAMES)
                seen += [bar.get_attribute("data-more"), bar.evaluate("b => getComputedStyle(b).boxShadow")]
            assert seen[0::2] == beyond, seen
            assert bar.get_attribute("role") is None, "still a navigation landmark, not a scrollable group"
            assert all(
                (shadow != "none") is (more != "none")
                for more, shadow in zip(seen[0::2], seen[1::2], strict=True)
            ), seen
        finally:
            context.close()


@pytest.mark.parametrize("path", ["en/bibliography.html", "zh/glossary.html"])
def test_a_reference_page_column_is_centred_on_a_desk(site, path):
    context, page = _open(site, path, **LAPTOP)
    try:
        # the text column: the widest of the page's blocks (its standfirst and lists span the measure)
        left, right = (
            page.evaluate("""(() => { const boxes = [...document.querySelectorAll('main > :not(h1)')]
            .map(e => e.getBoundingClientRect()).filter(r => r.width);
          return [Math.min(...boxes.map(r => r.left)), innerWidth - Math.max(...boxes.map(r => r.right))]; })()""")
        )
        assert abs(left - right) <= 24, (
            f"the column sits off centre: {left:.0f} px left, {right:.0f} px right"
        )
    finally:
        context.close()


def test_the_language_chooser_names_the_language_above_the_way_in(site):
    context, page = _open(site, "index.html", **PHONE)
    try:
        for link in page.locator(".chooser-link").all():
            name = link.locator(".chooser-name").bounding_box()
            enter = link.locator(".chooser-enter").bounding_box()
            assert enter["y"] >= name["y"] + name["height"] - 1, "two lines, not one run of words"
    finally:
        context.close()


SMALLEST = """sel => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length)
  .map(e => parseFloat(getComputedStyle(e).fontSize)).reduce((a, b) => Math.min(a, b), 99)"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_small_type_on_a_phone(site, lang):
    context, page = _open(site, f"{lang}/ch1.html", **PHONE)
    try:
        page.evaluate(
            "document.querySelectorAll('[data-skippable] > *').forEach(e => e.style.contentVisibility = 'visible')"
        )
        page.locator(".lab-panel").first.scroll_into_view_if_needed()  # a lab starts as it comes near
        page.wait_for_selector(".lab-panel.lab-js .lab-field")
        assert page.evaluate(SMALLEST, ".lab-unit") >= 12
        assert page.evaluate(SMALLEST, "code") >= 12
        scripts = "math :is(msub, msup, msubsup) > :not(:first-child)"
        assert page.evaluate(SMALLEST, scripts) >= 12, "subscripts and superscripts of 12 px at least"
        # a long label takes the row: at most two lines beside no empty cell
        labels = page.evaluate("""[...document.querySelectorAll('.lab-field:not(.lab-field-check) label')].map(l =>
          [l.textContent, Math.round(l.getBoundingClientRect().height / parseFloat(getComputedStyle(l).lineHeight))])""")
        assert labels and max(lines for _, lines in labels) <= 2, labels
        # back to top: small, at the edge
        page.evaluate("scrollTo(0, 3000)")
        page.mouse.wheel(0, -400)  # shown by the reader's own scroll back up (review 31-f #6)
        page.wait_for_selector(".to-top.is-shown")
        button = page.locator(".to-top").bounding_box()
        assert 24 <= button["width"] <= 36 and 24 <= button["height"] <= 36, button
        assert button["x"] + button["width"] >= 390 - 12
    finally:
        context.close()


def test_the_site_title_is_a_24px_target_on_a_reference_page(site):
    context, page = _open(site, "en/glossary.html", **LAPTOP)
    try:
        assert page.locator(".site-title").bounding_box()["height"] >= 24
    finally:
        context.close()


def test_a_figure_caption_in_side_by_side_reading_keeps_its_size_and_its_kind(site):
    context, page = _open(site, "en/ch1.html", **LAPTOP)
    try:
        page.locator("[data-parallel-also]").click()  # on a desk the contents hold the one switch
        page.wait_for_selector("article.is-parallel .twin")
        caption = page.locator("article .figure figcaption").first
        caption.scroll_into_view_if_needed()
        size = caption.evaluate("c => parseFloat(getComputedStyle(c).fontSize)")
        assert size >= 14, f"caption at {size} px"
        badge = caption.locator(".badge-fig").bounding_box()
        box = caption.bounding_box()
        number = caption.locator(".fig-number").bounding_box()
        assert box["x"] <= badge["x"] <= box["x"] + box["width"] - badge["width"], (
            "the kind stays in the caption"
        )
        assert abs(badge["y"] - number["y"]) < 12 and badge["x"] - (number["x"] + number["width"]) < 40, (
            "the kind follows the figure's number"
        )
    finally:
        context.close()


def test_a_misconception_is_slanted_in_english_and_upright_in_chinese(site):
    """Review 31-e #6: Chinese has no italic, and the browser slanted the Chinese mistaken statement
    (a faux italic); the tag before it marks it in both languages."""
    styles = {}
    for lang in ("zh", "en"):
        context, page = _open(site, f"{lang}/ch1.html", **PHONE)
        try:
            styles[lang] = page.evaluate(
                "() => getComputedStyle(document.querySelector('.misconception-statement')).fontStyle"
            )
        finally:
            context.close()
    assert styles == {"zh": "normal", "en": "italic"}


@pytest.fixture(scope="module")
def speculative_site(tmp_path_factory, chromium):
    """The reader's fixture book with Lab C (speculative decoding) after its chapter's last part."""
    from atlas_site.build import build
    from atlas_site.gates.browser import serve_folder
    from conftest import make_reader

    project = make_reader(tmp_path_factory.mktemp("speculative"))
    for lang in ("zh", "en"):
        part = project / "content" / lang / "ch1" / "10-fleet.md"
        part.write_text(part.read_text(encoding="utf-8") + "\n{{labs:speculative}}\n", encoding="utf-8")
    folder = project / "_site"
    result = build(project, folder, search=False)
    assert result.output is not None and not result.errors, "\n".join(map(str, result.errors))
    with serve_folder(folder) as url:
        yield {"base": url, "browser": chromium}


CROSSES = """() => { const svg = document.querySelector('#lab-speculative-panel [data-lab-chart="k-scan"] svg');
  const line = svg.querySelector('.lab-mark-limit'); const y = parseFloat(line.getAttribute('y1'));
  return [...svg.querySelectorAll('.lab-chart-mark')].map(t => { const b = t.getBBox();
    return [t.textContent, b.y <= y && y <= b.y + b.height]; }); }"""


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(
    "state", ["k=1&acceptance=0.3&draft_cost=0.3", "k=1&acceptance=0.2&draft_cost=0.05", "k=4"]
)
def test_the_speculative_charts_labels_stay_off_the_1x_line(speculative_site, lang, state):
    context, page = _open(speculative_site, f"{lang}/ch1-fleet.html#lab-speculative-panel?{state}", **PHONE)
    try:
        page.locator("#lab-speculative-panel.lab-js").wait_for(timeout=15000)
        page.wait_for_selector("#lab-speculative-panel .lab-chart-mark-best")
        marks = page.evaluate(CROSSES)
        assert marks and not any(crossed for _, crossed in marks), f"a label on the dashed 1× line: {marks}"
    finally:
        context.close()


COMMA_APART = """(p) => {
  const apart = [];
  for (let width = 150; width <= 358; width += 4) {
    p.style.maxWidth = width + 'px';
    for (const group of p.querySelectorAll('.cites[data-long]')) {
      const walker = document.createTreeWalker(group, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        const at = text.data.indexOf(',');
        const label = text.previousSibling;
        if (at < 0 || !label || label.nodeType !== 1) continue;
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + 1);
        const comma = range.getBoundingClientRect(), box = label.getBoundingClientRect();
        if (Math.abs((comma.top + comma.bottom) / 2 - (box.top + box.bottom) / 2) > 6) apart.push([width, label.textContent]);
      }
    }
  }
  p.style.maxWidth = '';
  return apart;
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_citation_list_wraps_only_after_a_comma(site, lang):
    """Review 31-v #5: a caption on a phone began a line with ", N62]": each label's widened tap
    target is an atomic inline, so a line could break between a label and its comma."""
    context, page = _open(site, f"{lang}/ch1-fleet.html", **PHONE)
    try:
        paragraph = page.locator("p", has=page.locator(".cites[data-long]")).first
        assert paragraph.count() == 1, "the fixture has a list of four citations"
        assert paragraph.evaluate(COMMA_APART) == []
    finally:
        context.close()
